/* tessera/neigh.h: neighbour tables for grids unstructured in X-Y and
 * regular in Z (docs/NEIGH.md has the pictures).
 *
 * Storage. A grid of nx*ny*nz cells (halo included) stores the X-Y plane in
 * any order: order[x + nx*y] = storage index of plane cell (x,y), a
 * permutation of [0, nx*ny). Cell (x,y,z) lives at order[x + nx*y] + z*plane,
 * plane = nx*ny. Kernels never need coordinates: they reach neighbours
 * through tables. Orders: tsr_neigh_order_rowmajor, tsr_neigh_order_random
 * below, and z-order from tsr_zorder_plane_order (tessera/zorder.h).
 *
 * Relations. Relation r names a displacement (dx,dy) in the X-Y plane. A
 * depth-l table holds every displacement at Manhattan distance 1..l,
 * m = 2l(l+1) relations (l=1: 4, l=2: 12, l=3: 24). Numbering (fixed, so
 * that the depth-l relations are the first m of depth l+1):
 *   by Manhattan distance d = |dx|+|dy| ascending; within d by Chebyshev
 *   distance max(|dx|,|dy|) ascending; the axis points of a shell as
 *   -x, +x, -y, +y; other points row by row (dy, then dx, ascending).
 * TSR_NEIGH_REL_TABLE lists them; kernels name them TSR_NB_XM1, TSR_NB_XP1YM1
 * ... (X/Y, M = minus / P = plus, distance).
 *
 * Tables. One int32 array per relation, stored back to back:
 *   tab[r*n + k] = (storage index of the neighbour) - (storage index of cell k)
 * and 0 where the neighbour lies outside [0,nx)x[0,ny) (grid border; the halo
 * is part of the grid, so halo cells have the neighbours that exist). Forms:
 *   TSR_NEIGH_ZREGULAR  the X-Y plane only: n = plane entries per relation;
 *                       the entry of storage index i is k = i mod plane.
 *   TSR_NEIGH_FULL3D    every cell: n = plane*nz, the plane repeated per level
 *                       (k = i; i mod n = i, so the same lookups work).
 *   TSR_NEIGH_FULL3D_Z  FULL3D plus two relations after the m planar ones:
 *                       m = -z (offset -plane, 0 at z=0) and m+1 = +z
 *                       (offset +plane, 0 at z=nz-1); nrel = m+2.
 *
 * Compression (tsr_neigh_compress). Each cell's row of nrel offsets is
 * replaced by a prototype index into a dictionary of the distinct rows:
 *   proto[k] (uint16_t, n entries), dict[p*nrel + r] (int32, nproto rows),
 *   tab[r*n + k] == dict[proto[k]*nrel + r] for all r, k.
 * Row-major order with nx, ny >= 2l+1 gives (2l+1)^2 prototypes (interior,
 * edges, corners); z-order and random orders give more.
 * The dictionary is meant for CUDA constant memory (TSR_NEIGH_CONST_BYTES).
 *
 * Objects. tsr_neigh_t is opaque and owns the host tables and, after
 * tsr_neigh_upload, their copies on one tsr_device_t. Kernels take plain
 * views (tsr_neigh_view_t, tsr_neigh_cview_t: raw pointers + sizes, passed
 * by value) and call the static inline TSR_HD lookups below.
 */
#ifndef TESSERA_NEIGH_H
#define TESSERA_NEIGH_H

#include <stddef.h>
#include <stdint.h>

#include "tessera/common.h"
#include "tessera/device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest table supported (m = 24 relations). */
#define TSR_NEIGH_MAX_DEPTH 3
/* Size of CUDA constant memory: the usual dictionary capacity. */
#define TSR_NEIGH_CONST_BYTES 65536

/* X(NAME, dx, dy) in relation order (see the numbering rule above). */
#define TSR_NEIGH_REL_TABLE(X)                                              \
  /* d = 1 (depth 1: m = 4) */                                              \
  X(XM1, -1, 0) X(XP1, 1, 0) X(YM1, 0, -1) X(YP1, 0, 1)                     \
  /* d = 2 (depth 2: m = 12): diagonals, then axis */                       \
  X(XM1YM1, -1, -1) X(XP1YM1, 1, -1) X(XM1YP1, -1, 1) X(XP1YP1, 1, 1)       \
  X(XM2, -2, 0) X(XP2, 2, 0) X(YM2, 0, -2) X(YP2, 0, 2)                     \
  /* d = 3 (depth 3: m = 24): knight moves, then axis */                    \
  X(XM1YM2, -1, -2) X(XP1YM2, 1, -2) X(XM2YM1, -2, -1) X(XP2YM1, 2, -1)     \
  X(XM2YP1, -2, 1) X(XP2YP1, 2, 1) X(XM1YP2, -1, 2) X(XP1YP2, 1, 2)         \
  X(XM3, -3, 0) X(XP3, 3, 0) X(YM3, 0, -3) X(YP3, 0, 3)

