/* kernels/lulesh/lulesh_dist.h: the LULESH problem on several MPI ranks.
 *
 * Decompositions of the global Sedov cube (global numbering as
 * lulesh_mesh_sedov: element (i, j, k) is (k E + j) E + i, node (i, j, k)
 * is (k (E+1) + j) (E+1) + i for global edge E):
 *   LULESH_DECOMP_CUBE   LULESH's: np = p^3 ranks, each owning an n^3 box
 *                        (global edge E = p n); rank r is box (r mod p,
 *                        (r / p) mod p, r / p^2) as LULESH numbers its
 *                        domains. Each rank builds only its own box (memory
 *                        independent of p). Regions: LULESH's MPI rule, each
 *                        rank drawing its own elements' regions from the
 *                        sequence seeded with its rank (srand(myRank)).
 *   LULESH_DECOMP_BLOCK  any rank count that fits: the global cube of edge E
 *                        is cut into a px x py x pz grid of boxes
 *                        (lulesh_block_dims: the grid with the fewest
 *                        interface nodes), box edges along an axis
 *                        differing by at most one element (tsr_part_block);
 *                        rank r is box (r mod px, (r / px) mod py,
 *                        r / (px py)). Each rank builds only its own box.
 *                        On k^3 ranks with E divisible by k: the boxes of
 *                        LULESH_DECOMP_CUBE at -s E/k.
 *   LULESH_DECOMP_METIS  any rank count: the global cube of edge E is
 *                        partitioned by METIS (tsr_graph_partition, fixed
 *                        seed, METIS's default imbalance) on its face
 *                        graph, built from the cube's formulas on rank 0
 *                        alone, which sends each rank the ids of its
 *                        elements; each rank then builds only its part.
 * Regions of block and METIS: LULESH's rule on the global element numbering
 * (as one rank), replayed by each rank for the elements it owns, so the
 * region of an element does not depend on the rank count.
 * (The EOS is the same in every region; regions set only how often it is
 * evaluated, so the physics and LULESH's reference values do not depend
 * on the region rule.)
 *
 * Each rank's part is a lulesh_mesh_t of its owned elements (in increasing
 * global id: LULESH's own local order for the cube decomposition) and the
 * nodes they touch (in increasing global id), plus ghost elements (the
 * face neighbours owned elsewhere, in increasing global id, numbered after
 * the owned ones) behind faces flagged COMM. Interface nodes are duplicated
 * on every rank that touches them; the lowest such rank is their owner.
 *
 * Exchanges per cycle (lulesh_exchange_t, called by the CPU step of
 * lulesh_cpu.c and meant for a GPU step on device arrays, through
 * tessera/halo.h): (1) the nodal forces summed over the copies of each
 * shared node: each other holder's partial sum goes to a slot of its own at
 * the owner, the owner adds them to its own in increasing rank order (round
 * by round, each node at most once per round: the same order and bits on
 * the host and on a GPU, whose unpack adds atomically) and the owner's total
 * is sent back (forward), so every copy holds the same bits; likewise the
 * nodal mass at setup. Positions and velocities are then updated from
 * identical forces, masses and dt on every copy and stay identical without
 * a further exchange (tests/mpi/check_lulesh_dist checks it bit for bit).
 * (2) the ghost elements' velocity gradients (delvg) after the Q
 * gradients. (3) the dt constraints, MPI_Allreduce(MIN).
 */
#ifndef TSR_KERNELS_LULESH_DIST_H
#define TSR_KERNELS_LULESH_DIST_H

#include <mpi.h>
#include <stdint.h>

#include "tessera/device.h"
#include "tessera/halo.h"
#include "tessera/hex.h"
#include "kernels/lulesh/lulesh_mesh.h"
#include "kernels/lulesh/lulesh_split.h"

/* The hook table of a distributed step. dev: where the arrays live (NULL:
 * host memory); the index lists and buffers follow them to the device at
 * the first call on it. Each function is collective over the run's ranks
 * and returns 0 or a libtessera error code. */
