/* kernels/sparse/sg_cuda_eval.cu: the "walk" evaluation variants of fastsg
 * on CUDA (cuda/eval/walk, walk_s1, walk_s2, walk_s4, walk_s2w) and their
 * extern "C" launchers. The walk itself (sg_walk.h) is shared with
 * cpu/eval/walk; only the thread mapping and the staging live here.
 *
 * A thread owns K points (j = blockIdx.x * T * K + k * T + threadIdx.x). All
 * threads of a CUDA block step one uniform walk over every block of every
 * group in storage order, so their control flow is identical (threads past
 * the last point evaluate a copy of it and do not store), and per point a
 * block costs a few operations (sg_walk_pt.h) plus one gather and one FMA.
 *
 * walk: the gather reads global memory (L2 at D=10, n=8; DRAM at n=11).
 * walk_s*: the coefficients are streamed through shared memory in windows
 * of whole consecutive blocks (fastsg_window_end): two buffers of WB bytes,
 * the next window copied with cp.async (__pipeline_memcpy_async) while the
 * current one is used, one __syncthreads per window. Each CUDA block reads
 * the array once from L2, so L2 traffic per point is N * sizeof(R) / (T * K)
 * instead of about one 32-byte sector per block, and every gather hits
 * shared memory. Groups whose blocks do not fit a window (2^g > WB /
 * sizeof(R) - 16 / sizeof(R): g >= 14 in double with 96 KiB) gather from
 * global memory as in walk. */
#include "config.h"
#include <cuda_pipeline.h>
#include <stdint.h>
#include "kernels/sparse/sg_cuda_eval.cuh"
#include "kernels/sparse/sg_kernels.h"
#include "kernels/sparse/sg_walk.h"
#include "tessera/cuda.h"

namespace {

/* T threads, K points per thread, WB bytes per window buffer (0: no
 * staging, gathers from global memory). */
template <typename R, int T, int K, int WB>
__global__ void __launch_bounds__(T)
eval_walk(fastsg_grid_t G, const R *__restrict__ a, int64_t npts, const R *__restrict__ x,
          R *__restrict__ r) {
  using Point = typename PointOf<R>::type;
  using Outer = typename PointOf<R>::outer;
  constexpr int V = 16 / (int)sizeof(R);        /* elements per 16 bytes */
  constexpr int BUF = WB / (int)sizeof(R);      /* elements per buffer */
  constexpr int64_t S = BUF - V;                /* window capacity (room to align its base) */
  extern __shared__ __align__(16) unsigned char smem_raw[];
  R *const sbuf = reinterpret_cast<R *>(smem_raw); /* [2][BUF] */
  const int D = G.dim;
  const int64_t j0 = (int64_t)blockIdx.x * (T * K) + threadIdx.x;
  Point q[K];
  Outer qo[K];
  R acc[K];
#pragma unroll
  for (int k = 0; k < K; k++) {
    const int64_t j = TSR_MIN(j0 + (int64_t)k * T, npts - 1);
    pt_set(&q[k], &qo[k], x + j * D, D);
    acc[k] = 0;
  }
  /* windows: the current one holds [wlo, wend) at sbuf + cur * BUF from
   * position base = wlo rounded down to 16 bytes; the next one, [wend, nend),
   * is on its way into the other buffer */
  const int gmax = WB > 0 ? fastsg_window_gmax(&G, S) : -1;
  int64_t base = 0, wend = 0, nend = 0;
  int cur = 0;
  if (gmax >= 0) {
    wend = fastsg_window_end(&G, 0, S, gmax);
    window_load<R, T>(sbuf, a, 0, wend);
    nend = fastsg_window_end(&G, wend, S, gmax);
    window_load<R, T>(sbuf + BUF, a, wend & ~(int64_t)(V - 1), nend);
    __pipeline_wait_prior(1);
    __syncthreads();
  }
  fastsg_walk_outer_t wo;
  for (int g = 0; g < G.level; g++) {
    fastsg_walk_t w;
    int ch = fastsg_walk_first(&w, &wo, &G, g);
    const int64_t bsize = (int64_t)1 << g;
    if (g <= gmax) {
      do {
        if (w.pos + bsize > wend) { /* uniform: this block starts the next window (pos == wend) */
          __pipeline_wait_prior(0);
          __syncthreads(); /* the next window is in; nobody reads the current one any more */
          cur ^= 1;
          base = wend & ~(int64_t)(V - 1);
          wend = nend;
          nend = fastsg_window_end(&G, wend, S, gmax);
          window_load<R, T>(sbuf + (cur ^ 1) * BUF, a, wend & ~(int64_t)(V - 1), nend);
        }
        const R *sw = sbuf + cur * BUF + (int)(w.pos - base);
#pragma unroll
        for (int k = 0; k < K; k++) {
          pt_update(&w, &q[k], ch);
          acc[k] += sw[q[k].idx] * q[k].p;
        }
      } while ((ch = fastsg_walk_next(&w)) != FASTSG_WALK_END);
    } else {
      do {
        const R *ab = a + w.pos;
#pragma unroll
        for (int k = 0; k < K; k++) {
          pt_update(&w, &q[k], ch);
          acc[k] += __ldg(ab + q[k].idx) * q[k].p;
        }
      } while ((ch = fastsg_walk_next(&w)) != FASTSG_WALK_END);
    }
  }
  if (gmax >= 0) __pipeline_wait_prior(0); /* no copy outlives the block */
#pragma unroll
  for (int k = 0; k < K; k++) {
    const int64_t j = j0 + (int64_t)k * T;
    if (j < npts) r[j] = acc[k];
  }
}

template <typename R, int T, int K, int WB>
int walk_run(const fastsg_kernel_args_t *A) {
  const int64_t n = A->npts;
  if (n == 0) return TSR_SUCCESS;
  TSR_CHECK(WB == 0 || ((uintptr_t)A->coef & 15) == 0, TSR_ERR_ARG,
            "fastsg eval walk: the coefficients must be 16-byte aligned (as cudaMalloc returns)");
  return launch_points<T>("fastsg eval_walk", eval_walk<R, T, K, WB>, n, (int64_t)T * K, 2 * WB,
                          *A->grid, (const R *)A->coef, n, (const R *)A->x, (R *)A->r);
}

constexpr int kWin = 96 * 1024, kWinSmall = 24 * 1024;

} // namespace

#define FASTSG_WALK_ENTRY(name, T, K, WB)                                                 \
  extern "C" int fastsg_eval_##name##_cuda(const fastsg_kernel_args_t *A) {               \
    TSR_CALL(check_args(A));                                                              \
    return A->prec == TSR_DOUBLE ? walk_run<double, T, K, WB>(A) : walk_run<float, T, K, WB>(A); \
  }

FASTSG_WALK_ENTRY(walk, 256, 1, 0)
FASTSG_WALK_ENTRY(walk_s1, 512, 1, kWin)
FASTSG_WALK_ENTRY(walk_s2, 512, 2, kWin)
FASTSG_WALK_ENTRY(walk_s4, 512, 4, kWin)
FASTSG_WALK_ENTRY(walk_s2w, 256, 2, kWinSmall)
