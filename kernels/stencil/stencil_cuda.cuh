/* kernels/stencil/stencil_cuda.cuh: the CUDA kernels of the stencil app as
 * templates over (stencil functor S, grid accessor G), instantiated by
 * stencil_cuda_{laplap,hdiff,fastwaves}.cu. The arithmetic is the shared
 * point functions of stencil_arith.inc; only the thread mapping and how the
 * neighbour offsets are obtained differ between strategies (Rosti, 2020).
 *
 * Thread mapping. Regular grids: thread (i, j, k) of the launch grid is the
 * cell (lo0 + i, lo1 + j, lo2 + k), x fastest (coalesced rows). Unstructured
 * grids: a block's bx*by threads of one level take bx*by consecutive slots
 * (coalesced slot runs), k the level.
 * Loads: const __restrict__ pointers read through the read-only path
 * (__ldg); index math per column once; offsets are int32 (tables are int32).
 */
#ifndef TSR_KERNELS_STENCIL_CUDA_CUH
#define TSR_KERNELS_STENCIL_CUDA_CUH

#include "kernels/stencil/stencil.h"
#include "tessera/cuda.h"

/* Compressed dictionaries live in constant memory (one copy per translation
 * unit; stencil_cuda_dict_upload refreshes it when the dictionary changes). */
static __constant__ int32_t stencil_cdict[STENCIL_CUDA_DICT_BYTES / sizeof(int32_t)];

static const int32_t *stencil_cdict_last = NULL; /* the dictionary now in stencil_cdict */
static int stencil_cdict_n = 0;

static int stencil_cuda_dict_upload(const stencil_grid_t *g) {
  const int32_t *&last = stencil_cdict_last;
  int &last_n = stencil_cdict_n;
  const size_t bytes = (size_t)g->nproto * (size_t)g->nrel * sizeof(int32_t);
  TSR_CHECK(bytes <= STENCIL_CUDA_DICT_BYTES, TSR_ERR_UNSUPPORTED,
            "compressed tables: a dictionary of %d prototypes x %d relations (%zu bytes) does not "
            "fit in %d bytes of constant memory",
            g->nproto, g->nrel, bytes, STENCIL_CUDA_DICT_BYTES);
  if (g->dict == last && g->nproto * g->nrel == last_n) return TSR_SUCCESS;
  /* the dictionary is device memory: copy device -> constant */
  TSR_CALL_CUDA(cudaMemcpyToSymbol(stencil_cdict, g->dict, bytes, 0, cudaMemcpyDeviceToDevice));
  last = g->dict;
  last_n = g->nproto * g->nrel;
  return TSR_SUCCESS;
}

/* Forget the cached dictionary (a new grid may reuse a freed address) and
 * upload g's. */
static int stencil_cuda_dict_prepare(const stencil_grid_t *g) {
  stencil_cdict_last = NULL;
  stencil_cdict_n = 0;
  if (g->kind == STENCIL_GRID_UNSTR && g->comp) TSR_CALL(stencil_cuda_dict_upload(g));
  return TSR_SUCCESS;
}

