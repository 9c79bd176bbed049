# lib/graph.mk: CSR graphs and their METIS k-way partition (tessera/graph.h).
lib_libtessera_la_SOURCES += lib/src/graph.c
tsr_include_HEADERS += lib/include/tessera/graph.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_graph
TESTS += tests/unit/check_graph
tests_unit_check_graph_SOURCES = tests/unit/check_graph.c
tests_unit_check_graph_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_graph_LDADD = $(TEST_LDADD)
endif
