/* apps/fastsg/fastsg_dist.c: tsr-fastsg with distributed coefficients
 * (--distribute): each rank holds only its share of the grid (the scheme of
 * kernels/sparse/sg_dist.h), for grids too large for one device.
 *
 *   - app->samples and app->coef hold the rank's rows [row0, row0 + nrows)
 *     of the global order (the rows layout): HDF5 reads and writes them
 *     as they are;
 *   - the reference coefficients are the distributed CPU transform of the
 *     samples (bit for bit cpu/hier/plain's: tests/mpi/check_fastsg_dist);
 *   - a variant run times phase A's sweeps, the exchange A -> B and phase
 *     B's sweeps on the rank's device, from the samples in layout A; the
 *     result goes back to the rows and is compared bit for bit with the
 *     reference. Only the pole variants (cpu/hier/ichg1, cuda/hier/ichg1)
 *     run distributed; evaluation needs the whole array on every rank.
 * Also: the memory checks (whole or distributed, per node and per device)
 * and the coefficient checksum (FNV-1a streamed from every rank's rows). */
#include "config.h"
#include "apps/fastsg/fastsg.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ memory */

/* Free memory of this rank's GPU in *gpu (0 when no CUDA variant is chosen
 * or no device is visible). A CUDA call that fails is an error, agreed by
 * every rank (each must decide --distribute auto alike). */
static int fastsg_gpu_free(const fastsg_app_t *app, double *gpu) {
  tsr_device_t dev;
  size_t fr = 0, tot = 0;
  *gpu = 0;
  if (!app->any_cuda) return TSR_SUCCESS;
  int rc = tsr_device_select(app->comm, TSR_DEV_CUDA, &dev); /* agreed */
  if (rc == TSR_ERR_NODEVICE || rc == TSR_ERR_NOCUDA) {
    tsr_error_clear();
    return TSR_SUCCESS;
  }
  TSR_CALL(rc);
  TSR_CALL(tsr_error_agree(app->comm, fastsg_dist_cuda_meminfo(&fr, &tot)));
  *gpu = (double)fr;
  return TSR_SUCCESS;
}

/* Host bytes per rank: whole (samples, reference, a work copy of N values)
 * or distributed (rows of samples and reference, 2 N/P each, plus layout A
 * samples, the work array and three staging buffers of about N/P; 6 N/P
 * with 1.2 for imbalance). Device bytes per rank: two arrays of N values
 * (whole) or one of about 1.2 N/P (distributed). */
