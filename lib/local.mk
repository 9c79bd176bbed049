# lib/: libtessera (host code, plus device code when built with CUDA).
lib_LTLIBRARIES += lib/libtessera.la
lib_libtessera_la_SOURCES = lib/src/error.c lib/src/device.c
lib_libtessera_la_LIBADD = $(HDF5_LIBS) $(METIS_LIBS) $(PTSCOTCH_LIBS) -lm
lib_libtessera_la_LDFLAGS = -version-info 0:0:0 $(AM_LDFLAGS)
if HAVE_CUDA
lib_libtessera_la_LIBADD += $(CUDA_LIBS) -lstdc++
endif
include_HEADERS += lib/include/tessera.h
tsr_include_HEADERS += lib/include/tessera/common.h lib/include/tessera/error.h \
	lib/include/tessera/device.h lib/include/tessera/cuda.h
# the node: node-local rank and count, OpenMP threads per rank
lib_libtessera_la_SOURCES += lib/src/node.c
tsr_include_HEADERS += lib/include/tessera/node.h
if HAVE_CHECK
check_PROGRAMS += tests/mpi/check_node
TESTS += tests/mpi/check_node
tests_mpi_check_node_SOURCES = tests/mpi/check_node.c
tests_mpi_check_node_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_node_LDADD = $(TEST_LDADD)
endif

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = lib/tessera.pc
EXTRA_DIST += lib/tessera.pc.in

# Each module adds its sources, headers, tests and tools in its own fragment.
include lib/layout.mk
include lib/neigh.mk
include lib/meshio.mk
include lib/halo.mk
include lib/app.mk
include lib/colour.mk
include lib/reorder.mk
