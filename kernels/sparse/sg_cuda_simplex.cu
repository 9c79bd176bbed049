/* kernels/sparse/sg_cuda_simplex.cu: the "simplex" evaluation variants of
 * fastsg on CUDA (cuda/eval/simplex, simplex_s, simplex_s2) and their
 * extern "C" launchers.
 *
 * The first NI = min(D, 3) dimensions are the inner ones, the other
 * DO = D - NI the outer ones. The sum over all blocks is a sum over the
 * outer level vectors o (|o|_1 = s <= n-1) of prod_{t>=NI} h_t times a sum
 * over the inner simplex l_0 + l_1 + l_2 <= m = n-1-s. For each point the
 * inner hats and cells of every level (h_t(l), c_t(l), t < NI, l < n) are
 * computed once, into registers; the inner simplex is unrolled at compile
 * time (one body per m, templates on n), so a term costs one index
 * operation, one address operation, one load and one FMA, with the block
 * offsets as immediates. The outer vectors are walked with sg_walk.h's
 * walk over a DO-dimensional grid (its storage order), and its point part
 * (sg_walk_pt.h) gives the product of the outer hats and the outer local
 * index, updated from the highest changed dimension.
 *
 * For that, each evaluation copies the coefficients into the evaluation
 * order (an extra array of N values, made by reorder_kernel in the timed
 * call): one chunk per outer vector, chunks by s and then in the storage
 * order of the outer grid; inside a chunk, one row of W(m) values per
 * outer cell I_o (the outer part of the local index), and in the row the
 * inner blocks by r = l_0 + l_1 + l_2, then (l_2, l_1) descending, each
 * block's cells as in the compact order. Position of a term:
 *   chunk(o) + I_o W(m) + K(l_0, l_1, l_2) + inner cell index,
 * K a compile-time constant.
 *
 * simplex gathers from global memory (L2); simplex_s and simplex_s2 stream
 * the reordered array through shared memory in windows of whole chunks
 * (two buffers, cp.async, as walk_s*), so each CUDA block reads the array
 * once and every gather is a shared-memory load; chunks larger than a
 * window (small s at large n) gather from global memory. */
#include "config.h"
#include <cuda_pipeline.h>
#include <stdint.h>
#include <type_traits>
#include "kernels/sparse/sg_cuda_eval.cuh"
#include "kernels/sparse/sg_kernels.h"
#include "kernels/sparse/sg_walk.h"
#include "tessera/cuda.h"

