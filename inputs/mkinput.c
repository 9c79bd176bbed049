/* tsr-mkinput: writes inputs for Tessera's grid apps in docs/FORMAT.md's schema.
 *
 *   tsr-mkinput grid   -o FILE.h5 [--size NXxNYxNZ] [--halo HX,HY,HZ] [--fields a,b,..]
 *                      [--init random|analytic] [--seed S] [--precision double|float]
 *   tsr-mkinput xygrid -o FILE.h5 ... [--order rowmajor|zcurve|random] [--zcurve-width W]
 *                      [--depth 1|2]
 *
 * Values are a function of (seed, field, global cell (x, y, z)) alone, so the
 * file does not depend on the number of ranks that wrote it, and a regular
 * grid and an X-Y-unstructured grid made with the same seed hold the same
 * values (the latter in its storage order). Each rank writes its own block of
 * z-planes.
 */
#include "config.h"
#include "tessera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MK_MAXFIELDS 16

typedef struct {
  int64_t size[3];
  int halo[3];
  char fields[MK_MAXFIELDS][TSR_NAME_MAX];
  int nfields;
  int analytic;
  long long seed;
  tsr_dtype_t type;
  int xy;         /* xygrid */
  int order_kind; /* 0 rowmajor, 1 zcurve, 2 random */
  int zw;
  int depth;
} mk_opts_t;

/* splitmix64 of (seed, field, index): a counter-based generator. */
static inline uint64_t mk_hash(uint64_t seed, uint64_t field, uint64_t i) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + field * 0xD1B54A32D192ED03ULL + i + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* The value of field f at global cell (x, y, z) of an nx x ny x nz domain. */
static double mk_value(const mk_opts_t *o, int f, int64_t x, int64_t y, int64_t z) {
  const int64_t nx = o->size[0], ny = o->size[1], nz = o->size[2];
  if (!o->analytic) {
    uint64_t h = mk_hash((uint64_t)o->seed, (uint64_t)f, (uint64_t)(x + nx * (y + ny * z)));
    return (double)(h >> 11) * (1.0 / 9007199254740992.0) + 0.5; /* [0.5, 1.5) */
  }
  /* smooth, non-trivial: a product of sines with a field-dependent phase */
  const double pi = 3.14159265358979323846;
  double px = (double)x / (double)(nx > 1 ? nx - 1 : 1), py = (double)y / (double)(ny > 1 ? ny - 1 : 1);
  double pz = (double)z / (double)(nz > 1 ? nz - 1 : 1);
  return 1.0 + 0.5 * sin(2 * pi * px + 0.3 * f) * cos(2 * pi * py + 0.7 * f) + 0.25 * pz;
}

static int mk_parse_halo(const char *s, int h[3]) {
  int v[3] = {0, 0, 0}, n = 0;
  const char *p = s;
  while (n < 3) {
    char *end;
    long x = strtol(p, &end, 10);
    TSR_CHECK(end != p && x >= 0 && x < 1024, TSR_ERR_ARG,
              "option --halo: '%s' is not HX,HY,HZ (non-negative integers)", s);
    v[n++] = (int)x;
    if (*end == '\0') break;
    TSR_CHECK(*end == ',' || *end == 'x', TSR_ERR_ARG, "option --halo: '%s' is not HX,HY,HZ", s);
    p = end + 1;
  }
  if (n == 1) v[1] = v[0];
  memcpy(h, v, sizeof v);
  return TSR_SUCCESS;
}

static int mk_parse_fields(const char *s, mk_opts_t *o) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", s);
  o->nfields = 0;
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    TSR_CHECK(o->nfields < MK_MAXFIELDS, TSR_ERR_ARG, "option --fields: at most %d fields",
              MK_MAXFIELDS);
    TSR_CHECK(*t && strlen(t) < TSR_NAME_MAX && !strchr(t, '/'), TSR_ERR_ARG,
              "option --fields: bad field name '%s'", t);
    snprintf(o->fields[o->nfields++], TSR_NAME_MAX, "%s", t);
  }
  TSR_CHECK(o->nfields > 0, TSR_ERR_ARG, "option --fields: no field names in '%s'", s);
  return TSR_SUCCESS;
}

/* Fill planes [z0, z0+nzl) of field f; pos(x, y) gives the in-plane index. */
static void mk_fill(const mk_opts_t *o, int f, int64_t z0, int64_t nzl, const int64_t *order,
                    void *buf) {
  const int64_t nx = o->size[0], ny = o->size[1], plane = nx * ny;
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t z = 0; z < nzl; z++)
    for (int64_t y = 0; y < ny; y++)
      for (int64_t x = 0; x < nx; x++) {
        int64_t p = order ? order[x + nx * y] : x + nx * y;
        double v = mk_value(o, f, x, y, z0 + z);
        if (o->type == TSR_FLOAT)
          ((float *)buf)[z * plane + p] = (float)v;
        else
          ((double *)buf)[z * plane + p] = v;
      }
}

