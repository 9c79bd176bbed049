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
  double *partial;         /* [ceil(ncell / block)] block sums of del^2       */
  double *rms;             /* [niter] rms history (device)                   */
} airfoil_cuda_t;

/* Run niter iterations on the device (asynchronous on the default stream). */
int airfoil_iterate_cuda(const airfoil_cuda_t *d, int niter);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_AIRFOIL_CUDA_CUH */
