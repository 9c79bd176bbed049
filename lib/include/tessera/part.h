/* tessera/part.h: domain decomposition.
 *
 * Regular grids (tsr_grid_part_t): the X-Y plane of an nx*ny*nz grid is cut
 * into a dims[0] x dims[1] process grid of blocks (tsr_part_dims; Z is not
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
#include "tessera/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ pure helpers */

/* Block i of n cells over p parts: [*lo, *hi). The first n % p blocks get
 * one cell more than the others (sizes differ by at most one). */
void tsr_part_block(tsr_idx_t n, int p, int i, tsr_idx_t *lo, tsr_idx_t *hi);
/* The part (0..p-1) whose block holds cell c (0 <= c < n). */
int tsr_part_block_owner(tsr_idx_t n, int p, tsr_idx_t c);

/* Process grid for nranks ranks over an nx*ny plane: of the factor pairs
 * px * py = nranks, the one whose ranks exchange the fewest halo cells, a
 * cell of an x side (a column: strided in memory, and the interior beside it
 * starts off the rows' alignment) counted twice; ties go to fewer ranks along
 * x. So 2 ranks on a square plane split it in y (whole rows each), 4 ranks on
 * 512 x 2048 take 1 x 4, a plane much wider than tall is split in x. Pairs
 * that leave a rank without a cell along x or y lose to any that does not
 * (tsr_grid_part_init: fewer than the halo width). dims[0]: ranks along x,
 * dims[1]: ranks along y. */
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

/* ------------------------------------------------------------ meshes */

/* Unstructured meshes (tessera/mesh.h) are partitioned OP2's way:
 *
 * 1. One set (opts.set, e.g. "cells") is partitioned: by a graph
 *    partitioner (METIS k-way, or PT-Scotch) on the graph that opts.map
 *    induces (map from the set, e.g. "pcell" cells -> nodes: cells are
 *    adjacent when they share a node; map to the set, e.g. "pecell"
 *    edges -> cells: cells are adjacent when an edge joins them; a map from
 *    the set to itself: its rows are the adjacency), or by blocks, or by a
 *    part vector the caller gives.
 * 2. Other sets follow through maps, repeatedly until all are decided:
 *    a) a set with a map TO a decided set: each element goes with its
 *       FIRST target (edges with pecell[e][0], their first cell);
 *    b) otherwise a set that a decided set maps to: each element goes with
 *       the lowest-numbered element that reaches it (nodes with their first
 *       incident cell), maps from the partitioned set preferred; elements
 *       no map reaches stay with the rank that held them.
 *    Sets no map connects stay where they were read.
 * 3. On each rank, per set: owned elements; the exec halo: elements owned
 *    elsewhere whose map targets include an element owned here (they
 *    increment owned data, so they are executed redundantly); the non-exec
 *    halo: elements neither owned nor exec that an owned or exec element
 *    maps to (read only).
 * 4. Local numbering per set: owned first (core first: owned elements
 *    whose targets through every map from the set are all owned here; then
 *    the other owned ones), then the exec halo, then the non-exec halo,
 *    each group in ascending global index. global_id records the global
 *    index of every local row; maps are rewritten to local indices. Rows
 *    of non-exec halo elements may map to elements this rank does not hold:
 *    those entries are -1 (they are never executed).
 * Dats move with their elements (halo rows hold the owners' values at
 * partition time; refresh them with tsr_halo_create_mesh + exchange).
 */
typedef enum {
  TSR_PARTITIONER_METIS = 0, /* METIS_PartGraphKway on rank 0 (serial METIS:
                                the whole graph is gathered there) */
  TSR_PARTITIONER_BLOCK,     /* the blocks as read: rank r owns its block */
  TSR_PARTITIONER_GIVEN,     /* opts.part */
  TSR_PARTITIONER_PTSCOTCH   /* SCOTCH_dgraphPart on the block-distributed
                                graph (parallel; no rank holds it whole),
                                parts within 1 % of the mean. Only where configure found PT-Scotch
                                (Debian libptscotch-dev); else
                                tsr_mesh_partition answers
                                TSR_ERR_UNSUPPORTED. Reproducible for a
                                given rank count and PT-Scotch build. */
} tsr_partitioner_t;

typedef struct {
  const char *set;           /* the set to partition, e.g. "cells" */
  const char *map;           /* METIS, PTSCOTCH: the map inducing its graph */
  tsr_partitioner_t method;
  const int *part;           /* GIVEN: owner rank of each of this rank's
                                tsr_mesh_block_rows() rows of the set */
} tsr_mesh_part_opts_t;

/* Partitioner by name: "metis", "ptscotch", "block" (case-sensitive).
 * TSR_ERR_ARG naming the accepted names for anything else ("ptscotch" is
 * accepted in every build; tsr_mesh_partition refuses it without
 * --with-ptscotch). tsr_partitioner_name: the name of m ("given" for
 * TSR_PARTITIONER_GIVEN, "?" for other values). */
int tsr_partitioner_parse(const char *name, tsr_partitioner_t *out);
const char *tsr_partitioner_name(tsr_partitioner_t m);
/* 1 when this build has PT-Scotch (configure found libptscotch-dev). */
int tsr_partitioner_have_ptscotch(void);

