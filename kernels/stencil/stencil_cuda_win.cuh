/* kernels/stencil/stencil_cuda_win.cuh: the load-lean CUDA strategies of
 * laplap and hdiff (docs/STENCIL.md, "Load-lean strategies"), included by
 * stencil_cuda.cuh after the grids, stencils and st_go. The arithmetic is
 * stencil_win.inc's (also run on the host by the tests, stencil_win.c).
 *
 *  jwindow       regular grids: thread (x, strip, z) computes the jpt rows
 *                j0 .. j0+jpt-1 of its (x, z) column, sliding a window of
 *                rows through registers: 5 jpt + 8 loads (of in) per jpt
 *                outputs instead of 13 jpt, L computed 3 times per output
 *                instead of 5.
 *  jwindow-shfl  the same window; a warp is 32 consecutive x of one row, so
 *                each row is ONE aligned load per warp plus one load by 4
 *                edge lanes (in(x-32) for lanes 30, 31; in(x+32) for lanes
 *                0, 1), and x +- 1, x +- 2 come through __shfl_sync: about
 *                (jpt + 4) (1 + 1/8) warp loads per jpt outputs.
 *  patch-kloop   unstructured grids: a block of bx*by threads owns that many
 *                consecutive slots (a patch of the storage order: a
 *                rectangle of a z-curve) and marches up kpt levels; per
 *                level in and then L of its slots go to shared memory
 *                (double-buffered, two barriers per level), footprint
 *                points outside the patch come through the tables (offsets
 *                once per column into registers, depth 2 stored or chased).
 *  jwindow       unstructured grids (cuda/unstr/jwindow): the window on chains
 *                of the north relation, each thread walking the tables for
 *                its chain's slots once per --kpt levels.
 *  jwindow-plan  the same chains walked once per grid into a chain plan
 *                (st_k_uplan); threads laid out as the regular window's
 *                read their slots from it (kept in L2 by an evict_last
 *                policy).
 */

#ifndef TSR_KERNELS_STENCIL_CUDA_WIN_CUH
#define TSR_KERNELS_STENCIL_CUDA_WIN_CUH

#include <type_traits>

/* The shuffle row loader: r[0..4] = in(x-2 .. x+2) at p = &in(x, row) for
 * the 32 lanes of a warp along x (lane = x mod 32 from the warp's first x,
 * which is 32-aligned when lo0 is). Only r[2] for nv = 1, r[1..3] for nv =
 * 3. The edge lanes' second load h (lanes 30, 31: in(x-32); lanes 0, 1:
 * in(x+32)) is what the wrapped shuffles deliver to the lanes whose
 * neighbour is outside the warp: lane 0 reads x-1 from lane 31's h, lane
 * 31 reads x+1 from lane 0's h, and likewise at distance 2. xin: in(x)
 * exists (x < hi0 + 2); hin: in(x+32) exists. nv is the same for the whole
 * warp, so every lane reaches every __shfl_sync. */
template <typename T>
static __device__ __forceinline__ void st_wrow_shfl(const T *p, int lane, int xin, int hin, int nv,
                                                    T r[5]) {
  const unsigned full = 0xffffffffu;
  const T a = xin ? __ldg(p) : (T)0;
  r[0] = r[1] = r[3] = r[4] = (T)0;
  r[2] = a;
  if (nv < 3) return;
  const bool left = nv == 5 ? lane >= 30 : lane == 31, right = nv == 5 ? lane < 2 : lane == 0;
  T h = (T)0;
  if (left) h = __ldg(p - 32);
  else if (right && hin) h = __ldg(p + 32);
  r[1] = __shfl_sync(full, lane == 31 ? h : a, (lane + 31) & 31);
  r[3] = __shfl_sync(full, lane == 0 ? h : a, (lane + 1) & 31);
  if (nv < 5) return;
  r[0] = __shfl_sync(full, lane >= 30 ? h : a, (lane + 30) & 31);
  r[4] = __shfl_sync(full, lane < 2 ? h : a, (lane + 2) & 31);
}

/* A chain-plan slot, loaded with an L2 evict_last policy: the plan (4 (5J +
   20) bytes per chain) is read again by every level group while the fields
   stream through L2, and keeping it there is worth 6-11 % of the
   unstructured window's time (BENCHMARKS.md). Not volatile: the compiler
   may hoist a chain's slot loads out of the level loop. */
static __device__ __forceinline__ int32_t st_ldplan(const int32_t *p) {
  int32_t v;
  asm("{\n\t.reg .b64 pol;\n\tcreatepolicy.fractional.L2::evict_last.b64 pol, 1.0;\n\t"
      "ld.global.nc.L2::cache_hint.b32 %0, [%1], pol;\n\t}"
      : "=r"(v)
      : "l"(p));
  return v;
}

/* p + s elements of es bytes: one IMAD.WIDE.U32 (es unknown to the compiler). */
template <typename T>
static __device__ __forceinline__ T *st_wat(T *p, uint32_t s, uint32_t es) {
  uint64_t r;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(r) : "r"(s), "r"(es), "l"(p));
  return reinterpret_cast<T *>(r);
}

/* p + o bytes (o a byte offset below 4 GiB). */
template <typename T>
static __device__ __forceinline__ T *st_boff(T *p, uint32_t o) {
  typedef typename std::conditional<std::is_const<T>::value, const char, char>::type C;
  return reinterpret_cast<T *>(reinterpret_cast<C *>(p) + (uint64_t)o);
}

