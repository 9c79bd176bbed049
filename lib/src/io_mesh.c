/* io_mesh.c: unstructured meshes in OP2's HDF5 layout: block-wise checked
 * reading by name, writing with OP2's attributes, and a table of contents. */
#include "config.h"
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- shape expectations ------------------------------------------------ */

static void tsr__fmt_dims(char *buf, size_t n, int rank, const tsr_idx_t *d) {
  size_t at = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < rank && at < n; i++)
    at += (size_t)snprintf(buf + at, n - at, "%s%lld", i ? ", " : "", (long long)d[i]);
  if (at < n) snprintf(buf + at, n - at, "]");
}

/* Dataset `name` must have rank `rank`, dims[i] == want[i] where want[i] >= 0
 * (want[i] < 0: any value >= 1, printed as "*"), numeric. Local check. */
static int tsr__expect(tsr_file_t *f, const char *name, const char *what, int rank,
                       const tsr_idx_t *want, tsr_idx_t *got, tsr_dtype_t *type) {
  TSR_CHECK(tsr__exists(f, name), TSR_ERR_FORMAT, "%s: dataset '%s' (%s) not found", f->path,
            name, what);
  int r;
  tsr_idx_t d[3];
  TSR_CALL(tsr_file_dataset_shape(f, name, &r, d, type));
  int ok = r == rank;
  for (int i = 0; ok && i < rank; i++) ok = want[i] >= 0 ? d[i] == want[i] : d[i] >= 1;
  if (!ok) {
    char e[96], g[96];
    size_t at = (size_t)snprintf(e, sizeof e, "[");
    for (int i = 0; i < rank; i++)
      at += want[i] >= 0 ? (size_t)snprintf(e + at, sizeof e - at, "%s%lld", i ? ", " : "",
                                            (long long)want[i])
                         : (size_t)snprintf(e + at, sizeof e - at, "%s*", i ? ", " : "");
    snprintf(e + at, sizeof e - at, "]");
    tsr__fmt_dims(g, sizeof g, r, d);
    return TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' (%s): expected rank %d %s, found %s",
                     f->path, name, what, rank, e, g);
  }
  if (got) memcpy(got, d, sizeof d);
  return TSR_SUCCESS;
}

/* ---- reading ----------------------------------------------------------- */

static int tsr__read_set(tsr_file_t *f, tsr_mesh_t *m, const char *name, int *id) {
  if ((*id = tsr_mesh_find_set(m, name)) >= 0) return TSR_SUCCESS;
  tsr_idx_t want[1] = {1};
  tsr_dtype_t t;
  int rc = tsr__expect(f, name, "set: 1-element integer", 1, want, NULL, &t);
  if (!rc && (t == TSR_FLOAT || t == TSR_DOUBLE))
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' (set): expected an integer size, found %s",
                   f->path, name, tsr_dtype_name(t));
  TSR_CALL(tsr_error_agree(f->comm, rc));
  int64_t n = 0;
  TSR_CALL(tsr_file_read_rows(f, name, 0, 1, TSR_INT64, &n));
  rc = n > 0 ? 0
             : TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' (set): expected a size > 0, found %lld",
                         f->path, name, (long long)n);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  if (f->size == 1) {
    TSR_CALL(tsr_error_agree(f->comm, tsr_mesh_add_set(m, name, n, id)));
  } else {
    tsr_idx_t first, count;
    tsr_mesh_block_rows(n, f->size, f->rank, &first, &count);
    TSR_CALL(tsr_error_agree(f->comm, tsr_mesh_add_set_block(m, name, n, first, count, id)));
  }
  return TSR_SUCCESS;
}

/* Expected dim from OP2's "dim" attribute when present, else any (-1). */
static tsr_idx_t tsr__dim_attr(tsr_file_t *f, const char *name) {
  int64_t d = -1;
  if (tsr_file_has_attr(f, name, "dim") && tsr_file_attr_int(f, name, "dim", &d, 1) == 0) return d;
  tsr_error_clear();
  return -1;
}

