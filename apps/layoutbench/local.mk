# apps/layoutbench/local.mk: tsr-layoutbench (the Noarr paper's layout experiments),
# its kernels (kernels/layout) and its tests.

# the layout-agnostic matmul (CPU and CUDA)
noinst_LTLIBRARIES += kernels/layout/libtsr_layout.la
kernels_layout_libtsr_layout_la_SOURCES = kernels/layout/matmul.h kernels/layout/matmul_cpu.c
LAYOUTBENCH_LIBS = kernels/layout/libtsr_layout.la lib/libtessera.la $(HDF5_LIBS) -lm
if HAVE_CUDA
kernels_layout_libtsr_layout_la_SOURCES += kernels/layout/matmul_cuda.cu
LAYOUTBENCH_LIBS += $(CUDA_LIBS) -lcublas -lstdc++
endif
EXTRA_DIST += kernels/layout/matmul_cuda.cu

# The stencil experiment: ONE source, kernels/layout/stencil.c, compiled in
# three builds (runtime, cindex, cloops) by $(CC) and by clang, always at
# -O3 (STENCIL_CFLAGS; CFLAGS are not used, so the builds differ only in
# what the experiment varies). The constant builds are compiled for
# STENCIL_SHAPE (the paper's grid); the tests' copies for a small shape.
# clang is driven through the MPI wrapper (OMPI_CC / MPICH_CC) so that it
# sees the same include paths.
STENCIL_CFLAGS = -O3
STENCIL_SHAPE = -DSTENCIL_NX=32 -DSTENCIL_NY=32 -DSTENCIL_NZ=1048576
STENCIL_TEST_SHAPE = -DSTENCIL_NX=13 -DSTENCIL_NY=6 -DSTENCIL_NZ=9
STENCIL_DEPS = kernels/layout/stencil.c kernels/layout/stencil.h lib/include/tessera/layout.h
STENCIL_CC = $(CC) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(WARN_CFLAGS) \
	$(STENCIL_CFLAGS)
STENCIL_CLANG = OMPI_CC='$(CLANG)' MPICH_CC='$(CLANG)' $(STENCIL_CC)
STENCIL_SRC = `test -f kernels/layout/stencil.c || echo '$(srcdir)/'`kernels/layout/stencil.c
STENCIL_OBJS = kernels/layout/stencil-gcc-runtime.$(OBJEXT) \
	kernels/layout/stencil-gcc-cindex.$(OBJEXT) kernels/layout/stencil-gcc-cloops.$(OBJEXT)
STENCIL_TEST_OBJS = tests/unit/stencil-gcc-runtime.$(OBJEXT) \
	tests/unit/stencil-gcc-cindex.$(OBJEXT) tests/unit/stencil-gcc-cloops.$(OBJEXT)
LAYOUTBENCH_CPPFLAGS = $(AM_CPPFLAGS)
if HAVE_CLANG
STENCIL_OBJS += kernels/layout/stencil-clang-runtime.$(OBJEXT) \
	kernels/layout/stencil-clang-cindex.$(OBJEXT) kernels/layout/stencil-clang-cloops.$(OBJEXT)
STENCIL_TEST_OBJS += tests/unit/stencil-clang-runtime.$(OBJEXT) \
	tests/unit/stencil-clang-cindex.$(OBJEXT) tests/unit/stencil-clang-cloops.$(OBJEXT)
LAYOUTBENCH_CPPFLAGS += -DLB_HAVE_CLANG=1
endif
CLEANFILES += $(STENCIL_OBJS) $(STENCIL_TEST_OBJS)
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
tests/unit/stencil-gcc-runtime.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(STENCIL_CC) $(STENCIL_TEST_SHAPE) -DSTENCIL_CC=gcc -DSTENCIL_BUILD=runtime -c -o $@ $(STENCIL_SRC)
tests/unit/stencil-gcc-cindex.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(STENCIL_CC) $(STENCIL_TEST_SHAPE) -DSTENCIL_CC=gcc -DSTENCIL_BUILD=cindex -c -o $@ $(STENCIL_SRC)
tests/unit/stencil-gcc-cloops.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(STENCIL_CC) $(STENCIL_TEST_SHAPE) -DSTENCIL_CC=gcc -DSTENCIL_BUILD=cloops -c -o $@ $(STENCIL_SRC)
tests/unit/stencil-clang-runtime.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(STENCIL_CLANG) $(STENCIL_TEST_SHAPE) -DSTENCIL_CC=clang -DSTENCIL_BUILD=runtime -c -o $@ $(STENCIL_SRC)
tests/unit/stencil-clang-cindex.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(STENCIL_CLANG) $(STENCIL_TEST_SHAPE) -DSTENCIL_CC=clang -DSTENCIL_BUILD=cindex -c -o $@ $(STENCIL_SRC)
tests/unit/stencil-clang-cloops.$(OBJEXT): $(STENCIL_DEPS)
	$(AM_V_CC)$(MKDIR_P) tests/unit && $(STENCIL_CLANG) $(STENCIL_TEST_SHAPE) -DSTENCIL_CC=clang -DSTENCIL_BUILD=cloops -c -o $@ $(STENCIL_SRC)

bin_PROGRAMS += apps/tsr-layoutbench
apps_tsr_layoutbench_SOURCES = apps/layoutbench/layoutbench.h apps/layoutbench/layoutbench.c \
	apps/layoutbench/lb_matmul.c apps/layoutbench/lb_stencil.c
apps_tsr_layoutbench_CPPFLAGS = $(LAYOUTBENCH_CPPFLAGS)
apps_tsr_layoutbench_LDADD = $(STENCIL_OBJS) $(LAYOUTBENCH_LIBS)

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_layout_kernels tests/cuda/check_matmul
TESTS += tests/unit/check_layout_kernels tests/cuda/check_matmul
tests_unit_check_layout_kernels_SOURCES = tests/unit/check_layout_kernels.c
tests_unit_check_layout_kernels_CPPFLAGS = $(LAYOUTBENCH_CPPFLAGS)
tests_unit_check_layout_kernels_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_layout_kernels_LDADD = $(STENCIL_TEST_OBJS) $(LAYOUTBENCH_LIBS) $(TEST_LDADD)
tests_cuda_check_matmul_SOURCES = tests/cuda/check_matmul.c
tests_cuda_check_matmul_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_matmul_LDADD = $(LAYOUTBENCH_LIBS) $(TEST_LDADD)
endif
TESTS += tests/apps/layoutbench.sh
EXTRA_DIST += tests/apps/layoutbench.sh scripts/layoutbench-plot
