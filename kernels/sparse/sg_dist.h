/* kernels/sparse/sg_dist.h: hierarchization of a sparse grid whose
 * coefficients are distributed over the ranks (grids too large for one
 * device).
 *
 * Sweep t updates every pole in dimension t, the blocks that differ only in
 * l_t, independently of all other poles. If the owner of a block depends
 * only on the components of its level vector in a set K of dimensions,
 * every pole of every sweep t outside K lies on one rank. The plan uses two
 * phases and three layouts of the local array:
 *   rows     contiguous block ranges balanced by points (fastsg_block_range):
 *            the global order, split by rank (HDF5 I/O, checksums);
 *   phase A  sweeps t = 0 .. h-1 (h = D/2); owner = f_A(l_h, .., l_{D-1});
 *   phase B  sweeps t = h .. D-1;           owner = f_B(l_0, .., l_{h-1}).
 * f_A and f_B assign the classes of equal key (every key sub-vector with
 * |key| <= n-1) to ranks by longest-processing-time first, weighted by the
 * class's points, so every rank holds about N/P values in each phase.
 * Hierarchization is rows -> A, h sweeps, A -> B, D-h sweeps, B -> rows:
 * one exchange between the sweeps (two more to and from the global order),
 * each moving about N (1 - 1/P) values in all. Inside a layout, a rank's
 * blocks are stored whole, in global order. The sweeps run in the same
 * order with the same arithmetic on the same values as on one rank
 * (FASTSG_HIER, parents from the same pole), so the result is bit for bit
 * that of one rank.
 *
 * Exchanges are host-staged: pack whole blocks (merged into runs) by
 * destination, non-blocking point-to-point messages of at most 2^30 bytes,
 * unpack into the target layout (no MPI count or displacement reaches
 * 2^31). */
#ifndef FASTSG_SG_DIST_H
#define FASTSG_SG_DIST_H

#include <mpi.h>
#include "kernels/sparse/sg_kernels.h"
#include "tessera/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One pole of a sweep: blocks l_t = 0..top at local starts pb[first + k];
 * s = |l| - l_t (block k has 2^(s+k) points), low = sum_{u>t} l_u. */
typedef struct {
  int64_t first;
  int32_t s, top, low, pad;
} fastsg_pole_t;

/* One sweep's poles on this rank (only poles with top >= 1). */
typedef struct {
  int64_t npoles, npb;
  fastsg_pole_t *poles; /* [npoles] */
  int64_t *pb;          /* [npb] local block starts, pole by pole */
} fastsg_sweep_t;

/* A change of layout: runs {local offset, buffer offset, length} in
 * elements, counts and displacements per rank in elements. */
typedef struct {
  int64_t *scount, *sdispl, *rcount, *rdispl; /* [P], displ [P+1] */
  int64_t nsrun, nrrun;
  int64_t *srun, *rrun;                       /* [n][3] */
} fastsg_xfer_t;

enum { FASTSG_L_ROWS = 0, FASTSG_L_A = 1, FASTSG_L_B = 2 };
enum { FASTSG_X_ROWS_A = 0, FASTSG_X_A_B = 1, FASTSG_X_B_ROWS = 2 };

typedef struct {
  fastsg_grid_t grid;
  int rank, size;
  int split;                    /* h: phase A sweeps t < h, phase B t >= h */
  int64_t nlocal[3];            /* elements held in each layout */
  int64_t nblk[3];              /* blocks held in each layout */
  int64_t cap;                  /* max nlocal: the local array's length */
  int64_t row_b0, row_b1;       /* rows layout: global blocks [b0, b1) */
  int64_t row_p0, row_p1;       /* ... = positions [p0, p1) */
  fastsg_xfer_t xf[3];          /* rows->A, A->B, B->rows */
  int32_t *own[3];              /* [nblocks] owner of each block in each layout */
  fastsg_sweep_t sw[FASTSG_MAX_DIM];
} fastsg_dist_t;

/* Host staging for exchanges: send and receive buffers, and for device
 * arrays a host copy of the local array. */
typedef struct {
  size_t es;
  void *hx, *sbuf, *rbuf;
} fastsg_dist_buf_t;

/* The device copies of the pole tables (CUDA; NULL entries on the CPU). */
typedef struct {
  fastsg_pole_t *poles[FASTSG_MAX_DIM];
  int64_t *pb[FASTSG_MAX_DIM];
} fastsg_dist_dev_t;

/* Arguments of one distributed sweep kernel. */
typedef struct {
  const fastsg_grid_t *grid;
  tsr_dtype_t prec;
  void *a;                     /* local array (host or device) */
  int64_t npoles;
  const fastsg_pole_t *poles;  /* [npoles] (host or device) */
  const int64_t *pb;
  int dehier;                  /* 0: hierarchize (k from top down), 1: inverse (k up) */
} fastsg_dist_args_t;

/* sg_dist.c: the plan of rank `rank` of `size` (pure computation, the same
 * on every rank). */
int fastsg_dist_create(const fastsg_grid_t *G, int rank, int size, fastsg_dist_t **out);
void fastsg_dist_destroy(fastsg_dist_t **d);
/* Owner of global block b in layout lay (FASTSG_L_*). */
int fastsg_dist_owner(const fastsg_dist_t *d, int lay, int64_t b);

/* The sweep kernels: every pole of args->poles, CPU (OpenMP, a task per
 * pole) and CUDA (a warp per pole). */
int fastsg_dist_sweep_cpu(const fastsg_dist_args_t *args);
int fastsg_dist_sweep_cuda(const fastsg_dist_args_t *args);
/* Free and total memory of the current CUDA device (0, 0 without CUDA). */
int fastsg_dist_cuda_meminfo(size_t *free_bytes, size_t *total_bytes);

/* sg_dist_run.c: staging buffers for element size es (dev: copies for a
 * device array), device pole tables, exchanges and whole transforms. */
int fastsg_dist_buf_init(const fastsg_dist_t *d, const tsr_device_t *dev, size_t es,
                         fastsg_dist_buf_t *buf);
void fastsg_dist_buf_free(fastsg_dist_buf_t *buf);
int fastsg_dist_dev_init(const fastsg_dist_t *d, const tsr_device_t *dev, fastsg_dist_dev_t *dt);
void fastsg_dist_dev_free(const fastsg_dist_t *d, const tsr_device_t *dev, fastsg_dist_dev_t *dt);
/* Change the layout of the local array a (cap elements on dev) by
 * transfer xf (FASTSG_X_*): collective over comm. */
int fastsg_dist_exchange(const fastsg_dist_t *d, int xf, MPI_Comm comm, const tsr_device_t *dev,
                         void *a, fastsg_dist_buf_t *buf);
/* The sweeps of phase 0 (A) or 1 (B) on the local array a, which must be
 * in that phase's layout. */
int fastsg_dist_sweeps(const fastsg_dist_t *d, int phase, const tsr_device_t *dev,
                       const fastsg_dist_dev_t *dt, tsr_dtype_t prec, void *a, int dehier);
/* Whole (de)hierarchization: a in the rows layout on entry and on exit. */
int fastsg_dist_transform(const fastsg_dist_t *d, MPI_Comm comm, const tsr_device_t *dev,
                          const fastsg_dist_dev_t *dt, tsr_dtype_t prec, void *a,
                          fastsg_dist_buf_t *buf, int dehier);

#ifdef __cplusplus
}
#endif
#endif /* FASTSG_SG_DIST_H */
