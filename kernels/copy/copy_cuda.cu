/* kernels/copy/copy_cuda.cu: the CUDA copy variants (one thread per inner
 * cell, x fastest) and their extern "C" launchers. */
#include "config.h"

#include "kernels/copy/copy.h"
#include "tessera/cuda.h"
#include "tessera/error.h"

/* Thread -> inner cell (coordinates with halo); false past the inner box. */
static __device__ __forceinline__ bool my_cell(const tsr_layout_t &L, int64_t *x, int64_t *y,
                                               int64_t *z) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  int64_t k = (int64_t)blockIdx.z * blockDim.z + threadIdx.z;
  *x = L.halo[0] + i;
  *y = L.halo[1] + j;
  *z = L.halo[2] + k;
  return i < L.n[0] && j < L.n[1] && k < L.n[2];
}

static __global__ void copy_rowmajor_kernel(tsr_layout_t L, const double *__restrict__ src,
                                            double *__restrict__ dst) {
  int64_t x, y, z;
  if (my_cell(L, &x, &y, &z)) copy_rowmajor_cell(&L, src, dst, x, y, z);
}

static __global__ void copy_zcurve_kernel(tsr_layout_t L, const double *__restrict__ src,
                                          double *__restrict__ dst) {
  int64_t x, y, z;
  if (my_cell(L, &x, &y, &z)) copy_zcurve_cell(&L, src, dst, x, y, z);
}

/* Grid covering the inner box with blocks bx*by*bz. */
static int shape(const char *who, const tsr_layout_t *L, int bx, int by, int bz, dim3 *grid,
                 dim3 *block) {
  TSR_CHECK(bx >= 1 && by >= 1 && bz >= 1 && (int64_t)bx * by * bz <= 1024 && bz <= 64,
            TSR_ERR_ARG, "%s: block shape %dx%dx%d: need positive sides, bz <= 64 and at most "
            "1024 threads", who, bx, by, bz);
  int64_t gx = TSR_CEIL_DIV(L->n[0], bx), gy = TSR_CEIL_DIV(L->n[1], by),
          gz = TSR_CEIL_DIV(L->n[2], bz);
  TSR_CHECK(gx < ((int64_t)1 << 31) && gy <= 65535 && gz <= 65535, TSR_ERR_ARG,
            "%s: grid %lldx%lldx%lld exceeds CUDA's limits (2^31-1 x 65535 x 65535): use "
            "larger blocks in y and z", who, (long long)gx, (long long)gy, (long long)gz);
  *grid = dim3((unsigned)gx, (unsigned)gy, (unsigned)gz);
  *block = dim3((unsigned)bx, (unsigned)by, (unsigned)bz);
  return TSR_SUCCESS;
}

extern "C" int copy_rowmajor_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by,
                                  int bz) {
  dim3 grid, block;
  TSR_CALL(copy_check("copy_rowmajor_cuda", &L, TSR_LAYOUT_ROWMAJOR, src, dst));
  TSR_CALL(shape("copy_rowmajor_cuda", &L, bx, by, bz, &grid, &block));
  copy_rowmajor_kernel<<<grid, block>>>(L, src, dst);
  TSR_CHECK_LAUNCH("copy_rowmajor_kernel");
  return TSR_SUCCESS;
}

extern "C" int copy_zcurve_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by,
                                int bz) {
  dim3 grid, block;
  TSR_CALL(copy_check("copy_zcurve_cuda", &L, TSR_LAYOUT_ZCURVE, src, dst));
  TSR_CALL(shape("copy_zcurve_cuda", &L, bx, by, bz, &grid, &block));
  copy_zcurve_kernel<<<grid, block>>>(L, src, dst);
  TSR_CHECK_LAUNCH("copy_zcurve_kernel");
  return TSR_SUCCESS;
}

extern "C" int copy_memcpy_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by,
                                int bz) {
  (void)bx;
  (void)by;
  (void)bz;
  TSR_CHECK(src && dst && src != dst, TSR_ERR_ARG, "copy_memcpy_cuda: NULL or identical arrays");
  TSR_CALL(tsr_layout_check(&L));
  TSR_CALL_CUDA(cudaMemcpyAsync(dst, src, (size_t)L.size * sizeof(double),
                                cudaMemcpyDeviceToDevice, 0));
  return TSR_SUCCESS;
}
