/* tessera/common.h: portability macros shared by C host code, CUDA code and
 * the kernel headers that both compile. */
#ifndef TESSERA_COMMON_H
#define TESSERA_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* TSR_HD marks functions compiled for host and device alike. */
#if defined(__CUDACC__)
#define TSR_HD __host__ __device__
#else
#define TSR_HD
#endif

#if defined(__cplusplus)
#define TSR_RESTRICT __restrict__
#else
#define TSR_RESTRICT restrict
#endif

/* Global element indices are 64-bit; local offsets inside a kernel may be 32. */
typedef int64_t tsr_idx_t;

/* Element types of arrays in memory and in files. */
typedef enum { TSR_INT32 = 0, TSR_INT64, TSR_FLOAT, TSR_DOUBLE } tsr_dtype_t;

static inline size_t tsr_dtype_size(tsr_dtype_t t) {
  return (t == TSR_INT32 || t == TSR_FLOAT) ? 4 : 8;
}
static inline const char *tsr_dtype_name(tsr_dtype_t t) {
  return t == TSR_INT32 ? "int32" : t == TSR_INT64 ? "int64" : t == TSR_FLOAT ? "float" : "double";
}

#define TSR_MIN(a, b) ((a) < (b) ? (a) : (b))
#define TSR_MAX(a, b) ((a) > (b) ? (a) : (b))
#define TSR_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

#endif /* TESSERA_COMMON_H */
