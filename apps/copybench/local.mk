# apps/copybench/local.mk: tsr-copybench, the copy through layout offsets (kernels/copy).
bin_PROGRAMS += apps/tsr-copybench
apps_tsr_copybench_SOURCES = apps/copybench/copybench.c
apps_tsr_copybench_LDADD = $(COPY_LDADD)