static int tsr__read_map(tsr_file_t *f, tsr_mesh_t *m, const tsr_io_map_t *spec) {
  int from, to;
  TSR_CHECK(spec->name && spec->from && spec->to, TSR_ERR_ARG,
            "%s: map spec needs a name, a from set and a to set", f->path);
  TSR_CALL(tsr__read_set(f, m, spec->from, &from));
  TSR_CALL(tsr__read_set(f, m, spec->to, &to));
  const tsr_set_t *fs = tsr_mesh_set(m, from), *ts = tsr_mesh_set(m, to);
  tsr_idx_t want[2] = {fs->global_size, tsr__dim_attr(f, spec->name)}, got[3];
  char what[160];
  snprintf(what, sizeof what, "map %s -> %s", spec->from, spec->to);
  tsr_dtype_t t;
  TSR_CALL(tsr_error_agree(f->comm, tsr__expect(f, spec->name, what, 2, want, got, &t)));
  TSR_CHECK(got[1] <= 1024, TSR_ERR_FORMAT, "%s: dataset '%s' (%s): arity %lld (at most 1024)",
            f->path, spec->name, what, (long long)got[1]);
  char need[TSR_NAME_MAX + 32];
  snprintf(need, sizeof need, "reading map '%s'", spec->name);
  TSR_CALL(tsr_memory_check(f->comm, need, (double)fs->size * (double)got[1] * 4, 0));
  int dim = (int)got[1], id;
  TSR_CALL(tsr_error_agree(f->comm,
                           tsr_mesh_add_map(m, spec->name, from, to, dim, NULL, TSR_COPY, &id)));
  tsr_map_t *mp = tsr_mesh_map(m, id);
  TSR_CALL(tsr_file_read_rows(f, spec->name, fs->offset, fs->size, TSR_INT32, mp->data));
  int rc = 0;
  for (tsr_idx_t k = 0; k < fs->size * dim; k++) {
    int32_t v = mp->data[k];
    if (v < 0 || v >= ts->global_size) {
      rc = TSR_RAISE(TSR_ERR_RANGE,
                     "%s: dataset '%s' (%s): entry [%lld][%d] = %d, expected an index in "
                     "[0, %lld) of set '%s'",
                     f->path, spec->name, what, (long long)(fs->offset + k / dim), (int)(k % dim),
                     (int)v, (long long)ts->global_size, ts->name);
      break;
    }
  }
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

static int tsr__read_dat(tsr_file_t *f, tsr_mesh_t *m, const tsr_io_dat_t *spec) {
  int set, id;
  TSR_CHECK(spec->name && spec->set, TSR_ERR_ARG, "%s: dat spec needs a name and a set", f->path);
  TSR_CALL(tsr__read_set(f, m, spec->set, &set));
  const tsr_set_t *s = tsr_mesh_set(m, set);
  tsr_idx_t want[2] = {s->global_size, tsr__dim_attr(f, spec->name)}, got[3];
  char what[96];
  snprintf(what, sizeof what, "dat on %s", spec->set);
  tsr_dtype_t t;
  TSR_CALL(tsr_error_agree(f->comm, tsr__expect(f, spec->name, what, 2, want, got, &t)));
  TSR_CHECK(got[1] <= 1024, TSR_ERR_FORMAT, "%s: dataset '%s' (%s): dim %lld (at most 1024)",
            f->path, spec->name, what, (long long)got[1]);
  char need[TSR_NAME_MAX + 32];
  snprintf(need, sizeof need, "reading dat '%s'", spec->name);
  TSR_CALL(tsr_memory_check(f->comm, need,
                            (double)s->size * (double)got[1] * (double)tsr_dtype_size(spec->type), 0));
  TSR_CALL(tsr_error_agree(
      f->comm, tsr_mesh_add_dat(m, spec->name, set, (int)got[1], spec->type, NULL, TSR_COPY, &id)));
  TSR_CALL(tsr_file_read_rows(f, spec->name, s->offset, s->size, spec->type,
                              tsr_mesh_dat(m, id)->data));
  TSR_CALL(tsr_error_agree(f->comm, tsr__check_finite(f, spec->name, spec->type,
                                                      tsr_mesh_dat(m, id)->data,
                                                      s->size * got[1], s->offset * got[1])));
  return TSR_SUCCESS;
}

static int tsr__read_const(tsr_file_t *f, tsr_mesh_t *m, const char *name) {
  tsr_idx_t want[1] = {tsr__dim_attr(f, name)}, got[3];
  tsr_dtype_t t;
  TSR_CALL(tsr_error_agree(f->comm, tsr__expect(f, name, "constant", 1, want, got, &t)));
  int id;
  TSR_CALL(tsr_error_agree(f->comm, tsr_mesh_add_const(m, name, (int)got[0], NULL, &id)));
  TSR_CALL(tsr_file_read_rows(f, name, 0, got[0], TSR_DOUBLE, tsr_mesh_const(m, id)->data));
  TSR_CALL(tsr_error_agree(f->comm,
                           tsr__check_finite(f, name, TSR_DOUBLE, tsr_mesh_const(m, id)->data, got[0], 0)));
  return TSR_SUCCESS;
}

int tsr_mesh_read_file(tsr_file_t *f, const tsr_mesh_spec_t *spec, tsr_mesh_t **out) {
  TSR_CHECK(f && spec && out, TSR_ERR_ARG, "tsr_mesh_read: NULL argument");
  tsr_mesh_t *m = NULL;
  TSR_CALL(tsr_error_agree(f->comm, tsr_mesh_create(&m)));
  if (f->size > 1) tsr_mesh_set_dist(m, TSR_MESH_BLOCK);
  int rc = 0, id;
  for (int i = 0; !rc && i < spec->nsets; i++) rc = tsr__read_set(f, m, spec->sets[i], &id);
  for (int i = 0; !rc && i < spec->nmaps; i++) rc = tsr__read_map(f, m, &spec->maps[i]);
  for (int i = 0; !rc && i < spec->ndats; i++) rc = tsr__read_dat(f, m, &spec->dats[i]);
  for (int i = 0; !rc && i < spec->nconsts; i++) rc = tsr__read_const(f, m, spec->consts[i]);
  if (rc) {
    tsr_mesh_destroy(&m);
    TSR_CALL(rc);
  }
  *out = m;
  return TSR_SUCCESS;
}

int tsr_mesh_read(MPI_Comm comm, const char *path, const tsr_mesh_spec_t *spec,
                  tsr_mesh_t **out) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(comm, path, &f));
  int rc = tsr_mesh_read_file(f, spec, out);
  tsr_file_close(&f);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* ---- writing ----------------------------------------------------------- */

