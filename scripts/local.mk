# scripts/: installed helper scripts (quickstart, demo, batch templates)
dist_pkgdata_SCRIPTS = scripts/quickstart scripts/demo
dist_pkgdata_DATA = scripts/demo.list scripts/slurm/tessera.sbatch
EXTRA_DIST += .ci/run
# OP2's own Airfoil beside tsr-airfoil (docs/AIRFOIL.md, "Comparing with OP2")
EXTRA_DIST += scripts/peers/build-op2-airfoil.sh scripts/device/peers-airfoil.sh
