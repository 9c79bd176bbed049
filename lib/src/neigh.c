/* neigh.c: neighbour tables of X-Y-unstructured, Z-regular grids: storage
 * orders, table construction, views and device copies. Compression into a
 * prototype dictionary is in neigh_compress.c. */
#include "config.h"
#include "tessera/neigh.h"
#include "tessera/error.h"
#include "neigh_impl.h"

#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------- orders */

static int tsr__check_plane(const char *who, int64_t nx, int64_t ny) {
  TSR_CHECK(nx >= 1 && ny >= 1, TSR_ERR_ARG, "%s: plane extents must be >= 1, got nx=%lld ny=%lld",
            who, (long long)nx, (long long)ny);
  TSR_CHECK(nx <= INT32_MAX / ny, TSR_ERR_ARG,
            "%s: plane of %lld x %lld cells is too large: offsets are int32, so nx*ny must be "
            "at most %d",
            who, (long long)nx, (long long)ny, INT32_MAX);
  return TSR_SUCCESS;
}

int tsr_neigh_order_rowmajor(int64_t nx, int64_t ny, int64_t *order) {
  TSR_CALL(tsr__check_plane("tsr_neigh_order_rowmajor", nx, ny));
  TSR_CHECK(order, TSR_ERR_ARG, "tsr_neigh_order_rowmajor: order is NULL");
  for (int64_t k = 0; k < nx * ny; k++) order[k] = k;
  return TSR_SUCCESS;
}

static uint64_t tsr__splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Uniform in [0, bound) by rejection of the incomplete top range. */
static uint64_t tsr__uniform(uint64_t *state, uint64_t bound) {
  uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  uint64_t r;
  do r = tsr__splitmix64(state);
  while (r >= limit);
  return r % bound;
}

int tsr_neigh_order_random(int64_t nx, int64_t ny, uint64_t seed, int64_t *order) {
  TSR_CALL(tsr__check_plane("tsr_neigh_order_random", nx, ny));
  TSR_CHECK(order, TSR_ERR_ARG, "tsr_neigh_order_random: order is NULL");
  int64_t plane = nx * ny;
  uint64_t state = seed;
  for (int64_t k = 0; k < plane; k++) order[k] = k;
  for (int64_t k = plane - 1; k > 0; k--) {
    int64_t j = (int64_t)tsr__uniform(&state, (uint64_t)k + 1);
    int64_t t = order[k];
    order[k] = order[j];
    order[j] = t;
  }
  return TSR_SUCCESS;
}

int tsr_neigh_order_check(int64_t nx, int64_t ny, const int64_t *order) {
  TSR_CALL(tsr__check_plane("tsr_neigh_order_check", nx, ny));
  TSR_CHECK(order, TSR_ERR_ARG, "tsr_neigh_order_check: order is NULL");
  int64_t plane = nx * ny;
  int64_t *seen_at = malloc((size_t)plane * sizeof *seen_at);
  TSR_CHECK(seen_at, TSR_ERR_ALLOC, "cannot allocate %lld bytes to check a storage order",
            (long long)plane * (long long)sizeof *seen_at);
  for (int64_t k = 0; k < plane; k++) seen_at[k] = -1;
  for (int64_t k = 0; k < plane; k++) {
    int64_t s = order[k];
    if (s < 0 || s >= plane) {
      free(seen_at);
      return TSR_RAISE(TSR_ERR_ARG,
                       "storage order of a %lld x %lld plane: order[%lld] (cell x=%lld y=%lld) = "
                       "%lld, expected a value in [0, %lld)",
                       (long long)nx, (long long)ny, (long long)k, (long long)(k % nx),
                       (long long)(k / nx), (long long)s, (long long)plane);
    }
    if (seen_at[s] >= 0) {
      int64_t first = seen_at[s];
      free(seen_at);
      return TSR_RAISE(TSR_ERR_ARG,
                       "storage order of a %lld x %lld plane is not a permutation: order[%lld] "
                       "and order[%lld] are both %lld",
                       (long long)nx, (long long)ny, (long long)first, (long long)k,
                       (long long)s);
    }
    seen_at[s] = k;
  }
  free(seen_at);
  return TSR_SUCCESS;
}

/* -------------------------------------------------------- relations */

static const struct {
  const char *name;
  int dx, dy;
} tsr__rels[TSR_NB_COUNT_] = {
#define TSR__NB_ROW(name, dx, dy) {#name, dx, dy},
    TSR_NEIGH_REL_TABLE(TSR__NB_ROW)
#undef TSR__NB_ROW
};