namespace {

constexpr int kMaxL = FASTSG_SIMPLEX_MAX_LEVEL;

/* The evaluation order (host-computed, passed by value). */
struct Plan {
  fastsg_grid_t go;       /* the outer grid (DO dimensions, level n); unused when DO = 0 */
  int D, n, ni, dout;
  int64_t W[kMaxL];       /* W[m]: values of one inner row, budget m */
  int64_t Z[kMaxL];       /* values of one chunk with outer sum s: 2^s W[n-1-s] */
  int64_t O[kMaxL + 1];   /* first position of the chunks with outer sum s; O[n] = N */
};

/* Level vectors of NI dimensions with sum r: C(r + NI - 1, NI - 1). */
constexpr TSR_HD int64_t inner_count(int ni, int r) {
  return ni == 1 ? 1 : ni == 2 ? r + 1 : ni == 3 ? (int64_t)(r + 1) * (r + 2) / 2
                                       : (int64_t)(r + 1) * (r + 2) * (r + 3) / 6;
}
constexpr TSR_HD int64_t inner_w(int ni, int m) { /* W[m] */
  return m < 0 ? 0 : inner_w(ni, m - 1) + (inner_count(ni, m) << m);
}
/* Rank of (l0, .., l_{NI-1}) among the inner vectors of its sum: (l3, l2,
 * l1) descending, the colex rank of fastsg_block_rank. */
constexpr TSR_HD int64_t inner_rank(int ni, int l0, int l1, int l2, int l3 = 0) {
  return (ni >= 2 ? l0 : 0) + (ni >= 3 ? (int64_t)(l0 + l1) * (l0 + l1 + 1) / 2 : 0) +
         (ni >= 4 ? (int64_t)(l0 + l1 + l2 + 2) * (l0 + l1 + l2 + 1) * (l0 + l1 + l2) / 6 : 0);
}
/* Offset of inner block (l0, l1, l2, l3) in a row. */
constexpr TSR_HD int kidx(int ni, int l0, int l1, int l2, int l3 = 0) {
  return (int)(inner_w(ni, l0 + l1 + l2 + l3 - 1) +
               (inner_rank(ni, l0, l1, l2, l3) << (l0 + l1 + l2 + l3)));
}

int plan_init(const fastsg_grid_t *G, Plan *p, int nimax) {
  const int D = G->dim, n = G->level;
  TSR_CHECK(n <= kMaxL, TSR_ERR_ARG,
            "fastsg cuda/eval/simplex*: level %d above %d, the largest they are compiled for", n,
            kMaxL);
  p->D = D;
  p->n = n;
  p->ni = D < nimax ? D : nimax;
  p->dout = D - p->ni;
  if (p->dout > 0) TSR_CALL(fastsg_grid_init(p->dout, n, &p->go));
  for (int m = 0; m < n; m++) p->W[m] = (m ? p->W[m - 1] : 0) + (inner_count(p->ni, m) << m);
  p->O[0] = 0;
  for (int s = 0; s < n; s++) {
    p->Z[s] = p->W[n - 1 - s] << s;
    const int64_t cnt = p->dout > 0 ? fastsg_group_blocks(p->dout, s) : s == 0;
    p->O[s + 1] = p->O[s] + cnt * p->Z[s];
  }
  TSR_CHECK(p->O[n] == G->npoints, TSR_ERR_INTERNAL,
            "fastsg simplex plan: %lld values in the chunks, %lld in the grid",
            (long long)p->O[n], (long long)G->npoints);
  return TSR_SUCCESS;
}

/* b = a in the evaluation order: a warp per block of the grid. */
template <typename R>
__global__ void reorder_kernel(fastsg_grid_t G, Plan P, const R *__restrict__ a,
                               R *__restrict__ b) {
  const int64_t blk = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (blk >= G.nblocks) return;
  int g = 0;
  while (g + 1 < G.level && G.bstart[g + 1] <= blk) g++;
  int l[FASTSG_MAX_DIM];
  const int64_t rank = blk - G.bstart[g];
  fastsg_block_unrank(G.dim, g, rank, l);
  int s = 0;
  for (int t = P.ni; t < G.dim; t++) s += l[t];
  const int m = G.level - 1 - s;
  const int64_t orank = P.dout > 0 ? fastsg_block_rank(P.dout, l + P.ni) : 0;
  const int l0 = l[0], l1 = P.ni > 1 ? l[1] : 0, l2 = P.ni > 2 ? l[2] : 0,
            l3 = P.ni > 3 ? l[3] : 0, r = g - s;
  const int64_t K = (r ? P.W[r - 1] : 0) + (inner_rank(P.ni, l0, l1, l2, l3) << r);
  const int64_t dst = P.O[s] + orank * P.Z[s] + K, wm = P.W[m], mask = ((int64_t)1 << s) - 1;
  const R *src = a + G.gstart[g] + (rank << g);
  for (int64_t i = lane; i < ((int64_t)1 << g); i += 32)
    b[dst + (i & mask) * wm + (i >> s)] = src[i];
}

/* Compile-time loop: f(integral_constant<int, k>) for k = B..E. */
template <int B, int E, typename F>
__device__ __forceinline__ void sfor(F &&f) {
  if constexpr (B <= E) {
    f(std::integral_constant<int, B>{});
    sfor<B + 1, E>(f);
  }
}

/* A shared-memory load at 32-bit address a plus the constant byte offset
 * OFF (an immediate of the instruction). volatile: kept after the window's
 * __syncthreads. */
template <int OFF> __device__ __forceinline__ double lds(double *, unsigned a) {
  double v;
  asm volatile("ld.shared.f64 %0, [%1+%2];" : "=d"(v) : "r"(a), "n"(OFF));
  return v;
}
template <int OFF> __device__ __forceinline__ float lds(float *, unsigned a) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1+%2];" : "=f"(v) : "r"(a), "n"(OFF));
  return v;
}

/* Sum over the inner simplex of budget M of coefficient * h_0 h_1 h_2:
 * ld(K, idx) loads the row's value K + idx (K a compile-time constant);
 * h[t][l], c[t][l] the point's inner hats and cells (1 and 0 for t >= NI). */
