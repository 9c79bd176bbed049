/* mesh.c: sets, maps, dats and constants of an unstructured mesh; inverse
 * maps (CSR), renumbering by a permutation, and index validation. */
#include "config.h"
#include "tessera/mesh.h"
#include "tessera/error.h"
#include "tessera/fault.h"

#include <stdlib.h>
#include <string.h>

struct tsr_mesh {
  tsr_mesh_dist_t dist;
  int nsets, nmaps, ndats, nconsts;
  int capsets, capmaps, capdats, capconsts;
  tsr_set_t *sets;
  tsr_map_t *maps;
  tsr_dat_t *dats;
  tsr_const_t *consts;
};

int tsr_mesh_create(tsr_mesh_t **out) {
  TSR_CHECK(out, TSR_ERR_ARG, "tsr_mesh_create: out is NULL");
  tsr_mesh_t *m = tsr_calloc(1, sizeof *m);
  TSR_CHECK(m, TSR_ERR_ALLOC, "tsr_mesh_create: out of memory");
  m->dist = TSR_MESH_SERIAL;
  *out = m;
  return TSR_SUCCESS;
}

int tsr_mesh_destroy(tsr_mesh_t **mesh) {
  if (!mesh || !*mesh) return TSR_SUCCESS;
  tsr_mesh_t *m = *mesh;
  for (int i = 0; i < m->nsets; i++) free(m->sets[i].global_id);
  for (int i = 0; i < m->nmaps; i++) free(m->maps[i].data);
  for (int i = 0; i < m->ndats; i++) free(m->dats[i].data);
  for (int i = 0; i < m->nconsts; i++) free(m->consts[i].data);
  free(m->sets);
  free(m->maps);
  free(m->dats);
  free(m->consts);
  free(m);
  *mesh = NULL;
  return TSR_SUCCESS;
}

tsr_mesh_dist_t tsr_mesh_dist(const tsr_mesh_t *mesh) { return mesh->dist; }

int tsr_mesh_set_dist(tsr_mesh_t *mesh, tsr_mesh_dist_t dist) {
  TSR_CHECK(mesh, TSR_ERR_ARG, "tsr_mesh_set_dist: mesh is NULL");
  TSR_CHECK(dist == TSR_MESH_SERIAL || dist == TSR_MESH_BLOCK || dist == TSR_MESH_PARTITIONED,
            TSR_ERR_ARG, "tsr_mesh_set_dist: unknown distribution %d", (int)dist);
  mesh->dist = dist;
  return TSR_SUCCESS;
}

/* ---- building -------------------------------------------------------- */

static int tsr__grow(void **arr, int *cap, int n, size_t elsize) {
  if (n < *cap) return TSR_SUCCESS;
  int nc = *cap ? 2 * *cap : 8;
  void *p = realloc(*arr, (size_t)nc * elsize);
  TSR_CHECK(p, TSR_ERR_ALLOC, "mesh: out of memory growing a table to %d entries", nc);
  memset((char *)p + (size_t)*cap * elsize, 0, (size_t)(nc - *cap) * elsize);
  *arr = p;
  *cap = nc;
  return TSR_SUCCESS;
}

static int tsr__check_name(const char *kind, const char *name) {
  TSR_CHECK(name && name[0], TSR_ERR_ARG, "mesh: %s name is empty", kind);
  TSR_CHECK(strlen(name) < TSR_NAME_MAX, TSR_ERR_ARG,
            "mesh: %s name '%s' is longer than %d characters", kind, name, TSR_NAME_MAX - 1);
  return TSR_SUCCESS;
}

int tsr_mesh_add_set_block(tsr_mesh_t *mesh, const char *name, tsr_idx_t global_size,
                           tsr_idx_t offset, tsr_idx_t count, int *id) {
  TSR_CHECK(mesh, TSR_ERR_ARG, "tsr_mesh_add_set: mesh is NULL");
  TSR_CALL(tsr__check_name("set", name));
  TSR_CHECK(tsr_mesh_find_set(mesh, name) < 0, TSR_ERR_ARG, "mesh: set '%s' already exists", name);
  TSR_CHECK(global_size >= 0 && offset >= 0 && count >= 0 && offset + count <= global_size,
            TSR_ERR_ARG,
            "mesh: set '%s': block [%lld, %lld) is not inside [0, %lld)", name,
            (long long)offset, (long long)(offset + count), (long long)global_size);
  TSR_CHECK(global_size <= INT32_MAX, TSR_ERR_UNSUPPORTED,
            "mesh: set '%s' has %lld elements; maps hold int32 indices (at most %d)", name,
            (long long)global_size, INT32_MAX);
  TSR_CALL(tsr__grow((void **)&mesh->sets, &mesh->capsets, mesh->nsets, sizeof(tsr_set_t)));
  tsr_set_t *s = &mesh->sets[mesh->nsets];
  memset(s, 0, sizeof *s);
  snprintf(s->name, sizeof s->name, "%s", name);
  s->size = count;
  s->global_size = global_size;
  s->offset = offset;
  s->owned = count;
  if (id) *id = mesh->nsets;
  mesh->nsets++;
  return TSR_SUCCESS;
}