#define ST_WQ static __device__ __forceinline__
#define ST_WLD(p) __ldg(p)
#define ST_WUNROLL _Pragma("unroll")
/* plain loads: jwindow (and the patch functions) */
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_ldg_d
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_ldg_f
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
/* unstructured chains: unstr jwindow */
#define ST_WUNSTR
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_un_d
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_un_f
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
/* the same chains with the slots in the chain plan: unstr jwindow-plan.
   double: the plan holds slots, an address is a wide multiply-add with the
   element size taken from x->sy (a kernel argument); float: the plan holds
   byte offsets, an address is one 64-bit add (StPlanScale, BENCHMARKS.md) */
#define ST_WUGET(p) st_ldplan(p)
#define ST_WUSTRIDE 32
#define ST_WAT(x, p, o) st_wat(p, (uint32_t)(o), (uint32_t)(x)->sy)
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_uns_d
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#undef ST_WAT
#define ST_WAT(x, p, o) st_boff(p, (uint32_t)(o))
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_uns_f
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#undef ST_WUGET
#undef ST_WAT
#undef ST_WUSTRIDE
/* the compressed plan's prototype chains (jwindow-plan, compressed grids):
   the entries are byte offsets from the chain's base slot, read from the
   kernel's parameters, an address is one 64-bit add */
#define ST_WAT(x, p, o) st_boff(p, (uint32_t)(o))
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_unc_d
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_unc_f
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#undef ST_WAT
#undef ST_WUNSTR
/* shuffles: jwindow-shfl */
#define ST_WROW(x, q, nv, r) st_wrow_shfl((x)->in + (int64_t)(q) * (x)->sy, (x)->lane, (x)->xin, (x)->hin, nv, r)
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_shfl_d
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_shfl_f
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#undef ST_WROW
#undef ST_WQ
#undef ST_WLD
#undef ST_WUNROLL

/* Overloads by element type and loader. */
#define ST_WOVL(SUF, T)                                                                        \
  static __device__ __forceinline__ void st_wcol(const stencil_wcol_t_##SUF *x, int hdiff, int n) { \
    stencil_wcol_##SUF(hdiff, x, n);                                                           \
  }
ST_WOVL(ldg_d, double)
ST_WOVL(ldg_f, float)
ST_WOVL(shfl_d, double)
ST_WOVL(shfl_f, float)
ST_WOVL(un_d, double)
ST_WOVL(un_f, float)
ST_WOVL(uns_d, double)
ST_WOVL(uns_f, float)
ST_WOVL(unc_d, double)
ST_WOVL(unc_f, float)
#undef ST_WOVL
template <typename T, int SHFL> struct StWcol;
template <> struct StWcol<double, 0> { typedef stencil_wcol_t_ldg_d type; };
template <> struct StWcol<float, 0> { typedef stencil_wcol_t_ldg_f type; };
template <> struct StWcol<double, 1> { typedef stencil_wcol_t_shfl_d type; };
template <> struct StWcol<float, 1> { typedef stencil_wcol_t_shfl_f type; };
template <> struct StWcol<double, 2> { typedef stencil_wcol_t_un_d type; };
template <> struct StWcol<float, 2> { typedef stencil_wcol_t_un_f type; };
template <> struct StWcol<double, 3> { typedef stencil_wcol_t_uns_d type; };
template <> struct StWcol<float, 3> { typedef stencil_wcol_t_uns_f type; };
template <> struct StWcol<double, 4> { typedef stencil_wcol_t_unc_d type; };
template <> struct StWcol<float, 4> { typedef stencil_wcol_t_unc_f type; };

static __device__ __forceinline__ double st_patch_lap(int h, const double *sin, int t, int pv,
                                                      const double *g, const int32_t *off, double v[5]) {
  return stencil_patch_lap_ldg_d(h, sin, t, pv, g, off, v);
}
static __device__ __forceinline__ float st_patch_lap(int h, const float *sin, int t, int pv,
                                                     const float *g, const int32_t *off, float v[5]) {
  return stencil_patch_lap_ldg_f(h, sin, t, pv, g, off, v);
}
static __device__ __forceinline__ double st_patch_out(int h, const double *sin, const double *sL, int t,
                                                      int pv, const double *g, const int32_t *off,
                                                      const double v[5], double lc, double k) {
  return stencil_patch_out_ldg_d(h, sin, sL, t, pv, g, off, v, lc, k);
}
static __device__ __forceinline__ float st_patch_out(int h, const float *sin, const float *sL, int t,
                                                     int pv, const float *g, const int32_t *off,
                                                     const float v[5], float lc, float k) {
  return stencil_patch_out_ldg_f(h, sin, sL, t, pv, g, off, v, lc, k);
}

/* ------------------------------------------------------------ jwindow */
/* Block (bx, by, bz): thread (tx, ty, tz) computes the column x = lo0 +
 * bid.x*bx + tx at level z = z0 + bid.z*bz + tz, rows j0 = lo1 +
 * (bid.y*by + ty)*J .. j0+J-1 (fewer at the top). SHFL: bx is a multiple of
 * 32 (checked by stencil_cuda_cfg), so a warp is 32 consecutive x of one
 * (strip, z) and every exit below is taken by whole warps, except x >= hi0
 * inside the last warp of a row: those lanes stay for the shuffles. A full
 * strip runs the column function with the constant J (unrolled: the window
 * lives in registers); the partial top strip the same function with n < J. */
