/* io_grid.c: regular grids ([nz][ny][nx] fields) and X-Y-unstructured grids
 * (plane order, neighbour offset tables, [nz][nx*ny] fields); each rank
 * reads and writes its own block of z-planes or table rows. */
#include "config.h"
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

static int tsr__root_ints(tsr_file_t *f, const char *name, const int64_t *v, int n) {
  hid_t root = H5Oopen(f->id, "/", H5P_DEFAULT);
  int rc = tsr__attr_write_int(f, root, name, v, n, TSR_INT64);
  H5Oclose(root);
  return rc;
}

static int tsr__check_kind(tsr_file_t *f, const char *want) {
  char kind[64];
  TSR_CALL(tsr_file_kind(f, kind, sizeof kind));
  TSR_CHECK(strcmp(kind, want) == 0, TSR_ERR_FORMAT,
            "%s: root attribute 'kind': expected \"%s\", found \"%s\"", f->path, want, kind);
  return TSR_SUCCESS;
}

static int tsr__field_check(tsr_file_t *f, const char *path, int rank, const tsr_idx_t *want,
                            tsr_idx_t z0, tsr_idx_t nzl);

/* Extents read from a header: each in [1, 2^31) and their product below
 * 2^40 points (8 TiB of doubles), so that products and int offsets of
 * later code cannot overflow. */
static int tsr__extents_check(tsr_file_t *f, const char *names, int64_t a, int64_t b, int64_t c) {
  const int64_t lim = INT32_MAX;
  TSR_CHECK(a >= 1 && b >= 1 && c >= 1 && a <= lim && b <= lim && c <= lim, TSR_ERR_FORMAT,
            "%s: root attributes %s = %lld, %lld, %lld: expected each in [1, %lld]", f->path, names,
            (long long)a, (long long)b, (long long)c, (long long)lim);
  TSR_CHECK(a * b <= ((int64_t)1 << 40) / c, TSR_ERR_FORMAT,
            "%s: root attributes %s = %lld x %lld x %lld: more than 2^40 points", f->path, names,
            (long long)a, (long long)b, (long long)c);
  return TSR_SUCCESS;
}

/* ---- regular grids ----------------------------------------------------- */

