/* tsr-layoutbench: the Noarr paper's layout experiments (ICA3PP 2022) on Tessera's layout API.
 *
 *   cpu|cuda/matmul/AxB=C   the layout-agnostic tiled matmul (float) for
 *                           every combination of the matrix layouts R, C,
 *                           RC, CR, RR, CC (kernels/layout/matmul.h), at
 *                           each --size N; time / N^3 and the speed-up over
 *                           R x R = R on the same device; each combination
 *                           verified against an independent CPU reference
 *   cuda/cublas             cuBLAS SGEMM (R x R = R), the reference rate
 *   cpu|cuda/transform/S-D  tsr_layout_transform_device of an N x N float
 *                           matrix from layout S to D; after the matmul
 *                           rows, "best+transform" rows say whether
 *                           transforming R inputs to the best layouts (and
 *                           the output back) beats R x R = R at that N
 *   cpu/stencil/CC/BUILD    100 sweeps (--iterations) of the 7-point
 *                           stencil on a 32 x 32 x 2^20 float grid, one
 *                           source built with run-time extents (runtime),
 *                           constant extents through the layout (cindex),
 *                           and constant extents and loop bounds (cloops),
 *                           by gcc and by clang (-O3)
 * docs/LAYOUTBENCH.md explains the experiments, the columns and the results.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/layoutbench/layoutbench.h"

#define NMATMUL (MATMUL_NKINDS * MATMUL_NKINDS * MATMUL_NKINDS)
#define NTRANSFORM (2 * (MATMUL_NKINDS - 1))
#define NVAR (2 * NMATMUL + 1 + 2 * NTRANSFORM + 6)

static char names[NVAR][48];
static char helps[NVAR][96];
static tsr_variant_t table[NVAR];

static const char *const cc_name[2] = {"gcc", "clang"};
static const char *const build_name[3] = {"runtime", "cindex", "cloops"};
static const char *const build_help[3] = {
    "extents and strides from a run-time tsr_layout_t", "constant layout for the offsets, "
    "run-time loop bounds", "constant layout for the offsets and the loop bounds"};

static int add(int n, const char *name, tsr_devkind_t dev, const char *help, int id) {
  snprintf(names[n], sizeof names[n], "%s", name);
  snprintf(helps[n], sizeof helps[n], "%s", help);
  table[n].name = names[n];
  table[n].help = helps[n];
  table[n].device = dev;
  table[n].id = id;
  return n + 1;
}

static int build_table(void) {
  int n = 0;
  char name[48], help[96];
  for (int d = 0; d < 2; d++) {
    const char *dn = d ? "cuda" : "cpu";
    for (int ia = 0; ia < MATMUL_NKINDS; ia++)
      for (int ib = 0; ib < MATMUL_NKINDS; ib++)
        for (int ic = 0; ic < MATMUL_NKINDS; ic++) {
          const char *a = tsr_layout_kind_short(matmul_kinds[ia]),
                     *b = tsr_layout_kind_short(matmul_kinds[ib]),
                     *c = tsr_layout_kind_short(matmul_kinds[ic]);
          snprintf(name, sizeof name, "%s/matmul/%sx%s=%s", dn, a, b, c);
          snprintf(help, sizeof help, "tiled matmul, A in %s, B in %s, C in %s", a, b, c);
          n = add(n, name, d ? TSR_DEV_CUDA : TSR_DEV_CPU, help,
                  LB_ID(LB_MATMUL, (ia * MATMUL_NKINDS + ib) * MATMUL_NKINDS + ic));
        }
  }
  n = add(n, "cuda/cublas", TSR_DEV_CUDA, "cuBLAS SGEMM, R x R = R (reference rate)",
          LB_ID(LB_CUBLAS, 0));
  for (int d = 0; d < 2; d++)
    for (int i = 1; i < MATMUL_NKINDS; i++)
      for (int back = 0; back < 2; back++) {
        int from = back ? matmul_kinds[i] : TSR_LAYOUT_ROWMAJOR;
        int to = back ? TSR_LAYOUT_ROWMAJOR : matmul_kinds[i];
        snprintf(name, sizeof name, "%s/transform/%s-%s", d ? "cuda" : "cpu",
                 tsr_layout_kind_short(from), tsr_layout_kind_short(to));
        snprintf(help, sizeof help, "tsr_layout_transform_device of an N x N float matrix, %s to %s",
                 tsr_layout_kind_short(from), tsr_layout_kind_short(to));
        n = add(n, name, d ? TSR_DEV_CUDA : TSR_DEV_CPU, help, LB_ID(LB_TRANSFORM, from * 8 + to));
      }
  for (int c = 0; c < 2; c++)
    for (int b = 0; b < 3; b++) {
      snprintf(name, sizeof name, "cpu/stencil/%s/%s", cc_name[c], build_name[b]);
      snprintf(help, sizeof help, "7-point stencil, %s -O3: %s", cc_name[c], build_help[b]);
      n = add(n, name, TSR_DEV_CPU, help, LB_ID(LB_STENCIL, c * 3 + b));
    }
  return n;
}

/* The selection's entry of a variant name: its table row and whether it
 * was asked for by name. */
