# kernels/stencil/local.mk: laplap, hdiff and fastwaves on regular and
# X-Y-unstructured grids (CPU and CUDA variants, variants.def), libtsr_stencil.la.
noinst_LTLIBRARIES += kernels/stencil/libtsr_stencil.la
kernels_stencil_libtsr_stencil_la_SOURCES = \
	kernels/stencil/stencil.h kernels/stencil/stencil_problem.h \
	kernels/stencil/stencil_cpu.c kernels/stencil/stencil_grid.c \
	kernels/stencil/stencil_shape.c kernels/stencil/stencil_win.c \
	kernels/stencil/stencil_tb.h kernels/stencil/stencil_tb_cpu.c
CU_FILES += kernels/stencil/stencil_cuda_laplap.cu \
	kernels/stencil/stencil_cuda_hdiff.cu kernels/stencil/stencil_cuda_fastwaves.cu \
	kernels/stencil/stencil_cuda_tb.cu
if HAVE_CUDA
kernels_stencil_libtsr_stencil_la_SOURCES += kernels/stencil/stencil_cuda_laplap.cu \
	kernels/stencil/stencil_cuda_hdiff.cu kernels/stencil/stencil_cuda_fastwaves.cu \
	kernels/stencil/stencil_cuda_tb.cu
endif
kernels_stencil_libtsr_stencil_la_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
EXTRA_DIST += kernels/stencil/stencil_arith.inc kernels/stencil/stencil_ref.inc \
	kernels/stencil/stencil_cpu.inc kernels/stencil/stencil_cuda.cuh \
	kernels/stencil/stencil_win.inc kernels/stencil/stencil_cuda_win.cuh \
	kernels/stencil/stencil_tb_cpu.inc \
	kernels/stencil/variants.def
STENCIL_LDADD = kernels/stencil/libtsr_stencil.la lib/libtessera.la $(HDF5_LIBS) $(METIS_LIBS) -lm
if HAVE_CUDA
STENCIL_LDADD += $(CUDA_LIBS) -lstdc++
endif
