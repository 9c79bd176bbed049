/* kernels/stencil/stencil_cuda_tb.cu: temporal blocking of laplap and hdiff
 * on the GPU, on regular and unstructured grids (stencil_tb.h has the
 * scheme): a warp per (level, tile of 32 xpt - 4 n columns, strip of rows),
 * the 2 n stages of n steps as a pipeline along y with each stage's last
 * rows in registers, x neighbours by shuffles. stencil_tb_cpu.inc is the
 * same pipeline on the host. */
#include "config.h"
#include "kernels/stencil/stencil_tb.h"
#include "tessera/cuda.h"
#include "tessera/error.h"

/* The point functions of stencil_arith.inc by element type. */
template <typename T> struct TbOps;
template <> struct TbOps<double> {
  static __device__ __forceinline__ double lap(double c, double w, double e, double s, double n) {
    return stencil_lap_d(c, w, e, s, n);
  }
  static __device__ __forceinline__ double lap_h(double c, double w, double e, double s, double n) {
    return stencil_lap_h_d(c, w, e, s, n);
  }
  static __device__ __forceinline__ double flux(double a, double b, double c, double d) {
    return stencil_hdiff_flux_d(a, b, c, d);
  }
  static __device__ __forceinline__ double upd(double c, double k, double a, double b, double d, double e) {
    return stencil_hdiff_out_d(c, k, a, b, d, e);
  }
};
template <> struct TbOps<float> {
  static __device__ __forceinline__ float lap(float c, float w, float e, float s, float n) {
    return stencil_lap_f(c, w, e, s, n);
  }
  static __device__ __forceinline__ float lap_h(float c, float w, float e, float s, float n) {
    return stencil_lap_h_f(c, w, e, s, n);
  }
  static __device__ __forceinline__ float flux(float a, float b, float c, float d) {
    return stencil_hdiff_flux_f(a, b, c, d);
  }
  static __device__ __forceinline__ float upd(float c, float k, float a, float b, float d, float e) {
    return stencil_hdiff_out_f(c, k, a, b, d, e);
  }
};

/* Input rows a warp loads ahead of their use. Deeper queues (2, 4 and 8
 * rows, and hdiff's coefficient rows with them) measured no faster: the
 * kernel is bound by its instruction issue and the latency of its serial
 * stage chain, not by loads in flight (docs/STENCIL.md, design
 * alternatives). */
#define STENCIL_TB_PREFETCH 1

/* How far ahead of the row it computes from a warp asks L2 for its input
 * row (and hdiff's coefficient row): one prefetch.global.L2 per lane and
 * row, so that the load one row ahead finds the row in L2 instead of
 * waiting on DRAM, for one instruction and no register. 4 measured best
 * of 2, 3, 4 and 6 (H100, docs/STENCIL.md). */
#define STENCIL_TB_L2AHEAD 4

__device__ __forceinline__ void tb_prefetch_l2(const void *p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }

/* The grid as the kernel needs it: cell = base + x + y sy + z sz (an
 * unstructured grid: its map's affine rectangle, base = a0, sz the level
 * stride); map: an unstructured grid's slot of position (x, y) at
 * map[x + d0 y] (-1: none), cell = slot + z sz. fast: the box (x lo, x hi,
 * y lo, y hi) in which a warp's window needs no bounds test, boundary value
 * or map (the array and live region; the map's affine rectangle; empty). */
struct StTbGeo {
  int64_t base, sy, sz, d0, d1;
  int64_t lo0, hi0, lo1, hi1, lo2;
  int64_t live[4]; /* x lo, x hi, y lo, y hi */
  int64_t fast[4];
  int64_t rows;
  const int32_t *map;
};

/* West and east neighbours of a lane's XPT points (whole warp). */
template <typename T, int XPT>
__device__ __forceinline__ void tb_nbrs(const T (&c)[XPT], T (&w)[XPT], T (&e)[XPT]) {
  const T up = __shfl_up_sync(0xffffffffu, c[XPT - 1], 1);
  const T dn = __shfl_down_sync(0xffffffffu, c[0], 1);
#pragma unroll
  for (int j = 0; j < XPT; j++) {
    w[j] = j > 0 ? c[j > 0 ? j - 1 : 0] : up;
    e[j] = j < XPT - 1 ? c[j < XPT - 1 ? j + 1 : 0] : dn;
  }
}

