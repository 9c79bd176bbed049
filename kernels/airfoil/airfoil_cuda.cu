/* kernels/airfoil/airfoil_cuda.cu: Airfoil's loops on the GPU, one thread
 * per element, templated on precision (R) and layout (SOA). res_calc and
 * bres_calc apply their increments in one of three ways (MODE):
 *   AIRFOIL_ATOMIC  atomicAdd into res
 *   AIRFOIL_COLOUR  one launch per colour of a global greedy colouring
 *                   (no two edges of a colour share a cell), plain +=
 *   AIRFOIL_GATHER  fluxes stored per edge, then one thread per cell sums
 *                   them through the inverse maps, edges then boundary edges
 *                   in element order (the CPU reference's order)
 * The arithmetic is kernels/airfoil/airfoil.h, shared with the CPU. */
#include "config.h"

#include "tessera/cuda.h"
#include "tessera/error.h"
#include "kernels/airfoil/airfoil_cuda.cuh"

namespace {

/* The precision's kernels, by overloading. */
__device__ inline double af_adt(const airfoil_kc_d_t &k, const double *a, const double *b,
                                const double *c, const double *d, const double *q) {
  return airfoil_adt_calc_d(k, a, b, c, d, q);
}
__device__ inline float af_adt(const airfoil_kc_f_t &k, const float *a, const float *b,
                               const float *c, const float *d, const float *q) {
  return airfoil_adt_calc_f(k, a, b, c, d, q);
}
__device__ inline void af_res(const airfoil_kc_d_t &k, const double *x1, const double *x2,
                              const double *q1, const double *q2, double a1, double a2, double *f) {
  airfoil_res_calc_d(k, x1, x2, q1, q2, a1, a2, f);
}
__device__ inline void af_res(const airfoil_kc_f_t &k, const float *x1, const float *x2,
                              const float *q1, const float *q2, float a1, float a2, float *f) {
  airfoil_res_calc_f(k, x1, x2, q1, q2, a1, a2, f);
}
__device__ inline void af_bres(const airfoil_kc_d_t &k, const double *x1, const double *x2,
                               const double *q1, double a1, int bound, double *f) {
  airfoil_bres_calc_d(k, x1, x2, q1, a1, bound, f);
}
__device__ inline void af_bres(const airfoil_kc_f_t &k, const float *x1, const float *x2,
                               const float *q1, float a1, int bound, float *f) {
  airfoil_bres_calc_f(k, x1, x2, q1, a1, bound, f);
}
__device__ inline void af_update(const double *qold, double *q, double *res, double adt, double *s) {
  airfoil_update_d(qold, q, res, adt, s);
}
__device__ inline void af_update(const float *qold, float *q, float *res, float adt, double *s) {
  airfoil_update_f(qold, q, res, adt, s);
}

/* Index of component n of element i of a dat of `size` elements of `dim`. */
template <bool SOA>
__device__ inline int64_t at(int64_t i, int n, int64_t size, int dim) {
  return SOA ? (int64_t)n * size + i : i * dim + n;
}

template <typename R, bool SOA, int DIM>
__device__ inline void load(const R *v, int64_t i, int64_t size, R *out) {
  for (int n = 0; n < DIM; n++) out[n] = v[at<SOA>(i, n, size, DIM)];
}

template <typename R, bool SOA>
__global__ void k_save(int nc, const R *__restrict__ q, R *__restrict__ qold) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nc) return;
  for (int n = 0; n < 4; n++) qold[at<SOA>(c, n, nc, 4)] = q[at<SOA>(c, n, nc, 4)];
}

template <typename R, bool SOA, typename KC>
__global__ void k_adt(KC k, int nc, int nn, const int32_t *__restrict__ pcell,
                      const R *__restrict__ x, const R *__restrict__ q, R *__restrict__ adt) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nc) return;
  R xs[4][2], qc[4];
  for (int m = 0; m < 4; m++) load<R, SOA, 2>(x, pcell[4 * c + m], nn, xs[m]);
  load<R, SOA, 4>(q, c, nc, qc);
  adt[c] = af_adt(k, xs[0], xs[1], xs[2], xs[3], qc);
}

