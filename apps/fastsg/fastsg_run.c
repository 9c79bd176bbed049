/* apps/fastsg/fastsg_run.c: timing and verification of the fastsg variants.
 *
 * Hierarchization with several ranks: every rank holds the whole coefficient
 * array; each sweep t is split into contiguous ranges of blocks balanced by
 * points (fastsg_block_range), each rank updates its range, then every range
 * is broadcast from its owner. A point's update reads only parents in lower
 * groups, which no rank has changed yet in that sweep, so the result is bit
 * for bit that of one rank. Evaluation points are split into contiguous
 * slices, one per rank. With --distribute each rank holds only its share of
 * the coefficients instead (fastsg_dist.c, kernels/sparse/sg_dist.h). */
#include "config.h"
#include "apps/fastsg/fastsg.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int (*const fastsg_fns[])(const fastsg_kernel_args_t *) = {
#define FASTSG_VARIANT(dev, kernel, name, help) fastsg_##kernel##_##name##_##dev,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
};

/* Every rank's block range of the sweep, broadcast from its owner into the
 * host array a (chunks keep MPI counts below 2^31). */
static int fastsg_share(fastsg_app_t *app, void *a) {
  MPI_Datatype type = app->prec == TSR_FLOAT ? MPI_FLOAT : MPI_DOUBLE;
  for (int q = 0; q < app->size; q++) {
    int64_t b0, b1;
    fastsg_block_range(&app->grid, q, app->size, &b0, &b1);
    int64_t p0 = fastsg_gblock_pos(&app->grid, b0), p1 = fastsg_gblock_pos(&app->grid, b1);
    for (int64_t p = p0; p < p1; p += (int64_t)1 << 30) {
      int cnt = (int)TSR_MIN((int64_t)1 << 30, p1 - p);
      TSR_CALL_MPI(MPI_Bcast((char *)a + p * app->es, cnt, type, q, app->comm));
    }
  }
  return TSR_SUCCESS;
}

int fastsg_hierarchize_cpu(fastsg_app_t *app, int variant, void *a) {
  fastsg_kernel_args_t A = {.grid = &app->grid, .prec = app->prec, .coef = a, .b0 = app->b0,
                            .b1 = app->b1, .par1d = app->par1d};
  for (A.t = 0; A.t < app->dim; A.t++) {
    TSR_CALL(fastsg_fns[variant](&A));
    if (app->size > 1) TSR_CALL(fastsg_share(app, a));
  }
  return TSR_SUCCESS;
}

static void fastsg_row(fastsg_app_t *app, const tsr_variant_t *v, const tsr_device_t *dev,
                       tsr_result_t *row) {
  tsr_result_init(row, "fastsg", v, dev, 0);
  snprintf(row->precision, sizeof row->precision, "%s", tsr_dtype_name(app->prec));
  row->size[0] = app->dim;
  row->size[1] = app->level;
  row->ranks = app->size;
}

/* One hierarchization run: D sweeps from the samples (d0 -> d untimed). */
typedef struct {
  fastsg_app_t *app;
  const tsr_device_t *dev;
  fastsg_kernel_args_t *A;
  void *d, *d0, *h;
  size_t bytes;
  int id;
} fastsg_job_t;

static int fastsg_hier_reset(void *ctx, const tsr_run_sample_t *s) {
  const fastsg_job_t *j = ctx;
  (void)s;
  return tsr_device_copy(j->dev, j->d, j->d0, j->bytes);
}