static const char *tsr__op2_type(tsr_dtype_t t) {
  return t == TSR_INT32 ? "int" : t == TSR_INT64 ? "long long" : t == TSR_FLOAT ? "float" : "double";
}

/* Rows this rank writes of set s and where they start in its local data. */
static void tsr__my_rows(tsr_file_t *f, const tsr_mesh_t *m, const tsr_set_t *s,
                         tsr_idx_t *first, tsr_idx_t *count, tsr_idx_t *local0) {
  if (tsr_mesh_dist(m) == TSR_MESH_BLOCK) {
    *first = s->offset;
    *count = s->size;
    *local0 = 0;
  } else {
    tsr_mesh_block_rows(s->global_size, f->size, f->rank, first, count);
    *local0 = *first;
  }
}

/* OP2's attributes: dim, size, type; plus Tessera's set names. */
static int tsr__attrs(tsr_file_t *f, const char *name, int dim, int64_t size, const char *type,
                      const char *k1, const char *v1, const char *k2, const char *v2) {
  hid_t d = H5Dopen2(f->id, name, H5P_DEFAULT);
  TSR_CHECK(d >= 0, TSR_ERR_HDF5, "%s: cannot reopen dataset '%s'", f->path, name);
  int64_t dm = dim;
  int rc = tsr__attr_write_int(f, d, "dim", &dm, 1, TSR_INT32);
  if (!rc && size >= 0) rc = tsr__attr_write_int(f, d, "size", &size, 1, TSR_INT32);
  if (!rc) rc = tsr__attr_write_string(f, d, "type", type);
  if (!rc && k1) rc = tsr__attr_write_string(f, d, k1, v1);
  if (!rc && k2) rc = tsr__attr_write_string(f, d, k2, v2);
  H5Dclose(d);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

int tsr_mesh_write_file(tsr_file_t *f, const tsr_mesh_t *m) {
  TSR_CHECK(f && m && f->writing, TSR_ERR_ARG, "tsr_mesh_write: needs a mesh and a file opened for writing");
  TSR_CHECK(tsr_mesh_dist(m) != TSR_MESH_PARTITIONED, TSR_ERR_UNSUPPORTED,
            "%s: writing a partitioned mesh is not supported (write the block-distributed or "
            "serial mesh)", f->path);
  hid_t root = H5Oopen(f->id, "/", H5P_DEFAULT);
  int rc = tsr__attr_write_string(f, root, "kind", "op2-mesh");
  H5Oclose(root);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  for (int i = 0; i < tsr_mesh_nsets(m); i++) {
    const tsr_set_t *s = tsr_mesh_set(m, i);
    tsr_idx_t one[3] = {1, 1, 1};
    int32_t n = (int32_t)s->global_size;
    TSR_CALL(tsr__write_rows(f, s->name, 1, one, TSR_INT32, 0, f->rank == 0, &n));
  }
  for (int i = 0; i < tsr_mesh_nmaps(m); i++) {
    const tsr_map_t *mp = tsr_mesh_map(m, i);
    const tsr_set_t *fs = tsr_mesh_set(m, mp->from), *ts = tsr_mesh_set(m, mp->to);
    tsr_idx_t first, count, l0;
    tsr__my_rows(f, m, fs, &first, &count, &l0);
    const int32_t *rows = mp->data + l0 * mp->dim;
    rc = 0;
    for (tsr_idx_t k = 0; k < count * mp->dim && !rc; k++)
      if (rows[k] < 0 || rows[k] >= ts->global_size)
        rc = TSR_RAISE(TSR_ERR_RANGE,
                       "%s: map '%s': entry [%lld][%d] = %d, expected an index in [0, %lld) of "
                       "set '%s'; nothing written",
                       f->path, mp->name, (long long)(first + k / mp->dim), (int)(k % mp->dim),
                       (int)rows[k], (long long)ts->global_size, ts->name);
    TSR_CALL(tsr_error_agree(f->comm, rc));
    tsr_idx_t dims[3] = {fs->global_size, mp->dim, 1};
    TSR_CALL(tsr__write_rows(f, mp->name, 2, dims, TSR_INT32, first, count, rows));
    TSR_CALL(tsr__attrs(f, mp->name, mp->dim, fs->global_size, "int", "from_set", fs->name,
                        "to_set", ts->name));
  }
  for (int i = 0; i < tsr_mesh_ndats(m); i++) {
    const tsr_dat_t *d = tsr_mesh_dat(m, i);
    const tsr_set_t *s = tsr_mesh_set(m, d->set);
    tsr_idx_t first, count, l0;
    tsr__my_rows(f, m, s, &first, &count, &l0);
    size_t w = (size_t)d->dim * tsr_dtype_size(d->type);
    tsr_idx_t dims[3] = {s->global_size, d->dim, 1};
    TSR_CALL(tsr__write_rows(f, d->name, 2, dims, d->type, first, count,
                             (const char *)d->data + (size_t)l0 * w));
    TSR_CALL(tsr__attrs(f, d->name, d->dim, (int64_t)w, tsr__op2_type(d->type), "set", s->name,
                        NULL, NULL));
  }
  for (int i = 0; i < tsr_mesh_nconsts(m); i++) {
    const tsr_const_t *c = tsr_mesh_const(m, i);
    tsr_idx_t dims[3] = {c->dim, 1, 1};
    TSR_CALL(tsr__write_rows(f, c->name, 1, dims, TSR_DOUBLE, 0, f->rank == 0 ? c->dim : 0, c->data));
    TSR_CALL(tsr__attrs(f, c->name, c->dim, -1, "double", NULL, NULL, NULL, NULL));
  }
  return TSR_SUCCESS;
}

int tsr_mesh_write(MPI_Comm comm, const char *path, const tsr_mesh_t *mesh,
                   const tsr_provenance_t *p) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_create(comm, path, &f));
  int rc = tsr_mesh_write_file(f, mesh);
  if (!rc && p) rc = tsr_file_write_provenance(f, p);
  if (rc) {
    tsr_file_discard(&f);
    TSR_CALL(rc);
  }
  TSR_CALL(tsr_file_close(&f));
  return TSR_SUCCESS;
}