template <typename R, bool SOA, int MODE, typename KC>
__global__ void k_res(KC k, int n, const int32_t *__restrict__ list, int nn, int nc,
                      const int32_t *__restrict__ pedge, const int32_t *__restrict__ pecell,
                      const R *__restrict__ x, const R *__restrict__ q, const R *__restrict__ adt,
                      R *res, R *__restrict__ eflux) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int e = MODE == AIRFOIL_COLOUR ? list[t] : t;
  int c0 = pecell[2 * e], c1 = pecell[2 * e + 1];
  R x1[2], x2[2], q1[4], q2[4], f[4];
  load<R, SOA, 2>(x, pedge[2 * e], nn, x1);
  load<R, SOA, 2>(x, pedge[2 * e + 1], nn, x2);
  load<R, SOA, 4>(q, c0, nc, q1);
  load<R, SOA, 4>(q, c1, nc, q2);
  af_res(k, x1, x2, q1, q2, adt[c0], adt[c1], f);
  for (int m = 0; m < 4; m++) {
    if (MODE == AIRFOIL_ATOMIC) {
      atomicAdd(&res[at<SOA>(c0, m, nc, 4)], f[m]);
      atomicAdd(&res[at<SOA>(c1, m, nc, 4)], -f[m]);
    } else if (MODE == AIRFOIL_COLOUR) {
      res[at<SOA>(c0, m, nc, 4)] += f[m];
      res[at<SOA>(c1, m, nc, 4)] -= f[m];
    } else {
      eflux[4 * (int64_t)e + m] = f[m];
    }
  }
}

template <typename R, bool SOA, int MODE, typename KC>
__global__ void k_bres(KC k, int n, const int32_t *__restrict__ list, int nn, int nc,
                       const int32_t *__restrict__ pbedge, const int32_t *__restrict__ pbecell,
                       const int32_t *__restrict__ bound, const R *__restrict__ x,
                       const R *__restrict__ q, const R *__restrict__ adt, R *res,
                       R *__restrict__ bflux) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int b = MODE == AIRFOIL_COLOUR ? list[t] : t;
  int c = pbecell[b];
  R x1[2], x2[2], q1[4], f[4];
  load<R, SOA, 2>(x, pbedge[2 * b], nn, x1);
  load<R, SOA, 2>(x, pbedge[2 * b + 1], nn, x2);
  load<R, SOA, 4>(q, c, nc, q1);
  af_bres(k, x1, x2, q1, adt[c], bound[b], f);
  for (int m = 0; m < 4; m++) {
    if (MODE == AIRFOIL_ATOMIC) atomicAdd(&res[at<SOA>(c, m, nc, 4)], f[m]);
    else if (MODE == AIRFOIL_COLOUR) res[at<SOA>(c, m, nc, 4)] += f[m];
    else bflux[4 * (int64_t)b + m] = f[m];
  }
}

template <typename R, bool SOA>
__global__ void k_gather(int nc, const int64_t *__restrict__ ce_off,
                         const int32_t *__restrict__ ce_elem, const int32_t *__restrict__ ce_side,
                         const int64_t *__restrict__ cb_off, const int32_t *__restrict__ cb_elem,
                         const R *__restrict__ eflux, const R *__restrict__ bflux, R *res) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nc) return;
  R acc[4];
  load<R, SOA, 4>(res, c, nc, acc);
  for (int64_t j = ce_off[c]; j < ce_off[c + 1]; j++) {
    const R *f = eflux + 4 * (int64_t)ce_elem[j];
    if (ce_side[j] == 0)
      for (int m = 0; m < 4; m++) acc[m] += f[m];
    else
      for (int m = 0; m < 4; m++) acc[m] -= f[m];
  }
  for (int64_t j = cb_off[c]; j < cb_off[c + 1]; j++) {
    const R *f = bflux + 4 * (int64_t)cb_elem[j];
    for (int m = 0; m < 4; m++) acc[m] += f[m];
  }
  for (int m = 0; m < 4; m++) res[at<SOA>(c, m, nc, 4)] = acc[m];
}

/* update, with the block's sum of del^2 in partial[blockIdx.x] (blockDim.x a
 * power of two <= 1024). */
