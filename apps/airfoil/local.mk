# apps/airfoil/local.mk: the airfoil app, its kernels (kernels/...) and its tests.