template <typename T, int HDIFF, int J, int SHFL>
__global__ void st_k_jwin(StK13<T, HDIFF> st, StGridReg g, int64_t z0, int64_t z1) {
  const int64_t x = g.lo0 + blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  const int64_t j0 = g.lo1 + (blockIdx.y * (int64_t)blockDim.y + threadIdx.y) * J;
  const int64_t z = z0 + blockIdx.z * (int64_t)blockDim.z + threadIdx.z;
  const int lane = (int)(threadIdx.x & 31u);
  if (j0 >= g.hi1 || z >= z1) return;
  if (SHFL ? x - lane >= g.hi0 : x >= g.hi0) return;
  const int64_t c = tsr_layout_rm_cell(&g.L, x, j0, z);
  typename StWcol<T, SHFL>::type col;
  col.in = st.in + c;
  col.coeff = HDIFF ? st.coeff + c : NULL;
  col.out = st.out + c;
  col.sy = g.L.sy;
  col.lane = lane;
  col.xin = x < g.hi0 + 2;
  col.hin = x + 32 < g.hi0 + 2;
  col.xout = x < g.hi0;
  if (j0 + J <= g.hi1) st_wcol(&col, HDIFF, J);
  else st_wcol(&col, HDIFF, (int)(g.hi1 - j0));
}

template <typename T, int HDIFF, int SHFL>
static int st_run_jwin_s(const StK13<T, HDIFF> &st, const StGridReg &g, const stencil_cfg_t *c) {
  switch (c->jpt) {
    case 2: return st_go(st_k_jwin<T, HDIFF, 2, SHFL>, c, st, g, c->z0, c->z1);
    case 4: return st_go(st_k_jwin<T, HDIFF, 4, SHFL>, c, st, g, c->z0, c->z1);
    case 8: return st_go(st_k_jwin<T, HDIFF, 8, SHFL>, c, st, g, c->z0, c->z1);
    case 16: return st_go(st_k_jwin<T, HDIFF, 16, SHFL>, c, st, g, c->z0, c->z1);
    default:
      return TSR_RAISE(TSR_ERR_ARG, "jwindow: %d rows per thread; compiled are 2, 4, 8 and 16", c->jpt);
  }
}

template <typename T, int HDIFF>
static int st_run_jwin(int strategy, const StK13<T, HDIFF> &st, const StGridReg &g,
                       const stencil_cfg_t *c) {
  if (strategy == STENCIL_CU_JWIN_SHFL) return st_run_jwin_s<T, HDIFF, 1>(st, g, c);
  return st_run_jwin_s<T, HDIFF, 0>(st, g, c);
}

/* ------------------------------------------------------------ unstr jwindow */
/* The chain of n rows from slot s0 (stencil_win.c's st_uchain, same walk):
 * u[5 (q + 2) + i] = slot of in(x-2+i) at row q; north by N, or NN from two
 * rows below when depth 2 is stored (half the dependent lookups). */
template <class G, int DEPTH>
static __device__ __forceinline__ void st_uchain(const G &g, int32_t s0, int n, int32_t *u) {
#define ST_NB(s, r) ((s) + g.rel(s, r))
#define ST_U(q, i) u[5 * ((q) + 2) + 2 + (i)]
  ST_U(0, 0) = s0;
  ST_U(-1, 0) = ST_NB(s0, TSR_NB_YM1);
  ST_U(-2, 0) = DEPTH >= 2 ? ST_NB(s0, TSR_NB_YM2) : ST_NB(ST_U(-1, 0), TSR_NB_YM1);
#pragma unroll
  for (int q = 1; q <= n + 1; q++)
    ST_U(q, 0) = DEPTH >= 2 && q >= 2 ? ST_NB(ST_U(q - 2, 0), TSR_NB_YP2) : ST_NB(ST_U(q - 1, 0), TSR_NB_YP1);
#pragma unroll
  for (int q = -2; q <= n + 1; q++) {
    const int32_t r = ST_U(q, 0);
    ST_U(q, -2) = ST_U(q, -1) = ST_U(q, 1) = ST_U(q, 2) = r;
    if (q < -1 || q > n) continue;
    ST_U(q, -1) = ST_NB(r, TSR_NB_XM1);
    ST_U(q, 1) = ST_NB(r, TSR_NB_XP1);
    if (q < 0 || q >= n) continue;
    ST_U(q, -2) = DEPTH >= 2 ? ST_NB(r, TSR_NB_XM2) : ST_NB(ST_U(q, -1), TSR_NB_XM1);
    ST_U(q, 2) = DEPTH >= 2 ? ST_NB(r, TSR_NB_XP2) : ST_NB(ST_U(q, 1), TSR_NB_XP1);
  }
#undef ST_U
#undef ST_NB
}

/* The window of one unstructured chain of n <= J rows (slots at u, read as
 * the column type W says) over levels [za, zb) of level stride zs; n = J
 * runs the unrolled column. REFRESH: the slots are read again at every
 * level (u moved by z times zero, a kernel argument that is 0 at run time),
 * so the compiler cannot keep them in registers across levels. */
template <typename T, int HDIFF, int J, class W, int REFRESH = 0>
static __device__ __forceinline__ void st_uwin_levels(const StK13<T, HDIFF> &st, const int32_t *u,
                                                      int64_t zs, int n, int64_t za, int64_t zb,
                                                      int64_t sy = 0, int32_t zero = 0) {
  W col;
  col.sy = sy, col.lane = 0, col.xin = 1, col.hin = 1, col.xout = 1;
  col.u = u;
  for (int64_t z = za; z < zb; z++) {
    const int64_t c = z * zs;
    if (REFRESH) col.u = u + (int32_t)z * zero;
    col.in = st.in + c;
    col.coeff = HDIFF ? st.coeff + c : NULL;
    col.out = st.out + c;
    if (n == J) st_wcol(&col, HDIFF, J);
    else st_wcol(&col, HDIFF, n);
  }
}

/* One chain of n rows (n = J: unrolled, the slots in registers), levels
 * [za, zb): the lookups once, the window per level. */