static int mk_run(MPI_Comm comm, const tsr_cli_t *cli, const mk_opts_t *o) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int64_t nx = o->size[0], ny = o->size[1], nz = o->size[2], plane = nx * ny;
  for (int d = 0; d < 3; d++)
    TSR_CHECK(2 * (int64_t)o->halo[d] < o->size[d] || (o->halo[d] == 0), TSR_ERR_ARG,
              "--halo %d in %c leaves no inner cells in a domain of %lld", o->halo[d], "xyz"[d],
              (long long)o->size[d]);
  tsr_idx_t z0, nzl;
  tsr_mesh_block_rows(nz, size, rank, &z0, &nzl);

  int64_t *order = NULL;
  int32_t *neigh = NULL;
  int rc = TSR_SUCCESS;
  tsr_neigh_t *nb = NULL;
  if (o->xy) {
    order = malloc((size_t)plane * sizeof *order);
    TSR_CHECK(order, TSR_ERR_ALLOC, "cannot allocate the plane order (%lld cells)",
              (long long)plane);
    if (o->order_kind == 0) rc = tsr_neigh_order_rowmajor(nx, ny, order);
    else if (o->order_kind == 1) rc = tsr_zorder_plane_order(nx, ny, o->zw, order);
    else rc = tsr_neigh_order_random(nx, ny, (uint64_t)o->seed, order);
    if (!rc) rc = tsr_neigh_create(nx, ny, nz, order, o->depth, TSR_NEIGH_ZREGULAR, &nb);
    if (rc) {
      free(order);
      return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
    }
    tsr_neigh_view_t v;
    rc = tsr_neigh_view(nb, TSR_NEIGH_HOST, &v);
    neigh = (int32_t *)v.tab;
  }
  rc = tsr_error_agree(comm, rc);

  void *buf = NULL;
  if (!rc) {
    buf = malloc((size_t)(nzl > 0 ? nzl : 1) * (size_t)plane * tsr_dtype_size(o->type));
    rc = buf ? TSR_SUCCESS
             : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %lld planes of %lld cells",
                         (long long)nzl, (long long)plane);
  }
  rc = tsr_error_agree(comm, rc);
  tsr_file_t *f = NULL;
  if (!rc) rc = tsr_file_create(comm, cli->output, &f);
  if (!rc) {
    tsr_provenance_t prov = {"tsr-mkinput", o->xy ? "xygrid" : "grid", NULL, cli->command_line, 0};
    rc = tsr_file_write_provenance(f, &prov);
  }
  tsr_grid_t g = {nx, ny, nz, {o->halo[0], o->halo[1], o->halo[2]}};
  tsr_xygrid_t xg = {nx, ny, nz, o->depth, 2 * o->depth * (o->depth + 1)};
  if (!rc) rc = o->xy ? tsr_xygrid_write(f, &xg, order, neigh) : tsr_grid_write_header(f, &g);
  if (!rc && o->xy) rc = tsr_xygrid_write_xdmf_tables(f, &xg, order);
  for (int k = 0; k < o->nfields && !rc; k++) {
    mk_fill(o, k, z0, nzl, order, buf);
    rc = o->xy ? tsr_xygrid_write_field(f, &xg, o->fields[k], o->type, z0, nzl, buf)
               : tsr_grid_write_field(f, &g, o->fields[k], o->type, z0, nzl, buf);
  }
  if (f) {
    if (rc) tsr_file_discard(&f);
    else rc = tsr_file_close(&f);
  }
  if (!rc) {
    tsr_dtype_t types[MK_MAXFIELDS];
    for (int k = 0; k < o->nfields; k++) types[k] = o->type;
    const char(*names)[TSR_NAME_MAX] = (const char(*)[TSR_NAME_MAX])o->fields;
    rc = o->xy ? tsr_xdmf_write_xygrid(comm, cli->output, &xg, names, types, o->nfields)
               : tsr_xdmf_write_grid(comm, cli->output, &g, names, types, o->nfields, 0);
  }
  free(buf);
  free(order);
  tsr_neigh_destroy(&nb);
  TSR_CALL(rc);
  if (rank == 0 && !cli->quiet) {
    char init[64];
    if (o->analytic) snprintf(init, sizeof init, "analytic");
    else snprintf(init, sizeof init, "random, seed %lld", o->seed);
    printf("tsr-mkinput: wrote %s: %s %lldx%lldx%lld, %d field%s (%s, %s)\n", cli->output,
           o->xy ? "xy-grid" : "regular grid", (long long)nx, (long long)ny, (long long)nz,
           o->nfields, o->nfields == 1 ? "" : "s", tsr_dtype_name(o->type), init);
  }
  return TSR_SUCCESS;
}

/* The options given as text, before mk_check_options reads them. */
typedef struct {
  const char *halo, *fields, *init, *prec, *order;
} mk_text_t;

