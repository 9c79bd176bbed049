# apps/copybench/local.mk: tsr-copybench, the copy through layout offsets (kernels/copy).
bin_PROGRAMS += apps/tsr-copybench
apps_tsr_copybench_SOURCES = apps/copybench/copybench.c
apps_tsr_copybench_LDADD = kernels/copy/libcopy.la lib/libtessera.la $(HDF5_LIBS) -lm
