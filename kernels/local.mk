# kernels/local.mk
