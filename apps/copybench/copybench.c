/* tsr-copybench: a copy written through the layout offset functions
 * (row-major with halo and alignment padding; stretched Z-curve), timed
 * against cudaMemcpy of the same array, to show what the offsets cost.
 *
 * For each selected variant and thread-block shape: fill src with random
 * values, poison dst, run --warmup untimed and --runs timed copies, check
 * that every inner cell was copied and no halo or padding element was
 * written, and report median/min time, GB/s (16 bytes per inner cell and
 * field: one read, one write) and % of the bandwidth floor. Several ranks
 * each copy their own array on their own device (one rank per GPU); the
 * time of a run is the slowest rank's.
 */
#include "config.h"
#include "tessera.h"
#include "kernels/copy/copy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CB_MAXSHAPES 16

static const tsr_variant_t cb_variants[] = {
#define COPY_VARIANT(id, name, dev, kind, help) {name, dev, help, COPY_##id},
#include "kernels/copy/variants.def"
#undef COPY_VARIANT
};
enum { CB_NVAR = (int)(sizeof cb_variants / sizeof cb_variants[0]) };

static int cb_layout_kind(int id) {
  switch (id) {
#define COPY_VARIANT(vid, name, dev, kind, help) \
  case COPY_##vid: return kind;
#include "kernels/copy/variants.def"
#undef COPY_VARIANT
  }
  return TSR_LAYOUT_ROWMAJOR;
}

typedef struct {
  int64_t size[3];
  int64_t halo[3];
  int64_t align;
  int zw, nf;
  int shapes[CB_MAXSHAPES][3];
  int nshapes;
} cb_opts_t;

static int cb_parse_shapes(const char *s, cb_opts_t *o) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s", s);
  o->nshapes = 0;
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    int64_t v[3];
    TSR_CHECK(o->nshapes < CB_MAXSHAPES, TSR_ERR_ARG, "option --threads: at most %d shapes",
              CB_MAXSHAPES);
    if (tsr_parse_size3(t, v) != 0) {
      tsr_error_clear();
      return TSR_RAISE(TSR_ERR_ARG, "option --threads: '%s' is not BXxBYxBZ", t);
    }
    TSR_CHECK(v[0] * v[1] * v[2] <= 1024, TSR_ERR_ARG,
              "option --threads: %s has %lld threads, more than CUDA's 1024 per block", t,
              (long long)(v[0] * v[1] * v[2]));
    for (int d = 0; d < 3; d++) o->shapes[o->nshapes][d] = (int)v[d];
    o->nshapes++;
  }
  TSR_CHECK(o->nshapes > 0, TSR_ERR_ARG, "option --threads: no shapes in '%s'", s);
  return TSR_SUCCESS;
}

static int cb_parse_halo(const char *s, int64_t h[3]) {
  long v[3] = {0, 0, 0};
  int n = sscanf(s, "%ld,%ld,%ld", &v[0], &v[1], &v[2]);
  TSR_CHECK(n >= 1 && v[0] >= 0 && v[1] >= 0 && v[2] >= 0, TSR_ERR_ARG,
            "option --halo: '%s' is not HX,HY,HZ (non-negative)", s);
  if (n == 1) v[1] = v[0];
  for (int d = 0; d < 3; d++) h[d] = v[d];
  return TSR_SUCCESS;
}

/* The layout of a variant: domain size (with halo) -> inner extents. */
static int cb_layout(const cb_opts_t *o, int kind, tsr_layout_t *L) {
  int64_t n[3];
  for (int d = 0; d < 3; d++) {
    n[d] = o->size[d] - 2 * o->halo[d];
    TSR_CHECK(n[d] >= 1, TSR_ERR_ARG,
              "--size %lldx%lldx%lld with --halo %lld,%lld,%lld leaves no inner cells in %c",
              (long long)o->size[0], (long long)o->size[1], (long long)o->size[2],
              (long long)o->halo[0], (long long)o->halo[1], (long long)o->halo[2], "xyz"[d]);
  }
  tsr_layout_t l = kind == TSR_LAYOUT_ZCURVE ? tsr_layout_zcurve(n[0], n[1], n[2], o->zw)
                                             : tsr_layout_rowmajor(n[0], n[1], n[2]);
  l = tsr_layout_with_halo(l, o->halo[0], o->halo[1], o->halo[2]);
  if (kind == TSR_LAYOUT_ROWMAJOR) l = tsr_layout_with_align(l, o->align);
  l = tsr_layout_with_fields(l, o->nf, TSR_SOA);
  TSR_CALL(tsr_layout_check(&l));
  *L = l;
  return TSR_SUCCESS;
}