typedef enum {
#define TSR__NB_ENUM(name, dx, dy) TSR_NB_##name,
  TSR_NEIGH_REL_TABLE(TSR__NB_ENUM)
#undef TSR__NB_ENUM
  TSR_NB_COUNT_ /* = relations of depth TSR_NEIGH_MAX_DEPTH */
} tsr_neigh_rel_t;

typedef enum {
  TSR_NEIGH_ZREGULAR = 0, /* X-Y plane only, n = nx*ny */
  TSR_NEIGH_FULL3D = 1,   /* every level, n = nx*ny*nz */
  TSR_NEIGH_FULL3D_Z = 2  /* FULL3D + relations -z (index m), +z (m+1) */
} tsr_neigh_form_t;

/* Where a view's pointers point. */
typedef enum { TSR_NEIGH_HOST = 0, TSR_NEIGH_DEVICE = 1 } tsr_neigh_where_t;

/* Uncompressed tables: tab[r*n + k], r < nrel, k < n. */
typedef struct {
  const int32_t *tab;
  int64_t n;      /* entries per relation: plane (ZREGULAR) or plane*nz */
  int64_t plane;  /* nx*ny */
  int64_t nx, ny, nz;
  int depth;      /* l */
  int m;          /* planar relations 2l(l+1) */
  int nrel;       /* m, or m+2 for TSR_NEIGH_FULL3D_Z */
  tsr_neigh_form_t form;
} tsr_neigh_view_t;

/* Compressed tables: offset = dict[proto[k]*nrel + r]. */
typedef struct {
  const uint16_t *proto; /* [n] prototype of each row */
  const int32_t *dict;   /* [nproto][nrel] distinct offset rows */
  int64_t n, plane, nx, ny, nz;
  int depth, m, nrel, nproto;
  tsr_neigh_form_t form;
} tsr_neigh_cview_t;

/* What compression achieved (filled on success and on a capacity failure). */
typedef struct {
  int64_t rows;          /* rows compressed: n */
  int nrel;              /* offsets per row */
  int nproto;            /* distinct rows (prototypes) */
  size_t table_bytes;    /* uncompressed: nrel*rows*4 */
  size_t index_bytes;    /* prototype indices: rows*sizeof(uint16_t) */
  size_t dict_bytes;     /* dictionary: nproto*nrel*4 */
  int64_t saved_bytes;   /* table - index - dict (negative: compression grew it) */
} tsr_neigh_stats_t;

typedef struct tsr_neigh tsr_neigh_t;

/* ----------------------------------------------------------- orders */
/* order[x + nx*y] = x + nx*y (row-major, the identity). */
int tsr_neigh_order_rowmajor(int64_t nx, int64_t ny, int64_t *order);
/* A uniformly random permutation of [0, nx*ny), deterministic in seed
 * (Fisher-Yates driven by splitmix64). */
int tsr_neigh_order_random(int64_t nx, int64_t ny, uint64_t seed, int64_t *order);
/* TSR_ERR_ARG unless order is a permutation of [0, nx*ny); the message
 * names the first bad position. */
int tsr_neigh_order_check(int64_t nx, int64_t ny, const int64_t *order);

/* -------------------------------------------------------- relations */
/* m = 2l(l+1): planar relations of a depth-l table. */
static inline TSR_HD int tsr_neigh_rel_count(int depth) { return 2 * depth * (depth + 1); }

/* Displacement of relation rel (0 for an unknown rel). */
static inline TSR_HD int tsr_neigh_rel_dx(int rel) {
  switch (rel) {
#define TSR__NB_DX(name, dx, dy) case TSR_NB_##name: return dx;
    TSR_NEIGH_REL_TABLE(TSR__NB_DX)
#undef TSR__NB_DX
    default: return 0;
  }
}
static inline TSR_HD int tsr_neigh_rel_dy(int rel) {
  switch (rel) {
#define TSR__NB_DY(name, dx, dy) case TSR_NB_##name: return dy;
    TSR_NEIGH_REL_TABLE(TSR__NB_DY)
#undef TSR__NB_DY
    default: return 0;
  }
}
/* Relation of displacement (dx,dy), or -1 if it is beyond the max depth or 0. */
int tsr_neigh_rel_find(int dx, int dy);
/* "XM1", "XP1YM1", ...; "?" for an unknown rel. */
const char *tsr_neigh_rel_name(int rel);

/* ----------------------------------------------------------- object */
/* Build depth-`depth` tables (1..TSR_NEIGH_MAX_DEPTH) of the given form for
 * an nx*ny*nz grid (halo included) stored in `order` (NULL = row-major).
 * nx*ny must be below 2^31 (offsets are int32). */
int tsr_neigh_create(int64_t nx, int64_t ny, int64_t nz, const int64_t *order, int depth,
                     tsr_neigh_form_t form, tsr_neigh_t **out);
/* Tables for a SUBSET of an nx*ny plane stored in nslot slots: cells[s] =
 * x + nx*y of the plane cell in slot s (distinct). A neighbour exists when
 * its cell lies in the plane AND in the subset (e.g. a rank's owned cells
 * plus its halo). The object is then a plane of nslot x 1 (views report
 * nx = nslot, ny = 1, plane = nslot); everything else works as for
 * tsr_neigh_create. */
