# docs/: installed under $(docdir)
dist_doc_DATA = README.md docs/CSV.md docs/NEIGH.md docs/LAYOUT.md docs/FORMAT.md docs/AIRFOIL.md docs/LAYOUTBENCH.md
