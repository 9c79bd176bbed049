/* halo_pack.cu: halo pack/unpack kernels and their launchers (on the given
 * stream, NULL: the default stream; asynchronous: the caller's next copy or
 * sync orders them). */
#include "config.h"
#include "tessera/common.h"
#include "tessera/cuda.h"
#include "tessera/halo.h"
#include "../halo_internal.h"

#include <stdint.h>

namespace {

const int kBlock = 256;

/* One thread per (element j, component c), grid-stride. */
template <typename T>
__global__ void pack_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, int dim,
                            const T *__restrict__ data, T *__restrict__ buf) {
  tsr_idx_t total = n * dim;
  for (tsr_idx_t t = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (tsr_idx_t)gridDim.x * blockDim.x) {
    tsr_idx_t j = t / dim;
    int c = (int)(t - j * dim);
    buf[t] = data[idx[j] * dim + c];
  }
}

template <typename T>
__global__ void unpack_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, int dim,
                              const T *__restrict__ buf, T *__restrict__ data) {
  tsr_idx_t total = n * dim;
  for (tsr_idx_t t = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (tsr_idx_t)gridDim.x * blockDim.x) {
    tsr_idx_t j = t / dim;
    int c = (int)(t - j * dim);
    data[idx[j] * dim + c] = buf[t];
  }
}

/* Adding: an owned element may be sent to several neighbours, so its index
 * repeats in the list; atomics keep every contribution. */
__device__ inline void atomic_add(int32_t *p, int32_t v) { atomicAdd((int *)p, (int)v); }
__device__ inline void atomic_add(int64_t *p, int64_t v) {
  atomicAdd((unsigned long long *)p, (unsigned long long)v); /* two's complement */
}
__device__ inline void atomic_add(float *p, float v) { atomicAdd(p, v); }
__device__ inline void atomic_add(double *p, double v) { atomicAdd(p, v); }

template <typename T>
__global__ void unpack_add_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, int dim,
                                  const T *__restrict__ buf, T *data) {
  tsr_idx_t total = n * dim;
  for (tsr_idx_t t = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (tsr_idx_t)gridDim.x * blockDim.x) {
    tsr_idx_t j = t / dim;
    int c = (int)(t - j * dim);
    atomic_add(&data[idx[j] * dim + c], buf[t]);
  }
}

unsigned grid_for(tsr_idx_t total) {
  tsr_idx_t g = (total + kBlock - 1) / kBlock;
  return (unsigned)(g < 65535 * 16 ? (g > 0 ? g : 1) : 65535 * 16);
}

template <typename T>
int unpack_add(tsr_idx_t n, const tsr_idx_t *idx, int dim, const void *buf, void *data,
               cudaStream_t sm) {
  unpack_add_kernel<T><<<grid_for(n * dim), kBlock, 0, sm>>>(n, idx, dim, (const T *)buf, (T *)data);
  TSR_CHECK_LAUNCH("halo unpack-add kernel");
  return TSR_SUCCESS;
}

/* Several arrays through one index list (dim 1): one thread per index j,
 * every array; the pointers travel by value. */
template <typename T> struct arrays_t {
  T *a[TSR_HALO_MAX_ARRAYS];
};

template <typename T>
__global__ void pack_arrays_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, int narr,
                                   arrays_t<const T> data, T *__restrict__ buf, tsr_idx_t stride) {
  for (tsr_idx_t j = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; j < n;
       j += (tsr_idx_t)gridDim.x * blockDim.x) {
    const tsr_idx_t i = idx[j];
#pragma unroll
    for (int a = 0; a < TSR_HALO_MAX_ARRAYS; a++)
      if (a < narr) buf[a * stride + j] = data.a[a][i];
  }
}

template <typename T, bool Add>
__global__ void unpack_arrays_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, int narr,
                                     const T *__restrict__ buf, tsr_idx_t stride,
                                     arrays_t<T> data) {
  for (tsr_idx_t j = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; j < n;
       j += (tsr_idx_t)gridDim.x * blockDim.x) {
    const tsr_idx_t i = idx[j];
#pragma unroll
    for (int a = 0; a < TSR_HALO_MAX_ARRAYS; a++)
      if (a < narr) {
        if constexpr (Add) atomic_add(&data.a[a][i], buf[a * stride + j]);
        else data.a[a][i] = buf[a * stride + j];
      }
  }
}

template <typename T>
int pack_arrays(tsr_idx_t n, const tsr_idx_t *idx, int narr, const void *const *data, void *buf,
                tsr_idx_t stride, cudaStream_t sm) {
  arrays_t<const T> d = {};
  for (int a = 0; a < narr; a++) d.a[a] = (const T *)data[a];
  pack_arrays_kernel<T><<<grid_for(n), kBlock, 0, sm>>>(n, idx, narr, d, (T *)buf, stride);
  TSR_CHECK_LAUNCH("halo pack kernel (arrays)");
  return TSR_SUCCESS;
}

