# kernels/layout/local.mk: the layout experiments' kernels: the
# layout-agnostic matmul (CPU and CUDA), libtsr_layout.la, and the stencil
# experiment's objects (STENCIL_OBJS).
noinst_LTLIBRARIES += kernels/layout/libtsr_layout.la
kernels_layout_libtsr_layout_la_SOURCES = kernels/layout/matmul.h kernels/layout/matmul_cpu.c
CU_FILES += kernels/layout/matmul_cuda.cu
LAYOUT_LDADD = kernels/layout/libtsr_layout.la lib/libtessera.la $(HDF5_LIBS) -lm
if HAVE_CUDA
kernels_layout_libtsr_layout_la_SOURCES += kernels/layout/matmul_cuda.cu
LAYOUT_LDADD += $(CUDA_LIBS) -lcublas -lstdc++
endif

# The stencil experiment: ONE source, kernels/layout/stencil.c, compiled in
# three builds (runtime, cindex, cloops) by $(CC) and by clang, always at
# -O3 (STENCIL_CFLAGS; CFLAGS are not used, so the builds differ only in
# what the experiment varies). The constant builds are compiled for
# STENCIL_SHAPE (the benchmark's grid); the tests' copies (tests/unit/local.mk)
# for a small shape. clang is driven through the MPI wrapper (OMPI_CC /
# MPICH_CC) so that it sees the same include paths. LAYOUT_CPPFLAGS tells
# the users which builds exist.
STENCIL_CFLAGS = -O3
STENCIL_SHAPE = -DSTENCIL_NX=32 -DSTENCIL_NY=32 -DSTENCIL_NZ=1048576
STENCIL_DEPS = kernels/layout/stencil.c kernels/layout/stencil.h lib/include/tessera/layout.h
STENCIL_CC = $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(WARN_CFLAGS) \
	$(STENCIL_CFLAGS)
STENCIL_CLANG = OMPI_CC='$(CLANG)' MPICH_CC='$(CLANG)' $(STENCIL_CC)
STENCIL_SRC = `test -f kernels/layout/stencil.c || echo '$(srcdir)/'`kernels/layout/stencil.c
STENCIL_OBJS = kernels/layout/stencil-gcc-runtime.$(OBJEXT) \
	kernels/layout/stencil-gcc-cindex.$(OBJEXT) kernels/layout/stencil-gcc-cloops.$(OBJEXT)
LAYOUT_CPPFLAGS = $(AM_CPPFLAGS)
if HAVE_CLANG
STENCIL_OBJS += kernels/layout/stencil-clang-runtime.$(OBJEXT) \
	kernels/layout/stencil-clang-cindex.$(OBJEXT) kernels/layout/stencil-clang-cloops.$(OBJEXT)
LAYOUT_CPPFLAGS += -DLB_HAVE_CLANG=1
endif
CLEANFILES += $(STENCIL_OBJS)
EXTRA_DIST += kernels/layout/stencil.c kernels/layout/stencil.h

kernels/layout/stencil-gcc-runtime.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) kernels/layout && $(STENCIL_CC) $(STENCIL_SHAPE) -DSTENCIL_CC=gcc -DSTENCIL_BUILD=runtime -c -o $@ $(STENCIL_SRC)
kernels/layout/stencil-gcc-cindex.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) kernels/layout && $(STENCIL_CC) $(STENCIL_SHAPE) -DSTENCIL_CC=gcc -DSTENCIL_BUILD=cindex -c -o $@ $(STENCIL_SRC)
kernels/layout/stencil-gcc-cloops.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) kernels/layout && $(STENCIL_CC) $(STENCIL_SHAPE) -DSTENCIL_CC=gcc -DSTENCIL_BUILD=cloops -c -o $@ $(STENCIL_SRC)
kernels/layout/stencil-clang-runtime.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) kernels/layout && $(STENCIL_CLANG) $(STENCIL_SHAPE) -DSTENCIL_CC=clang -DSTENCIL_BUILD=runtime -c -o $@ $(STENCIL_SRC)
kernels/layout/stencil-clang-cindex.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) kernels/layout && $(STENCIL_CLANG) $(STENCIL_SHAPE) -DSTENCIL_CC=clang -DSTENCIL_BUILD=cindex -c -o $@ $(STENCIL_SRC)
kernels/layout/stencil-clang-cloops.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) kernels/layout && $(STENCIL_CLANG) $(STENCIL_SHAPE) -DSTENCIL_CC=clang -DSTENCIL_BUILD=cloops -c -o $@ $(STENCIL_SRC)
