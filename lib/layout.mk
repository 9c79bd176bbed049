# lib/layout.mk: fragment of the layout module (sources, headers, tests, tools).
# zorder: stretched Morton code and plane rank tables.
lib_libtessera_la_SOURCES += lib/src/zorder.c
tsr_include_HEADERS += lib/include/tessera/zorder.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_zorder
TESTS += tests/unit/check_zorder
tests_unit_check_zorder_SOURCES = tests/unit/check_zorder.c
tests_unit_check_zorder_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_zorder_LDADD = $(TEST_LDADD)
endif

# layout: tsr_layout_t builders, generic offset, transform.
lib_libtessera_la_SOURCES += lib/src/layout.c
tsr_include_HEADERS += lib/include/tessera/layout.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_layout
TESTS += tests/unit/check_layout
tests_unit_check_layout_SOURCES = tests/unit/check_layout.c
tests_unit_check_layout_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_layout_LDADD = $(TEST_LDADD)
endif

EXTRA_DIST += docs/LAYOUT.md