/* Verify dst against src: inner cells equal, everything else still poison. */
static long cb_verify(const tsr_layout_t *L, const double *src, const double *dst, int whole) {
  int64_t size = tsr_layout_size(L);
  char *inner = calloc((size_t)size, 1);
  if (!inner) return -1;
  for (int f = 0; f < L->nf; f++)
    for (int64_t z = L->halo[2]; z < L->halo[2] + L->n[2]; z++)
      for (int64_t y = L->halo[1]; y < L->halo[1] + L->n[1]; y++)
        for (int64_t x = L->halo[0]; x < L->halo[0] + L->n[0]; x++)
          inner[tsr_layout_offset(L, x, y, z, f)] = 1;
  long bad = 0;
  for (int64_t i = 0; i < size; i++) {
    uint64_t a, b;
    memcpy(&a, &src[i], 8);
    memcpy(&b, &dst[i], 8);
    if (inner[i] || whole) bad += a != b;
    else bad += b != 0x7FF4DEADBEEF0001ULL; /* poison kept */
  }
  free(inner);
  return bad;
}

typedef struct {
  int id;
  tsr_layout_t L;
  const int64_t *cells;
  const double *src;
  double *dst;
  const int *shape;
} cb_copy_t;

static int cb_copy(void *p, tsr_run_sample_t *s) {
  const cb_copy_t *c = p;
  (void)s;
  return copy_run(c->id, c->L, c->cells, c->src, c->dst, c->shape[0], c->shape[1], c->shape[2]);
}

