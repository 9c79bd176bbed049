/* apps/fastsg/fastsg_io.c: tsr-fastsg's HDF5 input and output (kind
 * "sparse-grid", docs/FORMAT.md):
 *   -i FILE  /values [N] (f at the grid points in fastsg order), /points
 *            [M][D] (evaluation points), /point_values [M] (f at them); any
 *            of them may be absent (then --function / --points are used);
 *            root attributes dim and level, when present, give D and n.
 *   -o FILE  the same datasets plus /coefficients [N], /coordinates [N][D]
 *            (grids up to FASTSG_IO_MAX_COORDS values) and /results [M],
 *            with provenance. A file written with -o is a valid -i.
 * Every rank holds the whole grid, or (--distribute) its rows [row0, row0 +
 * nrows); grid arrays are written by the rows of each rank's block range,
 * point arrays by each rank's slice. */
#include "config.h"
#include "apps/fastsg/fastsg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FASTSG_IO_MAX_COORDS ((int64_t)1 << 27) /* N * D coordinates (1 GiB) */

void fastsg_io_rows(const fastsg_app_t *app, int64_t *p0, int64_t *p1) {
  *p0 = fastsg_gblock_pos(&app->grid, app->b0);
  *p1 = fastsg_gblock_pos(&app->grid, app->b1);
}

/* Dataset present? (rank, dims) when it is. */
static int fastsg_io_shape(tsr_file_t *f, const char *name, int *present, int *rank,
                           tsr_idx_t dims[3]) {
  tsr_dtype_t type;
  *present = 0;
  if (!tsr_file_has(f, name)) return TSR_SUCCESS; /* absent: --function / --points instead */
  TSR_CALL(tsr_file_dataset_shape(f, name, rank, dims, &type)); /* present but unusable: an error */
  *present = 1;
  TSR_CHECK(type == TSR_DOUBLE || type == TSR_FLOAT, TSR_ERR_FORMAT,
            "%s: dataset '%s': expected floating-point data (double or float), found %s",
            tsr_file_path(f), name, tsr_dtype_name(type));
  return TSR_SUCCESS;
}

static void fastsg_io_dims_str(int rank, const tsr_idx_t *dims, char *buf, size_t n) {
  size_t at = (size_t)snprintf(buf, n, "[");
  for (int i = 0; i < rank && at < n; i++)
    at += (size_t)snprintf(buf + at, n - at, "%s%lld", i ? ", " : "", (long long)dims[i]);
  if (at < n) snprintf(buf + at, n - at, "]");
}

/* A vector dataset [len] (or [len][1]). */
static int fastsg_io_check_vector(tsr_file_t *f, const char *name, int64_t len, const char *what) {
  int present, rank;
  tsr_idx_t dims[3] = {0, 1, 1};
  TSR_CALL(fastsg_io_shape(f, name, &present, &rank, dims));
  char got[96];
  fastsg_io_dims_str(rank, dims, got, sizeof got);
  TSR_CHECK(dims[0] == len && (rank == 1 || (rank == 2 && dims[1] == 1)), TSR_ERR_FORMAT,
            "%s: dataset '%s': expected [%lld] values (%s), found %s", tsr_file_path(f), name,
            (long long)len, what, got);
  return TSR_SUCCESS;
}

static int fastsg_io_attr(tsr_file_t *f, const char *name, int *val, int given, int lo, int hi,
                          const char *flag) {
  if (!tsr_file_has_attr(f, "/", name)) return TSR_SUCCESS;
  int64_t v;
  TSR_CALL(tsr_file_attr_int(f, "/", name, &v, 1));
  TSR_CHECK(v >= lo && v <= hi, TSR_ERR_FORMAT, "%s: attribute '%s' = %lld, expected %d..%d",
            tsr_file_path(f), name, (long long)v, lo, hi);
  TSR_CHECK(!given || v == *val, TSR_ERR_ARG,
            "%s: the file's grid has %s = %lld, but %s %d was given (leave %s out to use the "
            "file's)", tsr_file_path(f), name, (long long)v, flag, *val, flag);
  *val = (int)v;
  return TSR_SUCCESS;
}