template <typename T, bool Add>
int unpack_arrays(tsr_idx_t n, const tsr_idx_t *idx, int narr, const void *buf, tsr_idx_t stride,
                  void *const *data, cudaStream_t sm) {
  arrays_t<T> d = {};
  for (int a = 0; a < narr; a++) d.a[a] = (T *)data[a];
  unpack_arrays_kernel<T, Add><<<grid_for(n), kBlock, 0, sm>>>(n, idx, narr, (const T *)buf, stride,
                                                              d);
  TSR_CHECK_LAUNCH("halo unpack kernel (arrays)");
  return TSR_SUCCESS;
}

/* Several arrays of dims[a] values per element in one message (element j:
 * every array's values in turn, sum values): one thread per message value. */
struct multi_t {
  const void *p[TSR_HALO_MAX_ARRAYS];
  int dim[TSR_HALO_MAX_ARRAYS];
  int narr, sum;
};

/* Value t of a message: entry j = t / sum of the list, the address of its
   value in m's arrays (array a, component r of element idx[j]). */
template <typename T>
__device__ inline T *multi_at(const multi_t &m, const tsr_idx_t *__restrict__ idx, tsr_idx_t t,
                              tsr_idx_t *j_out) {
  const tsr_idx_t j = t / m.sum;
  int r = (int)(t - j * m.sum), a = 0;
  while (r >= m.dim[a]) r -= m.dim[a++];
  *j_out = j;
  return (T *)m.p[a] + idx[j] * m.dim[a] + r;
}

template <typename T>
__global__ void pack_multi_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, multi_t m,
                                  T *__restrict__ buf) {
  const tsr_idx_t total = n * m.sum;
  for (tsr_idx_t t = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (tsr_idx_t)gridDim.x * blockDim.x) {
    tsr_idx_t j;
    buf[t] = *multi_at<T>(m, idx, t, &j);
  }
}

template <typename T>
__global__ void unpack_multi_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx, multi_t m,
                                    const T *__restrict__ buf) {
  const tsr_idx_t total = n * m.sum;
  for (tsr_idx_t t = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (tsr_idx_t)gridDim.x * blockDim.x) {
    tsr_idx_t j;
    *multi_at<T>(m, idx, t, &j) = buf[t];
  }
}

/* pack_multi_kernel with each element's values stored in its neighbour's
   message: value t of the list goes to base[nb[j]] + t values (base: byte
   addresses, CUDA IPC mappings of the neighbours' receive buffers). */
template <typename T>
__global__ void put_multi_kernel(tsr_idx_t n, const tsr_idx_t *__restrict__ idx,
                                 const int *__restrict__ nb, multi_t m, tsr__halo_put_t dst) {
  const tsr_idx_t total = n * m.sum;
  for (tsr_idx_t t = (tsr_idx_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
       t += (tsr_idx_t)gridDim.x * blockDim.x) {
    tsr_idx_t j;
    const T v = *multi_at<T>(m, idx, t, &j);
    *reinterpret_cast<T *>(dst.base[__ldg(nb + j)] + (unsigned long long)t * sizeof(T)) = v;
  }
}

multi_t make_multi(int narr, const void *const *data, const int *dims) {
  multi_t m = {};
  m.narr = narr;
  for (int a = 0; a < narr; a++) m.p[a] = data[a], m.dim[a] = dims[a], m.sum += dims[a];
  return m;
}

} // namespace

namespace {
__global__ void gate_kernel(volatile unsigned int *gate) {
  while (*gate == 0u) {
#if __CUDA_ARCH__ >= 700
    __nanosleep(100); /* polls the host's memory less often */
#endif
  }
  *gate = 0u;
  __threadfence_system();
}
} // namespace

extern "C" int tsr__halo_gate_cuda(unsigned int *gate, void *stream) {
  gate_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(gate);
  TSR_CHECK_LAUNCH("halo gate kernel");
  return TSR_SUCCESS;
}

extern "C" int tsr__halo_pack_multi_cuda(tsr_idx_t n, const tsr_idx_t *idx, int elsize, int narr,
                                         const void *const *data, const int *dims, void *buf,
                                         void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  const multi_t m = make_multi(narr, data, dims);
  if (elsize == 4)
    pack_multi_kernel<uint32_t><<<grid_for(n * m.sum), kBlock, 0, sm>>>(n, idx, m, (uint32_t *)buf);
  else
    pack_multi_kernel<uint64_t><<<grid_for(n * m.sum), kBlock, 0, sm>>>(n, idx, m, (uint64_t *)buf);
  TSR_CHECK_LAUNCH("halo pack kernel (several arrays)");
  return TSR_SUCCESS;
}

