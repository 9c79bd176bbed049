# lib/meshio.mk: meshes and their HDF5 files (tessera/mesh.h, tessera/io.h).
lib_libtessera_la_SOURCES += lib/src/mesh.c lib/src/io_internal.h lib/src/io_file.c lib/src/io_tmp.c \
	lib/src/io_mesh.c lib/src/io_grid.c lib/src/io_box.c lib/src/io_xdmf.c lib/src/io_hex.c
tsr_include_HEADERS += lib/include/tessera/mesh.h lib/include/tessera/io.h lib/include/tessera/hex.h