int tsr_grid_write_header(tsr_file_t *f, const tsr_grid_t *g) {
  TSR_CHECK(f && g && f->writing, TSR_ERR_ARG, "tsr_grid_write_header: needs a file opened for writing");
  TSR_CHECK(g->nx > 0 && g->ny > 0 && g->nz > 0, TSR_ERR_ARG,
            "%s: grid extents %lld x %lld x %lld must be positive", f->path, (long long)g->nx,
            (long long)g->ny, (long long)g->nz);
  hid_t root = H5Oopen(f->id, "/", H5P_DEFAULT);
  int rc = tsr__attr_write_string(f, root, "kind", "regular-grid");
  H5Oclose(root);
  int64_t h[3] = {g->halo[0], g->halo[1], g->halo[2]};
  if (!rc) rc = tsr__root_ints(f, "nx", &g->nx, 1);
  if (!rc) rc = tsr__root_ints(f, "ny", &g->ny, 1);
  if (!rc) rc = tsr__root_ints(f, "nz", &g->nz, 1);
  if (!rc) rc = tsr__root_ints(f, "halo", h, 3);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

static int tsr__grid_header_local(tsr_file_t *f, tsr_grid_t *g) {
  TSR_CALL(tsr__check_kind(f, "regular-grid"));
  int64_t h[3];
  TSR_CALL(tsr_file_attr_int(f, "/", "nx", &g->nx, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "ny", &g->ny, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "nz", &g->nz, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "halo", h, 3));
  TSR_CHECK(g->nx > 0 && g->ny > 0 && g->nz > 0, TSR_ERR_FORMAT,
            "%s: root attributes nx, ny, nz: expected positive extents, found %lld x %lld x %lld",
            f->path, (long long)g->nx, (long long)g->ny, (long long)g->nz);
  for (int i = 0; i < 3; i++) {
    tsr_idx_t n = i == 0 ? g->nx : i == 1 ? g->ny : g->nz;
    TSR_CHECK(h[i] >= 0 && h[i] < n - h[i], TSR_ERR_FORMAT, /* 2h < n, without overflow */
              "%s: root attribute 'halo'[%d] = %lld: expected 0 <= halo < n/2 = %lld", f->path, i,
              (long long)h[i], (long long)(n / 2));
    g->halo[i] = (int)h[i];
  }
  TSR_CALL(tsr__extents_check(f, "nx, ny, nz", g->nx, g->ny, g->nz));
  /* the header against the datasets it describes, before anyone sizes
     memory from it: every field in /fields must be [nz][ny][nx] */
  char names[16][TSR_NAME_MAX];
  int nf = 0;
  TSR_CALL(tsr_grid_fields(f, names, 16, &nf));
  const tsr_idx_t want[3] = {g->nz, g->ny, g->nx};
  for (int i = 0; i < nf; i++) {
    char path[TSR_NAME_MAX + 16];
    snprintf(path, sizeof path, "/fields/%.*s", TSR_NAME_MAX - 1, names[i]);
    TSR_CALL(tsr__field_check(f, path, 3, want, 0, 0));
  }
  return TSR_SUCCESS;
}

int tsr_grid_read_header(tsr_file_t *f, tsr_grid_t *g) {
  TSR_CHECK(f && g, TSR_ERR_ARG, "tsr_grid_read_header: NULL argument");
  TSR_CALL(tsr_error_agree(f->comm, tsr__grid_header_local(f, g)));
  return TSR_SUCCESS;
}

/* A field of `rank` dims [nz][plane...]: check dims before a block read. */
static int tsr__field_check(tsr_file_t *f, const char *path, int rank, const tsr_idx_t *want,
                            tsr_idx_t z0, tsr_idx_t nzl) {
  TSR_CHECK(tsr__exists(f, path), TSR_ERR_FORMAT, "%s: dataset '%s' not found", f->path, path);
  int r;
  tsr_idx_t d[3];
  tsr_dtype_t t;
  TSR_CALL(tsr_file_dataset_shape(f, path, &r, d, &t));
  int ok = r == rank;
  for (int i = 0; ok && i < rank; i++) ok = d[i] == want[i];
  if (!ok) {
    char e[96], g[96];
    size_t a = 0, b = 0;
    for (int i = 0; i < rank; i++)
      a += (size_t)snprintf(e + a, sizeof e - a, "%s%lld", i ? ", " : "", (long long)want[i]);
    for (int i = 0; i < r; i++)
      b += (size_t)snprintf(g + b, sizeof g - b, "%s%lld", i ? ", " : "", (long long)d[i]);
    return TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': expected rank %d [%s], found [%s]",
                     f->path, path, rank, e, g);
  }
  TSR_CHECK(z0 >= 0 && nzl >= 0 && z0 + nzl <= want[0], TSR_ERR_ARG,
            "%s: dataset '%s': planes [%lld, %lld) requested of %lld", f->path, path,
            (long long)z0, (long long)(z0 + nzl), (long long)want[0]);
  return TSR_SUCCESS;
}

