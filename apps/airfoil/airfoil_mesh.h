/* apps/airfoil/airfoil_mesh.h: Airfoil meshes in libtessera's mesh
 * structures (OP2's names), their checks, and their HDF5 files.
 *
 * An Airfoil mesh is a tsr_mesh_t with the sets nodes, edges, bedges, cells;
 * the maps pedge (edges->nodes, 2), pecell (edges->cells, 2), pbedge
 * (bedges->nodes, 2), pbecell (bedges->cells, 1), pcell (cells->nodes, 4);
 * the dats p_x (nodes, 2, double), p_q (cells, 4, double), p_bound (bedges,
 * 1, int32); the constants gam, gm1, cfl, eps, mach, alpha (1) and qinf (4).
 * p_qold, p_adt and p_res, which OP2's files also carry, are work arrays:
 * they are read when present and written, but never needed.
 */
#ifndef TSR_APPS_AIRFOIL_MESH_H
#define TSR_APPS_AIRFOIL_MESH_H

#include "tessera/mesh.h"
#include "kernels/airfoil/airfoil_run.h"

/* Check everything the kernels rely on and fill *p with pointers into mesh
 * (valid while mesh lives): sets, maps and dats present with OP2's names,
 * arities and types, map indices in range, every edge's two nodes corners
 * of both of its cells and every boundary edge's nodes corners of its cell,
 * bound in {1, 2}, constants present. `source` (a file name, or a phrase like
 * "generated mesh") starts every error message. */
int airfoil_problem_from_mesh(const tsr_mesh_t *mesh, const char *source, airfoil_problem_t *p);

/* Add OP2's seven constants to mesh. */
int airfoil_mesh_add_consts(tsr_mesh_t *mesh, const airfoil_consts_t *c);

/* Read an OP2 HDF5 mesh (the layout of OP2's convert_mesh: one dataset per
 * set holding its size, maps [from_size][dim] int, dats [size][dim],
 * constants [dim] double) on one rank as a SERIAL mesh. Other groups and
 * datasets (OP2's test groups) are ignored. Errors name the file and the
 * dataset. Serial stop-gap until libtessera's io (tsr_mesh_read) lands. */
int airfoil_mesh_read_h5(const char *path, tsr_mesh_t **out);

/* Write mesh in OP2's HDF5 layout (with OP2's dim/size/type attributes) to
 * PATH.tmp, then rename it to path. */
int airfoil_mesh_write_h5(const char *path, const tsr_mesh_t *mesh);

#endif /* TSR_APPS_AIRFOIL_MESH_H */
