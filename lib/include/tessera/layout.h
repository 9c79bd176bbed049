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
 *   TSR_LAYOUT_COLMAJOR  c = a + y + x*sx + z*sz: ROWMAJOR with x and y
 *       swapped (y fastest, then x, then z): a matrix with x = column and
 *       y = row is stored column-major. Minimal padding as for ROWMAJOR,
 *       mirrored: the first inner cell of every column, c(x, h[1], z), is on
 *       a multiple of A:  a = (-h[1]) mod A, sx = roundup(d[1], A)  (d[0] > 1),
 *       sz = roundup((d[0]-1)*sx + d[1], A)  (d[2] > 1).
 *   TSR_LAYOUT_RC, _CR, _RR, _CC  tiled X-Y plane, Z regular (the Noarr paper's
 *       matrix layouts): the plane is cut into tiles of tx * ty cells (powers
 *       of two, 16 x 16 by default); the FIRST letter is the order inside a
 *       tile (R: x fastest, C: y fastest), the SECOND the order of the tiles
 *       (R: tile column X = x/tx fastest, C: tile row Y = y/ty fastest). Edge
 *       tiles of a plane whose extents are not multiples of the tile are
 *       stored SMALLER (w(X) = min(tx, d[0]-X*tx), h(Y) likewise), so every
 *       tiled plane is dense, a bijection onto 0 .. d[0]*d[1]-1:
 *         tile start, tiles in R order:  Y*ty*d[0] + X*tx*h(Y)
 *         tile start, tiles in C order:  X*tx*d[1] + Y*ty*w(X)
 *         inside, R: (y%ty)*w(X) + x%tx;  inside, C: (x%tx)*h(Y) + y%ty
 *       c = start + inside + z*sz, sz = roundup(d[0]*d[1], A) (d[2] > 1).
 *       Coordinates include the halo, tiles start at coordinate 0.
 * Matrices: x is the column, y the row (z = 1), so R = ROWMAJOR,
 * C = COLMAJOR, and RC, CR, RR, CC are the Noarr paper's tiled layouts.
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
 * tsr_layout_rm_cell / _zc_cell / _cm_cell / _rc_cell / _cr_cell /
 * _rr_cell / _cc_cell, then the placement tsr_layout_soa / tsr_layout_aos /
 * tsr_layout_aosoa; tsr_layout_rm_offset and tsr_layout_zc_offset are the
 * SoA (or single-field) shortcuts. tsr_layout_offset() dispatches on kind
 * and placement, checks bounds, and is meant for setup and tests.
 *
 * Layout-agnostic kernels (C has no templates): tsr_layout_cell_as(K, L, ...)
 * is an inline switch on a kind K. Called with a CONSTANT K (a macro
 * argument, a C++ template parameter in a .cu file, or a constant argument
 * of an inlined function) the compiler folds the switch away and the code
 * is that of the per-kind function: one source, specialised per layout.
 * tsr_layout_cell(L, ...) is the same switch on L->kind at run time (one
 * well-predicted branch; what generic code such as the transform uses).
 *
 * Constant layouts: TSR_LAYOUT_DENSE_CONST(nx, ny, nz) is a row-major
 * layout (no halo, A = 1, one field) as a constant initializer, equal to
 * tsr_layout_with_align(tsr_layout_rowmajor(nx, ny, nz), 1). A
 *   static const tsr_layout_t L = TSR_LAYOUT_DENSE_CONST(32, 32, 1 << 20);
 * (or a const local in a CUDA kernel) has compile-time extents and strides:
 * tsr_layout_rm_cell(&L, x, y, z) folds to constants, as Noarr's
 * fixed-size array types do (docs/LAYOUTBENCH.md measures what that buys).
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
  TSR_LAYOUT_ROWMAJOR = 0, /* R: x fastest, rows aligned with minimal padding */
  TSR_LAYOUT_ZCURVE = 1,   /* stretched Z-curve in X-Y, regular Z */
  TSR_LAYOUT_COLMAJOR = 2, /* C: y fastest, columns aligned with minimal padding */
  TSR_LAYOUT_RC = 3,       /* R tiles (x fastest inside) in C order (tile rows fastest) */
  TSR_LAYOUT_CR = 4,       /* C tiles in R order */
  TSR_LAYOUT_RR = 5,       /* R tiles in R order */
  TSR_LAYOUT_CC = 6,       /* C tiles in C order */
  TSR_LAYOUT_NKINDS = 7
} tsr_layout_kind_t;

