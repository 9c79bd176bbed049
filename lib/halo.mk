# lib/halo.mk: partitions (regular grids, unstructured meshes) and the halo
# exchange; their tests and the halo benchmark.
lib_libtessera_la_SOURCES += lib/src/part_regular.c lib/src/part_mesh.c lib/src/part_mesh_build.c \
	lib/src/part_mesh_halo.c lib/src/part_internal.h lib/src/part_plane.c lib/src/halo.c \
	lib/src/halo_ipc.c lib/src/halo_internal.h
tsr_include_HEADERS += lib/include/tessera/part.h lib/include/tessera/halo.h
if HAVE_PTSCOTCH
lib_libtessera_la_SOURCES += lib/src/part_mesh_ptscotch.c
endif
if HAVE_CUDA
lib_libtessera_la_SOURCES += lib/src/cuda/halo_pack.cu
endif

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_part tests/mpi/check_halo_regular tests/mpi/check_part_mesh \
	tests/cuda/check_halo_pack tests/mpi/check_halo_ipc
TESTS += tests/unit/check_part tests/mpi/check_halo_regular tests/mpi/check_part_mesh \
	tests/cuda/check_halo_pack tests/mpi/check_halo_ipc
tests_unit_check_part_SOURCES = tests/unit/check_part.c
tests_unit_check_part_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_part_LDADD = $(TEST_LDADD)
tests_mpi_check_halo_regular_SOURCES = tests/mpi/check_halo_regular.c
tests_mpi_check_halo_regular_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_halo_regular_LDADD = $(TEST_LDADD)
tests_mpi_check_part_mesh_SOURCES = tests/mpi/check_part_mesh.c
tests_mpi_check_part_mesh_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_part_mesh_LDADD = $(TEST_LDADD)
tests_mpi_check_halo_ipc_SOURCES = tests/mpi/check_halo_ipc.c
tests_mpi_check_halo_ipc_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_halo_ipc_LDADD = $(TEST_LDADD)
tests_cuda_check_halo_pack_SOURCES = tests/cuda/check_halo_pack.c
tests_cuda_check_halo_pack_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_halo_pack_LDADD = $(TEST_LDADD)
endif
