# inputs/: input generators
bin_PROGRAMS += apps/tsr-mkinput
apps_tsr_mkinput_SOURCES = inputs/mkinput.c
apps_tsr_mkinput_LDADD = lib/libtessera.la $(HDF5_LIBS) -lm

TESTS += tests/apps/mkinput.sh
EXTRA_DIST += tests/apps/mkinput.sh
