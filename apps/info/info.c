/* tsr-info: summary of an HDF5 file in Tessera's schema or OP2's layout:
 * kind, sets, maps with index ranges, dats with per-component min/max,
 * constants, grid fields, provenance; hex meshes also with their counts,
 * bounding box, volumes, boundary flags and regions. Every check is the library's; runs
 * under mpirun (each rank reads its block, rank 0 prints). */
#include "config.h"

#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "tessera.h"

static int rank0;

#define OUT(...)                   \
  do {                             \
    if (rank0) printf(__VA_ARGS__); \
  } while (0)

/* min/max of n values of type t, component by component (dim columns),
 * reduced over comm into mn[dim], mx[dim]. */
static void minmax(MPI_Comm comm, const void *data, tsr_dtype_t t, tsr_idx_t rows, int dim,
                   double *mn, double *mx) {
  for (int k = 0; k < dim; k++) mn[k] = DBL_MAX, mx[k] = -DBL_MAX;
  for (tsr_idx_t i = 0; i < rows; i++)
    for (int k = 0; k < dim; k++) {
      size_t at = (size_t)(i * dim + k);
      double v = t == TSR_INT32 ? ((const int32_t *)data)[at]
                 : t == TSR_INT64 ? (double)((const int64_t *)data)[at]
                 : t == TSR_FLOAT ? ((const float *)data)[at] : ((const double *)data)[at];
      if (v < mn[k]) mn[k] = v;
      if (v > mx[k]) mx[k] = v;
    }
  MPI_Allreduce(MPI_IN_PLACE, mn, dim, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(MPI_IN_PLACE, mx, dim, MPI_DOUBLE, MPI_MAX, comm);
}

static int provenance(tsr_file_t *f) {
  if (!tsr_file_has_attr(f, "/", "tessera_schema")) {
    OUT("provenance: none (not written by Tessera)\n");
    return TSR_SUCCESS;
  }
  int64_t v;
  TSR_CALL(tsr_file_attr_int(f, "/", "tessera_schema", &v, 1));
  OUT("provenance: tessera_schema %lld\n", (long long)v);
  static const char *const keys[] = {"app",  "variant",      "device", "version", "commit",
                                     "git_describe", "date", "host",   "command_line",
                                     "mpi",  "hdf5",         "cuda",   "compiler"};
  for (int i = 0; i < (int)(sizeof keys / sizeof *keys); i++) {
    char s[1024];
    if (!tsr_file_has_attr(f, "/", keys[i])) continue;
    TSR_CALL(tsr_file_attr_string(f, "/", keys[i], s, sizeof s));
    OUT("  %-13s %s\n", keys[i], s);
  }
  if (tsr_file_has_attr(f, "/", "ranks")) {
    TSR_CALL(tsr_file_attr_int(f, "/", "ranks", &v, 1));
    OUT("  %-13s %lld\n", "ranks", (long long)v);
  }
  return TSR_SUCCESS;
}

/* A map or dat whose sets are not known (OP2 gives none): read its rows
 * block-wise and print ranges; map indices must lie below every set's size. */
static int raw_rows(tsr_file_t *f, const char *name, int is_map, tsr_idx_t limit) {
  MPI_Comm comm = tsr_file_comm(f);
  int size, rank, r;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  tsr_idx_t d[3], first, count;
  tsr_dtype_t t;
  TSR_CALL(tsr_error_agree(comm, tsr_file_dataset_shape(f, name, &r, d, &t)));
  tsr_mesh_block_rows(d[0], size, rank, &first, &count);
  int dim = (int)(d[1] * d[2]);
  tsr_dtype_t want = is_map ? TSR_INT32 : (t == TSR_FLOAT ? TSR_DOUBLE : t);
  void *buf = malloc((size_t)(count * dim + 1) * 8);
  double *mn = malloc((size_t)dim * sizeof *mn), *mx = malloc((size_t)dim * sizeof *mx);
  TSR_CHECK(buf && mn && mx, TSR_ERR_ALLOC, "%s: out of memory", name);
  int rc = tsr_file_read_rows(f, name, first, count, want, buf);
  if (!rc) {
    minmax(comm, buf, want, count, dim, mn, mx);
    if (is_map) {
      OUT("  map %-12s [%lld, %d]  sets unknown  indices %.0f..%.0f\n", name, (long long)d[0], dim,
          mn[0], mx[0]);
      for (int k = 1; k < dim; k++) mn[0] = mn[k] < mn[0] ? mn[k] : mn[0], mx[0] = mx[k] > mx[0] ? mx[k] : mx[0];
      if (mn[0] < 0 || mx[0] >= (double)limit)
        rc = TSR_RAISE(TSR_ERR_RANGE, "%s: dataset '%s' (map): indices %.0f..%.0f, expected "
                       "indices in [0, %lld) (the largest set)", tsr_file_path(f), name, mn[0],
                       mx[0], (long long)limit);
    } else {
      OUT("  dat %-12s [%lld, %d] %-6s set unknown\n", name, (long long)d[0], dim, tsr_dtype_name(t));
      for (int k = 0; k < dim; k++) OUT("      [%d] min %-24.17g max %.17g\n", k, mn[k], mx[k]);
    }
  }
  free(buf);
  free(mn);
  free(mx);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

static int mesh_info(tsr_file_t *f) {
  MPI_Comm comm = tsr_file_comm(f);
  tsr_mesh_toc_t toc;
  TSR_CALL(tsr_mesh_toc(f, &toc));
  /* everything whose sets are known is loaded (and checked) by the library */
  tsr_io_map_t *maps = calloc((size_t)toc.nmaps + 1, sizeof *maps);
  tsr_io_dat_t *dats = calloc((size_t)toc.ndats + 1, sizeof *dats);
  const char **sets = calloc((size_t)toc.nsets + 1, sizeof *sets);
  const char **consts = calloc((size_t)toc.nconsts + 1, sizeof *consts);
  int nm = 0, nd = 0;
  tsr_idx_t largest = 0;
  for (int i = 0; i < toc.nsets; i++) {
    sets[i] = toc.sets[i];
    if (toc.set_size[i] > largest) largest = toc.set_size[i];
  }
  for (int i = 0; i < toc.nmaps; i++)
    if (toc.maps[i].from && toc.maps[i].to) maps[nm++] = toc.maps[i];
  for (int i = 0; i < toc.ndats; i++)
    if (toc.dats[i].set) {
      dats[nd] = toc.dats[i];
      if (dats[nd].type == TSR_FLOAT) dats[nd].type = TSR_DOUBLE;
      nd++;
    }
  for (int i = 0; i < toc.nconsts; i++) consts[i] = toc.consts[i];
  tsr_mesh_spec_t spec = {toc.nsets, sets, nm, maps, nd, dats, toc.nconsts, consts};
  tsr_mesh_t *m = NULL;
  int rc = tsr_mesh_read_file(f, &spec, &m);
  if (!rc) {
    OUT("sets:\n");
    for (int i = 0; i < tsr_mesh_nsets(m); i++) {
      const tsr_set_t *s = tsr_mesh_set(m, i);
      OUT("  %-16s %lld\n", s->name, (long long)s->global_size);
    }
    OUT("maps:\n");
    for (int i = 0; i < tsr_mesh_nmaps(m); i++) {
      const tsr_map_t *mp = tsr_mesh_map(m, i);
      const tsr_set_t *fs = tsr_mesh_set(m, mp->from), *ts = tsr_mesh_set(m, mp->to);
      double mn[64], mx[64];
      int dim = mp->dim < 64 ? mp->dim : 64;
      minmax(comm, mp->data, TSR_INT32, dim == mp->dim ? fs->size : 0, dim, mn, mx);
      double lo = mn[0], hi = mx[0];
      for (int k = 1; k < dim; k++) lo = mn[k] < lo ? mn[k] : lo, hi = mx[k] > hi ? mx[k] : hi;
      OUT("  map %-12s %s -> %s  [%lld, %d]  indices %.0f..%.0f of [0, %lld)\n", mp->name,
          fs->name, ts->name, (long long)fs->global_size, mp->dim, lo, hi,
          (long long)ts->global_size);
    }
    for (int i = 0; !rc && i < toc.nmaps; i++)
      if (!(toc.maps[i].from && toc.maps[i].to)) rc = raw_rows(f, toc.maps[i].name, 1, largest);
  }
  if (!rc) {
    OUT("dats:\n");
    for (int i = 0; i < tsr_mesh_ndats(m); i++) {
      const tsr_dat_t *d = tsr_mesh_dat(m, i);
      const tsr_set_t *s = tsr_mesh_set(m, d->set);
      int dim = d->dim < 64 ? d->dim : 64;
      double mn[64], mx[64];
      minmax(comm, d->data, d->type, dim == d->dim ? s->size : 0, dim, mn, mx);
      OUT("  dat %-12s on %-8s [%lld, %d] %s\n", d->name, s->name, (long long)s->global_size,
          d->dim, tsr_dtype_name(toc.dats[i].type));
      for (int k = 0; k < dim; k++) OUT("      [%d] min %-24.17g max %.17g\n", k, mn[k], mx[k]);
    }
    for (int i = 0; !rc && i < toc.ndats; i++)
      if (!toc.dats[i].set) rc = raw_rows(f, toc.dats[i].name, 0, largest);
  }
  if (!rc) {
    OUT("constants:\n");
    for (int i = 0; i < tsr_mesh_nconsts(m); i++) {
      const tsr_const_t *c = tsr_mesh_const(m, i);
      OUT("  %-16s", c->name);
      for (int k = 0; k < c->dim; k++) OUT(" %.17g", c->data[k]);
      OUT("\n");
    }
  }
  tsr_mesh_destroy(&m);
  free(maps);
  free(dats);
  free(sets);
  free(consts);
  tsr_mesh_toc_free(&toc);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* A hex mesh (kind hex-mesh): read and checked by the library (corners,
 * volumes, faces, flags, regions, symmetry planes), then summarised; the
 * generic listing of its sets, maps and dats follows. */
static int hex_info(tsr_file_t *f) {
  MPI_Comm comm = tsr_file_comm(f);
  tsr_mesh_t *m = NULL;
  tsr_hex_header_t h;
  tsr_hex_stats_t st;
  TSR_CALL(tsr_hex_read_file(f, &m, &h, &st));
  OUT("hex mesh: %lld elements (8 corners each), %lld nodes; origin element %lld, initial "
      "energy %.17g\n", (long long)st.num_elem, (long long)st.num_node, (long long)h.origin,
      h.einit);
  if (h.edge > 0 && h.balance >= 0)
    OUT("  generated: Sedov cube of edge %d, region balance %d\n", h.edge, h.balance);
  else if (h.edge > 0)
    OUT("  generated: Sedov cube of edge %d\n", h.edge);
  OUT("  bounding box [%.17g, %.17g] x [%.17g, %.17g] x [%.17g, %.17g]\n", st.lo[0], st.hi[0],
      st.lo[1], st.hi[1], st.lo[2], st.hi[2]);
  OUT("  element volumes: min %.17g max %.17g sum %.17g (all positive)\n", st.vol_min,
      st.vol_max, st.vol_sum);
  OUT("  symmetry planes: %lld nodes on x = 0, %lld on y = 0, %lld on z = 0\n",
      (long long)st.num_symm[0], (long long)st.num_symm[1], (long long)st.num_symm[2]);
  static const char *const fn[6] = {"xi-", "xi+", "eta-", "eta+", "zeta-", "zeta+"};
  OUT("  boundary faces (SYMM/FREE):");
  for (int k = 0; k < 6; k++)
    OUT(" %s %lld/%lld", fn[k], (long long)st.flags[k][0], (long long)st.flags[k][1]);
  OUT("\n");
  /* elements per region over every rank's rows */
  const tsr_dat_t *r = tsr_mesh_dat(m, tsr_mesh_find_dat(m, TSR_HEX_REGION));
  const tsr_set_t *es = tsr_mesh_set(m, r->set);
  int64_t *cnt = calloc((size_t)h.regions, sizeof *cnt);
  int rc = cnt ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory", tsr_file_path(f));
  rc = tsr_error_agree(comm, rc);
  if (!rc) {
    for (tsr_idx_t i = 0; i < es->size; i++) cnt[((const int32_t *)r->data)[i]]++;
    MPI_Allreduce(MPI_IN_PLACE, cnt, h.regions, MPI_INT64_T, MPI_SUM, comm);
    OUT("  regions: %d, elements per region:", h.regions);
    for (int k = 0; k < h.regions; k++) OUT(" %lld", (long long)cnt[k]);
    OUT("\n");
  }
  free(cnt);
  tsr_mesh_destroy(&m);
  TSR_CALL(rc);
  TSR_CALL(mesh_info(f));
  return TSR_SUCCESS;
}

/* One field [nz][plane]: this rank's planes; min/max over all. */
static int field_info(tsr_file_t *f, const char *name, tsr_idx_t nz, tsr_idx_t plane,
                      const tsr_grid_t *g, const tsr_xygrid_t *xy) {
  MPI_Comm comm = tsr_file_comm(f);
  int size, rank;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  tsr_idx_t z0, nzl;
  tsr_mesh_block_rows(nz, size, rank, &z0, &nzl);
  double *buf = malloc((size_t)(nzl * plane + 1) * sizeof *buf), mn, mx;
  TSR_CHECK(buf, TSR_ERR_ALLOC, "%s: out of memory", name);
  int rc = g ? tsr_grid_read_field(f, g, name, TSR_DOUBLE, z0, nzl, buf)
             : tsr_xygrid_read_field(f, xy, name, TSR_DOUBLE, z0, nzl, buf);
  if (!rc) {
    minmax(comm, buf, TSR_DOUBLE, nzl * plane, 1, &mn, &mx);
    OUT("  field %-12s min %-24.17g max %.17g\n", name, mn, mx);
  }
  free(buf);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* A sparse grid (docs/FORMAT.md, "Sparse grids"): D, n and N(D,n); each
 * dataset's shape checked against them and its min/max per column. */
static int sparse_info(tsr_file_t *f) {
  const char *path = tsr_file_path(f);
  int64_t D = 0, n = 0, np = 0;
  TSR_CALL(tsr_file_attr_int(f, "/", "dim", &D, 1));
  TSR_CALL(tsr_file_attr_int(f, "/", "level", &n, 1));
  TSR_CHECK(D >= 1 && D <= 32 && n >= 1 && n <= 30, TSR_ERR_FORMAT,
            "%s: root attributes 'dim' %lld and 'level' %lld: expected 1..32 and 1..30", path,
            (long long)D, (long long)n);
  double N = 0; /* N(D,n) = sum_{g<n} 2^g C(g+D-1, D-1) */
  for (int64_t g = 0; g < n; g++) {
    double c = 1;
    for (int64_t k = 1; k <= D - 1; k++) c = c * (double)(g + k) / (double)k;
    N += (double)((int64_t)1 << g) * c;
  }
  TSR_CHECK(N < 9e15, TSR_ERR_FORMAT, "%s: dim %lld level %lld: %.3g points, too many", path,
            (long long)D, (long long)n, N);
  if (tsr_file_has_attr(f, "/", "npoints")) {
    TSR_CALL(tsr_file_attr_int(f, "/", "npoints", &np, 1));
    TSR_CHECK((double)np == N, TSR_ERR_FORMAT, "%s: root attribute 'npoints' %lld, expected "
              "N(%lld,%lld) = %.0f", path, (long long)np, (long long)D, (long long)n, N);
  }
  char fn[512] = "-";
  if (tsr_file_has_attr(f, "/", "function"))
    TSR_CALL(tsr_file_attr_string(f, "/", "function", fn, sizeof fn));
  OUT("sparse-grid: dim %lld level %lld, %.0f points, function %s\n", (long long)D, (long long)n,
      N, fn);
  /* name, rows (0: M, the evaluation points), columns (0: D) */
  static const struct { const char *name; int grid, coords; } ds[] = {
      {"values", 1, 0}, {"coefficients", 1, 0}, {"coordinates", 1, 1},
      {"points", 0, 1}, {"point_values", 0, 0}, {"results", 0, 0}};
  int64_t M = -1;
  for (int i = 0; i < 6; i++) {
    int r;
    tsr_idx_t d[3];
    tsr_dtype_t t;
    if (tsr_file_dataset_shape(f, ds[i].name, &r, d, &t) != 0) { /* absent: optional */
      tsr_error_clear();
      continue;
    }
    const int64_t cols = r >= 2 ? d[1] * d[2] : 1, want = ds[i].coords ? D : 1;
    TSR_CHECK(t == TSR_DOUBLE || t == TSR_FLOAT, TSR_ERR_FORMAT, "%s: dataset '%s': expected "
              "double or float, found %s", path, ds[i].name, tsr_dtype_name(t));
    TSR_CHECK(cols == want && (r <= 2 || d[2] == 1), TSR_ERR_FORMAT, "%s: dataset '%s': %lld "
              "columns, expected %lld", path, ds[i].name, (long long)cols, (long long)want);
    if (ds[i].grid)
      TSR_CHECK((double)d[0] == N, TSR_ERR_FORMAT, "%s: dataset '%s': %lld rows, expected "
                "N(%lld,%lld) = %.0f", path, ds[i].name, (long long)d[0], (long long)D,
                (long long)n, N);
    else if (M < 0)
      M = d[0];
    else
      TSR_CHECK(d[0] == M, TSR_ERR_FORMAT, "%s: dataset '%s': %lld rows, expected %lld (as "
                "'points')", path, ds[i].name, (long long)d[0], (long long)M);
    MPI_Comm comm = tsr_file_comm(f);
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    tsr_idx_t first, count;
    tsr_mesh_block_rows(d[0], size, rank, &first, &count);
    double *buf = malloc((size_t)(count * cols + 1) * sizeof *buf);
    double *mn = malloc((size_t)cols * sizeof *mn), *mx = malloc((size_t)cols * sizeof *mx);
    int rc = buf && mn && mx ? tsr_file_read_rows(f, ds[i].name, first, count, TSR_DOUBLE, buf)
                             : TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory", ds[i].name);
    if (!rc) {
      minmax(comm, buf, TSR_DOUBLE, count, (int)cols, mn, mx);
      if (cols > 1) OUT("  %-13s [%lld, %lld] %s\n", ds[i].name, (long long)d[0], (long long)cols,
                        tsr_dtype_name(t));
      else OUT("  %-13s [%lld] %s\n", ds[i].name, (long long)d[0], tsr_dtype_name(t));
      for (int k = 0; k < cols; k++)
        if (cols > 1) OUT("      [%d] min %-24.17g max %.17g\n", k, mn[k], mx[k]);
        else OUT("      min %-24.17g max %.17g\n", mn[k], mx[k]);
    }
    free(buf);
    free(mn);
    free(mx);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}

static int info(MPI_Comm comm, const char *path) {
  tsr_file_t *f = NULL;
  char kind[64];
  TSR_CALL(tsr_file_open(comm, path, &f));
  int rc = tsr_file_kind(f, kind, sizeof kind);
  if (!rc) OUT("%s: kind %s\n", path, kind);
  char (*names)[TSR_NAME_MAX] = calloc(256, TSR_NAME_MAX);
  int nf = 0;
  if (rc) {
  } else if (strcmp(kind, "regular-grid") == 0) {
    tsr_grid_t g;
    rc = tsr_grid_read_header(f, &g);
    if (!rc) {
      OUT("grid: nx %lld ny %lld nz %lld (including halo %d %d %d)\n", (long long)g.nx,
          (long long)g.ny, (long long)g.nz, g.halo[0], g.halo[1], g.halo[2]);
      rc = tsr_grid_fields(f, names, 256, &nf);
    }
    for (int i = 0; !rc && i < nf; i++) rc = field_info(f, names[i], g.nz, g.nx * g.ny, &g, NULL);
  } else if (strcmp(kind, "xy-grid") == 0) {
    tsr_xygrid_t g;
    rc = tsr_xygrid_read_header(f, &g);
    int64_t *order = NULL;
    int32_t *neigh = NULL;
    if (!rc) {
      OUT("xy-grid: nx %lld ny %lld nz %lld, neighbour depth %d (%d relations)\n",
          (long long)g.nx, (long long)g.ny, (long long)g.nz, g.depth, g.m);
      order = malloc((size_t)(g.nx * g.ny) * sizeof *order);
      neigh = malloc((size_t)(g.nx * g.ny) * (size_t)g.m * sizeof *neigh);
      rc = order && neigh ? tsr_xygrid_read_tables(f, &g, order, neigh)
                          : TSR_RAISE(TSR_ERR_ALLOC, "%s: out of memory", path);
      if (!rc) {
        long long none = 0;
        for (tsr_idx_t i = 0; i < g.nx * g.ny * g.m; i++) none += neigh[i] == 0;
        OUT("  order: a permutation of %lld cells; neighbour tables: %lld of %lld entries empty\n",
            (long long)(g.nx * g.ny), none, (long long)(g.nx * g.ny * g.m));
        rc = tsr_grid_fields(f, names, 256, &nf);
      }
    }
    for (int i = 0; !rc && i < nf; i++) rc = field_info(f, names[i], g.nz, g.nx * g.ny, NULL, &g);
    free(order);
    free(neigh);
  } else if (strcmp(kind, "op2-mesh") == 0) {
    rc = mesh_info(f);
  } else if (strcmp(kind, "hex-mesh") == 0) {
    rc = hex_info(f);
  } else if (strcmp(kind, "sparse-grid") == 0) {
    rc = sparse_info(f);
  } else {
    rc = TSR_RAISE(TSR_ERR_FORMAT, "%s: root attribute 'kind': unknown kind \"%s\" (expected "
                   "regular-grid, xy-grid, op2-mesh, hex-mesh or sparse-grid)", path, kind);
  }
  rc = tsr_error_agree(comm, rc);
  if (!rc) rc = provenance(f);
  free(names);
  tsr_file_close(&f);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  rank0 = rank == 0;
  tsr_cli_t cli;
  tsr_cli_init(&cli, "tsr-info",
               "Summarise a Tessera or OP2 HDF5 file: kind, sets, maps (index ranges), dats\n"
               "(min/max per component), constants, grid fields and provenance.\n"
               "Every dataset is checked (shape, type, index range); the first problem is\n"
               "reported on one line and the exit status is 1.");
  cli.options = 0; /* no common options: --help and --version only */
  cli.args = "FILE.h5";
  const char *pos[1];
  int npos = 0;
  TSR_CALL_ABORT(MPI_COMM_WORLD,
                 tsr_cli_parse(&cli, argc, argv, NULL, 0, MPI_COMM_WORLD, pos, 1, &npos));
  if (cli.exit_now) {
    MPI_Finalize();
    return 0;
  }
  /* npos is the same on every rank: the error is collective */
  if (npos != 1) {
    int rc = TSR_RAISE(TSR_ERR_ARG, "no file given: tsr-info FILE.h5 (see tsr-info --help)");
    TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, rc));
  }
  TSR_CALL_ABORT(MPI_COMM_WORLD, info(MPI_COMM_WORLD, pos[0]));
  MPI_Finalize();
  return 0;
}