/* Overloads picking the _d / _f point functions by element type. */
static __device__ __forceinline__ double st_laplap(const double *v) { return stencil_laplap_point_d(v); }
static __device__ __forceinline__ float st_laplap(const float *v) { return stencil_laplap_point_f(v); }
static __device__ __forceinline__ double st_hdiff(const double *v, double c) { return stencil_hdiff_point_d(v, c); }
static __device__ __forceinline__ float st_hdiff(const float *v, float c) { return stencil_hdiff_point_f(v, c); }
static __device__ __forceinline__ double st_lap(double c, double w, double e, double s, double n) {
  return stencil_lap_d(c, w, e, s, n);
}
static __device__ __forceinline__ float st_lap(float c, float w, float e, float s, float n) {
  return stencil_lap_f(c, w, e, s, n);
}
static __device__ __forceinline__ double st_lap_h(double c, double w, double e, double s, double n) {
  return stencil_lap_h_d(c, w, e, s, n);
}
static __device__ __forceinline__ float st_lap_h(float c, float w, float e, float s, float n) {
  return stencil_lap_h_f(c, w, e, s, n);
}
static __device__ __forceinline__ double st_flux(double a, double b, double c, double d) {
  return stencil_hdiff_flux_d(a, b, c, d);
}
static __device__ __forceinline__ float st_flux(float a, float b, float c, float d) {
  return stencil_hdiff_flux_f(a, b, c, d);
}
static __device__ __forceinline__ double st_hdiff_out(double c, double k, double a, double b,
                                                      double d, double e) {
  return stencil_hdiff_out_d(c, k, a, b, d, e);
}
static __device__ __forceinline__ float st_hdiff_out(float c, float k, float a, float b, float d,
                                                     float e) {
  return stencil_hdiff_out_f(c, k, a, b, d, e);
}
static __device__ __forceinline__ double st_ppgrad(const double pp[2][3], const double w[2][2],
                                                   const double h[2][2], int flat) {
  return stencil_fw_ppgrad_d(pp, w, h, flat);
}
static __device__ __forceinline__ float st_ppgrad(const float pp[2][3], const float w[2][2],
                                                  const float h[2][2], int flat) {
  return stencil_fw_ppgrad_f(pp, w, h, flat);
}
static __device__ __forceinline__ double st_vel(double a, double b, double c, double d, double e,
                                                double f, double g) {
  return stencil_fw_vel_d(a, b, c, d, e, f, g);
}
static __device__ __forceinline__ float st_vel(float a, float b, float c, float d, float e, float f,
                                               float g) {
  return stencil_fw_vel_f(a, b, c, d, e, f, g);
}

/* ------------------------------------------------------------ grids */
/* Regular: offsets are arithmetic. */
struct StGridReg {
  tsr_layout_t L;
  int64_t lo0, lo1, hi0, hi1, zs;
  __device__ __forceinline__ bool column(int64_t &base, int64_t &s) const {
    const int64_t x = lo0 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    const int64_t y = lo1 + blockIdx.y * (int64_t)blockDim.y + threadIdx.y;
    base = tsr_layout_rm_cell(&L, x, y, 0);
    s = 0;
    return x < hi0 && y < hi1;
  }
  __device__ __forceinline__ int32_t off13(int64_t, int p) const {
    return p == 0 ? 0 : (int32_t)(tsr_neigh_rel_dx(p - 1) + tsr_neigh_rel_dy(p - 1) * L.sy);
  }
  __device__ __forceinline__ int32_t rel(int64_t, int r) const {
    return (int32_t)(tsr_neigh_rel_dx(r) + tsr_neigh_rel_dy(r) * L.sy);
  }
};

/* Unstructured: tables (COMP = 0) or prototypes + constant dictionary;
 * depth-2 points stored (DEPTH = 2) or chased (DEPTH = 1). */