/* ---- table of contents --------------------------------------------------- */

typedef struct {
  tsr_file_t *f;
  char (*names)[TSR_NAME_MAX];
  int n, cap;
} tsr__list_t;

static herr_t tsr__visit(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  tsr__list_t *l = data;
  (void)info;
  hid_t o = H5Oopen(g, name, H5P_DEFAULT);
  if (o < 0) return 0;
  int isds = H5Iget_type(o) == H5I_DATASET;
  H5Oclose(o);
  if (!isds || strlen(name) >= TSR_NAME_MAX) return 0;
  if (l->n == l->cap) {
    int nc = l->cap ? 2 * l->cap : 32;
    void *p = realloc(l->names, (size_t)nc * TSR_NAME_MAX);
    if (!p) return -1;
    l->names = p;
    l->cap = nc;
  }
  snprintf(l->names[l->n++], TSR_NAME_MAX, "%s", name);
  return 0;
}

void tsr_mesh_toc_free(tsr_mesh_toc_t *t) {
  if (!t) return;
  free(t->sets);
  free(t->set_size);
  free(t->maps);
  free(t->dats);
  free(t->consts);
  free(t->strings_);
  free(t->names_);
  memset(t, 0, sizeof *t);
}

/* The unique set with that many rows, or NULL. */
static const char *tsr__set_with(const tsr_mesh_toc_t *t, tsr_idx_t rows) {
  const char *hit = NULL;
  for (int i = 0; i < t->nsets; i++)
    if (t->set_size[i] == rows) {
      if (hit) return NULL;
      hit = t->sets[i];
    }
  return hit;
}

