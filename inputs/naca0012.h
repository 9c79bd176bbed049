/* inputs/naca0012.h: the NACA0012 C-mesh of OP2's Airfoil, generated in C
 * (the algorithm of OP2's apps/mesh_generators/naca0012.m, 2012 version),
 * and OP2's plain-text new_grid.dat format. */
#ifndef TSR_INPUTS_NACA0012_H
#define TSR_INPUTS_NACA0012_H

#include "tessera/mesh.h"

/* The mesh for I (cells along a third of the C, I >= 2) and J (cells
 * radially, J >= 2): (3I+1)(J+1) nodes, 3IJ cells, (3I-1)J + 3I(J-1) + I
 * edges, 4I + 2J boundary edges; I=400, J=600 is OP2's standard mesh.
 * With round_dp6, node coordinates are rounded to 6 decimals exactly as OP2's
 * text file new_grid.dat (printf "%f") stores them, so the mesh equals the
 * one OP2's converter writes; without, they are the unrounded values.
 * The mesh has OP2's sets, maps, dats (p_q = qinf, p_qold, p_adt, p_res = 0)
 * and constants (airfoil_consts_default). */
int airfoil_naca0012(int nI, int nJ, int round_dp6, tsr_mesh_t **out);

/* Read OP2's new_grid.dat: a header "nnode ncell nedge nbedge", then nnode
 * lines "x y", ncell lines of 4 node indices, nedge lines "node node cell
 * cell", nbedge lines "node node cell bound" (0-based). Constants and p_q
 * are OP2's defaults, as OP2's airfoil.cpp sets them. */
int airfoil_dat_read(const char *path, tsr_mesh_t **out);

/* Write mesh (an Airfoil mesh) as new_grid.dat in OP2's format. */
int airfoil_dat_write(const char *path, const tsr_mesh_t *mesh);

#endif /* TSR_INPUTS_NACA0012_H */