template <typename R, int NI, int NL, int M, typename L>
__device__ __forceinline__ R simplex_sum(L &&ld, const R (&h)[3][NL], const int (&c)[3][NL]) {
  R acc = 0;
  sfor<0, (NI >= 3 ? M : 0)>([&](auto L2c) {
    constexpr int L2 = decltype(L2c)::value;
    R a2 = 0;
    sfor<0, (NI >= 2 ? M - L2 : 0)>([&](auto L1c) {
      constexpr int L1 = decltype(L1c)::value;
      int b12 = (c[1][L1] << L2) + c[2][L2];
      asm("" : "+r"(b12)); /* once per (l1, l2), not re-associated into every term */
      R a1 = 0;
      sfor<0, M - L1 - L2>([&](auto L0c) {
        constexpr int L0 = decltype(L0c)::value;
        constexpr int K = kidx(NI, L0, L1, L2);
        const int idx = (c[0][L0] << (L1 + L2)) + b12;
        a1 = fma(ld(std::integral_constant<int, K>{}, idx), h[0][L0], a1);
      });
      a2 = fma(a1, h[1][L1], a2);
    });
    acc = fma(a2, h[2][L2], acc);
  });
  return acc;
}

/* The same with 4 inner dimensions (h[3], c[3]: dimension 3). */
template <typename R, int NL, int M, typename L>
__device__ __forceinline__ R simplex_sum4(L &&ld, const R (&h)[4][NL], const int (&c)[4][NL]) {
  R acc = 0;
  sfor<0, M>([&](auto L3c) {
    constexpr int L3 = decltype(L3c)::value;
    R a3 = 0;
    sfor<0, M - L3>([&](auto L2c) {
      constexpr int L2 = decltype(L2c)::value;
      R a2 = 0;
      sfor<0, M - L3 - L2>([&](auto L1c) {
        constexpr int L1 = decltype(L1c)::value;
        int b = (c[1][L1] << (L2 + L3)) + (c[2][L2] << L3) + c[3][L3];
        asm("" : "+r"(b));
        R a1 = 0;
        sfor<0, M - L3 - L2 - L1>([&](auto L0c) {
          constexpr int L0 = decltype(L0c)::value;
          constexpr int K = kidx(4, L0, L1, L2, L3);
          const int idx = (c[0][L0] << (L1 + L2 + L3)) + b;
          a1 = fma(ld(std::integral_constant<int, K>{}, idx), h[0][L0], a1);
        });
        a2 = fma(a1, h[1][L1], a2);
      });
      a3 = fma(a2, h[2][L2], a3);
    });
    acc = fma(a3, h[3][L3], acc);
  });
  return acc;
}

__device__ __forceinline__ double pow2r(double, int l) { return fastsg_pow2_d(l); }
__device__ __forceinline__ float pow2r(float, int l) { return fastsg_pow2_f(l); }
__device__ __forceinline__ int cellr(double xs, int l) { return fastsg_cell(xs, l); }
__device__ __forceinline__ int cellr(float xs, int l) { return fastsg_cell_f(xs, l); }
__device__ __forceinline__ double hatr(double xs, int c) { return fastsg_hat_d(xs, c); }
__device__ __forceinline__ float hatr(float xs, int c) { return fastsg_hat_f(xs, c); }

/* End of the window of whole chunks that starts at chunk boundary start:
 * at most S values; start when nothing is left. */
__device__ __forceinline__ int64_t window_end(const Plan &P, int64_t start, int64_t S) {
  const int64_t lim = start + S;
  int64_t e = start;
  int s = 0;
  while (s < P.n && P.O[s + 1] <= start) s++;
  for (; s < P.n; s++) {
    if (P.O[s + 1] <= lim) {
      e = P.O[s + 1];
      continue;
    }
    const int64_t b = e > P.O[s] ? e : P.O[s];
    e = b + (lim - b) / P.Z[s] * P.Z[s];
    break;
  }
  return e;
}

