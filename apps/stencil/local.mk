# apps/stencil/local.mk: tsr-stencil (laplap, hdiff, fastwaves on regular and
# X-Y-unstructured grids; the kernels are kernels/stencil's).
bin_PROGRAMS += apps/tsr-stencil
apps_tsr_stencil_SOURCES = apps/stencil/stencil_main.c
apps_tsr_stencil_LDADD = apps/stencil/libtsr_stencil_app.la $(STENCIL_LDADD)
noinst_LTLIBRARIES += apps/stencil/libtsr_stencil_app.la
apps_stencil_libtsr_stencil_app_la_SOURCES = apps/stencil/stencil_app.h \
	apps/stencil/stencil_exec.c apps/stencil/stencil_io.c apps/stencil/stencil_umpi.c \
	apps/stencil/stencil_ckpt.c
