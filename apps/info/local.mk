# apps/info/local.mk: tsr-info, summary and check of any Tessera or OP2 HDF5 file.
bin_PROGRAMS += apps/tsr-info
apps_tsr_info_SOURCES = apps/info/info.c
apps_tsr_info_LDADD = lib/libtessera.la $(HDF5_LIBS) -lm