/* Row window of a stage: [D-1] the newest row. */
template <typename T, int D, int XPT>
__device__ __forceinline__ void tb_push(T (&w)[D][XPT], const T (&v)[XPT]) {
#pragma unroll
  for (int d = 0; d < D - 1; d++)
#pragma unroll
    for (int j = 0; j < XPT; j++) w[d][j] = w[d + 1][j];
#pragma unroll
  for (int j = 0; j < XPT; j++) w[D - 1][j] = v[j];
}

/* One warp's strip (rows y0 .. y1 - 1 of its tile, columns from x0 at lane
 * 0). FAST: the warp's whole window (its W columns, rows y0 - 2K - NS ..
 * y1 + 2K + PF) lies inside the array and inside the live region, so no
 * row or column needs a bounds test, a boundary value or a zero: the
 * interior warps, nearly all of them, run that copy of the loop. MAP (an
 * unstructured grid) and not FAST (VIA): the cells of an affine rectangle
 * at their regular addresses, the ring's (and on other grids every cell)
 * through the slot map (zl: the level's first cell). PF: input
 * rows (and hdiff's coefficient rows) loaded ahead of their use. The row
 * loop is unrolled by the window depth, so that the windows and the
 * prefetch queue rotate by renaming registers instead of moving them. */
template <typename T, int HDIFF, int K, int XPT, int PF, bool FAST, bool MAP>
__device__ __forceinline__ void tb_strip(const T *__restrict__ in, const T *__restrict__ coeff, T *__restrict__ out,
                                         const StTbGeo &g, int64_t y0, int64_t y1, int64_t zc, int64_t zl,
                                         int64_t x0, const bool (&xin)[XPT], const bool (&xreg)[XPT],
                                         const bool (&xout)[XPT]) {
  constexpr bool VIA = MAP && !FAST; /* addresses through the map */
  constexpr int NS = 2 * K, D = HDIFF ? 4 : 3;
  constexpr int NK = HDIFF ? NS + PF + 1 : 1; /* coefficient rows r - NS .. r + PF */
  typedef TbOps<T> O;
  T w[NS][D][XPT];
#pragma unroll
  for (int s = 0; s < NS; s++)
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
      for (int j = 0; j < XPT; j++) w[s][d][j] = (T)0;
  const int64_t rend = y1 + 2 * K; /* input rows y0 - 2K .. rend - 1 */
  /* element of row r, point j through the map (r inside the array), -1: none */
  auto slot = [&](int64_t r, int j) -> int64_t {
    const int32_t m = __ldg(g.map + r * g.d0 + x0 + j);
    return m >= 0 ? zl + m : -1;
  };
  /* an affine rectangle (a grid stored row by row): its cells (the live
     region of an unstructured grid) have the regular addresses, only the
     ring's are read through the map */
  const bool aff = MAP && g.fast[1] > g.fast[0];
  /* a: the row's first point (regular addressing); u: the array (VIA) */
  auto load = [&](const T *__restrict__ a, const T *__restrict__ u, int64_t r, T(&v)[XPT]) {
    if (FAST) {
#pragma unroll
      for (int j = 0; j < XPT; j++) v[j] = __ldg(a + j);
    } else if (VIA) {
      const bool yin = r >= 0 && r < g.d1 && r < rend, yrect = aff && r >= g.live[2] && r < g.live[3];
#pragma unroll
      for (int j = 0; j < XPT; j++) {
        if (yrect && xreg[j]) {
          v[j] = __ldg(a + j);
        } else {
          const int64_t c = yin && xin[j] ? slot(r, j) : -1;
          v[j] = c >= 0 ? __ldg(u + c) : (T)0;
        }
      }
    } else {
      const bool yin = r >= 0 && r < g.d1 && r < rend;
#pragma unroll
      for (int j = 0; j < XPT; j++) v[j] = yin && xin[j] ? __ldg(a + j) : (T)0;
    }
  };
  T q[PF][XPT];  /* input rows r .. r + PF - 1 */
  T kq[NK][XPT]; /* hdiff: coefficient rows r - NS .. r + PF (kq[NS]: row r) */
  int64_t r = y0 - 2 * K;
  const T *pin = in + zc + r * g.sy, *pk = coeff + zc + (r - NS) * g.sy; /* rows r, r - NS */
  T *pout = out + zc + (r - NS) * g.sy;                                   /* row r - NS */
#pragma unroll
  for (int p = 0; p < PF; p++) load(pin + p * g.sy, in, r + p, q[p]);
#pragma unroll
  for (int p = 0; p < NK; p++) {
    if (HDIFF) load(pk + p * g.sy, coeff, r - NS + p, kq[p]);
    else
#pragma unroll
      for (int j = 0; j < XPT; j++) kq[p][j] = (T)0;
  }
#pragma unroll D
  for (; r < rend; r++) {
    tb_push<T, D, XPT>(w[0], q[0]);
#pragma unroll
    for (int p = 0; p < PF - 1; p++)
#pragma unroll
      for (int j = 0; j < XPT; j++) q[p][j] = q[p + 1][j];
    load(pin + PF * g.sy, in, r + PF, q[PF - 1]);
    { /* row r + L2AHEAD into L2: a row of the strip inside the array (on an unstructured
         grid inside its affine rectangle), from the lanes whose first point is inside it */
      constexpr int A = STENCIL_TB_L2AHEAD;
      const int64_t ra = r + A;
      if (FAST ? ra < rend
               : VIA ? aff && ra < rend && ra >= g.live[2] && ra < g.live[3] && xreg[0]
                     : ra < rend && ra >= 0 && ra < g.d1 && xin[0]) {
        tb_prefetch_l2(pin + A * g.sy);
        if (HDIFF) tb_prefetch_l2(pk + (NS + A) * g.sy);
      }
    }
#pragma unroll
    for (int s = 1; s <= NS; s++) {
      const int64_t y = r - s;
      const bool yin = FAST || (y >= 0 && y < g.d1);
      T pw[XPT], pe[XPT], nv[XPT];
      tb_nbrs<T, XPT>(w[s - 1][D - 2], pw, pe);
      if (HDIFF && s % 2 == 0) { /* fluxes and update from L (stage s-1) and the step's input */
        T(&qq)[D][XPT] = w[s >= 2 ? s - 2 : 0];
        T qw[XPT], qe[XPT];
        tb_nbrs<T, XPT>(qq[D - 3], qw, qe);
#pragma unroll
        for (int j = 0; j < XPT; j++) {
          const T k = FAST || (yin && xin[j]) ? kq[NS - s >= 0 ? NS - s : 0][j] : (T)0;
          const T pc = w[s - 1][D - 2][j], qc = qq[D - 3][j];
          const T flx = O::flux(pc, pe[j], qc, qe[j]);
          const T flx_w = O::flux(pw[j], pc, qw[j], qc);
          const T fly = O::flux(pc, w[s - 1][D - 1][j], qc, qq[D - 2][j]);
          const T fly_s = O::flux(w[s - 1][D - 3][j], pc, qq[D - 4 >= 0 ? D - 4 : 0][j], qc);
          nv[j] = O::upd(qc, k, flx, flx_w, fly, fly_s);
        }
      } else {
#pragma unroll
        for (int j = 0; j < XPT; j++) {
          const T c = w[s - 1][D - 2][j], sv = w[s - 1][D - 3][j], n = w[s - 1][D - 1][j];
          nv[j] = HDIFF ? O::lap_h(c, pw[j], pe[j], sv, n) : O::lap(c, pw[j], pe[j], sv, n);
        }
      }
      if (s == NS) { /* the result: the tile's inner columns, the strip's rows (y < y1 always) */
        if (y >= y0) {
#pragma unroll
          for (int j = 0; j < XPT; j++)
            if (xout[j]) {
              if (VIA && !aff) out[slot(y, j)] = nv[j]; /* an updated position: it has a slot */
              else pout[j] = nv[j];
            }
        }
      } else {
        if (!FAST && s % 2 == 0) { /* an intermediate state: outside the live region it is the
                                       step's input, which stage s - 2's window holds (row y is
                                       its oldest); by induction from the pass's input that is the
                                       input's value there, 0 outside the array or the map */
          const bool yreg = y >= g.live[2] && y < g.live[3];
#pragma unroll
          for (int j = 0; j < XPT; j++)
            if (!(yreg && xreg[j])) nv[j] = w[s >= 2 ? s - 2 : 0][D - 3][j];
        }
        tb_push<T, D, XPT>(w[s < NS ? s : 0], nv);
      }
    }
    if (HDIFF) {
#pragma unroll
      for (int p = 0; p < NK - 1; p++)
#pragma unroll
        for (int j = 0; j < XPT; j++) kq[p][j] = kq[p + 1][j];
      load(pk + (NK) * g.sy, coeff, r + 1 + PF, kq[NK - 1]);
    }
    pin += g.sy, pk += g.sy, pout += g.sy;
  }
}

