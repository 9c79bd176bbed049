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
 * Variants (--list-variants): cpu/gather, the serial CPU reference: per-
 * corner forces of every element, then a gather over each node's corners
 * (CSR), LULESH's own order of operations; and the whole step on one GPU
 * with one of four node-force assemblies (kernels/lulesh/lulesh_cuda.h):
 * cuda/gather (the CPU's bits), cuda/atomic, cuda/colour, cuda/twolevel, and
 * cuda/atomic-fma (cuda/atomic's heavy kernels with FMA contraction).
 * --reorder renumbers the mesh first (lulesh_order.c), --block and
 * --no-fuse set the CUDA kernels' shape.
 *
 * Several ranks (lulesh_dist.c): LULESH's decomposition (--decomp cube,
 * the default when the rank count is a cube: -s elements per edge of each
 * rank's box), a grid of boxes of the cube of edge -s (--decomp block, the
 * default for other rank counts) or a METIS partition of it (--decomp
 * metis, any rank count), with the exchanges of kernels/lulesh/lulesh_dist.h (the
 * CPU step's, and the GPU step's on device arrays: --halo picks their transport).
 * --input reads a hex-mesh file on any rank count (each rank its part) and
 * -o writes the final state in the global numbering (lulesh_io.c);
 * --checkpoint-every and --restart checkpoint and resume a run on any rank
 * count (lulesh_ckpt.c).
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

/* the declarations only; the calls need a CUDA build (TSR_HAVE_CUDA) */
#include "kernels/lulesh/lulesh_cuda.h"

enum {
  LV_CPU_GATHER,
  LV_CUDA_GATHER,
  LV_CUDA_ATOMIC,
  LV_CUDA_COLOUR,
  LV_CUDA_TWOLEVEL,
  LV_CUDA_ATOMIC_FMA
};
static const tsr_variant_t variants[] = {
    {"cpu/gather", TSR_DEV_CPU,
     "serial CPU: per-corner forces, then a CSR gather per node (LULESH's order)", LV_CPU_GATHER},
    {"cuda/gather", TSR_DEV_CUDA,
     "GPU: per-corner forces [3][8 ne], then a CSR gather per node fused with the node update; "
     "the CPU's bits", LV_CUDA_GATHER},
    {"cuda/atomic", TSR_DEV_CUDA,
     "GPU: each element adds its corner forces with FP64 atomicAdd (no temporaries; sums in "
     "varying order)", LV_CUDA_ATOMIC},
    {"cuda/colour", TSR_DEV_CUDA,
     "GPU: greedy element colouring, one launch per colour, plain adds", LV_CUDA_COLOUR},
    {"cuda/twolevel", TSR_DEV_CUDA,
     "GPU: Sulyok et al. 2019: element blocks stage node increments in shared memory, thread "
     "and block colours", LV_CUDA_TWOLEVEL},
    {"cuda/atomic-fma", TSR_DEV_CUDA,
     "GPU: cuda/atomic with the element forces and Q + EOS built with FMA contraction (not the "
     "CPU's roundings)", LV_CUDA_ATOMIC_FMA},
};
/* The default CUDA variant (the fastest on an H100: BENCHMARKS.md). */
#define LV_CUDA_DEFAULT "cuda/atomic-fma"
#define NVAR ((int)(sizeof variants / sizeof variants[0]))

typedef struct {
  tsr_cli_t cli;
  lulesh_opts_t o;
  lulesh_mesh_t mesh;
  lulesh_dist_t *dist; /* several ranks: the exchanges */
  /* GPU and element order options */
  const char *reorder, *halo;
  int block, nofuse, profile, nooverlap;
  lulesh_reorder_t order;
  lulesh_ckpt_t ckpt; /* --checkpoint-every, --restart */
} app_t;

/* One run's context: the state is rebuilt before every run (untimed); a
 * CUDA variant's device state is made once (with its colouring or plan)
 * and the fresh state uploaded before every run. */
typedef struct {
  const app_t *A;
  const char *name; /* the variant */
  int cuda;
  lulesh_cuda_opts_t copts;
  lulesh_state_t s;
  int have_state;
#ifdef TSR_HAVE_CUDA
  lulesh_cuda_t d;
  int have_dev;
#endif
  lulesh_outcome_t out;
} lv_run_t;

static int lv_reset(void *p, const tsr_run_sample_t *smp) {
  lv_run_t *x = p;
  (void)smp;
  if (x->have_state) lulesh_state_free(&x->s);
  x->have_state = 0;
  TSR_CALL(lulesh_state_init_ex(&x->s, &x->A->mesh, x->A->o.cost,
                                x->A->dist ? lulesh_dist_exchange(x->A->dist) : NULL));
  x->have_state = 1;
  memset(&x->out, 0, sizeof x->out);
  lulesh_ckpt_apply(&x->A->ckpt, &x->s, &x->out); /* --restart: the checkpoint's state */
#ifdef TSR_HAVE_CUDA
  if (x->cuda && !x->have_dev) {
    TSR_CALL(lulesh_cuda_init_opts(&x->d, &x->s, &x->copts));
    x->have_dev = 1;
  } else if (x->cuda)
    TSR_CALL(lulesh_cuda_copy(&x->d, &x->s, LULESH_CUDA_TO_DEVICE));
#endif
  return TSR_SUCCESS;
}

/* One cycle of the run's variant. */
static int lv_step(lv_run_t *x) {
#ifdef TSR_HAVE_CUDA
  if (x->cuda) return lulesh_cuda_step(&x->d, &x->s);
#endif
  return lulesh_step(&x->s);
}

/* LULESH's main loop: steps until the stop time or -i cycles; with -p, the
 * progress line of every cycle as LULESH prints it (first timed run). */
static int lv_run(void *p, tsr_run_sample_t *smp) {
  lv_run_t *x = p;
  lulesh_state_t *s = &x->s;
  const lulesh_opts_t *o = &x->A->o;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int show = o->progress && !x->A->cli.quiet && !smp->warmup && smp->k == 0 && rank == 0;
  while (s->time < s->stoptime && (o->its <= 0 || s->cycle < o->its)) {
    TSR_CALL(lv_step(x));
    if (s->cycle <= LULESH_NDT) x->out.dt[s->cycle - 1] = s->deltatime, x->out.ndt = s->cycle;
    if (show) printf("cycle = %d, time = %e, dt=%e\n", s->cycle, s->time, s->deltatime);
    /* --checkpoint-every N: after every N-th cycle of the first timed run */
    const tsr_cli_t *cli = &x->A->cli;
    if (!smp->warmup && smp->k == 0 && tsr_checkpoint_due(s->cycle, cli->checkpoint_every)) {
#ifdef TSR_HAVE_CUDA
      if (x->cuda) TSR_CALL(lulesh_cuda_copy(&x->d, s, LULESH_CUDA_TO_HOST));
#endif
      TSR_CALL(lulesh_ckpt_write(MPI_COMM_WORLD, &x->A->ckpt, cli, &x->A->mesh, x->A->dist, s,
                                 &x->out, x->name));
      if (!cli->quiet && rank == 0)
        printf("checkpoint at cycle %d written to %s\n", s->cycle, cli->checkpoint);
    }
  }
  return TSR_SUCCESS;
}

/* After the timed runs: the last run's final state (from the GPU) and the
 * global outcome (lulesh_app_outcome, collective). The energies stay in the
 * run's numbering: LULESH's symmetry test finds plane 0 by position. */
static int lv_finish(lv_run_t *x) {
#ifdef TSR_HAVE_CUDA
  if (x->cuda) TSR_CALL(lulesh_cuda_copy(&x->d, &x->s, LULESH_CUDA_TO_HOST));
#endif
  return lulesh_app_outcome(x->A->dist, &x->A->o, &x->s, &x->out);
}

/* --profile: one more run of a CUDA variant with every stage timed (CUDA
 * events, waited for per stage): calls, seconds, the stage's floor bytes
 * (docs/LULESH.md), GB/s and the fraction of the floor's time at the
 * device's measured copy bandwidth. Leaves the state as lv_reset does. */
static int lv_profile(lv_run_t *x, const char *name, double ceiling) {
#ifdef TSR_HAVE_CUDA
  lulesh_cuda_prof_t p;
  memset(&p, 0, sizeof p);
  const lulesh_opts_t *o = &x->A->o;
  const lulesh_outcome_t keep = x->out; /* the timed runs' outcome */
  TSR_CALL(lv_reset(x, NULL));
  x->out = keep;
  lulesh_state_t *s = &x->s;
  while (s->time < s->stoptime && (o->its <= 0 || s->cycle < o->its))
    TSR_CALL(lulesh_cuda_step_profiled(&x->d, s, &p));
  const int gather = x->copts.assembly == LULESH_ASM_GATHER;
  printf("profile of %s: %d cycles, %d elements, %d nodes; floor at %.0f GB/s (measured copy "
         "bandwidth)\n", name, s->cycle, s->num_elem, s->num_node, ceiling * 1e-9);
  printf("  %-22s %8s %12s %14s %9s %7s\n", "stage", "calls", "seconds", "floor B/call",
         "GB/s", "%floor");
  double tot = 0.0, totb = 0.0;
  for (int k = 0; k < LULESH_NSTAGES; k++) {
    const double b = lulesh_stage_bytes(k, gather, s->num_elem, s->num_node);
    const double t = p.seconds[k], bytes = b * (double)p.calls[k];
    tot += t, totb += bytes;
    if (b > 0 && t > 0 && ceiling > 0)
      printf("  %-22s %8lld %12.6f %14.4g %9.1f %6.1f%%\n", lulesh_stage_name(k),
             (long long)p.calls[k], t, b, bytes / t * 1e-9, 100.0 * bytes / ceiling / t);
    else
      printf("  %-22s %8lld %12.6f %14s %9s %7s\n", lulesh_stage_name(k), (long long)p.calls[k],
             t, "-", "-", "-");
  }
  if (tot > 0 && ceiling > 0)
    printf("  %-22s %8s %12.6f %14.4g %9.1f %6.1f%%\n", "cycle", "", tot,
           totb / (s->cycle > 0 ? s->cycle : 1), totb / tot * 1e-9, 100.0 * totb / ceiling / tot);
  printf("\n");
#else
  (void)x, (void)name, (void)ceiling;
#endif
  return TSR_SUCCESS;
}

static void lv_free(lv_run_t *x) {
  if (x->have_state) lulesh_state_free(&x->s);
  x->have_state = 0;
#ifdef TSR_HAVE_CUDA
  if (x->have_dev) lulesh_cuda_free(&x->d);
  x->have_dev = 0;
#endif
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
  lv_run_t x;
  memset(&x, 0, sizeof x);
  x.A = A;
  x.name = v->name;
  x.cuda = v->device == TSR_DEV_CUDA;
  if (x.cuda) {
    static const lulesh_asm_t assembly[] = {
        [LV_CUDA_GATHER] = LULESH_ASM_GATHER, [LV_CUDA_ATOMIC] = LULESH_ASM_ATOMIC,
        [LV_CUDA_COLOUR] = LULESH_ASM_COLOUR, [LV_CUDA_TWOLEVEL] = LULESH_ASM_TWOLEVEL,
        [LV_CUDA_ATOMIC_FMA] = LULESH_ASM_ATOMIC};
    x.copts = (lulesh_cuda_opts_t){.assembly = assembly[v->id], .fuse = !A->nofuse,
                                   .block = A->block, .fma = v->id == LV_CUDA_ATOMIC_FMA,
                                   .nblocks = A->order.nblocks, .block_off = A->order.block_off,
                                   .no_overlap = A->nooverlap};
    tsr_halo_transport_t ht = TSR_HALO_STAGED; /* several ranks: the exchanges' transport */
    if (A->dist) TSR_CALL(tsr_halo_transport_parse(A->halo, &ht));
    if (A->dist) TSR_CALL(lulesh_dist_set_transport(A->dist, ht));
    snprintf(row.device, sizeof row.device, "%s", dev.name);
    snprintf(row.config, sizeof row.config, "r=%d b=%d c=%d reorder=%s block=%d fuse=%s%s",
             A->o.regions, A->o.balance, A->o.cost, A->reorder, A->block,
             A->nofuse ? "no" : "yes",
             !A->dist ? "" : A->nooverlap ? " overlap=no" : " overlap=yes");
  } else {
    /* the variant is serial: one thread, whatever OpenMP would give the rank */
    snprintf(row.device, sizeof row.device, "CPU (1 thread)");
    snprintf(row.config, sizeof row.config, "r=%d b=%d c=%d reorder=%s%s%s", A->o.regions,
             A->o.balance, A->o.cost, A->reorder, A->o.decomp ? " decomp=" : "",
             A->o.decomp ? A->o.decomp : "");
  }
  tsr_run_t sp = {.prog = "tsr-lulesh", .label = v->name, .comm = comm, .dev = &dev,
                  .timing = TSR_TIME_WALL, .warmup = A->cli.warmup, .runs = A->cli.runs,
                  .barrier = 1, .quiet = A->cli.quiet, .reset = lv_reset, .run = lv_run,
                  .ctx = &x};
  tsr_run_result_t res;
  int rc = tsr_run(&sp, &res);
  if (rc == TSR_ERR_UNSUPPORTED) { /* e.g. two-level blocks too large for shared memory */
    lv_free(&x);
    tsr_result_notrun(&row, "%s", tsr_error_message());
    tsr_error_clear();
    return tsr_report_add(rep, &row);
  }
  if (!rc) rc = lv_finish(&x);
  /* the floor of the whole run (docs/LULESH.md), for the table's GB/s and %floor */
  const int gather = !x.cuda || x.copts.assembly == LULESH_ASM_GATHER;
  row.footprint = lulesh_cycle_bytes(gather, x.s.num_elem, x.s.num_node);
  row.bytes = row.footprint * x.out.res.cycles;
  row.ceiling = 0; /* not after a failed run: its measurement would replace the run's error */
  if (!rc && tsr_bandwidth_ceiling(&dev, &row.ceiling)) tsr_error_clear(), row.ceiling = 0;
  if (!rc && x.cuda && A->profile && !A->cli.quiet && !A->dist)
    rc = lv_profile(&x, v->name, row.ceiling);
  if (rc) {
    lv_free(&x);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  row.time = res.time;
  double zc = x.out.zones * (double)x.out.res.cycles;
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
  rc = A->cli.output ? lulesh_io_write(comm, A->cli.output, &A->mesh, A->dist, &x.s, &A->o, &A->cli, v->name)
                     : 0;
  lv_free(&x);
  TSR_CALL(rc);
  return tsr_report_add(rep, &row);
}

/* --variant auto: every assembly that can run here is a candidate (on a
 * GPU every CUDA one), timed by lib's tsr_auto_run: a trial run is quiet,
 * unverified and writes no -o; the winner then runs as the command line says. */
typedef struct {
  app_t *A;
  int n, vi[NVAR];
  const char *names[NVAR];
} lv_auto_t;

static int lv_auto_run(void *ctx, int c, const tsr_cli_t *cli, tsr_report_t *rep) {
  lv_auto_t *X = ctx;
  app_t *A = X->A;
  const tsr_cli_t keep = A->cli;
  const int profile = A->profile;
  if (cli != &A->cli) A->cli = *cli, A->cli.output = NULL, A->profile = 0;
  const int rc = run_variant(A, &variants[X->vi[c]], 0, rep);
  A->cli = keep, A->profile = profile;
  return rc;
}

static int lv_auto(app_t *A, const tsr_selection_t *sel, const char *input, tsr_report_t *rep) {
  lv_auto_t X = {A, 0, {0}, {0}};
  for (int k = 0; k < sel->n; k++)
    if (!tsr_variant_unavailable(&variants[sel->index[k]]))
      X.vi[X.n] = sel->index[k], X.names[X.n++] = variants[sel->index[k]].name;
  char problem[200], devname[sizeof(tsr_device_t){0}.name] = "";
  snprintf(problem, sizeof problem, "edge %d (global %d) its %d r=%d b=%d c=%d mesh=%s reorder=%s block=%d fuse=%s "
           "decomp=%s halo=%s %d ranks", A->o.edge, A->o.global_edge, A->o.its, A->o.regions, A->o.balance,
           A->o.cost, input ? input : "cube", A->reorder, A->block, A->nofuse ? "no" : "yes",
           A->o.decomp ? A->o.decomp : "-", A->halo, A->o.ranks);
  tsr_device_t d;
  if (X.n > 0 && !tsr_device_select(MPI_COMM_WORLD, variants[X.vi[0]].device, &d))
    snprintf(devname, sizeof devname, "%s", d.name);
  tsr_error_clear();
  return tsr_auto_run(&A->cli, MPI_COMM_WORLD, problem, devname, X.n, X.names, lv_auto_run, &X, rep);
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
  A.cli.variant_auto = 1; /* lv_auto */
  A.cli.options = TSR_CLI_VARIANTS | TSR_CLI_DEVICE | TSR_CLI_RUNS | TSR_CLI_CSV | TSR_CLI_VERIFY |
                  TSR_CLI_QUIET | TSR_CLI_OUTPUT | TSR_CLI_CHECKPOINT;
  const char *input = NULL;
  lulesh_io_opts_begin(&A.o);
  A.cli.runs = 1;
  A.cli.warmup = 0;
  int its = -1;
  const char *decomp = NULL;
  A.reorder = "none";
  A.block = 128;
  A.halo = "staged";
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_INT, &A.o.edge, "N",
       "LULESH: elements per cube edge (default 30): each rank's box with --decomp cube, the "
       "whole cube's with block and metis"},
      {"its", 'i', TSR_OPT_INT, &its, "N", "LULESH: stop after N cycles (default: run to the stop time)"},
      {"regions", 'r', TSR_OPT_INT, &A.o.regions, "N", "LULESH: number of regions (default 11)"},
      {"balance", 'b', TSR_OPT_INT, &A.o.balance, "N", "LULESH: region balance (default 1)"},
      {"cost", 'c', TSR_OPT_INT, &A.o.cost, "N", "LULESH: extra EOS cost of costly regions (default 1)"},
      {"progress", 'p', TSR_OPT_FLAG, &A.o.progress, NULL,
       "LULESH: print \"cycle = N, time = T, dt=D\" every cycle"},
      {"input", 0, TSR_OPT_STRING, &input, "FILE.h5",
       "read the hex mesh (docs/FORMAT.md, kind hex-mesh) instead of -s/-r/-b's cube, each rank "
       "its part (any rank count); -i stays LULESH's cycle count"},
      {"decomp", 0, TSR_OPT_STRING, &decomp, "cube|block|metis",
       "ranks: cube = LULESH's (p^3 ranks, global edge p*N); block = any count whose "
       "factors fit the edge N: the cube of edge N cut into a px x py x pz grid of boxes "
       "(the grid with the fewest interface nodes, box edges differing by at most one); "
       "metis = any count, the cube of edge N partitioned by METIS on rank 0; default cube "
       "when the rank count is a cube, else block (with --input: metis; cube for a "
       "generated cube file)"},
      {"reorder", 0, TSR_OPT_STRING, &A.reorder, "none|gps|metis",
       "renumber the elements (and nodes): GPS (Scotch), or METIS blocks of <= --block elements "
       "(none)"},
      {"block", 0, TSR_OPT_INT, &A.block, "N", "CUDA threads per block, cuda/twolevel's block "
       "(128)"},
      {"profile", 0, TSR_OPT_FLAG, &A.profile, NULL,
       "CUDA: after the timed runs, one more run timing every stage against its floor (one rank)"},
      {"halo", 0, TSR_OPT_STRING, &A.halo, "staged|ipc|aware|nccl|auto",
       "CUDA on several ranks: the exchanges' transport (staged)"},
      {"no-fuse", 0, TSR_OPT_FLAG, &A.nofuse, NULL,
       "CUDA: one kernel per stage (default: node gather + update fused, monotonic Q + EOS + dt "
       "fused in one launch)"},
      {"no-overlap", 0, TSR_OPT_FLAG, &A.nooverlap, NULL,
       "CUDA on several ranks: each exchange between two stages (default: beside the interior "
       "elements' and nodes' work)"},
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
  TSR_CHECK(A.block >= 32 && A.block <= 1024 && (A.block & (A.block - 1)) == 0, TSR_ERR_ARG,
            "--block %d: expected a power of two in [32, 1024]", A.block);
  TSR_CHECK(!strcmp(A.reorder, "none") || !strcmp(A.reorder, "gps") ||
                !strcmp(A.reorder, "metis"),
            TSR_ERR_ARG, "--reorder: '%s', expected none, gps or metis", A.reorder);
  tsr_halo_transport_t halo_t; /* checked up front (used on several ranks, CUDA) */
  TSR_CALL(tsr_halo_transport_parse(A.halo, &halo_t));
  int nranks;
  MPI_Comm_size(comm, &nranks);
  TSR_CALL(lulesh_io_opts_end(comm, &A.o, input, A.cli.output));
  /* variants: the CPU reference, or the default CUDA one on a GPU */
  tsr_selection_t sel;
  const int autotune = A.cli.variants && !strcmp(A.cli.variants, "auto"); /* among every assembly */
  TSR_CALL(tsr_run_select(&A.cli, variants, NVAR, "cpu/gather", autotune ? "cuda/*" : LV_CUDA_DEFAULT, &sel));
  /* up front, for a generated cube: ~16 doubles per node, ~40 per element, 6 x 8 corner
     values and two 8-index lists per element (the state and mesh lulesh_state_init fills);
     with --decomp block or metis this rank holds its share of that (a fifth more for the
     halo); with metis rank 0 first builds the face graph of the whole cube of edge -s (an
     offset and 6 neighbours per element) and METIS partitions it: about 200 bytes per element
     with METIS's workspace (measured: 190 MiB at -s 100), freed before the part is built */
  if (!input) {
    const double e = A.o.edge, nn = (e + 1) * (e + 1) * (e + 1), ne = e * e * e;
    double host = nn * 16 * 8 + ne * (40 * 8 + 48 * 8 + 16 * 4);
    lulesh_decomp_t dec = lulesh_decomp_default(nranks);
    if (decomp) (void)lulesh_decomp_parse(decomp, &dec); /* a bad name: refused below */
    double dev = host; /* a CUDA variant: the state again on the GPU */
    if (dec != LULESH_DECOMP_CUBE && nranks > 1) {
      const double share = host / nranks * 1.2;
      host = dev = share;
      int rank;
      MPI_Comm_rank(comm, &rank);
      if (dec == LULESH_DECOMP_METIS && rank == 0) {
        const double graph = ne * 200;
        host = graph > share ? graph : share;
      }
    }
    int cuda = 0;
    for (int i = 0; i < sel.n; i++) cuda |= variants[sel.index[i]].device == TSR_DEV_CUDA;
    char what[64];
    snprintf(what, sizeof what, "tsr-lulesh -s %d", A.o.edge);
    const int mrc = tsr_memory_check(comm, what, host, cuda ? dev : 0);
    if (mrc) tsr_selection_free(&sel);
    TSR_CALL(mrc);
  }
  /* problem: a hex-mesh file, LULESH's Sedov cube, or this rank's part of it; renumbered on
     one rank */
  int rc = strcmp(A.reorder, "none") && nranks > 1
               ? TSR_RAISE(TSR_ERR_ARG, "--reorder %s: renumbering runs on one rank (the "
                           "exchanges of several ranks refer to the generated numbering)",
                           A.reorder)
               : TSR_SUCCESS;
  if (!rc && input) {
    rc = lulesh_io_mesh(comm, input, decomp, A.cli.quiet, &A.o, &A.mesh, &A.dist);
  } else if (!rc) {
    rc = lulesh_app_mesh(comm, &A.o, decomp, &A.mesh, &A.dist);
  }
  if (!rc) rc = lulesh_order_apply(&A.mesh, A.reorder, A.block, &A.order);
  if (!rc) rc = lulesh_ckpt_begin(comm, &A.ckpt, &A.cli, &A.o, A.reorder, &A.mesh, A.dist);
  if (rc) {
    lulesh_ckpt_free(&A.ckpt);
    lulesh_dist_destroy(&A.dist);
    lulesh_mesh_free(&A.mesh);
    tsr_selection_free(&sel);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  if (!A.cli.quiet) {
    lulesh_app_banner(&A.o, &A.mesh);
    int rank0;
    MPI_Comm_rank(comm, &rank0);
    if (A.ckpt.have && rank0 == 0)
      printf("Restart from %s: cycle %d, time %.17g\n\n", A.cli.restart, A.ckpt.cycle,
             A.ckpt.scal[0]);
    if (A.order.elem_perm)
      printf("Reorder %s: element graph bandwidth %lld -> %lld, profile %lld -> %lld\n\n",
             A.reorder, (long long)A.order.bw_before, (long long)A.order.bw_after,
             (long long)A.order.profile_before, (long long)A.order.profile_after);
  }
  tsr_report_t *rep;
  TSR_CALL(tsr_report_create(&rep));
  if (sel.autotune) rc = lv_auto(&A, &sel, input, rep);
  for (int i = 0; i < sel.n && !rc && !sel.autotune; i++)
    rc = run_variant(&A, &variants[sel.index[i]], sel.required[i], rep);
  if (!rc) rc = tsr_report_finish(rep, &A.cli, comm);
  tsr_report_destroy(&rep);
  tsr_selection_free(&sel);
  lulesh_ckpt_free(&A.ckpt);
  lulesh_order_free(&A.order);
  lulesh_dist_destroy(&A.dist);
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