static int tsr__field_write(tsr_file_t *f, const char *name, int rank, const tsr_idx_t *dims,
                            tsr_dtype_t type, tsr_idx_t z0, tsr_idx_t nzl, const void *data) {
  char path[TSR_NAME_MAX + 16];
  int rc = 0;
  if (!name || !*name || strlen(name) >= TSR_NAME_MAX || strchr(name, '/'))
    rc = TSR_RAISE(TSR_ERR_ARG, "%s: field name '%s' is empty, too long or contains '/'",
                   f->path, name ? name : "");
  else if (type != TSR_FLOAT && type != TSR_DOUBLE)
    rc = TSR_RAISE(TSR_ERR_ARG, "%s: field '%s': type %s, expected float or double", f->path, name,
                   tsr_dtype_name(type));
  else if (z0 < 0 || nzl < 0 || z0 + nzl > dims[0])
    rc = TSR_RAISE(TSR_ERR_ARG, "%s: field '%s': planes [%lld, %lld) outside [0, %lld)", f->path,
                   name, (long long)z0, (long long)(z0 + nzl), (long long)dims[0]);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  snprintf(path, sizeof path, "/fields/%s", name);
  TSR_CALL(tsr__write_rows(f, path, rank, dims, type, z0, nzl, data));
  return TSR_SUCCESS;
}

static int tsr__field_read(tsr_file_t *f, const char *name, int rank, const tsr_idx_t *dims,
                           tsr_dtype_t type, tsr_idx_t z0, tsr_idx_t nzl, void *data) {
  char path[TSR_NAME_MAX + 16];
  snprintf(path, sizeof path, "/fields/%s", name ? name : "");
  TSR_CALL(tsr_error_agree(f->comm, tsr__field_check(f, path, rank, dims, z0, nzl)));
  TSR_CALL(tsr__read_rows_nd(f, path, z0, nzl, type, data));
  const tsr_idx_t plane = dims[1] * (rank > 2 ? dims[2] : 1);
  double v = 0;
  const tsr_idx_t bad = tsr__first_nonfinite(type, data, nzl * plane, &v);
  int rc = bad < 0 ? TSR_SUCCESS
         : rank > 2 ? TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': the value at (x %lld, y %lld, z %lld) "
                                "is %s (expected finite numbers)", f->path, path,
                                (long long)(bad % dims[2]), (long long)(bad / dims[2] % dims[1]),
                                (long long)(z0 + bad / plane), tsr__nonfinite_name(v))
                    : TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '%s': the value at (cell %lld, z %lld) "
                                "is %s (expected finite numbers)", f->path, path,
                                (long long)(bad % plane), (long long)(z0 + bad / plane),
                                tsr__nonfinite_name(v));
  TSR_CALL(tsr_error_agree(f->comm, rc));
  return TSR_SUCCESS;
}

int tsr_grid_write_field(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                         tsr_idx_t z0, tsr_idx_t nzl, const void *data) {
  tsr_idx_t dims[3] = {g->nz, g->ny, g->nx};
  TSR_CALL(tsr__field_write(f, name, 3, dims, type, z0, nzl, data));
  return TSR_SUCCESS;
}

int tsr_grid_read_field(tsr_file_t *f, const tsr_grid_t *g, const char *name, tsr_dtype_t type,
                        tsr_idx_t z0, tsr_idx_t nzl, void *data) {
  tsr_idx_t dims[3] = {g->nz, g->ny, g->nx};
  TSR_CALL(tsr__field_read(f, name, 3, dims, type, z0, nzl, data));
  return TSR_SUCCESS;
}

typedef struct {
  char (*names)[TSR_NAME_MAX];
  int max, n;
} tsr__names_t;

static herr_t tsr__field_visit(hid_t g, const char *name, const H5L_info_t *info, void *data) {
  tsr__names_t *l = data;
  (void)g;
  (void)info;
  if (l->n < l->max && strlen(name) < TSR_NAME_MAX) snprintf(l->names[l->n], TSR_NAME_MAX, "%s", name);
  l->n++;
  return 0;
}

int tsr_grid_fields(tsr_file_t *f, char (*names)[TSR_NAME_MAX], int max, int *count) {
  tsr__names_t l = {names, max, 0};
  if (tsr__exists(f, "/fields")) {
    hsize_t idx = 0;
    hid_t g = H5Gopen2(f->id, "/fields", H5P_DEFAULT);
    if (g >= 0) {
      H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, tsr__field_visit, &l);
      H5Gclose(g);
    }
  }
  *count = l.n < max ? l.n : max;
  return TSR_SUCCESS;
}

