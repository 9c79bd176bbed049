# tests/: the check suites. Every test writes TAP; tests/driver runs MPI tests
# at several rank counts and sets the environment (run as root, check's TAP
# output). A test links lib and kernel libraries (TEST_LDADD, <APP>_LDADD of
# kernels/<app>/local.mk), never an app's code.
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/driver
AM_TESTS_ENVIRONMENT = MPIEXEC='$(MPIEXEC)'; export MPIEXEC; \
	TSR_TOP_SRCDIR='$(abs_top_srcdir)'; export TSR_TOP_SRCDIR; \
	TSR_TOP_BUILDDIR='$(abs_top_builddir)'; export TSR_TOP_BUILDDIR;
TEST_LDADD = lib/libtessera.la $(CHECK_LIBS) $(HDF5_LIBS) $(MPI_LIBS) -lm
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) -I$(top_srcdir)/tests
EXTRA_DIST += tests/driver tests/tsr_check.h tests/lsan.supp tests/lsan_nodlclose.c

include tests/unit/local.mk
include tests/mpi/local.mk
include tests/cuda/local.mk
include tests/apps/local.mk
include tests/fuzz/local.mk
