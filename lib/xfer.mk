# lib/xfer.mk: messaging outside the halo exchange: the chunked all-to-all,
# transfers between distributions by global id, the streamed gather
# (tessera/xfer.h).
lib_libtessera_la_SOURCES += lib/src/xfer.c
tsr_include_HEADERS += lib/include/tessera/xfer.h
