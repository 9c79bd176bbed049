/* kernels/copy/copy.h: a copy kernel written through the layout offset
 * functions, so that a benchmark can show what they cost (nothing, we hope:
 * compare cuda/rowmajor with cuda/memcpy).
 *
 * Every variant copies dst[o] = src[o] for each inner cell (x, y, z) of L
 * (coordinates with halo: h <= x < h + n) and each field f, o the layout's
 * offset; halo cells and padding of dst are not touched (except by
 * cuda/memcpy, which copies the whole array). The layout must be SoA (or
 * have one field); a Z-curve layout must carry its plane table where the
 * variant runs (host for cpu/, GPU for cuda/). src and dst: L.size doubles.
 *
 * CUDA launchers are asynchronous on the default stream (time them with
 * tsr_timer_* or call tsr_device_sync); block shape bx*by*bz <= 1024.
 * In a build without CUDA they answer TSR_ERR_NOCUDA.
 */
#ifndef TSR_KERNELS_COPY_H
#define TSR_KERNELS_COPY_H

#include <stdint.h>
#include "tessera/common.h"
#include "tessera/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
#define COPY_VARIANT(id, name, dev, kind, help) COPY_##id,
#include "kernels/copy/variants.def"
#undef COPY_VARIANT
  COPY_NVARIANTS
} copy_variant_id_t;

/* Per-cell copy of all fields, row-major offsets. */
static inline TSR_HD void copy_rowmajor_cell(const tsr_layout_t *L, const double *TSR_RESTRICT src,
                                             double *TSR_RESTRICT dst, int64_t x, int64_t y,
                                             int64_t z) {
  for (int f = 0; f < L->nf; f++) {
    int64_t o = tsr_layout_rm_offset(L, x, y, z, f);
    dst[o] = src[o];
  }
}

/* Per-cell copy of all fields, Z-curve offsets (L->ztab on this side). */
static inline TSR_HD void copy_zcurve_cell(const tsr_layout_t *L, const double *TSR_RESTRICT src,
                                           double *TSR_RESTRICT dst, int64_t x, int64_t y,
                                           int64_t z) {
  for (int f = 0; f < L->nf; f++) {
    int64_t o = tsr_layout_zc_offset(L, x, y, z, f);
    dst[o] = src[o];
  }
}

/* 0 if L is a valid SoA (or one-field) layout of kind `kind` (with a plane
 * table for ZCURVE) and src, dst are distinct non-NULL; else TSR_ERR_ARG
 * saying what is wrong. `who` names the caller in the message. */
int copy_check(const char *who, const tsr_layout_t *L, int kind, const double *src,
               const double *dst);

/* CPU variants (OpenMP over z and y, x innermost). */
int copy_rowmajor_cpu(tsr_layout_t L, const double *src, double *dst);
int copy_zcurve_cpu(tsr_layout_t L, const double *src, double *dst);

/* CUDA variants: one thread per (x, y) and slice of up to 8 cells in z
 * (offset of the slice's first cell from the layout, then the layout's z
 * stride), x fastest, blocks bx*by*bz covering x, y and the z slices.
 * copy_memcpy_cuda copies all L.size elements (block shape unused). */
int copy_rowmajor_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by, int bz);
int copy_zcurve_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by, int bz);
int copy_memcpy_cuda(tsr_layout_t L, const double *src, double *dst, int bx, int by, int bz);
/* Z-curve copy whose threads follow the storage order instead of the
 * coordinates: thread r of a plane takes the cell cells[r] = x + d0*y
 * (tsr_zorder_plane_inverse of the layout's plane, on the GPU), skips it
 * if it is a halo cell, else copies its z slice through the layout's
 * offsets. Blocks of bx*by*bz threads along the storage order. */
int copy_zcurve_storage_cuda(tsr_layout_t L, const int64_t *cells, const double *src, double *dst,
                             int bx, int by, int bz);

/* Run variant id (copy_variant_id_t); CPU variants ignore the block shape.
 * cells: the inverse plane table where the variant runs, for
 * cuda/zcurve-storage (NULL for the others). */
int copy_run(int id, tsr_layout_t L, const int64_t *cells, const double *src, double *dst, int bx,
             int by, int bz);
/* Name of variant id ("cuda/zcurve"), NULL if id is out of range. */
const char *copy_variant_name(int id);
/* Bytes a variant reads plus writes: 16 * inner cells * nf, or 16 * L.size
 * for cuda/memcpy; for bandwidth figures. */
double copy_bytes_moved(int id, const tsr_layout_t *L);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_COPY_H */
