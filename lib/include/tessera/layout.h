/* tessera/layout.h: memory layouts of regular 3-D grids as small values.
 *
 * A tsr_layout_t maps a cell (x, y, z) and a field f to an element offset
 * in one array. It is plain data (no pointers it owns), built by value and
 * passed by value to CPU loops and CUDA kernels alike. docs/LAYOUT.md gives
 * the formulas and the derivation of the padding.
 *
 * Dimensions, named 'x', 'y', 'z' (space, x fastest) and 'f' (fields):
 *   n[3]     inner extents (the cells a kernel updates)
 *   halo[3]  halo widths h on each side
 *   d[3]     full extents d = n + 2h
 *   nf       fields per cell
 * COORDINATES INCLUDE THE HALO (the convention of the grid-storage seed):
 * 0 <= x < d[0], inner cells are h[0] <= x < h[0] + n[0], likewise y, z.
 *
 * Kinds (how a cell maps to a cell index c):
 *   TSR_LAYOUT_ROWMAJOR  c = a + x + y*sy + z*sz, with the MINIMAL padding
 *       (a, sy - d[0], sz - sy*d[1]) that puts the first inner cell of every
 *       row, c(h[0], y, z), on a multiple of the alignment A (cells):
 *         a  = (-h[0]) mod A
 *         sy = roundup(d[0], A)                 (d[1] > 1; else d[0])
 *         sz = roundup((d[1]-1)*sy + d[0], A)   (d[2] > 1; else unpadded)
 *   TSR_LAYOUT_ZCURVE    c = T[x + d[0]*y] + z*sz: the X-Y plane in stretched
 *       Z-order (tessera/zorder.h, w = zbits low bits of x kept linear), Z
 *       regular; T is the plane's rank table (dense: 0 .. d[0]*d[1]-1), and
 *       sz = roundup(d[0]*d[1], A) so every plane starts aligned.
 *   (Kind numbers 2.. are kept for column-major, tiled RC/CR/RR/CC with a
 *    tile size, and blocked layouts.)
 *
 * Field placement (how (c, f) maps to the element offset):
 *   TSR_SOA    c + f*sf, sf = roundup(ncell, A): each field is one aligned
 *              array (so every field's inner rows are aligned)
 *   TSR_AOS    c*nf + f
 *   TSR_AOSOA  (c / B)*B*nf + f*B + c % B: blocks of B cells (B a power of
 *              two, 32 = warp width by default), each field's B values
 *              contiguous. With B dividing A, rows start at block starts.
 * ncell is the cell index range (largest cell index + 1); size (elements
 * to allocate) is (nf-1)*sf + ncell (SoA), nf*ncell (AoS), or
 * ceil(ncell/B)*B*nf (AoSoA).
 *
 * Building (each call returns a new value; a bad argument marks the value
 * invalid and tsr_layout_check() says which call and why):
 *   tsr_layout_t L = tsr_layout_with_fields(
 *       tsr_layout_with_halo(tsr_layout_rowmajor(nx, ny, nz), 2, 2, 0), 3, TSR_SOA);
 *   // u: L.size doubles; u[tsr_layout_rm_offset(&L, x, y, z, f)]
 * New layouts have no halo, align A = 32 cells, one field, SoA, B = 32.
 *
 * Z-curve tables: a ZCURVE layout needs its plane table before use:
 *   tsr_layout_table_create(dev, &L, &T);  L = tsr_layout_with_table(L, T);
 * The table lives where dev says (host or GPU), like the data.
 *
 * Kernels call the per-kind functions below (no switch): the cell index
 * tsr_layout_rm_cell / tsr_layout_zc_cell, then the placement
 * tsr_layout_soa / tsr_layout_aos / tsr_layout_aosoa; tsr_layout_rm_offset
 * and tsr_layout_zc_offset are the SoA (or single-field) shortcuts.
 * tsr_layout_offset() dispatches on kind and placement, checks bounds, and
 * is meant for setup and tests.
 */
