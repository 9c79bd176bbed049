/* apps/airfoil/airfoil.c: tsr-airfoil, OP2's Airfoil on OP2's meshes.
 *
 * Reads an OP2 HDF5 mesh (-i, parallel HDF5: each rank its block) or
 * generates the NACA0012 C-mesh (--size), partitions it over the ranks
 * (METIS on the cells through pecell, OP2's owner-compute halos), reorders
 * each rank's part (--reorder), runs the selected variants for --iterations
 * (1000, as OP2) from the same initial state, prints the rms every 100
 * iterations and checks each run: on OP2's standard mesh (in double)
 * against OP2's published history and pass test, otherwise against the rms
 * history of the CPU reference. -o writes the first variant's final q in
 * the original numbering with an XDMF sidecar. Exits non-zero when any
 * variant FAILED.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tessera.h"
#include "kernels/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

enum {
#define X(id, name, dev, incr, layout, help) id,
#include "kernels/airfoil/variants.def"
#undef X
  AIRFOIL_NVARIANTS
};
static const tsr_variant_t af_variants[] = {
#define X(id, name, dev, incr, layout, help) {name, dev, help, id},
#include "kernels/airfoil/variants.def"
#undef X
};
static const airfoil_incr_t af_incr[] = {
#define X(id, name, dev, incr, layout, help) incr,
#include "kernels/airfoil/variants.def"
#undef X
};
static const airfoil_layout_t af_layout[] = {
#define X(id, name, dev, incr, layout, help) layout,
#include "kernels/airfoil/variants.def"
#undef X
};

/* OP2's published history on its standard mesh (double, printed %10.5e at
 * iterations 100, 200, ..., 1000) and its pass test at 1000. */
static const char *const af_op2_history[10] = {
    "5.02186e-04", "3.41746e-04", "2.63430e-04", "2.16288e-04", "1.84659e-04",
    "1.60866e-04", "1.42253e-04", "1.27627e-04", "1.15810e-04", "1.06011e-04"};
#define AF_OP2_RMS1000 1.060114637578e-4
#define AF_OP2_TOL1000 1e-7
#define AF_OP2_RMS1000_FLOAT 1.05987e-4
#define AF_OP2_TOL1000_FLOAT 1e-3
/* Against the CPU reference (other meshes): largest relative difference of
 * any iteration's rms. Variants differ from the reference only in the order
 * of the increments (and FMA contraction on the GPU). */
#define AF_REF_TOL_DOUBLE 1e-9
#define AF_REF_TOL_FLOAT 1e-3

/* Minimum bytes one iteration must move: every map, dat and increment read
 * or written once per loop (see docs/AIRFOIL.md); n: nodes, cells, edges,
 * bedges of the whole mesh. */
static double af_floor_bytes(const int64_t n[4], size_t real) {
  double nn = (double)n[3], nc = (double)n[0], ne = (double)n[1], nb = (double)n[2],
         r = (double)real;
  double save = nc * 8 * r;                                   /* q in, qold out        */
  double adt = nn * 2 * r + nc * (16 + 4 * r + r);            /* x, pcell, q, adt      */
  double res = ne * 16 + nn * 2 * r + nc * (4 * r + r + 8 * r); /* maps, x, q, adt, res rw */
  double bres = nb * 16;                                      /* pbedge, pbecell, bound */
  double upd = nc * (4 * r + 4 * r + r + 4 * r + 4 * r);      /* qold, res, adt, q, res */
  return save + 2 * (adt + res + bres + upd);
}