int tsr_neigh_create_subset(int64_t nx, int64_t ny, int64_t nz, int64_t nslot,
                            const int64_t *cells, int depth, tsr_neigh_form_t form,
                            tsr_neigh_t **out);
/* Free host tables and device copies; sets *nb = NULL. */
int tsr_neigh_destroy(tsr_neigh_t **nb);

/* Compress into a dictionary of at most max_dict_bytes (TSR_NEIGH_CONST_BYTES
 * for constant memory). TSR_ERR_UNSUPPORTED, naming the prototype count, when
 * the dictionary would not fit or there are more than 65536 prototypes; the
 * object is then left as it was (stats still tell the count). stats may be
 * NULL. A later tsr_neigh_upload copies the compressed form to the device. */
int tsr_neigh_compress(tsr_neigh_t *nb, size_t max_dict_bytes, tsr_neigh_stats_t *stats);
/* The stats of the last successful compression (TSR_ERR_ARG if none). */
int tsr_neigh_stats(const tsr_neigh_t *nb, tsr_neigh_stats_t *stats);

/* Copy the tables (and the compressed form, if present) to dev; replaces an
 * earlier copy. Compress first if device kernels want the compressed form. */
int tsr_neigh_upload(tsr_neigh_t *nb, const tsr_device_t *dev);

/* Plain views of the host arrays or of the uploaded copies. */
int tsr_neigh_view(const tsr_neigh_t *nb, tsr_neigh_where_t where, tsr_neigh_view_t *v);
int tsr_neigh_cview(const tsr_neigh_t *nb, tsr_neigh_where_t where, tsr_neigh_cview_t *v);

/* ------------------------------------------- lookups (host and device) */
/* Storage index of neighbour rel of the cell at storage index i, or i itself
 * when there is none (offset 0). n: entries per relation (view.n). */
static inline TSR_HD int64_t tsr_neigh_get(const int32_t *tab, int64_t n, int rel, int64_t i) {
  return i + tab[(int64_t)rel * n + i % n];
}
/* The raw offset for a row k already reduced (k = i mod n): for z-loops that
 * look up once at z = 0 and add z*plane. */
static inline TSR_HD int32_t tsr_neigh_offset(const int32_t *tab, int64_t n, int rel, int64_t k) {
  return tab[(int64_t)rel * n + k];
}
/* Neighbour rel2 of neighbour rel1 of i (two lookups, pointer chasing);
 * -1 when either hop has no neighbour. */
static inline TSR_HD int64_t tsr_neigh_chase(const int32_t *tab, int64_t n, int rel1, int rel2,
                                             int64_t i) {
  int32_t o1 = tab[(int64_t)rel1 * n + i % n];
  if (o1 == 0) return -1;
  int64_t j = i + o1;
  int32_t o2 = tab[(int64_t)rel2 * n + j % n];
  return o2 == 0 ? -1 : j + o2;
}
/* Compressed lookups: the same answers from a prototype index and dictionary. */
static inline TSR_HD int32_t tsr_neigh_coffset(const uint16_t *proto, const int32_t *dict,
                                               int nrel, int rel, int64_t k) {
  return dict[(int64_t)proto[k] * nrel + rel];
}
static inline TSR_HD int64_t tsr_neigh_cget(const uint16_t *proto, const int32_t *dict, int nrel,
                                            int64_t n, int rel, int64_t i) {
  return i + tsr_neigh_coffset(proto, dict, nrel, rel, i % n);
}
static inline TSR_HD int64_t tsr_neigh_cchase(const uint16_t *proto, const int32_t *dict,
                                              int nrel, int64_t n, int rel1, int rel2,
                                              int64_t i) {
  int32_t o1 = tsr_neigh_coffset(proto, dict, nrel, rel1, i % n);
  if (o1 == 0) return -1;
  int64_t j = i + o1;
  int32_t o2 = tsr_neigh_coffset(proto, dict, nrel, rel2, j % n);
  return o2 == 0 ? -1 : j + o2;
}

/* The same through views. */
static inline TSR_HD int64_t tsr_neigh_view_nb(const tsr_neigh_view_t *v, int rel, int64_t i) {
  return tsr_neigh_get(v->tab, v->n, rel, i);
}
static inline TSR_HD int64_t tsr_neigh_view_chase(const tsr_neigh_view_t *v, int rel1, int rel2,
                                                  int64_t i) {
  return tsr_neigh_chase(v->tab, v->n, rel1, rel2, i);
}
static inline TSR_HD int64_t tsr_neigh_cview_nb(const tsr_neigh_cview_t *v, int rel, int64_t i) {
  return tsr_neigh_cget(v->proto, v->dict, v->nrel, v->n, rel, i);
}
static inline TSR_HD int64_t tsr_neigh_cview_chase(const tsr_neigh_cview_t *v, int rel1,
                                                   int rel2, int64_t i) {
  return tsr_neigh_cchase(v->proto, v->dict, v->nrel, v->n, rel1, rel2, i);
}

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_NEIGH_H */