typedef struct lulesh_exchange {
  void *ctx;
  /* Sum n (<= 3) node arrays over the copies of shared nodes. */
  int (*node_sum)(void *ctx, const tsr_device_t *dev, int n, double *const *arrays);
  /* Fill the ghost entries [num_elem, num_elem + num_ghost) of n (<= 3)
   * element arrays from their owners. */
  int (*elem_ghosts)(void *ctx, const tsr_device_t *dev, int n, double *const *arrays);
  /* v[n] (host) becomes the minimum, or the sum, over all ranks. */
  int (*min)(void *ctx, int n, double *v);
  int (*sum)(void *ctx, int n, double *v);
  /* Agree on an error: every rank passes its code; all return the lowest
   * failing rank's code and message (tsr_error_agree). */
  int (*agree)(void *ctx, int code);
  /* Queue the device work of node_sum and elem_ghosts (packs, unpacks,
   * copies) on `stream` (a cudaStream_t; NULL: the default stream, the
   * initial state); the caller orders it with its own work (tsr_queue_*).
   * May be NULL (no device exchanges). */
  int (*set_stream)(void *ctx, void *stream);
  /* This rank's split for overlapped steps (NULL: none). */
  const lulesh_split_t *split;
} lulesh_exchange_t;

typedef enum { LULESH_DECOMP_CUBE = 0, LULESH_DECOMP_METIS, LULESH_DECOMP_BLOCK } lulesh_decomp_t;

typedef struct lulesh_dist lulesh_dist_t;

/* What a rank count allows: the decomposition a run gets for "auto" (cube
 * when nranks is a cube, else block). */
lulesh_decomp_t lulesh_decomp_default(int nranks);
/* "cube" / "metis" / "block" (NULL on an unknown value). */
const char *lulesh_decomp_name(lulesh_decomp_t d);
/* The name's decomposition: 0, or -1 for an unknown name. */
int lulesh_decomp_parse(const char *name, lulesh_decomp_t *d);

/* LULESH_DECOMP_BLOCK's process grid for nranks over the cube of edge
 * `edge`: of the px py pz = nranks with every factor <= edge, the one with
 * the fewest interface nodes (nodes on an inner cut plane); ties go to more
 * ranks along z, then y. Fails (TSR_ERR_ARG, one message naming the rank
 * count and edge) when every factorisation puts more ranks than elements
 * along an axis. Local, no communication. */
int lulesh_block_dims(int nranks, int edge, int dims[3]);
/* Rank `rank`'s box [lo, hi) of element coordinates in that grid. */
void lulesh_block_box(int edge, const int dims[3], int rank, int64_t lo[3], int64_t hi[3]);

/* Build this rank's part (collective over comm; the same arguments on
 * every rank). size: LULESH's -s (cube: elements per edge of each rank's
 * box; block, METIS: of the global cube); nr, balance: -r, -b. The part is
 * written to *mesh (the caller frees it with lulesh_mesh_free after
 * lulesh_dist_destroy). A rank count the decomposition cannot use (cube: not
 * a cube; block: every factorisation has more ranks than elements along an
 * axis; METIS: more ranks than elements) fails on every rank with one
 * message. */
int lulesh_dist_create(MPI_Comm comm, lulesh_decomp_t decomp, int size, int nr, int balance,
                       lulesh_mesh_t *mesh, lulesh_dist_t **out);
void lulesh_dist_destroy(lulesh_dist_t **d);

/* This rank's part alone (lulesh_dist_create's first half): the mesh, the
 * global ids of its elements [num_elem + num_ghost] and nodes [num_node]
 * (malloc'ed, the caller frees them) and the global edge. Collective. */
int lulesh_dist_part(MPI_Comm comm, lulesh_decomp_t decomp, int size, int nr, int balance,
                     lulesh_mesh_t *m, int64_t **elem_gid, int64_t **node_gid, int *edge);