static const tsr_variant_t *lb_variant(const lb_t *B, const char *name, int *required) {
  *required = 0;
  for (int k = 0; k < B->sel.n; k++)
    if (strcmp(B->table[B->sel.index[k]].name, name) == 0) {
      *required = B->sel.required[k];
      return &B->table[B->sel.index[k]];
    }
  return NULL;
}

tsr_result_t lb_row(const lb_t *B, const char *variant, const tsr_device_t *dev,
                    const char *precision) {
  tsr_result_t r;
  int required;
  const tsr_variant_t *v = lb_variant(B, variant, &required);
  tsr_variant_t named = {variant, dev ? dev->kind : TSR_DEV_CPU, "", 0};
  tsr_result_init(&r, "layout", v ? v : &named, dev, required);
  snprintf(r.precision, sizeof r.precision, "%s", precision);
  r.ranks = 1;
  return r;
}

int lb_skip(lb_t *B, const char *variant, int64_t n, const char *why) {
  tsr_result_t r = lb_row(B, variant, NULL, "-");
  r.size[0] = r.size[1] = r.size[2] = n;
  tsr_result_notrun(&r, "%s", why);
  TSR_CALL(tsr_report_add(B->rep, &r));
  return TSR_SUCCESS;
}

typedef struct {
  int (*fn)(void *);
  void *arg;
} lb_job_t;

static int lb_timed(void *ctx, tsr_run_sample_t *s) {
  const lb_job_t *j = ctx;
  (void)s;
  return j->fn(j->arg);
}

int lb_time(const lb_t *B, const char *label, const tsr_device_t *dev, int warmup, int runs,
            int (*fn)(void *), void *arg, tsr_stats_t *st) {
  lb_job_t j = {fn, arg};
  tsr_run_t sp = {.prog = "tsr-layoutbench", .label = label, .comm = MPI_COMM_SELF, .dev = dev,
                  .timing = TSR_TIME_DEVICE, .warmup = warmup, .runs = runs,
                  .max_seconds = B->max_seconds, .min_runs = 3, .quiet = B->cli.quiet,
                  .run = lb_timed, .ctx = &j};
  tsr_run_result_t res;
  TSR_CALL(tsr_run(&sp, &res));
  *st = res.time;
  return TSR_SUCCESS;
}

static int parse_sizes(const char *s, lb_t *B) {
  B->nsizes = 0;
  const char *p = s;
  while (*p) {
    char *end;
    long long v = strtoll(p, &end, 10);
    TSR_CHECK(end != p && v >= 1 && v <= 1000000 && (*end == ',' || *end == 0), TSR_ERR_ARG,
              "option --size '%s': expected a comma-separated list of matrix sizes N >= 1", s);
    TSR_CHECK(B->nsizes < LB_MAXSIZES, TSR_ERR_ARG, "option --size: at most %d sizes",
              LB_MAXSIZES);
    B->sizes[B->nsizes++] = v;
    p = *end ? end + 1 : end;
  }
  TSR_CHECK(B->nsizes > 0, TSR_ERR_ARG, "option --size: no size given");
  return TSR_SUCCESS;
}

