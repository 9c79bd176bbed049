/* apps/fastsg/fastsg.c: tsr-fastsg, regular sparse grids without boundary
 * (Murarasu et al., fastsg): hierarchization and evaluation on CPU and GPU
 * with every loop optimisation of the fastsg study, verified against the plain
 * versions and against the analytic interpolation error. */
#include "config.h"
#include "apps/fastsg/fastsg.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const tsr_variant_t fastsg_table[] = {
#define FASTSG_VARIANT(dev, kernel, name, help)                                               \
  {#dev "/" #kernel "/" #name, TSR_DEV_##dev, help, FASTSG_V_##dev##_##kernel##_##name},
#define TSR_DEV_cpu TSR_DEV_CPU
#define TSR_DEV_cuda TSR_DEV_CUDA
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
};
enum { FASTSG_NVAR = (int)(sizeof fastsg_table / sizeof fastsg_table[0]) };

/* ---------------------------------------------------------------- functions */

double fastsg_fun_eval(fastsg_fun_t f, const double *x, int D) {
  double v = 1;
  for (int t = 0; t < D; t++) v *= f == FASTSG_F_BUMP ? 4 * x[t] * (1 - x[t]) : sin(M_PI * x[t]);
  return v;
}

/* f = sum over all levels of its hierarchical coefficients times hats; at
 * any x one hat per level vector is non-zero (and <= 1), so
 * |f - u_n| <= sum_{g >= n} C(g+D-1, D-1) max_{|l|=g} |coefficient|, with
 * coefficients exactly 4^-|l| (bump) and at most (pi^2/8)^D 4^-|l|
 * (sin: prod sin(pi x_t)(1 - cos(pi 2^-(l_t+1)))). */
double fastsg_fun_bound(fastsg_fun_t f, int D, int n) {
  const double scale = f == FASTSG_F_BUMP ? 1.0 : pow(M_PI * M_PI / 8, D);
  double sum = 0, term = 1; /* term = C(g+D-1, D-1) 4^-g */
  for (int g = 0; g < n + 2000; g++) {
    if (g >= n) sum += term;
    term *= (double)(g + D) / (g + 1) / 4;
    if (g >= n && term < 1e-18 * sum) break;
  }
  return scale * sum;
}

/* splitmix64 of (seed, index): the points do not depend on the rank count. */
static double fastsg_rand01(uint64_t seed, uint64_t k) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + (k + 1) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static void fastsg_put(void *a, tsr_dtype_t prec, int64_t k, double v) {
  if (prec == TSR_FLOAT) ((float *)a)[k] = (float)v;
  else ((double *)a)[k] = v;
}

/* ---------------------------------------------------------------- setup */

static int fastsg_parse_points(fastsg_app_t *app, double **pts, int *npts) {
  *pts = NULL;
  *npts = 0;
  if (!app->eval_points) return TSR_SUCCESS;
  int cap = 16, n = 0;
  double *v = malloc(sizeof *v * cap);
  TSR_CHECK(v, TSR_ERR_ALLOC, "out of memory");
  const char *s = app->eval_points;
  while (*s) {
    char *end;
    double x = strtod(s, &end);
    if (end == s || (*end && *end != ',')) {
      free(v);
      return TSR_RAISE(TSR_ERR_ARG, "--eval-point '%s': expected %d comma-separated numbers",
                       app->eval_points, app->dim);
    }
    if (!(x >= 0 && x <= 1)) {
      free(v);
      return TSR_RAISE(TSR_ERR_ARG,
                       "--eval-point: coordinate %d of point %d is %g, outside [0,1]^%d",
                       n % app->dim + 1, n / app->dim + 1, x, app->dim);
    }
    if (n == cap) {
      double *w = realloc(v, sizeof *v * (cap *= 2));
      if (!w) { free(v); return TSR_RAISE(TSR_ERR_ALLOC, "out of memory"); }
      v = w;
    }
    v[n++] = x;
    s = *end ? end + 1 : end;
  }
  if (n % app->dim) {
    free(v);
    return TSR_RAISE(TSR_ERR_ARG, "--eval-point: %d coordinates given, not a multiple of D = %d",
                     n, app->dim);
  }
  *pts = v;
  *npts = n / app->dim;
  return TSR_SUCCESS;
}