typedef enum { TSR_SOA = 0, TSR_AOS = 1, TSR_AOSOA = 2 } tsr_fields_t;

#define TSR_LAYOUT_ALIGN 32 /* default alignment A, in cells */
#define TSR_LAYOUT_BLOCK 32 /* default AoSoA block B, in cells */
#define TSR_LAYOUT_TILE 16  /* default tile side of the tiled kinds, in cells */
#define TSR_LAYOUT_MAX_TILE 1024

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
  int64_t sx;           /* cell-index stride of x (1 ROWMAJOR, COLMAJOR: see above) */
  int tile[2];          /* tiled kinds: tile sides tx, ty (powers of two) */
  int ltile[2];         /* log2 of tile[] */
} tsr_layout_t;

/* A dense row-major nx * ny * nz layout (no halo, A = 1, one SoA field) as
 * a constant initializer (see above); arguments must be constant
 * expressions for a static object. Equal, member by member, to
 * tsr_layout_with_align(tsr_layout_rowmajor(nx, ny, nz), 1). */
#define TSR_LAYOUT_DENSE_CONST(nx, ny, nz)                                                   \
  {TSR_LAYOUT_ROWMAJOR, TSR_SOA, 1, TSR_LAYOUT_BLOCK, 5, 0, 0, {(nx), (ny), (nz)}, {0, 0, 0},  \
   {(nx), (ny), (nz)}, 1, 0, (nx), (int64_t)(nx) * (ny), (int64_t)(nx) * (ny) * (nz),          \
   (int64_t)(nx) * (ny) * (nz), (int64_t)(nx) * (ny) * (nz), NULL, 1,                         \
   {TSR_LAYOUT_TILE, TSR_LAYOUT_TILE}, {4, 4}}

/* ---------------------------------------------------------------- builders */
/* Row-major nx * ny * nz cells (all >= 1). */
tsr_layout_t tsr_layout_rowmajor(int64_t nx, int64_t ny, int64_t nz);
/* Stretched Z-curve in X-Y (w in 0..31 low x bits linear), regular Z. */
tsr_layout_t tsr_layout_zcurve(int64_t nx, int64_t ny, int64_t nz, int w);
/* Column-major (x and y swapped) nx * ny * nz cells. */
tsr_layout_t tsr_layout_colmajor(int64_t nx, int64_t ny, int64_t nz);
/* Tiled X-Y plane: kind TSR_LAYOUT_RC, _CR, _RR or _CC, 16 x 16 tiles. */
tsr_layout_t tsr_layout_tiled(int kind, int64_t nx, int64_t ny, int64_t nz);
/* Any kind by number (ZCURVE with w = 0, tiled kinds with 16 x 16 tiles). */
tsr_layout_t tsr_layout_of_kind(int kind, int64_t nx, int64_t ny, int64_t nz);
/* Tile sides tx, ty (powers of two, 1 .. 1024) of a tiled layout; other
 * kinds keep them but do not use them. */
tsr_layout_t tsr_layout_with_tile(tsr_layout_t L, int tx, int ty);
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
/* Name of a kind / placement ("rowmajor", "zcurve", "colmajor", "RC", "CR",
 * "RR", "CC"; "soa", "aos", "aosoa"). */
const char *tsr_layout_kind_name(int kind);
const char *tsr_layout_fields_name(int fields);
/* The Noarr paper's short name of a kind: "R", "Z", "C", "RC", "CR", "RR", "CC". */
const char *tsr_layout_kind_short(int kind);
/* Kind by name, short or long, case-sensitive ("R" or "rowmajor", "RC",
 * ...); TSR_ERR_ARG listing the names when unknown. */
