/* tessera/part.h: domain decomposition.
 *
 * Regular grids (tsr_grid_part_t): the X-Y plane of an nx*ny*nz grid is cut
 * into a dims[0] x dims[1] process grid of blocks (MPI_Dims_create; Z is not
 * split). Each rank owns the inner box [lo, hi) in global coordinates; its
 * local array holds the inner box plus `halo` cells on each side in x and y,
 * filled by a halo exchange (tessera/halo.h) from up to 8 neighbours
 * (diagonal neighbours included, so 13-point and 9-point stencils that read
 * corner halo cells work).
 *
 * Unstructured meshes (tsr_mesh_part_*): see the second half of this file.
 */
#ifndef TESSERA_PART_H
#define TESSERA_PART_H

#include <mpi.h>
#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ pure helpers */

/* Block i of n cells over p parts: [*lo, *hi). The first n % p blocks get
 * one cell more than the others (sizes differ by at most one). */
void tsr_part_block(tsr_idx_t n, int p, int i, tsr_idx_t *lo, tsr_idx_t *hi);
/* The part (0..p-1) whose block holds cell c (0 <= c < n). */
int tsr_part_block_owner(tsr_idx_t n, int p, tsr_idx_t c);

/* Process grid for nranks ranks over an nx*ny plane: MPI_Dims_create's
 * balanced factors (MPI must be initialised), the larger factor along the
 * longer axis. dims[0]: ranks along x, dims[1]: ranks along y. */
int tsr_part_dims(int nranks, tsr_idx_t nx, tsr_idx_t ny, int dims[2]);

/* ------------------------------------------------------------ regular grids */

/* Index of the neighbour at offset (dx, dy), each in -1..1, in nbr[9]. */
#define TSR_NBR(dx, dy) (((dy) + 1) * 3 + ((dx) + 1))

typedef struct {
  MPI_Comm comm;           /* not duplicated: the caller's communicator */
  int size, rank;
  tsr_idx_t n[3];          /* global cells nx, ny, nz */
  int halo;                /* halo width in x and y (cells) */
  int periodic[2];         /* wrap around in x / y */
  int dims[2];             /* process grid: ranks along x, along y */
  int coords[2];           /* this rank's place; rank = coords[1]*dims[0] + coords[0] */
  tsr_idx_t lo[3], hi[3];  /* inner box [lo, hi), global coordinates (z: 0..nz) */
  tsr_idx_t inner[3];      /* hi - lo */
  int nbr[9];              /* rank at offset (dx,dy): nbr[TSR_NBR(dx,dy)]; MPI_PROC_NULL
                              where the grid ends (non-periodic); nbr[4] = rank */
} tsr_grid_part_t;

/* Collective over comm. Decompose an n[0] x n[1] x n[2] grid with halo width
 * `halo` (0 allowed); periodic may be NULL (no wrap). Fails on every rank,
 * with TSR_ERR_PARTITION, when some rank would own fewer than max(halo, 1)
 * cells in x or y; the message names the grid, the ranks and the process grid. */
int tsr_grid_part_init(MPI_Comm comm, const tsr_idx_t n[3], int halo, const int periodic[2],
                       tsr_grid_part_t *out);

/* Inner box of any rank r of the decomposition (pure arithmetic). */
void tsr_grid_part_box(const tsr_grid_part_t *p, int r, tsr_idx_t lo[3], tsr_idx_t hi[3]);
/* Rank at process-grid coordinates (cx, cy), wrapping where periodic;
 * MPI_PROC_NULL outside a non-periodic grid. */
int tsr_grid_part_rank_at(const tsr_grid_part_t *p, int cx, int cy);
/* Rank owning global cell (x, y) (any z). */
int tsr_grid_part_owner(const tsr_grid_part_t *p, tsr_idx_t x, tsr_idx_t y);

/* A row-major local array of a regular grid: a[(z*ny + y)*nx + x], x
 * fastest; (x0, y0, z0) is the local position of the first inner cell
 * (global (lo[0], lo[1], 0)). nx may exceed inner+2*halo (padding). */
typedef struct {
  tsr_idx_t nx, ny, nz;
  tsr_idx_t x0, y0, z0;
} tsr_grid_box_t;

/* The usual local array: inner + halo on each side in x and y, zhalo planes
 * below and above in z (not exchanged: Z is not split). */
tsr_grid_box_t tsr_grid_part_local(const tsr_grid_part_t *p, int zhalo);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_PART_H */