template <typename T, int HDIFF, int J, class G, int DEPTH>
static __device__ __forceinline__ void st_uwin_chain(const StK13<T, HDIFF> &st, const G &g,
                                                     int32_t s0, int n, int64_t za, int64_t zb) {
  int32_t u[5 * (J + 4)];
  st_uchain<G, DEPTH>(g, s0, n, u);
  st_uwin_levels<T, HDIFF, J, typename StWcol<T, 2>::type>(st, u, g.zs, n, za, zb);
}

/* Thread (tx, ty, tz) of block (bid.x, 1, bid.z): chain t = bid.x*bx*by +
 * ty*bx + tx (column t mod ncol, rows from (t / ncol) J: consecutive
 * threads take east-adjacent chains), levels [za, za + kpt) with za = z0 +
 * (bid.z*bz + tz)*kpt. col: the updated slots row by row (device). */
template <typename T, int HDIFF, int J, class G, int DEPTH>
__global__ void st_k_uwin(StK13<T, HDIFF> st, G g, const int32_t *__restrict__ col, int64_t ncol,
                          int64_t nrow, int64_t z0, int64_t z1, int kpt) {
  const int64_t t = ((int64_t)blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const int64_t b = t / ncol, i = t - b * ncol, p = b * J;
  const int64_t za = z0 + ((int64_t)blockIdx.z * blockDim.z + threadIdx.z) * kpt;
  const int64_t zb = za + kpt < z1 ? za + kpt : z1;
  if (p >= nrow || za >= z1) return;
  const int32_t s0 = __ldg(col + p * ncol + i);
  if (p + J <= nrow) st_uwin_chain<T, HDIFF, J, G, DEPTH>(st, g, s0, J, za, zb);
  else st_uwin_chain<T, HDIFF, J, G, DEPTH>(st, g, s0, (int)(nrow - p), za, zb);
}

/* The device copy of g->col (one per translation unit, refreshed when the
 * host array changes; stencil_cuda_uwin_forget before a new grid). */
static int32_t *stencil_ucol_dev = NULL;
static const int32_t *stencil_ucol_last = NULL;
static int64_t stencil_ucol_n = 0;
static int stencil_uplan_j = 0; /* jpt of the device chain plan (jwindow-plan); 0: none */
static int64_t stencil_usplit[2] = {0, 0}; /* blocks of the last jwindow-proto launch through
                                              the prototype and the plan */
static inline void stencil_cuda_uwin_forget(void) {
  stencil_ucol_last = NULL;
  stencil_usplit[0] = stencil_usplit[1] = 0;
  stencil_uplan_j = 0;
}
static inline int stencil_cuda_uwin_upload(const stencil_grid_t *g) {
  const int64_t n = g->ncol * g->nrow;
  if (g->col == stencil_ucol_last && n <= stencil_ucol_n) return TSR_SUCCESS;
  if (n > stencil_ucol_n) {
    if (stencil_ucol_dev) TSR_CALL_CUDA(cudaFree(stencil_ucol_dev));
    stencil_ucol_dev = NULL, stencil_ucol_n = 0;
    TSR_CALL_CUDA(cudaMalloc((void **)&stencil_ucol_dev, (size_t)n * sizeof(int32_t)));
    stencil_ucol_n = n;
  }
  TSR_CALL_CUDA(cudaMemcpy(stencil_ucol_dev, g->col, (size_t)n * sizeof(int32_t), cudaMemcpyHostToDevice));
  stencil_ucol_last = g->col;
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ jwindow-plan */
/* The chain plan (stencil.h, "chain plans"): entry k of plan chain t at
 * st_uplan_base<J>(t) + 32 k, plan chain t = strip * st_uplan_ncolp(ncol) +
 * column. */
template <int J>
static __host__ __device__ __forceinline__ int64_t st_uplan_base(int64_t t) {
  return stencil_uplan_base(t, J);
}
static __host__ __device__ __forceinline__ int64_t st_uplan_ncolp(int64_t ncol) {
  return stencil_uplan_ncolp(ncol);
}
/* Rows of the chain whose first row is p (the last strip may be short). */
static __device__ __forceinline__ int st_uchain_rows(int64_t p, int64_t nrow, int J) {
  return nrow - p < J ? (int)(nrow - p) : J;
}

/* Build the plan: thread t walks chain t (column t mod ncol, strip t /
 * ncol: st_uchain, the lookups of cuda/unstr/jwindow) once. */
template <int J, class G, int DEPTH>
__global__ void st_k_uplan(G g, const int32_t *__restrict__ col, int64_t ncol, int64_t nrow,
                           int64_t nchain, int32_t *__restrict__ plan, uint32_t scale) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nchain) return;
  const int64_t s = t / ncol, i = t - s * ncol, p = s * J;
  int32_t u[5 * (J + 4)];
  st_uchain<G, DEPTH>(g, __ldg(col + p * ncol + i), st_uchain_rows(p, nrow, J), u);
  int32_t *const o = plan + st_uplan_base<J>(s * st_uplan_ncolp(ncol) + i);
  for (int k = 0; k < 5 * (J + 4); k++) o[k * 32] = (int32_t)((uint32_t)u[k] * scale);
}

/* Thread (tx, ty, tz) of block (bid.x, bid.y, bid.z): the chain of column
 * c = bid.x*bx + tx and strip s = bid.y*by + ty (rows s*J .. s*J+J-1: a
 * block of by > 1 takes neighbouring strips, whose shared rows then come
 * from L1, as the regular window's blocks), levels [za, za + kpt), za = z0
 * + bid.z*kpt (block z is 1); the slots from the plan (st_ldplan), the
 * window as jwindow's. No lookups. */
