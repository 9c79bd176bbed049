# lib/graph.mk: CSR graphs and their METIS k-way partition (tessera/graph.h).
lib_libtessera_la_SOURCES += lib/src/graph.c
tsr_include_HEADERS += lib/include/tessera/graph.h