#ifndef TESSERA_LAYOUT_H
#define TESSERA_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "tessera/common.h"
#include "tessera/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  TSR_LAYOUT_ROWMAJOR = 0, /* x fastest, rows aligned with minimal padding */
  TSR_LAYOUT_ZCURVE = 1    /* stretched Z-curve in X-Y, regular Z */
} tsr_layout_kind_t;

typedef enum { TSR_SOA = 0, TSR_AOS = 1, TSR_AOSOA = 2 } tsr_fields_t;

#define TSR_LAYOUT_ALIGN 32 /* default alignment A, in cells */
#define TSR_LAYOUT_BLOCK 32 /* default AoSoA block B, in cells */

typedef struct {
  int kind;             /* tsr_layout_kind_t */
  int fields;           /* tsr_fields_t */
  int nf;               /* fields per cell: extent of 'f' */
  int block;            /* B: cells per AoSoA block (power of two) */
  int lblock;           /* log2(B) */
  int zbits;            /* w: low bits of x kept linear (ZCURVE) */
  int err;              /* 0, or why a builder call rejected its arguments */
  int64_t n[3];         /* inner extents x, y, z */
  int64_t halo[3];      /* halo widths */
  int64_t d[3];         /* full extents n + 2*halo: coordinates 0 .. d-1 */
  int64_t align;        /* A: alignment of the first inner cell of a row, cells */
  int64_t base;         /* a: cell index of (0, 0, 0) (ROWMAJOR) */
  int64_t sy, sz;       /* cell-index strides of y and z */
  int64_t ncell;        /* cell index range: largest cell index + 1 */
  int64_t sf;           /* SoA: elements between fields (multiple of A) */
  int64_t size;         /* elements to allocate */
  const int64_t *ztab;  /* ZCURVE: plane rank table [d[1]][d[0]], host or device */
} tsr_layout_t;

/* ---------------------------------------------------------------- builders */
/* Row-major nx * ny * nz cells (all >= 1). */
tsr_layout_t tsr_layout_rowmajor(int64_t nx, int64_t ny, int64_t nz);
/* Stretched Z-curve in X-Y (w in 0..31 low x bits linear), regular Z. */
tsr_layout_t tsr_layout_zcurve(int64_t nx, int64_t ny, int64_t nz, int w);
/* Halo widths (>= 0) on both sides of each dimension; drops a Z-curve table. */
tsr_layout_t tsr_layout_with_halo(tsr_layout_t L, int64_t hx, int64_t hy, int64_t hz);
/* Alignment A in cells, 1 .. 2^20 (1 = dense, no padding). */
tsr_layout_t tsr_layout_with_align(tsr_layout_t L, int64_t align);
/* nf >= 1 fields per cell, placed as TSR_SOA, TSR_AOS or TSR_AOSOA. */
tsr_layout_t tsr_layout_with_fields(tsr_layout_t L, int nf, tsr_fields_t placement);
/* AoSoA block size B (a power of two >= 1). */
tsr_layout_t tsr_layout_with_block(tsr_layout_t L, int block);
/* The Z-curve plane table (host or device pointer, d[0]*d[1] entries). */
tsr_layout_t tsr_layout_with_table(tsr_layout_t L, const int64_t *table);

/* ---------------------------------------------------------------- queries */
/* 0 if L is a valid layout; else TSR_ERR_ARG naming the builder call and the
 * rule it broke, or TSR_ERR_UNSUPPORTED for an unknown kind. */
int tsr_layout_check(const tsr_layout_t *L);
/* Extents by name: 'x', 'y', 'z' (full extent d, halo included) or 'f'
 * (nf); inner extent; halo width. -1 for another name. */
int64_t tsr_layout_extent(const tsr_layout_t *L, char dim);
int64_t tsr_layout_inner(const tsr_layout_t *L, char dim);
int64_t tsr_layout_halo(const tsr_layout_t *L, char dim);
/* Elements and bytes to allocate. */
static inline TSR_HD int64_t tsr_layout_size(const tsr_layout_t *L) { return L->size; }
size_t tsr_layout_bytes(const tsr_layout_t *L, size_t elem_size);
/* Cells of the plane table (d[0]*d[1] for ZCURVE, 0 otherwise). */
int64_t tsr_layout_table_len(const tsr_layout_t *L);
/* One line: kind, extents, halo, padding, fields, size, e.g.
 * "rowmajor x=36(32+2h2) y=... align=32 pad a=30 b=28 c=0 fields=3 soa size=...".
 * Truncated to n bytes (always terminated). */
