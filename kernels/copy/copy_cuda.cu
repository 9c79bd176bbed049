/* kernels/copy/copy_cuda.cu: the CUDA copy variants (one thread per inner
 * cell, x fastest) and their extern "C" launchers. */
#include "config.h"

#include "kernels/copy/copy.h"
#include "tessera/cuda.h"
#include "tessera/error.h"

/* Each thread copies a slice of up to COPY_ZSLICE cells along z at one
 * (x, y): the layout's offset function gives the slice's first cell (one
 * plane-table load for the Z-curve), the layout's z stride the others, and
 * all loads of the slice are issued before the stores. */
#define COPY_ZSLICE 8

template <int KIND>
static __global__ void copy_slice_kernel(tsr_layout_t L, const double *__restrict__ src,
                                         double *__restrict__ dst) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t j = (int64_t)blockIdx.y * blockDim.y + threadIdx.y;
  const int64_t k0 = ((int64_t)blockIdx.z * blockDim.z + threadIdx.z) * COPY_ZSLICE;
  if (i >= L.n[0] || j >= L.n[1] || k0 >= L.n[2]) return;
  const int64_t x = L.halo[0] + i, y = L.halo[1] + j, z = L.halo[2] + k0;
  const int64_t c = KIND == TSR_LAYOUT_ZCURVE ? tsr_layout_zc_cell(&L, x, y, z)
                                              : tsr_layout_rm_cell(&L, x, y, z);
  const int64_t nk = L.n[2] - k0;
  for (int f = 0; f < L.nf; f++) {
    double v[COPY_ZSLICE];
#pragma unroll
    for (int s = 0; s < COPY_ZSLICE; s++)
      if (s < nk) v[s] = __ldg(src + tsr_layout_soa(&L, c + s * L.sz, f));
#pragma unroll
    for (int s = 0; s < COPY_ZSLICE; s++)
      if (s < nk) dst[tsr_layout_soa(&L, c + s * L.sz, f)] = v[s];
  }
}

/* Storage order: thread r takes the plane cell of cell index r (x + d0*y =
 * cells[r]). In this order the cell index is r + z*sz, so the loads of the
 * z chunk are issued before the plane table says whether the cell is a halo
 * cell (whose stores are then dropped): no load waits on the table. */
static __global__ void copy_zcurve_storage_kernel(tsr_layout_t L, const int64_t *__restrict__ cells,
                                                  const double *__restrict__ src,
                                                  double *__restrict__ dst) {
  const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const int64_t k0 = (int64_t)blockIdx.y * COPY_ZSLICE;
  if (r >= L.d[0] * L.d[1]) return;
  const int64_t c = r + (L.halo[2] + k0) * L.sz, nk = L.n[2] - k0;
  for (int f = 0; f < L.nf; f++) {
    double v[COPY_ZSLICE];
#pragma unroll
    for (int s = 0; s < COPY_ZSLICE; s++)
      if (s < nk) v[s] = __ldg(src + tsr_layout_soa(&L, c + s * L.sz, f));
    const int64_t xy = __ldg(cells + r), y = xy / L.d[0], x = xy - y * L.d[0];
    if (x < L.halo[0] || x >= L.halo[0] + L.n[0] || y < L.halo[1] || y >= L.halo[1] + L.n[1])
      return;
#pragma unroll
    for (int s = 0; s < COPY_ZSLICE; s++)
      if (s < nk) dst[tsr_layout_soa(&L, c + s * L.sz, f)] = v[s];
  }
}

/* Grid covering the inner box with blocks bx*by*bz. */
static int shape(const char *who, const tsr_layout_t *L, int bx, int by, int bz, dim3 *grid,
                 dim3 *block) {
  TSR_CHECK(bx >= 1 && by >= 1 && bz >= 1 && (int64_t)bx * by * bz <= 1024 && bz <= 64,
            TSR_ERR_ARG, "%s: block shape %dx%dx%d: need positive sides, bz <= 64 and at most "
            "1024 threads", who, bx, by, bz);
  int64_t gx = TSR_CEIL_DIV(L->n[0], bx), gy = TSR_CEIL_DIV(L->n[1], by),
          gz = TSR_CEIL_DIV(TSR_CEIL_DIV(L->n[2], COPY_ZSLICE), bz);
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
  copy_slice_kernel<TSR_LAYOUT_ROWMAJOR><<<grid, block>>>(L, src, dst);
  TSR_CHECK_LAUNCH("copy_slice_kernel<ROWMAJOR>");
  return TSR_SUCCESS;
}

extern "C" int copy_zcurve_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by,
                                int bz) {
  dim3 grid, block;
  TSR_CALL(copy_check("copy_zcurve_cuda", &L, TSR_LAYOUT_ZCURVE, src, dst));
  TSR_CALL(shape("copy_zcurve_cuda", &L, bx, by, bz, &grid, &block));
  copy_slice_kernel<TSR_LAYOUT_ZCURVE><<<grid, block>>>(L, src, dst);
  TSR_CHECK_LAUNCH("copy_slice_kernel<ZCURVE>");
  return TSR_SUCCESS;
}

extern "C" int copy_zcurve_storage_cuda(tsr_layout_t L, const int64_t *cells, const double *src,
                                        double *dst, int bx, int by, int bz) {
  TSR_CALL(copy_check("copy_zcurve_storage_cuda", &L, TSR_LAYOUT_ZCURVE, src, dst));
  TSR_CHECK(cells, TSR_ERR_ARG, "copy_zcurve_storage_cuda: no inverse plane table (cells)");
  int64_t threads = (int64_t)bx * by * bz;
  TSR_CHECK(bx >= 1 && by >= 1 && bz >= 1 && threads <= 1024, TSR_ERR_ARG,
            "copy_zcurve_storage_cuda: block shape %dx%dx%d: need 1..1024 threads", bx, by, bz);
  int64_t gx = TSR_CEIL_DIV(L.d[0] * L.d[1], threads), gy = TSR_CEIL_DIV(L.n[2], COPY_ZSLICE);
  TSR_CHECK(gx < ((int64_t)1 << 31) && gy <= 65535, TSR_ERR_ARG,
            "copy_zcurve_storage_cuda: grid %lldx%lld exceeds CUDA's limits", (long long)gx,
            (long long)gy);
  copy_zcurve_storage_kernel<<<dim3((unsigned)gx, (unsigned)gy), dim3((unsigned)threads)>>>(
      L, cells, src, dst);
  TSR_CHECK_LAUNCH("copy_zcurve_storage_kernel");
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
