# docs/: installed under $(docdir)
dist_doc_DATA = README.md docs/CSV.md docs/NEIGH.md docs/LAYOUT.md docs/FORMAT.md docs/AIRFOIL.md \
	docs/FASTSG.md docs/STENCIL.md docs/LAYOUTBENCH.md BENCHMARKS.md
