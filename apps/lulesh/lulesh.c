/* tsr-lulesh: LULESH 2.0's Lagrangian shock hydrodynamics (the Sedov blast
 * on a hex mesh) with LULESH's command line and its "Run completed" block.
 *
 * The mesh is LULESH's Sedov cube of -s N elements per edge, built in memory
 * (kernels/lulesh: lulesh_mesh_sedov) with -r regions of balance -b and EOS
 * cost -c. One run is the whole simulation: from the initial state (set up
 * untimed before each run) until the stop time or -i cycles, as LULESH's
 * timed loop. --warmup untimed and --runs timed runs (default 0 and 1, as
 * LULESH runs once) give the elapsed time, the grind time (microseconds
 * per zone per cycle) and the figure of merit in zone-cycles per second.
 *
 * Variants: cpu/gather, the serial CPU reference: per-corner forces of
 * every element, then a gather over each node's corners (CSR), LULESH's
 * own order of operations. It runs on one rank.
 *
 * Verification (unless --no-verify): the cycle count, e(0), the total
 * energy and the first dt against LULESH 2.0's serial results where the
 * flags match one (lulesh_check.c), PASS or FAIL; other runs are "not
 * verified". A VolumeError or QStopError ends the run with one line and a
 * non-zero exit.
 */
#include "config.h"
#include "tessera.h"
#include "apps/lulesh/lulesh_app.h"

#include <stdlib.h>
#include <string.h>

enum { LV_CPU_GATHER };
static const tsr_variant_t variants[] = {
    {"cpu/gather", TSR_DEV_CPU,
     "serial CPU: per-corner forces, then a CSR gather per node (LULESH's order)", LV_CPU_GATHER},
};
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

typedef struct {
  tsr_cli_t cli;
  lulesh_opts_t o;
  lulesh_mesh_t mesh;
} app_t;

/* One run's context: the state is rebuilt before every run (untimed). */
typedef struct {
  const app_t *A;
  lulesh_state_t s;
  int have_state;
  lulesh_outcome_t out;
} lv_run_t;

static int lv_reset(void *p, const tsr_run_sample_t *smp) {
  lv_run_t *x = p;
  (void)smp;
  if (x->have_state) lulesh_state_free(&x->s);
  x->have_state = 0;
  TSR_CALL(lulesh_state_init(&x->s, &x->A->mesh, x->A->o.cost));
  x->have_state = 1;
  memset(&x->out, 0, sizeof x->out);
  return TSR_SUCCESS;
}

/* LULESH's main loop: steps until the stop time or -i cycles; with -p, the
 * progress line of every cycle as LULESH prints it (first timed run). */
static int lv_run(void *p, tsr_run_sample_t *smp) {
  lv_run_t *x = p;
  lulesh_state_t *s = &x->s;
  const lulesh_opts_t *o = &x->A->o;
  int show = o->progress && !x->A->cli.quiet && !smp->warmup && smp->k == 0;
  while (s->time < s->stoptime && (o->its <= 0 || s->cycle < o->its)) {
    TSR_CALL(lulesh_step(s));
    if (s->cycle <= LULESH_NDT) x->out.dt[s->cycle - 1] = s->deltatime, x->out.ndt = s->cycle;
    if (show) printf("cycle = %d, time = %e, dt=%e\n", s->cycle, s->time, s->deltatime);
  }
  lulesh_result_t *r = &x->out.res;
  r->cycles = s->cycle;
  r->time = s->time;
  r->e_origin = s->e[x->A->mesh.origin];
  double t = 0.0;
  for (int32_t e = 0; e < s->num_elem; e++) t += s->e[e];
  r->e_total = t;
  return TSR_SUCCESS;
}

