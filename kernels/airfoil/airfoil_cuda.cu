/* kernels/airfoil/airfoil_cuda.cu: Airfoil's loops on the GPU, one thread
 * per element, templated on precision (R) and layout (SOA). res_calc and
 * bres_calc apply their increments in one of three ways (MODE):
 *   AIRFOIL_ATOMIC  atomicAdd into res
 *   AIRFOIL_COLOUR  one launch per colour of a global greedy colouring
 *                   (no two edges of a colour share a cell), plain +=
 *   AIRFOIL_GATHER  fluxes stored per edge, then one thread per cell sums
 *                   them through the inverse maps, edges then boundary edges
 *                   in element order (the CPU reference's order); fused, the
 *                   sum is done by update itself and res is never stored
 *   AIRFOIL_ATOMIC1 atomicAdd, edges and bedges in one launch, vector loads
 *   AIRFOIL_GATHER4 edges and bedges in one launch into one flux array,
 *                   summed by update through a fixed-arity signed map
 *                   (4 sides per cell: one int4 load, no offsets)
 * (AIRFOIL_SHARED: airfoil_cuda_shared.cu). Every launcher brackets its
 * launches with airfoil_cuda_prof_begin/end (no-ops unless profiling). Each launcher runs one loop (one
 * part of the executed elements) so that the host driver can put the halo
 * exchanges between them. The arithmetic is kernels/airfoil/airfoil.h,
 * shared with the CPU. */
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
template <typename R, bool SOA, int DIM>
__device__ inline void store(R *v, int64_t i, int64_t size, const R *in) {
  for (int n = 0; n < DIM; n++) v[at<SOA>(i, n, size, DIM)] = in[n];
}

/* Vector loads / stores where the components are contiguous (AoS: 16-byte
 * double2 / float4, 8-byte float2 for x in float); SoA: one load per plane.
 * Every dat is cudaMalloc'd (256-byte aligned) with rows of 2 or 4 reals. */
__device__ inline void vld4(const double *v, int64_t i, double *o) {
  const double2 *p = reinterpret_cast<const double2 *>(v + 4 * i);
  double2 a = __ldg(p), b = __ldg(p + 1);
  o[0] = a.x, o[1] = a.y, o[2] = b.x, o[3] = b.y;
}
__device__ inline void vld4(const float *v, int64_t i, float *o) {
  float4 a = __ldg(reinterpret_cast<const float4 *>(v + 4 * i));
  o[0] = a.x, o[1] = a.y, o[2] = a.z, o[3] = a.w;
}
__device__ inline void vst4(double *v, int64_t i, const double *o) {
  double2 *p = reinterpret_cast<double2 *>(v + 4 * i);
  p[0] = make_double2(o[0], o[1]);
  p[1] = make_double2(o[2], o[3]);
}
__device__ inline void vst4(float *v, int64_t i, const float *o) {
  reinterpret_cast<float4 *>(v + 4 * i)[0] = make_float4(o[0], o[1], o[2], o[3]);
}
__device__ inline void vld2(const double *v, int64_t i, double *o) {
  double2 a = __ldg(reinterpret_cast<const double2 *>(v) + i);
  o[0] = a.x, o[1] = a.y;
}
__device__ inline void vld2(const float *v, int64_t i, float *o) {
  float2 a = __ldg(reinterpret_cast<const float2 *>(v) + i);
  o[0] = a.x, o[1] = a.y;
}
template <typename R, bool SOA, int DIM>
__device__ inline void vload(const R *__restrict__ v, int64_t i, int64_t size, R *out) {
  if (SOA) {
    for (int n = 0; n < DIM; n++) out[n] = __ldg(v + (int64_t)n * size + i);
  } else if (DIM == 4) {
    vld4(v, i, out);
  } else {
    vld2(v, i, out);
  }
}
__device__ inline int2 ld_pair(const int32_t *__restrict__ map, int64_t i) {
  return __ldg(reinterpret_cast<const int2 *>(map) + i);
}

/* adt_calc of cell c from its state qc. */
template <typename R, bool SOA, typename KC>
__device__ inline R cell_adt(const KC &k, int64_t c, int nn, const int32_t *__restrict__ pcell,
                             const R *__restrict__ x, const R *qc) {
  R xs[4][2];
  for (int m = 0; m < 4; m++) load<R, SOA, 2>(x, pcell[4 * c + m], nn, xs[m]);
  return af_adt(k, xs[0], xs[1], xs[2], xs[3], qc);
}

