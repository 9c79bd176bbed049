# kernels/: built by each app's fragment (apps/<app>/local.mk)
include kernels/lulesh/local.mk
