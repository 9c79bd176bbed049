# kernels/lulesh/local.mk: the LULESH 2.0 physics library (serial CPU
# reference: kernels/lulesh).
noinst_LTLIBRARIES += kernels/lulesh/libtsr_lulesh.la
kernels_lulesh_libtsr_lulesh_la_SOURCES = kernels/lulesh/lulesh.h kernels/lulesh/lulesh_mesh.h \
	kernels/lulesh/lulesh_mesh.c kernels/lulesh/lulesh_cpu.c
# Bit-for-bit agreement with LULESH's serial results needs no contraction to FMA.
kernels_lulesh_libtsr_lulesh_la_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
LULESH_LDADD = kernels/lulesh/libtsr_lulesh.la lib/libtessera.la -lm