int fastsg_check_memory(fastsg_app_t *app) {
  const double N = fastsg_grid_count(app->dim, app->level), es = (double)app->es;
  const double gib = 1073741824.0, P = app->size;
  const double have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  int node = 1;
  TSR_CALL(tsr_node_split(app->comm, NULL, NULL, &node));
  const double whole = 3 * N * es, dist = 2 * N * es / P + 6 * 1.2 * N * es / P;
  double gpu = 0;
  if (app->do_hier) TSR_CALL(fastsg_gpu_free(app, &gpu));
  const int whole_gpu_ok = gpu == 0 || 2 * N * es < 0.95 * gpu;
  if (strcmp(app->distribute, "yes") == 0) app->dist = 1;
  else if (strcmp(app->distribute, "no") == 0) app->dist = 0;
  else if (strcmp(app->distribute, "auto") == 0)
    app->dist = app->size > 1 && app->do_hier && !app->do_eval && !app->eval_points &&
                (whole * node > 0.9 * have || !whole_gpu_ok);
  else
    return TSR_RAISE(TSR_ERR_ARG, "--distribute '%s': expected yes, no or auto",
                     app->distribute);
  if (!app->dist) {
    TSR_CHECK(whole * node <= 0.9 * have, TSR_ERR_ALLOC,
              "grid D = %d, n = %d has %.0f points: %.3g GiB of %s (3 copies of %.3g GiB) on each "
              "of the %d rank%s of this node do not fit in the %.3g GiB of memory of this node; "
              "lower --level or --dim%s", app->dim, app->level, N, whole / gib, app->precision,
              N * es / gib, node, node > 1 ? "s" : "", have / gib,
              dist * node <= 0.9 * have && app->size > 1
                  ? ", or distribute the grid (--distribute yes, --mode hierarchize)" : "");
    TSR_CHECK(whole_gpu_ok, TSR_ERR_ALLOC,
              "grid D = %d, n = %d: hierarchization on the GPU needs %.3g GiB (2 arrays of %.0f "
              "points), more than the %.3g GiB free on the device; distribute it over at least "
              "%.0f ranks (mpiexec -n P tsr-fastsg --distribute yes --mode hierarchize)",
              app->dim, app->level, 2 * N * es / gib, N, gpu / gib,
              1 + (double)(int64_t)(1.2 * N * es / (0.9 * gpu)));
    return TSR_SUCCESS;
  }
  TSR_CHECK(!app->do_eval && !app->eval_points, TSR_ERR_ARG,
            "--distribute yes: evaluation (--mode %s%s) needs the whole coefficient array on "
            "every rank; use --mode hierarchize", app->mode,
            app->eval_points ? ", --eval-point" : "");
  TSR_CHECK(dist * node <= 0.9 * have, TSR_ERR_ALLOC,
            "grid D = %d, n = %d has %.0f points: distributed over %d ranks each needs about "
            "%.3g GiB of %s (%d ranks: %.3g GiB), which do not fit in the %.3g GiB of memory of "
            "this node; use more nodes, or lower --level or --dim", app->dim, app->level, N,
            app->size, dist / gib, app->precision, node, dist * node / gib, have / gib);
  TSR_CHECK(gpu == 0 || 1.2 * N * es / P < 0.95 * gpu, TSR_ERR_ALLOC,
            "grid D = %d, n = %d distributed over %d ranks needs about %.3g GiB per GPU, more "
            "than the %.3g GiB free; use at least %.0f ranks", app->dim, app->level, app->size,
            1.2 * N * es / P / gib, gpu / gib, 1 + (double)(int64_t)(1.2 * N * es / (0.9 * gpu)));
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ setup */

int fastsg_dist_setup(fastsg_app_t *app, const tsr_cli_t *cli) {
  const fastsg_grid_t *G = &app->grid;
  TSR_CALL(fastsg_dist_create(G, app->rank, app->size, &app->plan));
  fastsg_dist_t *d = app->plan;
  app->b0 = d->row_b0;
  app->b1 = d->row_b1;
  app->row0 = d->row_p0;
  app->nrows = d->row_p1 - d->row_p0;
  const size_t es = app->es, cap = (size_t)d->cap + 1;
  app->samples = malloc(((size_t)app->nrows + 1) * es);
  app->coef = malloc(cap * es); /* rows, after the transform */
  app->samples_a = malloc(cap * es);
  TSR_CHECK(app->samples && app->coef && app->samples_a, TSR_ERR_ALLOC,
            "cannot allocate this rank's share of the grid (%lld points)", (long long)d->cap);
  double t0 = tsr_wtime();
  if (app->input && app->in_values) {
    TSR_CALL(fastsg_io_read_values(app));
  } else {
    snprintf(app->source, sizeof app->source, "%s", app->function);
#pragma omp parallel for schedule(static)
    for (int64_t k = 0; k < app->nrows; k++) {
      int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
      double x[FASTSG_MAX_DIM];
      const int64_t p = app->row0 + k;
      int g = fastsg_idx2l(G, p, l);
      fastsg_idx2i(G, p, g, l, i);
      for (int t = 0; t < app->dim; t++) x[t] = fastsg_coord1d(l[t], i[t]);
      double v = fastsg_fun_eval(app->fun, x, app->dim);
      if (app->prec == TSR_FLOAT) ((float *)app->samples)[k] = (float)v;
      else ((double *)app->samples)[k] = v;
    }
  }
  double t1 = tsr_wtime();
  /* the samples in layout A (kept for every run), and the reference */
  tsr_device_t cpu;
  TSR_CALL(tsr_device_select(app->comm, TSR_DEV_CPU, &cpu));
  fastsg_dist_buf_t buf;
  TSR_CALL(fastsg_dist_buf_init(d, &cpu, es, &buf));
  memcpy(app->samples_a, app->samples, (size_t)app->nrows * es);
  int rc = fastsg_dist_exchange(d, FASTSG_X_ROWS_A, app->comm, &cpu, app->samples_a, &buf);
  if (rc == 0) {
    memcpy(app->coef, app->samples, (size_t)app->nrows * es);
    rc = fastsg_dist_transform(d, app->comm, &cpu, NULL, app->prec, app->coef, &buf, 0);
  }
  fastsg_dist_buf_free(&buf);
  TSR_CALL(rc);
  app->hier_ref = "cpu/hier/ichg1 (distributed)";
  double t2 = tsr_wtime();
  int64_t mine[2] = {TSR_MAX(d->nlocal[FASTSG_L_A], d->nlocal[FASTSG_L_B]), 0}, most[2];
  for (int k = 0; k < 3; k++) mine[1] += d->xf[k].sdispl[app->size] - d->xf[k].scount[app->rank];
  TSR_CALL_MPI(MPI_Allreduce(mine, most, 2, MPI_INT64_T, MPI_MAX, app->comm));
  int64_t moved = d->xf[FASTSG_X_A_B].sdispl[app->size] - d->xf[FASTSG_X_A_B].scount[app->rank];
  TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT64_T, MPI_SUM, app->comm));
  app->dist_moved = moved;
  if (app->rank == 0 && !cli->quiet) {
    printf("tsr-fastsg: distributed over %d ranks: sweeps 0..%d by poles (layout A), %d..%d "
           "(layout B); at most %lld points (%.4g MiB) per rank (N/P = %lld); the exchange A->B "
           "moves %lld points (%.3g MiB)\n", app->size, d->split - 1, d->split, app->dim - 1,
           (long long)most[0], (double)most[0] * (double)es / 1048576.0,
           (long long)(G->npoints / app->size), (long long)moved,
           (double)moved * (double)es / 1048576.0);
    printf("tsr-fastsg: setup: samples %.2f s, coefficients (%s) %.2f s\n", t1 - t0,
           app->hier_ref, t2 - t1);
    fflush(stdout);
  }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ runs */