/* The options (lib's cli) and their checks; *done when --help, --version or
 * --list-variants answered; *sizes and *stencil: the lists used. */
static int lb_options(lb_t *B, int argc, char **argv, int nv, const char **sizesp,
                      const char **stencilp, int *done) {
  MPI_Comm comm = MPI_COMM_WORLD;
  tsr_cli_init(&B->cli, "tsr-layoutbench",
               "the Noarr paper's layout experiments: tiled matmul over layout combinations, "
               "layout transforms, constant vs run-time extents");
  B->cli.options &= ~(unsigned)(TSR_CLI_INPUT | TSR_CLI_OUTPUT); /* reads and writes no file */
  B->cli.single_rank = 1;
  B->cli.iterations = 100;
  B->cli.warmup = 1;
  B->tile = TSR_LAYOUT_TILE;
  B->align = 1;
  B->cpu_max_n = 2048;
  B->cpu_runs = 3;
  B->max_seconds = 2.0;
  B->verify_full = 2048;
  B->verify_rows = 24;
  B->stencil_runs = 3;
  /* defaults by device: the GPU's (documented) sizes, or sizes a CPU run
   * finishes in well under a minute with */
  const char *sizes = NULL, *stencil = NULL;
  tsr_opt_t opts[] = {
      {"size", 0, TSR_OPT_STRING, &sizes, "N[,N..]",
       "square matrix sizes (default " LB_GPU_SIZES " on a GPU, " LB_CPU_SIZES " on the CPU)"},
      {"tile", 0, TSR_OPT_INT, &B->tile, "T", "tile side of RC, CR, RR, CC (power of two, default 16)"},
      {"align", 0, TSR_OPT_LONG, &B->align, "A", "alignment of R and C rows/columns, elements (default 1)"},
      {"cpu-max-n", 0, TSR_OPT_LONG, &B->cpu_max_n, "N", "skip CPU matmuls above this N (default 2048)"},
      {"cpu-runs", 0, TSR_OPT_INT, &B->cpu_runs, "N", "timed runs of a CPU matmul (default 3)"},
      {"max-seconds", 0, TSR_OPT_DOUBLE, &B->max_seconds, "S",
       "stop timing a variant after S seconds, >= 3 runs (default 2)"},
      {"verify-full", 0, TSR_OPT_LONG, &B->verify_full, "N",
       "verify every row up to this N, sampled rows above (default 2048)"},
      {"verify-rows", 0, TSR_OPT_INT, &B->verify_rows, "R", "rows verified above --verify-full (default 24)"},
      {"stencil-size", 0, TSR_OPT_STRING, &stencil, "NXxNYxNZ",
       "stencil grid, x fastest (default " LB_GPU_STENCIL ", the constant builds' shape, on a "
       "GPU machine; " LB_CPU_STENCIL " on the CPU)"},
      {"stencil-runs", 0, TSR_OPT_INT, &B->stencil_runs, "N",
       "timed runs of --iterations sweeps per stencil build (default 3)"},
  };
  const int nopts = (int)(sizeof opts / sizeof opts[0]);
  TSR_CALL(tsr_cli_parse(&B->cli, argc, argv, opts, nopts, comm, NULL, 0, NULL));
  if (B->cli.exit_now) return *done = 1, TSR_SUCCESS;
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (B->cli.list_variants) {
    if (rank == 0) tsr_variant_list(table, nv, stdout);
    return *done = 1, TSR_SUCCESS;
  }
  const int gpu = strcmp(B->cli.device, "cuda") == 0 ||
                  (strcmp(B->cli.device, "auto") == 0 && tsr_device_cuda_count() > 0);
  if (!sizes) sizes = gpu ? LB_GPU_SIZES : LB_CPU_SIZES;
  if (!stencil) stencil = gpu ? LB_GPU_STENCIL : LB_CPU_STENCIL;
  *sizesp = sizes, *stencilp = stencil;
  TSR_CALL(parse_sizes(sizes, B));
  TSR_CALL(tsr_parse_size3(stencil, B->stencil));
  TSR_CHECK(B->tile >= 1 && B->tile <= TSR_LAYOUT_MAX_TILE && (B->tile & (B->tile - 1)) == 0,
            TSR_ERR_ARG, "option --tile: %d, expected a power of two in 1..%d", B->tile,
            TSR_LAYOUT_MAX_TILE);
  TSR_CHECK(B->align >= 1 && B->align <= 4096, TSR_ERR_ARG, "option --align: %lld, expected 1..4096",
            (long long)B->align);
  TSR_CHECK(B->cpu_runs >= 1 && B->stencil_runs >= 1 && B->verify_rows >= 1 && B->max_seconds > 0,
            TSR_ERR_ARG, "options --cpu-runs, --stencil-runs, --verify-rows and --max-seconds "
            "must be positive");
  TSR_CHECK(B->stencil[0] >= 3 && B->stencil[1] >= 3 && B->stencil[2] >= 3, TSR_ERR_ARG,
            "option --stencil-size: every extent must be >= 3");
  return TSR_SUCCESS;
}