/* The same with pcell as one int4 and the nodes through vload (read-only
 * path: x and pcell are never written). */
template <typename R, bool SOA, typename KC>
__device__ inline R cell_adt_v(const KC &k, int64_t c, int nn, const int32_t *__restrict__ pcell,
                               const R *__restrict__ x, const R *qc) {
  const int4 cn = __ldg(reinterpret_cast<const int4 *>(pcell) + c);
  R xs[4][2];
  vload<R, SOA, 2>(x, cn.x, nn, xs[0]);
  vload<R, SOA, 2>(x, cn.y, nn, xs[1]);
  vload<R, SOA, 2>(x, cn.z, nn, xs[2]);
  vload<R, SOA, 2>(x, cn.w, nn, xs[3]);
  return af_adt(k, xs[0], xs[1], xs[2], xs[3], qc);
}

/* nco: cells to run (the owned ones), nc: the rows of the dats (SoA stride). */
template <typename R, bool SOA>
__global__ void k_save(int nco, int nc, const R *__restrict__ q, R *__restrict__ qold) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nco) return;
  for (int n = 0; n < 4; n++) qold[at<SOA>(c, n, nc, 4)] = q[at<SOA>(c, n, nc, 4)];
}

template <typename R, bool SOA, typename KC>
__global__ void k_adt(KC k, int nco, int nc, int nn, const int32_t *__restrict__ pcell,
                      const R *__restrict__ x, const R *__restrict__ q, R *__restrict__ adt) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nco) return;
  R qc[4];
  load<R, SOA, 4>(q, c, nc, qc);
  adt[c] = cell_adt<R, SOA>(k, c, nn, pcell, x, qc);
}

/* Elements first + t (or list[t]) for t < n. */
template <typename R, bool SOA, int MODE, typename KC>
__global__ void k_res(KC k, int n, int first, const int32_t *__restrict__ list, int nn, int nc,
                      const int32_t *__restrict__ pedge, const int32_t *__restrict__ pecell,
                      const R *__restrict__ x, const R *__restrict__ q, const R *__restrict__ adt,
                      R *res, R *__restrict__ eflux) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int e = MODE == AIRFOIL_COLOUR ? list[t] : first + t;
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
__global__ void k_bres(KC k, int n, int first, const int32_t *__restrict__ list, int nn, int nc,
                       const int32_t *__restrict__ pbedge, const int32_t *__restrict__ pbecell,
                       const int32_t *__restrict__ bound, const R *__restrict__ x,
                       const R *__restrict__ q, const R *__restrict__ adt, R *res,
                       R *__restrict__ bflux) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int b = MODE == AIRFOIL_COLOUR ? list[t] : first + t;
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

/* Where update finds the increments (k_update's GM). */
enum { GM_RES = 0, GM_CSR, GM_FIXED4, GM_FIXED };

/* acc += the fluxes of cell c's executed edges (e: +f, ~e: -f), then of its
 * boundary edges, in element order. */
template <typename R>
__device__ inline void gather(int64_t c, const int64_t *__restrict__ ce_off,
                              const int32_t *__restrict__ ce_elem,
                              const int64_t *__restrict__ cb_off,
                              const int32_t *__restrict__ cb_elem, const R *__restrict__ eflux,
                              const R *__restrict__ bflux, R *acc) {
  for (int64_t j = ce_off[c]; j < ce_off[c + 1]; j++) {
    int32_t e = ce_elem[j];
    if (e >= 0) {
      const R *f = eflux + 4 * (int64_t)e;
      for (int m = 0; m < 4; m++) acc[m] += f[m];
    } else {
      const R *f = eflux + 4 * (int64_t)~e;
      for (int m = 0; m < 4; m++) acc[m] -= f[m];
    }
  }
  for (int64_t j = cb_off[c]; j < cb_off[c + 1]; j++) {
    const R *f = bflux + 4 * (int64_t)cb_elem[j];
    for (int m = 0; m < 4; m++) acc[m] += f[m];
  }
}

template <typename R, bool SOA>
__global__ void k_gather(int nco, int nc, const int64_t *__restrict__ ce_off,
                         const int32_t *__restrict__ ce_elem, const int64_t *__restrict__ cb_off,
                         const int32_t *__restrict__ cb_elem, const R *__restrict__ eflux,
                         const R *__restrict__ bflux, R *res) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nco) return;
  R acc[4];
  load<R, SOA, 4>(res, c, nc, acc);
  gather<R>(c, ce_off, ce_elem, cb_off, cb_elem, eflux, bflux, acc);
  store<R, SOA, 4>(res, c, nc, acc);
}

