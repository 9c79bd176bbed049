# apps/local.mk
