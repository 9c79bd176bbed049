# inputs/: input generators and the small library of mesh generators the
# programs and tests share (libtsr_inputs.la: OP2's NACA0012 C-mesh and
# new_grid.dat, built on kernels/airfoil's meshes).
noinst_LTLIBRARIES += inputs/libtsr_inputs.la
inputs_libtsr_inputs_la_SOURCES = inputs/naca0012.h inputs/naca0012.c

bin_PROGRAMS += apps/tsr-mkinput
apps_tsr_mkinput_SOURCES = inputs/mkinput.c
apps_tsr_mkinput_LDADD = lib/libtessera.la $(HDF5_LIBS) -lm

bin_PROGRAMS += apps/tsr-mkairfoil
apps_tsr_mkairfoil_SOURCES = inputs/mkairfoil.c
apps_tsr_mkairfoil_LDADD = inputs/libtsr_inputs.la $(AIRFOIL_LDADD)

bin_PROGRAMS += apps/tsr-mklulesh
apps_tsr_mklulesh_SOURCES = inputs/mklulesh.c
apps_tsr_mklulesh_LDADD = $(LULESH_LDADD) $(HDF5_LIBS)