template <typename T, int HDIFF, int J>
__global__ void st_k_uwinp(StK13<T, HDIFF> st, const int32_t *__restrict__ plan, int64_t ncol,
                           int64_t nrow, int64_t zs, int64_t z0, int64_t z1, int kpt, uint32_t esz) {
  const int64_t c = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t s = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (c >= ncol || s * J >= nrow) return;
  /* Block z is 1 (stencil_cuda_cfg), so za is the same in the whole block.
     float: written so (from blockIdx only), the level's base addresses go to
     uniform registers; double: through threadIdx.z (0), which keeps them in
     ordinary registers: measured 4 % faster in float and 10 % slower in
     double than the other way (docs/STENCIL.md, Design alternatives). */
  const int64_t za = sizeof(T) == 4 ? z0 + (int64_t)blockIdx.z * kpt
                                    : z0 + ((int64_t)blockIdx.z * blockDim.z + threadIdx.z) * kpt;
  const int64_t zb = za + kpt < z1 ? za + kpt : z1;
  if (za >= z1) return;
  st_uwin_levels<T, HDIFF, J, typename StWcol<T, 3>::type>(
      st, plan + st_uplan_base<J>(s * st_uplan_ncolp(ncol) + c), zs, st_uchain_rows(s * J, nrow, J), za,
      zb, esz);
}

/* The compressed plan's prototype (stencil_uproto_t): its entries as byte
 * offsets from the chain's base slot (col + rmin), passed by value: the
 * kernel reads them as constant-bank operands, the same for every thread. */
template <int J> struct StUProto {
  int32_t o[5 * (J + 4)];
  int32_t rmin;
  /* the rectangle of matching chains (stencil_uproto_rect): columns c0 ..
     c1-1, strips s0 .. s1-1, nbx blocks per row of it; its row-0 slots
     a[0] + a[1] c + a[2] s (stencil_uproto_affine) */
  int64_t c0, c1, s0, s1, nbx, a[3];
};

/* What the plan holds: slots (double: the window multiplies them by the
 * element size, one wide multiply-add per address) or byte offsets (float:
 * one 64-bit add; measured faster in float, slower in double: BENCHMARKS.md). */
template <typename T> struct StPlanScale { static const uint32_t v = 1; };
template <> struct StPlanScale<float> { static const uint32_t v = (uint32_t)sizeof(float); };

/* jwindow-proto, one launch: blocks [0, nlb) take the listed chains
 * (thread i of block b: list[b bx by + i]), the others the rectangle of
 * matching chains as a grid of bx columns x by strips (nbx blocks per row),
 * all at levels [za, za + kpt), za = z0 + bid.z*kpt. The rectangle's chains
 * are computed through the prototype: their slots are their row-0 slot
 * (affine in column and strip) + rmin plus the
 * prototype's byte offsets, which the kernel receives by value and reads as
 * constant-bank operands (no plan reads, no slot registers). The listed
 * chains read their slots from the plan as st_k_uwinp, but again at every
 * level (REFRESH), so that this path needs no more registers than the
 * first (64 in double at J = 4, as the regular window). */
template <typename T, int HDIFF, int J>
__global__ void st_k_uwinm(StK13<T, HDIFF> st, const __grid_constant__ StUProto<J> pr,
                           const int32_t *__restrict__ plan, int64_t ncol, int64_t nrow, int64_t zs,
                           int64_t z0, int64_t z1, int kpt, const int32_t *__restrict__ list, int64_t nlist,
                           int64_t nlb, uint32_t esz, int32_t zero) {
  const int64_t bid = blockIdx.x;
  int64_t c, s;
  if (bid < nlb) {
    const int64_t i = bid * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
    if (i >= nlist) return;
    const int64_t ch = __ldg(list + i);
    s = ch / ncol, c = ch - s * ncol;
  } else {
    const int64_t q = (bid - nlb) / pr.nbx;
    c = pr.c0 + (bid - nlb - q * pr.nbx) * blockDim.x + threadIdx.x;
    s = pr.s0 + q * blockDim.y + threadIdx.y;
    if (c >= pr.c1 || s >= pr.s1) return;
  }
  const int64_t za = z0 + (int64_t)blockIdx.z * kpt;
  const int64_t zb = za + kpt < z1 ? za + kpt : z1;
  if (za >= z1) return;
  const int n = st_uchain_rows(s * J, nrow, J);
  if (bid >= nlb) {
    const int64_t b = pr.a[0] + pr.a[1] * c + pr.a[2] * s + pr.rmin; /* the chain's base slot */
    StK13<T, HDIFF> sb = st;
    sb.in += b, sb.out += b;
    if (HDIFF) sb.coeff += b;
    st_uwin_levels<T, HDIFF, J, typename StWcol<T, 4>::type>(sb, pr.o, zs, n, za, zb);
  } else {
    st_uwin_levels<T, HDIFF, J, typename StWcol<T, 3>::type, 1>(
        st, plan + st_uplan_base<J>(s * st_uplan_ncolp(ncol) + c), zs, n, za, zb, esz, zero);
  }
}

/* The device plan (one per translation unit): built at the first launch for
 * a grid and jpt (stencil_cuda_uwin_forget before a new grid), kept while
 * they stay. */
static int32_t *stencil_uplan_dev = NULL;
static size_t stencil_uplan_cap = 0;
/* jwindow-proto: the plan's prototype, the rectangle of matching chains
   and the list of the others (stencil_uproto_ok: found for the plan now
   built) */