/* acc += the fluxes of cell c's sides through the fixed map (cuda/gather4):
 * row r >= 0 adds flux r, ~r subtracts it; K = 4: one int4 load of the map
 * and all four flux rows loaded before the sums (else ck sides, a loop). */
template <typename R, int K>
__device__ inline void gather_fixed(int64_t c, int ck, const int32_t *__restrict__ cmap,
                                    const R *__restrict__ flux, R *acc) {
  if (K == 4) {
    const int4 m = __ldg(reinterpret_cast<const int4 *>(cmap) + c);
    const int s[4] = {m.x, m.y, m.z, m.w};
    R f[4][4];
    for (int j = 0; j < 4; j++) vld4(flux, s[j] >= 0 ? s[j] : ~s[j], f[j]);
    for (int j = 0; j < 4; j++)
      for (int n = 0; n < 4; n++) acc[n] = s[j] >= 0 ? acc[n] + f[j][n] : acc[n] - f[j][n];
  } else {
    for (int j = 0; j < ck; j++) {
      const int s = __ldg(cmap + c * ck + j);
      R f[4];
      vld4(flux, s >= 0 ? s : ~s, f);
      for (int n = 0; n < 4; n++) acc[n] = s >= 0 ? acc[n] + f[n] : acc[n] - f[n];
    }
  }
}

/* Unfused cuda/gather4: res += the gathered fluxes of each owned cell. */
template <typename R, bool SOA, int K>
__global__ void k_gather4(int nco, int nc, const int32_t *__restrict__ cmap, int ck,
                          const R *__restrict__ flux, R *__restrict__ res) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= nco) return;
  R acc[4];
  load<R, SOA, 4>(res, c, nc, acc);
  gather_fixed<R, K>(c, ck, cmap, flux, acc);
  store<R, SOA, 4>(res, c, nc, acc);
}

#ifndef AF_PDL
#define AF_PDL 1
#endif
/* Programmatic dependent launch (Hopper and later): the per-stage kernels
   (k_resb, k_update) are launched with programmatic stream serialisation,
   so that the next kernel's blocks are launched as this one's last blocks
   run; each waits for the kernel before it to finish (and its memory to be
   visible) before it reads anything, then lets the next one launch. Where
   the launch carries no such attribute, the wait returns at once. */
__device__ __forceinline__ void af_pdl_wait() {
#if AF_PDL && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
  cudaTriggerProgrammaticLaunchCompletion();
#endif
}

/* Whether kern may go by programmatic dependent launch on the current
   device: compute capability 9.0 or later, and kern built from PTX of 9.0 or
   later (so that it holds the wait; a build for an older architecture that
   the driver compiles for this one does not). Asked once per kernel and
   device; the launches come from one host thread. */
static bool af_pdl_ok(const void *kern) {
  static struct { const void *kern; int dev; bool ok; } seen[64];
  static int nseen;
  int dev = 0;
  if (!AF_PDL || cudaGetDevice(&dev) != cudaSuccess) return false;
  for (int i = 0; i < nseen; i++)
    if (seen[i].kern == kern && seen[i].dev == dev) return seen[i].ok;
  int major = 0;
  cudaFuncAttributes fa;
  const bool ok = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
                  major >= 9 && cudaFuncGetAttributes(&fa, kern) == cudaSuccess && fa.ptxVersion >= 90;
  if (nseen < 64) seen[nseen].kern = kern, seen[nseen].dev = dev, seen[nseen++].ok = ok;
  return ok;
}

/* kern<<<g, b, 0, s>>>(args...), with programmatic stream serialisation
   where it serves (af_pdl_ok). */
