# lib/app.mk: the shared command line, variant registry and result reporting.
lib_libtessera_la_SOURCES += lib/src/cli.c lib/src/variant.c lib/src/report.c
tsr_include_HEADERS += lib/include/tessera/cli.h lib/include/tessera/variant.h \
	lib/include/tessera/report.h
if HAVE_CHECK
check_PROGRAMS += tests/unit/check_cli
TESTS += tests/unit/check_cli
tests_unit_check_cli_SOURCES = tests/unit/check_cli.c
tests_unit_check_cli_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_cli_LDADD = $(TEST_LDADD)
endif