template <typename R, bool SOA>
__global__ void k_update(int nc, const R *__restrict__ qold, R *__restrict__ q,
                         R *__restrict__ res, const R *__restrict__ adt, double *partial) {
  __shared__ double s[1024];
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  double sum = 0;
  if (c < nc) {
    R qo[4], qn[4], r[4];
    load<R, SOA, 4>(qold, c, nc, qo);
    load<R, SOA, 4>(res, c, nc, r);
    af_update(qo, qn, r, adt[c], &sum);
    for (int m = 0; m < 4; m++) {
      q[at<SOA>(c, m, nc, 4)] = qn[m];
      res[at<SOA>(c, m, nc, 4)] = r[m];
    }
  }
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if ((int)threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

/* rms = sqrt(sum(partial) / ncell), one block of 1024 threads. */
__global__ void k_rms(int nb, const double *__restrict__ partial, int64_t nc, double *rms) {
  __shared__ double s[1024];
  double sum = 0;
  for (int i = threadIdx.x; i < nb; i += blockDim.x) sum += partial[i];
  s[threadIdx.x] = sum;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if ((int)threadIdx.x < h) s[threadIdx.x] += s[threadIdx.x + h];
    __syncthreads();
  }
  if (threadIdx.x == 0) *rms = sqrt(s[0] / (double)nc);
}

inline int grid(int64_t n, int block) { return (int)((n + block - 1) / block); }

template <typename R, bool SOA, int MODE, typename KC>
int increments(const airfoil_cuda_t *d, KC k) {
  const int B = d->block;
  R *x = (R *)d->x, *q = (R *)d->q, *adt = (R *)d->adt, *res = (R *)d->res;
  if (MODE == AIRFOIL_COLOUR) {
    for (int c = 0; c < d->necol; c++) {
      int n = (int)(d->ecol_off[c + 1] - d->ecol_off[c]);
      if (n == 0) continue;
      k_res<R, SOA, MODE><<<grid(n, B), B>>>(k, n, d->ecol + d->ecol_off[c], d->nnode, d->ncell,
                                              d->pedge, d->pecell, x, q, adt, res, (R *)0);
    }
    for (int c = 0; c < d->nbcol; c++) {
      int n = (int)(d->bcol_off[c + 1] - d->bcol_off[c]);
      if (n == 0) continue;
      k_bres<R, SOA, MODE><<<grid(n, B), B>>>(k, n, d->bcol + d->bcol_off[c], d->nnode, d->ncell,
                                               d->pbedge, d->pbecell, d->bound, x, q, adt, res,
                                               (R *)0);
    }
    TSR_CHECK_LAUNCH("airfoil res_calc/bres_calc (colour)");
    return 0;
  }
  if (d->nedge > 0)
    k_res<R, SOA, MODE><<<grid(d->nedge, B), B>>>(k, d->nedge, (const int32_t *)0, d->nnode,
                                                   d->ncell, d->pedge, d->pecell, x, q, adt, res,
                                                   (R *)d->eflux);
  if (d->nbedge > 0)
    k_bres<R, SOA, MODE><<<grid(d->nbedge, B), B>>>(k, d->nbedge, (const int32_t *)0, d->nnode,
                                                     d->ncell, d->pbedge, d->pbecell, d->bound, x,
                                                     q, adt, res, (R *)d->bflux);
  if (MODE == AIRFOIL_GATHER)
    k_gather<R, SOA><<<grid(d->ncell, B), B>>>(d->ncell, d->ce_off, d->ce_elem, d->ce_side,
                                               d->cb_off, d->cb_elem, (const R *)d->eflux,
                                               (const R *)d->bflux, res);
  TSR_CHECK_LAUNCH("airfoil res_calc/bres_calc");
  return 0;
}

template <typename R, bool SOA, typename KC>
int iterate(const airfoil_cuda_t *d, KC k, int niter) {
  const int B = d->block, nc = d->ncell;
  R *x = (R *)d->x, *q = (R *)d->q, *qold = (R *)d->qold, *adt = (R *)d->adt, *res = (R *)d->res;
  for (int it = 0; it < niter; it++) {
    k_save<R, SOA><<<grid(nc, B), B>>>(nc, q, qold);
    for (int stage = 0; stage < 2; stage++) {
      k_adt<R, SOA><<<grid(nc, B), B>>>(k, nc, d->nnode, d->pcell, x, q, adt);
      if (d->incr == AIRFOIL_ATOMIC) TSR_CALL((increments<R, SOA, AIRFOIL_ATOMIC>(d, k)));
      else if (d->incr == AIRFOIL_COLOUR) TSR_CALL((increments<R, SOA, AIRFOIL_COLOUR>(d, k)));
      else if (d->incr == AIRFOIL_SHARED) TSR_CALL(airfoil_shared_cuda(d));
      else TSR_CALL((increments<R, SOA, AIRFOIL_GATHER>(d, k)));
      k_update<R, SOA><<<grid(nc, B), B>>>(nc, qold, q, res, adt, d->partial);
    }
    k_rms<<<1, 1024>>>(grid(nc, B), d->partial, nc, d->rms + it);
    TSR_CHECK_LAUNCH("airfoil save_soln/adt_calc/update");
  }
  return 0;
}

}  // namespace

extern "C" int airfoil_iterate_cuda(const airfoil_cuda_t *d, int niter) {
  TSR_CHECK(d->block >= 32 && d->block <= 1024 && (d->block & (d->block - 1)) == 0, TSR_ERR_ARG,
            "airfoil CUDA: block %d must be a power of two in [32, 1024]", d->block);
  const bool soa = d->layout == AIRFOIL_SOA;
  if (d->prec == AIRFOIL_DOUBLE) {
    if (soa) TSR_CALL((iterate<double, true>(d, d->kd, niter)));
    else TSR_CALL((iterate<double, false>(d, d->kd, niter)));
  } else {
    if (soa) TSR_CALL((iterate<float, true>(d, d->kf, niter)));
    else TSR_CALL((iterate<float, false>(d, d->kf, niter)));
  }
  return 0;
}
