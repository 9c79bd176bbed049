# lib/reorder.mk: renumbering for locality and reuse (GPS through Scotch, RCM,
# METIS partition-based blocks, data points by blocks) and two-level colouring
# plans for shared-memory staging (tessera/reorder.h, tessera/colour.h).
lib_libtessera_la_SOURCES += lib/src/reorder.c lib/src/colour_plan.c
lib_libtessera_la_LIBADD += $(SCOTCH_LIBS)
tsr_include_HEADERS += lib/include/tessera/reorder.h