int tsr_layout_describe(const tsr_layout_t *L, char *buf, size_t n);
/* Name of a kind / placement ("rowmajor", "zcurve"; "soa", "aos", "aosoa"). */
const char *tsr_layout_kind_name(int kind);
const char *tsr_layout_fields_name(int fields);

/* ---------------------------------------------------------------- setup */
/* Allocate tsr_layout_bytes(L, elem_size) on dev, zero-filled. Free with
 * tsr_device_free(dev, p). */
int tsr_layout_alloc(const tsr_device_t *dev, const tsr_layout_t *L, size_t elem_size, void **p);
/* Fill a host table of tsr_layout_table_len(L) entries for a ZCURVE layout. */
int tsr_layout_table_build(const tsr_layout_t *L, int64_t *table);
/* Build the Z-curve table of L on dev (*table = NULL for ROWMAJOR, which
 * needs none); attach it with tsr_layout_with_table. */
int tsr_layout_table_create(const tsr_device_t *dev, const tsr_layout_t *L, int64_t **table);
int tsr_layout_table_destroy(const tsr_device_t *dev, int64_t **table); /* *table = NULL */

/* Generic offset of (x, y, z, f) with bounds checks: -1 when out of range,
 * when L is invalid, or when a ZCURVE layout has no table. Host only; the
 * table must be host memory. For setup and tests, not for kernels. */
int64_t tsr_layout_offset(const tsr_layout_t *L, int64_t x, int64_t y, int64_t z, int f);

/* Copy b[dst(q, f)] = a[src(q, f)] for every cell q and field f of the
 * common LOGICAL domain: logical coordinate = coordinate - halo, so a cell
 * q lies in L when -h <= q < n + h in each dimension; the copied region is
 * the intersection of both layouts' ranges (halo cells included where both
 * have them), fields 0 .. min(nf)-1. Other elements of b are not touched.
 * a and b are host memory (and Z-curve tables too); elem_size bytes per
 * element. OpenMP-parallel over z and y. */
int tsr_layout_transform(const tsr_layout_t *src, const void *a, const tsr_layout_t *dst, void *b,
                         size_t elem_size);

/* ---------------------------------------------------------------- hot path */
/* Cell index, ROWMAJOR: c = a + x + y*sy + z*sz. */
static inline TSR_HD int64_t tsr_layout_rm_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return L->base + x + y * L->sy + z * L->sz;
}
/* Cell index, ZCURVE: c = T[x + d[0]*y] + z*sz. */
static inline TSR_HD int64_t tsr_layout_zc_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return L->ztab[x + L->d[0] * y] + z * L->sz;
}
/* Element offset of field f of cell index c, per placement. */
static inline TSR_HD int64_t tsr_layout_soa(const tsr_layout_t *L, int64_t c, int f) {
  return c + (int64_t)f * L->sf;
}
static inline TSR_HD int64_t tsr_layout_aos(const tsr_layout_t *L, int64_t c, int f) {
  return c * L->nf + f;
}
static inline TSR_HD int64_t tsr_layout_aosoa(const tsr_layout_t *L, int64_t c, int f) {
  return (((c >> L->lblock) * L->nf + f) << L->lblock) + (c & (L->block - 1));
}
/* SoA (or single-field) shortcuts: the offsets kernels use most. */
static inline TSR_HD int64_t tsr_layout_rm_offset(const tsr_layout_t *L, int64_t x, int64_t y,
                                                  int64_t z, int f) {
  return tsr_layout_soa(L, tsr_layout_rm_cell(L, x, y, z), f);
}
static inline TSR_HD int64_t tsr_layout_zc_offset(const tsr_layout_t *L, int64_t x, int64_t y,
                                                  int64_t z, int f) {
  return tsr_layout_soa(L, tsr_layout_zc_cell(L, x, y, z), f);
}

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_LAYOUT_H */