/* Block (32, warps): warp threadIdx.y takes strip blockIdx.y * warps +
 * threadIdx.y of tile blockIdx.x at level lo2 + blockIdx.z. */
template <typename T, int HDIFF, int K, int XPT, int PF, bool MAP>
__global__ void __launch_bounds__(STENCIL_TB_MAXTHREADS) st_k_tb(const T *__restrict__ in, const T *__restrict__ coeff,
                                                T *__restrict__ out, StTbGeo g) {
  constexpr int NS = 2 * K, W = 32 * XPT;
  const int lane = threadIdx.x;
  const int64_t y0 = g.lo1 + ((int64_t)blockIdx.y * blockDim.y + threadIdx.y) * g.rows;
  if (y0 >= g.hi1) return; /* the whole warp */
  const int64_t y1 = y0 + g.rows < g.hi1 ? y0 + g.rows : g.hi1;
  const int64_t xt = g.lo0 + (int64_t)blockIdx.x * (W - 4 * K) - 2 * K; /* the tile's first column */
  const int64_t x0 = xt + lane * XPT;
  const int64_t zl = (g.lo2 + blockIdx.z) * g.sz, zc = g.base + zl + x0; /* cell of (x0, 0, z) */
  bool xin[XPT], xreg[XPT], xout[XPT];
#pragma unroll
  for (int j = 0; j < XPT; j++) {
    const int64_t x = x0 + j;
    const int i = lane * XPT + j;
    xin[j] = x >= 0 && x < g.d0;
    xreg[j] = x >= g.live[0] && x < g.live[1];
    xout[j] = x >= g.lo0 && x < g.hi0 && i >= 2 * K && i < W - 2 * K;
  }
  const int64_t ya = y0 - 2 * K - NS, yb = y1 + 2 * K + PF + 1; /* every row the strip touches */
  const bool fast = xt >= g.fast[0] && xt + W <= g.fast[1] && ya >= g.fast[2] && yb <= g.fast[3];
  if (fast) tb_strip<T, HDIFF, K, XPT, PF, true, MAP>(in, coeff, out, g, y0, y1, zc, zl, x0, xin, xreg, xout);
  else tb_strip<T, HDIFF, K, XPT, PF, false, MAP>(in, coeff, out, g, y0, y1, zc, zl, x0, xin, xreg, xout);
}