typedef struct {
  fastsg_app_t *app;
  const tsr_device_t *dev;
  fastsg_dist_dev_t *dt;
  fastsg_dist_buf_t *buf;
  void *a;
} fastsg_dist_job_t;

/* Untimed: the samples in layout A back on the device. */
static int fastsg_dist_reset(void *ctx, const tsr_run_sample_t *s) {
  const fastsg_dist_job_t *j = ctx;
  (void)s;
  return tsr_device_upload(j->dev, j->a, j->app->samples_a,
                           (size_t)j->app->plan->nlocal[FASTSG_L_A] * j->app->es);
}

/* Timed: phase A's sweeps, the exchange A -> B (extra[0]), phase B's sweeps. */
static int fastsg_dist_timed(void *ctx, tsr_run_sample_t *s) {
  const fastsg_dist_job_t *j = ctx;
  const fastsg_dist_t *d = j->app->plan;
  int rc = fastsg_dist_sweeps(d, 0, j->dev, j->dt, j->app->prec, j->a, 0);
  if (!rc) rc = tsr_device_sync(j->dev);
  TSR_CALL(tsr_error_agree(j->app->comm, rc)); /* no rank skips the exchange */
  const double t1 = tsr_wtime();
  TSR_CALL(fastsg_dist_exchange(d, FASTSG_X_A_B, j->app->comm, j->dev, j->a, j->buf));
  s->extra[0] = tsr_wtime() - t1;
  TSR_CALL(fastsg_dist_sweeps(d, 1, j->dev, j->dt, j->app->prec, j->a, 0));
  return TSR_SUCCESS;
}

