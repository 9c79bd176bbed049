/* kernels/airfoil/airfoil_cuda_shared.cu: res_calc and bres_calc with Sulyok et al.'s
 * (2019) shared-memory staging and two-level colouring.
 *
 * One CUDA block runs one plan block (tessera/colour.h: at most blockDim
 * elements; spare threads idle) and only blocks of one block colour run in
 * a launch, so no two concurrent blocks write the same cell:
 *   1. the block's cells (q, adt) and nodes (x) are loaded once into shared
 *      memory, SoA (sq[n][ncl], sx[n][nnl]); AoS dats with vector loads
 *      (double2 / float4 per cell, double2 / float2 per node); the cells'
 *      increments sres[n][ncl] are zeroed;
 *   2. each thread computes its element's flux from shared memory;
 *   3. the increments go into sres colour by colour (threads sorted by
 *      colour, a barrier per colour), no atomics;
 *   4. sres is added to res in global memory, once per staged cell.
 * Each part of the executed elements (core, rest: airfoil_cuda.cuh) has its
 * own plans, so the core runs while the halo exchanges are in flight.
 * The arithmetic is kernels/airfoil/airfoil.h, shared with the CPU. */
#include "config.h"

#include "tessera/cuda.h"
#include "tessera/error.h"
#include "kernels/airfoil/airfoil_cuda.cuh"

namespace {

/* 4 components of cell c of an AoS dat with 16-byte loads/stores. */
__device__ inline void ld4(const double *v, int64_t c, double *o) {
  double2 a = reinterpret_cast<const double2 *>(v + 4 * c)[0];
  double2 b = reinterpret_cast<const double2 *>(v + 4 * c)[1];
  o[0] = a.x, o[1] = a.y, o[2] = b.x, o[3] = b.y;
}
__device__ inline void ld4(const float *v, int64_t c, float *o) {
  float4 a = reinterpret_cast<const float4 *>(v + 4 * c)[0];
  o[0] = a.x, o[1] = a.y, o[2] = a.z, o[3] = a.w;
}
__device__ inline void st4(double *v, int64_t c, const double *o) {
  reinterpret_cast<double2 *>(v + 4 * c)[0] = make_double2(o[0], o[1]);
  reinterpret_cast<double2 *>(v + 4 * c)[1] = make_double2(o[2], o[3]);
}
__device__ inline void st4(float *v, int64_t c, const float *o) {
  reinterpret_cast<float4 *>(v + 4 * c)[0] = make_float4(o[0], o[1], o[2], o[3]);
}
__device__ inline void ld2(const double *v, int64_t i, double *o) {
  double2 a = reinterpret_cast<const double2 *>(v)[i];
  o[0] = a.x, o[1] = a.y;
}
__device__ inline void ld2(const float *v, int64_t i, float *o) {
  float2 a = reinterpret_cast<const float2 *>(v)[i];
  o[0] = a.x, o[1] = a.y;
}

/* BND: bres_calc (one cell per element, bound) else res_calc (two cells). */
template <typename R, bool SOA, bool BND, typename KC>
__global__ void k_staged(KC k, airfoil_cuda_plan_t pl, const int32_t *__restrict__ blocks, int nn,
                         int nc, const R *__restrict__ x, const R *__restrict__ q,
                         const R *__restrict__ adt, R *__restrict__ res) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  R *sm = reinterpret_cast<R *>(smem_raw);
  const int b = blocks[blockIdx.x], t = threadIdx.x, B = blockDim.x;
  const int64_t c0 = pl.c_off[b], n0 = pl.n_off[b];
  const int ncl = (int)(pl.c_off[b + 1] - c0), nnl = (int)(pl.n_off[b + 1] - n0);
  R *sq = sm, *sadt = sq + 4 * ncl, *sres = sadt + ncl, *sx = sres + 4 * ncl;
  /* 1. stage */
  for (int j = t; j < ncl; j += B) {
    int64_t c = pl.c_tgt[c0 + j];
    R v[4];
    if (SOA)
      for (int n = 0; n < 4; n++) v[n] = q[(int64_t)n * nc + c];
    else
      ld4(q, c, v);
    for (int n = 0; n < 4; n++) sq[n * ncl + j] = v[n], sres[n * ncl + j] = 0;
    sadt[j] = adt[c];
  }
  for (int j = t; j < nnl; j += B) {
    int64_t v = pl.n_tgt[n0 + j];
    R p[2];
    if (SOA) p[0] = x[v], p[1] = x[(int64_t)nn + v];
    else ld2(x, v, p);
    sx[j] = p[0], sx[nnl + j] = p[1];
  }
  __syncthreads();
  /* 2. compute from shared memory */
  const int64_t pos = pl.off[b] + t;
  const bool active = pos < pl.off[b + 1];
  R f[4];
  int l0 = 0, l1 = 0, col = -1;
  if (active) {
    const int CD = BND ? 1 : 2;
    l0 = pl.c_loc[CD * pos];
    l1 = BND ? 0 : pl.c_loc[CD * pos + 1];
    int m0 = pl.n_loc[2 * pos], m1 = pl.n_loc[2 * pos + 1];
    R x1[2] = {sx[m0], sx[nnl + m0]}, x2[2] = {sx[m1], sx[nnl + m1]};
    R q1[4], q2[4];
    for (int n = 0; n < 4; n++) q1[n] = sq[n * ncl + l0];
    if (BND) {
      af_bres(k, x1, x2, q1, sadt[l0], pl.bound[pos], f);
    } else {
      for (int n = 0; n < 4; n++) q2[n] = sq[n * ncl + l1];
      af_res(k, x1, x2, q1, q2, sadt[l0], sadt[l1], f);
    }
    col = pl.tcol[pos];
  }
  /* 3. increments colour by colour */
  const int ncol = pl.ntcol[b];
  for (int c = 0; c < ncol; c++) {
    if (col == c) {
      for (int n = 0; n < 4; n++) sres[n * ncl + l0] += f[n];
      if (!BND)
        for (int n = 0; n < 4; n++) sres[n * ncl + l1] -= f[n];
    }
    __syncthreads();
  }
  if (ncol == 0) __syncthreads();
  /* 4. write back: this block colour owns these cells */
  for (int j = t; j < ncl; j += B) {
    int64_t c = pl.c_tgt[c0 + j];
    if (SOA) {
      for (int n = 0; n < 4; n++) res[(int64_t)n * nc + c] += sres[n * ncl + j];
    } else {
      R v[4];
      ld4(res, c, v);
      for (int n = 0; n < 4; n++) v[n] += sres[n * ncl + j];
      st4(res, c, v);
    }
  }
}