template <int COMP, int DEPTH>
struct StGridUn {
  const int32_t *__restrict__ tab;
  const uint16_t *__restrict__ proto;
  int64_t np, lo0, hi0, zs;
  int nrel;
  __device__ __forceinline__ bool column(int64_t &base, int64_t &s) const {
    const int64_t q = ((int64_t)blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    s = lo0 + q;
    base = s;
    return s < hi0;
  }
  __device__ __forceinline__ int32_t rel(int64_t s, int r) const {
    if (COMP) return stencil_cdict[(int)__ldg(proto + s) * nrel + r];
    return __ldg(tab + (int64_t)r * np + s);
  }
  __device__ __forceinline__ int32_t off13(int64_t s, int p) const {
    if (p == 0) return 0;
    if (p <= 4 || DEPTH >= 2) return rel(s, p - 1);
    const int32_t o1 = rel(s, stencil_chase_first(p));
    return o1 + rel(s + o1, stencil_chase_second(p));
  }
};

/* ------------------------------------------------------------ stencils */
template <typename T, int HDIFF>
struct StK13 {
  static constexpr int NP = STENCIL_NP13;
  const T *__restrict__ in;
  const T *__restrict__ coeff;
  T *__restrict__ out;
  template <class G>
  __device__ __forceinline__ static int32_t plane_off(const G &g, int64_t s, int p) {
    return g.off13(s, p);
  }
  template <class OFF>
  __device__ __forceinline__ void apply(int64_t c, int64_t, int64_t, OFF off) const {
    T v[NP];
    v[0] = __ldg(in + c);
#pragma unroll
    for (int p = 1; p < NP; p++) v[p] = __ldg(in + c + off(p));
    out[c] = HDIFF ? st_hdiff(v, __ldg(coeff + c)) : st_laplap(v);
  }
};

template <int PLACE>
__device__ __forceinline__ int64_t st_place(const tsr_layout_t &L, int64_t c, int f) {
  return PLACE == TSR_AOS ? tsr_layout_aos(&L, c, f)
                          : PLACE == TSR_AOSOA ? tsr_layout_aosoa(&L, c, f) : tsr_layout_soa(&L, c, f);
}

template <typename T, int PLACE>
struct StFw {
  static constexpr int NP = STENCIL_NP3;
  const T *__restrict__ cst;
  const T *__restrict__ uvin;
  T *__restrict__ uvout;
  tsr_layout_t Lc, Luv;
  int flat_level;
  template <class G>
  __device__ __forceinline__ static int32_t plane_off(const G &g, int64_t s, int p) {
    return p == 0 ? 0 : g.rel(s, p == STENCIL_FP_E ? TSR_NB_XP1 : TSR_NB_YP1);
  }
  __device__ __forceinline__ T ld(int64_t c, int f) const {
    return __ldg(cst + st_place<PLACE>(Lc, c, f));
  }
  template <class OFF>
  __device__ __forceinline__ void apply(int64_t c, int64_t z, int64_t zs, OFF off) const {
    const int flat = z < flat_level;
    const int32_t nb[2] = {off(STENCIL_FP_E), off(STENCIL_FP_N)};
    T grad[2];
#pragma unroll
    for (int d = 0; d < 2; d++) {
      T pp[2][3], wg[2][2], hh[2][2];
#pragma unroll
      for (int q = 0; q < 2; q++) {
        const int64_t cq = c + (q ? nb[d] : 0);
#pragma unroll
        for (int l = 0; l < 3; l++) pp[q][l] = ld(cq + (l - 1) * zs, STENCIL_FW_PPUV);
#pragma unroll
        for (int l = 0; l < 2; l++) {
          wg[q][l] = flat ? (T)0 : ld(cq + l * zs, STENCIL_FW_WGTFAC);
          hh[q][l] = flat ? (T)0 : ld(cq + l * zs, STENCIL_FW_HHL);
        }
      }
      grad[d] = st_ppgrad(pp, wg, hh, flat);
    }
    const T rho = ld(c, STENCIL_FW_RHO);
    const int64_t eu = st_place<PLACE>(Luv, c, STENCIL_FW_U), ev = st_place<PLACE>(Luv, c, STENCIL_FW_V);
    uvout[eu] = st_vel(__ldg(uvin + eu), ld(c, STENCIL_FW_UTENS), grad[0], ld(c, STENCIL_FW_FX), rho,
                       ld(c + nb[0], STENCIL_FW_RHO), (T)STENCIL_FW_DT_SMALL);
    uvout[ev] = st_vel(__ldg(uvin + ev), ld(c, STENCIL_FW_VTENS), grad[1], (T)STENCIL_FW_EDADLAT, rho,
                       ld(c + nb[1], STENCIL_FW_RHO), (T)STENCIL_FW_DT_SMALL);
  }
};

/* ------------------------------------------------------------ strategies */
template <class S, class G>
__global__ void st_k_naive(S st, G g, int64_t z0, int64_t z1) {
  int64_t base, s;
  const int64_t z = z0 + blockIdx.z * (int64_t)blockDim.z + threadIdx.z;
  if (!g.column(base, s) || z >= z1) return;
  st.apply(base + z * g.zs, z, g.zs, [&](int p) { return S::plane_off(g, s, p); });
}

template <class S, class G>
__global__ void st_k_idxvar(S st, G g, int64_t z0, int64_t z1) {
  int64_t base, s;
  const int64_t z = z0 + blockIdx.z * (int64_t)blockDim.z + threadIdx.z;
  if (!g.column(base, s) || z >= z1) return;
  int32_t off[S::NP];
#pragma unroll
  for (int p = 0; p < S::NP; p++) off[p] = S::plane_off(g, s, p);
  st.apply(base + z * g.zs, z, g.zs, [&](int p) { return off[p]; });
}

/* Shared-memory row stride: NP rounded up to an odd number (coprime with
 * the 32 banks), so leaders' stores and everyone's loads do not conflict. */
template <int NP>
struct StStride { static constexpr int value = (NP % 2) ? NP : NP + 1; };

template <class S, class G>
__global__ void st_k_shared(S st, G g, int64_t z0, int64_t z1) {
  extern __shared__ int32_t st_smem[];
  constexpr int STRIDE = StStride<S::NP>::value;
  int64_t base, s;
  const bool ok = g.column(base, s);
  const int64_t z = z0 + blockIdx.z * (int64_t)blockDim.z + threadIdx.z;
  int32_t *mine = st_smem + (threadIdx.y * blockDim.x + threadIdx.x) * STRIDE;
  if (threadIdx.z == 0 && ok) {
#pragma unroll
    for (int p = 0; p < S::NP; p++) mine[p] = S::plane_off(g, s, p);
  }
  __syncthreads();
  if (!ok || z >= z1) return;
  int32_t off[S::NP];
#pragma unroll
  for (int p = 0; p < S::NP; p++) off[p] = mine[p];
  st.apply(base + z * g.zs, z, g.zs, [&](int p) { return off[p]; });
}

/* Warp broadcast: the lowest lane of each column in the warp looks up, the
 * others receive through __shfl_sync. Needs whole warps (block size a
 * multiple of 32) and bx*by dividing 32 (sharing) or a multiple of 32 (each
 * lane its own column: no sharing). */
template <class S, class G>
__global__ void st_k_warp(S st, G g, int64_t z0, int64_t z1) {
  int64_t base, s;
  const bool ok = g.column(base, s);
  const int64_t z = z0 + blockIdx.z * (int64_t)blockDim.z + threadIdx.z;
  const unsigned cols = blockDim.x * blockDim.y;
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned lane = t & 31u, src = cols >= 32u ? lane : lane % cols;
  int32_t off[S::NP];
#pragma unroll
  for (int p = 0; p < S::NP; p++) off[p] = (lane == src && ok) ? S::plane_off(g, s, p) : 0;
#pragma unroll
  for (int p = 0; p < S::NP; p++) off[p] = __shfl_sync(0xffffffffu, off[p], (int)src);
  if (!ok || z >= z1) return;
  st.apply(base + z * g.zs, z, g.zs, [&](int p) { return off[p]; });
}

/* z-loop without index variables: lookups at every level. */
template <class S, class G>
__global__ void st_k_kloop(S st, G g, int64_t z0, int64_t z1) {
  int64_t base, s;
  if (!g.column(base, s)) return;
  for (int64_t z = z0; z < z1; z++)
    st.apply(base + z * g.zs, z, g.zs, [&](int p) { return S::plane_off(g, s, p); });
}

/* z-loop over levels [z0 + k*kpt, z0 + (k+1)*kpt) (kpt = all: one slice). */
template <class S, class G>
__device__ __forceinline__ void st_idxvar_kloop_body(const S &st, const G &g, int64_t z0, int64_t z1,
                                                     int kpt) {
  int64_t base, s;
  if (!g.column(base, s)) return;
  const int64_t za = z0 + (blockIdx.z * (int64_t)blockDim.z + threadIdx.z) * kpt;
  const int64_t zb = za + kpt < z1 ? za + kpt : z1;
  if (za >= z1) return;
  int32_t off[S::NP];
#pragma unroll
  for (int p = 0; p < S::NP; p++) off[p] = S::plane_off(g, s, p);
  int64_t c = base + za * g.zs;
  for (int64_t z = za; z < zb; z++, c += g.zs) st.apply(c, z, g.zs, [&](int p) { return off[p]; });
}
/* The compiler keeps many loads of the z-loop in flight (ptxas for sm_90:
 * laplap unstructured 79 registers, fastwaves up to 128), which caps the
 * block at 512..832 threads: 128x1x8 then fails to launch. So blocks of up
 * to 512 threads run the unbounded kernel, larger ones the same body
 * compiled for 1024-thread blocks (__launch_bounds__: <= 64 registers, a
 * few spills on the unstructured grids). */
template <class S, class G>
__global__ void st_k_idxvar_kloop(S st, G g, int64_t z0, int64_t z1, int kpt) {
  st_idxvar_kloop_body(st, g, z0, z1, kpt);
}
template <class S, class G>
__global__ void __launch_bounds__(1024) st_k_idxvar_kloop_lb(S st, G g, int64_t z0, int64_t z1,
                                                             int kpt) {
  st_idxvar_kloop_body(st, g, z0, z1, kpt);
}
#define STENCIL_CU_BIG_BLOCK 512

/* Regular laplap / hdiff through shared memory (TILE, TILE_KLOOP). Block
 * (bx, by, bz): thread layer k owns the bx x by output tile of the block at
 * levels [za, za + kpt) with za = z0 + (blockIdx.z*bz + k)*kpt (TILE: kpt 1).
 * Per level: the (bx+4) x (by+4) input tile goes to shared memory (each
 * thread at most STENCIL_TILE_LOADS values, 32-bit offsets from the tile
 * origin; the next level's values are loaded into registers before this
 * level is computed, so the loads overlap the arithmetic), then L(in) on the
 * (bx+2) x (by+2) tile + 1 ring into shared memory, then each output from L
 * (laplap: L(L)) or from L and in (hdiff: the limited fluxes). The input
 * tiles are double-buffered over levels: two barriers per level. The point
 * functions are the ones stencil_*_point compose, in the same order, so the
 * results are the same bits as every other variant. */
template <typename T, int HDIFF>
__global__ void __launch_bounds__(1024)
st_k_tile(StK13<T, HDIFF> st, StGridReg g, int64_t z0, int64_t z1, int kpt) {
  extern __shared__ unsigned char st_tile_raw[];
  const int bx = blockDim.x, by = blockDim.y, tw = bx + 4, th = by + 4, lw = bx + 2, lh = by + 2;
  const int nt = bx * by, tid = threadIdx.y * bx + threadIdx.x, ntile = tw * th;
  T *const tin0 = reinterpret_cast<T *>(st_tile_raw) + (size_t)threadIdx.z * (2 * ntile + lw * lh);
  T *const tlap = tin0 + 2 * ntile;
  const int64_t za = z0 + ((int64_t)blockIdx.z * blockDim.z + threadIdx.z) * kpt;
  const int64_t x0 = g.lo0 + (int64_t)blockIdx.x * bx - 2, y0 = g.lo1 + (int64_t)blockIdx.y * by - 2;
  const int32_t sy = (int32_t)g.L.sy;
  /* this thread's loads: tile element t = tid + i*nt, offset from the origin */
  int32_t goff[STENCIL_TILE_LOADS];
#pragma unroll
  for (int i = 0; i < STENCIL_TILE_LOADS; i++) {
    const int t = tid + i * nt, tx = t % tw, ty = t / tw;
    goff[i] = (t < ntile && x0 + tx < g.hi0 + 2 && y0 + ty < g.hi1 + 2) ? ty * sy + tx : -1;
  }
  const int64_t org = tsr_layout_rm_cell(&g.L, x0, y0, 0);
  T pre[STENCIL_TILE_LOADS];
  auto load = [&](int64_t z) {
    const T *src = st.in + org + z * g.zs;
#pragma unroll
    for (int i = 0; i < STENCIL_TILE_LOADS; i++) pre[i] = goff[i] >= 0 ? __ldg(src + goff[i]) : (T)0;
  };
  if (za < z1) load(za);
  const int ox = threadIdx.x, oy = threadIdx.y;
  const bool mine = g.lo0 + (int64_t)blockIdx.x * bx + ox < g.hi0 && g.lo1 + (int64_t)blockIdx.y * by + oy < g.hi1;
  const int64_t oc = tsr_layout_rm_cell(&g.L, x0 + 2 + ox, y0 + 2 + oy, 0);
  for (int k = 0; k < kpt; k++) {
    const int64_t z = za + k;
    const bool live = z < z1; /* the same for the whole thread layer, not the block */
    T *tin = tin0 + (k & 1) * ntile;
    if (live) {
#pragma unroll
      for (int i = 0; i < STENCIL_TILE_LOADS; i++) {
        const int t = tid + i * nt;
        if (t < ntile) tin[t] = pre[i];
      }
    }
    __syncthreads();
    if (live && z + 1 < z1 && k + 1 < kpt) load(z + 1);
    if (live) {
      for (int t = tid; t < lw * lh; t += nt) {
        const T *c = tin + (t / lw + 1) * tw + t % lw + 1;
        tlap[t] = HDIFF ? st_lap_h(c[0], c[-1], c[1], c[-tw], c[tw]) : st_lap(c[0], c[-1], c[1], c[-tw], c[tw]);
      }
    }
    __syncthreads();
    if (live && mine) {
      const T *l = tlap + (oy + 1) * lw + ox + 1;
      T r;
      if (HDIFF) {
        const T *c = tin + (oy + 2) * tw + ox + 2;
        const T flx = st_flux(l[0], l[1], c[0], c[1]);
        const T flx_w = st_flux(l[-1], l[0], c[-1], c[0]);
        const T fly = st_flux(l[0], l[lw], c[0], c[tw]);
        const T fly_s = st_flux(l[-lw], l[0], c[-tw], c[0]);
        r = st_hdiff_out(c[0], __ldg(st.coeff + oc + z * g.zs), flx, flx_w, fly, fly_s);
      } else {
        r = st_lap(l[0], l[-1], l[1], l[-lw], l[lw]);
      }
      st.out[oc + z * g.zs] = r;
    }
  }
}

/* ------------------------------------------------------------ launching */

/* Launch kernel k on stream sm (or, with cfg->attr, report its attributes
 * instead); st_go: on cfg->stream (NULL: the default stream). */
template <typename... P, typename... A>
static int st_go_s(void (*k)(P...), const stencil_cfg_t *cfg, cudaStream_t sm, A... args) {
  if (cfg->attr) {
    cudaFuncAttributes fa;
    TSR_CALL_CUDA(cudaFuncGetAttributes(&fa, k));
    int dev = 0, optin = 0;
    TSR_CALL_CUDA(cudaGetDevice(&dev));
    TSR_CALL_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    cfg->attr->max_threads = fa.maxThreadsPerBlock;
    cfg->attr->regs = fa.numRegs;
    cfg->attr->local_bytes = fa.localSizeBytes;
    cfg->attr->smem_max = optin > (int)fa.sharedSizeBytes ? (size_t)optin - fa.sharedSizeBytes : 0;
    return TSR_SUCCESS;
  }
  if (cfg->smem > 48 * 1024)
    TSR_CALL_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)cfg->smem));
  const dim3 grid(cfg->grid[0], cfg->grid[1], cfg->grid[2]), block(cfg->block[0], cfg->block[1], cfg->block[2]);
  k<<<grid, block, cfg->smem, sm>>>(args...);
  TSR_CHECK_LAUNCH("stencil kernel launch");
  return TSR_SUCCESS;
}
template <typename... P, typename... A>
static int st_go(void (*k)(P...), const stencil_cfg_t *cfg, A... args) {
  return st_go_s(k, cfg, (cudaStream_t)cfg->stream, args...);
}