int tsr_mesh_add_set(tsr_mesh_t *mesh, const char *name, tsr_idx_t size, int *id) {
  TSR_CALL(tsr_mesh_add_set_block(mesh, name, size, 0, size, id));
  return TSR_SUCCESS;
}

/* Take or copy an array of n bytes into *dst (NULL src: zero-filled). */
static int tsr__store(void **dst, void *src, size_t n, tsr_own_t own, const char *what,
                      const char *name) {
  if (src && own == TSR_ADOPT) {
    *dst = src;
    return TSR_SUCCESS;
  }
  void *p = tsr_calloc(n ? n : 1, 1);
  TSR_CHECK(p, TSR_ERR_ALLOC, "mesh: out of memory for %s '%s' (%zu bytes)", what, name, n);
  if (src) memcpy(p, src, n);
  *dst = p;
  return TSR_SUCCESS;
}

int tsr_mesh_add_map(tsr_mesh_t *mesh, const char *name, int from, int to, int dim,
                     int32_t *data, tsr_own_t own, int *id) {
  TSR_CHECK(mesh, TSR_ERR_ARG, "tsr_mesh_add_map: mesh is NULL");
  TSR_CALL(tsr__check_name("map", name));
  TSR_CHECK(tsr_mesh_find_map(mesh, name) < 0, TSR_ERR_ARG, "mesh: map '%s' already exists", name);
  TSR_CHECK(from >= 0 && from < mesh->nsets && to >= 0 && to < mesh->nsets, TSR_ERR_ARG,
            "mesh: map '%s': set ids %d -> %d, expected ids in [0, %d)", name, from, to,
            mesh->nsets);
  TSR_CHECK(dim >= 1, TSR_ERR_ARG, "mesh: map '%s': dim %d, expected >= 1", name, dim);
  TSR_CALL(tsr__grow((void **)&mesh->maps, &mesh->capmaps, mesh->nmaps, sizeof(tsr_map_t)));
  tsr_map_t *m = &mesh->maps[mesh->nmaps];
  memset(m, 0, sizeof *m);
  size_t n = (size_t)mesh->sets[from].size * (size_t)dim * sizeof(int32_t);
  void *p = NULL;
  TSR_CALL(tsr__store(&p, data, n, own, "map", name));
  snprintf(m->name, sizeof m->name, "%s", name);
  m->from = from;
  m->to = to;
  m->dim = dim;
  m->data = p;
  if (id) *id = mesh->nmaps;
  mesh->nmaps++;
  return TSR_SUCCESS;
}

int tsr_mesh_add_dat(tsr_mesh_t *mesh, const char *name, int set, int dim, tsr_dtype_t type,
                     void *data, tsr_own_t own, int *id) {
  TSR_CHECK(mesh, TSR_ERR_ARG, "tsr_mesh_add_dat: mesh is NULL");
  TSR_CALL(tsr__check_name("dat", name));
  TSR_CHECK(tsr_mesh_find_dat(mesh, name) < 0, TSR_ERR_ARG, "mesh: dat '%s' already exists", name);
  TSR_CHECK(set >= 0 && set < mesh->nsets, TSR_ERR_ARG,
            "mesh: dat '%s': set id %d, expected an id in [0, %d)", name, set, mesh->nsets);
  TSR_CHECK(dim >= 1, TSR_ERR_ARG, "mesh: dat '%s': dim %d, expected >= 1", name, dim);
  TSR_CHECK(type >= TSR_INT32 && type <= TSR_DOUBLE, TSR_ERR_ARG,
            "mesh: dat '%s': unknown type %d", name, (int)type);
  TSR_CALL(tsr__grow((void **)&mesh->dats, &mesh->capdats, mesh->ndats, sizeof(tsr_dat_t)));
  tsr_dat_t *d = &mesh->dats[mesh->ndats];
  memset(d, 0, sizeof *d);
  size_t n = (size_t)mesh->sets[set].size * (size_t)dim * tsr_dtype_size(type);
  void *p = NULL;
  TSR_CALL(tsr__store(&p, data, n, own, "dat", name));
  snprintf(d->name, sizeof d->name, "%s", name);
  d->set = set;
  d->dim = dim;
  d->type = type;
  d->data = p;
  if (id) *id = mesh->ndats;
  mesh->ndats++;
  return TSR_SUCCESS;
}

