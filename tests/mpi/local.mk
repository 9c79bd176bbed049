# tests/mpi/local.mk: MPI tests (tests/driver runs them at several rank counts).
if HAVE_CHECK
# lib
check_PROGRAMS += tests/mpi/check_halo_regular
TESTS += tests/mpi/check_halo_regular
tests_mpi_check_halo_regular_SOURCES = tests/mpi/check_halo_regular.c
tests_mpi_check_halo_regular_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_halo_regular_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_part_mesh
TESTS += tests/mpi/check_part_mesh
tests_mpi_check_part_mesh_SOURCES = tests/mpi/check_part_mesh.c
tests_mpi_check_part_mesh_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_part_mesh_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_halo_ipc
TESTS += tests/mpi/check_halo_ipc
tests_mpi_check_halo_ipc_SOURCES = tests/mpi/check_halo_ipc.c
tests_mpi_check_halo_ipc_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_halo_ipc_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_hex_io
TESTS += tests/mpi/check_hex_io
tests_mpi_check_hex_io_SOURCES = tests/mpi/check_hex_io.c
tests_mpi_check_hex_io_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_hex_io_LDADD = $(LULESH_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_io_mpi
TESTS += tests/mpi/check_io_mpi
tests_mpi_check_io_mpi_SOURCES = tests/mpi/check_io_mpi.c
tests_mpi_check_io_mpi_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_io_mpi_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_node
TESTS += tests/mpi/check_node
tests_mpi_check_node_SOURCES = tests/mpi/check_node.c
tests_mpi_check_node_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_node_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_xfer
TESTS += tests/mpi/check_xfer
tests_mpi_check_xfer_SOURCES = tests/mpi/check_xfer.c
tests_mpi_check_xfer_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_xfer_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_run
TESTS += tests/mpi/check_run
tests_mpi_check_run_SOURCES = tests/mpi/check_run.c
tests_mpi_check_run_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_run_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_auto
TESTS += tests/mpi/check_auto
tests_mpi_check_auto_SOURCES = tests/mpi/check_auto.c
tests_mpi_check_auto_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_auto_LDADD = $(TEST_LDADD)

# kernels/airfoil, on meshes from inputs/
check_PROGRAMS += tests/mpi/check_airfoil_mpi
TESTS += tests/mpi/check_airfoil_mpi
tests_mpi_check_airfoil_mpi_SOURCES = tests/mpi/check_airfoil_mpi.c
tests_mpi_check_airfoil_mpi_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_airfoil_mpi_LDADD = inputs/libtsr_inputs.la $(AIRFOIL_LDADD) $(TEST_LDADD)

# kernels/lulesh: the distributed Sedov problem (parts, exchanges, runs)
check_PROGRAMS += tests/mpi/check_lulesh_dist
TESTS += tests/mpi/check_lulesh_dist
tests_mpi_check_lulesh_dist_SOURCES = tests/mpi/check_lulesh_dist.c tests/lulesh_check.h
tests_mpi_check_lulesh_dist_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_lulesh_dist_LDADD = $(LULESH_LDADD) $(TEST_LDADD)
# the same on the GPU (each assembly against the CPU's parts and one rank;
# skips without a GPU)
check_PROGRAMS += tests/mpi/check_lulesh_dist_cuda
TESTS += tests/mpi/check_lulesh_dist_cuda
tests_mpi_check_lulesh_dist_cuda_SOURCES = tests/mpi/check_lulesh_dist_cuda.c tests/lulesh_check.h
tests_mpi_check_lulesh_dist_cuda_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_lulesh_dist_cuda_LDADD = $(LULESH_LDADD) $(TEST_LDADD)

# kernels/sparse: the distributed hierarchization
check_PROGRAMS += tests/mpi/check_fastsg_dist
TESTS += tests/mpi/check_fastsg_dist
tests_mpi_check_fastsg_dist_SOURCES = tests/mpi/check_fastsg_dist.c tests/mpi/check_fastsg_dist_impl.h
tests_mpi_check_fastsg_dist_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_fastsg_dist_LDADD = $(SPARSE_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/mpi/check_fastsg_dist_cuda
TESTS += tests/mpi/check_fastsg_dist_cuda
tests_mpi_check_fastsg_dist_cuda_SOURCES = tests/mpi/check_fastsg_dist_cuda.c
tests_mpi_check_fastsg_dist_cuda_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_fastsg_dist_cuda_LDADD = $(SPARSE_LDADD) $(TEST_LDADD)

# kernels/stencil across ranks (the unstructured runs' distribution too).
# check_stencil_mpi and check_stencil_cuda are the two tests that link an
# app's code: apps/stencil/libtsr_stencil_app.la (they include stencil_app.h).
check_PROGRAMS += tests/mpi/check_stencil_mpi
TESTS += tests/mpi/check_stencil_mpi
tests_mpi_check_stencil_mpi_SOURCES = tests/mpi/check_stencil_mpi.c
tests_mpi_check_stencil_mpi_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_stencil_mpi_LDADD = apps/stencil/libtsr_stencil_app.la $(STENCIL_LDADD) $(TEST_LDADD)
endif
