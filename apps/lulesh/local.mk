# apps/lulesh/local.mk: tsr-lulesh, LULESH 2.0's Sedov problem with LULESH's
# command line (physics: kernels/lulesh).
bin_PROGRAMS += apps/tsr-lulesh
apps_tsr_lulesh_SOURCES = apps/lulesh/lulesh.c apps/lulesh/lulesh_check.c apps/lulesh/lulesh_app.h \
	apps/lulesh/lulesh_dist.c apps/lulesh/lulesh_order.c apps/lulesh/lulesh_io.c \
	apps/lulesh/lulesh_ckpt.c
apps_tsr_lulesh_LDADD = $(LULESH_LDADD) $(HDF5_LIBS)