template <typename T, int HDIFF, int K, int XPT>
static int tb_go(const stencil_fields_t *f, const StTbGeo &geo, dim3 grid, dim3 block) {
  if (geo.map)
    st_k_tb<T, HDIFF, K, XPT, STENCIL_TB_PREFETCH, true>
        <<<grid, block>>>((const T *)f->in, (const T *)f->coeff, (T *)f->out, geo);
  else
    st_k_tb<T, HDIFF, K, XPT, STENCIL_TB_PREFETCH, false>
        <<<grid, block>>>((const T *)f->in, (const T *)f->coeff, (T *)f->out, geo);
  TSR_CHECK_LAUNCH("temporal-blocking kernel launch");
  return TSR_SUCCESS;
}

template <typename T, int HDIFF>
static int tb_run(int n, int xpt, const stencil_fields_t *f, const StTbGeo &geo, dim3 grid, dim3 block) {
#define TB_CASE(K)                                                                   \
  case K:                                                                            \
    return xpt == 1 ? tb_go<T, HDIFF, K, 1>(f, geo, grid, block) : tb_go<T, HDIFF, K, 2>(f, geo, grid, block);
  switch (n) {
    TB_CASE(1)
    TB_CASE(2)
    TB_CASE(3)
    TB_CASE(4)
  }
#undef TB_CASE
  return TSR_RAISE(TSR_ERR_ARG, "temporal blocking: %d steps per pass are not compiled", n);
}