static int fastsg_setup(fastsg_app_t *app, const tsr_cli_t *cli) {
  TSR_CHECK(strcmp(app->mode, "hierarchize") == 0 || strcmp(app->mode, "evaluate") == 0 ||
                strcmp(app->mode, "both") == 0,
            TSR_ERR_ARG, "--mode '%s': expected hierarchize, evaluate or both", app->mode);
  app->do_hier = strcmp(app->mode, "evaluate") != 0;
  app->do_eval = strcmp(app->mode, "hierarchize") != 0;
  if (strcmp(app->function, "bump") == 0) app->fun = FASTSG_F_BUMP;
  else if (strcmp(app->function, "sinprod") == 0) app->fun = FASTSG_F_SINPROD;
  else return TSR_RAISE(TSR_ERR_ARG, "--function '%s': expected bump (prod 4x(1-x)) or sinprod "
                        "(prod sin(pi x))", app->function);
  if (strcmp(app->precision, "double") == 0) app->prec = TSR_DOUBLE;
  else if (strcmp(app->precision, "float") == 0) app->prec = TSR_FLOAT;
  else return TSR_RAISE(TSR_ERR_ARG, "--precision '%s': expected double or float", app->precision);
  app->es = tsr_dtype_size(app->prec);
  TSR_CHECK(app->npoints_eval >= 0 && app->npoints_eval <= ((int64_t)1 << 40), TSR_ERR_ARG,
            "--points %lld: expected 0 .. 2^40", (long long)app->npoints_eval);
  if (app->input) TSR_CALL(fastsg_io_open(app)); /* may set D and n */
  TSR_CALL(fastsg_grid_init(app->dim, app->level, &app->grid));
  TSR_CALL(fastsg_check_memory(app)); /* also decides --distribute auto */
  if (app->dist) return fastsg_dist_setup(app, cli);
  const fastsg_grid_t *G = &app->grid;
  app->row0 = 0;
  app->nrows = G->npoints;
  fastsg_block_range(G, app->rank, app->size, &app->b0, &app->b1);
  const int64_t N = G->npoints;
  app->samples = malloc((size_t)N * app->es);
  app->coef = malloc((size_t)N * app->es);
  app->par1d = malloc(fastsg_par1d_count(app->level) * sizeof(uint32_t));
  app->btab = malloc((size_t)G->nblocks * 2 * app->dim);
  TSR_CHECK(app->samples && app->coef && app->par1d && app->btab, TSR_ERR_ALLOC,
            "cannot allocate the grid arrays (%lld points)", (long long)N);
  fastsg_par1d_fill(app->level, app->par1d);
  fastsg_btab_fill(G, app->btab);
  double t0 = tsr_wtime();
  if (app->input && app->in_values) {
    TSR_CALL(fastsg_io_read_values(app));
  } else {
    snprintf(app->source, sizeof app->source, "%s", app->function);
#pragma omp parallel for schedule(static)
    for (int64_t p = 0; p < N; p++) {
      int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
      double x[FASTSG_MAX_DIM];
      int g = fastsg_idx2l(G, p, l);
      fastsg_idx2i(G, p, g, l, i);
      for (int t = 0; t < app->dim; t++) x[t] = fastsg_coord1d(l[t], i[t]);
      fastsg_put(app->samples, app->prec, p, fastsg_fun_eval(app->fun, x, app->dim));
    }
  }
  double t1 = tsr_wtime();
  /* the reference coefficients: cpu/hier/plain when hierarchization
   * variants are verified against them, else ichg1 (bit-identical to plain,
   * tests/unit/check_sparse.c; about 100 times faster at D = 10, n = 11).
   * Above FASTSG_PLAIN_REF_MAX points plain would take minutes to hours
   * (about 0.4 us per point on 16 cores), so ichg1 is the reference there
   * too and the rows say so. */
  const int hv = app->do_hier && cli->verify && N <= FASTSG_PLAIN_REF_MAX ? FASTSG_V_cpu_hier_plain
                                                                          : FASTSG_V_cpu_hier_ichg1;
  app->hier_ref = hv == FASTSG_V_cpu_hier_plain ? "cpu/hier/plain" : "cpu/hier/ichg1";
  memcpy(app->coef, app->samples, (size_t)N * app->es);
  TSR_CALL(fastsg_hierarchize_cpu(app, hv, app->coef));
  double t2 = tsr_wtime();
  /* this rank's evaluation points */
  const int D = app->dim;
  if (app->input && app->in_points) {
    TSR_CALL(fastsg_io_read_points(app));
    app->have_fx = app->in_pvalues;
    if (!app->have_fx && !app->in_values) { /* f is the built-in function */
      for (int64_t k = 0; k < app->m; k++) {
        double x[FASTSG_MAX_DIM];
        for (int t = 0; t < D; t++)
          x[t] = app->prec == TSR_FLOAT ? ((float *)app->x)[k * D + t] : ((double *)app->x)[k * D + t];
        fastsg_put(app->fx, app->prec, k, fastsg_fun_eval(app->fun, x, D));
      }
      app->have_fx = 1;
    }
  } else {
    const int64_t P = app->npoints_eval;
    app->k0 = P * app->rank / app->size;
    app->m = P * (app->rank + 1) / app->size - app->k0;
    app->x = malloc((size_t)(app->m * D + 1) * app->es);
    app->fx = malloc((size_t)(app->m + 1) * app->es);
    TSR_CHECK(app->x && app->fx, TSR_ERR_ALLOC, "cannot allocate %lld points", (long long)app->m);
    app->have_fx = !(app->input && app->in_values); /* values from a file: f unknown */
    for (int64_t k = 0; k < app->m; k++) {
      double x[FASTSG_MAX_DIM];
      for (int t = 0; t < D; t++) {
        x[t] = fastsg_rand01((uint64_t)app->seed, (uint64_t)((app->k0 + k) * D + t));
        if (app->prec == TSR_FLOAT) x[t] = (float)x[t];
        fastsg_put(app->x, app->prec, k * D + t, x[t]);
      }
      fastsg_put(app->fx, app->prec, k, app->have_fx ? fastsg_fun_eval(app->fun, x, D) : 0.0);
    }
  }
  /* the reference values: cpu/eval/plain at a sample of the rank's points,
   * spread evenly over them, at most 2^26 point-blocks of work (~1 s on 16
   * cores) and 2048 points, at least 64 (all when there are fewer) */
  app->nref = 0;
  if (cli->verify && app->do_eval)
    app->nref = TSR_MIN(app->m, TSR_MIN((int64_t)2048,
                                        TSR_MAX((int64_t)64, ((int64_t)1 << 26) / G->nblocks)));
  app->ref = malloc((size_t)(app->nref + 1) * app->es);
  void *xs = malloc((size_t)(app->nref * D + 1) * app->es);
  TSR_CHECK(app->ref && xs, TSR_ERR_ALLOC, "cannot allocate %lld reference points",
            (long long)app->nref);
  for (int64_t s = 0; s < app->nref; s++)
    memcpy((char *)xs + s * D * app->es, (char *)app->x + fastsg_ref_index(app, s) * D * app->es,
           D * app->es);
  fastsg_kernel_args_t A = {.grid = G, .prec = app->prec, .coef = app->coef, .npts = app->nref,
                            .x = xs, .r = app->ref};
  int rc = app->nref > 0 ? fastsg_eval_plain_cpu(&A) : TSR_SUCCESS;
  free(xs);
  TSR_CALL(rc);
  double t3 = tsr_wtime();
  if (app->rank == 0 && !cli->quiet) {
    printf("tsr-fastsg: setup: samples %.2f s, coefficients (%s) %.2f s", t1 - t0, app->hier_ref,
           t2 - t1);
    if (app->nref > 0)
      printf(", reference (cpu/eval/plain at %lld sampled points per rank) %.2f s",
             (long long)app->nref, t3 - t2);
    printf("\n");
    fflush(stdout);
  }
  return TSR_SUCCESS;
}