int tsr_mesh_add_const(tsr_mesh_t *mesh, const char *name, int dim, const double *data,
                       int *id) {
  TSR_CHECK(mesh, TSR_ERR_ARG, "tsr_mesh_add_const: mesh is NULL");
  TSR_CALL(tsr__check_name("constant", name));
  TSR_CHECK(tsr_mesh_find_const(mesh, name) < 0, TSR_ERR_ARG,
            "mesh: constant '%s' already exists", name);
  TSR_CHECK(dim >= 1, TSR_ERR_ARG, "mesh: constant '%s': dim %d, expected >= 1", name, dim);
  TSR_CALL(tsr__grow((void **)&mesh->consts, &mesh->capconsts, mesh->nconsts,
                     sizeof(tsr_const_t)));
  tsr_const_t *c = &mesh->consts[mesh->nconsts];
  memset(c, 0, sizeof *c);
  void *p = NULL;
  TSR_CALL(tsr__store(&p, (void *)data, (size_t)dim * sizeof(double), TSR_COPY, "constant", name));
  snprintf(c->name, sizeof c->name, "%s", name);
  c->dim = dim;
  c->data = p;
  if (id) *id = mesh->nconsts;
  mesh->nconsts++;
  return TSR_SUCCESS;
}

/* ---- lookup ------------------------------------------------------------ */

int tsr_mesh_nsets(const tsr_mesh_t *mesh) { return mesh->nsets; }
int tsr_mesh_nmaps(const tsr_mesh_t *mesh) { return mesh->nmaps; }
int tsr_mesh_ndats(const tsr_mesh_t *mesh) { return mesh->ndats; }
int tsr_mesh_nconsts(const tsr_mesh_t *mesh) { return mesh->nconsts; }

#define TSR__FIND(kind, arr, n)                                              \
  int tsr_mesh_find_##kind(const tsr_mesh_t *mesh, const char *name) {       \
    if (!mesh || !name) return -1;                                           \
    for (int i = 0; i < mesh->n; i++)                                        \
      if (strcmp(mesh->arr[i].name, name) == 0) return i;                    \
    return -1;                                                               \
  }
TSR__FIND(set, sets, nsets)
TSR__FIND(map, maps, nmaps)
TSR__FIND(dat, dats, ndats)
TSR__FIND(const, consts, nconsts)
#undef TSR__FIND

tsr_set_t *tsr_mesh_set(const tsr_mesh_t *mesh, int id) {
  return mesh && id >= 0 && id < mesh->nsets ? &mesh->sets[id] : NULL;
}
tsr_map_t *tsr_mesh_map(const tsr_mesh_t *mesh, int id) {
  return mesh && id >= 0 && id < mesh->nmaps ? &mesh->maps[id] : NULL;
}
tsr_dat_t *tsr_mesh_dat(const tsr_mesh_t *mesh, int id) {
  return mesh && id >= 0 && id < mesh->ndats ? &mesh->dats[id] : NULL;
}
tsr_const_t *tsr_mesh_const(const tsr_mesh_t *mesh, int id) {
  return mesh && id >= 0 && id < mesh->nconsts ? &mesh->consts[id] : NULL;
}

/* ---- validation -------------------------------------------------------- */

