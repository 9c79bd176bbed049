# scripts/: quickstart, the demo and its summary work on a source and build
# tree, so they ship in the tarball only; tsr-plot (any CSVs to PNGs) and the
# batch templates are installed.
dist_noinst_SCRIPTS = scripts/quickstart scripts/demo scripts/demo-summary
EXTRA_DIST += scripts/demo.list
dist_pkgdata_SCRIPTS = scripts/tsr-plot
slurmdir = $(pkgdatadir)/slurm
dist_slurm_DATA = scripts/slurm/cpu.sbatch scripts/slurm/gpu.sbatch scripts/slurm/sweep.sbatch
# the benchmark scripts: one per table of BENCHMARKS.md, run on the GPU machine
EXTRA_DIST += scripts/bench/common.sh scripts/bench/tables.py scripts/bench/copy.sh \
	scripts/bench/halo.sh scripts/bench/stencil.sh scripts/bench/airfoil.sh \
	scripts/bench/fastsg.sh scripts/bench/layout.sh scripts/bench/scaling.sh \
	scripts/bench/lulesh.sh scripts/bench/auto.sh scripts/bench/tblock.sh scripts/bench/tables_gpu.py \
	scripts/bench/fastsg_eval.sh
# the peers beside Tessera, built outside the tree: the original stencil benchmark
# (docs/STENCIL.md, "Comparing with the original"), OP2's own Airfoil (docs/AIRFOIL.md,
# "Comparing with OP2"), Tasmanian beside tsr-fastsg
EXTRA_DIST += scripts/peers/build-gridbenchmark.sh scripts/peers/stencil-compare \
	scripts/peers/build-op2-airfoil.sh scripts/peers/build-tasmanian.sh \
	scripts/peers/tasmanian_fastsg.cpp scripts/peers/build-lulesh-cuda.sh
# the figures and tables of tsr-fastsg and tsr-layoutbench (docs/FASTSG.md, docs/LAYOUTBENCH.md)
EXTRA_DIST += scripts/fastsg-speedups scripts/layoutbench-plot