/* --eval-point: the interpolant (cpu/eval/plain) at each given point. */
static int fastsg_print_points(fastsg_app_t *app, const double *pts, int npts) {
  if (npts == 0 || app->rank != 0) return TSR_SUCCESS;
  const int D = app->dim;
  void *x = malloc((size_t)npts * D * app->es), *r = malloc((size_t)npts * app->es);
  TSR_CHECK(x && r, TSR_ERR_ALLOC, "out of memory");
  for (int k = 0; k < npts * D; k++) fastsg_put(x, app->prec, k, pts[k]);
  fastsg_kernel_args_t A = {.grid = &app->grid, .prec = app->prec, .coef = app->coef,
                            .npts = npts, .x = x, .r = r};
  int rc = fastsg_eval_plain_cpu(&A);
  for (int k = 0; k < npts && rc == 0; k++) {
    printf("u(");
    for (int t = 0; t < D; t++) printf("%s%.17g", t ? ", " : "", pts[k * D + t]);
    double u = app->prec == TSR_FLOAT ? ((float *)r)[k] : ((double *)r)[k];
    printf(") = %.17g   f = %.17g\n", u, fastsg_fun_eval(app->fun, pts + k * D, D));
  }
  fflush(stdout);
  free(x);
  free(r);
  return rc;
}

