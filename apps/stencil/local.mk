# apps/stencil/local.mk: tsr-stencil (laplap, hdiff, fastwaves on regular and
# X-Y-unstructured grids), its kernels (kernels/stencil) and its tests.
noinst_LTLIBRARIES += kernels/stencil/libtsr_stencil.la
kernels_stencil_libtsr_stencil_la_SOURCES = \
	kernels/stencil/stencil.h kernels/stencil/stencil_problem.h \
	kernels/stencil/stencil_cpu.c kernels/stencil/stencil_grid.c \
	kernels/stencil/stencil_shape.c kernels/stencil/stencil_win.c
if HAVE_CUDA
kernels_stencil_libtsr_stencil_la_SOURCES += kernels/stencil/stencil_cuda_laplap.cu \
	kernels/stencil/stencil_cuda_hdiff.cu kernels/stencil/stencil_cuda_fastwaves.cu
endif
kernels_stencil_libtsr_stencil_la_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
EXTRA_DIST += kernels/stencil/stencil_arith.inc kernels/stencil/stencil_ref.inc \
	kernels/stencil/stencil_cpu.inc kernels/stencil/stencil_cuda.cuh \
	kernels/stencil/stencil_win.inc kernels/stencil/stencil_cuda_win.cuh
STENCIL_LDADD = kernels/stencil/libtsr_stencil.la lib/libtessera.la $(HDF5_LIBS) $(METIS_LIBS) -lm
if HAVE_CUDA
STENCIL_LDADD += $(CUDA_LIBS) -lstdc++
endif

if HAVE_CHECK
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
check_PROGRAMS += tests/unit/check_stencil_fit
TESTS += tests/unit/check_stencil_fit
tests_unit_check_stencil_fit_SOURCES = tests/unit/check_stencil_fit.c
tests_unit_check_stencil_fit_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_stencil_fit_LDADD = $(STENCIL_LDADD) $(TEST_LDADD)
endif

bin_PROGRAMS += apps/tsr-stencil
apps_tsr_stencil_SOURCES = apps/stencil/stencil_main.c
apps_tsr_stencil_LDADD = apps/stencil/libtsr_stencil_app.la $(STENCIL_LDADD)
noinst_LTLIBRARIES += apps/stencil/libtsr_stencil_app.la
apps_stencil_libtsr_stencil_app_la_SOURCES = apps/stencil/stencil_app.h \
	apps/stencil/stencil_exec.c apps/stencil/stencil_io.c apps/stencil/stencil_umpi.c
EXTRA_DIST += kernels/stencil/variants.def

TESTS += tests/apps/stencil.sh tests/apps/stencil_cuda.sh
EXTRA_DIST += tests/apps/stencil.sh tests/apps/stencil_cuda.sh
if HAVE_CHECK
check_PROGRAMS += tests/apps/stencil_bad tests/apps/stencil_h5cmp
tests_apps_stencil_bad_SOURCES = tests/apps/stencil_bad.c
tests_apps_stencil_bad_LDADD = $(HDF5_LIBS)
tests_apps_stencil_h5cmp_SOURCES = tests/apps/stencil_h5cmp.c
tests_apps_stencil_h5cmp_LDADD = $(HDF5_LIBS) -lm
endif

if HAVE_CHECK
check_PROGRAMS += tests/mpi/check_stencil_mpi tests/cuda/check_stencil_cuda
TESTS += tests/mpi/check_stencil_mpi tests/cuda/check_stencil_cuda
tests_mpi_check_stencil_mpi_SOURCES = tests/mpi/check_stencil_mpi.c
tests_mpi_check_stencil_mpi_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_stencil_mpi_LDADD = apps/stencil/libtsr_stencil_app.la $(STENCIL_LDADD) $(TEST_LDADD)
tests_cuda_check_stencil_cuda_SOURCES = tests/cuda/check_stencil_cuda.c
tests_cuda_check_stencil_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_stencil_cuda_LDADD = apps/stencil/libtsr_stencil_app.la $(STENCIL_LDADD) $(TEST_LDADD)
endif