/* Check one run; prints why it failed. */
static tsr_verify_t af_check(int standard, airfoil_prec_t prec, const double *rms,
                             const double *ref, int niter, int verify, int quiet, char *note,
                             size_t nnote) {
  if (!verify) return TSR_VERIFY_SKIPPED;
  if (standard && niter >= 1000) {
    double want = prec == AIRFOIL_DOUBLE ? AF_OP2_RMS1000 : AF_OP2_RMS1000_FLOAT;
    double tol = prec == AIRFOIL_DOUBLE ? AF_OP2_TOL1000 : AF_OP2_TOL1000_FLOAT;
    double err = fabs(rms[999] / want - 1);
    int ok = err < tol;
    if (prec == AIRFOIL_DOUBLE)
      for (int k = 0; k < 10; k++) {
        char got[32];
        snprintf(got, sizeof got, "%.5e", rms[100 * k + 99]);
        if (strcmp(got, af_op2_history[k]) != 0) {
          ok = 0;
          if (!quiet)
            printf("  iteration %d: rms %s, OP2 prints %s\n", 100 * k + 100, got, af_op2_history[k]);
        }
      }
    snprintf(note, nnote, "OP2 reference: |rms/%.17g-1| = %.1e (< %.0e)", want, err, tol);
    return ok ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
  }
  if (!ref) return TSR_VERIFY_NA;
  double tol = prec == AIRFOIL_DOUBLE ? AF_REF_TOL_DOUBLE : AF_REF_TOL_FLOAT, worst = 0;
  int at = 0;
  for (int k = 0; k < niter; k++) {
    double d = fabs(rms[k] - ref[k]) / fabs(ref[k]);
    if (!(d <= worst)) worst = d, at = k + 1; /* NaN counts as worst */
  }
  snprintf(note, nnote, "cpu/ref history: max rel. diff %.1e at %d (< %.0e)", worst, at, tol);
  return worst < tol ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
}

static int af_run_one(const airfoil_problem_t *p, int vid, int block, int fuse, airfoil_run_t *r,
                      airfoil_profile_t *prof) {
  if (vid == AIRFOIL_V_CPU_REF) TSR_CALL(airfoil_cpu_ref_profile(p, r, prof));
  else {
    airfoil_cuda_opts_t o = {af_incr[vid], af_layout[vid], block, fuse};
    TSR_CALL(airfoil_cuda_run_profile(p, &o, r, prof));
  }
  return 0;
}

/* One run of the harness: the time is the run's own (iterations only). */
typedef struct {
  const airfoil_problem_t *p;
  int vid, block, fuse;
  airfoil_run_t *r;
} af_job_t;

static int af_timed(void *ctx, tsr_run_sample_t *s) {
  af_job_t *j = ctx;
  TSR_CALL(af_run_one(j->p, j->vid, j->block, j->fuse, j->r, NULL));
  s->seconds = j->r->seconds;
  return 0;
}

/* --profile: the per-kernel table of one variant, max over ranks of time
 * and launches (the counts are of all ranks already), on rank 0. */
static int af_profile_emit(const airfoil_profile_t *local, airfoil_incr_t incr,
                           const airfoil_counts_t *counts, size_t real,
                           const airfoil_profile_label_t *l, int say, FILE *csv) {
  airfoil_profile_t pr = *local;
  TSR_CHECK(MPI_Allreduce(MPI_IN_PLACE, pr.seconds, AIRFOIL_NKERNELS, MPI_DOUBLE, MPI_MAX,
                          MPI_COMM_WORLD) == MPI_SUCCESS &&
                MPI_Allreduce(MPI_IN_PLACE, pr.calls, AIRFOIL_NKERNELS, MPI_INT64_T, MPI_MAX,
                              MPI_COMM_WORLD) == MPI_SUCCESS,
            TSR_ERR_MPI, "--profile: MPI_Allreduce of the kernel times failed");
  airfoil_profile_report(&pr, incr, counts, real, l, say ? stdout : NULL, csv);
  return 0;
}