static void fastsg_free(fastsg_app_t *app) {
  free(app->samples); free(app->coef); free(app->par1d); free(app->btab);
  free(app->x); free(app->fx); free(app->ref); free(app->res);
  free(app->samples_a); fastsg_dist_destroy(&app->plan);
}

/* The options (lib's cli); *done when --help, --version or --list-variants
 * answered. */
static int fastsg_options(fastsg_app_t *app, tsr_cli_t *cli, int argc, char **argv, int *done) {
  app->dim = INT_MIN; /* unset: the input file's, else 2 */
  app->level = INT_MIN; /* unset: the input file's, else 6 */
  app->function = "bump";
  app->mode = "both";
  app->precision = "double";
  app->npoints_eval = 10000;
  app->seed = 1;
  app->distribute = "auto";
  tsr_cli_init(cli, "tsr-fastsg",
               "regular sparse grids without boundary (fastsg): hierarchization and evaluation");
  cli->runs = 5;
  cli->warmup = 1;
  cli->options &= ~(unsigned)TSR_CLI_ITERATIONS; /* one hierarchization or evaluation per run */
  cli->variant_auto = 1; /* fastsg_auto */
  tsr_opt_t opts[] = {
      {"dim", 'd', TSR_OPT_INT, &app->dim, "D", "dimension (1..32; default: -i's, else 2)"},
      {"level", 'n', TSR_OPT_INT, &app->level, "n",
       "level: points with |l|_1 <= n-1 (1..30; default: -i's, else 6)"},
      {"function", 0, TSR_OPT_STRING, &app->function, "NAME",
       "function sampled at the grid points: bump = prod 4x(1-x) (default), sinprod = prod sin(pi x)"},
      {"points", 'p', TSR_OPT_LONG, &app->npoints_eval, "N", "random evaluation points (default 10000)"},
      {"seed", 0, TSR_OPT_LONG, &app->seed, "S", "seed of the evaluation points (default 1)"},
      {"eval-point", 0, TSR_OPT_LIST, &app->eval_points, "x1,..,xD",
       "print the interpolant at this point (repeatable)"},
      {"mode", 0, TSR_OPT_STRING, &app->mode, "MODE", "hierarchize, evaluate or both (default)"},
      {"precision", 0, TSR_OPT_STRING, &app->precision, "P", "double (default) or float"},
      {"distribute", 0, TSR_OPT_STRING, &app->distribute, "yes|no|auto",
       "hold only a share of the coefficients per rank (hierarchization only; sweeps by poles, "
       "cpu|cuda/hier/ichg1); auto (default): when several ranks run --mode hierarchize and the "
       "whole grid does not fit in host memory or on one GPU"},
  };
  const int nopts = (int)(sizeof opts / sizeof opts[0]);
  TSR_CALL(tsr_error_agree(app->comm, tsr_cli_parse(cli, argc, argv, opts, nopts, app->comm, NULL,
                                                    0, NULL)));
  app->dim_given = app->dim != INT_MIN;
  app->level_given = app->level != INT_MIN;
  if (!app->dim_given) app->dim = 2;
  if (!app->level_given) app->level = 6;
  app->input = cli->input;
  app->output = cli->output;
  if (cli->exit_now) return *done = 1, 0;
  if (cli->list_variants) {
    if (app->rank == 0) tsr_variant_list(fastsg_table, FASTSG_NVAR, stdout);
    return *done = 1, 0;
  }
  return 0;
}

