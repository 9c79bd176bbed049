/* kernels/stencil/stencil_cuda.cuh: the CUDA kernels of the stencil app as
 * templates over (stencil functor S, grid accessor G), instantiated by
 * stencil_cuda_{laplap,hdiff,fastwaves}.cu. The arithmetic is the shared
 * point functions of stencil_arith.inc; only the thread mapping and how the
 * neighbour offsets are obtained differ between strategies (seed 002).
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
__global__ void st_k_idxvar_kloop(S st, G g, int64_t z0, int64_t z1, int kpt) {
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

/* Regular laplap / hdiff: each level's (bx+4) x (by+4) input tile in shared
 * memory, loaded once by the block, then the 13 points from it. */
template <typename T, int HDIFF>
__global__ void st_k_tile(StK13<T, HDIFF> st, StGridReg g, int64_t z0, int64_t z1) {
  extern __shared__ unsigned char st_tile_raw[];
  T *tile = reinterpret_cast<T *>(st_tile_raw);
  const int tw = blockDim.x + 4, th = blockDim.y + 4;
  T *mytile = tile + (size_t)threadIdx.z * tw * th;
  const int64_t z = z0 + blockIdx.z * (int64_t)blockDim.z + threadIdx.z;
  const int64_t bx0 = g.lo0 + blockIdx.x * (int64_t)blockDim.x - 2;
  const int64_t by0 = g.lo1 + blockIdx.y * (int64_t)blockDim.y - 2;
  if (z < z1) {
    for (int t = threadIdx.y * blockDim.x + threadIdx.x; t < tw * th; t += blockDim.x * blockDim.y) {
      const int64_t x = bx0 + t % tw, y = by0 + t / tw;
      if (x < g.hi0 + 2 && y < g.hi1 + 2)
        mytile[t] = __ldg(st.in + tsr_layout_rm_cell(&g.L, x, y, z));
    }
  }
  __syncthreads();
  int64_t base, s;
  if (!g.column(base, s) || z >= z1) return;
  T v[STENCIL_NP13];
  const T *ctr = mytile + (threadIdx.y + 2) * tw + threadIdx.x + 2;
#pragma unroll
  for (int p = 0; p < STENCIL_NP13; p++)
    v[p] = p == 0 ? ctr[0] : ctr[tsr_neigh_rel_dx(p - 1) + tsr_neigh_rel_dy(p - 1) * tw];
  const int64_t c = base + z * g.zs;
  st.out[c] = HDIFF ? st_hdiff(v, __ldg(st.coeff + c)) : st_laplap(v);
}

/* ------------------------------------------------------------ launching */
struct StLaunch {
  dim3 grid, block;
  size_t smem;
  int kpt;
  int64_t z0, z1;
  StLaunch(const stencil_cfg_t &c)
      : grid(c.grid[0], c.grid[1], c.grid[2]), block(c.block[0], c.block[1], c.block[2]),
        smem(c.smem), kpt(c.kpt), z0(c.z0), z1(c.z1) {}
};

template <class S, class G>
static int st_launch(int strategy, const S &st, const G &g, const StLaunch &l) {
  switch (strategy) {
    case STENCIL_CU_NAIVE: st_k_naive<S, G><<<l.grid, l.block>>>(st, g, l.z0, l.z1); break;
    case STENCIL_CU_IDXVAR: st_k_idxvar<S, G><<<l.grid, l.block>>>(st, g, l.z0, l.z1); break;
    case STENCIL_CU_SHARED:
      st_k_shared<S, G><<<l.grid, l.block, l.smem>>>(st, g, l.z0, l.z1);
      break;
    case STENCIL_CU_WARP: st_k_warp<S, G><<<l.grid, l.block>>>(st, g, l.z0, l.z1); break;
    case STENCIL_CU_KLOOP: st_k_kloop<S, G><<<l.grid, l.block>>>(st, g, l.z0, l.z1); break;
    case STENCIL_CU_IDXVAR_KLOOP:
    case STENCIL_CU_IDXVAR_KLOOP_SLICED:
      st_k_idxvar_kloop<S, G><<<l.grid, l.block>>>(st, g, l.z0, l.z1, l.kpt);
      break;
    default:
      return TSR_RAISE(TSR_ERR_UNSUPPORTED, "CUDA strategy %d is not available here", strategy);
  }
  TSR_CHECK_LAUNCH("stencil kernel launch");
  return TSR_SUCCESS;
}

/* Dispatch over the grid kinds for a stencil functor S. */
template <class S>
static int st_run_grids(int strategy, const S &st, const stencil_grid_t *g, const StLaunch &l) {
  if (g->kind == STENCIL_GRID_REGULAR) {
    StGridReg gr;
    gr.L = g->L;
    gr.lo0 = g->lo[0], gr.lo1 = g->lo[1], gr.hi0 = g->hi[0], gr.hi1 = g->hi[1], gr.zs = g->zs;
    return st_launch(strategy, st, gr, l);
  }
  if (g->comp) TSR_CALL(stencil_cuda_dict_upload(g));
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
  const StLaunch l(*cfg);
  if (strategy == STENCIL_CU_TILE) {
    st_k_tile<T, HDIFF><<<l.grid, l.block, l.smem>>>(st, st_grid_reg(g), l.z0, l.z1);
    TSR_CHECK_LAUNCH("stencil tile kernel launch");
    return TSR_SUCCESS;
  }
  TSR_CALL(st_run_grids(strategy, st, g, l));
  return TSR_SUCCESS;
}

#endif
