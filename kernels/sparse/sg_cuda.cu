/* kernels/sparse/sg_cuda.cu: the CUDA variants of fastsg and their extern "C"
 * launchers (fastsg_hier_<v>_cuda, fastsg_eval_<v>_cuda). Index arithmetic
 * comes from sg.h; only the thread mappings live here.
 *
 * Hierarchization (the fastsg study's Algorithm 1): one launch per group g (highest
 * first); each warp owns one block of the group and its lanes stride the
 * block's 2^g points, so a warp reads and writes contiguous memory. ichg1
 * instead gives each warp one pole (fixed l_s, s != t) and walks its blocks
 * from the highest l_t down inside one launch per sweep.
 * Evaluation (the study's Algorithm 2): each warp owns a chunk of 32*K points, lanes
 * stride it; every thread sums over all blocks in the grid's order (plain:
 * level vectors unranked once per CUDA block into shared memory). */
#include "config.h"
#include "kernels/sparse/sg_kernels.h"
#include "tessera/cuda.h"

namespace {

constexpr int kTPB = 256;          /* threads per CUDA block */
constexpr int kWPB = kTPB / 32;    /* warps per CUDA block */
constexpr int kK = 4;              /* points per lane in ichg2' */
constexpr int kMaxGrid = 65535 * 8;

__device__ __forceinline__ double hat(double xs, int c) { return fastsg_hat_d(xs, c); }
__device__ __forceinline__ float hat(float xs, int c) { return fastsg_hat_f(xs, c); }

/* ------------------------------------------------------------ hierarchize */

/* Levels 0 (plain) .. 4 (inv4): warp per block of group g, ranks [r0, r1). */
template <typename R, int V>
__global__ void __launch_bounds__(kTPB)
hier_group(fastsg_grid_t G, R *__restrict__ a, int t, int g, int64_t r0, int64_t r1,
           const uint32_t *__restrict__ par) {
  __shared__ int sl[kWPB][FASTSG_MAX_DIM];
  __shared__ int64_t sps[kWPB][FASTSG_MAX_LEVEL];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, D = G.dim;
  const int64_t bsize = (int64_t)1 << g, nwarps = (int64_t)gridDim.x * kWPB;
  for (int64_t rk = r0 + (int64_t)blockIdx.x * kWPB + w; rk < r1; rk += nwarps) {
    const int64_t base = fastsg_block_pos(&G, g, rk);
    int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
    if (V == 0) { /* every point converts its position: idx2l, idx2i, agp2idx */
      for (int64_t loc = lane; loc < bsize; loc += 32) {
        const int64_t j = base + loc;
        fastsg_idx2l(&G, j, l);
        fastsg_idx2i(&G, j, g, l, i);
        R v0 = 0, v1 = 0;
        int64_t q = fastsg_parent_pos(&G, l, i, t, 0, NULL);
        if (q >= 0) v0 = a[q];
        q = fastsg_parent_pos(&G, l, i, t, 1, NULL);
        if (q >= 0) v1 = a[q];
        a[j] = FASTSG_HIER(a[j], v0, v1);
      }
      continue;
    }
    if (lane == 0) fastsg_block_unrank(D, g, rk, sl[w]); /* inv1: once per block */
    __syncwarp();
    for (int s = 0; s < D; s++) l[s] = sl[w][s];
    const int lt = l[t];
    int low = 0;
    if (V >= 2 && lt > 0) { /* inv2: parent block starts, one per lane */
      if (lane < lt) {
        l[t] = lane;
        sps[w][lane] = fastsg_block_pos(&G, g - lt + lane, fastsg_block_rank(D, l));
        l[t] = lt;
      }
      for (int s = t + 1; s < D; s++) low += l[s];
      __syncwarp();
    }
    if (lt > 0)
      for (int64_t loc = lane; loc < bsize; loc += 32) {
        R v0 = 0, v1 = 0;
        int64_t q0, q1;
        if (V <= 2) {
          fastsg_local_decode(D, l, loc, i);
          q0 = fastsg_parent_pos(&G, l, i, t, 0, V == 1 ? NULL : sps[w]);
          q1 = fastsg_parent_pos(&G, l, i, t, 1, V == 1 ? NULL : sps[w]);
        } else {
          const uint32_t *p = V == 4 ? par : NULL;
          q0 = fastsg_parent_pos_o1(loc, lt, low, sps[w], 0, p, G.level);
          q1 = fastsg_parent_pos_o1(loc, lt, low, sps[w], 1, p, G.level);
        }
        if (q0 >= 0) v0 = a[q0];
        if (q1 >= 0) v1 = a[q1];
        a[base + loc] = FASTSG_HIER(a[base + loc], v0, v1);
      }
    __syncwarp(); /* shared slots are reused by the next block */
  }
}

/* ichg1: warp per pole; roots are the blocks with l_t = 0 in groups < n-1. */
template <typename R>
__global__ void __launch_bounds__(kTPB)
hier_ichg1(fastsg_grid_t G, R *__restrict__ a, int t, int64_t b0, int64_t b1) {
  __shared__ int64_t sps[kWPB][FASTSG_MAX_LEVEL];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, D = G.dim, n = G.level;
  const int64_t nroots = G.bstart[n - 1], nwarps = (int64_t)gridDim.x * kWPB;
  for (int64_t b = (int64_t)blockIdx.x * kWPB + w; b < nroots; b += nwarps) {
    int l[FASTSG_MAX_DIM];
    int s = 0;
    while (s + 1 < n && G.bstart[s + 1] <= b) s++;
    fastsg_block_unrank(D, s, b - G.bstart[s], l);
    if (l[t] != 0) continue; /* warp-uniform */
    int low = 0;
    for (int u = t + 1; u < D; u++) low += l[u];
    const int top = n - 1 - s;
    if (lane < top) { /* starts of all blocks of the pole, l_t = lane */
      l[t] = lane;
      sps[w][lane] = fastsg_block_pos(&G, s + lane, fastsg_block_rank(D, l));
      l[t] = 0;
    }
    __syncwarp();
    for (int k = top; k >= 1; k--) {
      l[t] = k;
      const int64_t rk = fastsg_block_rank(D, l), gb = G.bstart[s + k] + rk;
      if (gb >= b0 && gb < b1) {
        const int64_t base = fastsg_block_pos(&G, s + k, rk);
        for (int64_t loc = lane; loc < ((int64_t)1 << (s + k)); loc += 32) {
          R v0 = 0, v1 = 0;
          int64_t q = fastsg_parent_pos_o1(loc, k, low, sps[w], 0, NULL, n);
          if (q >= 0) v0 = a[q];
          q = fastsg_parent_pos_o1(loc, k, low, sps[w], 1, NULL, n);
          if (q >= 0) v1 = a[q];
          a[base + loc] = FASTSG_HIER(a[base + loc], v0, v1);
        }
      }
      __syncwarp(); /* block k done before block k-1 (its parent) is written */
    }
  }
}

int grid_for(int64_t warps) {
  int64_t blocks = (warps + kWPB - 1) / kWPB;
  return (int)(blocks < 1 ? 1 : blocks > kMaxGrid ? kMaxGrid : blocks);
}

template <typename R, int V>
int hier_run(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t *G = A->grid;
  R *a = (R *)A->coef;
  if constexpr (V == 5) {
    if (G->level < 2) return TSR_SUCCESS;
    hier_ichg1<R><<<grid_for(G->bstart[G->level - 1]), kTPB>>>(*G, a, A->t, A->b0, A->b1);
    TSR_CHECK_LAUNCH("fastsg hier_ichg1");
  } else {
    for (int g = G->level - 1; g >= 1; g--) {
      int64_t lo = TSR_MAX(G->bstart[g], A->b0), hi = TSR_MIN(G->bstart[g + 1], A->b1);
      if (lo >= hi) continue;
      hier_group<R, V><<<grid_for(hi - lo), kTPB>>>(*G, a, A->t, g, lo - G->bstart[g],
                                                    hi - G->bstart[g], A->par1d);
      TSR_CHECK_LAUNCH("fastsg hier_group");
    }
  }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ evaluate */

/* Index of point j in the x array of the variant's layout. */
template <bool TILED>
__device__ __forceinline__ int64_t xat(int64_t j, int t, int D) {
  return TILED ? ((j >> 5) * D + t) * 32 + (j & 31) : j * D + t;
}

/* plain (the study's Algorithm 2) and vec1' (transposed x): every point walks
 * every block in the grid's order, unranked from its number, with divisions
 * by 2^-l. As in the study, where one thread computes a block's level vector
 * for its CUDA block ("if threadIdx.x = 0: compute l"), the level vectors are
 * computed once per CUDA block and shared: its kTPB threads unrank a batch
 * of kTPB consecutive blocks (one each) into shared memory, then every
 * thread walks the batch. (Unranking in every thread costs ~20 64-bit
 * integer divisions per point and block: ~17 s per run for 10^6 points at
 * D=10, n=11 on an H100.) */
template <typename R, bool TILED>
__global__ void __launch_bounds__(kTPB)
eval_plain(fastsg_grid_t G, const R *__restrict__ a, int64_t npts, const R *__restrict__ x,
           R *__restrict__ r) {
  __shared__ uint8_t sl[kTPB][FASTSG_MAX_DIM]; /* levels of the batch's blocks */
  const int lane = threadIdx.x & 31, D = G.dim;
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t c0 = warp * 32 * kK, c1 = TSR_MIN(c0 + 32 * kK, npts);
  for (int q = 0; q < kK; q++) { /* the same trip count in every thread (barriers) */
    const int64_t j = c0 + q * 32 + lane;
    const bool active = j < c1;
    R sum = 0;
    int64_t idx23 = 0;
    for (int g = 0; g < G.level; g++) {
      const int64_t nb = fastsg_group_blocks(D, g);
      for (int64_t b0 = 0; b0 < nb; b0 += kTPB) {
        const int nbat = (int)TSR_MIN((int64_t)kTPB, nb - b0);
        __syncthreads(); /* the previous batch is consumed */
        if ((int)threadIdx.x < nbat) {
          int l[FASTSG_MAX_DIM];
          fastsg_block_unrank(D, g, b0 + threadIdx.x, l);
          for (int t = 0; t < D; t++) sl[threadIdx.x][t] = (uint8_t)l[t];
        }
        __syncthreads();
        if (active)
          for (int b = 0; b < nbat; b++) {
            int64_t idx1 = 0;
            R p = 1;
            for (int t = 0; t < D; t++) {
              const int lt = sl[b][t];
              const R div = (R)1 / (R)(1 << lt);
              const R xs = x[xat<TILED>(j, t, D)] / div;
              const int c = fastsg_cell(xs, lt);
              idx1 = (idx1 << lt) + c;
              p *= hat(xs, c);
            }
            sum += a[idx23 + idx1] * p;
            idx23 += (int64_t)1 << g;
          }
      }
    }
    if (active) r[j] = sum;
  }
}

/* sred1: levels and shifts from the block table, multiplications. */
template <typename R>
__global__ void __launch_bounds__(kTPB)
eval_sred1(fastsg_grid_t G, const R *__restrict__ a, int64_t npts, const R *__restrict__ x,
           R *__restrict__ r, const uint8_t *__restrict__ btab) {
  const int lane = threadIdx.x & 31, D = G.dim;
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t c0 = warp * 32 * kK, c1 = TSR_MIN(c0 + 32 * kK, npts);
  for (int64_t j = c0 + lane; j < c1; j += 32) {
    R sum = 0;
    for (int g = 0; g < G.level; g++) {
      const int64_t bs = G.bstart[g], nb = G.bstart[g + 1] - bs;
      const R *ag = a + G.gstart[g];
      for (int64_t b = 0; b < nb; b++) {
        const uint8_t *lv = btab + (bs + b) * 2 * D, *sh = lv + D;
        int64_t idx1 = 0;
        R p = 1;
        for (int t = 0; t < D; t++) {
          const int lt = __ldg(lv + t);
          const R xs = x[j * D + t] * (R)(1 << lt);
          const int c = fastsg_cell(xs, lt);
          idx1 += (int64_t)c << __ldg(sh + t);
          p *= hat(xs, c);
        }
        sum += ag[(b << g) + idx1] * p;
      }
    }
    r[j] = sum;
  }
}

/* ichg2': blocks outer inside the kernel, the warp's kK points per lane
 * inner, accumulated in registers. */
template <typename R>
__global__ void __launch_bounds__(kTPB)
eval_ichg2p(fastsg_grid_t G, const R *__restrict__ a, int64_t npts, const R *__restrict__ x,
            R *__restrict__ r) {
  const int lane = threadIdx.x & 31, D = G.dim;
  const int64_t warp = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int64_t c0 = warp * 32 * kK;
  if (c0 >= npts) return;
  R acc[kK];
#pragma unroll
  for (int q = 0; q < kK; q++) acc[q] = 0;
  const R *ab = a;
  for (int g = 0; g < G.level; g++) {
    int l[FASTSG_MAX_DIM];
    fastsg_block_first(D, g, l);
    do {
#pragma unroll
      for (int q = 0; q < kK; q++) {
        const int64_t j = TSR_MIN(c0 + q * 32 + lane, npts - 1);
        int64_t idx1 = 0;
        R p = 1;
        for (int t = 0; t < D; t++) {
          const R xs = x[j * D + t] * (R)(1 << l[t]);
          const int c = fastsg_cell(xs, l[t]);
          idx1 = (idx1 << l[t]) + c;
          p *= hat(xs, c);
        }
        acc[q] += ab[idx1] * p;
      }
      ab += (int64_t)1 << g;
    } while (fastsg_block_next(D, l));
  }
#pragma unroll
  for (int q = 0; q < kK; q++) {
    const int64_t j = c0 + q * 32 + lane;
    if (j < npts) r[j] = acc[q];
  }
}

/* ichg2'': the group loop is on the host; each launch adds one group's
 * blocks to r (kept in global memory between launches). */
template <typename R>
__global__ void __launch_bounds__(kTPB)
eval_ichg2pp(fastsg_grid_t G, int g, const R *__restrict__ a, int64_t npts,
             const R *__restrict__ x, R *__restrict__ r) {
  const int D = G.dim;
  const int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= npts) return;
  R sum = g == 0 ? (R)0 : r[j];
  const R *ab = a + G.gstart[g];
  int l[FASTSG_MAX_DIM];
  fastsg_block_first(D, g, l);
  do {
    int64_t idx1 = 0;
    R p = 1;
    for (int t = 0; t < D; t++) {
      const R xs = x[j * D + t] * (R)(1 << l[t]);
      const int c = fastsg_cell(xs, l[t]);
      idx1 = (idx1 << l[t]) + c;
      p *= hat(xs, c);
    }
    sum += ab[idx1] * p;
    ab += (int64_t)1 << g;
  } while (fastsg_block_next(D, l));
  r[j] = sum;
}

template <typename R, int V>
int eval_run(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t G = *A->grid;
  const R *a = (const R *)A->coef, *x = (const R *)A->x;
  R *r = (R *)A->r;
  const int64_t n = A->npts;
  if (n == 0) return TSR_SUCCESS;
  const int64_t warps = TSR_CEIL_DIV(n, (int64_t)32 * kK);
  const int64_t blocks = TSR_CEIL_DIV(warps, (int64_t)kWPB);
  TSR_CHECK(blocks <= 0x7fffffff, TSR_ERR_ARG, "fastsg eval: %lld points are too many for one launch",
            (long long)n);
  if constexpr (V == 0) eval_plain<R, false><<<(unsigned)blocks, kTPB>>>(G, a, n, x, r);
  if constexpr (V == 1) eval_sred1<R><<<(unsigned)blocks, kTPB>>>(G, a, n, x, r, A->btab);
  if constexpr (V == 2) eval_ichg2p<R><<<(unsigned)blocks, kTPB>>>(G, a, n, x, r);
  if constexpr (V == 3)
    for (int g = 0; g < G.level; g++) {
      eval_ichg2pp<R><<<(unsigned)TSR_CEIL_DIV(n, (int64_t)kTPB), kTPB>>>(G, g, a, n, x, r);
      TSR_CHECK_LAUNCH("fastsg eval_ichg2pp");
    }
  if constexpr (V == 4) eval_plain<R, true><<<(unsigned)blocks, kTPB>>>(G, a, n, x, r);
  TSR_CHECK_LAUNCH("fastsg eval");
  return TSR_SUCCESS;
}

int check_args(const fastsg_kernel_args_t *A, int hier) {
  TSR_CHECK(A && A->grid && A->coef, TSR_ERR_ARG, "fastsg CUDA kernel: NULL grid or coefficients");
  TSR_CHECK(A->prec == TSR_DOUBLE || A->prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg CUDA kernel: precision must be double or float");
  if (hier)
    TSR_CHECK(A->t >= 0 && A->t < A->grid->dim && A->b0 >= 0 && A->b1 <= A->grid->nblocks,
              TSR_ERR_ARG, "fastsg CUDA sweep: dimension %d or block range out of range", A->t);
  else
    TSR_CHECK(A->npts == 0 || (A->x && A->r), TSR_ERR_ARG, "fastsg CUDA eval: NULL points or results");
  return TSR_SUCCESS;
}

} // namespace

#define FASTSG_CUDA_ENTRY(kernel, name, V, ...)                                       \
  extern "C" int fastsg_##kernel##_##name##_cuda(const fastsg_kernel_args_t *A) {       \
    TSR_CALL(check_args(A, #kernel[0] == 'h'));                                           \
    __VA_ARGS__;                                                                         \
    return A->prec == TSR_DOUBLE ? kernel##_run<double, V>(A) : kernel##_run<float, V>(A); \
  }

FASTSG_CUDA_ENTRY(hier, plain, 0, )
FASTSG_CUDA_ENTRY(hier, inv1, 1, )
FASTSG_CUDA_ENTRY(hier, inv2, 2, )
FASTSG_CUDA_ENTRY(hier, inv3, 3, )
FASTSG_CUDA_ENTRY(hier, inv4, 4,
                  TSR_CHECK(A->par1d, TSR_ERR_ARG, "cuda/hier/inv4 needs the 1-D parent tables"))
FASTSG_CUDA_ENTRY(hier, ichg1, 5, )
FASTSG_CUDA_ENTRY(eval, plain, 0, )
FASTSG_CUDA_ENTRY(eval, sred1, 1,
                  TSR_CHECK(A->btab, TSR_ERR_ARG, "cuda/eval/sred1 needs the block table"))
FASTSG_CUDA_ENTRY(eval, ichg2p, 2, )
FASTSG_CUDA_ENTRY(eval, ichg2pp, 3, )
FASTSG_CUDA_ENTRY(eval, vec1p, 4, )
