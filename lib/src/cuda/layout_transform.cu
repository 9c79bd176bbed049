/* layout_transform.cu: tsr_layout_transform_device on a GPU. One thread per
 * cell of the common logical domain (x fastest across a warp, rows y*z
 * grid-strided), all fields of the cell; the layouts' kinds and placements
 * are resolved by tsr_layout_cell / tsr_layout_place (a run-time switch,
 * uniform across the grid), so any pair of layouts of the same named
 * dimensions works, 2-D to 4-D. */
#include "config.h"

#include "lib/src/layout_internal.h"
#include "tessera/cuda.h"
#include "tessera/error.h"

namespace {

const int kThreadsX = 128;
const int kRowsPerBlock = 2;

struct Elem16 {
  uint64_t lo, hi;
};

/* Copy element type T (sizeof T == element size), or bytes when T is char
 * and `bytes` gives the element size. */
template <typename T>
__global__ void transform_kernel(tsr_layout_t S, const T *__restrict__ a, tsr_layout_t D,
                                 T *__restrict__ b, tsr__transform_t t, size_t bytes) {
  const int64_t nx = t.hi[0] - t.lo[0], ny = t.hi[1] - t.lo[1], nz = t.hi[2] - t.lo[2];
  const int64_t qx0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (qx0 >= nx) return;
  const int64_t qx = t.lo[0] + qx0;
  for (int64_t r = (int64_t)blockIdx.y * blockDim.y + threadIdx.y; r < ny * nz;
       r += (int64_t)gridDim.y * blockDim.y) {
    const int64_t qy = t.lo[1] + r % ny, qz = t.lo[2] + r / ny;
    const int64_t cs = tsr_layout_cell(&S, qx + S.halo[0], qy + S.halo[1], qz + S.halo[2]);
    const int64_t cd = tsr_layout_cell(&D, qx + D.halo[0], qy + D.halo[1], qz + D.halo[2]);
    for (int f = 0; f < t.nf; f++) {
      const int64_t os = tsr_layout_place(&S, cs, f), od = tsr_layout_place(&D, cd, f);
      if (bytes == 0) {
        b[od] = a[os];
      } else {
        for (size_t i = 0; i < bytes; i++) b[od * bytes + i] = a[os * bytes + i];
      }
    }
  }
}

template <typename T>
int launch(const tsr_layout_t *src, const void *a, const tsr_layout_t *dst, void *b,
           const tsr__transform_t *t, size_t bytes) {
  const int64_t nx = t->hi[0] - t->lo[0], rows = (t->hi[1] - t->lo[1]) * (t->hi[2] - t->lo[2]);
  const int64_t gx = TSR_CEIL_DIV(nx, kThreadsX);
  TSR_CHECK(gx < ((int64_t)1 << 31), TSR_ERR_ARG,
            "tsr_layout_transform_device: %lld cells in x exceed the CUDA grid", (long long)nx);
  const int64_t gy = TSR_MIN(TSR_CEIL_DIV(rows, kRowsPerBlock), (int64_t)65535);
  dim3 grid((unsigned)gx, (unsigned)gy), block(kThreadsX, kRowsPerBlock);
  transform_kernel<T><<<grid, block>>>(*src, (const T *)a, *dst, (T *)b, *t, bytes);
  TSR_CHECK_LAUNCH("layout transform_kernel");
  return TSR_SUCCESS;
}

} // namespace

extern "C" int tsr__layout_transform_cuda(const tsr_layout_t *src, const void *a,
                                          const tsr_layout_t *dst, void *b, size_t elem_size,
                                          const tsr__transform_t *t) {
  if (elem_size == 16 && (uintptr_t)a % 16 == 0 && (uintptr_t)b % 16 == 0) {
    TSR_CALL(launch<Elem16>(src, a, dst, b, t, 0));
    return TSR_SUCCESS;
  }
  switch (elem_size) {
  case 1: TSR_CALL(launch<uint8_t>(src, a, dst, b, t, 0)); break;
  case 2: TSR_CALL(launch<uint16_t>(src, a, dst, b, t, 0)); break;
  case 4: TSR_CALL(launch<uint32_t>(src, a, dst, b, t, 0)); break;
  case 8: TSR_CALL(launch<uint64_t>(src, a, dst, b, t, 0)); break;
  default: /* any other size, byte by byte */
    TSR_CALL(launch<uint8_t>(src, a, dst, b, t, elem_size));
    break;
  }
  return TSR_SUCCESS;
}