static int cb_run_variant(MPI_Comm comm, const tsr_cli_t *cli, const cb_opts_t *o, int vi,
                          int required, const int shape[3], tsr_report_t *rep) {
  const tsr_variant_t *v = &cb_variants[vi];
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  tsr_result_t row;
  tsr_result_init(&row, "copy", v, NULL, required);
  if (v->device == TSR_DEV_CUDA && v->id != COPY_CUDA_MEMCPY)
    snprintf(row.config, sizeof row.config, "threads=%dx%dx%d", shape[0], shape[1], shape[2]);
  snprintf(row.precision, sizeof row.precision, "double");
  memcpy(row.size, o->size, sizeof row.size);
  const char *why = tsr_variant_unavailable(v);
  if (why) {
    tsr_result_notrun(&row, "%s", why);
    return tsr_report_add(rep, &row);
  }
  tsr_device_t dev;
  TSR_CALL(tsr_error_agree(comm, tsr_device_select(comm, v->device, &dev)));
  snprintf(row.device, sizeof row.device, "%s", dev.name);

  tsr_layout_t L;
  TSR_CALL(cb_layout(o, cb_layout_kind(v->id), &L));
  int64_t n = tsr_layout_size(&L);
  size_t bytes = (size_t)n * sizeof(double);
  /* up front: source and destination on the host, and on the device for CUDA */
  TSR_CALL(tsr_memory_check(comm, v->name, 2.0 * (double)bytes,
                            dev.kind == TSR_DEV_CUDA ? 2.0 * (double)bytes : 0));
  double *hsrc = tsr_malloc(bytes), *hdst = tsr_malloc(bytes);
  double *dsrc = NULL, *ddst = NULL;
  int64_t *tab = NULL, *cells = NULL;
  int rc = (hsrc && hdst) ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate 2 x %zu bytes", bytes);
  unsigned long long seed = 12345 + (unsigned long long)rank;
  for (int64_t i = 0; !rc && i < n; i++) {
    seed += 0x9E3779B97F4A7C15ULL;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    hsrc[i] = 1.0 + (double)((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
    uint64_t poison = 0x7FF4DEADBEEF0001ULL;
    memcpy(&hdst[i], &poison, 8);
  }
  if (!rc && L.kind == TSR_LAYOUT_ZCURVE) {
    rc = tsr_layout_table_create(&dev, &L, &tab);
    if (!rc) L = tsr_layout_with_table(L, tab);
  }
  if (!rc && v->id == COPY_CUDA_ZCURVE_STORAGE) { /* inverse plane table on the device */
    int64_t np = L.d[0] * L.d[1];
    int64_t *h = malloc((size_t)np * sizeof *h);
    rc = h ? tsr_zorder_plane_inverse(L.d[0], L.d[1], L.zbits, h)
           : TSR_RAISE(TSR_ERR_ALLOC, "out of memory");
    if (!rc) rc = tsr_device_malloc(&dev, (size_t)np * sizeof *h, (void **)&cells);
    if (!rc) rc = tsr_device_upload(&dev, cells, h, (size_t)np * sizeof *h);
    free(h);
  }
  if (!rc) rc = tsr_device_malloc(&dev, bytes, (void **)&dsrc);
  if (!rc) rc = tsr_device_malloc(&dev, bytes, (void **)&ddst);
  if (!rc) rc = tsr_device_upload(&dev, dsrc, hsrc, bytes);
  if (!rc) rc = tsr_device_upload(&dev, ddst, hdst, bytes);
  if (!rc) rc = tsr_bandwidth_ceiling(&dev, &row.ceiling);
  rc = tsr_error_agree(comm, rc);

  /* one run to verify, then warm-up and timed runs */
  if (!rc) rc = copy_run(v->id, L, cells, dsrc, ddst, shape[0], shape[1], shape[2]);
  if (!rc) rc = tsr_device_sync(&dev);
  if (!rc) rc = tsr_device_download(&dev, hdst, ddst, bytes);
  long bad = 0;
  if (!rc && cli->verify) {
    /* the generic offset runs on the host: give it a host copy of the table */
    tsr_layout_t Lh = L;
    int64_t *htab = NULL;
    if (L.kind == TSR_LAYOUT_ZCURVE) {
      tsr_device_t host;
      rc = tsr_device_select(comm, TSR_DEV_CPU, &host);
      if (!rc) rc = tsr_layout_table_create(&host, &L, &htab);
      if (!rc) Lh = tsr_layout_with_table(L, htab);
      if (!rc) bad = cb_verify(&Lh, hsrc, hdst, 0);
      if (htab) tsr_layout_table_destroy(&host, &htab);
    } else {
      bad = cb_verify(&Lh, hsrc, hdst, v->id == COPY_CUDA_MEMCPY);
    }
    if (!rc && bad < 0) rc = TSR_RAISE(TSR_ERR_ALLOC, "out of memory verifying");
  }
  rc = tsr_error_agree(comm, rc);
  cb_copy_t job = {v->id, L, cells, dsrc, ddst, shape};
  char label[160];
  snprintf(label, sizeof label, "%s%s%s", v->name, row.config[0] ? " " : "", row.config);
  tsr_run_t sp = {.prog = "tsr-copybench", .label = label, .comm = comm, .dev = &dev,
                  .timing = TSR_TIME_DEVICE, .warmup = cli->warmup, .runs = cli->runs,
                  .barrier = 1, .quiet = cli->quiet, .run = cb_copy, .ctx = &job};
  tsr_run_result_t res;
  if (!rc) rc = tsr_run(&sp, &res);
  if (!rc) {
    long allbad = 0;
    MPI_Allreduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, comm);
    row.time = res.time;
    row.bytes = copy_bytes_moved(v->id, &L) * size;
    row.footprint = 2.0 * (double)bytes * size;
    row.ceiling *= size; /* every rank has its own device */
    row.verify = !cli->verify ? TSR_VERIFY_SKIPPED : allbad ? TSR_VERIFY_FAIL : TSR_VERIFY_PASS;
    if (allbad) snprintf(row.note, sizeof row.note, "%ld wrong elements", allbad);
    char desc[256];
    if (!cli->quiet && rank == 0 && tsr_layout_describe(&L, desc, sizeof desc) == 0)
      printf("  %-28s %s\n", label, desc);
    rc = tsr_report_add(rep, &row);
  }
  tsr_device_free(&dev, (void **)&dsrc);
  tsr_device_free(&dev, (void **)&ddst);
  if (tab) tsr_layout_table_destroy(&dev, &tab);
  tsr_device_free(&dev, (void **)&cells);
  free(hsrc);
  free(hdst);
  return rc;
}

/* --variant auto: every (variant, thread shape) a candidate (lib's
 * tsr_auto_run). */
typedef struct {
  MPI_Comm comm;
  const cb_opts_t *o;
  int n, vi[CB_NVAR * CB_MAXSHAPES], sh[CB_NVAR * CB_MAXSHAPES];
  char names[CB_NVAR * CB_MAXSHAPES][128];
} cb_auto_t;

static int cb_auto_run(void *ctx, int c, const tsr_cli_t *cli, tsr_report_t *rep) {
  const cb_auto_t *X = ctx;
  return cb_run_variant(X->comm, cli, X->o, X->vi[c], 0, X->o->shapes[X->sh[c]], rep);
}

static int cb_auto(MPI_Comm comm, const tsr_cli_t *cli, const cb_opts_t *o, const tsr_selection_t *sel,
                   tsr_report_t *rep) {
  static cb_auto_t X;
  memset(&X, 0, sizeof X);
  X.comm = comm, X.o = o;
  for (int k = 0; k < sel->n; k++) {
    const tsr_variant_t *v = &cb_variants[sel->index[k]];
    if (tsr_variant_unavailable(v)) continue;
    const int nshape = (v->device == TSR_DEV_CUDA && v->id != COPY_CUDA_MEMCPY) ? o->nshapes : 1;
    for (int s = 0; s < nshape; s++, X.n++) {
      X.vi[X.n] = sel->index[k], X.sh[X.n] = s;
      if (nshape > 1)
        snprintf(X.names[X.n], sizeof X.names[X.n], "%s threads=%dx%dx%d", v->name, o->shapes[s][0],
                 o->shapes[s][1], o->shapes[s][2]);
      else
        snprintf(X.names[X.n], sizeof X.names[X.n], "%s", v->name);
    }
  }
  const char *names[CB_NVAR * CB_MAXSHAPES];
  for (int c = 0; c < X.n; c++) names[c] = X.names[c];
  char problem[160], devname[sizeof(tsr_device_t){0}.name] = "";
  snprintf(problem, sizeof problem, "%lldx%lldx%lld halo %lld,%lld,%lld align %lld zw %d fields %d",
           (long long)o->size[0], (long long)o->size[1], (long long)o->size[2], (long long)o->halo[0],
           (long long)o->halo[1], (long long)o->halo[2], (long long)o->align, o->zw, o->nf);
  tsr_device_t d;
  if (X.n > 0 && !tsr_device_select(comm, cb_variants[X.vi[0]].device, &d)) snprintf(devname, sizeof devname, "%s", d.name);
  tsr_error_clear();
  TSR_CALL(tsr_auto_run(cli, comm, problem, devname, X.n, names, cb_auto_run, &X, rep));
  return TSR_SUCCESS;
}

/* The options (lib's cli) and their checks; *done when --help, --version or
 * --list-variants answered. */
static int cb_options(MPI_Comm comm, tsr_cli_t *cli, cb_opts_t *o, int argc, char **argv,
                      int *done) {
  tsr_cli_init(cli, "tsr-copybench",
               "Copy a field through the layout offset functions (row-major with halo and "
               "padding, Z-curve) and compare with cudaMemcpy.");
  memset(o, 0, sizeof *o);
  o->size[0] = 512;
  o->size[1] = 512;
  o->size[2] = 64;
  o->align = 32;
  o->zw = 5;
  o->nf = 1;
  const char *halo = "2,2,0", *threads = "128x1x1,256x1x1,32x4x2";
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_SIZE3, o->size, "NXxNYxNZ", "domain including halo (512x512x64)"},
      {"halo", 0, TSR_OPT_STRING, &halo, "HX,HY,HZ", "halo widths (2,2,0)"},
      {"align", 0, TSR_OPT_LONG, &o->align, "A", "row-major: align first inner cells to A (32)"},
      {"zcurve-width", 0, TSR_OPT_INT, &o->zw, "W", "Z-curve: low bits of x kept linear (5)"},
      {"fields", 0, TSR_OPT_INT, &o->nf, "NF", "fields per cell, SoA (1)"},
      {"threads", 't', TSR_OPT_STRING, &threads, "LIST",
       "CUDA block shapes BXxBYxBZ,... (128x1x1,256x1x1,32x4x2)"},
  };
  cli->runs = 50;
  cli->warmup = 5;
  cli->variant_auto = 1; /* cb_auto */
  cli->options &= ~(unsigned)(TSR_CLI_INPUT | TSR_CLI_OUTPUT | TSR_CLI_ITERATIONS);
  TSR_CALL(tsr_cli_parse(cli, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]), comm, NULL,
                         0, NULL));
  if (cli->exit_now) return *done = 1, TSR_SUCCESS;
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (cli->list_variants) {
    if (rank == 0) tsr_variant_list(cb_variants, CB_NVAR, stdout);
    return *done = 1, TSR_SUCCESS;
  }
  TSR_CALL(cb_parse_halo(halo, o->halo));
  TSR_CALL(cb_parse_shapes(threads, o));
  TSR_CHECK(o->nf >= 1 && o->nf <= 64, TSR_ERR_ARG, "option --fields: expected 1..64, got %d", o->nf);
  TSR_CHECK(o->zw >= 0 && o->zw <= TSR_ZORDER_MAX_W, TSR_ERR_ARG,
            "option --zcurve-width: expected 0..%d, got %d", TSR_ZORDER_MAX_W, o->zw);
  tsr_layout_t probe;
  TSR_CALL(cb_layout(o, TSR_LAYOUT_ROWMAJOR, &probe));
  return TSR_SUCCESS;
}