/* The load-lean strategies (jwindow, jwindow-shfl, patch-kloop). */
#include "kernels/stencil/stencil_cuda_win.cuh"

template <class S, class G>
static int st_launch(int strategy, const S &st, const G &g, const stencil_cfg_t *c) {
  switch (strategy) {
    case STENCIL_CU_NAIVE: return st_go(st_k_naive<S, G>, c, st, g, c->z0, c->z1);
    case STENCIL_CU_IDXVAR: return st_go(st_k_idxvar<S, G>, c, st, g, c->z0, c->z1);
    case STENCIL_CU_SHARED: return st_go(st_k_shared<S, G>, c, st, g, c->z0, c->z1);
    case STENCIL_CU_WARP: return st_go(st_k_warp<S, G>, c, st, g, c->z0, c->z1);
    case STENCIL_CU_KLOOP: return st_go(st_k_kloop<S, G>, c, st, g, c->z0, c->z1);
    case STENCIL_CU_IDXVAR_KLOOP:
    case STENCIL_CU_IDXVAR_KLOOP_SLICED:
      if (c->block[0] * c->block[1] * c->block[2] > STENCIL_CU_BIG_BLOCK)
        return st_go(st_k_idxvar_kloop_lb<S, G>, c, st, g, c->z0, c->z1, c->kpt);
      return st_go(st_k_idxvar_kloop<S, G>, c, st, g, c->z0, c->z1, c->kpt);
    default:
      return TSR_RAISE(TSR_ERR_UNSUPPORTED, "CUDA strategy %d is not available here", strategy);
  }
}