template <typename... KArgs, typename... Args>
static cudaError_t af_launch(const airfoil_cuda_t *d, void (*kern)(KArgs...), int g, int b,
                             cudaStream_t s, Args... args) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute at[2];
  unsigned n = 0;
  cfg.gridDim = dim3((unsigned)g), cfg.blockDim = dim3((unsigned)b), cfg.stream = s;
  if (af_pdl_ok((const void *)kern)) {
    at[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[n++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (d->l2_bytes > 0) {
    at[n].id = cudaLaunchAttributeAccessPolicyWindow;
    at[n].val.accessPolicyWindow.base_ptr = d->l2_base;
    at[n].val.accessPolicyWindow.num_bytes = d->l2_bytes;
    at[n].val.accessPolicyWindow.hitRatio = d->l2_hit;
    at[n].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    at[n++].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  }
  cfg.attrs = at, cfg.numAttrs = n;
  return cudaLaunchKernelEx(&cfg, kern, static_cast<KArgs>(args)...);
}

/* cuda/atomic1, cuda/gather4: res_calc of edges e0 + t (t < ne), then
 * bres_calc of bedges b0 + t - ne (t < ne + nb), in one launch; atomicAdd
 * into res, or the flux stored in row e, nex + b of flux (one array). Pairs
 * of map entries as one 8-byte load; AoS dats with vector loads. */
template <typename R, bool SOA, int MODE, typename KC>
__global__ void k_resb(KC k, int ne, int e0, int nb, int b0, int nex, int nn, int nc,
                       const int32_t *__restrict__ pedge, const int32_t *__restrict__ pecell,
                       const int32_t *__restrict__ pbedge, const int32_t *__restrict__ pbecell,
                       const int32_t *__restrict__ bound, const R *__restrict__ x,
                       const R *__restrict__ q, const R *__restrict__ adt, R *res,
                       R *__restrict__ flux) {
  af_pdl_wait();
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  R x1[2], x2[2], q1[4], f[4];
  if (t < ne) {
    const int e = e0 + t;
    const int2 en = ld_pair(pedge, e), ec = ld_pair(pecell, e);
    R q2[4];
    vload<R, SOA, 2>(x, en.x, nn, x1);
    vload<R, SOA, 2>(x, en.y, nn, x2);
    vload<R, SOA, 4>(q, ec.x, nc, q1);
    vload<R, SOA, 4>(q, ec.y, nc, q2);
    af_res(k, x1, x2, q1, q2, __ldg(adt + ec.x), __ldg(adt + ec.y), f);
    if (MODE == AIRFOIL_ATOMIC1) {
      for (int m = 0; m < 4; m++) {
        atomicAdd(&res[at<SOA>(ec.x, m, nc, 4)], f[m]);
        atomicAdd(&res[at<SOA>(ec.y, m, nc, 4)], -f[m]);
      }
    } else {
      vst4(flux, e, f);
    }
  } else if (t < ne + nb) {
    const int b = b0 + t - ne;
    const int2 bn = ld_pair(pbedge, b);
    const int c = __ldg(pbecell + b);
    vload<R, SOA, 2>(x, bn.x, nn, x1);
    vload<R, SOA, 2>(x, bn.y, nn, x2);
    vload<R, SOA, 4>(q, c, nc, q1);
    af_bres(k, x1, x2, q1, __ldg(adt + c), __ldg(bound + b), f);
    if (MODE == AIRFOIL_ATOMIC1) {
      for (int m = 0; m < 4; m++) atomicAdd(&res[at<SOA>(c, m, nc, 4)], f[m]);
    } else {
      vst4(flux, (int64_t)nex + b, f);
    }
  }
}

/* update on cells [0, nco), res zeroed on the halo rows [nco, nc) (the exec
 * halo's increments: not ours). GM: where the increments come from: res
 * (GM_RES), or summed here from the fluxes (res neither read nor written)
 * through the CSR inverse maps (GM_CSR, cuda/gather) or the fixed map
 * (GM_FIXED4: 4 sides, GM_FIXED: ck sides; cuda/gather4). VEC (cuda/atomic1,
 * cuda/gather4): pcell as one int4, x through the read-only path, AoS q
 * and qold stored with 16-byte stores. fuse: adt of the new q
 * too, and with last also qold = q (the next iteration's save_soln). rms:
 * the block sums of del^2 into partial, the last block to finish adds them
 * in block order into sums[counter[1]] and counts counter[1] on
 * (deterministic). blockDim.x a power of two.
 * qold and q may be the same array (ping-pong, stage 1): each thread reads
 * its cell's qold before it writes its q. */
template <typename R, bool SOA, int GM, bool VEC, typename KC>
__global__ void k_update(KC k, int nco, int nc, int nn, const int32_t *__restrict__ pcell,
                         const R *__restrict__ x, R *qold, R *q, R *__restrict__ res,
                         R *__restrict__ adt, const int64_t *__restrict__ ce_off,
                         const int32_t *__restrict__ ce_elem, const int64_t *__restrict__ cb_off,
                         const int32_t *__restrict__ cb_elem, const R *__restrict__ eflux,
                         const R *__restrict__ bflux, const int32_t *__restrict__ cmap, int ck,
                         int fuse, int last, int rms, double *partial, unsigned int *counter,
                         double *sums, const int32_t *__restrict__ list, int nlist,
                         const unsigned char *__restrict__ skip, int pbase, int ntotal) {
  af_pdl_wait();
  constexpr bool FUSED_GATHER = GM != GM_RES;
  __shared__ double s[1024];
  __shared__ bool final_block;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  /* thread i's row: the i-th of list, then the halo rows; else row i (its
     cell skipped where skip says another launch updates it) */
  const int c = !list ? i : i < nlist ? __ldg(list + i) : nco + (i - nlist);
  double del2 = 0;
  if (c < nco && !(skip && !list && __ldg(skip + c))) {
    R qo[4], qn[4], r[4] = {0, 0, 0, 0};
    load<R, SOA, 4>(qold, c, nc, qo);
    if (GM == GM_CSR) gather<R>(c, ce_off, ce_elem, cb_off, cb_elem, eflux, bflux, r);
    else if (GM == GM_FIXED4) gather_fixed<R, 4>(c, 4, cmap, eflux, r);
    else if (GM == GM_FIXED) gather_fixed<R, 0>(c, ck, cmap, eflux, r);
    else load<R, SOA, 4>(res, c, nc, r);
    af_update(qo, qn, r, adt[c], &del2);
    if (VEC && !SOA) vst4(q, c, qn);
    else store<R, SOA, 4>(q, c, nc, qn);
    if (!FUSED_GATHER) {
      if (VEC && !SOA) vst4(res, c, r);
      else store<R, SOA, 4>(res, c, nc, r);
    }
    if (fuse) {
      adt[c] = VEC ? cell_adt_v<R, SOA>(k, c, nn, pcell, x, qn) : cell_adt<R, SOA>(k, c, nn, pcell, x, qn);
      if (last) {
        if (VEC && !SOA) vst4(qold, c, qn);
        else store<R, SOA, 4>(qold, c, nc, qn);
      }
    }
  } else if (!FUSED_GATHER && c >= nco && c < nc) {
    for (int m = 0; m < 4; m++) res[at<SOA>(c, m, nc, 4)] = 0;
  }
  if (!rms) return;
  const int t = threadIdx.x;
  s[t] = del2;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) {
    partial[pbase + blockIdx.x] = s[0];
    __threadfence();
    final_block = atomicAdd(counter, 1u) == (unsigned)ntotal - 1;
  }
  __syncthreads();
  if (!final_block) return;
  double a = 0;
  for (int j = t; j < ntotal; j += blockDim.x) a += __ldcg(partial + j);
  s[t] = a;
  __syncthreads();
  for (int h = blockDim.x / 2; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    __syncthreads();
  }
  if (t == 0) { /* counter[1]: the iteration, counted on here */
    const unsigned int it = counter[1];
    sums[it] = s[0];
    counter[1] = it + 1;
    counter[0] = 0;
  }
}

inline int grid(int64_t n, int block) { return (int)((n + block - 1) / block); }
#define AF_STREAM(d) ((cudaStream_t)(d)->stream)

template <typename R, bool SOA, int MODE, typename KC>
int increments(const airfoil_cuda_t *d, KC k, int part) {
  const int B = d->block;
  R *x = (R *)d->x, *q = (R *)d->q, *adt = (R *)d->adt, *res = (R *)d->res;
  if (MODE == AIRFOIL_COLOUR) {
    int launched = 0;
    TSR_CALL(airfoil_cuda_prof_begin(d));
    for (int c = 0; c < d->necol[part]; c++) {
      int n = (int)(d->ecol_off[part][c + 1] - d->ecol_off[part][c]);
      if (n == 0) continue;
      k_res<R, SOA, MODE><<<grid(n, B), B, 0, AF_STREAM(d)>>>(k, n, 0, d->ecol[part] + d->ecol_off[part][c],
                                              d->nnode, d->ncell, d->pedge, d->pecell, x, q, adt,
                                              res, (R *)0);
      launched++;
    }
    TSR_CHECK_LAUNCH("airfoil res_calc (colour)");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_RES, launched));
    launched = 0;
    TSR_CALL(airfoil_cuda_prof_begin(d));
    for (int c = 0; c < d->nbcol[part]; c++) {
      int n = (int)(d->bcol_off[part][c + 1] - d->bcol_off[part][c]);
      if (n == 0) continue;
      k_bres<R, SOA, MODE><<<grid(n, B), B, 0, AF_STREAM(d)>>>(k, n, 0, d->bcol[part] + d->bcol_off[part][c],
                                               d->nnode, d->ncell, d->pbedge, d->pbecell, d->bound,
                                               x, q, adt, res, (R *)0);
      launched++;
    }
    TSR_CHECK_LAUNCH("airfoil bres_calc (colour)");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_BRES, launched));
    return 0;
  }
  const int e0 = d->erange[part], ne = d->erange[part + 1] - e0;
  const int b0 = d->brange[part], nb = d->brange[part + 1] - b0;
  if (ne > 0) {
    TSR_CALL(airfoil_cuda_prof_begin(d));
    k_res<R, SOA, MODE><<<grid(ne, B), B, 0, AF_STREAM(d)>>>(k, ne, e0, (const int32_t *)0, d->nnode, d->ncell,
                                             d->pedge, d->pecell, x, q, adt, res, (R *)d->eflux);
    TSR_CHECK_LAUNCH("airfoil res_calc");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_RES, 1));
  }
  if (nb > 0) {
    TSR_CALL(airfoil_cuda_prof_begin(d));
    k_bres<R, SOA, MODE><<<grid(nb, B), B, 0, AF_STREAM(d)>>>(k, nb, b0, (const int32_t *)0, d->nnode, d->ncell,
                                              d->pbedge, d->pbecell, d->bound, x, q, adt, res,
                                              (R *)d->bflux);
    TSR_CHECK_LAUNCH("airfoil bres_calc");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_BRES, 1));
  }
  if (MODE == AIRFOIL_GATHER && part == 1 && !d->fuse && d->ncell_owned > 0) {
    TSR_CALL(airfoil_cuda_prof_begin(d));
    k_gather<R, SOA><<<grid(d->ncell_owned, B), B, 0, AF_STREAM(d)>>>(d->ncell_owned, d->ncell, d->ce_off,
                                                     d->ce_elem, d->cb_off, d->cb_elem,
                                                     (const R *)d->eflux, (const R *)d->bflux, res);
    TSR_CHECK_LAUNCH("airfoil gather");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_GATHER, 1));
  }
  return 0;
}

