/* halo_packing.c: packing and unpacking through index lists: the host loops,
 * the building blocks of tessera/halo.h (tsr_halo_pack, _unpack and their
 * _on and _arrays forms, on the host or on the device's stream), and the
 * exchange's arrays (tsr__hd_t) packed and unpacked for halo.c. The CUDA
 * kernels are in cuda/halo_pack.cu. */
#include "config.h"
#include "tessera/halo.h"
#include "tessera/error.h"

#include <stdlib.h>
#include <string.h>
#ifdef TSR_HAVE_CUDA
#include "tessera/cuda.h"
#endif

#include "halo_internal.h"

/* ------------------------------------------------------------ host pack */

static int check_pack_args(tsr_idx_t n, const tsr_idx_t *idx, int dim, tsr_dtype_t t) {
  TSR_CHECK(n >= 0 && dim > 0, TSR_ERR_ARG, "halo pack: n = %lld, dim = %d", (long long)n, dim);
  TSR_CHECK(n == 0 || idx, TSR_ERR_ARG, "halo pack: index list is NULL");
  TSR_CHECK(t >= TSR_INT32 && t <= TSR_DOUBLE, TSR_ERR_ARG, "halo pack: unknown type %d", (int)t);
  return TSR_SUCCESS;
}

#ifdef _OPENMP
#define TSR__OMP_PAR_FOR _Pragma("omp parallel for if (n * dim > 65536)")
#else
#define TSR__OMP_PAR_FOR
#endif

#define TSR__COPY_LOOP(T, DST, DI, SRC, SI)                                  \
  do {                                                                       \
    T *d_ = (T *)(DST);                                                      \
    const T *s_ = (const T *)(SRC);                                          \
    TSR__OMP_PAR_FOR                                                         \
    for (tsr_idx_t j = 0; j < n; j++)                                        \
      for (int c = 0; c < dim; c++) d_[(DI) * dim + c] = s_[(SI) * dim + c]; \
  } while (0)

static void pack_host(tsr_idx_t n, const tsr_idx_t *idx, int dim, size_t es, const void *data,
                      void *buf) {
  if (es == 4)
    TSR__COPY_LOOP(uint32_t, buf, j, data, idx[j]);
  else
    TSR__COPY_LOOP(uint64_t, buf, j, data, idx[j]);
}

/* Serial where adding: repeated indices must not race. */
#define TSR__ADD_LOOP(T)                                                     \
  do {                                                                       \
    T *d_ = (T *)data;                                                       \
    const T *s_ = (const T *)buf;                                            \
    for (tsr_idx_t j = 0; j < n; j++)                                        \
      for (int c = 0; c < dim; c++) d_[idx[j] * dim + c] += s_[j * dim + c]; \
  } while (0)

static void unpack_host(tsr_idx_t n, const tsr_idx_t *idx, int dim, tsr_dtype_t t,
                        const void *buf, void *data, int add) {
  if (!add) {
    if (tsr_dtype_size(t) == 4)
      TSR__COPY_LOOP(uint32_t, data, idx[j], buf, j);
    else
      TSR__COPY_LOOP(uint64_t, data, idx[j], buf, j);
    return;
  }
  switch (t) {
    case TSR_INT32: TSR__ADD_LOOP(int32_t); break;
    case TSR_INT64: TSR__ADD_LOOP(int64_t); break;
    case TSR_FLOAT: TSR__ADD_LOOP(float); break;
    case TSR_DOUBLE: TSR__ADD_LOOP(double); break;
  }
}

int tsr_halo_pack(const tsr_device_t *dev, tsr_idx_t n, const tsr_idx_t *idx, int dim,
                  tsr_dtype_t t, const void *data, void *buf) {
  return tsr_halo_pack_on(dev, NULL, n, idx, dim, t, data, buf);
}

int tsr_halo_unpack(const tsr_device_t *dev, tsr_idx_t n, const tsr_idx_t *idx, int dim,
                    tsr_dtype_t t, const void *buf, void *data, int add) {
  return tsr_halo_unpack_on(dev, NULL, n, idx, dim, t, buf, data, add);
}

