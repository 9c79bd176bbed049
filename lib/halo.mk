# lib/halo.mk: partitions (regular grids, unstructured meshes) and the halo
# exchange.
lib_libtessera_la_SOURCES += lib/src/part_regular.c lib/src/part_mesh.c lib/src/part_mesh_build.c \
	lib/src/part_mesh_halo.c lib/src/part_internal.h lib/src/part_plane.c lib/src/halo.c \
	lib/src/halo_graph.c lib/src/halo_packing.c lib/src/halo_ipc.c lib/src/halo_nccl.c lib/src/halo_internal.h
tsr_include_HEADERS += lib/include/tessera/part.h lib/include/tessera/halo.h
if HAVE_PTSCOTCH
lib_libtessera_la_SOURCES += lib/src/part_mesh_ptscotch.c
endif
CU_FILES += lib/src/cuda/halo_pack.cu
if HAVE_CUDA
lib_libtessera_la_SOURCES += lib/src/cuda/halo_pack.cu
endif