static int stencil_uproto_ok = 0;
static stencil_uproto_t stencil_uproto;
static int stencil_uproto_use = 0;                     /* found, and its offsets fit 32 bits */
static int32_t stencil_uproto_o[STENCIL_UPLAN_MAXK]; /* its entries in bytes (stencil_uproto_bytes) */
static int32_t *stencil_ulist_dev = NULL; /* the chains outside the rectangle */
static int64_t stencil_ulist_n = 0;
static int64_t stencil_urect[4]; /* stencil_uproto_split */
static int64_t stencil_uaff[3];  /* its row-0 slots (stencil_uproto_affine) */
static const void *stencil_uplan_key[3] = {NULL, NULL, NULL};
static uint32_t stencil_uplan_scale = 0;
template <int J, class G, int DEPTH>
static int st_uplan_build(const G &gu, const stencil_grid_t *g, uint32_t scale) {
  if (stencil_uplan_j == J && stencil_uplan_key[0] == g->col && stencil_uplan_key[1] == g->tab &&
      stencil_uplan_key[2] == g->proto && stencil_uplan_scale == scale)
    return TSR_SUCCESS;
  const int64_t nstrip = (g->nrow + J - 1) / J, nchain = g->ncol * nstrip;
  const size_t need = (size_t)st_uplan_base<J>(nstrip * st_uplan_ncolp(g->ncol)) * sizeof(int32_t);
  if (need > stencil_uplan_cap) {
    if (stencil_uplan_dev) TSR_CALL_CUDA(cudaFree(stencil_uplan_dev));
    stencil_uplan_dev = NULL, stencil_uplan_cap = 0;
    TSR_CALL_CUDA(cudaMalloc((void **)&stencil_uplan_dev, need));
    stencil_uplan_cap = need;
  }
  st_k_uplan<J, G, DEPTH><<<(unsigned)((nchain + 255) / 256), 256>>>(
      gu, (const int32_t *)stencil_ucol_dev, g->ncol, g->nrow, nchain, stencil_uplan_dev, scale);
  TSR_CHECK_LAUNCH("chain plan build");
  stencil_uplan_j = J, stencil_uplan_scale = scale;
  stencil_uproto_ok = 0;
  stencil_uplan_key[0] = g->col, stencil_uplan_key[1] = g->tab, stencil_uplan_key[2] = g->proto;
  return TSR_SUCCESS;
}

/* The prototype of the plan now built (once per plan; jwindow-proto): the
 * plan to the host, stencil_uproto_find. */
static inline int st_uproto_prepare(const stencil_grid_t *g, int J, uint32_t scale, int esz) {
  if (stencil_uproto_ok) return TSR_SUCCESS;
  const int64_t nstrip = (g->nrow + J - 1) / J, ncolp = st_uplan_ncolp(g->ncol);
  const size_t ne = (size_t)stencil_uplan_base(nstrip * ncolp, J);
  const int64_t nchain = nstrip * g->ncol;
  uint8_t *wt = (uint8_t *)malloc((size_t)nchain + 1);
  int32_t *h = (int32_t *)malloc(ne * sizeof(int32_t));
  int rc = wt && h ? TSR_SUCCESS
                   : TSR_RAISE(TSR_ERR_ALLOC, "chain prototype: no memory for a plan of %zu entries", ne);
  if (rc == TSR_SUCCESS) {
    const cudaError_t e =
        tsr_cuda_fault(cudaMemcpy(h, stencil_uplan_dev, ne * sizeof(int32_t), cudaMemcpyDeviceToHost));
    if (e != cudaSuccess)
      rc = TSR_RAISE(TSR_ERR_CUDA, "chain prototype: plan to the host: %s", cudaGetErrorString(e));
  }
  if (rc == TSR_SUCCESS) rc = stencil_uproto_find(h, scale, g->ncol, g->nrow, J, &stencil_uproto, wt);
  free(h);
  if (rc != TSR_SUCCESS) free(wt);
  TSR_CALL(rc);
  stencil_uproto_use = stencil_uproto.found;
  if (stencil_uproto_use && stencil_uproto_bytes(&stencil_uproto, esz, stencil_uproto_o) != TSR_SUCCESS)
    tsr_error_clear(), stencil_uproto_use = 0; /* offsets beyond 32 bits: the plan kernel alone */
  /* the rectangle of matching chains, the list of the others (device) */
  if (stencil_uproto_use) {
    int32_t *list = (int32_t *)malloc((size_t)nchain * sizeof(int32_t) + 1);
    int64_t nl = 0;
    rc = list ? stencil_uproto_split(wt, g->col, g->ncol, nstrip, J, stencil_urect, stencil_uaff, list, &nl)
              : TSR_RAISE(TSR_ERR_ALLOC, "chain prototype: no memory for %lld chains", (long long)nchain);
    if (rc == TSR_SUCCESS && nl) {
      if (stencil_ulist_dev) cudaFree(stencil_ulist_dev);
      stencil_ulist_dev = NULL;
      cudaError_t e2 = tsr_cuda_fault(cudaMalloc((void **)&stencil_ulist_dev, (size_t)nl * sizeof(int32_t)));
      if (e2 == cudaSuccess)
        e2 = tsr_cuda_fault(
            cudaMemcpy(stencil_ulist_dev, list, (size_t)nl * sizeof(int32_t), cudaMemcpyHostToDevice));
      if (e2 != cudaSuccess) rc = TSR_RAISE(TSR_ERR_CUDA, "chain prototype list: %s", cudaGetErrorString(e2));
    }
    free(list);
    if (rc != TSR_SUCCESS) free(wt);
    TSR_CALL(rc);
    stencil_ulist_n = nl;
  }
  free(wt);
  stencil_uproto_ok = 1;
  return TSR_SUCCESS;
}

