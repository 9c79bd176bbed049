/* kernels/airfoil/airfoil_cuda.cuh: what the host driver (airfoil_cuda_run.c)
 * hands to the CUDA launchers (airfoil_cuda.cu). Plain C; every pointer is
 * device memory. REAL arrays are double or float as prec says. */
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
  int nnode, ncell, nedge, nbedge;
  airfoil_prec_t prec;
  airfoil_layout_t layout; /* AoS: v[i*dim + n]; SoA: v[n*size + i]          */
  airfoil_incr_t incr;
  int block;
  airfoil_kc_d_t kd;       /* constants (the one matching prec is used)      */
  airfoil_kc_f_t kf;
  const int32_t *pcell, *pedge, *pecell, *pbedge, *pbecell, *bound; /* AoS as in the mesh */
  void *x;                 /* REAL [nnode][2] in layout                      */
  void *q, *qold, *res;    /* REAL [ncell][4] in layout                      */
  void *adt;               /* REAL [ncell]                                   */
  /* AIRFOIL_COLOUR: edges and bedges grouped by colour */
  int necol, nbcol;
  const int64_t *ecol_off, *bcol_off; /* host arrays [ncol + 1]              */
  const int32_t *ecol, *bcol;         /* device: element ids by colour       */
  /* AIRFOIL_GATHER: per-edge fluxes and the inverse maps cell -> (edge, side) */
  void *eflux, *bflux;     /* REAL [nedge][4], [nbedge][4]                   */
  const int64_t *ce_off, *cb_off;     /* device [ncell + 1]                  */
  const int32_t *ce_elem, *ce_side, *cb_elem; /* device                      */
  /* AIRFOIL_SHARED: two-level colouring plans (tessera/colour.h) of the
   * edges (res_calc) and of the bedges (bres_calc) */
  airfoil_cuda_plan_t eplan, bplan;
  double *partial;         /* [ceil(ncell / block)] block sums of del^2       */
  double *rms;             /* [niter] rms history (device)                   */
} airfoil_cuda_t;

/* Run niter iterations on the device (asynchronous on the default stream). */
int airfoil_iterate_cuda(const airfoil_cuda_t *d, int niter);
/* res_calc and bres_calc with shared-memory staging (airfoil_cuda_shared.cu). */
int airfoil_shared_cuda(const airfoil_cuda_t *d);
/* Allow the shared kernels d's dynamic shared memory (above 48 KiB). */
int airfoil_shared_setup_cuda(const airfoil_cuda_t *d);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_AIRFOIL_CUDA_CUH */
