# apps/fastsg/local.mk: the fastsg app, its kernels (kernels/...) and its tests.
