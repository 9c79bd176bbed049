/* layout_internal.h: what layout.c shares with its CUDA part
 * (lib/src/cuda/layout_transform.cu). Not installed. */
#ifndef TSR_LAYOUT_INTERNAL_H
#define TSR_LAYOUT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "tessera/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The common logical domain of a transform: q in [lo, hi) per dimension
 * (coordinate = q + halo), fields 0 .. nf-1; non-empty. */
typedef struct {
  int64_t lo[3], hi[3];
  int nf;
} tsr__transform_t;

/* CUDA part of tsr_layout_transform_device (layouts checked, a and b and
 * Z-curve tables device memory); asynchronous on the default stream. */
int tsr__layout_transform_cuda(const tsr_layout_t *src, const void *a, const tsr_layout_t *dst,
                               void *b, size_t elem_size, const tsr__transform_t *t);

#ifdef __cplusplus
}
#endif
#endif /* TSR_LAYOUT_INTERNAL_H */
