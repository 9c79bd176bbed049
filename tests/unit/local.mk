# tests/unit/local.mk: unit tests of lib's modules and of each app's kernels.
if HAVE_CHECK
# lib
check_PROGRAMS += tests/unit/check_error
TESTS += tests/unit/check_error
tests_unit_check_error_SOURCES = tests/unit/check_error.c
tests_unit_check_error_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_error_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_cli
TESTS += tests/unit/check_cli
tests_unit_check_cli_SOURCES = tests/unit/check_cli.c
tests_unit_check_cli_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_cli_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_graph
TESTS += tests/unit/check_graph
tests_unit_check_graph_SOURCES = tests/unit/check_graph.c
tests_unit_check_graph_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_graph_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_zorder
TESTS += tests/unit/check_zorder
tests_unit_check_zorder_SOURCES = tests/unit/check_zorder.c
tests_unit_check_zorder_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_zorder_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_layout
TESTS += tests/unit/check_layout
tests_unit_check_layout_SOURCES = tests/unit/check_layout.c
tests_unit_check_layout_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_layout_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_neigh
TESTS += tests/unit/check_neigh
tests_unit_check_neigh_SOURCES = tests/unit/check_neigh.c
tests_unit_check_neigh_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_neigh_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_mesh
TESTS += tests/unit/check_mesh
tests_unit_check_mesh_SOURCES = tests/unit/check_mesh.c
tests_unit_check_mesh_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_mesh_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_io
TESTS += tests/unit/check_io
tests_unit_check_io_SOURCES = tests/unit/check_io.c
tests_unit_check_io_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_io_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_checkpoint
TESTS += tests/unit/check_checkpoint
tests_unit_check_checkpoint_SOURCES = tests/unit/check_checkpoint.c
tests_unit_check_checkpoint_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_checkpoint_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_part
TESTS += tests/unit/check_part
tests_unit_check_part_SOURCES = tests/unit/check_part.c
tests_unit_check_part_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_part_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_reorder
TESTS += tests/unit/check_reorder
tests_unit_check_reorder_SOURCES = tests/unit/check_reorder.c
tests_unit_check_reorder_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_reorder_LDADD = $(TEST_LDADD)

# kernels/copy
check_PROGRAMS += tests/unit/check_copy
TESTS += tests/unit/check_copy
tests_unit_check_copy_SOURCES = tests/unit/check_copy.c
tests_unit_check_copy_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_copy_LDADD = $(COPY_LDADD) $(TEST_LDADD)

# kernels/airfoil, on meshes from inputs/
check_PROGRAMS += tests/unit/check_airfoil
TESTS += tests/unit/check_airfoil
tests_unit_check_airfoil_SOURCES = tests/unit/check_airfoil.c
tests_unit_check_airfoil_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_airfoil_LDADD = inputs/libtsr_inputs.la $(AIRFOIL_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_airfoil_profile
TESTS += tests/unit/check_airfoil_profile
tests_unit_check_airfoil_profile_SOURCES = tests/unit/check_airfoil_profile.c
tests_unit_check_airfoil_profile_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_airfoil_profile_LDADD = inputs/libtsr_inputs.la $(AIRFOIL_LDADD) $(TEST_LDADD)

# kernels/sparse
check_PROGRAMS += tests/unit/check_sparse
TESTS += tests/unit/check_sparse
tests_unit_check_sparse_SOURCES = tests/unit/check_sparse.c
tests_unit_check_sparse_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_sparse_LDADD = $(SPARSE_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_sparse_walk
TESTS += tests/unit/check_sparse_walk
tests_unit_check_sparse_walk_SOURCES = tests/unit/check_sparse_walk.c tests/sparse_eval_case.h
tests_unit_check_sparse_walk_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_sparse_walk_LDADD = $(SPARSE_LDADD) $(TEST_LDADD)

# kernels/stencil
check_PROGRAMS += tests/unit/check_stencil
TESTS += tests/unit/check_stencil
tests_unit_check_stencil_SOURCES = tests/unit/check_stencil.c
tests_unit_check_stencil_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_stencil_LDADD = $(STENCIL_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_stencil_win
TESTS += tests/unit/check_stencil_win
tests_unit_check_stencil_win_SOURCES = tests/unit/check_stencil_win.c
tests_unit_check_stencil_win_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_stencil_win_LDADD = $(STENCIL_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_stencil_tb
TESTS += tests/unit/check_stencil_tb
tests_unit_check_stencil_tb_SOURCES = tests/unit/check_stencil_tb.c tests/stencil_tb_case.h
tests_unit_check_stencil_tb_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_stencil_tb_LDADD = $(STENCIL_LDADD) $(TEST_LDADD)
check_PROGRAMS += tests/unit/check_stencil_fit
TESTS += tests/unit/check_stencil_fit
tests_unit_check_stencil_fit_SOURCES = tests/unit/check_stencil_fit.c
tests_unit_check_stencil_fit_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_stencil_fit_LDADD = $(STENCIL_LDADD) $(TEST_LDADD)
# kernels/lulesh (no FMA contraction: exact agreement with LULESH's serial results)
check_PROGRAMS += tests/unit/check_lulesh
TESTS += tests/unit/check_lulesh
tests_unit_check_lulesh_SOURCES = tests/unit/check_lulesh.c
tests_unit_check_lulesh_CFLAGS = $(TEST_CFLAGS) -ffp-contract=off
tests_unit_check_lulesh_LDADD = $(LULESH_LDADD) $(TEST_LDADD)

# kernels/layout: the matmul, and the stencil experiment's builds at a small shape
# (STENCIL_TEST_OBJS, below)
check_PROGRAMS += tests/unit/check_layout_kernels
TESTS += tests/unit/check_layout_kernels
tests_unit_check_layout_kernels_SOURCES = tests/unit/check_layout_kernels.c
tests_unit_check_layout_kernels_CPPFLAGS = $(LAYOUT_CPPFLAGS)
tests_unit_check_layout_kernels_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_layout_kernels_LDADD = $(STENCIL_TEST_OBJS) $(LAYOUT_LDADD) $(TEST_LDADD)
endif

# kernels/layout/stencil.c's builds (kernels/layout/local.mk) for the tests' small shape.
STENCIL_TEST_SHAPE = -DSTENCIL_NX=13 -DSTENCIL_NY=6 -DSTENCIL_NZ=9
STENCIL_TEST_OBJS = tests/unit/stencil-gcc-runtime.$(OBJEXT) \
	tests/unit/stencil-gcc-cindex.$(OBJEXT) tests/unit/stencil-gcc-cloops.$(OBJEXT)
if HAVE_CLANG
STENCIL_TEST_OBJS += tests/unit/stencil-clang-runtime.$(OBJEXT) \
	tests/unit/stencil-clang-cindex.$(OBJEXT) tests/unit/stencil-clang-cloops.$(OBJEXT)
endif
CLEANFILES += $(STENCIL_TEST_OBJS)

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
