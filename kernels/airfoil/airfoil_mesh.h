/* kernels/airfoil/airfoil_mesh.h: Airfoil meshes in libtessera's mesh
 * structures (OP2's names), their checks, and their HDF5 files.
 *
 * An Airfoil mesh is a tsr_mesh_t with the sets nodes, edges, bedges, cells;
 * the maps pedge (edges->nodes, 2), pecell (edges->cells, 2), pbedge
 * (bedges->nodes, 2), pbecell (bedges->cells, 1), pcell (cells->nodes, 4);
 * the dats p_x (nodes, 2, double), p_q (cells, 4, double), p_bound (bedges,
 * 1, int32); the constants gam, gm1, cfl, eps, mach, alpha (1) and qinf (4).
 * p_qold, p_adt and p_res, which OP2's files also carry, are work arrays:
 * they are not read (the kernels need none of them).
 */
#ifndef TSR_KERNELS_AIRFOIL_MESH_H
#define TSR_KERNELS_AIRFOIL_MESH_H

#include "tessera/halo.h"
#include "tessera/io.h"
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

/* Read an OP2 HDF5 mesh (OP2's convert_mesh layout; other groups and
 * datasets, like OP2's test groups, are ignored) through libtessera's io:
 * on one rank a SERIAL mesh, on several a BLOCK mesh (each rank its rows).
 * Collective; errors name the file and the dataset. */
int airfoil_mesh_read(MPI_Comm comm, const char *path, tsr_mesh_t **out);

/* Write a SERIAL or BLOCK mesh in OP2's layout (temp-then-rename), with
 * provenance (prov may be NULL). Collective. */
int airfoil_mesh_write(MPI_Comm comm, const char *path, const tsr_mesh_t *mesh,
                       const tsr_provenance_t *prov);

/* ---- distribution and reordering (airfoil_part.c) ---------------------- */
typedef enum {
  AIRFOIL_REORDER_NONE = 0, /* the file's numbering                                  */
  AIRFOIL_REORDER_GPS,      /* cells by Gibbs-Poole-Stockmeyer (Scotch); nodes, edges
                               and bedges follow their cells                        */
  AIRFOIL_REORDER_RCM,      /* the same with reverse Cuthill-McKee (baseline)       */
  AIRFOIL_REORDER_PARTITION /* edges in METIS blocks of <= block (Sulyok et al.'s margins),
                               cells by the blocks that touch them, the rest follow */
} airfoil_reorder_t;

typedef struct {
  airfoil_reorder_t reorder;
  int block;        /* PARTITION: largest block (the CUDA block size)          */
  double imbalance; /* PARTITION: METIS imbalance l (1.001)                    */
  double eps;       /* PARTITION: margin eps of l' = (S + eps) / S' (0)        */
  tsr_partitioner_t partitioner; /* cells over the ranks: METIS or PT-Scotch
                                    (where built; tsr-airfoil's default on
                                    several ranks)                            */
  int halo;         /* several ranks, GPUs: the halo's tsr_halo_transport_t    */
} airfoil_setup_t;

/* This rank's part of the problem. */
typedef struct {
  tsr_mesh_t *mesh;      /* partitioned (tsr_mesh_partition) and reordered     */
  tsr_halo_t *halo;      /* cells (NULL on one rank)                          */
  airfoil_problem_t p;   /* points into mesh; p.halo, p.comm set              */
  tsr_idx_t neblock;     /* PARTITION: edge blocks (also in p)                 */
  tsr_idx_t *eblock_off;
  /* what the reordering did on this rank's cell graph (pecell) */
  tsr_idx_t bw_before, bw_after, profile_before, profile_after;
} airfoil_local_t;

/* Collective. Partition `in` (SERIAL, the same on every rank, or BLOCK as
 * read) OP2's way: cells by METIS on the graph pecell induces, edges and
 * bedges with their first cell, nodes with their first cell; exec and
 * non-exec halos. Then reorder each rank's mesh as asked (core, owned and
 * halo rows stay in their groups), build the cells' halo and check the
 * mesh (airfoil_problem_from_mesh; errors agreed over comm). */
int airfoil_local_create(MPI_Comm comm, const tsr_mesh_t *in, const char *source,
                         const airfoil_setup_t *o, airfoil_local_t *out);
void airfoil_local_free(airfoil_local_t *l);

/* Collective. Write the final state q ([l.p.ncell][4], owned rows used) into
 * `in`'s p_q in the ORIGINAL numbering, add the cell dat "pressure", write
 * `in` to path (OP2's layout, temp-then-rename) and its XDMF sidecar. */
int airfoil_write_solution(MPI_Comm comm, const char *path, tsr_mesh_t *in,
                           const airfoil_local_t *l, const double *q,
                           const tsr_provenance_t *prov);

/* Shared-memory plan statistics of the edges of p for block size `block`
 * (p's partition blocks when it has some and none exceeds block, else
 * uniform blocks): data reuse of the cells staged per block (mean, min),
 * block colours, most thread colours, shared memory per block (bytes, for
 * real numbers of `real` bytes: q, adt, increments per cell, x per node). */
typedef struct {
  tsr_idx_t nblocks;
  int max_block, nblock_colours, max_thread_colours;
  double reuse_mean, reuse_min;
  size_t smem;
} airfoil_plan_info_t;
int airfoil_plan_info(const airfoil_problem_t *p, int block, size_t real, airfoil_plan_info_t *info);

#endif /* TSR_KERNELS_AIRFOIL_MESH_H */
