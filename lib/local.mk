# lib/: libtessera (host code, plus device code when built with CUDA).
lib_LTLIBRARIES += lib/libtessera.la
lib_libtessera_la_SOURCES = lib/src/error.c lib/src/fault.c lib/src/memory.c lib/src/device.c
lib_libtessera_la_LIBADD = $(HDF5_LIBS) $(METIS_LIBS) $(PTSCOTCH_LIBS) -lm
lib_libtessera_la_LDFLAGS = -version-info 0:0:0 $(AM_LDFLAGS)
if HAVE_CUDA
lib_libtessera_la_LIBADD += $(CUDA_LIBS) -lstdc++
endif
include_HEADERS += lib/include/tessera.h
tsr_include_HEADERS += lib/include/tessera/common.h lib/include/tessera/error.h \
	lib/include/tessera/device.h lib/include/tessera/cuda.h \
	lib/include/tessera/fault.h lib/include/tessera/memory.h
# the node: node-local rank and count, OpenMP threads per rank
lib_libtessera_la_SOURCES += lib/src/node.c
tsr_include_HEADERS += lib/include/tessera/node.h

pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = lib/tessera.pc
EXTRA_DIST += lib/tessera.pc.in
include lib/cmake.mk

# Each module adds its sources and headers in its own fragment (its tests are
# tests/'s, its tools apps/').
include lib/layout.mk
include lib/neigh.mk
include lib/meshio.mk
include lib/halo.mk
include lib/xfer.mk
include lib/app.mk
include lib/provenance.mk
include lib/colour.mk
include lib/graph.mk
include lib/reorder.mk
include lib/checkpoint.mk
