# lib/colour.mk: colourings of indirect loops (tessera/colour.h).
lib_libtessera_la_SOURCES += lib/src/colour.c
tsr_include_HEADERS += lib/include/tessera/colour.h
