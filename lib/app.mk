# lib/app.mk: the shared command line, variant registry and result reporting.
lib_libtessera_la_SOURCES += lib/src/cli.c lib/src/variant.c lib/src/report.c \
	lib/src/run.c
tsr_include_HEADERS += lib/include/tessera/cli.h lib/include/tessera/variant.h \
	lib/include/tessera/report.h lib/include/tessera/run.h
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_cli
TESTS += tests/unit/check_cli
tests_unit_check_cli_SOURCES = tests/unit/check_cli.c
tests_unit_check_cli_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_cli_LDADD = $(TEST_LDADD)
endif
if HAVE_CHECK
check_PROGRAMS += tests/mpi/check_run
TESTS += tests/mpi/check_run
tests_mpi_check_run_SOURCES = tests/mpi/check_run.c
tests_mpi_check_run_CFLAGS = $(TEST_CFLAGS)
tests_mpi_check_run_LDADD = $(TEST_LDADD)
endif
# every program's run, skip and exit rules end to end
TESTS += tests/apps/run_rules.sh
EXTRA_DIST += tests/apps/run_rules.sh
