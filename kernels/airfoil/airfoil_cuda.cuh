/* kernels/airfoil/airfoil_cuda.cuh: what the host driver (airfoil_cuda_run.c)
 * hands to the CUDA launchers (airfoil_cuda.cu, airfoil_cuda_shared.cu).
 * Plain C; every pointer is device memory unless marked host. REAL arrays
 * are double or float as prec says.
 *
 * The executed elements of a loop with indirect increments come in two
 * PARTS (OP2's owner-compute on several ranks): part 0, the core, reads
 * owned cells only and runs while the halo exchanges are in flight; part 1
 * is the rest (owned elements next to the halo and the exec halo). On one
 * rank part 1 is empty. */
#ifndef TSR_KERNELS_AIRFOIL_CUDA_CUH
#define TSR_KERNELS_AIRFOIL_CUDA_CUH

#include <stdint.h>
#include "kernels/airfoil/airfoil_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A plan on the device: position i of the loop runs block b's rows in plan
 * order (blocks: off[b] .. off[b+1]); every map is replaced by the slots of
 * its targets in the block's staged lists. */
typedef struct {
  int nblocks, ncolours;        /* blocks, block colours                      */
  const int64_t *col_off;       /* host [ncolours + 1]                        */
  const int32_t *col_blocks;    /* [nblocks] blocks by colour                 */
  const int64_t *off;           /* [nblocks + 1] positions of each block      */
  const int64_t *c_off, *n_off; /* [nblocks + 1] staged cells / nodes          */
  const int32_t *c_tgt, *n_tgt; /* staged cell / node ids per block            */
  const int32_t *c_loc, *n_loc; /* [n][cdim], [n][2] slots in plan order       */
  const int32_t *tcol, *ntcol;  /* thread colour per position, colours per block */
  const int32_t *bound;         /* bedges: bound in plan order (else NULL)    */
  size_t smem;                  /* dynamic shared memory per block (bytes)    */
} airfoil_cuda_plan_t;

typedef struct {
  int nnode, ncell;        /* local rows (halo included)                     */
  int ncell_owned;         /* cells updated here: [0, ncell_owned)           */
  int erange[3], brange[3];/* edges / bedges of part p: [r[p], r[p+1])       */
  int core_split;          /* 1: the core's edges / bedges [0, ecut) / [0,   */
  int ecut, bcut;          /* bcut) touch no exported cell (the host driver  */
                           /* ordered them; increments1's parts 2 and 3)     */
  airfoil_prec_t prec;
  airfoil_layout_t layout; /* AoS: v[i*dim + n]; SoA: v[n*size + i]          */
  airfoil_incr_t incr;
  int block;
  int fuse;                /* update also computes the next adt (and, in the
                              second stage, qold = q: save_soln); gather's sum
                              is done inside update (no res array)          */
  airfoil_kc_d_t kd;       /* constants (the one matching prec is used)      */
  airfoil_kc_f_t kf;
  const int32_t *pcell, *pedge, *pecell, *pbedge, *pbecell, *bound; /* AoS as in the mesh */
  void *x;                 /* REAL [nnode][2] in layout                      */
  void *q, *qold, *res;    /* REAL [ncell][4] in layout                      */
  void *qout;              /* where update writes q (NULL: q)                 */
  int pingpong;            /* fused cuda/atomic1, cuda/gather4: no save_soln;
                              q and qold are two buffers A, B: stage 0 reads
                              A, update writes B; stage 1 reads B, update
                              writes A from qold = A (the host driver sets
                              q, qold, qout per stage)                       */
  void *adt;               /* REAL [ncell]                                   */
  /* AIRFOIL_COLOUR: each part's edges and bedges grouped by colour */
  int necol[2], nbcol[2];
  const int64_t *ecol_off[2], *bcol_off[2]; /* host arrays [ncol + 1]        */
  const int32_t *ecol[2], *bcol[2];         /* element ids by colour         */
  /* AIRFOIL_GATHER: per-edge fluxes and the inverse maps owned cell ->
   * executed (edge, side), (bedge): ce_elem holds e (side 0) or ~e (side 1) */
  void *eflux, *bflux;     /* REAL [nedge_exec][4], [nbedge_exec][4]         */
  const int64_t *ce_off, *cb_off;     /* [ncell_owned + 1]                    */
  const int32_t *ce_elem, *cb_elem;
  /* AIRFOIL_GATHER4: one flux array, edges then bedges, plus a zero row:
   * flux [nedge_exec + nbedge_exec + 1][4] (eflux points to it), and the
   * owned cells' sides cmap [ncell_owned][ck]: row r >= 0 adds flux r,
   * ~r subtracts it (edges in element order, then bedges, then the zero
   * row as padding: the CPU reference's order of increments) */
  const int32_t *cmap;
  int ck;
  /* AIRFOIL_SHARED: two-level colouring plans (tessera/colour.h) of each
   * part's edges (res_calc) and bedges (bres_calc) */
  airfoil_cuda_plan_t eplan[2], bplan[2];
  /* rms: block sums of del^2 of the second update, the last block adds them
   * up in a fixed order into sums[*iter] (deterministic) and counts *iter
   * on (no launch argument changes from iteration to iteration, so a CUDA
   * graph of the launches replays) */
  double *partial;         /* [ceil(ncell / block)]                          */
  unsigned int *counter;   /* [2]: [0] blocks done, zero between launches;
                              [1] the iteration (*iter), zeroed by the host  */
  double *sums;            /* [niter] this rank's sum of del^2 per iteration */
  /* update by parts (airfoil_cuda_update_part): the owned cells other ranks
   * receive, ascending, and a flag per owned cell (1: in ulist) */
  int split;               /* 1: the host driver updates by parts            */
  const int32_t *ulist;    /* [nulist]                                       */
  int nulist;
  const unsigned char *uskip; /* [ncell_owned]                               */
  struct airfoil_cuda_prof *prof; /* host: per-kernel timing, or NULL (off)  */
  void *stream;            /* cudaStream_t of the launches (NULL: default)   */
  /* the L2 access-policy window of the per-stage launches (l2_bytes 0: none):
   * the array one kernel writes and the next reads (gather4's fluxes,
   * atomic1's res) kept in L2's persisting part, hit ratio l2_hit */
  void *l2_base;
  size_t l2_bytes;
  float l2_hit;
} airfoil_cuda_t;