static int cb_main(MPI_Comm comm, int argc, char **argv) {
  tsr_cli_t cli;
  cb_opts_t o;
  int done = 0;
  TSR_CALL(cb_options(comm, &cli, &o, argc, argv, &done)); /* options */
  if (done) return TSR_SUCCESS;
  int rank;
  MPI_Comm_rank(comm, &rank);

  tsr_selection_t sel; /* variants */
  TSR_CALL(tsr_run_select(&cli, cb_variants, CB_NVAR, "cpu/*", "cuda/*", &sel));
  int nranks;
  MPI_Comm_size(comm, &nranks);
  if (rank == 0 && !cli.quiet)
    printf("tsr-copybench: %lldx%lldx%lld doubles with halo %lld,%lld,%lld, %d field%s, %d "
           "rank%s, %d warm-up + %d timed runs\n",
           (long long)o.size[0], (long long)o.size[1], (long long)o.size[2],
           (long long)o.halo[0], (long long)o.halo[1], (long long)o.halo[2], o.nf,
           o.nf == 1 ? "" : "s", nranks, nranks == 1 ? "" : "s", cli.warmup, cli.runs);
  tsr_report_t *rep;
  TSR_CALL(tsr_report_create(&rep));
  int rc = sel.autotune ? cb_auto(comm, &cli, &o, &sel, rep) : TSR_SUCCESS;
  for (int k = 0; k < sel.n && !rc && !sel.autotune; k++) { /* run, verify: every thread shape of a CUDA copy */
    const tsr_variant_t *v = &cb_variants[sel.index[k]];
    int nshape = (v->device == TSR_DEV_CUDA && v->id != COPY_CUDA_MEMCPY) ? o.nshapes : 1;
    for (int s = 0; s < nshape && !rc; s++)
      rc = cb_run_variant(comm, &cli, &o, sel.index[k], sel.required[k], o.shapes[s], rep);
  }
  if (!rc) rc = tsr_report_finish(rep, &cli, comm); /* report */
  tsr_selection_free(&sel);
  tsr_report_destroy(&rep);
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-copybench");
  int rc = cb_main(MPI_COMM_WORLD, argc, argv);
  if (rc) tsr_abort(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, rc));
  MPI_Finalize();
  return 0;
}
