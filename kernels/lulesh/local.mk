# kernels/lulesh/local.mk: the LULESH 2.0 physics library (serial CPU
# reference: kernels/lulesh).
noinst_LTLIBRARIES += kernels/lulesh/libtsr_lulesh.la
kernels_lulesh_libtsr_lulesh_la_SOURCES = kernels/lulesh/lulesh.h kernels/lulesh/lulesh_mesh.h \
	kernels/lulesh/lulesh_mesh.c kernels/lulesh/lulesh_cpu.c
# hex-mesh files (tessera/hex.h) and renumberings of a mesh
kernels_lulesh_libtsr_lulesh_la_SOURCES += kernels/lulesh/lulesh_io.h kernels/lulesh/lulesh_io.c \
	kernels/lulesh/lulesh_renumber.c
# Bit-for-bit agreement with LULESH's serial results needs no contraction to FMA.
kernels_lulesh_libtsr_lulesh_la_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
LULESH_LDADD = kernels/lulesh/libtsr_lulesh.la lib/libtessera.la -lm

# The CUDA step (lulesh_cuda.cu): the same arithmetic without FMA contraction.
CU_FILES += kernels/lulesh/lulesh_cuda.cu
EXTRA_DIST += kernels/lulesh/lulesh_cuda.h
if HAVE_CUDA
kernels_lulesh_libtsr_lulesh_la_SOURCES += kernels/lulesh/lulesh_cuda.cu kernels/lulesh/lulesh_cuda.h
LULESH_LDADD += $(CUDA_LIBS) -lstdc++
endif
kernels/lulesh/lulesh_cuda.lo: NVCCFLAGS += --fmad=false