static int fastsg_io_open_local(fastsg_app_t *app, tsr_file_t *f) {
  char kind[64];
  if (tsr_file_has_attr(f, "/", "kind")) {
    TSR_CALL(tsr_file_attr_string(f, "/", "kind", kind, sizeof kind));
    TSR_CHECK(strcmp(kind, "sparse-grid") == 0, TSR_ERR_FORMAT,
              "%s: a '%s' file, expected kind 'sparse-grid' (docs/FORMAT.md)", app->input, kind);
  }
  TSR_CALL(fastsg_io_attr(f, "dim", &app->dim, app->dim_given, 1, FASTSG_MAX_DIM, "--dim"));
  TSR_CALL(fastsg_io_attr(f, "level", &app->level, app->level_given, 1, FASTSG_MAX_LEVEL,
                          "--level"));
  int rank;
  tsr_idx_t dims[3];
  TSR_CALL(fastsg_io_shape(f, "/values", &app->in_values, &rank, dims));
  TSR_CALL(fastsg_io_shape(f, "/points", &app->in_points, &rank, dims));
  TSR_CALL(fastsg_io_shape(f, "/point_values", &app->in_pvalues, &rank, dims));
  TSR_CHECK(app->in_values || app->in_points, TSR_ERR_FORMAT,
            "%s: neither '/values' (f at the grid points) nor '/points' (evaluation points) "
            "found: nothing to read (docs/FORMAT.md, sparse grids)", app->input);
  TSR_CHECK(app->in_points || !app->in_pvalues, TSR_ERR_FORMAT,
            "%s: '/point_values' without '/points'", app->input);
  return TSR_SUCCESS;
}

int fastsg_io_open(fastsg_app_t *app) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(app->comm, app->input, &f));
  int rc = tsr_error_agree(app->comm, fastsg_io_open_local(app, f));
  tsr_file_close(&f);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int fastsg_io_read_values(fastsg_app_t *app) {
  const int64_t N = app->grid.npoints;
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(app->comm, app->input, &f));
  char what[160];
  snprintf(what, sizeof what, "f at the N(%d,%d) grid points", app->dim, app->level);
  int rc = tsr_error_agree(app->comm, fastsg_io_check_vector(f, "/values", N, what));
  if (!rc) rc = tsr_file_read_rows(f, "/values", app->row0, app->nrows, app->prec, app->samples);
  tsr_file_close(&f);
  TSR_CALL(rc);
  int64_t bad = -1; /* the rows this rank holds (all of them unless distributed) */
  for (int64_t p = 0; p < app->nrows && bad < 0; p++) {
    double v = app->prec == TSR_FLOAT ? ((float *)app->samples)[p] : ((double *)app->samples)[p];
    if (!isfinite(v)) bad = p;
  }
  if (bad >= 0) bad += app->row0;
  TSR_CALL(tsr_error_agree(app->comm, bad < 0 ? 0 : TSR_RAISE(TSR_ERR_FORMAT,
           "%s: dataset '/values': the value at position %lld is not finite", app->input,
           (long long)bad)));
  snprintf(app->source, sizeof app->source, "%.580s:/values", app->input);
  return TSR_SUCCESS;
}

/* This rank's slice of /points (and /point_values), checked. */
static int fastsg_io_points_local(fastsg_app_t *app, tsr_file_t *f, int64_t *M) {
  int present, rank;
  tsr_idx_t dims[3] = {0, 1, 1};
  TSR_CALL(fastsg_io_shape(f, "/points", &present, &rank, dims));
  char got[96];
  fastsg_io_dims_str(rank, dims, got, sizeof got);
  TSR_CHECK((rank == 2 && dims[1] == app->dim) || (rank == 1 && app->dim == 1), TSR_ERR_FORMAT,
            "%s: dataset '/points': expected [M][%d] (one row of D = %d coordinates per point), "
            "found %s", app->input, app->dim, app->dim, got);
  *M = dims[0];
  if (app->in_pvalues)
    TSR_CALL(fastsg_io_check_vector(f, "/point_values", *M, "f at each row of '/points'"));
  return TSR_SUCCESS;
}