/* ---- X-Y-unstructured grids ------------------------------------------ */

static int tsr__xy_check(tsr_file_t *f, const tsr_xygrid_t *g) {
  TSR_CHECK(g->nx > 0 && g->ny > 0 && g->nz > 0, TSR_ERR_FORMAT,
            "%s: xy-grid extents %lld x %lld x %lld: expected positive", f->path,
            (long long)g->nx, (long long)g->ny, (long long)g->nz);
  const int64_t want_m = 2 * (int64_t)g->depth * ((int64_t)g->depth + 1);
  TSR_CHECK(g->depth >= 1 && g->m == want_m, TSR_ERR_FORMAT,
            "%s: xy-grid: depth %d and m %d: expected m = 2 depth (depth + 1) = %lld", f->path,
            g->depth, g->m, (long long)want_m);
  return TSR_SUCCESS;
}

/* order must be a permutation of [0, ncell); neigh offsets within range. */
static int tsr__xy_tables_check(tsr_file_t *f, const tsr_xygrid_t *g, const int64_t *order,
                                const int32_t *neigh) {
  tsr_idx_t nc = g->nx * g->ny;
  unsigned char *seen = tsr_calloc((size_t)nc, 1);
  TSR_CHECK(seen, TSR_ERR_ALLOC, "%s: out of memory", f->path);
  for (tsr_idx_t c = 0; c < nc; c++) {
    int64_t s = order[c];
    if (s < 0 || s >= nc || seen[s]) {
      free(seen);
      return TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset 'order': entry %lld (x %lld, y %lld) = %lld "
                       "is %s; expected a permutation of [0, %lld)", f->path, (long long)c,
                       (long long)(c % g->nx), (long long)(c / g->nx), (long long)s,
                       (s < 0 || s >= nc) ? "out of range" : "repeated", (long long)nc);
    }
    seen[s] = 1;
  }
  free(seen);
  for (int r = 0; r < g->m; r++)
    for (tsr_idx_t s = 0; s < nc; s++) {
      int32_t o = neigh[(size_t)r * (size_t)nc + (size_t)s];
      TSR_CHECK(o == 0 || (s + o >= 0 && s + o < nc), TSR_ERR_RANGE,
                "%s: dataset 'neigh': relation %d of cell %lld: offset %d leads to %lld, outside "
                "[0, %lld)", f->path, r, (long long)s, (int)o, (long long)(s + o), (long long)nc);
    }
  return TSR_SUCCESS;
}

int tsr_xygrid_write(tsr_file_t *f, const tsr_xygrid_t *g, const int64_t *order,
                     const int32_t *neigh) {
  TSR_CHECK(f && g && order && neigh && f->writing, TSR_ERR_ARG,
            "tsr_xygrid_write: NULL argument or file not opened for writing");
  int rc = tsr__xy_check(f, g);
  if (!rc) rc = tsr__xy_tables_check(f, g, order, neigh);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  hid_t root = H5Oopen(f->id, "/", H5P_DEFAULT);
  rc = tsr__attr_write_string(f, root, "kind", "xy-grid");
  H5Oclose(root);
  int64_t dl = g->depth, m = g->m;
  if (!rc) rc = tsr__root_ints(f, "nx", &g->nx, 1);
  if (!rc) rc = tsr__root_ints(f, "ny", &g->ny, 1);
  if (!rc) rc = tsr__root_ints(f, "nz", &g->nz, 1);
  if (!rc) rc = tsr__root_ints(f, "depth", &dl, 1);
  if (!rc) rc = tsr__root_ints(f, "m", &m, 1);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  tsr_idx_t nc = g->nx * g->ny, first, count;
  tsr_mesh_block_rows(nc, f->size, f->rank, &first, &count);
  tsr_idx_t od[3] = {nc, 1, 1};
  TSR_CALL(tsr__write_rows(f, "/order", 1, od, TSR_INT64, first, count, order + first));
  tsr_mesh_block_rows(g->m, f->size, f->rank, &first, &count);
  tsr_idx_t nd[3] = {g->m, nc, 1};
  TSR_CALL(tsr__write_rows(f, "/neigh", 2, nd, TSR_INT32, first, count,
                           neigh + (size_t)first * (size_t)nc));
  return TSR_SUCCESS;
}