/* Per-kernel timing (airfoil_cuda_run.c): a launcher calls begin before its
 * launches and end after them; with d->prof NULL both do nothing. end
 * records an event, waits for it and adds the time since begin's event to
 * kernel k (launches: the kernels launched in between). */
int airfoil_cuda_prof_begin(const airfoil_cuda_t *d);
int airfoil_cuda_prof_end(const airfoil_cuda_t *d, airfoil_kernel_t k, int launches);

/* The launchers; all asynchronous on d->stream (NULL: the default stream). */
/* save_soln on the owned cells: qold = q. */
int airfoil_cuda_save(const airfoil_cuda_t *d);
/* adt_calc on the owned cells. */
int airfoil_cuda_adt(const airfoil_cuda_t *d);
/* res_calc and bres_calc of part `part` (0 core, 1 rest); after part 1 the
 * unfused gather sums the fluxes into res. AIRFOIL_ATOMIC1 and
 * AIRFOIL_GATHER4: both in one launch; fused, also part 2 (the core's
 * elements that touch no exported cell: [0, ecut)) and part 3 (the rest of
 * the core), which together are part 0. */
int airfoil_cuda_incr(const airfoil_cuda_t *d, int part);
/* update of stage (0, 1) of iteration it on the owned cells (halo rows of
 * res zeroed); stage 1 stores the sum of del^2 in sums[it]. Fused (d->fuse):
 * adt_calc of the new q, and in stage 1 qold = q. */
int airfoil_cuda_update(const airfoil_cuda_t *d, int stage, int it);
/* The same in two launches, so that the halo exchange can start after the
 * first: part 1 the cells of ulist (and res zeroed on the halo rows), part 2
 * the other owned cells; the rms sum is complete after both (part 0: one
 * launch, as airfoil_cuda_update). */
int airfoil_cuda_update_part(const airfoil_cuda_t *d, int stage, int it, int part);
/* res_calc and bres_calc of one part with shared-memory staging
 * (airfoil_cuda_shared.cu). */
int airfoil_shared_cuda(const airfoil_cuda_t *d, int part);
/* Allow the shared kernels d's dynamic shared memory (above 48 KiB). */
int airfoil_shared_setup_cuda(const airfoil_cuda_t *d);

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
/* The flux kernels of airfoil.h for either precision, by overloading (used by
 * airfoil_cuda.cu and airfoil_cuda_shared.cu). */
static __device__ inline void af_res(const airfoil_kc_d_t &k, const double *x1, const double *x2,
                                     const double *q1, const double *q2, double a1, double a2,
                                     double *f) {
  airfoil_res_calc_d(k, x1, x2, q1, q2, a1, a2, f);
}
static __device__ inline void af_res(const airfoil_kc_f_t &k, const float *x1, const float *x2,
                                     const float *q1, const float *q2, float a1, float a2,
                                     float *f) {
  airfoil_res_calc_f(k, x1, x2, q1, q2, a1, a2, f);
}
static __device__ inline void af_bres(const airfoil_kc_d_t &k, const double *x1, const double *x2,
                                      const double *q1, double a1, int bound, double *f) {
  airfoil_bres_calc_d(k, x1, x2, q1, a1, bound, f);
}
static __device__ inline void af_bres(const airfoil_kc_f_t &k, const float *x1, const float *x2,
                                      const float *q1, float a1, int bound, float *f) {
  airfoil_bres_calc_f(k, x1, x2, q1, a1, bound, f);
}
#endif
#endif /* TSR_KERNELS_AIRFOIL_CUDA_CUH */
