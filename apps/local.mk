# apps/: each app's fragment builds its kernels, its program and its tests.
include apps/copybench/local.mk
include apps/airfoil/local.mk
include apps/fastsg/local.mk
include apps/halobench/local.mk
include apps/stencil/local.mk
include apps/layoutbench/local.mk
