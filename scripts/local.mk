# scripts/: installed helper scripts (quickstart, demo, batch templates)
dist_pkgdata_SCRIPTS = scripts/quickstart scripts/demo
dist_pkgdata_DATA = scripts/demo.list scripts/slurm/tessera.sbatch
EXTRA_DIST += .ci/run
# the original stencil benchmark beside tsr-stencil (docs/STENCIL.md, "Comparing with the original")
EXTRA_DIST += scripts/peers/build-gridbenchmark.sh scripts/peers/stencil-compare \
	scripts/device/peers-stencil.sh scripts/device/seed-tables.sh
TESTS += tests/apps/peers_compare.sh
EXTRA_DIST += tests/apps/peers_compare.sh
# OP2's own Airfoil beside tsr-airfoil (docs/AIRFOIL.md, "Comparing with OP2")
EXTRA_DIST += scripts/peers/build-op2-airfoil.sh scripts/device/peers-airfoil.sh
# peers (issue 6): Tasmanian beside tsr-fastsg; built outside the tree by build-tasmanian.sh
EXTRA_DIST += scripts/device/peers-fastsg.sh scripts/peers/build-tasmanian.sh \
	scripts/peers/tasmanian_fastsg.cpp