/* The options (lib's cli) with their defaults; pos: the positional argument. */
static int mk_options(MPI_Comm comm, tsr_cli_t *cli, mk_opts_t *op, mk_text_t *t, int argc,
                      char **argv, const char **pos, int *npos) {
  tsr_cli_init(cli, "tsr-mkinput",
               "Write a regular grid (grid) or an X-Y-unstructured grid with neighbour tables "
               "(xygrid) to HDF5.");
  cli->args = "grid|xygrid";
  cli->options = TSR_CLI_OUTPUT | TSR_CLI_QUIET;
  memset(op, 0, sizeof *op);
  op->size[0] = 64;
  op->size[1] = 64;
  op->size[2] = 8;
  op->seed = 1;
  op->depth = 1;
  op->zw = 0;
  *t = (mk_text_t){"2,2,0", "in", "random", "double", "rowmajor"};
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_SIZE3, op->size, "NXxNYxNZ", "domain including halo (default 64x64x8)"},
      {"halo", 0, TSR_OPT_STRING, &t->halo, "HX,HY,HZ", "halo widths (default 2,2,0)"},
      {"fields", 0, TSR_OPT_STRING, &t->fields, "A,B,..", "field names (default in)"},
      {"init", 0, TSR_OPT_STRING, &t->init, "KIND", "random (default) or analytic"},
      {"seed", 0, TSR_OPT_LONG, &op->seed, "S", "random seed (default 1)"},
      {"precision", 0, TSR_OPT_STRING, &t->prec, "P", "double (default) or float"},
      {"order", 0, TSR_OPT_STRING, &t->order, "ORDER",
       "xygrid storage order: rowmajor (default), zcurve or random"},
      {"zcurve-width", 0, TSR_OPT_INT, &op->zw, "W", "xygrid: low bits of x not interleaved (0)"},
      {"depth", 0, TSR_OPT_INT, &op->depth, "L", "xygrid: neighbour depth 1 or 2 (default 1)"},
  };
  return tsr_cli_parse(cli, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), comm, pos, 1,
                       npos);
}

/* The kind (grid or xygrid), -o, and the text options read into o. */
static int mk_check_options(const tsr_cli_t *cli, mk_opts_t *op, const mk_text_t *t,
                            const char **pos, int npos) {
  mk_opts_t o = *op;
  const char *halo = t->halo, *fields = t->fields, *init = t->init, *prec = t->prec,
             *order = t->order;
  int rc = 0;
  if (!rc && npos != 1)
    rc = TSR_RAISE(TSR_ERR_ARG, "expected 'grid' or 'xygrid' as the first argument (see --help)");
  if (!rc && strcmp(pos[0], "grid") != 0 && strcmp(pos[0], "xygrid") != 0)
    rc = TSR_RAISE(TSR_ERR_ARG, "unknown kind '%s': expected grid or xygrid", pos[0]);
  if (!rc) o.xy = strcmp(pos[0], "xygrid") == 0;
  if (!rc && !cli->output) rc = TSR_RAISE(TSR_ERR_ARG, "no output file: give -o FILE.h5");
  if (!rc) rc = mk_parse_halo(halo, o.halo);
  if (!rc) rc = mk_parse_fields(fields, &o);
  if (!rc) {
    if (strcmp(init, "random") == 0) o.analytic = 0;
    else if (strcmp(init, "analytic") == 0) o.analytic = 1;
    else rc = TSR_RAISE(TSR_ERR_ARG, "option --init: expected random or analytic, got '%s'", init);
  }
  if (!rc) {
    if (strcmp(prec, "double") == 0) o.type = TSR_DOUBLE;
    else if (strcmp(prec, "float") == 0) o.type = TSR_FLOAT;
    else rc = TSR_RAISE(TSR_ERR_ARG, "option --precision: expected double or float, got '%s'", prec);
  }
  if (!rc) {
    if (strcmp(order, "rowmajor") == 0) o.order_kind = 0;
    else if (strcmp(order, "zcurve") == 0) o.order_kind = 1;
    else if (strcmp(order, "random") == 0) o.order_kind = 2;
    else rc = TSR_RAISE(TSR_ERR_ARG, "option --order: expected rowmajor, zcurve or random, got '%s'", order);
  }
  if (!rc && (o.depth < 1 || o.depth > 2))
    rc = TSR_RAISE(TSR_ERR_ARG, "option --depth: expected 1 or 2, got %d", o.depth);
  if (!rc && (o.zw < 0 || o.zw > TSR_ZORDER_MAX_W))
    rc = TSR_RAISE(TSR_ERR_ARG, "option --zcurve-width: expected 0..%d, got %d", TSR_ZORDER_MAX_W, o.zw);
  *op = o;
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  tsr_cli_t cli;
  mk_opts_t o;
  mk_text_t text;
  const char *pos[1];
  int npos = 0;
  int rc = mk_options(comm, &cli, &o, &text, argc, argv, pos, &npos); /* options */
  if (!rc && cli.exit_now) {
    MPI_Finalize();
    return 0;
  }
  if (!rc) rc = mk_check_options(&cli, &o, &text, pos, npos);
  /* every rank parsed the same argv: the error is collective */
  rc = tsr_error_agree(comm, rc);
  if (!rc) rc = mk_run(comm, &cli, &o); /* the grid, its fields, the file */
  if (rc) {
    rc = tsr_error_agree(comm, rc);
    tsr_abort(comm, rc);
  }
  MPI_Finalize();
  return 0;
}
