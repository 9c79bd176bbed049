# apps/fastsg/local.mk: tsr-fastsg, sparse-grid hierarchization and evaluation
# (kernels/sparse).
bin_PROGRAMS += apps/tsr-fastsg
apps_tsr_fastsg_SOURCES = apps/fastsg/fastsg.c apps/fastsg/fastsg_run.c apps/fastsg/fastsg_io.c \
	apps/fastsg/fastsg_dist.c \
	apps/fastsg/fastsg.h
apps_tsr_fastsg_LDADD = $(SPARSE_LDADD)
