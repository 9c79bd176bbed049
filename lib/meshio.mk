# lib/meshio.mk: fragment of the meshio module (sources, headers, tests, tools).
lib_libtessera_la_SOURCES += lib/src/mesh.c lib/src/io_internal.h lib/src/io_file.c \
	lib/src/io_mesh.c lib/src/io_grid.c lib/src/io_xdmf.c
tsr_include_HEADERS += lib/include/tessera/mesh.h lib/include/tessera/io.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_mesh
TESTS += tests/unit/check_mesh
tests_unit_check_mesh_SOURCES = tests/unit/check_mesh.c
tests_unit_check_mesh_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_mesh_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_io
TESTS += tests/unit/check_io
tests_unit_check_io_SOURCES = tests/unit/check_io.c
tests_unit_check_io_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_io_LDADD = $(TEST_LDADD)
endif