/* jwindow-proto: one launch of st_k_uwinm (st_k_uwinp when the plan has no
 * prototype). */
template <typename T, int HDIFF, int J>
static int st_run_uwinc(const StK13<T, HDIFF> &st, const stencil_grid_t *g, const stencil_cfg_t *l) {
  const int32_t *plan = (const int32_t *)stencil_uplan_dev;
  StUProto<J> pr;
  memset(&pr, 0, sizeof pr);
  if (l->attr) { /* the tighter of the two kernels this may launch */
    stencil_kattr_t a;
    TSR_CALL(st_go(st_k_uwinp<T, HDIFF, J>, l, st, plan, g->ncol, g->nrow, g->zs, l->z0, l->z1, l->kpt,
                   (uint32_t)sizeof(T)));
    a = *l->attr;
    TSR_CALL(st_go(st_k_uwinm<T, HDIFF, J>, l, st, pr, plan, g->ncol, g->nrow, g->zs, l->z0, l->z1, l->kpt,
                   (const int32_t *)NULL, (int64_t)0, (int64_t)0, (uint32_t)sizeof(T), 0));
    stencil_kattr_t *b = l->attr;
    b->max_threads = a.max_threads < b->max_threads ? a.max_threads : b->max_threads;
    b->regs = a.regs > b->regs ? a.regs : b->regs;
    b->local_bytes = a.local_bytes > b->local_bytes ? a.local_bytes : b->local_bytes;
    b->smem_max = a.smem_max < b->smem_max ? a.smem_max : b->smem_max;
    return TSR_SUCCESS;
  }
  TSR_CALL(st_uproto_prepare(g, J, StPlanScale<T>::v, (int)sizeof(T)));
  if (!stencil_uproto_use) {
    stencil_usplit[0] = 0, stencil_usplit[1] = (int64_t)l->grid[0] * l->grid[1] * l->grid[2];
    return st_go(st_k_uwinp<T, HDIFF, J>, l, st, plan, g->ncol, g->nrow, g->zs, l->z0, l->z1, l->kpt,
                 (uint32_t)sizeof(T));
  }
  memcpy(pr.o, stencil_uproto_o, sizeof pr.o);
  pr.rmin = stencil_uproto.rmin;
  const int64_t bx = l->block[0], by = l->block[1];
  pr.c0 = stencil_urect[0], pr.c1 = stencil_urect[1], pr.s0 = stencil_urect[2], pr.s1 = stencil_urect[3];
  pr.nbx = (pr.c1 - pr.c0 + bx - 1) / bx;
  memcpy(pr.a, stencil_uaff, sizeof pr.a);
  const int64_t nlb = (stencil_ulist_n + bx * by - 1) / (bx * by);
  const int64_t nrb = pr.nbx * ((pr.s1 - pr.s0 + by - 1) / by);
  TSR_CHECK(nlb + nrb <= INT32_MAX, TSR_ERR_ARG, "jwindow-proto: %lld blocks", (long long)(nlb + nrb));
  stencil_usplit[0] = nrb * l->grid[2], stencil_usplit[1] = nlb * l->grid[2];
  stencil_cfg_t a = *l;
  a.grid[0] = (unsigned)(nlb + nrb), a.grid[1] = 1;
  return st_go(st_k_uwinm<T, HDIFF, J>, &a, st, pr, plan, g->ncol, g->nrow, g->zs, l->z0, l->z1, l->kpt,
               (const int32_t *)stencil_ulist_dev, stencil_ulist_n, nlb, (uint32_t)sizeof(T), 0);
}

template <typename T, int HDIFF, int J>
static int st_run_uwin_j(int strategy, const StK13<T, HDIFF> &st, const stencil_grid_t *g,
                         const stencil_cfg_t *l) {
  if (!l->attr) TSR_CALL(stencil_cuda_uwin_upload(g));
  TSR_CHECK(!stencil_cuda_uses_plan(strategy) || (uint64_t)g->zs * StPlanScale<T>::v <= UINT32_MAX,
            TSR_ERR_UNSUPPORTED, "jwindow-plan: %lld slots per level are too many for 32-bit plan entries",
            (long long)g->zs);
#define ST_UWN(C, D)                                                                        \
  do {                                                                                      \
    StGridUn<C, D> gu;                                                                      \
    gu.tab = g->tab, gu.proto = g->proto, gu.np = g->np, gu.lo0 = g->lo[0], gu.hi0 = g->hi[0]; \
    gu.zs = g->zs, gu.nrel = g->nrel;                                                       \
    if (stencil_cuda_uses_plan(strategy)) {                                                 \
      if (!l->attr) TSR_CALL((st_uplan_build<J, StGridUn<C, D>, D>(gu, g, StPlanScale<T>::v))); \
      if (strategy == STENCIL_CU_JWIN_PROTO) return st_run_uwinc<T, HDIFF, J>(st, g, l);    \
      return st_go(st_k_uwinp<T, HDIFF, J>, l, st, (const int32_t *)stencil_uplan_dev,      \
                   g->ncol, g->nrow, g->zs, l->z0, l->z1, l->kpt, (uint32_t)sizeof(T));       \
    }                                                                                       \
    return st_go(st_k_uwin<T, HDIFF, J, StGridUn<C, D>, D>, l, st, gu,                      \
                 (const int32_t *)stencil_ucol_dev, g->ncol, g->nrow, l->z0, l->z1, l->kpt); \
  } while (0)
  if (g->depth >= 2) {
    if (g->comp) ST_UWN(1, 2);
    ST_UWN(0, 2);
  }
  if (g->comp) ST_UWN(1, 1);
  ST_UWN(0, 1);
#undef ST_UWN
}