/* The variants: --variant, else every variant of the device; whether a
 * CUDA variant will run. */
static int fastsg_select(fastsg_app_t *app, const tsr_cli_t *cli, tsr_selection_t *sel) {
  TSR_CALL(tsr_error_agree(app->comm, tsr_run_select(cli, fastsg_table, FASTSG_NVAR, "cpu/*",
                                                     "cuda/*", sel)));
  for (int k = 0; k < sel->n; k++)
    app->any_cuda |= !tsr_variant_unavailable(&fastsg_table[sel->index[k]]) &&
                     fastsg_table[sel->index[k]].device == TSR_DEV_CUDA;
  return 0;
}

/* The header lines (rank 0): grid, evaluation points, verification. */
static void fastsg_header(const fastsg_app_t *app, const tsr_cli_t *cli) {
  if (app->rank != 0 || cli->quiet) return;
  printf("tsr-fastsg: D = %d, n = %d: %lld grid points (%.4g MiB in %s), %lld blocks, %d rank%s\n",
         app->dim, app->level, (long long)app->grid.npoints,
         (double)app->grid.npoints * app->es / 1048576.0, app->precision,
         (long long)app->grid.nblocks, app->size, app->size > 1 ? "s" : "");
  if (app->do_eval) {
    if (app->input && app->in_points)
      printf("tsr-fastsg: %lld evaluation points from %s", (long long)app->npoints_eval,
             app->input);
    else
      printf("tsr-fastsg: %lld evaluation points (seed %lld)", (long long)app->npoints_eval,
             (long long)app->seed);
    if (app->input && app->in_values)
      printf(", values from %s:/values%s\n", app->input,
             app->have_fx ? ", f at the points from /point_values" : " (f unknown: no error)");
    else
      printf(", function %s, analytic error bound %.17g\n", app->function,
             fastsg_fun_bound(app->fun, app->dim, app->level));
    if (cli->verify)
      printf("tsr-fastsg: evaluation variants are verified against cpu/eval/plain at %lld "
             "sampled points per rank%s\n", (long long)app->nref,
             app->nref < app->m ? " (spread over its points)" : " (all)");
  }
}

/* The coefficient checksum: FNV-1a over the coefficients' 8-byte words,
 * equal for any rank count (rank 0 prints it). */
static int fastsg_print_checksum(const fastsg_app_t *app, const tsr_cli_t *cli) {
  if (!cli->quiet && (app->dist || app->rank == 0)) {
    uint64_t hsh = 0;
    TSR_CALL(fastsg_checksum(app, &hsh));
    if (app->rank == 0) printf("tsr-fastsg: coefficient checksum %016llx\n", (unsigned long long)hsh);
    fflush(stdout);
  }
  return 0;
}

/* Selected variant k: a row saying why it is not run (said only when asked
 * for by name if --mode leaves it out), or timed and verified. */
static int fastsg_variant(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_selection_t *sel,
                          int k, tsr_report_t *rep) {
  const tsr_variant_t *v = &fastsg_table[sel->index[k]];
  int hier = strstr(v->name, "/hier/") != NULL;
  tsr_result_t row;
  tsr_result_init(&row, "fastsg", v, NULL, sel->required[k]);
  const char *why = (hier ? !app->do_hier : !app->do_eval) ? (hier ? "--mode evaluate" : "--mode hierarchize")
                    : tsr_variant_unavailable(v);
  if (!why && hier && app->dist && v->id != FASTSG_V_cpu_hier_ichg1 && v->id != FASTSG_V_cuda_hier_ichg1)
    why = "distributed coefficients are hierarchized by poles (cpu/hier/ichg1, cuda/hier/ichg1)";
  if (!why && v->id >= FASTSG_V_cuda_eval_simplex && v->id <= FASTSG_V_cuda_eval_simplex4_s &&
      app->level > FASTSG_SIMPLEX_MAX_LEVEL)
    why = "the simplex variants are compiled for levels n <= " FASTSG_SIMPLEX_MAX_LEVEL_STR;
  if (why) { /* a variant --mode leaves out is said only when it was asked for by name */
    if (sel->required[k] || (hier ? app->do_hier : app->do_eval)) {
      tsr_result_notrun(&row, "%s", why);
      TSR_CALL(tsr_report_add(rep, &row));
    }
    return 0;
  }
  int rc = hier ? fastsg_run_hier(app, cli, v, rep) : fastsg_run_eval(app, cli, v, rep);
  TSR_CALL(tsr_error_agree(app->comm, rc));
  return 0;
}

