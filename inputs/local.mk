# inputs/local.mk
