# lib/neigh.mk: neighbour tables of X-Y-unstructured, Z-regular grids (tessera/neigh.h).
lib_libtessera_la_SOURCES += lib/src/neigh.c lib/src/neigh_compress.c lib/src/neigh_impl.h
tsr_include_HEADERS += lib/include/tessera/neigh.h
