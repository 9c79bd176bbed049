# apps/airfoil/local.mk: tsr-airfoil, OP2's Airfoil on OP2's meshes (the
# kernels, mesh checks, files and partitioning are kernels/airfoil's).
bin_PROGRAMS += apps/tsr-airfoil
apps_tsr_airfoil_SOURCES = apps/airfoil/airfoil.c apps/airfoil/airfoil_run.c apps/airfoil/airfoil_ckpt.c \
	apps/airfoil/airfoil_app.h
apps_tsr_airfoil_LDADD = inputs/libtsr_inputs.la $(AIRFOIL_LDADD)