/* Up front, the larger of the two phases (they run one after the other):
 * the largest matmul's host arrays (a, b, the result and its copy in C's
 * layout: 4 N^2 floats; reference and bounds of the verified rows: 2 x rows
 * x N doubles) or the stencil's five host grids; on a GPU (a CUDA variant
 * selected) four N^2 matrices (A, B, C, a temporary) or two grids. Tile and
 * alignment padding: an eighth more. */
static int lb_memory_check(const lb_t *B) {
  double n = 0, cuda = 0;
  for (int i = 0; i < B->nsizes; i++) n = B->sizes[i] > n ? (double)B->sizes[i] : n;
  for (int i = 0; i < B->sel.n; i++) cuda += B->table[B->sel.index[i]].device == TSR_DEV_CUDA;
  const double rows = n <= (double)B->verify_full ? n : (double)B->verify_rows;
  const double cells = (double)B->stencil[0] * (double)B->stencil[1] * (double)B->stencil[2];
  const double mm = 4 * n * n * 4 + 2 * rows * n * 8, st = 5 * cells * 4;
  const double dmm = 4 * n * n * 4, dst = 2 * cells * 4;
  const double host = 1.125 * (mm > st ? mm : st), dev = 1.125 * (dmm > dst ? dmm : dst);
  return tsr_memory_check(MPI_COMM_WORLD, "tsr-layoutbench", host, cuda > 0 ? dev : 0);
}

static int bench(int argc, char **argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  lb_t B;
  memset(&B, 0, sizeof B);
  const int nv = build_table();
  const char *sizes = NULL, *stencil = NULL;
  int done = 0;
  TSR_CALL(lb_options(&B, argc, argv, nv, &sizes, &stencil, &done)); /* options */
  if (done) return TSR_SUCCESS;
  B.table = table;
  TSR_CALL(tsr_run_select(&B.cli, table, nv, "cpu/*", "cuda/*", &B.sel)); /* variants */
  int *sel = B.sel.index, nsel = B.sel.n;
  int rc = lb_memory_check(&B);
  if (!rc) rc = tsr_report_create(&B.rep);
  if (!rc && !B.cli.quiet)
    printf("tsr-layoutbench: %d variants; sizes %s; stencil %s; tile %d; %d warm-up + up to %d "
           "timed runs (CPU matmul %d), %g s per variant at most\n",
           nsel, sizes, stencil, B.tile, B.cli.warmup, B.cli.runs, B.cpu_runs, B.max_seconds);
  if (!rc) rc = lb_matmul_run(&B, table, sel, nsel);  /* run, verify: the matmuls, */
  if (!rc) rc = lb_stencil_run(&B, table, sel, nsel); /* the stencil builds */
  if (!rc) rc = tsr_report_finish(B.rep, &B.cli, comm); /* report */
  tsr_report_destroy(&B.rep);
  tsr_selection_free(&B.sel);
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname(argv[0]);
  TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, bench(argc, argv)));
  matmul_cublas_release();
  MPI_Finalize();
  return EXIT_SUCCESS;
}