int tsr_mesh_validate(const tsr_mesh_t *mesh) {
  TSR_CHECK(mesh, TSR_ERR_ARG, "tsr_mesh_validate: mesh is NULL");
  for (int i = 0; i < mesh->nsets; i++) {
    const tsr_set_t *s = &mesh->sets[i];
    TSR_CHECK(s->size >= 0 && s->offset >= 0 && s->offset + s->size <= s->global_size,
              TSR_ERR_RANGE, "mesh: set '%s': rows [%lld, %lld) not inside [0, %lld)", s->name,
              (long long)s->offset, (long long)(s->offset + s->size), (long long)s->global_size);
    TSR_CHECK(s->owned >= 0 && s->exec_halo >= 0 && s->nonexec_halo >= 0 &&
                  s->owned + s->exec_halo + s->nonexec_halo == s->size,
              TSR_ERR_RANGE,
              "mesh: set '%s': owned %lld + exec halo %lld + non-exec halo %lld != size %lld",
              s->name, (long long)s->owned, (long long)s->exec_halo, (long long)s->nonexec_halo,
              (long long)s->size);
    if (mesh->dist == TSR_MESH_SERIAL)
      TSR_CHECK(s->size == s->global_size, TSR_ERR_RANGE,
                "mesh: set '%s': serial mesh holds %lld of %lld rows", s->name,
                (long long)s->size, (long long)s->global_size);
  }
  for (int i = 0; i < mesh->nmaps; i++) {
    const tsr_map_t *m = &mesh->maps[i];
    const tsr_set_t *from = &mesh->sets[m->from], *to = &mesh->sets[m->to];
    tsr_idx_t hi = mesh->dist == TSR_MESH_BLOCK ? to->global_size : to->size;
    tsr_idx_t n = from->size * m->dim;
    /* In a partitioned mesh, rows of the non-exec halo may point at
     * elements this rank does not hold: those entries are -1. */
    tsr_idx_t first_nonexec =
        mesh->dist == TSR_MESH_PARTITIONED ? (from->owned + from->exec_halo) * m->dim : n;
    for (tsr_idx_t k = 0; k < n; k++) {
      int32_t v = m->data[k];
      if (v == -1 && k >= first_nonexec) continue;
      TSR_CHECK(v >= 0 && v < hi, TSR_ERR_RANGE,
                "mesh: map '%s' (%s -> %s): entry [%lld][%d] = %d, expected an index in "
                "[0, %lld)",
                m->name, from->name, to->name, (long long)(from->offset + k / m->dim),
                (int)(k % m->dim), (int)v, (long long)hi);
    }
  }
  return TSR_SUCCESS;
}

/* ---- inverse maps ------------------------------------------------------ */

void tsr_csr_free(tsr_csr_t *csr) {
  if (!csr) return;
  free(csr->offsets);
  free(csr->elem);
  free(csr->corner);
  memset(csr, 0, sizeof *csr);
}

int tsr_map_inverse(const tsr_map_t *map, tsr_idx_t from_size, tsr_idx_t to_size,
                    tsr_csr_t *csr) {
  TSR_CHECK(map && csr && from_size >= 0 && to_size >= 0, TSR_ERR_ARG,
            "tsr_map_inverse: NULL argument or negative size");
  memset(csr, 0, sizeof *csr);
  const int dim = map->dim;
  const tsr_idx_t n = from_size * dim;
  for (tsr_idx_t k = 0; k < n; k++)
    TSR_CHECK(map->data[k] >= 0 && map->data[k] < to_size, TSR_ERR_RANGE,
              "tsr_map_inverse: map '%s' entry [%lld][%d] = %d, expected an index in [0, %lld)",
              map->name, (long long)(k / dim), (int)(k % dim), (int)map->data[k],
              (long long)to_size);
  tsr_idx_t *off = tsr_calloc((size_t)to_size + 1, sizeof *off);
  int32_t *elem = tsr_malloc((size_t)(n ? n : 1) * sizeof *elem);
  int32_t *corner = tsr_malloc((size_t)(n ? n : 1) * sizeof *corner);
  tsr_idx_t *fill = tsr_calloc((size_t)to_size + 1, sizeof *fill);
  if (!off || !elem || !corner || !fill) {
    free(off);
    free(elem);
    free(corner);
    free(fill);
    return TSR_RAISE(TSR_ERR_ALLOC, "tsr_map_inverse: out of memory for map '%s' (%lld entries)",
                     map->name, (long long)n);
  }
  for (tsr_idx_t k = 0; k < n; k++) off[map->data[k] + 1]++;
  for (tsr_idx_t t = 0; t < to_size; t++) off[t + 1] += off[t];
  /* elements in increasing order, corners in increasing order within them */
  for (tsr_idx_t k = 0; k < n; k++) {
    int32_t t = map->data[k];
    tsr_idx_t at = off[t] + fill[t]++;
    elem[at] = (int32_t)(k / dim);
    corner[at] = (int32_t)(k % dim);
  }
  free(fill);
  csr->n = to_size;
  csr->offsets = off;
  csr->elem = elem;
  csr->corner = corner;
  return TSR_SUCCESS;
}

/* ---- permutation ------------------------------------------------------- */

