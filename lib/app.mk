# lib/app.mk: the shared command line, variant registry and result reporting.
lib_libtessera_la_SOURCES += lib/src/cli.c lib/src/variant.c lib/src/report.c lib/src/run.c
tsr_include_HEADERS += lib/include/tessera/cli.h lib/include/tessera/variant.h \
	lib/include/tessera/report.h lib/include/tessera/run.h