/* AIRFOIL_ATOMIC1 / AIRFOIL_GATHER4: res_calc and bres_calc of one part in
 * one launch; unfused gather4 sums the fluxes into res after part 1. */
template <typename R, bool SOA, int MODE, typename KC>
int increments1(const airfoil_cuda_t *d, KC k, int part) {
  const int B = d->block;
  /* parts 2 and 3: the core's elements touching no exported cell, the others */
  const int e0 = part == 2 ? 0 : part == 3 ? d->ecut : d->erange[part];
  const int ne = (part == 2 ? d->ecut : part == 3 ? d->erange[1] : d->erange[part + 1]) - e0;
  const int b0 = part == 2 ? 0 : part == 3 ? d->bcut : d->brange[part];
  const int nb = (part == 2 ? d->bcut : part == 3 ? d->brange[1] : d->brange[part + 1]) - b0;
  if (ne + nb > 0) {
    TSR_CALL(airfoil_cuda_prof_begin(d));
    (void)af_launch(d, k_resb<R, SOA, MODE, KC>, grid(ne + nb, B), B, AF_STREAM(d),
        k, ne, e0, nb, b0, d->erange[2], d->nnode, d->ncell, d->pedge, d->pecell, d->pbedge,
        d->pbecell, d->bound, (const R *)d->x, (const R *)d->q, (const R *)d->adt, (R *)d->res,
        (R *)d->eflux);
    TSR_CHECK_LAUNCH("airfoil res_calc+bres_calc");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_RESB, 1));
  }
  if (MODE == AIRFOIL_GATHER4 && part == 1 && !d->fuse && d->ncell_owned > 0) {
    TSR_CALL(airfoil_cuda_prof_begin(d));
    if (d->ck == 4)
      k_gather4<R, SOA, 4><<<grid(d->ncell_owned, B), B, 0, AF_STREAM(d)>>>(d->ncell_owned, d->ncell, d->cmap, 4,
                                                           (const R *)d->eflux, (R *)d->res);
    else
      k_gather4<R, SOA, 0><<<grid(d->ncell_owned, B), B, 0, AF_STREAM(d)>>>(d->ncell_owned, d->ncell, d->cmap,
                                                           d->ck, (const R *)d->eflux, (R *)d->res);
    TSR_CHECK_LAUNCH("airfoil gather (fixed map)");
    TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_GATHER, 1));
  }
  return 0;
}