/* The same from a hex-mesh file (docs/FORMAT.md) instead of the generated
 * cube (lulesh_dist_file.c): each rank reads only its block of rows of
 * every dataset (tsr_hex_read, parallel HDF5, with every check), the
 * elements are partitioned (METIS: the element face graph gathered to rank
 * 0 and partitioned there, as LULESH_DECOMP_METIS does; CUBE: only for a
 * generated cube of edge p n on p^3 ranks, each rank the box of
 * LULESH_DECOMP_CUBE, its elements found by their centroids, so any
 * numbering works) and sent with their node ids, face neighbours, flags and
 * regions to their ranks, which fetch the coordinates and symmetry flags
 * of the nodes they use; no rank holds the whole mesh. Global ids are the
 * file's numbering; *h the file's header. Collective; a rank count or
 * decomposition the file cannot use fails on every rank with one line. */
int lulesh_dist_create_file(MPI_Comm comm, lulesh_decomp_t decomp, const char *path,
                            lulesh_mesh_t *mesh, tsr_hex_header_t *h, lulesh_dist_t **out);
int lulesh_dist_part_file(MPI_Comm comm, lulesh_decomp_t decomp, const char *path,
                          lulesh_mesh_t *m, int64_t **elem_gid, int64_t **node_gid,
                          tsr_hex_header_t *h);

/* A rank's elements and nodes as records in global ids, sorted by id:
 * elem[ne][LULESH_EREC] = 8 corner node ids, 6 face neighbours (the element
 * itself across SYMM and FREE faces), elem_bc (without COMM flags), region;
 * node[nn][4] = x, y, z, symmetry bits (1: x = 0 plane, 2: y, 4: z) of
 * every node the elements use. lulesh_dist_part_records makes the part
 * from them (ghosts, COMM flags, local numbering as lulesh_dist_part;
 * origin: the origin element's global id). Collective. */
#define LULESH_EREC 16
typedef struct {
  int64_t ne, nn;
  int64_t *elem_gid, *elem, *node_gid;
  double *node;
} lulesh_dist_records_t;
int lulesh_dist_part_records(MPI_Comm comm, const lulesh_dist_records_t *r, int nr,
                             int64_t origin, double einit, lulesh_mesh_t *m, int64_t **elem_gid,
                             int64_t **node_gid);

/* The transport of d's exchanges on CUDA devices (tessera/halo.h:
 * staged, the default; ipc between the GPUs of one node; aware for a
 * CUDA-aware MPI). Collective (every rank asks for the same); with ipc,
 * lulesh_dist_destroy is collective too. */
int lulesh_dist_set_transport(lulesh_dist_t *d, tsr_halo_transport_t t);

/* The exchanges of d, for lulesh_state_init_ex / a GPU step. */
const lulesh_exchange_t *lulesh_dist_exchange(lulesh_dist_t *d);

/* Facts of d. */
typedef struct {
  lulesh_decomp_t decomp;
  int rank, nranks;
  int edge;              /* global elements per cube edge */
  int64_t num_elem;      /* global elements */
  int origin_rank;       /* rank holding the origin element */
  int32_t num_shared;    /* this rank's nodes held by other ranks too */
  int32_t num_shared_owned; /* those of them this rank owns (lowest holder) */
  int32_t num_send_elem; /* owned elements that are ghosts elsewhere */
  int nneigh;            /* ranks this rank exchanges nodes or elements with */
} lulesh_dist_info_t;
void lulesh_dist_info(const lulesh_dist_t *d, lulesh_dist_info_t *info);

/* Global ids of this rank's elements [num_elem + num_ghost] and nodes
 * [num_node] (owned by d). */
const int64_t *lulesh_dist_elem_gid(const lulesh_dist_t *d);
const int64_t *lulesh_dist_node_gid(const lulesh_dist_t *d);

/* Gather the element array e (owned part) of the global plane k = 0 (the
 * E x E elements of global id < E^2, in global order) into plane[E E] on
 * rank 0 (other ranks may pass NULL). Collective. */
int lulesh_dist_gather_plane0(const lulesh_dist_t *d, const double *e, double *plane);

/* Largest difference between this rank's copy of the shared nodes' n arrays
 * and the owner's copy (0 when all copies hold the same bits). Collective;
 * every rank gets the global maximum. For tests and debugging. */
int lulesh_dist_node_copy_diff(lulesh_dist_t *d, int n, double *const *arrays, double *maxdiff);

#endif /* TSR_KERNELS_LULESH_DIST_H */
