# lib/meshio.mk: fragment of the meshio module (sources, headers, tests, tools).
lib_libtessera_la_SOURCES += lib/src/mesh.c lib/src/io_internal.h lib/src/io_file.c \
	lib/src/io_mesh.c lib/src/io_grid.c lib/src/io_box.c lib/src/io_xdmf.c
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
check_PROGRAMS += tests/mpi/check_io_mpi
TESTS += tests/mpi/check_io_mpi
tests_mpi_check_io_mpi_SOURCES = tests/mpi/check_io_mpi.c
tests_mpi_check_io_mpi_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_io_mpi_LDADD = $(TEST_LDADD)
endif

# tsr-info: summary and check of any Tessera or OP2 HDF5 file
bin_PROGRAMS += apps/tsr-info
apps_tsr_info_SOURCES = apps/info/info.c
apps_tsr_info_LDADD = lib/libtessera.la $(HDF5_LIBS) -lm

# bad input: tsr-info on malformed files made by mkbad
if HAVE_CHECK
check_PROGRAMS += tests/apps/mkbad
tests_apps_mkbad_SOURCES = tests/apps/mkbad.c
tests_apps_mkbad_LDADD = $(HDF5_LIBS)
TESTS += tests/apps/bad_input.sh
endif
EXTRA_DIST += tests/apps/bad_input.sh