int tsr_halo_pack_on(const tsr_device_t *dev, void *stream, tsr_idx_t n, const tsr_idx_t *idx,
                     int dim, tsr_dtype_t t, const void *data, void *buf) {
  TSR_CHECK(dev, TSR_ERR_ARG, "tsr_halo_pack: device is NULL");
  TSR_CALL(check_pack_args(n, idx, dim, t));
  if (n == 0) return TSR_SUCCESS;
  if (dev->kind == TSR_DEV_CPU) {
    pack_host(n, idx, dim, tsr_dtype_size(t), data, buf);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  TSR_CALL(tsr__halo_pack_cuda(n, idx, dim, (int)tsr_dtype_size(t), data, buf, stream));
  return TSR_SUCCESS;
#else
  (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo pack on a CUDA device: Tessera was built without CUDA");
#endif
}

int tsr_halo_unpack_on(const tsr_device_t *dev, void *stream, tsr_idx_t n, const tsr_idx_t *idx,
                       int dim, tsr_dtype_t t, const void *buf, void *data, int add) {
  TSR_CHECK(dev, TSR_ERR_ARG, "tsr_halo_unpack: device is NULL");
  TSR_CALL(check_pack_args(n, idx, dim, t));
  if (n == 0) return TSR_SUCCESS;
  if (dev->kind == TSR_DEV_CPU) {
    unpack_host(n, idx, dim, t, buf, data, add);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  TSR_CALL(tsr__halo_unpack_cuda(n, idx, dim, (int)t, buf, data, add, stream));
  return TSR_SUCCESS;
#else
  (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo unpack on a CUDA device: Tessera was built without CUDA");
#endif
}

static int check_arrays_args(tsr_idx_t n, const tsr_idx_t *idx, tsr_dtype_t t, int narr,
                             const void *const *data, tsr_idx_t stride) {
  TSR_CALL(check_pack_args(n, idx, 1, t));
  TSR_CHECK(narr >= 1 && narr <= TSR_HALO_MAX_ARRAYS && data, TSR_ERR_ARG,
            "halo pack of %d arrays (1..%d)", narr, TSR_HALO_MAX_ARRAYS);
  TSR_CHECK(narr == 1 || stride >= n, TSR_ERR_ARG, "halo pack: stride %lld < %lld elements",
            (long long)stride, (long long)n);
  return TSR_SUCCESS;
}

int tsr_halo_pack_arrays_on(const tsr_device_t *dev, void *stream, tsr_idx_t n,
                            const tsr_idx_t *idx, tsr_dtype_t t, int narr,
                            const void *const *data, void *buf, tsr_idx_t stride) {
  TSR_CHECK(dev, TSR_ERR_ARG, "tsr_halo_pack_arrays: device is NULL");
  TSR_CALL(check_arrays_args(n, idx, t, narr, data, stride));
  if (n == 0) return TSR_SUCCESS;
  const size_t es = tsr_dtype_size(t);
  if (dev->kind == TSR_DEV_CPU) {
    for (int a = 0; a < narr; a++)
      pack_host(n, idx, 1, es, data[a], (char *)buf + (size_t)(a * stride) * es);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  TSR_CALL(tsr__halo_pack_arrays_cuda(n, idx, (int)es, narr, data, buf, stride, stream));
  return TSR_SUCCESS;
#else
  (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo pack on a CUDA device: Tessera was built without CUDA");
#endif
}

int tsr_halo_unpack_arrays_on(const tsr_device_t *dev, void *stream, tsr_idx_t n,
                              const tsr_idx_t *idx, tsr_dtype_t t, int narr, const void *buf,
                              tsr_idx_t stride, void *const *data, int add) {
  TSR_CHECK(dev, TSR_ERR_ARG, "tsr_halo_unpack_arrays: device is NULL");
  TSR_CALL(check_arrays_args(n, idx, t, narr, (const void *const *)data, stride));
  if (n == 0) return TSR_SUCCESS;
  const size_t es = tsr_dtype_size(t);
  if (dev->kind == TSR_DEV_CPU) {
    for (int a = 0; a < narr; a++)
      unpack_host(n, idx, 1, t, (const char *)buf + (size_t)(a * stride) * es, data[a], add);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  TSR_CALL(tsr__halo_unpack_arrays_cuda(n, idx, (int)t, narr, buf, stride, data, add, stream));
  return TSR_SUCCESS;
#else
  (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo unpack on a CUDA device: Tessera was built without CUDA");
#endif
}

/* The exchange's arrays D through a list (halo_internal.h). */
void tsr__halo_pack_host_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, size_t esz, void *buf) {
  if (D->n == 1) {
    pack_host(n, idx, D->dim[0], esz, D->p[0], buf);
    return;
  }
  char *b = buf;
  const size_t es = esz * (size_t)D->sum;
  for (tsr_idx_t j = 0; j < n; j++) {
    size_t o = 0;
    for (int a = 0; a < D->n; a++) {
      const size_t w = esz * (size_t)D->dim[a];
      memcpy(b + (size_t)j * es + o, (const char *)D->p[a] + (size_t)idx[j] * w, w);
      o += w;
    }
  }
}

void tsr__halo_unpack_host_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, tsr_dtype_t t,
                           const void *buf, int add) {
  if (D->n == 1) {
    unpack_host(n, idx, D->dim[0], t, buf, D->p[0], add);
    return;
  }
  /* several arrays: forward exchanges only (copies) */
  const size_t esz = tsr_dtype_size(t), es = esz * (size_t)D->sum;
  size_t o = 0;
  for (int a = 0; a < D->n; a++) {
    const size_t w = esz * (size_t)D->dim[a];
    for (tsr_idx_t j = 0; j < n; j++)
      memcpy((char *)D->p[a] + (size_t)idx[j] * w, (const char *)buf + (size_t)j * es + o, w);
    o += w;
  }
}

#ifdef TSR_HAVE_CUDA
int tsr__halo_pack_cuda_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, tsr_dtype_t t,
                        void *buf, void *stream) {
  if (D->n == 1)
    return tsr__halo_pack_cuda(n, idx, D->dim[0], (int)tsr_dtype_size(t), D->p[0], buf, stream);
  return tsr__halo_pack_multi_cuda(n, idx, (int)tsr_dtype_size(t), D->n, (const void *const *)D->p,
                                   D->dim, buf, stream);
}

int tsr__halo_unpack_cuda_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, tsr_dtype_t t,
                          const void *buf, int add, void *stream) {
  if (D->n == 1) return tsr__halo_unpack_cuda(n, idx, D->dim[0], (int)t, buf, D->p[0], add, stream);
  (void)add; /* several arrays: forward exchanges only (copies) */
  return tsr__halo_unpack_multi_cuda(n, idx, (int)t, D->n, buf, (void *const *)D->p, D->dim, stream);
}
#endif
