# docs/: installed under $(docdir)
dist_doc_DATA = README.md docs/CSV.md docs/FASTSG.md