int fastsg_io_read_points(fastsg_app_t *app) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_open(app->comm, app->input, &f));
  int64_t M = 0;
  int rc = tsr_error_agree(app->comm, fastsg_io_points_local(app, f, &M));
  const int D = app->dim;
  if (!rc) {
    app->npoints_eval = M;
    app->k0 = M * app->rank / app->size;
    app->m = M * (app->rank + 1) / app->size - app->k0;
    app->x = tsr_malloc((size_t)(app->m * D + 1) * app->es);
    app->fx = tsr_malloc((size_t)(app->m + 1) * app->es);
    rc = app->x && app->fx ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %lld points",
                                           (long long)app->m);
    rc = tsr_error_agree(app->comm, rc);
  }
  if (!rc) rc = tsr_file_read_rows(f, "/points", app->k0, app->m, app->prec, app->x);
  if (!rc && app->in_pvalues)
    rc = tsr_file_read_rows(f, "/point_values", app->k0, app->m, app->prec, app->fx);
  tsr_file_close(&f);
  TSR_CALL(rc);
  for (int64_t e = 0; app->in_pvalues && e < app->m && rc == 0; e++) {
    double v = app->prec == TSR_FLOAT ? ((float *)app->fx)[e] : ((double *)app->fx)[e];
    if (!isfinite(v))
      rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '/point_values': the value at position %lld is "
                     "not finite", app->input, (long long)(app->k0 + e));
  }
  for (int64_t e = 0; e < app->m * D && rc == 0; e++) {
    double v = app->prec == TSR_FLOAT ? ((float *)app->x)[e] : ((double *)app->x)[e];
    if (!(v >= 0 && v <= 1))
      rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: dataset '/points': coordinate %lld of point %lld is %g, "
                     "outside [0,1]^%d", app->input, (long long)(e % D),
                     (long long)(app->k0 + e / D), v, D);
  }
  TSR_CALL(tsr_error_agree(app->comm, rc));
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------------ -o */

static int fastsg_io_write_coords(fastsg_app_t *app, tsr_file_t *f, int64_t p0, int64_t p1) {
  const int D = app->dim;
  const fastsg_grid_t *G = &app->grid;
  double *c = malloc((size_t)((p1 - p0) * D + 1) * sizeof *c);
  int rc = c ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the coordinates");
  rc = tsr_error_agree(app->comm, rc);
  if (rc) return rc;
#pragma omp parallel for schedule(static)
  for (int64_t p = p0; p < p1; p++) {
    int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
    int g = fastsg_idx2l(G, p, l);
    fastsg_idx2i(G, p, g, l, i);
    for (int t = 0; t < D; t++) c[(p - p0) * D + t] = fastsg_coord1d(l[t], i[t]);
  }
  tsr_idx_t dims[3] = {G->npoints, D, 1};
  rc = tsr_file_write_rows(f, "/coordinates", 2, dims, TSR_DOUBLE, p0, p1 - p0, c);
  free(c);
  return rc;
}