/* Dispatch over the grid kinds for a stencil functor S. */
template <class S>
static int st_run_grids(int strategy, const S &st, const stencil_grid_t *g, const stencil_cfg_t *l) {
  if (g->kind == STENCIL_GRID_REGULAR) {
    StGridReg gr;
    gr.L = g->L;
    gr.lo0 = g->lo[0], gr.lo1 = g->lo[1], gr.hi0 = g->hi[0], gr.hi1 = g->hi[1], gr.zs = g->zs;
    return st_launch(strategy, st, gr, l);
  }
  if (g->comp && !l->attr) TSR_CALL(stencil_cuda_dict_upload(g));
#define ST_UN(C, D)                                                                       \
  do {                                                                                    \
    StGridUn<C, D> gu;                                                                    \
    gu.tab = g->tab, gu.proto = g->proto, gu.np = g->np, gu.lo0 = g->lo[0], gu.hi0 = g->hi[0]; \
    gu.zs = g->zs, gu.nrel = g->nrel;                                                     \
    return st_launch(strategy, st, gu, l);                                                \
  } while (0)
  if (S::NP == STENCIL_NP3 || g->depth >= 2) {
    if (g->comp) ST_UN(1, 2);
    ST_UN(0, 2);
  }
  if (g->comp) ST_UN(1, 1);
  ST_UN(0, 1);
#undef ST_UN
}

