# scripts/: installed helper scripts (quickstart, demo, batch templates)
dist_pkgdata_SCRIPTS = scripts/quickstart scripts/demo
dist_pkgdata_DATA = scripts/demo.list scripts/slurm/tessera.sbatch
# the original stencil benchmark beside tsr-stencil (docs/STENCIL.md, "Comparing with the original")
EXTRA_DIST += scripts/peers/build-gridbenchmark.sh scripts/peers/stencil-compare \
	scripts/device/peers-stencil.sh scripts/device/seed-tables.sh
# OP2's own Airfoil beside tsr-airfoil (docs/AIRFOIL.md, "Comparing with OP2")
EXTRA_DIST += scripts/peers/build-op2-airfoil.sh scripts/device/peers-airfoil.sh
# Tasmanian beside tsr-fastsg; built outside the tree by build-tasmanian.sh
EXTRA_DIST += scripts/device/peers-fastsg.sh scripts/peers/build-tasmanian.sh \
	scripts/peers/tasmanian_fastsg.cpp
# the figures and tables of tsr-fastsg and tsr-layoutbench (docs/FASTSG.md, docs/LAYOUTBENCH.md)
EXTRA_DIST += scripts/fastsg-speedups scripts/layoutbench-plot
# the apps' device runs
EXTRA_DIST += scripts/device/airfoil-perf.sh scripts/device/stencil-perf.sh \
	scripts/device/fastsg-tables.sh scripts/device/fastsg-eval.sh
