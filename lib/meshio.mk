# lib/meshio.mk: fragment of the meshio module (sources, headers, tests, tools).
lib_libtessera_la_SOURCES += lib/src/mesh.c
tsr_include_HEADERS += lib/include/tessera/mesh.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_mesh
TESTS += tests/unit/check_mesh
tests_unit_check_mesh_SOURCES = tests/unit/check_mesh.c
tests_unit_check_mesh_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_mesh_LDADD = $(TEST_LDADD)
endif