/* laplap (HDIFF = 0) and hdiff (HDIFF = 1) for element type T. */
static inline StGridReg st_grid_reg(const stencil_grid_t *g) {
  StGridReg gr;
  gr.L = g->L;
  gr.lo0 = g->lo[0], gr.lo1 = g->lo[1], gr.hi0 = g->hi[0], gr.hi1 = g->hi[1], gr.zs = g->zs;
  return gr;
}

template <typename T, int HDIFF>
static int st_run13(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                    const stencil_cfg_t *cfg) {
  StK13<T, HDIFF> st;
  st.in = (const T *)f->in;
  st.coeff = (const T *)f->coeff;
  st.out = (T *)f->out;
  if (strategy == STENCIL_CU_TILE || strategy == STENCIL_CU_TILE_KLOOP) {
    TSR_CHECK(g->kind == STENCIL_GRID_REGULAR, TSR_ERR_UNSUPPORTED,
              "the shared-tile strategies run on regular grids only");
    TSR_CALL(st_go(st_k_tile<T, HDIFF>, cfg, st, st_grid_reg(g), cfg->z0, cfg->z1, cfg->kpt));
    return TSR_SUCCESS;
  }
  /* (stencil_cuda_cfg refuses jwindow-plan and -proto on regular grids) */
  if ((strategy == STENCIL_CU_JWIN && g->kind == STENCIL_GRID_UNSTR) || stencil_cuda_uses_plan(strategy)) {
    TSR_CALL(st_run_uwin(strategy, st, g, cfg));
    return TSR_SUCCESS;
  }
  if (stencil_cuda_uses_jpt(strategy)) {
    TSR_CHECK(g->kind == STENCIL_GRID_REGULAR, TSR_ERR_UNSUPPORTED,
              "the j-window strategies run on regular grids only");
    TSR_CALL(st_run_jwin(strategy, st, st_grid_reg(g), cfg));
    return TSR_SUCCESS;
  }
  if (strategy == STENCIL_CU_PATCH) {
    TSR_CALL(st_run_patch(st, g, cfg));
    return TSR_SUCCESS;
  }
  TSR_CALL(st_run_grids(strategy, st, g, cfg));
  return TSR_SUCCESS;
}

#endif