static int run_variant(app_t *A, const tsr_variant_t *v, int required, tsr_report_t *rep) {
  MPI_Comm comm = MPI_COMM_WORLD;
  tsr_result_t row;
  tsr_result_init(&row, "lulesh", v, NULL, required);
  snprintf(row.precision, sizeof row.precision, "double");
  row.size[0] = row.size[1] = row.size[2] = A->o.edge;
  const char *why = tsr_variant_unavailable(v);
  if (why) {
    tsr_result_notrun(&row, "%s", why);
    return tsr_report_add(rep, &row);
  }
  tsr_device_t dev;
  TSR_CALL(tsr_device_select(comm, v->device, &dev));
  /* the variant is serial: one thread, whatever OpenMP would give the rank */
  snprintf(row.device, sizeof row.device, "CPU (1 thread)");
  snprintf(row.config, sizeof row.config, "r=%d b=%d c=%d", A->o.regions, A->o.balance,
           A->o.cost);
  lv_run_t x;
  memset(&x, 0, sizeof x);
  x.A = A;
  tsr_run_t sp = {.prog = "tsr-lulesh", .label = v->name, .comm = comm, .dev = &dev,
                  .timing = TSR_TIME_WALL, .warmup = A->cli.warmup, .runs = A->cli.runs,
                  .barrier = 1, .quiet = A->cli.quiet, .reset = lv_reset, .run = lv_run,
                  .ctx = &x};
  tsr_run_result_t res;
  int rc = tsr_run(&sp, &res);
  if (rc) {
    if (x.have_state) lulesh_state_free(&x.s);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  row.time = res.time;
  double zc = (double)x.s.num_elem * (double)x.out.res.cycles;
  snprintf(row.fom_name, sizeof row.fom_name, "zone_cycles_per_s");
  snprintf(row.fom_unit, sizeof row.fom_unit, "zc/s");
  row.fom = zc / res.time.median;
  snprintf(row.figure, sizeof row.figure, "cycles=%d e0=%.17g grind_us=%.6g",
           x.out.res.cycles, x.out.res.e_origin, res.time.median * 1e6 / zc);
  if (A->cli.verify)
    lulesh_reference_check(&A->o, &x.out, &row);
  else {
    row.verify = TSR_VERIFY_SKIPPED;
    snprintf(row.note, sizeof row.note, "--no-verify");
  }
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (!A->cli.quiet && rank == 0)
    lulesh_print_completed(&A->o, &x.s, &x.out, row.ranks, res.time.median, A->cli.runs, &row);
  lulesh_state_free(&x.s);
  return tsr_report_add(rep, &row);
}

static int app(int argc, char **argv) {
  MPI_Comm comm = MPI_COMM_WORLD;
  app_t A;
  memset(&A, 0, sizeof A);
  A.o = (lulesh_opts_t){.edge = 30, .its = 0, .regions = 11, .balance = 1, .cost = 1};
  /* options: LULESH's flags, then the common ones tsr-lulesh honours */
  tsr_cli_init(&A.cli, "tsr-lulesh",
               "LULESH 2.0 shock hydrodynamics (Sedov blast, hex mesh); -s -i -r -b -c -p -q "
               "are LULESH's flags with LULESH's meanings");
  A.cli.options = TSR_CLI_VARIANTS | TSR_CLI_RUNS | TSR_CLI_CSV | TSR_CLI_VERIFY | TSR_CLI_QUIET;
  A.cli.single_rank = 1;
  A.cli.runs = 1;
  A.cli.warmup = 0;
  int its = -1;
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_INT, &A.o.edge, "N", "LULESH: elements per cube edge (default 30)"},
      {"its", 'i', TSR_OPT_INT, &its, "N", "LULESH: stop after N cycles (default: run to the stop time)"},
      {"regions", 'r', TSR_OPT_INT, &A.o.regions, "N", "LULESH: number of regions (default 11)"},
      {"balance", 'b', TSR_OPT_INT, &A.o.balance, "N", "LULESH: region balance (default 1)"},
      {"cost", 'c', TSR_OPT_INT, &A.o.cost, "N", "LULESH: extra EOS cost of costly regions (default 1)"},
      {"progress", 'p', TSR_OPT_FLAG, &A.o.progress, NULL,
       "LULESH: print \"cycle = N, time = T, dt=D\" every cycle"},
  };
  TSR_CALL(tsr_cli_parse(&A.cli, argc, argv, opts, (int)(sizeof opts / sizeof *opts), comm, NULL,
                         0, NULL));
  if (A.cli.exit_now) return TSR_SUCCESS;
  if (A.cli.list_variants) {
    tsr_variant_list(variants, NVAR, stdout);
    return TSR_SUCCESS;
  }
  TSR_CHECK(its == -1 || its >= 1, TSR_ERR_ARG, "option -i: %d cycles, expected N >= 1", its);
  A.o.its = its > 0 ? its : 0;
  TSR_CHECK(A.o.cost >= 0, TSR_ERR_ARG, "option -c: cost %d, expected >= 0", A.o.cost);
  /* variants: cpu/gather only so far (the CPU default whatever the machine) */
  tsr_selection_t sel;
  TSR_CALL(tsr_run_select(&A.cli, variants, NVAR, "cpu/gather", "cpu/gather", &sel));
  /* up front: ~16 doubles per node, ~40 per element, 6 x 8 corner values and
     two 8-index lists per element (the state and mesh lulesh_state_init fills) */
  {
    const double e = A.o.edge, nn = (e + 1) * (e + 1) * (e + 1), ne = e * e * e;
    char what[64];
    snprintf(what, sizeof what, "tsr-lulesh -s %d", A.o.edge);
    const int mrc = tsr_memory_check(comm, what, nn * 16 * 8 + ne * (40 * 8 + 48 * 8 + 16 * 4), 0);
    if (mrc) tsr_selection_free(&sel);
    TSR_CALL(mrc);
  }
  /* problem: LULESH's Sedov cube */
  int rc = lulesh_mesh_sedov(&A.mesh, A.o.edge, A.o.regions, A.o.balance);
  if (rc) {
    tsr_selection_free(&sel);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  if (!A.cli.quiet) {
    if (A.o.its > 0)
      printf("Running problem size %d^3 per domain for at most %d cycles\n", A.o.edge, A.o.its);
    else
      printf("Running problem size %d^3 per domain until completion\n", A.o.edge);
    printf("Num processors: 1\nTotal number of elements: %d\n", A.mesh.num_elem);
    printf("Regions: %d, balance %d, cost %d\n\n", A.o.regions, A.o.balance, A.o.cost);
  }
  tsr_report_t *rep;
  TSR_CALL(tsr_report_create(&rep));
  for (int i = 0; i < sel.n && !rc; i++)
    rc = run_variant(&A, &variants[sel.index[i]], sel.required[i], rep);
  if (!rc) rc = tsr_report_finish(rep, &A.cli, comm);
  tsr_report_destroy(&rep);
  tsr_selection_free(&sel);
  lulesh_mesh_free(&A.mesh);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : TSR_SUCCESS;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname(argv[0]);
  TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_error_agree(MPI_COMM_WORLD, app(argc, argv)));
  MPI_Finalize();
  return EXIT_SUCCESS;
}
