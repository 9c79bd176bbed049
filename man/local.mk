# man/: a page per installed program, made from its --help and --version by
# help2man (Debian help2man) when configure finds it; release tarballs carry
# the pages, so a build without help2man installs those. A program added to
# bin_PROGRAMS adds its page here (make installcheck checks every one has one).
TSR_MANS = man/tsr-airfoil.1 man/tsr-copybench.1 man/tsr-fastsg.1 man/tsr-halobench.1 \
	man/tsr-info.1 man/tsr-layoutbench.1 man/tsr-lulesh.1 man/tsr-mkairfoil.1 \
	man/tsr-mkinput.1 man/tsr-mklulesh.1 man/tsr-stencil.1
if TSR_HAVE_MANS
dist_man_MANS = $(TSR_MANS)
endif
if HAVE_HELP2MAN
# NAME: the first sentence of the --help's second line (leak reports off:
# --enable-sanitizers builds run the programs here, and MPI's allocations
# live until exit; the leak checks' LD_PRELOAD shim, .ci/run, may come first)
$(TSR_MANS): $(bin_PROGRAMS)
	$(AM_V_GEN)$(MKDIR_P) man && p=apps/`basename $@ .1` && \
	name=`ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 $$p --help | sed -n '2{s/[.:] .*//;s/\.$$//;p;}'` && \
	ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 $(HELP2MAN) --no-info --name="$$name" --output=$@.tmp $$p && \
	mv $@.tmp $@
endif
# pages made in a build directory of their own are that build's
distclean-local: distclean-local-man
distclean-local-man:
	test "$(srcdir)" = . || rm -f $(TSR_MANS)
.PHONY: distclean-local-man
