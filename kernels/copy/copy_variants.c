/* kernels/copy/copy_variants.c: the variant table (from variants.def),
 * dispatch by id, and, in a build without CUDA, the CUDA launchers'
 * "built without CUDA" answers. */
#include "config.h"

#include "kernels/copy/copy.h"
#include "tessera/error.h"

static const char *const names[COPY_NVARIANTS] = {
#define COPY_VARIANT(id, name, dev, kind, help) [COPY_##id] = name,
#include "kernels/copy/variants.def"
#undef COPY_VARIANT
};

const char *copy_variant_name(int id) {
  return id >= 0 && id < COPY_NVARIANTS ? names[id] : NULL;
}

double copy_bytes_moved(int id, const tsr_layout_t *L) {
  if (id == COPY_CUDA_MEMCPY) return 16.0 * (double)L->size;
  return 16.0 * (double)L->n[0] * (double)L->n[1] * (double)L->n[2] * (double)L->nf;
}

int copy_run(int id, tsr_layout_t L, const int64_t *cells, const double *src, double *dst, int bx,
             int by, int bz) {
  switch (id) {
  case COPY_CPU_ROWMAJOR: TSR_CALL(copy_rowmajor_cpu(L, src, dst)); break;
  case COPY_CPU_ZCURVE: TSR_CALL(copy_zcurve_cpu(L, src, dst)); break;
  case COPY_CUDA_ROWMAJOR: TSR_CALL(copy_rowmajor_cuda(L, src, dst, bx, by, bz)); break;
  case COPY_CUDA_ZCURVE: TSR_CALL(copy_zcurve_cuda(L, src, dst, bx, by, bz)); break;
  case COPY_CUDA_ZCURVE_STORAGE:
    TSR_CALL(copy_zcurve_storage_cuda(L, cells, src, dst, bx, by, bz));
    break;
  case COPY_CUDA_MEMCPY: TSR_CALL(copy_memcpy_cuda(L, src, dst, bx, by, bz)); break;
  default:
    return TSR_RAISE(TSR_ERR_ARG, "copy_run: no copy variant %d (0..%d)", id, COPY_NVARIANTS - 1);
  }
  return TSR_SUCCESS;
}

#ifndef TSR_HAVE_CUDA
int copy_rowmajor_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by, int bz) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "cuda/rowmajor: Tessera was built without CUDA");
}
int copy_zcurve_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by, int bz) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "cuda/zcurve: Tessera was built without CUDA");
}
int copy_memcpy_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by, int bz) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "cuda/memcpy: Tessera was built without CUDA");
}
int copy_zcurve_storage_cuda(tsr_layout_t L, const int64_t *cells, const double *src, double *dst,
                             int bx, int by, int bz) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "cuda/zcurve-storage: Tessera was built without CUDA");
}
#endif