/* T threads, a point per thread; WB bytes per window buffer (0: no staging). */
template <typename R, int NI, int NL, int T, int WB>
__global__ void __launch_bounds__(T, NI > 3 ? 1 : 65536 / (T * 128)) /* 128 registers (NI = 4: 255) */
eval_simplex(Plan P, const R *__restrict__ b, int64_t npts, const R *__restrict__ x,
             R *__restrict__ res) {
  constexpr int V = 16 / (int)sizeof(R);
  constexpr int BUF = WB / (int)sizeof(R);
  constexpr int64_t S = BUF - V;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  R *const sbuf = reinterpret_cast<R *>(smem_raw); /* [2][BUF] */
  const int D = P.D, DO = P.dout;
  const int64_t j0 = (int64_t)blockIdx.x * T + threadIdx.x;
  const R *xj = x + TSR_MIN(j0, npts - 1) * D;
  /* inner tables */
  constexpr int NT = NI > 3 ? 4 : 3;
  R h[NT][NL];
  int c[NT][NL];
#pragma unroll
  for (int t = 0; t < NT; t++) {
    const R xt = t < NI ? xj[t] : (R)0.5;
#pragma unroll
    for (int l = 0; l < NL; l++) {
      const R xs = xt * pow2r(xt, l);
      const int cc = cellr(xs, l);
      h[t][l] = t < NI ? hatr(xs, cc) : (R)1;
      c[t][l] = t < NI ? cc : 0;
    }
  }
  /* outer dimensions: the walk's point state (product and local index of
   * the outer hats, updated from the highest changed dimension) */
  typename PointOf<R>::type q;
  typename PointOf<R>::outer qo;
  if (DO > 0) pt_set(&q, &qo, xj + NI, DO);
  /* staging: chunks of outer sum s >= smin fit a window */
  int smin = NL;
  if (WB > 0)
    for (int s = NL - 1; s >= 0 && P.Z[s] <= S; s--) smin = s;
  int64_t base = 0, wend = 0, nend = 0;
  int cur = 0;
  if (smin < NL) {
    base = P.O[smin] & ~(int64_t)(V - 1);
    wend = window_end(P, P.O[smin], S);
    window_load<R, T>(sbuf, b, base, wend);
    nend = window_end(P, wend, S);
    window_load<R, T>(sbuf + BUF, b, wend & ~(int64_t)(V - 1), nend);
    __pipeline_wait_prior(1);
    __syncthreads();
  }
  R acc = 0;
  fastsg_walk_outer_t wo;
  const unsigned sbase = (unsigned)__cvta_generic_to_shared(sbuf);
  constexpr int LOGR = sizeof(R) == 8 ? 3 : 2;
  /* the groups of outer sum s, each with its own unrolled body (M = n-1-s) */
  sfor<0, NL - 1>([&](auto Sc) {
    constexpr int s = decltype(Sc)::value, M = NL - 1 - s;
    if (s > 0 && DO == 0) return;
    const int64_t wm = P.W[M], Z = P.Z[s];
    int64_t cpos = P.O[s];
    fastsg_walk_t w;
    int ch = DO > 0 ? fastsg_walk_first(&w, &wo, &P.go, s) : 0;
    do {
      /* keep the cells opaque per chunk: otherwise the compiler hoists the
       * hundreds of per-point term indices out of the outer loop (register
       * spills) */
#pragma unroll
      for (int t = 0; t < NI; t++)
#pragma unroll
        for (int l = 0; l < NL; l++) asm volatile("" : "+r"(c[t][l]));
      R po = 1;
      int io = 0;
      if (DO > 0) { /* outer dimensions ch .. 0 changed */
        pt_update(&w, &q, ch);
        po = q.p;
        io = q.idx;
      }
      const int64_t off = (int64_t)io * wm;
      R v;
      if (WB > 0 && s >= smin) {
        if (cpos + Z > wend) { /* uniform: this chunk starts the next window */
          __pipeline_wait_prior(0);
          __syncthreads();
          cur ^= 1;
          base = wend & ~(int64_t)(V - 1);
          wend = nend;
          nend = window_end(P, wend, S);
          window_load<R, T>(sbuf + (cur ^ 1) * BUF, b, wend & ~(int64_t)(V - 1), nend);
        }
        const unsigned sa = sbase + ((unsigned)(cur * BUF + (int)(cpos - base) + (int)off) << LOGR);
        auto ld = [&](auto Kc, int idx) {
          return lds<decltype(Kc)::value * (int)sizeof(R)>((R *)nullptr, sa + ((unsigned)idx << LOGR));
        };
        if constexpr (NI > 3) v = simplex_sum4<R, NL, M>(ld, h, c);
        else v = simplex_sum<R, NI, NL, M>(ld, h, c);
      } else {
        const R *e = b + cpos + off;
        auto ld = [&](auto Kc, int idx) { return __ldg(e + decltype(Kc)::value + idx); };
        if constexpr (NI > 3) v = simplex_sum4<R, NL, M>(ld, h, c);
        else v = simplex_sum<R, NI, NL, M>(ld, h, c);
      }
      acc = fma(po, v, acc);
      cpos += Z;
    } while (DO > 0 && (ch = fastsg_walk_next(&w)) != FASTSG_WALK_END);
  });
  if (smin < NL) __pipeline_wait_prior(0);
  if (j0 < npts) res[j0] = acc;
}

