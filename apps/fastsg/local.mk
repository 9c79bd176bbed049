# apps/fastsg/local.mk: the fastsg app, its kernels (kernels/sparse) and its tests.
noinst_LTLIBRARIES += kernels/sparse/libfastsg.la
kernels_sparse_libfastsg_la_SOURCES = kernels/sparse/sg.c kernels/sparse/sg_cpu.c \
	kernels/sparse/sg.h kernels/sparse/sg_kernels.h kernels/sparse/sg_cpu_impl.h \
	kernels/sparse/sg_dist.c kernels/sparse/sg_dist_run.c kernels/sparse/sg_dist.h \
	kernels/sparse/sg_walk.h kernels/sparse/sg_walk_pt.h kernels/sparse/sg_cpu_eval.c \
	kernels/sparse/sg_cpu_eval_impl.h
EXTRA_DIST += kernels/sparse/variants.def kernels/sparse/sg_cuda.cu kernels/sparse/sg_dist_cuda.cu \
	kernels/sparse/sg_cuda_eval.cu
if HAVE_CUDA
kernels_sparse_libfastsg_la_SOURCES += kernels/sparse/sg_cuda.cu kernels/sparse/sg_dist_cuda.cu \
	kernels/sparse/sg_cuda_eval.cu
kernels_sparse_libfastsg_la_LIBADD = $(CUDA_LIBS) -lstdc++
endif
FASTSG_LIBS = kernels/sparse/libfastsg.la lib/libtessera.la $(HDF5_LIBS) -lm

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_sparse
TESTS += tests/unit/check_sparse
tests_unit_check_sparse_SOURCES = tests/unit/check_sparse.c
tests_unit_check_sparse_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_sparse_LDADD = kernels/sparse/libfastsg.la $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_sparse_walk
TESTS += tests/unit/check_sparse_walk
tests_unit_check_sparse_walk_SOURCES = tests/unit/check_sparse_walk.c tests/sparse_eval_case.h
tests_unit_check_sparse_walk_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_sparse_walk_LDADD = kernels/sparse/libfastsg.la $(TEST_LDADD)
check_PROGRAMS += tests/cuda/check_sparse_cuda_eval
TESTS += tests/cuda/check_sparse_cuda_eval
tests_cuda_check_sparse_cuda_eval_SOURCES = tests/cuda/check_sparse_cuda_eval.c tests/sparse_eval_case.h
tests_cuda_check_sparse_cuda_eval_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_sparse_cuda_eval_LDADD = kernels/sparse/libfastsg.la $(TEST_LDADD)
check_PROGRAMS += tests/cuda/check_sparse_cuda
TESTS += tests/cuda/check_sparse_cuda
tests_cuda_check_sparse_cuda_SOURCES = tests/cuda/check_sparse_cuda.c
tests_cuda_check_sparse_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_sparse_cuda_LDADD = kernels/sparse/libfastsg.la $(TEST_LDADD)
endif

bin_PROGRAMS += apps/tsr-fastsg
apps_tsr_fastsg_SOURCES = apps/fastsg/fastsg.c apps/fastsg/fastsg_run.c apps/fastsg/fastsg_io.c \
	apps/fastsg/fastsg_dist.c \
	apps/fastsg/fastsg.h
apps_tsr_fastsg_LDADD = $(FASTSG_LIBS)
TESTS += tests/apps/fastsg.sh
EXTRA_DIST += tests/apps/fastsg.sh
check_PROGRAMS += tests/apps/fastsg_mkbad
tests_apps_fastsg_mkbad_SOURCES = tests/apps/fastsg_mkbad.c
tests_apps_fastsg_mkbad_LDADD = lib/libtessera.la $(HDF5_LIBS)

# distributed hierarchization (kernels/sparse/sg_dist*): at 1..4 ranks
if HAVE_CHECK
check_PROGRAMS += tests/mpi/check_fastsg_dist tests/mpi/check_fastsg_dist_cuda
TESTS += tests/mpi/check_fastsg_dist tests/mpi/check_fastsg_dist_cuda
tests_mpi_check_fastsg_dist_SOURCES = tests/mpi/check_fastsg_dist.c tests/mpi/check_fastsg_dist_impl.h
tests_mpi_check_fastsg_dist_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_fastsg_dist_LDADD = kernels/sparse/libfastsg.la $(TEST_LDADD)
tests_mpi_check_fastsg_dist_cuda_SOURCES = tests/mpi/check_fastsg_dist_cuda.c
tests_mpi_check_fastsg_dist_cuda_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_fastsg_dist_cuda_LDADD = kernels/sparse/libfastsg.la $(TEST_LDADD)
endif
TESTS += tests/apps/fastsg_dist.sh
EXTRA_DIST += tests/apps/fastsg_dist.sh
EXTRA_DIST += scripts/fastsg-speedups