static int af_main(int argc, char **argv) {
  tsr_cli_t cli;
  tsr_cli_init(&cli, "tsr-airfoil", "OP2's Airfoil (2-D Euler, NACA0012) on OP2's HDF5 meshes");
  cli.iterations = 1000;
  cli.runs = 1;
  cli.warmup = 0;
  int64_t size[3] = {400, 600, 1};
  const char *precision = "double", *reorder = "none", *partitioner = "metis", *halo = "staged";
  int block = 256, exact = 0, nofuse = 0, profile = 0;
  const char *profile_csv = NULL;
  double imbalance = 1.001, eps = 0;
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_SIZE3, size, "IxJ", "generated mesh when no -i (400x600: OP2's)"},
      {"exact", 0, TSR_OPT_FLAG, &exact, NULL, "generated mesh without OP2's 6-decimal rounding"},
      {"precision", 'p', TSR_OPT_STRING, &precision, "double|float", "arithmetic (double)"},
      {"block", 'b', TSR_OPT_INT, &block, "N", "CUDA threads per block (256)"},
      {"reorder", 'r', TSR_OPT_STRING, &reorder, "none|gps|rcm|partition",
       "renumber each rank's mesh: GPS (Scotch) or RCM on the cells, or METIS edge blocks of "
       "<= --block with cells sorted by their blocks (none)"},
      {"imbalance", 0, TSR_OPT_DOUBLE, &imbalance, "L", "METIS block imbalance of --reorder partition (1.001)"},
      {"eps", 0, TSR_OPT_DOUBLE, &eps, "E", "margin of l' = (S + E) / S' (0)"},
      {"partitioner", 0, TSR_OPT_STRING, &partitioner, "metis|ptscotch",
       "cells over the ranks: METIS on rank 0, or PT-Scotch in parallel (built --with-ptscotch) "
       "(metis)"},
      {"no-fuse", 0, TSR_OPT_FLAG, &nofuse, NULL,
       "CUDA: one kernel per loop as OP2 (default: update fused with the next adt_calc and "
       "save_soln, gather's sum inside update)"},
      {"profile", 0, TSR_OPT_FLAG, &profile, NULL,
       "after each variant's timed runs, one more run timing every kernel (CUDA events, "
       "synchronised per launcher; CPU timers): calls, seconds, bytes, GB/s, % of floor"},
      {"profile-csv", 0, TSR_OPT_STRING, &profile_csv, "FILE",
       "--profile's rows as CSV (docs/CSV.md); implies --profile"},
      {"halo", 0, TSR_OPT_STRING, &halo, "staged|ipc",
       "CUDA halo exchange between ranks: pinned host buffers, or device to device by CUDA IPC "
       "(ranks on one node) (staged)"},
  };
  TSR_CALL(tsr_error_agree(MPI_COMM_WORLD,
                           tsr_cli_parse(&cli, argc, argv, opts, (int)(sizeof opts / sizeof opts[0]),
                                         MPI_COMM_WORLD, NULL, 0, NULL)));
  if (cli.exit_now) return 0;
  if (cli.list_variants) {
    tsr_variant_list(af_variants, AIRFOIL_NVARIANTS, stdout);
    return 0;
  }
  int nranks, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int say = !cli.quiet && rank == 0;
  TSR_CHECK(!strcmp(halo, "staged") || !strcmp(halo, "ipc"), TSR_ERR_ARG,
            "--halo: '%s', expected staged or ipc", halo);
  airfoil_setup_t setup = {AIRFOIL_REORDER_NONE, block, imbalance, eps, TSR_PARTITIONER_METIS,
                           !strcmp(halo, "ipc")};
  if (tsr_partitioner_parse(partitioner, &setup.partitioner) ||
      setup.partitioner == TSR_PARTITIONER_BLOCK) {
    tsr_error_clear();
    return TSR_RAISE(TSR_ERR_ARG, "--partitioner '%s': expected metis or ptscotch", partitioner);
  }
  TSR_CHECK(setup.partitioner != TSR_PARTITIONER_PTSCOTCH || tsr_partitioner_have_ptscotch(),
            TSR_ERR_UNSUPPORTED, "--partitioner ptscotch: this build has no PT-Scotch "
            "(configure --with-ptscotch)");
  if (strcmp(reorder, "gps") == 0) setup.reorder = AIRFOIL_REORDER_GPS;
  else if (strcmp(reorder, "rcm") == 0) setup.reorder = AIRFOIL_REORDER_RCM;
  else if (strcmp(reorder, "partition") == 0) setup.reorder = AIRFOIL_REORDER_PARTITION;
  else if (strcmp(reorder, "none") != 0)
    return TSR_RAISE(TSR_ERR_ARG, "--reorder: '%s', expected none, gps, rcm or partition", reorder);
  TSR_CHECK(imbalance >= 1 && eps >= 0, TSR_ERR_ARG,
            "--imbalance %g / --eps %g: expected imbalance >= 1 and eps >= 0", imbalance, eps);
  airfoil_prec_t prec;
  if (strcmp(precision, "double") == 0) prec = AIRFOIL_DOUBLE;
  else if (strcmp(precision, "float") == 0) prec = AIRFOIL_FLOAT;
  else return TSR_RAISE(TSR_ERR_ARG, "--precision: '%s', expected double or float", precision);
  TSR_CHECK(block >= 32 && block <= 1024 && (block & (block - 1)) == 0, TSR_ERR_ARG,
            "--block %d: expected a power of two in [32, 1024]", block);
  TSR_CHECK(size[2] == 1 && size[0] >= 2 && size[1] >= 2 && size[0] <= 100000 && size[1] <= 100000,
            TSR_ERR_ARG, "--size: expected IxJ with 2 <= I, J, got %lldx%lldx%lld",
            (long long)size[0], (long long)size[1], (long long)size[2]);

  /* Which variants: the list given, else by device. */
  tsr_selection_t sel;
  TSR_CALL(tsr_run_select(&cli, af_variants, AIRFOIL_NVARIANTS, "cpu/ref", "cuda/*", &sel));
  const int nsel = sel.n;

  /* The mesh: read (each rank its block) or generated (whole, on every
   * rank), then partitioned and reordered. */
  tsr_mesh_t *mesh = NULL;
  char source[512];
  if (cli.input) {
    snprintf(source, sizeof source, "%s", cli.input);
    TSR_CALL(airfoil_mesh_read(MPI_COMM_WORLD, cli.input, &mesh));
  } else {
    snprintf(source, sizeof source, "generated %lldx%lld mesh", (long long)size[0], (long long)size[1]);
    TSR_CALL(airfoil_naca0012((int)size[0], (int)size[1], !exact, &mesh));
  }
  airfoil_local_t loc;
  int rc = airfoil_local_create(MPI_COMM_WORLD, mesh, source, &setup, &loc);
  if (rc) {
    tsr_mesh_destroy(&mesh);
    TSR_CALL(rc);
  }
  airfoil_problem_t p = loc.p;
  int64_t gcount[4] = {p.ncell_owned, p.nedge_exec, p.nbedge_exec, 0};
  for (int i = 0; i < 4; i++) {
    int s = i == 0 ? tsr_mesh_find_set(mesh, "cells") : i == 1 ? tsr_mesh_find_set(mesh, "edges")
          : i == 2 ? tsr_mesh_find_set(mesh, "bedges") : tsr_mesh_find_set(mesh, "nodes");
    gcount[i] = tsr_mesh_set(mesh, s)->global_size;
  }
  const int standard = gcount[3] == 721801 && gcount[0] == 720000 && gcount[1] == 1438600 &&
                       gcount[2] == 2800;
  const int niter = cli.iterations;
  const size_t real = prec == AIRFOIL_DOUBLE ? 8 : 4;
  double *ref = NULL, *rms = malloc(sizeof(double) * (size_t)niter);
  double *qout = cli.output ? malloc(sizeof(double) * (size_t)(4 * p.ncell + 1)) : NULL;
  int have_q = 0;
  tsr_report_t *rep = NULL;
  if (!rms || (cli.output && !qout)) rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory for %d iterations", niter);
  if (!rc && say)
    printf("tsr-airfoil: %s: %lld nodes, %lld cells, %lld edges, %lld bedges; %d iterations, %s, "
           "%d rank%s (%s)\n", source, (long long)gcount[3], (long long)gcount[0], (long long)gcount[1],
           (long long)gcount[2], niter, precision, nranks, nranks == 1 ? "" : "s",
           tsr_partitioner_name(setup.partitioner));
  /* What the reordering did (rank 0's part), and the shared-memory plan
   * of res_calc at this block size. */
  airfoil_plan_info_t pi;
  if (!rc) rc = airfoil_plan_info(&p, block, real, &pi);
  if (!rc && say) {
    if (setup.reorder != AIRFOIL_REORDER_NONE)
      printf("reorder %s (rank 0): cell graph bandwidth %lld -> %lld, profile %lld -> %lld\n",
             reorder, (long long)loc.bw_before, (long long)loc.bw_after,
             (long long)loc.profile_before, (long long)loc.profile_after);
    printf("res_calc blocks of <= %d edges (rank 0): %lld blocks (largest %d), cell reuse %.2f "
           "(min %.2f), %d block colours, <= %d thread colours, %zu B shared memory per block\n",
           block, (long long)pi.nblocks, pi.max_block, pi.reuse_mean, pi.reuse_min,
           pi.nblock_colours, pi.max_thread_colours, pi.smem);
  }
  rc = tsr_error_agree(MPI_COMM_WORLD, rc);
  /* The CPU reference history, needed to check other variants off the standard mesh. */
  if (!rc && cli.verify && !(standard && niter >= 1000)) {
    int others = 0;
    for (int s = 0; s < nsel; s++) others |= sel.index[s] != AIRFOIL_V_CPU_REF;
    if (others) {
      ref = malloc(sizeof(double) * (size_t)niter);
      airfoil_run_t r = {niter, prec, ref, NULL, 0};
      if (!ref) rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory for %d iterations", niter);
      if (!rc) rc = airfoil_cpu_ref(&p, &r);
    }
  }
  /* --profile: the counts of the byte model (all ranks) and the CSV */
  if (profile_csv) profile = 1;
  airfoil_counts_t counts;
  FILE *pcsv = NULL;
  char pcsv_tmp[1100] = "";
  double *prms = NULL;
  if (!rc && profile) {
    airfoil_counts_of(&p, &counts);
    int64_t v[6] = {counts.nnode, counts.ncell, counts.nedge, counts.nbedge, counts.nbnode,
                    counts.nbcell};
    int k = counts.gather_k;
    if (MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS ||
        MPI_Allreduce(MPI_IN_PLACE, &k, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS)
      rc = TSR_RAISE(TSR_ERR_MPI, "--profile: MPI_Allreduce of the counts failed");
    counts.nnode = v[0], counts.ncell = v[1], counts.nedge = v[2], counts.nbedge = v[3];
    counts.nbnode = v[4], counts.nbcell = v[5], counts.gather_k = k;
    prms = malloc(sizeof(double) * (size_t)(niter + 1));
    if (!rc && !prms) rc = TSR_RAISE(TSR_ERR_ALLOC, "no memory for %d iterations", niter);
    if (!rc && profile_csv && rank == 0) {
      snprintf(pcsv_tmp, sizeof pcsv_tmp, "%s.tmp-%ld", profile_csv, (long)getpid());
      pcsv = fopen(pcsv_tmp, "w");
      if (!pcsv) rc = TSR_RAISE(TSR_ERR_IO, "--profile-csv %s: cannot create %s", profile_csv, pcsv_tmp);
      else
        airfoil_profile_csv_header(pcsv);
    }
    rc = tsr_error_agree(MPI_COMM_WORLD, rc);
  }
  if (!rc) rc = tsr_report_create(&rep);
  char qvariant[96] = "";
  for (int s = 0; !rc && s < nsel; s++) {
    const int vid = sel.index[s];
    const tsr_variant_t *v = &af_variants[vid];
    tsr_result_t row;
    tsr_result_init(&row, "airfoil", v, NULL, sel.required[s]);
    snprintf(row.precision, sizeof row.precision, "%s", precision);
    row.size[0] = gcount[0], row.size[1] = gcount[1], row.size[2] = niter;
    const char *why = tsr_variant_unavailable(v);
    if (why) {
      tsr_result_notrun(&row, "%s", why);
      rc = tsr_report_add(rep, &row);
      continue;
    }
    tsr_device_t dev;
    rc = tsr_error_agree(MPI_COMM_WORLD, tsr_device_select(MPI_COMM_WORLD, v->device, &dev));
    if (rc) break;
    snprintf(row.device, sizeof row.device, "%s", dev.name);
    airfoil_run_t r = {niter, prec, rms, have_q ? NULL : qout, 0};
    af_job_t job = {&p, vid, block, !nofuse, &r};
    tsr_run_t sp = {.prog = "tsr-airfoil", .label = v->name, .comm = MPI_COMM_WORLD,
                    .dev = &dev, .timing = TSR_TIME_REPORTED, .warmup = cli.warmup,
                    .runs = cli.runs, .quiet = cli.quiet, .run = af_timed, .ctx = &job};
    tsr_run_result_t res;
    rc = tsr_run(&sp, &res);
    if (rc == TSR_ERR_UNSUPPORTED) { /* same answer on every rank */
      tsr_result_notrun(&row, "%s", tsr_error_message());
      tsr_error_clear();
      rc = tsr_report_add(rep, &row);
      continue;
    }
    /* --profile: one more run, every kernel timed, checked like the others */
    airfoil_profile_t prof;
    memset(&prof, 0, sizeof prof);
    airfoil_run_t rp = {niter, prec, prms, NULL, 0};
    tsr_verify_t pv = TSR_VERIFY_NA;
    char pnote[240] = "";
    if (!rc && profile) {
      rc = af_run_one(&p, vid, block, !nofuse, &rp, &prof);
      if (!rc) pv = af_check(standard, prec, prms, ref, niter, cli.verify, !say, pnote, sizeof pnote);
    }
    if (!rc && qout && !have_q) have_q = 1, snprintf(qvariant, sizeof qvariant, "%s", v->name);
    if (!rc) {
      if (say) {
        printf("\n%s\n", v->name);
        for (int k = 99; k < niter; k += 100) printf(" %d  %10.5e \n", k + 1, rms[k]);
      }
      row.time = res.time;
      row.bytes = af_floor_bytes(gcount, real) * niter;
      row.footprint = af_floor_bytes(gcount, real); /* one iteration touches every array */
      if (tsr_bandwidth_ceiling(&dev, &row.ceiling)) tsr_error_clear(), row.ceiling = 0;
      snprintf(row.figure, sizeof row.figure, "rms=%.17g", niter > 0 ? rms[niter - 1] : 0.0);
      if (vid == AIRFOIL_V_CPU_REF && !(standard && niter >= 1000)) {
        row.verify = cli.verify ? TSR_VERIFY_NA : TSR_VERIFY_SKIPPED;
        snprintf(row.note, sizeof row.note, "the reference of the other variants");
      } else {
        row.verify = af_check(standard, prec, rms, ref, niter, cli.verify, !say, row.note,
                              sizeof row.note);
      }
      if (pv == TSR_VERIFY_FAIL) {
        row.verify = TSR_VERIFY_FAIL;
        snprintf(row.note, sizeof row.note, "profiled run: %s", pnote);
      }
      if (say) printf("%s: %s %s\n", v->name, row.verify == TSR_VERIFY_FAIL ? "FAILED" :
                             row.verify == TSR_VERIFY_PASS ? "PASSED" : tsr_verify_name(row.verify),
                             row.note);
      rc = tsr_report_add(rep, &row);
      if (!rc && profile) {
        const int fused = v->device == TSR_DEV_CUDA && !nofuse;
        airfoil_profile_label_t l = {v->name, precision, reorder, nranks, block, fused, niter,
                                     row.ceiling, rp.seconds, row.time.median};
        rc = af_profile_emit(&prof, af_incr[vid], &counts, real, &l, say, pcsv);
      }
    }
  }
  if (pcsv) { /* rank 0 */
    int bad = fclose(pcsv) != 0;
    if (!bad && !rc) bad = rename(pcsv_tmp, profile_csv) != 0;
    else remove(pcsv_tmp);
    if (bad && !rc) rc = TSR_RAISE(TSR_ERR_IO, "--profile-csv %s: cannot write it", profile_csv);
  }
  free(prms);
  if (!rc && cli.output) {
    char cmd[1024];
    tsr_provenance_command_line(argc, argv, cmd, sizeof cmd);
    tsr_provenance_t prov = {"tsr-airfoil", qvariant, "", cmd, nranks};
    rc = tsr_error_agree(MPI_COMM_WORLD, have_q ? 0 : TSR_RAISE(TSR_ERR_ARG,
                         "-o %s: no variant ran, so there is no solution to write", cli.output));
    if (!rc) rc = airfoil_write_solution(MPI_COMM_WORLD, cli.output, mesh, &loc, qout, &prov);
    if (!rc && say) printf("final q of %s written to %s (original numbering) with an XDMF sidecar\n",
                           prov.variant, cli.output);
  }
  if (!rc && say) printf("\n");
  if (!rc) rc = tsr_report_finish(rep, &cli, MPI_COMM_WORLD);
  tsr_report_destroy(&rep);
  tsr_selection_free(&sel);
  free(rms);
  free(ref);
  free(qout);
  airfoil_local_free(&loc);
  tsr_mesh_destroy(&mesh);
  TSR_CALL(rc);
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  tsr_error_set_progname("tsr-airfoil");
  TSR_CALL_ABORT(MPI_COMM_WORLD, af_main(argc, argv));
  MPI_Finalize();
  return 0;
}