/* --variant auto: the hierarchization and the evaluation variants are two
 * choices (they compute different things), each by lib's tsr_auto_run. */
typedef struct {
  fastsg_app_t *app;
  const tsr_selection_t *sel;
  int n, k[FASTSG_NVAR];
  const char *names[FASTSG_NVAR];
} fastsg_auto_t;

static int fastsg_auto_run(void *ctx, int c, const tsr_cli_t *cli, tsr_report_t *rep) {
  fastsg_auto_t *X = ctx;
  return fastsg_variant(X->app, cli, X->sel, X->k[c], rep);
}

static int fastsg_auto(fastsg_app_t *app, const tsr_cli_t *cli, const tsr_selection_t *sel, tsr_report_t *rep) {
  for (int hier = 1; hier >= 0; hier--) {
    if (hier ? !app->do_hier : !app->do_eval) continue;
    fastsg_auto_t X = {app, sel, 0, {0}, {0}};
    for (int k = 0; k < sel->n; k++) {
      const tsr_variant_t *v = &fastsg_table[sel->index[k]];
      if ((strstr(v->name, "/hier/") != NULL) != hier || tsr_variant_unavailable(v)) continue;
      X.k[X.n] = k, X.names[X.n++] = v->name;
    }
    if (X.n == 0) continue;
    char problem[160], devname[sizeof(tsr_device_t){0}.name] = "";
    snprintf(problem, sizeof problem, "%s D=%d n=%d %s %lld points %d ranks", hier ? "hierarchize" : "evaluate",
             app->dim, app->level, app->precision, (long long)app->npoints_eval, app->size);
    tsr_device_t d;
    if (!tsr_device_select(app->comm, fastsg_table[sel->index[X.k[0]]].device, &d))
      snprintf(devname, sizeof devname, "%s", d.name);
    tsr_error_clear();
    TSR_CALL(tsr_auto_run(cli, app->comm, problem, devname, X.n, X.names, fastsg_auto_run, &X, rep));
  }
  return TSR_SUCCESS;
}

static int fastsg_main(fastsg_app_t *app, int argc, char **argv) {
  tsr_cli_t cli;
  tsr_selection_t sel;
  tsr_report_t *rep;
  int done = 0;
  TSR_CALL(fastsg_options(app, &cli, argc, argv, &done)); /* options */
  if (done) return 0;
  TSR_CALL(fastsg_select(app, &cli, &sel)); /* variants */
  double *pts = NULL;
  int npts = 0;
  int rc = fastsg_setup(app, &cli); /* the problem; -i may set D: --eval-point is read after */
  if (rc == 0) rc = fastsg_parse_points(app, &pts, &npts);
  TSR_CALL(tsr_error_agree(app->comm, rc));
  fastsg_header(app, &cli);
  TSR_CALL(fastsg_print_checksum(app, &cli));
  TSR_CALL(tsr_error_agree(app->comm, fastsg_print_points(app, pts, npts)));
  TSR_CALL(tsr_report_create(&rep));
  if (sel.autotune) TSR_CALL(fastsg_auto(app, &cli, &sel, rep)); /* --variant auto */
  for (int k = 0; k < sel.n && !sel.autotune; k++) TSR_CALL(fastsg_variant(app, &cli, &sel, k, rep)); /* run, verify */
  if (app->output) TSR_CALL(fastsg_io_write(app, &cli)); /* output */
  TSR_CALL(tsr_report_finish(rep, &cli, app->comm)); /* report */
  tsr_report_destroy(&rep);
  tsr_selection_free(&sel);
  free(pts);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-fastsg");
  fastsg_app_t app;
  memset(&app, 0, sizeof app);
  app.comm = MPI_COMM_WORLD;
  MPI_Comm_rank(app.comm, &app.rank);
  MPI_Comm_size(app.comm, &app.size);
  TSR_CALL_ABORT(app.comm, fastsg_main(&app, argc, argv));
  fastsg_free(&app);
  MPI_Finalize();
  return 0;
}