int fastsg_dist_run_hier(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                         tsr_report_t *rep) {
  const fastsg_dist_t *d = app->plan;
  const size_t es = app->es, cap = (size_t)d->cap + 1;
  tsr_device_t dev;
  TSR_CALL(tsr_device_select(app->comm, v->device, &dev));
  void *a = NULL, *h = malloc(cap * es);
  TSR_CHECK(h, TSR_ERR_ALLOC, "cannot allocate %zu bytes", cap * es);
  fastsg_dist_buf_t buf;
  fastsg_dist_dev_t dt;
  memset(&buf, 0, sizeof buf);
  memset(&dt, 0, sizeof dt);
  int rc = TSR_SUCCESS;
#define FASTSG_TRY(expr) if (rc == 0) rc = (expr)
  FASTSG_TRY(tsr_device_malloc(&dev, cap * es, &a));
  FASTSG_TRY(fastsg_dist_buf_init(d, &dev, es, &buf));
  FASTSG_TRY(fastsg_dist_dev_init(d, &dev, &dt));
  rc = tsr_error_agree(app->comm, rc);
  fastsg_dist_job_t job = {app, &dev, &dt, &buf, a};
  tsr_run_t sp = {.prog = "tsr-fastsg", .label = v->name, .comm = app->comm, .dev = &dev,
                  .timing = TSR_TIME_WALL, .warmup = cli->warmup, .runs = cli->runs,
                  .barrier = 1, .quiet = cli->quiet, .nextra = 1, .reset = fastsg_dist_reset,
                  .run = fastsg_dist_timed, .ctx = &job};
  tsr_run_result_t res;
  FASTSG_TRY(tsr_run(&sp, &res));
  FASTSG_TRY(fastsg_dist_exchange(d, FASTSG_X_B_ROWS, app->comm, &dev, a, &buf));
  FASTSG_TRY(tsr_device_download(&dev, h, a, (size_t)app->nrows * es));
  rc = tsr_error_agree(app->comm, rc);
  if (rc == 0) {
    tsr_result_t row;
    tsr_result_init(&row, "fastsg", v, &dev, 0);
    snprintf(row.precision, sizeof row.precision, "%s", tsr_dtype_name(app->prec));
    row.size[0] = app->dim;
    row.size[1] = app->level;
    row.size[2] = app->grid.npoints;
    row.ranks = app->size;
    row.time = res.time;
    const tsr_stats_t sx = res.extra[0];
    row.bytes = 2.0 * app->dim * (double)app->grid.npoints * (double)es;
    row.footprint = (double)app->grid.npoints * (double)es;
    double ceil = 0;
    if (tsr_bandwidth_ceiling(&dev, &ceil) == 0) row.ceiling = ceil * app->size;
    tsr_error_clear();
    row.verify = TSR_VERIFY_SKIPPED;
    snprintf(row.note, sizeof row.note, "distributed; exchange A->B %.3g ms (%.3g MiB)",
             sx.median * 1e3, (double)app->dist_moved * (double)es / 1048576.0);
    if (cli->verify) {
      int64_t bad = -1;
      for (int64_t p = 0; p < app->nrows && bad < 0; p++)
        if (memcmp((char *)h + p * es, (char *)app->coef + p * es, es)) bad = app->row0 + p;
      int64_t gbad = bad < 0 ? INT64_MAX : bad;
      TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, &gbad, 1, MPI_INT64_T, MPI_MIN, app->comm));
      row.verify = gbad == INT64_MAX ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
      if (gbad != INT64_MAX)
        snprintf(row.note, sizeof row.note, "distributed: differs from the reference at "
                 "position %lld", (long long)gbad);
      else
        snprintf(row.note, sizeof row.note, "distributed, bit-identical; exchange A->B %.3g ms "
                 "(%.3g MiB)", sx.median * 1e3, (double)app->dist_moved * (double)es / 1048576.0);
    }
    rc = tsr_report_add(rep, &row);
  }
  fastsg_dist_dev_free(d, &dev, &dt);
  fastsg_dist_buf_free(&buf);
  tsr_device_free(&dev, &a);
  free(h);
  return rc;
}

/* ------------------------------------------------------------ checksum */

/* FNV-1a over the coefficients' 8-byte words, then the tail bytes, streamed
 * (the same value as over the whole array at once). */
typedef struct {
  uint64_t h;
  unsigned char pend[8];
  int npend;
} fastsg_fnv_t;

static void fastsg_fnv_feed(fastsg_fnv_t *s, const unsigned char *c, size_t n) {
  uint64_t w;
  size_t k = 0;
  while (s->npend > 0 && k < n) {
    s->pend[s->npend++] = c[k++];
    if (s->npend == 8) {
      memcpy(&w, s->pend, 8);
      s->h = (s->h ^ w) * 1099511628211ULL;
      s->npend = 0;
    }
  }
  for (; k + 8 <= n; k += 8) {
    memcpy(&w, c + k, 8);
    s->h = (s->h ^ w) * 1099511628211ULL;
  }
  while (k < n) s->pend[s->npend++] = c[k++];
}

static int fastsg_fnv_piece(void *ctx, int rank, const void *data, size_t bytes) {
  (void)rank;
  fastsg_fnv_feed(ctx, data, bytes);
  return TSR_SUCCESS;
}

int fastsg_checksum(const fastsg_app_t *app, uint64_t *out) {
  fastsg_fnv_t s = {1469598103934665603ULL, {0}, 0};
  const size_t es = app->es;
  if (!app->dist) {
    fastsg_fnv_feed(&s, app->coef, (size_t)app->grid.npoints * es);
  } else { /* rank 0 hashes its rows, then every rank's in turn, in pieces */
    TSR_CALL(tsr_gather_each(app->comm, 0, app->coef, (size_t)app->nrows * es, (size_t)1 << 27,
                             app->rank == 0 ? fastsg_fnv_piece : NULL, &s));
  }
  for (int k = 0; k < s.npend; k++) s.h = (s.h ^ s.pend[k]) * 1099511628211ULL;
  *out = s.h;
  return TSR_SUCCESS;
}
