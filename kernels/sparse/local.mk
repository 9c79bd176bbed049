# kernels/sparse/local.mk: sparse grids (hierarchization, evaluation, the
# distributed hierarchization; CPU and CUDA variants, variants.def), libfastsg.la.
noinst_LTLIBRARIES += kernels/sparse/libfastsg.la
kernels_sparse_libfastsg_la_SOURCES = kernels/sparse/sg.c kernels/sparse/sg_cpu.c \
	kernels/sparse/sg.h kernels/sparse/sg_kernels.h kernels/sparse/sg_cpu_impl.h \
	kernels/sparse/sg_dist.c kernels/sparse/sg_dist_run.c kernels/sparse/sg_dist.h \
	kernels/sparse/sg_walk.h kernels/sparse/sg_walk_pt.h kernels/sparse/sg_cpu_eval.c \
	kernels/sparse/sg_cpu_eval_impl.h kernels/sparse/sg_cuda_eval.cuh
CU_FILES += kernels/sparse/sg_cuda.cu kernels/sparse/sg_dist_cuda.cu \
	kernels/sparse/sg_cuda_eval.cu kernels/sparse/sg_cuda_simplex.cu
if HAVE_CUDA
kernels_sparse_libfastsg_la_SOURCES += kernels/sparse/sg_cuda.cu kernels/sparse/sg_dist_cuda.cu \
	kernels/sparse/sg_cuda_eval.cu kernels/sparse/sg_cuda_simplex.cu
kernels_sparse_libfastsg_la_LIBADD = $(CUDA_LIBS) -lstdc++
endif
EXTRA_DIST += kernels/sparse/variants.def
SPARSE_LDADD = kernels/sparse/libfastsg.la lib/libtessera.la $(HDF5_LIBS) -lm
