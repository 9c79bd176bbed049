# scripts/: installed helper scripts (quickstart, demo, batch templates)
dist_pkgdata_SCRIPTS = scripts/quickstart scripts/demo
dist_pkgdata_DATA = scripts/demo.list scripts/slurm/tessera.sbatch
EXTRA_DIST += .ci/run
# the benchmark scripts: one per table of BENCHMARKS.md, run on the GPU machine
EXTRA_DIST += scripts/bench/common.sh scripts/bench/tables.py scripts/bench/copy.sh \
	scripts/bench/halo.sh scripts/bench/stencil.sh scripts/bench/airfoil.sh \
	scripts/bench/fastsg.sh scripts/bench/layout.sh scripts/bench/scaling.sh
TESTS += tests/apps/bench_scripts.sh
EXTRA_DIST += tests/apps/bench_scripts.sh
# the peers beside Tessera, built outside the tree: the original stencil benchmark
# (docs/STENCIL.md, "Comparing with the original"), OP2's own Airfoil (docs/AIRFOIL.md,
# "Comparing with OP2"), Tasmanian beside tsr-fastsg
EXTRA_DIST += scripts/peers/build-gridbenchmark.sh scripts/peers/stencil-compare \
	scripts/peers/build-op2-airfoil.sh scripts/peers/build-tasmanian.sh \
	scripts/peers/tasmanian_fastsg.cpp
TESTS += tests/apps/peers_compare.sh
EXTRA_DIST += tests/apps/peers_compare.sh
