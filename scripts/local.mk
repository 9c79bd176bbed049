# scripts/: installed helper scripts (quickstart, demo, batch templates)
dist_pkgdata_SCRIPTS = scripts/quickstart scripts/demo
dist_pkgdata_DATA = scripts/demo.list scripts/slurm/tessera.sbatch
EXTRA_DIST += .ci/run
# peers (issue 6): Tasmanian beside tsr-fastsg; built outside the tree by build-tasmanian.sh
EXTRA_DIST += scripts/device/peers-fastsg.sh scripts/peers/build-tasmanian.sh \
	scripts/peers/tasmanian_fastsg.cpp