int tsr_neigh_rel_find(int dx, int dy) {
  for (int r = 0; r < TSR_NB_COUNT_; r++)
    if (tsr__rels[r].dx == dx && tsr__rels[r].dy == dy) return r;
  return -1;
}

const char *tsr_neigh_rel_name(int rel) {
  return rel >= 0 && rel < TSR_NB_COUNT_ ? tsr__rels[rel].name : "?";
}

/* ----------------------------------------------------------- object */

static const char *tsr__form_name(tsr_neigh_form_t f) {
  return f == TSR_NEIGH_ZREGULAR ? "ZREGULAR" : f == TSR_NEIGH_FULL3D ? "FULL3D" : "FULL3D_Z";
}

/* Fill tab[r*n + k] for the plane (ZREGULAR) or every level. */
static void tsr__neigh_fill(tsr_neigh_t *nb, const int64_t *order) {
  const int64_t nx = nb->nx, ny = nb->ny, plane = nb->plane, n = nb->n;
  const int64_t levels = nb->form == TSR_NEIGH_ZREGULAR ? 1 : nb->nz;
  for (int64_t y = 0; y < ny; y++) {
    for (int64_t x = 0; x < nx; x++) {
      const int64_t s = order ? order[x + nx * y] : x + nx * y;
      for (int r = 0; r < nb->m; r++) {
        const int64_t x2 = x + tsr__rels[r].dx, y2 = y + tsr__rels[r].dy;
        int32_t off = 0;
        if (x2 >= 0 && x2 < nx && y2 >= 0 && y2 < ny)
          off = (int32_t)((order ? order[x2 + nx * y2] : x2 + nx * y2) - s);
        for (int64_t z = 0; z < levels; z++) nb->tab[(int64_t)r * n + s + z * plane] = off;
      }
    }
  }
  if (nb->form == TSR_NEIGH_FULL3D_Z) {
    int32_t *zm = nb->tab + (int64_t)nb->m * n, *zp = zm + n;
    for (int64_t z = 0; z < nb->nz; z++) {
      for (int64_t k = 0; k < plane; k++) {
        zm[k + z * plane] = z > 0 ? -(int32_t)plane : 0;
        zp[k + z * plane] = z < nb->nz - 1 ? (int32_t)plane : 0;
      }
    }
  }
}

int tsr_neigh_create(int64_t nx, int64_t ny, int64_t nz, const int64_t *order, int depth,
                     tsr_neigh_form_t form, tsr_neigh_t **out) {
  TSR_CHECK(out, TSR_ERR_ARG, "tsr_neigh_create: out is NULL");
  *out = NULL;
  TSR_CALL(tsr__check_plane("tsr_neigh_create", nx, ny));
  TSR_CHECK(nz >= 1, TSR_ERR_ARG, "tsr_neigh_create: nz must be >= 1, got %lld", (long long)nz);
  TSR_CHECK(depth >= 1 && depth <= TSR_NEIGH_MAX_DEPTH, TSR_ERR_ARG,
            "tsr_neigh_create: depth must be 1..%d, got %d", TSR_NEIGH_MAX_DEPTH, depth);
  TSR_CHECK(form == TSR_NEIGH_ZREGULAR || form == TSR_NEIGH_FULL3D || form == TSR_NEIGH_FULL3D_Z,
            TSR_ERR_ARG, "tsr_neigh_create: unknown table form %d", (int)form);
  if (order) TSR_CALL(tsr_neigh_order_check(nx, ny, order));

  const int64_t plane = nx * ny;
  TSR_CHECK(nz <= INT64_MAX / plane, TSR_ERR_ARG,
            "tsr_neigh_create: %lld x %lld x %lld cells overflow a 64-bit index", (long long)nx,
            (long long)ny, (long long)nz);
  const int64_t n = form == TSR_NEIGH_ZREGULAR ? plane : plane * nz;
  const int m = tsr_neigh_rel_count(depth);
  const int nrel = form == TSR_NEIGH_FULL3D_Z ? m + 2 : m;
  TSR_CHECK((uint64_t)n <= SIZE_MAX / sizeof(int32_t) / (uint64_t)nrel, TSR_ERR_ALLOC,
            "%s neighbour tables of %lld x %lld x %lld cells (%d relations) do not fit in memory",
            tsr__form_name(form), (long long)nx, (long long)ny, (long long)nz, nrel);

  tsr_neigh_t *nb = calloc(1, sizeof *nb);
  TSR_CHECK(nb, TSR_ERR_ALLOC, "cannot allocate a neighbour table object");
  nb->nx = nx;
  nb->ny = ny;
  nb->nz = nz;
  nb->plane = plane;
  nb->n = n;
  nb->depth = depth;
  nb->m = m;
  nb->nrel = nrel;
  nb->form = form;
  const size_t bytes = (size_t)n * (size_t)nrel * sizeof(int32_t);
  nb->tab = malloc(bytes);
  if (!nb->tab) {
    free(nb);
    return TSR_RAISE(TSR_ERR_ALLOC,
                     "cannot allocate %zu bytes for %s neighbour tables of %lld x %lld x %lld "
                     "cells (%d relations)",
                     bytes, tsr__form_name(form), (long long)nx, (long long)ny, (long long)nz,
                     nrel);
  }
  tsr__neigh_fill(nb, order);
  *out = nb;
  return TSR_SUCCESS;
}

