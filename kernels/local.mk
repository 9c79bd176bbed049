# kernels/: one library per app's kernels; each kernels/<app>/local.mk builds
# its library and sets <APP>_LDADD, what a program or test using it links.
include kernels/copy/local.mk
include kernels/airfoil/local.mk
include kernels/sparse/local.mk
include kernels/stencil/local.mk
include kernels/layout/local.mk
include kernels/lulesh/local.mk