static int tsr__xy_header_local(tsr_file_t *f, tsr_xygrid_t *g) {
  TSR_CALL(tsr__check_kind(f, "xy-grid"));
  int64_t d, m;
  TSR_CALL(tsr_file_attr_int(f, "/", "nx", &g->nx, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "ny", &g->ny, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "nz", &g->nz, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "depth", &d, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "m", &m, 1));
  TSR_CHECK(d >= 1 && d <= 64 && m >= 1 && m <= 2 * 64 * 65, TSR_ERR_FORMAT,
            "%s: root attributes depth = %lld, m = %lld: expected depth in [1, 64] and m = 2 depth "
            "(depth + 1)", f->path, (long long)d, (long long)m);
  g->depth = (int)d;
  g->m = (int)m;
  TSR_CALL(tsr__xy_check(f, g));
  TSR_CALL(tsr__extents_check(f, "nx, ny, nz", g->nx, g->ny, g->nz));
  /* the header against /order and /neigh before anyone sizes memory from it */
  tsr_idx_t od[1] = {g->nx * g->ny}, nd[2] = {g->m, g->nx * g->ny};
  TSR_CALL(tsr__field_check(f, "/order", 1, od, 0, 0));
  TSR_CALL(tsr__field_check(f, "/neigh", 2, nd, 0, 0));
  return TSR_SUCCESS;
}

int tsr_xygrid_read_header(tsr_file_t *f, tsr_xygrid_t *g) {
  TSR_CHECK(f && g, TSR_ERR_ARG, "tsr_xygrid_read_header: NULL argument");
  TSR_CALL(tsr_error_agree(f->comm, tsr__xy_header_local(f, g)));
  return TSR_SUCCESS;
}

int tsr_xygrid_read_tables(tsr_file_t *f, const tsr_xygrid_t *g, int64_t *order, int32_t *neigh) {
  tsr_idx_t nc = g->nx * g->ny;
  /* the tables are small and replicated: every rank reads them whole */
  tsr_idx_t od[1] = {nc}, nd[2] = {g->m, nc};
  int rc = tsr__field_check(f, "/order", 1, od, 0, 0);
  if (!rc) rc = tsr__field_check(f, "/neigh", 2, nd, 0, 0);
  TSR_CALL(tsr_error_agree(f->comm, rc));
  TSR_CALL(tsr__read_rows_nd(f, "/order", 0, nc, TSR_INT64, order));
  TSR_CALL(tsr__read_rows_nd(f, "/neigh", 0, g->m, TSR_INT32, neigh));
  TSR_CALL(tsr_error_agree(f->comm, tsr__xy_tables_check(f, g, order, neigh)));
  return TSR_SUCCESS;
}

int tsr_xygrid_write_field(tsr_file_t *f, const tsr_xygrid_t *g, const char *name,
                           tsr_dtype_t type, tsr_idx_t z0, tsr_idx_t nzl, const void *data) {
  tsr_idx_t dims[3] = {g->nz, g->nx * g->ny, 1};
  TSR_CALL(tsr__field_write(f, name, 2, dims, type, z0, nzl, data));
  return TSR_SUCCESS;
}

int tsr_xygrid_read_field(tsr_file_t *f, const tsr_xygrid_t *g, const char *name,
                          tsr_dtype_t type, tsr_idx_t z0, tsr_idx_t nzl, void *data) {
  tsr_idx_t dims[3] = {g->nz, g->nx * g->ny, 1};
  TSR_CALL(tsr__field_read(f, name, 2, dims, type, z0, nzl, data));
  return TSR_SUCCESS;
}