extern "C" int tsr__halo_put_multi_cuda(tsr_idx_t n, const tsr_idx_t *idx, const int *nb, int elsize,
                                        int narr, const void *const *data, const int *dims,
                                        const tsr__halo_put_t *dst, void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  const multi_t m = make_multi(narr, data, dims);
  if (elsize == 4)
    put_multi_kernel<uint32_t><<<grid_for(n * m.sum), kBlock, 0, sm>>>(n, idx, nb, m, *dst);
  else
    put_multi_kernel<uint64_t><<<grid_for(n * m.sum), kBlock, 0, sm>>>(n, idx, nb, m, *dst);
  TSR_CHECK_LAUNCH("halo IPC put kernel");
  return TSR_SUCCESS;
}

extern "C" int tsr__halo_unpack_multi_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dtype, int narr,
                                           const void *buf, void *const *data, const int *dims,
                                           void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  const multi_t m = make_multi(narr, (const void *const *)data, dims);
  if (tsr_dtype_size((tsr_dtype_t)dtype) == 4)
    unpack_multi_kernel<uint32_t><<<grid_for(n * m.sum), kBlock, 0, sm>>>(n, idx, m, (const uint32_t *)buf);
  else
    unpack_multi_kernel<uint64_t><<<grid_for(n * m.sum), kBlock, 0, sm>>>(n, idx, m, (const uint64_t *)buf);
  TSR_CHECK_LAUNCH("halo unpack kernel (several arrays)");
  return TSR_SUCCESS;
}

extern "C" int tsr__halo_pack_arrays_cuda(tsr_idx_t n, const tsr_idx_t *idx, int elsize, int narr,
                                          const void *const *data, void *buf, tsr_idx_t stride,
                                          void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  if (elsize == 4) return pack_arrays<uint32_t>(n, idx, narr, data, buf, stride, sm);
  return pack_arrays<uint64_t>(n, idx, narr, data, buf, stride, sm);
}

extern "C" int tsr__halo_unpack_arrays_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dtype, int narr,
                                            const void *buf, tsr_idx_t stride, void *const *data,
                                            int add, void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  if (add) {
    switch ((tsr_dtype_t)dtype) {
      case TSR_INT32: return unpack_arrays<int32_t, true>(n, idx, narr, buf, stride, data, sm);
      case TSR_INT64: return unpack_arrays<int64_t, true>(n, idx, narr, buf, stride, data, sm);
      case TSR_FLOAT: return unpack_arrays<float, true>(n, idx, narr, buf, stride, data, sm);
      case TSR_DOUBLE: return unpack_arrays<double, true>(n, idx, narr, buf, stride, data, sm);
    }
    return tsr_error_raise(TSR_ERR_ARG, __FILE__, __LINE__, __func__,
                           "halo unpack: unknown type %d", dtype);
  }
  if (tsr_dtype_size((tsr_dtype_t)dtype) == 4)
    return unpack_arrays<uint32_t, false>(n, idx, narr, buf, stride, data, sm);
  return unpack_arrays<uint64_t, false>(n, idx, narr, buf, stride, data, sm);
}

extern "C" int tsr__halo_pack_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dim, int elsize,
                                   const void *data, void *buf, void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  if (elsize == 4)
    pack_kernel<uint32_t><<<grid_for(n * dim), kBlock, 0, sm>>>(n, idx, dim, (const uint32_t *)data,
                                                         (uint32_t *)buf);
  else
    pack_kernel<uint64_t><<<grid_for(n * dim), kBlock, 0, sm>>>(n, idx, dim, (const uint64_t *)data,
                                                         (uint64_t *)buf);
  TSR_CHECK_LAUNCH("halo pack kernel");
  return TSR_SUCCESS;
}

extern "C" int tsr__halo_unpack_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dim, int dtype,
                                     const void *buf, void *data, int add, void *stream) {
  cudaStream_t sm = (cudaStream_t)stream;
  if (n == 0) return TSR_SUCCESS;
  if (add) {
    switch ((tsr_dtype_t)dtype) {
      case TSR_INT32: return unpack_add<int32_t>(n, idx, dim, buf, data, sm);
      case TSR_INT64: return unpack_add<int64_t>(n, idx, dim, buf, data, sm);
      case TSR_FLOAT: return unpack_add<float>(n, idx, dim, buf, data, sm);
      case TSR_DOUBLE: return unpack_add<double>(n, idx, dim, buf, data, sm);
    }
    return tsr_error_raise(TSR_ERR_ARG, __FILE__, __LINE__, __func__,
                           "halo unpack: unknown type %d", dtype);
  }
  if (tsr_dtype_size((tsr_dtype_t)dtype) == 4)
    unpack_kernel<uint32_t><<<grid_for(n * dim), kBlock, 0, sm>>>(n, idx, dim, (const uint32_t *)buf,
                                                           (uint32_t *)data);
  else
    unpack_kernel<uint64_t><<<grid_for(n * dim), kBlock, 0, sm>>>(n, idx, dim, (const uint64_t *)buf,
                                                           (uint64_t *)data);
  TSR_CHECK_LAUNCH("halo unpack kernel");
  return TSR_SUCCESS;
}
