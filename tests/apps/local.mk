# tests/apps/local.mk: the programs end to end (scripts), and the tools that
# write malformed inputs for them.

# tsr-info on malformed files made by mkbad
if HAVE_CHECK
check_PROGRAMS += tests/apps/mkbad
tests_apps_mkbad_SOURCES = tests/apps/mkbad.c
tests_apps_mkbad_LDADD = $(HDF5_LIBS)
TESTS += tests/apps/bad_input.sh
endif
EXTRA_DIST += tests/apps/bad_input.sh tests/apps/bad_check.sh

# sourced by the TAP scripts: their counter and scratch folder; tsr-lulesh's and
# scripts/bench's helpers
EXTRA_DIST += tests/apps/tap.sh tests/apps/lulesh_tap.sh tests/apps/bench_tap.sh

# tsr-mkinput
TESTS += tests/apps/mkinput.sh
EXTRA_DIST += tests/apps/mkinput.sh

# tsr-airfoil and tsr-mkairfoil
TESTS += tests/apps/airfoil.sh
EXTRA_DIST += tests/apps/airfoil.sh

# tsr-fastsg (fastsg_mkbad writes malformed inputs), and at 1..4 ranks
TESTS += tests/apps/fastsg.sh
EXTRA_DIST += tests/apps/fastsg.sh
check_PROGRAMS += tests/apps/fastsg_mkbad
tests_apps_fastsg_mkbad_SOURCES = tests/apps/fastsg_mkbad.c
tests_apps_fastsg_mkbad_LDADD = lib/libtessera.la $(HDF5_LIBS)
TESTS += tests/apps/fastsg_dist.sh
EXTRA_DIST += tests/apps/fastsg_dist.sh

# --variant auto in every program that implements it
TESTS += tests/apps/variant_auto.sh
EXTRA_DIST += tests/apps/variant_auto.sh

# tsr-stencil (stencil_bad writes malformed inputs)
TESTS += tests/apps/stencil.sh tests/apps/stencil_cuda.sh
EXTRA_DIST += tests/apps/stencil.sh tests/apps/stencil_cuda.sh
if HAVE_CHECK
check_PROGRAMS += tests/apps/stencil_bad tests/apps/stencil_h5cmp
tests_apps_stencil_bad_SOURCES = tests/apps/stencil_bad.c
tests_apps_stencil_bad_LDADD = $(HDF5_LIBS)
tests_apps_stencil_h5cmp_SOURCES = tests/apps/stencil_h5cmp.c
tests_apps_stencil_h5cmp_LDADD = $(HDF5_LIBS) -lm
endif

# tsr-layoutbench
TESTS += tests/apps/layoutbench.sh
EXTRA_DIST += tests/apps/layoutbench.sh

# scripts/peers/stencil-compare on hand-made CSVs
TESTS += tests/apps/peers_compare.sh
EXTRA_DIST += tests/apps/peers_compare.sh
# every program's command line (--help, --version, --list-variants, refused flags,
# single-rank programs) and its run, skip and exit rules end to end
TESTS += tests/apps/cli.sh tests/apps/run_rules.sh
EXTRA_DIST += tests/apps/cli.sh tests/apps/run_rules.sh
# the benchmark scripts in their SMOKE mode
TESTS += tests/apps/bench_scripts.sh tests/apps/bench_studies.sh tests/apps/bench_scaling.sh
EXTRA_DIST += tests/apps/bench_scripts.sh tests/apps/bench_studies.sh tests/apps/bench_scaling.sh
# tsr-lulesh: LULESH's reference values, flags and output
TESTS += tests/apps/lulesh.sh tests/apps/lulesh_mpi.sh
EXTRA_DIST += tests/apps/lulesh.sh tests/apps/lulesh_mpi.sh

# output modes, a bad -o found before computing, temporaries removed on signals
TESTS += tests/apps/outputs.sh
EXTRA_DIST += tests/apps/outputs.sh
check_PROGRAMS += tests/apps/abort_tmp
tests_apps_abort_tmp_SOURCES = tests/apps/abort_tmp.c
tests_apps_abort_tmp_LDADD = lib/libtessera.la $(HDF5_LIBS)
# --checkpoint-every / --restart of tsr-stencil and tsr-airfoil at 1, 2 and 3 ranks
TESTS += tests/apps/restart.sh
EXTRA_DIST += tests/apps/restart.sh

# hex-mesh files: malformed ones (lulesh_mkbad) at 1 and 2 ranks; tsr-mklulesh,
# tsr-lulesh --input and -o, renumbered files giving the same energies
TESTS += tests/apps/lulesh_bad.sh tests/apps/lulesh_io.sh
EXTRA_DIST += tests/apps/lulesh_bad.sh tests/apps/lulesh_io.sh
check_PROGRAMS += tests/apps/lulesh_mkbad
tests_apps_lulesh_mkbad_SOURCES = tests/apps/lulesh_mkbad.c
tests_apps_lulesh_mkbad_LDADD = $(LULESH_LDADD) $(HDF5_LIBS)

# XDMF sidecars of every grid and mesh output, tsr-info on sparse grids
TESTS += tests/apps/sidecars.sh
EXTRA_DIST += tests/apps/sidecars.sh tests/apps/xdmf_check.py
# scripts/tsr-plot on small CSVs
TESTS += tests/apps/plot.sh
EXTRA_DIST += tests/apps/plot.sh
# one CSV schema for every program, provenance in every HDF5 output
TESTS += tests/apps/provenance.sh
EXTRA_DIST += tests/apps/provenance.sh
# the batch templates of scripts/slurm/ on a Slurm started on localhost
TESTS += tests/apps/slurm.sh
EXTRA_DIST += tests/apps/slurm.sh

# TSR_FAULT: an allocation or HDF5 read failing on one rank, and ranks started
# with different arguments, end every program with one line (2-3 ranks)
TESTS += tests/apps/faults.sh tests/apps/faults_cuda.sh
EXTRA_DIST += tests/apps/faults.sh tests/apps/faults_cuda.sh tests/apps/fault_sweep.sh

# hostile inputs (mkhostile damages valid files): sizes checked against the
# datasets, NaN/Inf and impossible constants, h5py's string attributes,
# datasets of the wrong class, header extents that overflow
TESTS += tests/apps/hostile.sh
EXTRA_DIST += tests/apps/hostile.sh
if HAVE_CHECK
check_PROGRAMS += tests/apps/mkhostile
tests_apps_mkhostile_SOURCES = tests/apps/mkhostile.c
tests_apps_mkhostile_LDADD = $(HDF5_LIBS)
endif
# tsr-lulesh --input and -o on several ranks; checkpoints and restarts
TESTS += tests/apps/lulesh_mpi_io.sh tests/apps/lulesh_ckpt.sh
EXTRA_DIST += tests/apps/lulesh_mpi_io.sh tests/apps/lulesh_ckpt.sh

# peak memory per rank at 1, 2 and 4 ranks (peakrss: each rank's VmHWM)
TESTS += tests/apps/memscale.sh
EXTRA_DIST += tests/apps/memscale.sh
check_PROGRAMS += tests/apps/peakrss
tests_apps_peakrss_SOURCES = tests/apps/peakrss.c
