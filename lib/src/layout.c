/* layout.c: builders, queries, setup and the generic offset/transform of
 * tsr_layout_t (see tessera/layout.h and docs/LAYOUT.md). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/layout.h"
#include "tessera/zorder.h"
#include "tessera/error.h"
#include "layout_internal.h"

/* Why a builder rejected its arguments (tsr_layout_t.err). */
enum {
  BAD_NONE = 0,
  BAD_EXTENT,
  BAD_ZBITS,
  BAD_HALO,
  BAD_ALIGN,
  BAD_NF,
  BAD_PLACEMENT,
  BAD_BLOCK,
  BAD_TOOBIG,
  BAD_KIND,
  BAD_TILE,
  BAD_COUNT_
};

static const char *const bad_msg[BAD_COUNT_] = {
    [BAD_NONE] = "",
    [BAD_EXTENT] = "tsr_layout_rowmajor/zcurve/colmajor/tiled: every extent must be >= 1",
    [BAD_ZBITS] = "tsr_layout_zcurve: the stretch w must be in 0..31",
    [BAD_HALO] = "tsr_layout_with_halo: halo widths must be >= 0",
    [BAD_ALIGN] = "tsr_layout_with_align: the alignment must be 1 .. 2^20 cells",
    [BAD_NF] = "tsr_layout_with_fields: the number of fields must be >= 1",
    [BAD_PLACEMENT] = "tsr_layout_with_fields: placement must be TSR_SOA, TSR_AOS or TSR_AOSOA",
    [BAD_BLOCK] = "tsr_layout_with_block: the AoSoA block must be a power of two >= 1",
    [BAD_TOOBIG] = "layout: the padded grid exceeds 2^62 elements",
    [BAD_KIND] = "tsr_layout_tiled/of_kind: unknown kind (tiled: TSR_LAYOUT_RC, _CR, _RR, _CC)",
    [BAD_TILE] = "tsr_layout_with_tile: tile sides must be powers of two in 1 .. 1024",
};