/* Collective. in: a SERIAL mesh (the same on every rank) or a BLOCK mesh
 * (blocks as tsr_mesh_block_rows, global map targets). out: a new
 * PARTITIONED mesh with this rank's part (in is not changed). Constants are
 * copied. */
int tsr_mesh_partition(MPI_Comm comm, const tsr_mesh_t *in, const tsr_mesh_part_opts_t *opts,
                       tsr_mesh_t **out);

/* Rows [0, core) of `set` in a partitioned mesh are its core. */
tsr_idx_t tsr_mesh_core_size(const tsr_mesh_t *mesh, int set);


/* ------------------------------------------------------------ X-Y planes */

/* An X-Y-unstructured grid on several ranks: the inner nx-2hx by ny-2hy
 * cells of an nx x ny plane (a frame of hx, hy cells around them is not
 * partitioned: constant inputs) are partitioned as a graph (4 neighbours,
 * tsr_graph_plane) by METIS on rank 0 (tsr_graph_partition, seed 7:
 * reproducible) and broadcast; Z is regular (every level of a plane cell
 * lives with it). owner: the rank of each inner cell, x fastest (one int
 * per plane cell on every rank: plane-sized, not volume-sized). */
typedef struct {
  MPI_Comm comm;           /* not duplicated: the caller's communicator */
  int size, rank;
  tsr_idx_t nx, ny;        /* the plane, frame included */
  int hx, hy;              /* the frame */
  int *owner;              /* [(nx - 2hx) * (ny - 2hy)] */
} tsr_plane_part_t;

/* Collective. Fails on every rank when the inner plane is empty or too
 * large for METIS, or when METIS fails. */
int tsr_plane_part_init(MPI_Comm comm, tsr_idx_t nx, tsr_idx_t ny, int hx, int hy,
                        tsr_plane_part_t *out);
void tsr_plane_part_free(tsr_plane_part_t *p);
/* Owner of plane cell (x, y) (frame included in the coordinates): a rank,
 * or -1 in the frame. */
static inline int tsr_plane_part_owner(const tsr_plane_part_t *p, tsr_idx_t x, tsr_idx_t y) {
  const tsr_idx_t nxi = p->nx - 2 * p->hx, nyi = p->ny - 2 * p->hy;
  if (x < p->hx || y < p->hy || x >= p->hx + nxi || y >= p->hy + nyi) return -1;
  return p->owner[(x - p->hx) + nxi * (y - p->hy)];
}

/* This rank's slots for a stencil footprint (relative cells (dx[k], dy[k]),
 * k < nfoot, that an owned cell reads):
 *   [0, ncore)      owned cells whose footprint holds no other rank's cell
 *   [ncore, nown)   the other owned cells
 *   [nown, ncells)  the halo: other ranks' footprint cells grouped by owner
 *                   (ascending) and sorted by plane cell, then frame cells
 * both owned groups sorted by key[inner cell] (x fastest over the inner
 * plane: the storage order wanted, e.g. a z-curve rank), ties by cell.
 * cells[s]: plane cell x + nx*y of slot s. Halo lists per neighbour rank
 * (ascending), in slots: this rank sends ranks[k] the cells it owns in
 * their footprint (sidx, sorted by cell), and receives that rank's cells
 * into its halo slots in the same order (ridx), so the lists agree by
 * construction. Collective: a rank METIS left without cells is an error on
 * every rank. */
typedef struct {
  tsr_idx_t ncells, nown, ncore;
  int64_t *cells;          /* [ncells] */
  int nneigh;
  int *ranks;              /* [nneigh] */
  tsr_idx_t *scount, *rcount; /* [nneigh] slots sent to / received from each */
  tsr_idx_t *sidx, *ridx;  /* concatenated in neighbour order */
} tsr_plane_lists_t;
int tsr_plane_lists_create(const tsr_plane_part_t *p, int nfoot, const int *dx, const int *dy,
                           const int64_t *key, tsr_plane_lists_t *out);
void tsr_plane_lists_free(tsr_plane_lists_t *l);

/* The halo exchange of arrays of slots with nz levels (slot s, level z is
 * element s + z*zs; zs >= ncells): every level of the lists. Collective. */
struct tsr_halo;
int tsr_plane_halo_create(const tsr_plane_part_t *p, const tsr_plane_lists_t *l, tsr_idx_t zs,
                          tsr_idx_t nz, struct tsr_halo **out);

/* Transfers (tessera/xfer.h) between the regular X-Y decomposition g of
 * the same inner plane (tsr_grid_part_init with g->halo == hx == hy) and
 * the slots of l. Regular-side elements are the cells of the rank's local
 * plane (inner box plus halo: lx + lnx*ly, lnx = g->inner[0] + 2*halo);
 * slot-side elements are slots. from_grid: every slot receives its cell
 * from the rank whose local plane holds it (a frame cell: from the block
 * nearest it). to_grid: every inner cell of this rank's block receives the
 * owned slot of its plane owner (halo cells are not written). Records of
 * several fields and levels move as one element. Collective. */
struct tsr_xfer;
int tsr_plane_xfer_from_grid(const tsr_plane_part_t *p, const tsr_grid_part_t *g,
                             const tsr_plane_lists_t *l, struct tsr_xfer **out);
int tsr_plane_xfer_to_grid(const tsr_plane_part_t *p, const tsr_grid_part_t *g,
                           const tsr_plane_lists_t *l, struct tsr_xfer **out);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_PART_H */
