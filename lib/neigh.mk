# lib/neigh.mk: fragment of the neigh module (sources, headers, tests, tools).
lib_libtessera_la_SOURCES += lib/src/neigh.c lib/src/neigh_compress.c lib/src/neigh_impl.h
tsr_include_HEADERS += lib/include/tessera/neigh.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_neigh
TESTS += tests/unit/check_neigh
tests_unit_check_neigh_SOURCES = tests/unit/check_neigh.c
tests_unit_check_neigh_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_neigh_LDADD = $(TEST_LDADD)
endif
