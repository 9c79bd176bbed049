# docs/: installed under $(docdir)
dist_doc_DATA = README.md docs/CSV.md docs/NEIGH.md docs/LAYOUT.md docs/FORMAT.md docs/AIRFOIL.md \
	docs/FASTSG.md docs/STENCIL.md docs/LAYOUTBENCH.md docs/LULESH.md BENCHMARKS.md
# the figures the docs show (installed beside them), the CSVs they are made from and the
# CSVs behind BENCHMARKS.md's tables
imgdir = $(docdir)/img
dist_img_DATA = docs/img/layoutbench-matmul-gpu-1008.png docs/img/layoutbench-matmul-gpu-10080.png \
	docs/img/layoutbench-matmul-cpu-1008.png docs/img/layoutbench-breakeven.png \
	docs/img/layoutbench-transform.png docs/img/layoutbench-stencil.png \
	docs/img/plot-laplap-time.png docs/img/plot-laplap-speedup.png docs/img/plot-airfoil-scaling.png
EXTRA_DIST += docs/data/layoutbench/layout-gpu-1008.csv docs/data/layoutbench/layout-gpu-10080.csv \
	docs/data/layoutbench/layout-cpu-1008.csv docs/data/layoutbench/layout-gpu-payoff.csv \
	docs/data/layoutbench/layout-cpu-payoff.csv docs/data/layoutbench/layout-stencil.csv \
	docs/data/layoutbench/layout.csv docs/data/copy/copy.csv docs/data/stencil/stencil.csv \
	docs/data/airfoil/airfoil.csv docs/data/fastsg/fastsg.csv docs/data/scaling/scaling.csv
