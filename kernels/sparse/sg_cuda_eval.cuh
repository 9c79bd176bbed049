/* kernels/sparse/sg_cuda_eval.cuh: what the CUDA evaluation variants of
 * fastsg share (sg_cuda_eval.cu: walk*, sg_cuda_simplex.cu: simplex*): the
 * walk's per-point part (sg_walk_pt.h) by precision, the cp.async copy of
 * one shared-memory window, the argument check and the launch of a kernel
 * over the points with dynamic shared memory. Internal to those two files
 * (an unnamed namespace: each keeps its own copy, as with static). */
#ifndef TSR_KERNELS_SPARSE_SG_CUDA_EVAL_CUH
#define TSR_KERNELS_SPARSE_SG_CUDA_EVAL_CUH

#include <cuda_pipeline.h>
#include <stdint.h>
#include "kernels/sparse/sg_kernels.h"
#include "kernels/sparse/sg_walk.h"
#include "tessera/cuda.h"

namespace {

/* The walk's point state (sg_walk_pt.h) for precision R. */
template <typename R> struct PointOf;
template <> struct PointOf<double> {
  using type = fastsg_walkpt_d_t;
  using outer = fastsg_walkpt_outer_d_t;
};
template <> struct PointOf<float> {
  using type = fastsg_walkpt_f_t;
  using outer = fastsg_walkpt_outer_f_t;
};

__device__ __forceinline__ void pt_set(fastsg_walkpt_d_t *q, fastsg_walkpt_outer_d_t *o,
                                       const double *xj, int D) {
  fastsg_walkpt_set_d(q, o, xj, D);
}
__device__ __forceinline__ void pt_set(fastsg_walkpt_f_t *q, fastsg_walkpt_outer_f_t *o,
                                       const float *xj, int D) {
  fastsg_walkpt_set_f(q, o, xj, D);
}
__device__ __forceinline__ void pt_update(const fastsg_walk_t *w, fastsg_walkpt_d_t *q, int ch) {
  fastsg_walkpt_update_d(w, q, ch);
}
__device__ __forceinline__ void pt_update(const fastsg_walk_t *w, fastsg_walkpt_f_t *q, int ch) {
  fastsg_walkpt_update_f(w, q, ch);
}

/* Start copying a[base, hi) into s (base a multiple of 16 bytes) and commit
 * the copies as one pipeline stage: 16-byte copies, then the tail element
 * by element (never past hi <= N). T threads take part. */
template <typename R, int T>
__device__ __forceinline__ void window_load(R *s, const R *__restrict__ a, int64_t base,
                                            int64_t hi) {
  constexpr int V = 16 / (int)sizeof(R);
  const int cnt = (int)(hi - base), nvec = cnt / V;
  const R *src = a + base;
  for (int e = threadIdx.x; e < nvec; e += T) __pipeline_memcpy_async(s + e * V, src + e * V, 16);
  for (int e = nvec * V + (int)threadIdx.x; e < cnt; e += T)
    __pipeline_memcpy_async(s + e, src + e, sizeof(R));
  __pipeline_commit();
}

/* The arguments every evaluation variant needs. */
int check_args(const fastsg_kernel_args_t *A) {
  TSR_CHECK(A && A->grid && A->coef, TSR_ERR_ARG, "fastsg CUDA eval: NULL grid or coefficients");
  TSR_CHECK(A->prec == TSR_DOUBLE || A->prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg CUDA eval: precision must be double or float");
  TSR_CHECK(A->npts == 0 || (A->x && A->r), TSR_ERR_ARG, "fastsg CUDA eval: NULL points or results");
  return TSR_SUCCESS;
}

/* kernel<<<ceil(npts / per_block), T, smem>>>(args...), opting in to more
 * than the default 48 KiB of dynamic shared memory where smem needs it;
 * name (the kernel) in the errors. */
template <int T, typename... P, typename... Args>
int launch_points(const char *name, void (*kernel)(P...), int64_t npts, int64_t per_block,
                  int smem, Args... args) {
  const int64_t blocks = TSR_CEIL_DIV(npts, per_block);
  TSR_CHECK(blocks <= 0x7fffffff, TSR_ERR_ARG, "%s: %lld points are too many for one launch",
            name, (long long)npts);
  if (smem > 48 * 1024)
    TSR_CALL_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  kernel<<<(unsigned)blocks, T, smem>>>(args...);
  TSR_CHECK_LAUNCH(name);
  return TSR_SUCCESS;
}

} // namespace

#endif
