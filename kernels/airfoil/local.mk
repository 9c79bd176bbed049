# kernels/airfoil/local.mk: OP2's Airfoil, libtsr_airfoil.la: the kernels (CPU
# and CUDA variants, variants.def), the mesh checks and constants
# (airfoil_mesh), OP2's HDF5 files (airfoil_io) and the distribution over
# ranks (airfoil_part).
noinst_LTLIBRARIES += kernels/airfoil/libtsr_airfoil.la
kernels_airfoil_libtsr_airfoil_la_SOURCES = \
	kernels/airfoil/airfoil.h kernels/airfoil/airfoil_run.h \
	kernels/airfoil/airfoil_cpu.c kernels/airfoil/airfoil_cuda_run.c kernels/airfoil/airfoil_profile.c \
	kernels/airfoil/airfoil_mesh.h kernels/airfoil/airfoil_mesh.c kernels/airfoil/airfoil_io.c \
	kernels/airfoil/airfoil_part.c
CU_FILES += kernels/airfoil/airfoil_cuda.cu kernels/airfoil/airfoil_cuda_shared.cu
if HAVE_CUDA
kernels_airfoil_libtsr_airfoil_la_SOURCES += kernels/airfoil/airfoil_cuda.cu \
	kernels/airfoil/airfoil_cuda_shared.cu kernels/airfoil/airfoil_cuda_graph.c
endif
EXTRA_DIST += kernels/airfoil/airfoil_kernels.inc kernels/airfoil/variants.def \
	kernels/airfoil/airfoil_cuda.cuh kernels/airfoil/airfoil_cuda_graph.h \
	kernels/airfoil/airfoil_cuda_graph.c
AIRFOIL_LDADD = kernels/airfoil/libtsr_airfoil.la lib/libtessera.la $(HDF5_LIBS) -lm
if HAVE_CUDA
AIRFOIL_LDADD += $(CUDA_LIBS) -lstdc++
endif
