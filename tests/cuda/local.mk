# tests/cuda/local.mk: CUDA variants against their CPU references (each skips
# without a GPU or a CUDA build).
if HAVE_CHECK
# lib
check_PROGRAMS += tests/cuda/check_halo_pack
TESTS += tests/cuda/check_halo_pack
tests_cuda_check_halo_pack_SOURCES = tests/cuda/check_halo_pack.c
tests_cuda_check_halo_pack_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_halo_pack_LDADD = $(TEST_LDADD)

# kernels/copy
check_PROGRAMS += tests/cuda/check_copy
TESTS += tests/cuda/check_copy
tests_cuda_check_copy_SOURCES = tests/cuda/check_copy.c
tests_cuda_check_copy_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_copy_LDADD = $(COPY_LDADD) $(TEST_LDADD)

# kernels/airfoil, on meshes from inputs/
check_PROGRAMS += tests/cuda/check_airfoil_cuda
TESTS += tests/cuda/check_airfoil_cuda
tests_cuda_check_airfoil_cuda_SOURCES = tests/cuda/check_airfoil_cuda.c
tests_cuda_check_airfoil_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_airfoil_cuda_LDADD = inputs/libtsr_inputs.la $(AIRFOIL_LDADD) $(TEST_LDADD)

# kernels/sparse
check_PROGRAMS += tests/cuda/check_sparse_cuda
TESTS += tests/cuda/check_sparse_cuda
tests_cuda_check_sparse_cuda_SOURCES = tests/cuda/check_sparse_cuda.c
tests_cuda_check_sparse_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_sparse_cuda_LDADD = $(SPARSE_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/cuda/check_sparse_cuda_eval
TESTS += tests/cuda/check_sparse_cuda_eval
tests_cuda_check_sparse_cuda_eval_SOURCES = tests/cuda/check_sparse_cuda_eval.c tests/sparse_eval_case.h
tests_cuda_check_sparse_cuda_eval_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_sparse_cuda_eval_LDADD = $(SPARSE_LDADD) $(TEST_LDADD)

# kernels/layout
check_PROGRAMS += tests/cuda/check_matmul
TESTS += tests/cuda/check_matmul
tests_cuda_check_matmul_SOURCES = tests/cuda/check_matmul.c
tests_cuda_check_matmul_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_matmul_LDADD = $(LAYOUT_LDADD) $(TEST_LDADD)

# kernels/stencil's CUDA variants.
# check_stencil_mpi and check_stencil_cuda are the two tests that link an
# app's code: apps/stencil/libtsr_stencil_app.la (they include stencil_app.h).
check_PROGRAMS += tests/cuda/check_stencil_cuda
TESTS += tests/cuda/check_stencil_cuda
tests_cuda_check_stencil_cuda_SOURCES = tests/cuda/check_stencil_cuda.c
tests_cuda_check_stencil_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_stencil_cuda_LDADD = apps/stencil/libtsr_stencil_app.la $(STENCIL_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/cuda/check_stencil_tb_cuda
TESTS += tests/cuda/check_stencil_tb_cuda
tests_cuda_check_stencil_tb_cuda_SOURCES = tests/cuda/check_stencil_tb_cuda.c tests/stencil_tb_case.h
tests_cuda_check_stencil_tb_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_stencil_tb_cuda_LDADD = $(STENCIL_LDADD) $(TEST_LDADD)

# kernels/lulesh's CUDA step against its CPU reference.
check_PROGRAMS += tests/cuda/check_lulesh_cuda
TESTS += tests/cuda/check_lulesh_cuda
tests_cuda_check_lulesh_cuda_SOURCES = tests/cuda/check_lulesh_cuda.c tests/lulesh_check.h
tests_cuda_check_lulesh_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_lulesh_cuda_LDADD = $(LULESH_LDADD) $(TEST_LDADD)
endif