int tsr_layout_kind_parse(const char *name, int *kind);

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
/* The same copy where dev says: a, b (and Z-curve tables) are memory of dev.
 * TSR_DEV_CPU calls tsr_layout_transform; TSR_DEV_CUDA runs one thread per
 * cell of the common domain (asynchronous on the default stream; the result
 * is ready after tsr_device_sync). TSR_ERR_NOCUDA in a build without CUDA. */
int tsr_layout_transform_device(const tsr_device_t *dev, const tsr_layout_t *src, const void *a,
                                const tsr_layout_t *dst, void *b, size_t elem_size);

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
/* Cell index, COLMAJOR: c = a + y + x*sx + z*sz. */
static inline TSR_HD int64_t tsr_layout_cm_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return L->base + y + x * L->sx + z * L->sz;
}
/* Cell index of the tiled kinds; inner_c / tiles_c: C order inside a tile /
 * of the tiles (constants in the four wrappers below). */
static inline TSR_HD int64_t tsr__layout_tiled_cell(const tsr_layout_t *L, int inner_c,
                                                    int tiles_c, int64_t x, int64_t y,
                                                    int64_t z) {
  const int64_t tx = L->tile[0], ty = L->tile[1];
  const int64_t X = x >> L->ltile[0], Y = y >> L->ltile[1];
  const int64_t xi = x & (tx - 1), yi = y & (ty - 1);
  const int64_t w0 = L->d[0] - X * tx, h0 = L->d[1] - Y * ty;
  const int64_t w = w0 < tx ? w0 : tx, h = h0 < ty ? h0 : ty; /* this tile's sides */
  const int64_t start = tiles_c ? X * tx * L->d[1] + Y * ty * w : Y * ty * L->d[0] + X * tx * h;
  const int64_t inside = inner_c ? xi * h + yi : yi * w + xi;
  return start + inside + z * L->sz;
}
static inline TSR_HD int64_t tsr_layout_rc_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return tsr__layout_tiled_cell(L, 0, 1, x, y, z);
}
static inline TSR_HD int64_t tsr_layout_cr_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return tsr__layout_tiled_cell(L, 1, 0, x, y, z);
}
static inline TSR_HD int64_t tsr_layout_rr_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return tsr__layout_tiled_cell(L, 0, 0, x, y, z);
}
static inline TSR_HD int64_t tsr_layout_cc_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                                int64_t z) {
  return tsr__layout_tiled_cell(L, 1, 1, x, y, z);
}
/* Cell index for kind K (see "Layout-agnostic kernels" above): a constant K
 * folds to one per-kind function. L must be of kind K (ZCURVE: with its
 * table on this side). An unknown K gives -1. */
static inline TSR_HD int64_t tsr_layout_cell_as(int K, const tsr_layout_t *L, int64_t x,
                                                int64_t y, int64_t z) {
  switch (K) {
  case TSR_LAYOUT_ROWMAJOR: return tsr_layout_rm_cell(L, x, y, z);
  case TSR_LAYOUT_ZCURVE: return tsr_layout_zc_cell(L, x, y, z);
  case TSR_LAYOUT_COLMAJOR: return tsr_layout_cm_cell(L, x, y, z);
  case TSR_LAYOUT_RC: return tsr_layout_rc_cell(L, x, y, z);
  case TSR_LAYOUT_CR: return tsr_layout_cr_cell(L, x, y, z);
  case TSR_LAYOUT_RR: return tsr_layout_rr_cell(L, x, y, z);
  case TSR_LAYOUT_CC: return tsr_layout_cc_cell(L, x, y, z);
  default: return -1;
  }
}
/* Cell index by L's own kind (run-time switch). */
static inline TSR_HD int64_t tsr_layout_cell(const tsr_layout_t *L, int64_t x, int64_t y,
                                             int64_t z) {
  return tsr_layout_cell_as(L->kind, L, x, y, z);
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
/* Element offset of field f of cell index c by L's placement (run-time switch). */
static inline TSR_HD int64_t tsr_layout_place(const tsr_layout_t *L, int64_t c, int f) {
  switch (L->fields) {
  case TSR_SOA: return tsr_layout_soa(L, c, f);
  case TSR_AOS: return tsr_layout_aos(L, c, f);
  default: return tsr_layout_aosoa(L, c, f);
  }
}

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_LAYOUT_H */