static int64_t roundup(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/* Recompute every derived member from n, halo, align, kind, nf, fields, block. */
static tsr_layout_t finish(tsr_layout_t L) {
  const int64_t A = L.align;
  for (int i = 0; i < 3; i++) L.d[i] = L.n[i] + 2 * L.halo[i];
  L.base = 0;
  L.sy = L.d[0];
  L.sz = 0;
  L.ncell = L.sf = L.size = 0;
  if (L.err) return L;
  /* keep every product below 2^62 (checked in floating point first) */
  double est = (double)roundup(L.d[0], A) * (double)L.d[1] * (double)L.d[2] * L.nf +
               (double)A * (L.nf + 2) + (double)L.block * L.nf;
  if (est > 4.0e18) {
    L.err = BAD_TOOBIG;
    return L;
  }
  L.sz = L.d[0] * L.d[1];
  L.sx = L.kind == TSR_LAYOUT_ROWMAJOR ? 1 : 0;
  if (L.kind == TSR_LAYOUT_ROWMAJOR) {
    /* c(h_x, y, z) = a + h_x + y*sy + z*sz must be 0 mod A for all y, z:
     * a = (-h_x) mod A; sy, sz multiples of A when that dimension has more
     * than one row/plane, and as small as injectivity allows. */
    L.base = (A - L.halo[0] % A) % A;
    L.sy = L.d[1] > 1 ? roundup(L.d[0], A) : L.d[0];
    int64_t plane = (L.d[1] - 1) * L.sy + L.d[0]; /* cells one plane spans */
    L.sz = L.d[2] > 1 ? roundup(plane, A) : plane;
    L.ncell = L.base + (L.d[2] - 1) * L.sz + plane;
  } else if (L.kind == TSR_LAYOUT_COLMAJOR) {
    /* the mirror image: y fastest, columns c(x, h_y, z) aligned */
    L.base = (A - L.halo[1] % A) % A;
    L.sy = 1;
    L.sx = L.d[0] > 1 ? roundup(L.d[1], A) : L.d[1];
    int64_t plane = (L.d[0] - 1) * L.sx + L.d[1];
    L.sz = L.d[2] > 1 ? roundup(plane, A) : plane;
    L.ncell = L.base + (L.d[2] - 1) * L.sz + plane;
  } else { /* ZCURVE and the tiled kinds: a dense plane, aligned planes */
    int64_t plane = L.d[0] * L.d[1];
    L.sz = L.d[2] > 1 ? roundup(plane, A) : plane;
    L.ncell = (L.d[2] - 1) * L.sz + plane;
  }
  L.sf = roundup(L.ncell, A);
  switch (L.fields) {
  case TSR_SOA: L.size = (int64_t)(L.nf - 1) * L.sf + L.ncell; break;
  case TSR_AOS: L.size = L.ncell * L.nf; break;
  default: L.size = roundup(L.ncell, L.block) * L.nf; break;
  }
  return L;
}

static tsr_layout_t make(int kind, int64_t nx, int64_t ny, int64_t nz, int w) {
  tsr_layout_t L;
  memset(&L, 0, sizeof L);
  L.kind = kind;
  L.fields = TSR_SOA;
  L.nf = 1;
  L.block = TSR_LAYOUT_BLOCK;
  L.lblock = 5;
  L.zbits = w;
  L.n[0] = nx;
  L.n[1] = ny;
  L.n[2] = nz;
  L.align = TSR_LAYOUT_ALIGN;
  L.tile[0] = L.tile[1] = TSR_LAYOUT_TILE;
  L.ltile[0] = L.ltile[1] = 4;
  if (kind < 0 || kind >= TSR_LAYOUT_NKINDS) L.err = BAD_KIND;
  else if (nx < 1 || ny < 1 || nz < 1) L.err = BAD_EXTENT;
  else if (w < 0 || w > TSR_ZORDER_MAX_W) L.err = BAD_ZBITS;
  return finish(L);
}

tsr_layout_t tsr_layout_rowmajor(int64_t nx, int64_t ny, int64_t nz) {
  return make(TSR_LAYOUT_ROWMAJOR, nx, ny, nz, 0);
}

tsr_layout_t tsr_layout_zcurve(int64_t nx, int64_t ny, int64_t nz, int w) {
  return make(TSR_LAYOUT_ZCURVE, nx, ny, nz, w);
}

tsr_layout_t tsr_layout_colmajor(int64_t nx, int64_t ny, int64_t nz) {
  return make(TSR_LAYOUT_COLMAJOR, nx, ny, nz, 0);
}

static int is_tiled(int kind) { return kind >= TSR_LAYOUT_RC && kind <= TSR_LAYOUT_CC; }

tsr_layout_t tsr_layout_tiled(int kind, int64_t nx, int64_t ny, int64_t nz) {
  tsr_layout_t L = make(is_tiled(kind) ? kind : TSR_LAYOUT_RR, nx, ny, nz, 0);
  if (!is_tiled(kind)) {
    L.kind = kind; /* keep what was asked for in the value, marked invalid */
    L.err = BAD_KIND;
  }
  return L;
}

tsr_layout_t tsr_layout_of_kind(int kind, int64_t nx, int64_t ny, int64_t nz) {
  return make(kind, nx, ny, nz, 0);
}

static int log2_pow2(int v) { /* log2 of a power of two v >= 1, else -1 */
  if (v < 1 || (v & (v - 1)) != 0) return -1;
  int l = 0;
  while ((1 << l) < v) l++;
  return l;
}

tsr_layout_t tsr_layout_with_tile(tsr_layout_t L, int tx, int ty) {
  int lx = log2_pow2(tx), ly = log2_pow2(ty);
  if (lx < 0 || ly < 0 || tx > TSR_LAYOUT_MAX_TILE || ty > TSR_LAYOUT_MAX_TILE) {
    if (!L.err) L.err = BAD_TILE;
    return finish(L);
  }
  L.tile[0] = tx;
  L.tile[1] = ty;
  L.ltile[0] = lx;
  L.ltile[1] = ly;
  return finish(L);
}

tsr_layout_t tsr_layout_with_halo(tsr_layout_t L, int64_t hx, int64_t hy, int64_t hz) {
  if (hx < 0 || hy < 0 || hz < 0) {
    if (!L.err) L.err = BAD_HALO;
    return finish(L);
  }
  L.halo[0] = hx;
  L.halo[1] = hy;
  L.halo[2] = hz;
  L.ztab = NULL; /* the plane changed size: the old table no longer fits */
  return finish(L);
}

tsr_layout_t tsr_layout_with_align(tsr_layout_t L, int64_t align) {
  if (align < 1 || align > ((int64_t)1 << 20)) {
    if (!L.err) L.err = BAD_ALIGN;
  } else {
    L.align = align;
  }
  return finish(L);
}

tsr_layout_t tsr_layout_with_fields(tsr_layout_t L, int nf, tsr_fields_t placement) {
  if (nf < 1) {
    if (!L.err) L.err = BAD_NF;
  } else if (placement != TSR_SOA && placement != TSR_AOS && placement != TSR_AOSOA) {
    if (!L.err) L.err = BAD_PLACEMENT;
  } else {
    L.nf = nf;
    L.fields = placement;
  }
  return finish(L);
}

tsr_layout_t tsr_layout_with_block(tsr_layout_t L, int block) {
  if (block < 1 || (block & (block - 1)) != 0) {
    if (!L.err) L.err = BAD_BLOCK;
    return finish(L);
  }
  L.block = block;
  L.lblock = 0;
  while ((1 << L.lblock) < block) L.lblock++;
  return finish(L);
}

tsr_layout_t tsr_layout_with_table(tsr_layout_t L, const int64_t *table) {
  L.ztab = table;
  return L;
}

int tsr_layout_check(const tsr_layout_t *L) {
  TSR_CHECK(L, TSR_ERR_ARG, "tsr_layout_check: NULL layout");
  TSR_CHECK(L->err >= 0 && L->err < BAD_COUNT_, TSR_ERR_ARG, "layout is corrupt (err=%d)",
            L->err);
  TSR_CHECK(L->err == BAD_NONE, TSR_ERR_ARG, "invalid layout: %s", bad_msg[L->err]);
  TSR_CHECK(L->kind >= 0 && L->kind < TSR_LAYOUT_NKINDS, TSR_ERR_UNSUPPORTED,
            "layout kind %d is not supported (known: 0 rowmajor, 1 zcurve, 2 colmajor, 3 RC, "
            "4 CR, 5 RR, 6 CC)", L->kind);
  return TSR_SUCCESS;
}

static int dim_index(char dim) {
  return dim == 'x' ? 0 : dim == 'y' ? 1 : dim == 'z' ? 2 : dim == 'f' ? 3 : -1;
}

int64_t tsr_layout_extent(const tsr_layout_t *L, char dim) {
  int i = dim_index(dim);
  return i < 0 ? -1 : i == 3 ? L->nf : L->d[i];
}

int64_t tsr_layout_inner(const tsr_layout_t *L, char dim) {
  int i = dim_index(dim);
  return i < 0 ? -1 : i == 3 ? L->nf : L->n[i];
}

int64_t tsr_layout_halo(const tsr_layout_t *L, char dim) {
  int i = dim_index(dim);
  return i < 0 ? -1 : i == 3 ? 0 : L->halo[i];
}

size_t tsr_layout_bytes(const tsr_layout_t *L, size_t elem_size) {
  return (size_t)L->size * elem_size;
}

int64_t tsr_layout_table_len(const tsr_layout_t *L) {
  return L->kind == TSR_LAYOUT_ZCURVE ? L->d[0] * L->d[1] : 0;
}

static const char *const kind_long[TSR_LAYOUT_NKINDS] = {"rowmajor", "zcurve", "colmajor", "RC",
                                                          "CR",       "RR",     "CC"};
static const char *const kind_short[TSR_LAYOUT_NKINDS] = {"R", "Z", "C", "RC", "CR", "RR", "CC"};

const char *tsr_layout_kind_name(int kind) {
  return kind >= 0 && kind < TSR_LAYOUT_NKINDS ? kind_long[kind] : "unknown";
}

const char *tsr_layout_kind_short(int kind) {
  return kind >= 0 && kind < TSR_LAYOUT_NKINDS ? kind_short[kind] : "?";
}

int tsr_layout_kind_parse(const char *name, int *kind) {
  TSR_CHECK(name && kind, TSR_ERR_ARG, "tsr_layout_kind_parse: NULL argument");
  for (int k = 0; k < TSR_LAYOUT_NKINDS; k++)
    if (strcmp(name, kind_long[k]) == 0 || strcmp(name, kind_short[k]) == 0) {
      *kind = k;
      return TSR_SUCCESS;
    }
  return TSR_RAISE(TSR_ERR_ARG,
                   "unknown layout '%s': expected R (rowmajor), C (colmajor), Z (zcurve), RC, "
                   "CR, RR or CC", name);
}

const char *tsr_layout_fields_name(int fields) {
  return fields == TSR_SOA ? "soa" : fields == TSR_AOS ? "aos" : fields == TSR_AOSOA ? "aosoa" : "unknown";
}

int tsr_layout_describe(const tsr_layout_t *L, char *buf, size_t n) {
  TSR_CHECK(L && buf && n > 0, TSR_ERR_ARG, "tsr_layout_describe: NULL argument or empty buffer");
  TSR_CALL(tsr_layout_check(L));
  char kind[48], dims[192], place[48];
  if (L->kind == TSR_LAYOUT_ZCURVE) snprintf(kind, sizeof kind, "zcurve(w=%d)", L->zbits);
  else if (is_tiled(L->kind))
    snprintf(kind, sizeof kind, "%s(tile=%dx%d)", tsr_layout_kind_name(L->kind), L->tile[0],
             L->tile[1]);
  else snprintf(kind, sizeof kind, "%s", tsr_layout_kind_name(L->kind));
  snprintf(dims, sizeof dims, "x=%lld(%lld+2*%lld) y=%lld(%lld+2*%lld) z=%lld(%lld+2*%lld)",
           (long long)L->d[0], (long long)L->n[0], (long long)L->halo[0], (long long)L->d[1],
           (long long)L->n[1], (long long)L->halo[1], (long long)L->d[2], (long long)L->n[2],
           (long long)L->halo[2]);
  if (L->fields == TSR_AOSOA)
    snprintf(place, sizeof place, "f=%d aosoa(B=%d)", L->nf, L->block);
  else
    snprintf(place, sizeof place, "f=%d %s", L->nf, tsr_layout_fields_name(L->fields));
  /* padding in the thesis' terms: a, b = sy - d_x (COLMAJOR: sx - d_y), c = sz - d_x*d_y */
  int64_t b = L->kind == TSR_LAYOUT_COLMAJOR ? L->sx - L->d[1] : L->sy - L->d[0];
  int64_t c = L->sz - L->d[0] * L->d[1];
  snprintf(buf, n, "%s %s align=%lld pad a=%lld b=%lld c=%lld %s size=%lld", kind, dims,
           (long long)L->align, (long long)L->base, (long long)b, (long long)c, place,
           (long long)L->size);
  return TSR_SUCCESS;
}

int tsr_layout_alloc(const tsr_device_t *dev, const tsr_layout_t *L, size_t elem_size, void **p) {
  TSR_CHECK(dev && L && p && elem_size > 0, TSR_ERR_ARG,
            "tsr_layout_alloc: NULL argument or zero element size");
  TSR_CALL(tsr_layout_check(L));
  size_t bytes = tsr_layout_bytes(L, elem_size);
  TSR_CALL(tsr_device_malloc(dev, bytes, p));
  TSR_CALL(tsr_device_memset(dev, *p, 0, bytes));
  return TSR_SUCCESS;
}

int tsr_layout_table_build(const tsr_layout_t *L, int64_t *table) {
  TSR_CHECK(L && table, TSR_ERR_ARG, "tsr_layout_table_build: NULL argument");
  TSR_CALL(tsr_layout_check(L));
  TSR_CHECK(L->kind == TSR_LAYOUT_ZCURVE, TSR_ERR_ARG,
            "tsr_layout_table_build: a %s layout has no plane table", tsr_layout_kind_name(L->kind));
  TSR_CALL(tsr_zorder_plane_order(L->d[0], L->d[1], L->zbits, table));
  return TSR_SUCCESS;
}

int tsr_layout_table_create(const tsr_device_t *dev, const tsr_layout_t *L, int64_t **table) {
  TSR_CHECK(dev && L && table, TSR_ERR_ARG, "tsr_layout_table_create: NULL argument");
  *table = NULL;
  TSR_CALL(tsr_layout_check(L));
  if (L->kind != TSR_LAYOUT_ZCURVE) return TSR_SUCCESS;
  size_t bytes = (size_t)tsr_layout_table_len(L) * sizeof(int64_t);
  void *t = NULL;
  TSR_CALL(tsr_device_malloc(dev, bytes, &t));
  if (dev->kind == TSR_DEV_CPU) {
    int e = tsr_layout_table_build(L, t);
    if (e) {
      tsr_device_free(dev, &t);
      return tsr_error_trace(e, __FILE__, __LINE__, __func__);
    }
  } else {
    int64_t *h = malloc(bytes);
    int e = h ? tsr_layout_table_build(L, h)
              : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %zu bytes for a Z-curve table", bytes);
    if (!e) e = tsr_device_upload(dev, t, h, bytes);
    free(h);
    if (e) {
      tsr_device_free(dev, &t);
      return tsr_error_trace(e, __FILE__, __LINE__, __func__);
    }
  }
  *table = t;
  return TSR_SUCCESS;
}

int tsr_layout_table_destroy(const tsr_device_t *dev, int64_t **table) {
  TSR_CHECK(dev && table, TSR_ERR_ARG, "tsr_layout_table_destroy: NULL argument");
  void *t = *table;
  *table = NULL;
  TSR_CALL(tsr_device_free(dev, &t));
  return TSR_SUCCESS;
}

static int usable(const tsr_layout_t *L) {
  return L && L->kind >= 0 && L->kind < TSR_LAYOUT_NKINDS &&
         (L->kind != TSR_LAYOUT_ZCURVE || L->ztab) && L->err == BAD_NONE &&
         L->fields >= TSR_SOA && L->fields <= TSR_AOSOA;
}

int64_t tsr_layout_offset(const tsr_layout_t *L, int64_t x, int64_t y, int64_t z, int f) {
  if (!usable(L)) return -1;
  if (x < 0 || x >= L->d[0] || y < 0 || y >= L->d[1] || z < 0 || z >= L->d[2] || f < 0 ||
      f >= L->nf)
    return -1;
  return tsr_layout_place(L, tsr_layout_cell(L, x, y, z), f);
}

/* Checks both layouts and computes the common logical range [lo, hi) per
 * dimension and the common fields; *empty = 1 when nothing is in common. */
static int transform_setup(const char *who, const tsr_layout_t *src, const void *a,
                           const tsr_layout_t *dst, const void *b, size_t elem_size,
                           tsr__transform_t *t, int *empty) {
  TSR_CHECK(src && dst && a && b && elem_size > 0, TSR_ERR_ARG,
            "%s: NULL argument or zero element size", who);
  TSR_CALL(tsr_layout_check(src));
  TSR_CALL(tsr_layout_check(dst));
  TSR_CHECK(src->kind != TSR_LAYOUT_ZCURVE || src->ztab, TSR_ERR_ARG,
            "%s: the source Z-curve layout has no plane table "
            "(tsr_layout_table_create + tsr_layout_with_table)", who);
  TSR_CHECK(dst->kind != TSR_LAYOUT_ZCURVE || dst->ztab, TSR_ERR_ARG,
            "%s: the destination Z-curve layout has no plane table "
            "(tsr_layout_table_create + tsr_layout_with_table)", who);
  *empty = 0;
  for (int i = 0; i < 3; i++) {
    t->lo[i] = TSR_MAX(-src->halo[i], -dst->halo[i]);
    t->hi[i] = TSR_MIN(src->n[i] + src->halo[i], dst->n[i] + dst->halo[i]);
    if (t->hi[i] <= t->lo[i]) *empty = 1;
  }
  t->nf = TSR_MIN(src->nf, dst->nf);
  return TSR_SUCCESS;
}

int tsr_layout_transform(const tsr_layout_t *src, const void *a, const tsr_layout_t *dst, void *b,
                         size_t elem_size) {
  tsr__transform_t t;
  int empty;
  TSR_CALL(transform_setup("tsr_layout_transform", src, a, dst, b, elem_size, &t, &empty));
  if (empty) return TSR_SUCCESS; /* nothing in common */
  const int nf = t.nf;
  const char *in = a;
  char *out = b;
  const int64_t ny = t.hi[1] - t.lo[1], nz = t.hi[2] - t.lo[2];
#pragma omp parallel for schedule(static)
  for (int64_t yz = 0; yz < ny * nz; yz++) {
    int64_t qy = t.lo[1] + yz % ny, qz = t.lo[2] + yz / ny;
    for (int64_t qx = t.lo[0]; qx < t.hi[0]; qx++) {
      int64_t cs = tsr_layout_cell(src, qx + src->halo[0], qy + src->halo[1], qz + src->halo[2]);
      int64_t cd = tsr_layout_cell(dst, qx + dst->halo[0], qy + dst->halo[1], qz + dst->halo[2]);
      for (int f = 0; f < nf; f++) {
        int64_t os = tsr_layout_place(src, cs, f), od = tsr_layout_place(dst, cd, f);
        if (elem_size == 8)
          memcpy(out + od * 8, in + os * 8, 8);
        else if (elem_size == 4)
          memcpy(out + od * 4, in + os * 4, 4);
        else
          memcpy(out + (size_t)od * elem_size, in + (size_t)os * elem_size, elem_size);
      }
    }
  }
  return TSR_SUCCESS;
}

int tsr_layout_transform_device(const tsr_device_t *dev, const tsr_layout_t *src, const void *a,
                                const tsr_layout_t *dst, void *b, size_t elem_size) {
  TSR_CHECK(dev, TSR_ERR_ARG, "tsr_layout_transform_device: NULL device");
  if (dev->kind == TSR_DEV_CPU) {
    TSR_CALL(tsr_layout_transform(src, a, dst, b, elem_size));
    return TSR_SUCCESS;
  }
  tsr__transform_t t;
  int empty;
  TSR_CALL(transform_setup("tsr_layout_transform_device", src, a, dst, b, elem_size, &t, &empty));
  if (empty) return TSR_SUCCESS;
#ifdef TSR_HAVE_CUDA
  TSR_CALL(tsr__layout_transform_cuda(src, a, dst, b, elem_size, &t));
  return TSR_SUCCESS;
#else
  return TSR_RAISE(TSR_ERR_NOCUDA,
                   "tsr_layout_transform_device: Tessera was built without CUDA");
#endif
}