/* Everything a toc needs is metadata and 1-element reads: done locally by
 * every rank (independent reads), then agreed. */
static int tsr__toc_local(tsr_file_t *f, tsr_mesh_toc_t *t) {
  tsr__list_t l = {f, NULL, 0, 0};
  hsize_t idx = 0;
  TSR_CHECK(H5Literate(f->id, H5_INDEX_NAME, H5_ITER_INC, &idx, tsr__visit, &l) >= 0,
            TSR_ERR_HDF5, "%s: cannot list the root group", f->path);
  int n = l.n, ns = 0;
  t->sets = tsr_calloc((size_t)n + 1, TSR_NAME_MAX);
  t->set_size = tsr_calloc((size_t)n + 1, sizeof *t->set_size);
  t->maps = tsr_calloc((size_t)n + 1, sizeof *t->maps);
  t->dats = tsr_calloc((size_t)n + 1, sizeof *t->dats);
  t->consts = tsr_calloc((size_t)n + 1, TSR_NAME_MAX);
  t->strings_ = tsr_calloc((size_t)(2 * n + 1), TSR_NAME_MAX); /* two set names per map */
  char(*str)[TSR_NAME_MAX] = (char(*)[TSR_NAME_MAX])t->strings_;
  int *kind = tsr_calloc((size_t)n + 1, sizeof *kind);
  if (!t->sets || !t->set_size || !t->maps || !t->dats || !t->consts || !t->strings_ || !kind) {
    free(l.names);
    free(kind);
    return TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory listing datasets", f->path);
  }
  int rc = 0;
  /* pass 1: sets are 1-element integer datasets without OP2's "dim" */
  for (int i = 0; i < n && !rc; i++) {
    int r;
    tsr_idx_t d[3];
    tsr_dtype_t ty;
    const int se = tsr_file_dataset_shape(f, l.names[i], &r, d, &ty);
    if (se == TSR_ERR_IO) { /* numbers the file does not hold: say so */
      rc = se;
      break;
    }
    if (se != 0) {
      tsr_error_clear();
      kind[i] = -1; /* not numeric: not ours */
      continue;
    }
    if (r == 1 && d[0] == 1 && (ty == TSR_INT32 || ty == TSR_INT64) &&
        !tsr_file_has_attr(f, l.names[i], "dim")) {
      int64_t v = 0;
      hid_t ds = H5Dopen2(f->id, l.names[i], H5P_DEFAULT);
      herr_t e = H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
      H5Dclose(ds);
      if (e < 0)
        rc = TSR_RAISE(TSR_ERR_HDF5, "%s: dataset '%s' (set): read failed (file truncated or "
                       "damaged?)", f->path, l.names[i]);
      else if (v <= 0)
        rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s' (set): expected a size > 0, found %lld",
                       f->path, l.names[i], (long long)v);
      snprintf(t->sets[t->nsets], TSR_NAME_MAX, "%s", l.names[i]);
      t->set_size[t->nsets++] = v;
      kind[i] = 1;
    }
  }
  /* pass 2: the rest */
  for (int i = 0; i < n && !rc; i++) {
    if (kind[i]) continue;
    const char *nm = l.names[i];
    int r;
    tsr_idx_t d[3];
    tsr_dtype_t ty;
    if (tsr_file_dataset_shape(f, nm, &r, d, &ty) != 0) break;
    int tagged = tsr_file_has_attr(f, nm, "to_set") || tsr_file_has_attr(f, nm, "set");
    if (r == 1 && !tagged) {
      snprintf(t->consts[t->nconsts++], TSR_NAME_MAX, "%s", nm);
      continue;
    }
    if (r > 2 && !tagged) continue; /* not OP2's: left alone */
    int isint = ty == TSR_INT32 || ty == TSR_INT64;
    int64_t sz = -1;
    if (tsr_file_has_attr(f, nm, "size") && tsr_file_attr_int(f, nm, "size", &sz, 1) != 0) {
      tsr_error_clear();
      sz = -1;
    }
    int ismap = tsr_file_has_attr(f, nm, "to_set") ||
                (!tsr_file_has_attr(f, nm, "set") && isint && sz == d[0] &&
                 sz != d[1] * (int64_t)tsr_dtype_size(ty));
    if (ismap) {
      tsr_io_map_t *mp = &t->maps[t->nmaps++];
      mp->name = nm;
      char *from = str[ns++], *to = str[ns++];
      if (tsr_file_has_attr(f, nm, "from_set"))
        rc = tsr_file_attr_string(f, nm, "from_set", from, TSR_NAME_MAX);
      else if (tsr__set_with(t, d[0]))
        snprintf(from, TSR_NAME_MAX, "%s", tsr__set_with(t, d[0]));
      if (!rc && tsr_file_has_attr(f, nm, "to_set"))
        rc = tsr_file_attr_string(f, nm, "to_set", to, TSR_NAME_MAX);
      mp->from = from[0] ? from : NULL;
      mp->to = to[0] ? to : NULL;
    } else {
      tsr_io_dat_t *dt = &t->dats[t->ndats++];
      dt->name = nm;
      dt->type = ty;
      char *set = str[ns++];
      if (tsr_file_has_attr(f, nm, "set"))
        rc = tsr_file_attr_string(f, nm, "set", set, TSR_NAME_MAX);
      else if (tsr__set_with(t, d[0]))
        snprintf(set, TSR_NAME_MAX, "%s", tsr__set_with(t, d[0]));
      dt->set = set[0] ? set : NULL;
    }
  }
  t->names_ = (char *)l.names; /* map and dat names point into it */
  l.names = NULL;
  free(l.names);
  free(kind);
  return rc;
}

int tsr_mesh_toc(tsr_file_t *f, tsr_mesh_toc_t *t) {
  TSR_CHECK(f && t, TSR_ERR_ARG, "tsr_mesh_toc: NULL argument");
  memset(t, 0, sizeof *t);
  int rc = tsr_error_agree(f->comm, tsr__toc_local(f, t));
  if (rc) {
    tsr_mesh_toc_free(t);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}