template <typename R, bool SOA, bool BND, typename KC>
int launch(const airfoil_cuda_t *d, const airfoil_cuda_plan_t &pl, KC k) {
  int launched = 0;
  TSR_CALL(airfoil_cuda_prof_begin(d));
  for (int c = 0; c < pl.ncolours; c++) {
    int n = (int)(pl.col_off[c + 1] - pl.col_off[c]);
    if (n == 0) continue;
    k_staged<R, SOA, BND><<<n, d->block, pl.smem, (cudaStream_t)d->stream>>>(k, pl, pl.col_blocks + pl.col_off[c], d->nnode,
                                                     d->ncell, (const R *)d->x, (const R *)d->q,
                                                     (const R *)d->adt, (R *)d->res);
    launched++;
  }
  TSR_CHECK_LAUNCH(BND ? "airfoil bres_calc (shared)" : "airfoil res_calc (shared)");
  TSR_CALL(airfoil_cuda_prof_end(d, BND ? AIRFOIL_K_BRES : AIRFOIL_K_RES, launched));
  return 0;
}

template <typename R, bool SOA, typename KC>
int run(const airfoil_cuda_t *d, KC k, int part) {
  if (d->eplan[part].nblocks > 0) TSR_CALL((launch<R, SOA, false>(d, d->eplan[part], k)));
  if (d->bplan[part].nblocks > 0) TSR_CALL((launch<R, SOA, true>(d, d->bplan[part], k)));
  return 0;
}

/* Most dynamic shared memory of d's plans. */
size_t most_smem(const airfoil_cuda_t *d) {
  size_t most = 0;
  for (int p = 0; p < 2; p++) {
    if (d->eplan[p].smem > most) most = d->eplan[p].smem;
    if (d->bplan[p].smem > most) most = d->bplan[p].smem;
  }
  return most;
}

template <typename R, bool SOA, typename KC>
int allow(const airfoil_cuda_t *d) {
  size_t most = most_smem(d);
  if (most <= 48 * 1024) return 0;
  TSR_CALL_CUDA(cudaFuncSetAttribute(k_staged<R, SOA, false, KC>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most));
  TSR_CALL_CUDA(cudaFuncSetAttribute(k_staged<R, SOA, true, KC>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most));
  return 0;
}

}  // namespace

extern "C" int airfoil_shared_cuda(const airfoil_cuda_t *d, int part) {
  TSR_CHECK(part == 0 || part == 1, TSR_ERR_ARG, "airfoil cuda/shared: part %d, expected 0 or 1", part);
  const bool soa = d->layout == AIRFOIL_SOA;
  if (d->prec == AIRFOIL_DOUBLE) {
    if (soa) TSR_CALL((run<double, true>(d, d->kd, part)));
    else TSR_CALL((run<double, false>(d, d->kd, part)));
  } else {
    if (soa) TSR_CALL((run<float, true>(d, d->kf, part)));
    else TSR_CALL((run<float, false>(d, d->kf, part)));
  }
  return 0;
}

extern "C" int airfoil_shared_setup_cuda(const airfoil_cuda_t *d) {
  int dev = 0, optin = 0;
  TSR_CALL_CUDA(cudaGetDevice(&dev));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  size_t most = most_smem(d);
  TSR_CHECK(most <= (size_t)optin, TSR_ERR_UNSUPPORTED,
            "airfoil cuda/shared: a block stages %zu bytes, the GPU allows %d per block; use a "
            "smaller --block or --reorder partition (more reuse)", most, optin);
  const bool soa = d->layout == AIRFOIL_SOA;
  if (d->prec == AIRFOIL_DOUBLE) {
    if (soa) TSR_CALL((allow<double, true, airfoil_kc_d_t>(d)));
    else TSR_CALL((allow<double, false, airfoil_kc_d_t>(d)));
  } else {
    if (soa) TSR_CALL((allow<float, true, airfoil_kc_f_t>(d)));
    else TSR_CALL((allow<float, false, airfoil_kc_f_t>(d)));
  }
  return 0;
}
