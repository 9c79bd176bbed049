# apps/: each app's fragment builds that app's program(s) from its driver; the
# kernels are kernels/<app>/local.mk's, the tests tests/'s.
include apps/copybench/local.mk
include apps/airfoil/local.mk
include apps/fastsg/local.mk
include apps/halobench/local.mk
include apps/stencil/local.mk
include apps/layoutbench/local.mk
include apps/info/local.mk
include apps/lulesh/local.mk
