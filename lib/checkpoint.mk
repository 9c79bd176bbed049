# lib/checkpoint.mk: checkpoint files and restarts (tessera/checkpoint.h).
lib_libtessera_la_SOURCES += lib/src/checkpoint.c
tsr_include_HEADERS += lib/include/tessera/checkpoint.h
