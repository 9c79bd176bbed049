/* kernels/sparse/sg_dist_cuda.cu: the CUDA sweep of a distributed
 * hierarchization (sg_dist.h): a warp per pole of the rank's pole list, its
 * lanes striding each block, the blocks walked from the highest l_t down
 * (dehierarchization: upwards) with a __syncwarp between blocks; the
 * thread mapping of cuda/hier/ichg1 on a local array whose block starts
 * come from the pole table. */
#include "config.h"
#include "kernels/sparse/sg_dist.h"
#include "tessera/cuda.h"

namespace {

constexpr int kTPB = 256;
constexpr int kWPB = kTPB / 32;
constexpr int kMaxGrid = 65535 * 8;

template <typename R>
__global__ void __launch_bounds__(kTPB)
dist_sweep(int n, R *__restrict__ a, int64_t npoles, const fastsg_pole_t *__restrict__ poles,
           const int64_t *__restrict__ pb, int dehier) {
  __shared__ int64_t sps[kWPB][FASTSG_MAX_LEVEL];
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const int64_t nwarps = (int64_t)gridDim.x * kWPB;
  for (int64_t p = (int64_t)blockIdx.x * kWPB + w; p < npoles; p += nwarps) {
    const fastsg_pole_t P = poles[p];
    if (lane <= P.top) sps[w][lane] = pb[P.first + lane];
    __syncwarp();
    for (int j = 0; j < P.top; j++) {
      const int k = dehier ? j + 1 : P.top - j;
      const int64_t base = sps[w][k], bsize = (int64_t)1 << (P.s + k);
      for (int64_t loc = lane; loc < bsize; loc += 32) {
        R v0 = 0, v1 = 0;
        int64_t q = fastsg_parent_pos_o1(loc, k, P.low, sps[w], 0, NULL, n);
        if (q >= 0) v0 = a[q];
        q = fastsg_parent_pos_o1(loc, k, P.low, sps[w], 1, NULL, n);
        if (q >= 0) v1 = a[q];
        a[base + loc] = dehier ? FASTSG_DEHIER(a[base + loc], v0, v1)
                               : FASTSG_HIER(a[base + loc], v0, v1);
      }
      __syncwarp(); /* block k done before the next one reads or writes it */
    }
  }
}

int grid_for(int64_t warps) {
  int64_t blocks = (warps + kWPB - 1) / kWPB;
  return (int)(blocks < 1 ? 1 : blocks > kMaxGrid ? kMaxGrid : blocks);
}

} // namespace

extern "C" int fastsg_dist_sweep_cuda(const fastsg_dist_args_t *A) {
  TSR_CHECK(A && A->grid && (A->a || A->npoles == 0) && (A->poles || A->npoles == 0),
            TSR_ERR_ARG, "fastsg_dist_sweep_cuda: NULL argument");
  TSR_CHECK(A->prec == TSR_DOUBLE || A->prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg_dist_sweep_cuda: precision must be double or float");
  if (A->npoles == 0) return TSR_SUCCESS;
  const int g = grid_for(A->npoles);
  if (A->prec == TSR_DOUBLE)
    dist_sweep<double><<<g, kTPB>>>(A->grid->level, (double *)A->a, A->npoles, A->poles, A->pb,
                                    A->dehier);
  else
    dist_sweep<float><<<g, kTPB>>>(A->grid->level, (float *)A->a, A->npoles, A->poles, A->pb,
                                   A->dehier);
  TSR_CHECK_LAUNCH("fastsg dist_sweep");
  return TSR_SUCCESS;
}

extern "C" int fastsg_dist_cuda_meminfo(size_t *free_bytes, size_t *total_bytes) {
  TSR_CALL_CUDA(cudaMemGetInfo(free_bytes, total_bytes));
  return TSR_SUCCESS;
}