static int tsr__check_perm(const tsr_set_t *s, const tsr_idx_t *perm) {
  tsr_idx_t n = s->size;
  unsigned char *seen = tsr_calloc((size_t)(n ? n : 1), 1);
  TSR_CHECK(seen, TSR_ERR_ALLOC, "tsr_mesh_permute: out of memory");
  for (tsr_idx_t i = 0; i < n; i++) {
    tsr_idx_t p = perm[i];
    if (p < 0 || p >= n || seen[p]) {
      free(seen);
      return TSR_RAISE(TSR_ERR_ARG,
                       "tsr_mesh_permute: set '%s': perm[%lld] = %lld is %s; expected a "
                       "permutation of [0, %lld)",
                       s->name, (long long)i, (long long)p,
                       (p < 0 || p >= n) ? "out of range" : "repeated", (long long)n);
    }
    seen[p] = 1;
  }
  free(seen);
  return TSR_SUCCESS;
}

/* Move rows of `width` bytes: new[perm[i]] = old[i]. */
static int tsr__permute_rows(void **data, tsr_idx_t n, size_t width, const tsr_idx_t *perm) {
  if (!*data || n == 0) return TSR_SUCCESS;
  char *dst = tsr_malloc((size_t)n * width);
  TSR_CHECK(dst, TSR_ERR_ALLOC, "tsr_mesh_permute: out of memory (%zu bytes)", (size_t)n * width);
  const char *src = *data;
  for (tsr_idx_t i = 0; i < n; i++) memcpy(dst + (size_t)perm[i] * width, src + (size_t)i * width, width);
  free(*data);
  *data = dst;
  return TSR_SUCCESS;
}

int tsr_mesh_permute(tsr_mesh_t *mesh, int set, const tsr_idx_t *perm) {
  TSR_CHECK(mesh && perm, TSR_ERR_ARG, "tsr_mesh_permute: NULL argument");
  TSR_CHECK(set >= 0 && set < mesh->nsets, TSR_ERR_ARG,
            "tsr_mesh_permute: set id %d, expected an id in [0, %d)", set, mesh->nsets);
  tsr_set_t *s = &mesh->sets[set];
  TSR_CHECK(mesh->dist != TSR_MESH_BLOCK, TSR_ERR_UNSUPPORTED,
            "tsr_mesh_permute: set '%s': a block-distributed mesh holds global map targets; "
            "partition it first", s->name);
  TSR_CALL(tsr__check_perm(s, perm));
  const tsr_idx_t n = s->size;
  /* targets first: checked before any data moves so a failure changes nothing */
  for (int i = 0; i < mesh->nmaps; i++) {
    tsr_map_t *m = &mesh->maps[i];
    if (m->to != set) continue;
    tsr_idx_t cnt = mesh->sets[m->from].size * m->dim;
    /* partitioned meshes: non-exec halo rows may hold -1 (kept as is) */
    const tsr_set_t *fs = &mesh->sets[m->from];
    tsr_idx_t nonexec0 = mesh->dist == TSR_MESH_PARTITIONED ? (fs->owned + fs->exec_halo) * m->dim : cnt;
    for (tsr_idx_t k = 0; k < cnt; k++)
      TSR_CHECK((m->data[k] >= 0 || (m->data[k] == -1 && k >= nonexec0)) && m->data[k] < n,
                TSR_ERR_RANGE,
                "tsr_mesh_permute: map '%s' entry [%lld][%d] = %d is outside set '%s' [0, %lld)",
                m->name, (long long)(k / m->dim), (int)(k % m->dim), (int)m->data[k], s->name,
                (long long)n);
  }
  for (int i = 0; i < mesh->nmaps; i++) {
    tsr_map_t *m = &mesh->maps[i];
    if (m->to == set) {
      tsr_idx_t cnt = mesh->sets[m->from].size * m->dim;
      for (tsr_idx_t k = 0; k < cnt; k++)
        if (m->data[k] >= 0) m->data[k] = (int32_t)perm[m->data[k]];
    }
    if (m->from == set)
      TSR_CALL(tsr__permute_rows((void **)&m->data, n, (size_t)m->dim * sizeof(int32_t), perm));
  }
  for (int i = 0; i < mesh->ndats; i++) {
    tsr_dat_t *d = &mesh->dats[i];
    if (d->set == set)
      TSR_CALL(tsr__permute_rows(&d->data, n, (size_t)d->dim * tsr_dtype_size(d->type), perm));
  }
  if (s->global_id)
    TSR_CALL(tsr__permute_rows((void **)&s->global_id, n, sizeof(int64_t), perm));
  return TSR_SUCCESS;
}
