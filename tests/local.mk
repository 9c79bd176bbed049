# tests/: unit tests of lib modules are added by each module's fragment
# (lib/*.mk); this file holds the framework's own test.
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_error
TESTS += tests/unit/check_error
tests_unit_check_error_SOURCES = tests/unit/check_error.c
tests_unit_check_error_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_error_LDADD = $(TEST_LDADD)
endif
# every program's command line: --help, --version, --list-variants, flags
# refused, single-rank programs
TESTS += tests/apps/cli.sh
EXTRA_DIST += tests/apps/cli.sh
