# apps/layoutbench/local.mk: tsr-layoutbench, the layout experiments
# (kernels/layout: the matmul and the stencil experiment's builds).
bin_PROGRAMS += apps/tsr-layoutbench
apps_tsr_layoutbench_SOURCES = apps/layoutbench/layoutbench.h apps/layoutbench/layoutbench.c \
	apps/layoutbench/lb_matmul.c apps/layoutbench/lb_stencil.c
apps_tsr_layoutbench_CPPFLAGS = $(LAYOUT_CPPFLAGS)
apps_tsr_layoutbench_LDADD = $(STENCIL_OBJS) $(LAYOUT_LDADD)
