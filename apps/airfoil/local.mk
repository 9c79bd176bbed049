# apps/airfoil/local.mk: the airfoil app, its kernels (kernels/airfoil), its
# mesh generator (inputs/naca0012.c) and its tests.
noinst_LTLIBRARIES += kernels/airfoil/libtsr_airfoil.la
kernels_airfoil_libtsr_airfoil_la_SOURCES = \
	kernels/airfoil/airfoil.h kernels/airfoil/airfoil_run.h \
	kernels/airfoil/airfoil_cpu.c kernels/airfoil/airfoil_cuda_run.c kernels/airfoil/airfoil_profile.c \
	kernels/airfoil/airfoil_mesh.h kernels/airfoil/airfoil_mesh.c kernels/airfoil/airfoil_io.c kernels/airfoil/airfoil_part.c \
	inputs/naca0012.h inputs/naca0012.c
if HAVE_CUDA
kernels_airfoil_libtsr_airfoil_la_SOURCES += kernels/airfoil/airfoil_cuda.cu \
	kernels/airfoil/airfoil_cuda_shared.cu
endif
EXTRA_DIST += kernels/airfoil/airfoil_kernels.inc kernels/airfoil/variants.def scripts/device/airfoil-perf.sh \
	kernels/airfoil/airfoil_cuda.cuh
AIRFOIL_LDADD = kernels/airfoil/libtsr_airfoil.la lib/libtessera.la $(HDF5_LIBS) -lm
if HAVE_CUDA
AIRFOIL_LDADD += $(CUDA_LIBS) -lstdc++
endif

bin_PROGRAMS += apps/tsr-airfoil apps/tsr-mkairfoil
apps_tsr_airfoil_SOURCES = apps/airfoil/airfoil.c
apps_tsr_airfoil_LDADD = $(AIRFOIL_LDADD)
apps_tsr_mkairfoil_SOURCES = inputs/mkairfoil.c
apps_tsr_mkairfoil_LDADD = $(AIRFOIL_LDADD)

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_airfoil tests/unit/check_airfoil_profile tests/cuda/check_airfoil_cuda \
	tests/mpi/check_airfoil_mpi
TESTS += tests/unit/check_airfoil tests/unit/check_airfoil_profile tests/cuda/check_airfoil_cuda \
	tests/mpi/check_airfoil_mpi
tests_mpi_check_airfoil_mpi_SOURCES = tests/mpi/check_airfoil_mpi.c
tests_mpi_check_airfoil_mpi_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_airfoil_mpi_LDADD = kernels/airfoil/libtsr_airfoil.la $(TEST_LDADD) $(AIRFOIL_LDADD)
tests_unit_check_airfoil_profile_SOURCES = tests/unit/check_airfoil_profile.c
tests_unit_check_airfoil_profile_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_airfoil_profile_LDADD = kernels/airfoil/libtsr_airfoil.la $(TEST_LDADD) $(AIRFOIL_LDADD)
tests_unit_check_airfoil_SOURCES = tests/unit/check_airfoil.c
tests_unit_check_airfoil_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_airfoil_LDADD = kernels/airfoil/libtsr_airfoil.la $(TEST_LDADD) $(AIRFOIL_LDADD)
tests_cuda_check_airfoil_cuda_SOURCES = tests/cuda/check_airfoil_cuda.c
tests_cuda_check_airfoil_cuda_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_airfoil_cuda_LDADD = kernels/airfoil/libtsr_airfoil.la $(TEST_LDADD) $(AIRFOIL_LDADD)
endif
TESTS += tests/apps/airfoil.sh
EXTRA_DIST += tests/apps/airfoil.sh