template <typename T, int HDIFF>
static int st_run_uwin(int strategy, const StK13<T, HDIFF> &st, const stencil_grid_t *g,
                       const stencil_cfg_t *c) {
  TSR_CHECK(g->col, TSR_ERR_UNSUPPORTED,
            "unstructured jwindow: the updated slots are not a rectangle of the relations "
            "(stencil_grid_t.col is NULL)");
  if (g->comp && !c->attr) TSR_CALL(stencil_cuda_dict_upload(g));
  switch (c->jpt) {
    case 2: return st_run_uwin_j<T, HDIFF, 2>(strategy, st, g, c);
    case 4: return st_run_uwin_j<T, HDIFF, 4>(strategy, st, g, c);
    case 8: return st_run_uwin_j<T, HDIFF, 8>(strategy, st, g, c);
    case 16: return st_run_uwin_j<T, HDIFF, 16>(strategy, st, g, c);
    default:
      return TSR_RAISE(TSR_ERR_ARG, "jwindow: %d rows per thread; compiled are 2, 4, 8 and 16", c->jpt);
  }
}

/* ------------------------------------------------------------ patch-kloop */
/* Block (bx, by, 1) = P threads, thread t = ty*bx + tx owns slot s0 + t,
 * s0 = lo0 + bid.x*P; levels [za, za + kpt), za = z0 + bid.z*kpt. Shared
 * memory: two buffers of [sin | sL] (P elements each). Threads past the
 * last slot take part in the barriers only. The next level's in(s) is
 * loaded while this level is computed. */
template <typename T, int HDIFF, class G>
__device__ __forceinline__ void st_patch_body(const StK13<T, HDIFF> &st, const G &g, int64_t z0,
                                              int64_t z1, int kpt) {
  extern __shared__ unsigned char st_patch_raw[];
  T *const sh = reinterpret_cast<T *>(st_patch_raw);
  const int P = (int)(blockDim.x * blockDim.y), t = (int)(threadIdx.y * blockDim.x + threadIdx.x);
  const int64_t s0 = g.lo0 + (int64_t)blockIdx.x * P, s = s0 + t;
  const int pv = (int)(g.hi0 - s0 < P ? g.hi0 - s0 : P);
  const bool ok = t < pv;
  const int64_t za = z0 + (int64_t)blockIdx.z * kpt, zb = za + kpt < z1 ? za + kpt : z1;
  int32_t off[STENCIL_NP13];
#pragma unroll
  for (int p = 0; p < STENCIL_NP13; p++) off[p] = ok ? g.off13(s, p) : 0;
  T cur = ok && za < zb ? __ldg(st.in + s + za * g.zs) : (T)0;
  for (int64_t z = za; z < zb; z++) {
    T *const sin = sh + (size_t)((z - za) & 1) * 2 * P, *const sL = sin + P;
    const int64_t c = s + z * g.zs;
    if (ok) sin[t] = cur;
    __syncthreads();
    T v[5], lc = (T)0, k = (T)0;
    if (ok) {
      if (z + 1 < zb) cur = __ldg(st.in + c + g.zs);
      if (HDIFF) k = __ldg(st.coeff + c);
      lc = st_patch_lap(HDIFF, sin, t, pv, st.in + c, off, v);
      sL[t] = lc;
    }
    __syncthreads();
    if (ok) st.out[c] = st_patch_out(HDIFF, sin, sL, t, pv, st.in + c, off, v, lc, k);
  }
}
/* Blocks of up to STENCIL_CU_BIG_BLOCK threads run the unbounded kernel;
 * larger ones the same body compiled for 1024 threads (<= 64 registers:
 * ptxas spills 44 bytes in double there). */
template <typename T, int HDIFF, class G>
__global__ void st_k_patch(StK13<T, HDIFF> st, G g, int64_t z0, int64_t z1, int kpt) {
  st_patch_body(st, g, z0, z1, kpt);
}
template <typename T, int HDIFF, class G>
__global__ void __launch_bounds__(1024) st_k_patch_lb(StK13<T, HDIFF> st, G g, int64_t z0, int64_t z1,
                                                      int kpt) {
  st_patch_body(st, g, z0, z1, kpt);
}

template <typename T, int HDIFF>
static int st_run_patch(const StK13<T, HDIFF> &st, const stencil_grid_t *g, const stencil_cfg_t *l) {
  TSR_CHECK(g->kind == STENCIL_GRID_UNSTR, TSR_ERR_UNSUPPORTED,
            "patch-kloop runs on unstructured grids only");
  if (g->comp && !l->attr) TSR_CALL(stencil_cuda_dict_upload(g));
#define ST_UNP(C, D)                                                                        \
  do {                                                                                      \
    StGridUn<C, D> gu;                                                                      \
    gu.tab = g->tab, gu.proto = g->proto, gu.np = g->np, gu.lo0 = g->lo[0], gu.hi0 = g->hi[0]; \
    gu.zs = g->zs, gu.nrel = g->nrel;                                                       \
    if (l->block[0] * l->block[1] * l->block[2] > STENCIL_CU_BIG_BLOCK)                      \
      return st_go(st_k_patch_lb<T, HDIFF, StGridUn<C, D> >, l, st, gu, l->z0, l->z1, l->kpt); \
    return st_go(st_k_patch<T, HDIFF, StGridUn<C, D> >, l, st, gu, l->z0, l->z1, l->kpt);  \
  } while (0)
  if (g->depth >= 2) {
    if (g->comp) ST_UNP(1, 2);
    ST_UNP(0, 2);
  }
  if (g->comp) ST_UNP(1, 1);
  ST_UNP(0, 1);
#undef ST_UNP
}

#endif