int tsr_neigh_create_subset(int64_t nx, int64_t ny, int64_t nz, int64_t nslot,
                            const int64_t *cells, int depth, tsr_neigh_form_t form,
                            tsr_neigh_t **out) {
  TSR_CHECK(out && cells, TSR_ERR_ARG, "tsr_neigh_create_subset: NULL argument");
  *out = NULL;
  TSR_CALL(tsr__check_plane("tsr_neigh_create_subset", nx, ny));
  TSR_CHECK(nslot >= 1 && nslot <= nx * ny, TSR_ERR_ARG,
            "tsr_neigh_create_subset: %lld slots for a plane of %lld x %lld cells",
            (long long)nslot, (long long)nx, (long long)ny);
  int64_t *slot = malloc((size_t)(nx * ny) * sizeof *slot);
  TSR_CHECK(slot, TSR_ERR_ALLOC, "cannot allocate the slot map of a %lld x %lld plane",
            (long long)nx, (long long)ny);
  for (int64_t k = 0; k < nx * ny; k++) slot[k] = -1;
  for (int64_t s = 0; s < nslot; s++) {
    const int64_t g = cells[s];
    if (g < 0 || g >= nx * ny || slot[g] >= 0) {
      free(slot);
      return TSR_RAISE(TSR_ERR_ARG,
                       "tsr_neigh_create_subset: cells[%lld] = %lld is %s (plane of %lld x %lld)",
                       (long long)s, (long long)g, g < 0 || g >= nx * ny ? "outside the plane"
                                                                         : "listed twice",
                       (long long)nx, (long long)ny);
    }
    slot[g] = s;
  }
  /* a subset object is a plane of nslot x 1 slots for every other purpose */
  int rc = tsr_neigh_create(nslot, 1, nz, NULL, depth, form, out);
  if (rc) {
    free(slot);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  tsr_neigh_t *nb = *out;
  const int64_t n = nb->n, levels = form == TSR_NEIGH_ZREGULAR ? 1 : nz;
  for (int64_t s = 0; s < nslot; s++) {
    const int64_t x = cells[s] % nx, y = cells[s] / nx;
    for (int r = 0; r < nb->m; r++) {
      const int64_t x2 = x + tsr__rels[r].dx, y2 = y + tsr__rels[r].dy;
      int32_t off = 0;
      if (x2 >= 0 && x2 < nx && y2 >= 0 && y2 < ny && slot[x2 + nx * y2] >= 0)
        off = (int32_t)(slot[x2 + nx * y2] - s);
      for (int64_t z = 0; z < levels; z++) nb->tab[(int64_t)r * n + s + z * nslot] = off;
    }
  }
  free(slot);
  return TSR_SUCCESS;
}

/* Free the device copies (if any). */
int tsr__neigh_free_device(tsr_neigh_t *nb) {
  if (!nb->on_dev) return TSR_SUCCESS;
  TSR_CALL(tsr_device_free(&nb->dev, (void **)&nb->d_tab));
  TSR_CALL(tsr_device_free(&nb->dev, (void **)&nb->d_proto));
  TSR_CALL(tsr_device_free(&nb->dev, (void **)&nb->d_dict));
  nb->on_dev = 0;
  return TSR_SUCCESS;
}

int tsr_neigh_destroy(tsr_neigh_t **pnb) {
  if (!pnb || !*pnb) return TSR_SUCCESS;
  tsr_neigh_t *nb = *pnb;
  int rc = tsr__neigh_free_device(nb);
  free(nb->tab);
  free(nb->proto);
  free(nb->dict);
  free(nb);
  *pnb = NULL;
  if (rc) return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  return TSR_SUCCESS;
}

int tsr_neigh_upload(tsr_neigh_t *nb, const tsr_device_t *dev) {
  TSR_CHECK(nb && dev, TSR_ERR_ARG, "tsr_neigh_upload: NULL argument");
  TSR_CALL(tsr__neigh_free_device(nb));
  nb->dev = *dev;
  nb->on_dev = 1;
  const size_t tab_bytes = (size_t)nb->n * (size_t)nb->nrel * sizeof(int32_t);
  int rc = tsr_device_malloc(dev, tab_bytes, (void **)&nb->d_tab);
  if (!rc) rc = tsr_device_upload(dev, nb->d_tab, nb->tab, tab_bytes);
  if (!rc && nb->proto) {
    const size_t pbytes = (size_t)nb->n * sizeof(uint16_t);
    const size_t dbytes = (size_t)nb->nproto * (size_t)nb->nrel * sizeof(int32_t);
    rc = tsr_device_malloc(dev, pbytes, (void **)&nb->d_proto);
    if (!rc) rc = tsr_device_upload(dev, nb->d_proto, nb->proto, pbytes);
    if (!rc) rc = tsr_device_malloc(dev, dbytes, (void **)&nb->d_dict);
    if (!rc) rc = tsr_device_upload(dev, nb->d_dict, nb->dict, dbytes);
  }
  if (rc) {
    tsr__neigh_free_device(nb); /* best effort; the first error is the one reported */
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return TSR_SUCCESS;
}

static int tsr__where_ok(const tsr_neigh_t *nb, tsr_neigh_where_t where, const char *who) {
  TSR_CHECK(where == TSR_NEIGH_HOST || where == TSR_NEIGH_DEVICE, TSR_ERR_ARG,
            "%s: where must be TSR_NEIGH_HOST or TSR_NEIGH_DEVICE, got %d", who, (int)where);
  TSR_CHECK(where == TSR_NEIGH_HOST || nb->on_dev, TSR_ERR_ARG,
            "%s: the device view was asked for, but the tables were not uploaded "
            "(call tsr_neigh_upload first)",
            who);
  return TSR_SUCCESS;
}

int tsr_neigh_view(const tsr_neigh_t *nb, tsr_neigh_where_t where, tsr_neigh_view_t *v) {
  TSR_CHECK(nb && v, TSR_ERR_ARG, "tsr_neigh_view: NULL argument");
  TSR_CALL(tsr__where_ok(nb, where, "tsr_neigh_view"));
  memset(v, 0, sizeof *v);
  v->tab = where == TSR_NEIGH_HOST ? nb->tab : nb->d_tab;
  v->n = nb->n;
  v->plane = nb->plane;
  v->nx = nb->nx;
  v->ny = nb->ny;
  v->nz = nb->nz;
  v->depth = nb->depth;
  v->m = nb->m;
  v->nrel = nb->nrel;
  v->form = nb->form;
  return TSR_SUCCESS;
}

int tsr_neigh_cview(const tsr_neigh_t *nb, tsr_neigh_where_t where, tsr_neigh_cview_t *v) {
  TSR_CHECK(nb && v, TSR_ERR_ARG, "tsr_neigh_cview: NULL argument");
  TSR_CALL(tsr__where_ok(nb, where, "tsr_neigh_cview"));
  TSR_CHECK(nb->proto, TSR_ERR_ARG,
            "tsr_neigh_cview: the tables are not compressed (call tsr_neigh_compress first)");
  TSR_CHECK(where == TSR_NEIGH_HOST || nb->d_proto, TSR_ERR_ARG,
            "tsr_neigh_cview: the compressed tables were made after the last upload "
            "(call tsr_neigh_upload after tsr_neigh_compress)");
  memset(v, 0, sizeof *v);
  v->proto = where == TSR_NEIGH_HOST ? nb->proto : nb->d_proto;
  v->dict = where == TSR_NEIGH_HOST ? nb->dict : nb->d_dict;
  v->n = nb->n;
  v->plane = nb->plane;
  v->nx = nb->nx;
  v->ny = nb->ny;
  v->nz = nb->nz;
  v->depth = nb->depth;
  v->m = nb->m;
  v->nrel = nb->nrel;
  v->nproto = nb->nproto;
  v->form = nb->form;
  return TSR_SUCCESS;
}