template <typename R, bool SOA, typename KC>
int incr(const airfoil_cuda_t *d, KC k, int part) {
  switch (d->incr) {
  case AIRFOIL_ATOMIC: TSR_CALL((increments<R, SOA, AIRFOIL_ATOMIC>(d, k, part))); break;
  case AIRFOIL_COLOUR: TSR_CALL((increments<R, SOA, AIRFOIL_COLOUR>(d, k, part))); break;
  case AIRFOIL_GATHER: TSR_CALL((increments<R, SOA, AIRFOIL_GATHER>(d, k, part))); break;
  case AIRFOIL_SHARED: TSR_CALL(airfoil_shared_cuda(d, part)); break;
  case AIRFOIL_ATOMIC1: TSR_CALL((increments1<R, SOA, AIRFOIL_ATOMIC1>(d, k, part))); break;
  case AIRFOIL_GATHER4: TSR_CALL((increments1<R, SOA, AIRFOIL_GATHER4>(d, k, part))); break;
  default: return TSR_RAISE(TSR_ERR_ARG, "airfoil CUDA: increment strategy %d", (int)d->incr);
  }
  return 0;
}

template <typename R, bool SOA, typename KC>
int save(const airfoil_cuda_t *d, KC, int) {
  if (d->ncell_owned == 0) return 0;
  TSR_CALL(airfoil_cuda_prof_begin(d));
  k_save<R, SOA><<<grid(d->ncell_owned, d->block), d->block, 0, AF_STREAM(d)>>>(d->ncell_owned, d->ncell,
                                                               (const R *)d->q, (R *)d->qold);
  TSR_CHECK_LAUNCH("airfoil save_soln");
  TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_SAVE, 1));
  return 0;
}

