# apps/halobench/local.mk: tsr-halobench, the halo-exchange benchmark (lib/src/halo.c).
bin_PROGRAMS += apps/tsr-halobench
apps_tsr_halobench_SOURCES = apps/halobench/halobench.c
apps_tsr_halobench_LDADD = lib/libtessera.la $(HDF5_LIBS) -lm