static int fastsg_io_write_all(fastsg_app_t *app, const tsr_cli_t *cli, tsr_file_t *f) {
  const fastsg_grid_t *G = &app->grid;
  const int D = app->dim;
  char variant[160];
  if (app->res) snprintf(variant, sizeof variant, "%s (coefficients), %s (results)",
                         app->hier_ref, app->res_variant);
  else snprintf(variant, sizeof variant, "%s", app->hier_ref);
  tsr_provenance_t prov = {"tsr-fastsg", variant, app->res ? app->res_device : NULL,
                           cli->command_line, app->size};
  TSR_CALL(tsr_file_write_provenance(f, &prov));
  int64_t v[1];
  TSR_CALL(tsr_file_write_attr_string(f, "/", "kind", "sparse-grid"));
  v[0] = D;
  TSR_CALL(tsr_file_write_attr_int(f, "/", "dim", v, 1));
  v[0] = app->level;
  TSR_CALL(tsr_file_write_attr_int(f, "/", "level", v, 1));
  v[0] = G->npoints;
  TSR_CALL(tsr_file_write_attr_int(f, "/", "npoints", v, 1));
  TSR_CALL(tsr_file_write_attr_string(f, "/", "function", app->source));
  int64_t p0, p1;
  fastsg_io_rows(app, &p0, &p1);
  const size_t es = app->es;
  tsr_idx_t dims[3] = {G->npoints, 1, 1};
  TSR_CALL(tsr_file_write_rows(f, "/values", 1, dims, app->prec, p0, p1 - p0,
                               (char *)app->samples + (p0 - app->row0) * es));
  TSR_CALL(tsr_file_write_rows(f, "/coefficients", 1, dims, app->prec, p0, p1 - p0,
                               (char *)app->coef + (p0 - app->row0) * es));
  TSR_CALL(tsr_file_write_attr_string(f, "/coefficients", "variant", app->hier_ref));
  if (G->npoints * D <= FASTSG_IO_MAX_COORDS) TSR_CALL(fastsg_io_write_coords(app, f, p0, p1));
  if (!app->do_eval) return TSR_SUCCESS;
  tsr_idx_t pd[3] = {app->npoints_eval, D, 1};
  TSR_CALL(tsr_file_write_rows(f, "/points", 2, pd, app->prec, app->k0, app->m, app->x));
  if (app->have_fx)
    TSR_CALL(tsr_file_write_rows(f, "/point_values", 1, pd, app->prec, app->k0, app->m, app->fx));
  if (app->res) {
    TSR_CALL(tsr_file_write_rows(f, "/results", 1, pd, app->prec, app->k0, app->m, app->res));
    TSR_CALL(tsr_file_write_attr_string(f, "/results", "variant", app->res_variant));
  }
  return TSR_SUCCESS;
}

/* The XDMF sidecar: the grid points (when /coordinates is written) with
 * values and coefficients, and the evaluation points with their values and
 * results, as point clouds (D >= 2; D > 3: the first three coordinates). */
static int fastsg_io_xdmf(fastsg_app_t *app) {
  static const char *const ga[] = {"/values", "/coefficients"};
  const char *pa[2];
  tsr_dtype_t ty[2] = {app->prec, app->prec};
  int np = 0, nc = 0;
  if (app->do_eval && app->have_fx) pa[np++] = "/point_values";
  if (app->do_eval && app->res) pa[np++] = "/results";
  tsr_xdmf_points_t c[2];
  if (app->grid.npoints * app->dim <= FASTSG_IO_MAX_COORDS)
    c[nc++] = (tsr_xdmf_points_t){"sparse grid", "/coordinates", TSR_DOUBLE, app->grid.npoints,
                                  app->dim, 2, ga, ty};
  if (app->do_eval)
    c[nc++] = (tsr_xdmf_points_t){"evaluation points", "/points", app->prec, app->npoints_eval,
                                  app->dim, np, pa, ty};
  if (app->dim < 2 || nc == 0) return TSR_SUCCESS;
  TSR_CALL(tsr_xdmf_write_points(app->comm, app->output, c, nc));
  return TSR_SUCCESS;
}

int fastsg_io_write(fastsg_app_t *app, const tsr_cli_t *cli) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_file_create(app->comm, app->output, &f));
  int rc = fastsg_io_write_all(app, cli, f);
  if (rc) {
    tsr_file_discard(&f);
    return rc;
  }
  TSR_CALL(tsr_file_close(&f));
  TSR_CALL(fastsg_io_xdmf(app));
  if (app->rank == 0 && !cli->quiet) {
    printf("tsr-fastsg: wrote %s (values, coefficients%s%s%s)%s\n", app->output,
           app->grid.npoints * app->dim <= FASTSG_IO_MAX_COORDS ? ", coordinates" : "",
           app->do_eval ? ", points" : "", app->res ? ", results" : "",
           app->dim >= 2 ? " with an XDMF sidecar" : "");
    fflush(stdout);
  }
  return TSR_SUCCESS;
}