static int fastsg_hier_timed(void *ctx, tsr_run_sample_t *s) {
  const fastsg_job_t *j = ctx;
  fastsg_app_t *app = j->app;
  (void)s;
  int64_t p0 = fastsg_gblock_pos(&app->grid, app->b0), p1 = fastsg_gblock_pos(&app->grid, app->b1);
  int rc = TSR_SUCCESS;
  for (j->A->t = 0; j->A->t < app->dim; j->A->t++) {
    if (!rc) rc = fastsg_fns[j->id](j->A);
    if (app->size > 1) { /* host-staged exchange of the sweep's ranges */
      if (!rc)
        rc = tsr_device_download(j->dev, (char *)j->h + p0 * app->es, (char *)j->d + p0 * app->es,
                                 (size_t)(p1 - p0) * app->es);
      /* every rank, every sweep: a failure on one rank ends the broadcasts on all */
      rc = tsr_error_agree(app->comm, rc);
      if (!rc) rc = fastsg_share(app, j->h);
      if (!rc) rc = tsr_device_upload(j->dev, j->d, j->h, j->bytes);
    }
  }
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

static int fastsg_eval_timed(void *ctx, tsr_run_sample_t *s) {
  const fastsg_job_t *j = ctx;
  (void)s;
  return fastsg_fns[j->id](j->A);
}

static tsr_run_t fastsg_spec(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                             const tsr_device_t *dev, fastsg_job_t *job) {
  tsr_run_t sp = {.prog = "tsr-fastsg", .label = v->name, .comm = app->comm, .dev = dev,
                  .timing = TSR_TIME_WALL, .warmup = cli->warmup, .runs = cli->runs,
                  .barrier = 1, .quiet = cli->quiet, .ctx = job};
  return sp;
}

int fastsg_run_hier(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                    tsr_report_t *rep) {
  if (app->dist) return fastsg_dist_run_hier(app, cli, v, rep);
  tsr_device_t dev;
  TSR_CALL(tsr_device_select(app->comm, v->device, &dev));
  const int64_t N = app->grid.npoints;
  const size_t bytes = (size_t)N * app->es;
  void *d = NULL, *d0 = NULL, *dpar = NULL, *h = tsr_malloc(bytes);
  int rc = h ? TSR_SUCCESS
             : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %zu bytes for the coefficients", bytes);
#define FASTSG_TRY(expr) if (rc == 0) rc = (expr)
  FASTSG_TRY(tsr_device_malloc(&dev, bytes, &d));
  FASTSG_TRY(tsr_device_malloc(&dev, bytes, &d0));
  FASTSG_TRY(tsr_device_upload(&dev, d0, app->samples, bytes));
  size_t parbytes = fastsg_par1d_count(app->level) * sizeof(uint32_t);
  FASTSG_TRY(tsr_device_malloc(&dev, parbytes, &dpar));
  FASTSG_TRY(tsr_device_upload(&dev, dpar, app->par1d, parbytes));
  fastsg_kernel_args_t A = {.grid = &app->grid, .prec = app->prec, .coef = d, .b0 = app->b0,
                            .b1 = app->b1, .par1d = dpar};
  fastsg_job_t job = {app, &dev, &A, d, d0, h, bytes, v->id};
  tsr_run_t sp = fastsg_spec(app, cli, v, &dev, &job);
  sp.reset = fastsg_hier_reset;
  sp.run = fastsg_hier_timed;
  tsr_run_result_t res;
  rc = tsr_error_agree(app->comm, rc);
  FASTSG_TRY(tsr_run(&sp, &res));
  tsr_result_t row;
  fastsg_row(app, v, &dev, &row);
  row.size[2] = N;
  if (rc == 0) {
    row.time = res.time;
    FASTSG_TRY(tsr_device_download(&dev, h, d, bytes));
    row.bytes = 2.0 * app->dim * (double)bytes; /* D sweeps, each reads and writes N values */
    row.footprint = (double)bytes;
    double ceil = 0;
    if (rc == 0 && tsr_bandwidth_ceiling(&dev, &ceil) == 0) row.ceiling = ceil * app->size;
    tsr_error_clear();
    row.verify = TSR_VERIFY_SKIPPED;
    if (cli->verify) {
      int64_t bad = 0;
      for (int64_t p = 0; p < N && !bad; p++)
        if (memcmp((char *)h + p * app->es, (char *)app->coef + p * app->es, app->es)) bad = p + 1;
      row.verify = bad ? TSR_VERIFY_FAIL : TSR_VERIFY_PASS;
      if (bad)
        snprintf(row.note, sizeof row.note, "differs from %s at position %lld", app->hier_ref,
                 (long long)(bad - 1));
      else
        snprintf(row.note, sizeof row.note, "bit-identical to %s", app->hier_ref);
    }
    FASTSG_TRY(tsr_report_add(rep, &row));
  }
  tsr_device_free(&dev, &d);
  tsr_device_free(&dev, &d0);
  tsr_device_free(&dev, &dpar);
  free(h);
  return rc;
}

static double fastsg_get(const void *a, tsr_dtype_t prec, int64_t k) {
  return prec == TSR_FLOAT ? (double)((const float *)a)[k] : ((const double *)a)[k];
}

int fastsg_run_eval(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_variant_t *v,
                    tsr_report_t *rep) {
  tsr_device_t dev;
  TSR_CALL(tsr_device_select(app->comm, v->device, &dev));
  const fastsg_xlayout_t lay = fastsg_eval_layout(v->id);
  const int64_t nx = fastsg_x_count(lay, app->m, app->dim), N = app->grid.npoints;
  const size_t cbytes = (size_t)N * app->es, xbytes = (size_t)nx * app->es,
               rbytes = (size_t)TSR_MAX(app->m, 1) * app->es,
               tbytes = (size_t)app->grid.nblocks * 2 * app->dim;
  void *xt = tsr_malloc(xbytes), *r = tsr_malloc(rbytes), *dc = NULL, *dx = NULL, *dr = NULL,
       *db = NULL;
  int rc = xt && r ? TSR_SUCCESS
                   : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %zu bytes for %lld points", xbytes,
                               (long long)app->m);
  if (!rc) fastsg_x_relayout(lay, app->prec, app->m, app->dim, app->x, xt);
  FASTSG_TRY(tsr_device_malloc(&dev, cbytes, &dc));
  FASTSG_TRY(tsr_device_upload(&dev, dc, app->coef, cbytes));
  FASTSG_TRY(tsr_device_malloc(&dev, xbytes, &dx));
  FASTSG_TRY(tsr_device_upload(&dev, dx, xt, xbytes));
  FASTSG_TRY(tsr_device_malloc(&dev, rbytes, &dr));
  FASTSG_TRY(tsr_device_malloc(&dev, tbytes, &db));
  FASTSG_TRY(tsr_device_upload(&dev, db, app->btab, tbytes));
  fastsg_kernel_args_t A = {.grid = &app->grid, .prec = app->prec, .coef = dc, .npts = app->m,
                            .x = dx, .r = dr, .btab = db};
  fastsg_job_t job = {app, &dev, &A, NULL, NULL, NULL, 0, v->id};
  tsr_run_t sp = fastsg_spec(app, cli, v, &dev, &job);
  sp.run = fastsg_eval_timed;
  tsr_run_result_t res;
  rc = tsr_error_agree(app->comm, rc);
  FASTSG_TRY(tsr_run(&sp, &res));
  FASTSG_TRY(tsr_device_download(&dev, r, dr, (size_t)app->m * app->es));
  rc = tsr_error_agree(app->comm, rc);
  if (rc == 0) {
    tsr_result_t row;
    fastsg_row(app, v, &dev, &row);
    row.size[2] = app->npoints_eval;
    row.time = res.time;
    row.footprint = (double)(cbytes + xbytes + rbytes) * app->size;
    snprintf(row.fom_name, sizeof row.fom_name, "points_per_s");
    snprintf(row.fom_unit, sizeof row.fom_unit, "pts/s");
    row.fom = (double)app->npoints_eval / row.time.median;
    /* agreement with cpu/eval/plain at the nref sampled points of each rank */
    const double tol = app->prec == TSR_FLOAT ? 2e-5 : 1e-12;
    double dmax = 0, emax = 0, esq = 0;
    for (int64_t s = 0; s < app->nref; s++) {
      double e = fastsg_get(app->ref, app->prec, s);
      double o = fastsg_get(r, app->prec, fastsg_ref_index(app, s));
      double rel = fabs(e - o) / (1 + fabs(e));
      dmax = isnan(rel) ? INFINITY : fmax(dmax, rel);
    }
    for (int64_t k = 0; k < app->m && app->have_fx; k++) {
      double e = fabs(fastsg_get(r, app->prec, k) - fastsg_get(app->fx, app->prec, k));
      emax = isnan(e) ? INFINITY : fmax(emax, e);
      esq += e * e;
    }
    double loc[2] = {dmax, emax}, glob[2];
    FASTSG_TRY(MPI_Allreduce(loc, glob, 2, MPI_DOUBLE, MPI_MAX, app->comm) == MPI_SUCCESS
                   ? 0 : TSR_RAISE(TSR_ERR_MPI, "MPI_Allreduce failed"));
    FASTSG_TRY(MPI_Allreduce(MPI_IN_PLACE, &esq, 1, MPI_DOUBLE, MPI_SUM, app->comm) == MPI_SUCCESS
                   ? 0 : TSR_RAISE(TSR_ERR_MPI, "MPI_Allreduce failed"));
    const double l2 = sqrt(esq / (double)TSR_MAX(app->npoints_eval, 1));
    const double bound = fastsg_fun_bound(app->fun, app->dim, app->level) +
                         (app->prec == TSR_FLOAT ? 1e-5 : 1e-12);
    if (app->have_fx)
      snprintf(row.figure, sizeof row.figure, "%.3e pts/s maxerr=%.3e l2=%.3e",
               (double)app->npoints_eval / row.time.median, glob[1], l2);
    else
      snprintf(row.figure, sizeof row.figure, "%.3e pts/s",
               (double)app->npoints_eval / row.time.median);
    row.verify = TSR_VERIFY_SKIPPED;
    if (cli->verify) {
      /* the analytic bound holds for the built-in functions only */
      const int analytic = !(app->input && (app->in_values || app->in_pvalues));
      int ok_ref = glob[0] <= tol, ok_err = !analytic || glob[1] <= bound;
      row.verify = ok_ref && ok_err ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
      if (!ok_ref)
        snprintf(row.note, sizeof row.note, "differs from cpu/eval/plain by %.2e (tolerance %.0e)",
                 glob[0], tol);
      else if (!ok_err)
        snprintf(row.note, sizeof row.note, "max error %.3e above the analytic bound %.3e",
                 glob[1], bound);
      else if (analytic)
        snprintf(row.note, sizeof row.note, "%lld sampled pts/rank; error bound %.3e",
                 (long long)app->nref, bound);
      else
        snprintf(row.note, sizeof row.note, "%lld sampled pts/rank", (long long)app->nref);
    }
    FASTSG_TRY(tsr_report_add(rep, &row));
    /* -o: the results of the first evaluation variant that was not refuted */
    if (rc == 0 && app->output && !app->res && row.verify != TSR_VERIFY_FAIL) {
      app->res = r;
      r = NULL;
      snprintf(app->res_variant, sizeof app->res_variant, "%s", v->name);
      snprintf(app->res_device, sizeof app->res_device, "%.63s", dev.name);
    }
  }
  tsr_device_free(&dev, &dc);
  tsr_device_free(&dev, &dx);
  tsr_device_free(&dev, &dr);
  tsr_device_free(&dev, &db);
  free(xt);
  free(r);
  return rc;
}
