# examples/: a program of one's own against the installed library. `make
# installcheck` builds it with pkg-config and with CMake and runs it, and
# checks the installed programs, man pages and scripts (examples/installcheck.sh).
EXTRA_DIST += examples/mesh_halo.c examples/CMakeLists.txt examples/installcheck.sh
installcheck-local:
	$(AM_V_at)MPICC='$(CC)' PKG_CONFIG='$(PKG_CONFIG)' CMAKE='$(CMAKE)' MPIEXEC='$(MPIEXEC)' \
	  prefix='$(prefix)' bindir='$(bindir)' libdir='$(libdir)' mandir='$(mandir)' \
	  pkgdatadir='$(pkgdatadir)' TSR_MANS='$(TSR_MANS)' \
	  $(SHELL) $(srcdir)/examples/installcheck.sh $(srcdir)/examples
