/* kernels/airfoil/airfoil_run.h: an Airfoil problem as the kernels see it,
 * and the entry points of the CPU and CUDA variants.
 *
 * A problem points into a tsr_mesh_t (OP2's sets, maps and dats; see
 * apps/airfoil/airfoil_mesh.c for how it is checked and built) and is never
 * modified: every run copies what it needs into its own precision and
 * layout, starts from q0 and reports its rms history and final q.
 */
#ifndef TSR_KERNELS_AIRFOIL_RUN_H
#define TSR_KERNELS_AIRFOIL_RUN_H

#include <mpi.h>
#include <stdint.h>
#include "kernels/airfoil/airfoil.h"

struct tsr_halo;

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int64_t nnode, ncell, nedge, nbedge;
  const int32_t *pcell;   /* [ncell][4]  nodes of each cell                */
  const int32_t *pedge;   /* [nedge][2]  nodes of each interior edge       */
  const int32_t *pecell;  /* [nedge][2]  the two cells of each edge        */
  const int32_t *pbedge;  /* [nbedge][2] nodes of each boundary edge       */
  const int32_t *pbecell; /* [nbedge]    the cell of each boundary edge    */
  const int32_t *bound;   /* [nbedge]    1 = wall, 2 = far field           */
  const double *x;        /* [nnode][2]  node coordinates                  */
  const double *q0;       /* [ncell][4]  initial state                     */
  airfoil_consts_t c;
  /* Distribution, OP2's owner-compute (tessera/part.h): this rank updates
   * cells [0, ncell_owned) and executes edges [0, nedge_exec) and bedges
   * [0, nbedge_exec), the exec halo included, so that every owned cell gets
   * all its increments; rows [0, *_core) read owned cells only and run
   * while the halo exchange of q and adt is in flight. One whole mesh:
   * everything owned and core, no halo. */
  int64_t ncell_owned, nedge_core, nedge_exec, nbedge_core, nbedge_exec;
  int64_t ncell_global;   /* rms = sqrt(sum del^2 / ncell_global)          */
  MPI_Comm comm;          /* the rms sum is reduced over it                */
  struct tsr_halo *halo;  /* cells' halo (q and adt exchanges), or NULL    */
  /* Edge blocks of a partition-based reordering (blocks of at most the
   * CUDA block size, rows eblock_off[b] .. eblock_off[b+1]), or 0 / NULL. */
  int64_t neblock;
  const int64_t *eblock_off;
} airfoil_problem_t;

typedef enum { AIRFOIL_DOUBLE = 0, AIRFOIL_FLOAT } airfoil_prec_t;

/* Data layout of the cell and node dats on the device. */
typedef enum { AIRFOIL_AOS = 0, AIRFOIL_SOA } airfoil_layout_t;

/* How res_calc and bres_calc apply their indirect increments. */
typedef enum {
  AIRFOIL_ATOMIC = 0, /* atomicAdd into res                                 */
  AIRFOIL_COLOUR,     /* edges coloured globally; one launch per colour     */
  AIRFOIL_GATHER,     /* fluxes to a per-edge temporary, then a per-cell
                         gather through the inverse map (no atomics)       */
  AIRFOIL_SHARED      /* seed 003: cells and nodes of a block staged once in
                         shared memory (SoA), increments colour by colour
                         in shared memory (threads sorted by colour), blocks
                         coloured, written back without atomics            */
} airfoil_incr_t;

typedef struct {
  int niter;           /* iterations (OP2: 1000)                            */
  airfoil_prec_t prec;
  double *rms;         /* [niter] out: rms of every iteration               */
  double *q;           /* [ncell][4] out: final q in double, or NULL        */
  double seconds;      /* out: wall time of the iterations                  */
} airfoil_run_t;

/* rms of one iteration from the sum of del^2 of its second update. */
static inline double airfoil_rms(double sum, int64_t ncell) {
  return sqrt(sum / (double)ncell);
}

/* The plain sequential reference: OP2's loop order, AoS, plain increments. */
int airfoil_cpu_ref(const airfoil_problem_t *p, airfoil_run_t *r);

typedef struct {
  airfoil_incr_t incr;
  airfoil_layout_t layout;
  int block;           /* threads per block (e.g. 256)                      */
  int fuse;            /* 1: loops fused where they touch the same data:
                          update + the next adt_calc (+ save_soln), gather's
                          sum inside update (no res array); 0: one kernel
                          per loop, as OP2                                  */
} airfoil_cuda_opts_t;

/* A CUDA variant (TSR_ERR_NOCUDA in a build without CUDA). On a
 * partitioned mesh (p->halo) collective over p->comm: q and adt exchanged
 * on the device (tsr_halo, host-staged) while the core edges run, the rms
 * sums reduced over p->comm. */
int airfoil_cuda_run(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_run_t *r);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_AIRFOIL_RUN_H */
