# lib/reorder.mk: renumbering for locality and reuse (GPS through Scotch, RCM,
# METIS partition-based blocks, data points by blocks) and two-level colouring
# plans for shared-memory staging (tessera/reorder.h, tessera/colour.h).
lib_libtessera_la_SOURCES += lib/src/reorder.c lib/src/colour_plan.c
lib_libtessera_la_LIBADD += $(SCOTCH_LIBS)
tsr_include_HEADERS += lib/include/tessera/reorder.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_reorder
TESTS += tests/unit/check_reorder
tests_unit_check_reorder_SOURCES = tests/unit/check_reorder.c
tests_unit_check_reorder_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_reorder_LDADD = $(TEST_LDADD)
endif