extern "C" int stencil_tb_cuda(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um,
                               const stencil_fields_t *f, stencil_tb_t tb, int n, const int64_t live[4],
                               unsigned blocks[3]) {
  int64_t box[4];
  TSR_CALL(stencil__tb_prep(kind, g, um, live, box));
  const int unstr = g->kind == STENCIL_GRID_UNSTR;
  TSR_CHECK(!unstr || um->dmap, TSR_ERR_ARG, "temporal blocking on an unstructured grid: no device copy of the slot map");
  tb.steps = n;
  TSR_CALL(stencil_tb_check(tb));
  const int64_t nx = box[1] - box[0], ny = box[3] - box[2], nz = g->hi[2] - g->lo[2];
  const int64_t ntx = nx > 0 ? (nx + stencil_tb_width(tb) - 1) / stencil_tb_width(tb) : 0;
  const int64_t nst = ny > 0 ? (ny + tb.rows - 1) / tb.rows : 0;
  const int64_t nby = (nst + tb.warps - 1) / tb.warps;
  if (blocks) blocks[0] = (unsigned)ntx, blocks[1] = (unsigned)nby, blocks[2] = (unsigned)(nz > 0 ? nz : 0);
  if (ntx == 0 || nst == 0 || nz <= 0) return TSR_SUCCESS;
  TSR_CHECK(nby <= 65535 && nz <= 65535 && ntx < (1ll << 31), TSR_ERR_UNSUPPORTED,
            "temporal blocking: a launch of %lldx%lldx%lld blocks is too large (strips or levels over 65535)",
            (long long)ntx, (long long)nby, (long long)nz);
  StTbGeo geo;
  geo.lo0 = box[0], geo.hi0 = box[1], geo.lo1 = box[2], geo.hi1 = box[3], geo.lo2 = g->lo[2];
  geo.rows = tb.rows;
  for (int d = 0; d < 4; d++) geo.live[d] = live ? live[d] : box[d];
  if (unstr) { /* positions of the map; the affine rectangle's cells without it */
    geo.map = um->dmap, geo.d0 = um->d0, geo.d1 = um->d1;
    geo.base = um->affine ? um->a0 : 0, geo.sy = um->affine ? um->sy : 0, geo.sz = g->zs;
    for (int d = 0; d < 4; d++) geo.fast[d] = um->affine ? box[d] : 0;
  } else {
    geo.map = NULL, geo.d0 = g->L.d[0], geo.d1 = g->L.d[1];
    geo.base = g->L.base, geo.sy = g->L.sy, geo.sz = g->L.sz;
    geo.fast[0] = TSR_MAX(0, geo.live[0]), geo.fast[1] = TSR_MIN(geo.d0, geo.live[1]);
    geo.fast[2] = TSR_MAX(0, geo.live[2]), geo.fast[3] = TSR_MIN(geo.d1, geo.live[3]);
  }
  const dim3 grid((unsigned)ntx, (unsigned)nby, (unsigned)nz), block(32, (unsigned)tb.warps, 1);
  if (f->prec == STENCIL_FLOAT)
    return kind == STENCIL_HDIFF ? tb_run<float, 1>(n, tb.xpt, f, geo, grid, block)
                                 : tb_run<float, 0>(n, tb.xpt, f, geo, grid, block);
  return kind == STENCIL_HDIFF ? tb_run<double, 1>(n, tb.xpt, f, geo, grid, block)
                               : tb_run<double, 0>(n, tb.xpt, f, geo, grid, block);
}