template <typename R, bool SOA, typename KC>
int adt(const airfoil_cuda_t *d, KC k, int) {
  if (d->ncell_owned == 0) return 0;
  TSR_CALL(airfoil_cuda_prof_begin(d));
  k_adt<R, SOA><<<grid(d->ncell_owned, d->block), d->block, 0, AF_STREAM(d)>>>(
      k, d->ncell_owned, d->ncell, d->nnode, d->pcell, (const R *)d->x, (const R *)d->q,
      (R *)d->adt);
  TSR_CHECK_LAUNCH("airfoil adt_calc");
  TSR_CALL(airfoil_cuda_prof_end(d, AIRFOIL_K_ADT, 1));
  return 0;
}

/* arg: stage * 2^30 + part * 2^28 + it; part 0 all rows, 1 the listed
   (exported) cells and the halo rows, 2 the other owned cells */
template <typename R, bool SOA, typename KC>
int update(const airfoil_cuda_t *d, KC k, int arg) {
  const int stage = arg >> 30, part = (arg >> 28) & 3, B = d->block, /* the iteration: counter[1] */
            nc = d->ncell, nco = d->ncell_owned;
  if (nc == 0) return 0;
  /* the launch's rows and its blocks' slots among the rms partial sums */
  const int ga = grid(d->nulist + (nc - nco), B), gb = grid(nco, B);
  const int32_t *list = part == 1 ? d->ulist : NULL;
  const unsigned char *skip = part == 2 ? d->uskip : NULL;
  const int nrows = part == 0 ? nc : part == 1 ? d->nulist + (nc - nco) : nco;
  const int pbase = part == 2 ? ga : 0, ntotal = part == 0 ? grid(nc, B) : ga + gb;
  if (nrows == 0) return 0; /* the other part's blocks are all of ntotal */
  /* how the increments arrive: res, or gathered here (CSR, fixed map) */
  const int gm = !d->fuse                        ? GM_RES
                 : d->incr == AIRFOIL_GATHER     ? GM_CSR
                 : d->incr != AIRFOIL_GATHER4    ? GM_RES
                 : d->ck == 4                    ? GM_FIXED4
                                                 : GM_FIXED;
  const int rms = stage == 1, last = rms && !d->pingpong; /* last: qold = q too */
  void *qout = d->qout ? d->qout : d->q;
  const airfoil_kernel_t kind =
      !d->fuse ? AIRFOIL_K_UPDATE
      : gm == GM_RES ? (last ? AIRFOIL_K_UPDATE_ADT_SAVE : AIRFOIL_K_UPDATE_ADT)
                     : (last ? AIRFOIL_K_GUPDATE_ADT_SAVE : AIRFOIL_K_GUPDATE_ADT);
  TSR_CALL(airfoil_cuda_prof_begin(d));
#define AF_UPDATE(GM, VEC)                                                                   \
  (void)af_launch(d, k_update<R, SOA, GM, VEC, KC>, grid(nrows, B), B, AF_STREAM(d),           \
      k, d->ncell_owned, nc, d->nnode, d->pcell, (const R *)d->x, (R *)d->qold, (R *)qout,   \
      (R *)d->res, (R *)d->adt, d->ce_off, d->ce_elem, d->cb_off, d->cb_elem,                \
      (const R *)d->eflux, (const R *)d->bflux, d->cmap, d->ck, d->fuse, last, rms,          \
      d->partial, d->counter, d->sums, list, d->nulist, skip, pbase, ntotal)
  const bool vec = d->incr == AIRFOIL_ATOMIC1 || d->incr == AIRFOIL_GATHER4;
  switch (gm) {
  case GM_RES:
    if (vec) AF_UPDATE(GM_RES, true);
    else AF_UPDATE(GM_RES, false);
    break;
  case GM_CSR: AF_UPDATE(GM_CSR, false); break;
  case GM_FIXED4: AF_UPDATE(GM_FIXED4, true); break;
  default: AF_UPDATE(GM_FIXED, true); break;
  }
#undef AF_UPDATE
  TSR_CHECK_LAUNCH("airfoil update");
  TSR_CALL(airfoil_cuda_prof_end(d, kind, 1));
  return 0;
}

}  // namespace

