# kernels/lulesh/local.mk: the LULESH 2.0 physics library (serial CPU
# reference: kernels/lulesh).
noinst_LTLIBRARIES += kernels/lulesh/libtsr_lulesh.la
kernels_lulesh_libtsr_lulesh_la_SOURCES = kernels/lulesh/lulesh.h kernels/lulesh/lulesh_mesh.h \
	kernels/lulesh/lulesh_mesh.c kernels/lulesh/lulesh_cpu.c kernels/lulesh/lulesh_dist.h \
	kernels/lulesh/lulesh_dist.c kernels/lulesh/lulesh_dist_mesh.c \
	kernels/lulesh/lulesh_dist_file.c kernels/lulesh/lulesh_dist_split.c kernels/lulesh/lulesh_split.h
# hex-mesh files (tessera/hex.h) and renumberings of a mesh
kernels_lulesh_libtsr_lulesh_la_SOURCES += kernels/lulesh/lulesh_io.h kernels/lulesh/lulesh_io.c \
	kernels/lulesh/lulesh_renumber.c
# Bit-for-bit agreement with LULESH's serial results needs no contraction to FMA.
kernels_lulesh_libtsr_lulesh_la_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
LULESH_LDADD = kernels/lulesh/libtsr_lulesh.la lib/libtessera.la -lm

# The CUDA step: state, stages and driver (lulesh_cuda.cu), the atomic, colour
# and two-level node-force assemblies (lulesh_cuda_asm.cu), the fused kernels
# (lulesh_cuda_fused.cu): the same arithmetic without FMA contraction; the
# last two again with FMA contraction (lulesh_cuda_fma.cu) for the -fma variant;
# the cycle of a distributed run on the GPU (lulesh_cuda_dist.c, plain C).
LULESH_CU = kernels/lulesh/lulesh_cuda.cu kernels/lulesh/lulesh_cuda_asm.cu \
	kernels/lulesh/lulesh_cuda_fused.cu kernels/lulesh/lulesh_cuda_fma.cu
CU_FILES += $(LULESH_CU)
EXTRA_DIST += kernels/lulesh/lulesh_cuda.h kernels/lulesh/lulesh_cuda.cuh \
	kernels/lulesh/lulesh_cuda_dist.c
if HAVE_CUDA
kernels_lulesh_libtsr_lulesh_la_SOURCES += $(LULESH_CU) kernels/lulesh/lulesh_cuda.h \
	kernels/lulesh/lulesh_cuda.cuh kernels/lulesh/lulesh_cuda_dist.c
LULESH_LDADD += $(CUDA_LIBS) -lstdc++
endif
kernels/lulesh/lulesh_cuda.lo kernels/lulesh/lulesh_cuda_asm.lo \
	kernels/lulesh/lulesh_cuda_fused.lo: NVCCFLAGS += --fmad=false
kernels/lulesh/lulesh_cuda_fma.lo: NVCCFLAGS += --fmad=true
