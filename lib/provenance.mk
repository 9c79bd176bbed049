# lib/provenance.mk: the release, commit, host and library versions every
# output records. lib/tsr_commit.h is regenerated on every make and rewritten
# only when the commit changed; `make dist` writes the commit into the
# tarball's .tarball-version, which lib/gen-version prefers.
lib_libtessera_la_SOURCES += lib/src/provenance.c
tsr_include_HEADERS += lib/include/tessera/provenance.h
nodist_lib_libtessera_la_SOURCES = lib/tsr_commit.h
BUILT_SOURCES = lib/tsr_commit.h
DISTCLEANFILES += lib/tsr_commit.h
EXTRA_DIST += lib/gen-version
lib/tsr_commit.h: tsr-commit-check
	@$(MKDIR_P) lib && $(SHELL) $(top_srcdir)/lib/gen-version $(top_srcdir) --header $@
# the object that includes it waits for it (also when a single program is made)
lib/src/provenance.lo: lib/tsr_commit.h
.PHONY: tsr-commit-check
tsr-commit-check:
dist-hook: tsr-dist-version
tsr-dist-version:
	$(SHELL) $(top_srcdir)/lib/gen-version $(top_srcdir) > $(distdir)/.tarball-version
.PHONY: tsr-dist-version