/* FN<R, SOA>(d, constants, arg) in d's precision and layout. */
#define AF_DISPATCH(FN, d, arg)                                                              \
  do {                                                                                       \
    const bool soa_ = (d)->layout == AIRFOIL_SOA;                                            \
    if ((d)->prec == AIRFOIL_DOUBLE) {                                                       \
      if (soa_) TSR_CALL((FN<double, true>((d), (d)->kd, (arg))));                           \
      else TSR_CALL((FN<double, false>((d), (d)->kd, (arg))));                               \
    } else {                                                                                 \
      if (soa_) TSR_CALL((FN<float, true>((d), (d)->kf, (arg))));                            \
      else TSR_CALL((FN<float, false>((d), (d)->kf, (arg))));                                \
    }                                                                                        \
  } while (0)

static int af_check_block(const airfoil_cuda_t *d) {
  TSR_CHECK(d->block >= 32 && d->block <= 1024 && (d->block & (d->block - 1)) == 0, TSR_ERR_ARG,
            "airfoil CUDA: block %d must be a power of two in [32, 1024]", d->block);
  return 0;
}

extern "C" int airfoil_cuda_save(const airfoil_cuda_t *d) {
  TSR_CALL(af_check_block(d));
  AF_DISPATCH(save, d, 0);
  return 0;
}

extern "C" int airfoil_cuda_adt(const airfoil_cuda_t *d) {
  TSR_CALL(af_check_block(d));
  AF_DISPATCH(adt, d, 0);
  return 0;
}

extern "C" int airfoil_cuda_incr(const airfoil_cuda_t *d, int part) {
  TSR_CALL(af_check_block(d));
  TSR_CHECK(part == 0 || part == 1 ||
                ((part == 2 || part == 3) && d->fuse &&
                 (d->incr == AIRFOIL_ATOMIC1 || d->incr == AIRFOIL_GATHER4) && d->core_split &&
                 d->ecut >= 0 && d->ecut <= d->erange[1] && d->bcut >= 0 && d->bcut <= d->brange[1]),
            TSR_ERR_ARG, "airfoil CUDA: part %d, expected 0 or 1 (2 and 3: fused atomic1 and gather4 with the core split)",
            part);
  AF_DISPATCH(incr, d, part);
  return 0;
}

extern "C" int airfoil_cuda_update(const airfoil_cuda_t *d, int stage, int it) {
  TSR_CALL(airfoil_cuda_update_part(d, stage, it, 0));
  return 0;
}

extern "C" int airfoil_cuda_update_part(const airfoil_cuda_t *d, int stage, int it, int part) {
  TSR_CALL(af_check_block(d));
  TSR_CHECK((stage == 0 || stage == 1) && it >= 0 && it < (1 << 28) && part >= 0 && part <= 2,
            TSR_ERR_ARG, "airfoil CUDA: update of stage %d, iteration %d, part %d", stage, it, part);
  TSR_CHECK(part == 0 || d->ulist || d->nulist == 0, TSR_ERR_ARG,
            "airfoil CUDA: update by parts without the exported cells' list");
  AF_DISPATCH(update, d, stage * (1 << 30) + part * (1 << 28) + it);
  return 0;
}
