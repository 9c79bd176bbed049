# lib/xfer.mk: messaging outside the halo exchange: the chunked all-to-all,
# transfers between distributions by global id, the streamed gather
# (tessera/xfer.h).
lib_libtessera_la_SOURCES += lib/src/xfer.c
tsr_include_HEADERS += lib/include/tessera/xfer.h

if HAVE_CHECK
check_PROGRAMS += tests/mpi/check_xfer
TESTS += tests/mpi/check_xfer
tests_mpi_check_xfer_SOURCES = tests/mpi/check_xfer.c
tests_mpi_check_xfer_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_xfer_LDADD = $(TEST_LDADD)
endif
