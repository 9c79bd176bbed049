# tests/fuzz/: libFuzzer harnesses of the HDF5 readers (clang from Debian,
# -fsanitize=fuzzer,address,undefined), built and run by `make fuzz` only:
#   make fuzz                     each harness for FUZZ_SECONDS (default 120) s
#   make fuzz FUZZ_SECONDS=10     a short pass (CI)
#   make fuzz FUZZERS='mesh grid' some of them
# Each starts from its seed corpus tests/fuzz/corpus/NAME (small valid files)
# and keeps what it finds new in tests/fuzz/work/NAME/corpus (build tree);
# it runs in fork mode past crashes, then tests/fuzz/run.sh replays each
# crash, timeout or out-of-memory input (tests/fuzz/work/NAME/art) and fails
# `make fuzz` for any whose stack reaches Tessera's code; those inside
# Debian's libhdf5 alone (corrupt object headers) are counted as upstream. The library sources are
# compiled into each harness with clang (needs a build configured
# --without-cuda). Harnesses:
#   mesh     unstructured meshes in OP2's layout (tsr_mesh_toc, airfoil_mesh_read)
#   grid     regular grids (header, fields, boxes)
#   xygrid   X-Y-unstructured grids (header, order and neighbour tables, fields)
#   sparse   tsr-fastsg's sparse-grid inputs (apps/fastsg/fastsg_io.c)
#   hexmesh  hex meshes (tsr_hex_read with tsr_hex_check); seeds from
#            tsr-mklulesh and tests/apps/lulesh_mkbad
FUZZ_ALL = mesh grid xygrid sparse hexmesh
FUZZERS = $(FUZZ_ALL)
FUZZ_SECONDS = 120
FUZZ_CFLAGS = -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -Wno-unknown-pragmas
FUZZ_CC = OMPI_CC="$(CLANG)" $(MPICC) $(FUZZ_CFLAGS) $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS)
FUZZ_extra_mesh = kernels/airfoil/airfoil_io.c
FUZZ_extra_grid =
FUZZ_extra_xygrid =
FUZZ_extra_sparse = apps/fastsg/fastsg_io.c kernels/sparse/sg.c
FUZZ_extra_hexmesh =
EXTRA_DIST += tests/fuzz/fuzz_common.h tests/fuzz/fuzz_mesh.c tests/fuzz/fuzz_grid.c \
	tests/fuzz/fuzz_xygrid.c tests/fuzz/fuzz_sparse.c tests/fuzz/fuzz_hexmesh.c tests/fuzz/corpus tests/fuzz/run.sh

# the library's C sources, instrumented, once (rebuilt with the library)
tests/fuzz/libtsr-fuzz.a: lib/libtessera.la
	@if test "x$(CLANG)" = x; then echo "make fuzz: needs clang (Debian package clang)" >&2; exit 1; fi
	@if grep -q 'TSR_HAVE_CUDA 1' $(top_builddir)/config.h; then \
	  echo "make fuzz: configure --without-cuda for the fuzz build" >&2; exit 1; fi
	@$(MKDIR_P) tests/fuzz/obj && rm -f $@ && \
	for s in $(lib_libtessera_la_SOURCES); do case $$s in *.c) \
	  o=tests/fuzz/obj/`basename $$s .c`.o; echo "  FUZZCC   $$s"; \
	  $(FUZZ_CC) -c $(top_srcdir)/$$s -o $$o || exit 1;; esac; done && \
	$(AR) rcs $@ tests/fuzz/obj/*.o

fuzz: tests/fuzz/libtsr-fuzz.a
	@fail=0; for n in $(FUZZERS); do \
	  case $$n in mesh) x="$(FUZZ_extra_mesh)";; grid) x="$(FUZZ_extra_grid)";; \
	    xygrid) x="$(FUZZ_extra_xygrid)";; sparse) x="$(FUZZ_extra_sparse)";; \
	    hexmesh) x="$(FUZZ_extra_hexmesh)";; \
	    *) echo "make fuzz: no harness '$$n' (have: $(FUZZ_ALL))" >&2; exit 1;; esac; \
	  src="$(top_srcdir)/tests/fuzz/fuzz_$$n.c"; for e in $$x; do src="$$src $(top_srcdir)/$$e"; done; \
	  echo "  FUZZLD   tests/fuzz/fuzz_$$n"; \
	  $(FUZZ_CC) -fsanitize=fuzzer $$src tests/fuzz/libtsr-fuzz.a -o tests/fuzz/fuzz_$$n \
	    $(HDF5_LIBS) $(METIS_LIBS) $(PTSCOTCH_LIBS) -lm || exit 1; \
	  echo "fuzz_$$n: $(FUZZ_SECONDS) s from $(top_srcdir)/tests/fuzz/corpus/$$n"; \
	  $(SHELL) $(top_srcdir)/tests/fuzz/run.sh ./tests/fuzz/fuzz_$$n $(FUZZ_SECONDS) \
	    $(top_srcdir)/tests/fuzz/corpus/$$n tests/fuzz/work/$$n || fail=1; \
	done; exit $$fail
.PHONY: fuzz
CLEANFILES += tests/fuzz/fuzz_mesh tests/fuzz/fuzz_grid tests/fuzz/fuzz_xygrid tests/fuzz/fuzz_sparse \
	tests/fuzz/fuzz_hexmesh tests/fuzz/libtsr-fuzz.a