template <typename R, int T, int WB, int NI, int NL>
int launch_one(const Plan &P, const R *b, const fastsg_kernel_args_t *A) {
  return launch_points<T>("fastsg eval_simplex", eval_simplex<R, NI, NL, T, WB>, A->npts,
                          (int64_t)T, 2 * WB, P, b, A->npts, (const R *)A->x, (R *)A->r);
}

/* The instance for the grid's NI and n. */
#ifndef FASTSG_SIMPLEX_FIRST_LEVEL
#define FASTSG_SIMPLEX_FIRST_LEVEL 1
#endif
template <typename R, int T, int WB, int NIMAX, int NL = FASTSG_SIMPLEX_FIRST_LEVEL>
int launch_nl(const Plan &P, const R *b, const fastsg_kernel_args_t *A) {
  if (P.n != NL) {
    if constexpr (NL < kMaxL) return launch_nl<R, T, WB, NIMAX, NL + 1>(P, b, A);
    else return TSR_RAISE(TSR_ERR_INTERNAL, "fastsg simplex: level %d not instantiated", P.n);
  }
  if constexpr (NIMAX > 3)
    if (P.ni == 4) return launch_one<R, T, WB, 4, NL>(P, b, A);
  if (P.ni == 3) return launch_one<R, T, WB, 3, NL>(P, b, A);
  if (P.ni == 2) return launch_one<R, T, WB, 2, NL>(P, b, A);
  return launch_one<R, T, WB, 1, NL>(P, b, A);
}

template <typename R, int T, int WB, int NIMAX>
int simplex_run(const fastsg_kernel_args_t *A) {
  if (A->npts == 0) return TSR_SUCCESS;
  Plan P;
  TSR_CALL(plan_init(A->grid, &P, NIMAX));
  const fastsg_grid_t &G = *A->grid;
  R *b = NULL;
  TSR_CALL_CUDA(cudaMallocAsync((void **)&b, (size_t)G.npoints * sizeof(R), 0));
  const int64_t rblocks = TSR_CEIL_DIV(G.nblocks * 32, (int64_t)256);
  int rc = TSR_SUCCESS;
  if (rblocks > 0x7fffffff)
    rc = TSR_RAISE(TSR_ERR_ARG, "fastsg eval simplex: %lld blocks are too many",
                   (long long)G.nblocks);
  if (rc == TSR_SUCCESS) {
    reorder_kernel<R><<<(unsigned)rblocks, 256>>>(G, P, (const R *)A->coef, b);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) rc = tsr__error_cuda((int)e, "reorder_kernel", __FILE__, __LINE__, __func__);
  }
  if (rc == TSR_SUCCESS) rc = launch_nl<R, T, WB, NIMAX>(P, b, A);
  cudaError_t e = cudaFreeAsync(b, 0);
  if (rc == TSR_SUCCESS && e != cudaSuccess)
    rc = tsr__error_cuda((int)e, "cudaFreeAsync", __FILE__, __LINE__, __func__);
  return rc;
}

} // namespace

#define FASTSG_SIMPLEX_ENTRY(name, T, WB, NIMAX)                                          \
  extern "C" int fastsg_eval_##name##_cuda(const fastsg_kernel_args_t *A) {               \
    TSR_CALL(check_args(A));                                                              \
    return A->prec == TSR_DOUBLE ? simplex_run<double, T, WB, NIMAX>(A)                   \
                                 : simplex_run<float, T, WB, NIMAX>(A);                   \
  }

FASTSG_SIMPLEX_ENTRY(simplex, 256, 0, 3)
FASTSG_SIMPLEX_ENTRY(simplex_s, 512, 96 * 1024, 3)
FASTSG_SIMPLEX_ENTRY(simplex_s2, 256, 54 * 1024, 3)
FASTSG_SIMPLEX_ENTRY(simplex4_s, 256, 96 * 1024, 4)
