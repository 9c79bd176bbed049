# apps/copybench/local.mk: the copybench app, its kernels (kernels/...) and its tests.
