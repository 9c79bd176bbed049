/* apps/airfoil/airfoil_run.c: tsr-airfoil's variants: each through lib's
 * harness for --iterations from the same initial state, its rms history
 * printed every 100 iterations and checked (on OP2's standard mesh in double
 * against OP2's published history and pass test, otherwise against the CPU
 * reference's), with --profile one more run timing every kernel. */
#include "config.h"
#include "apps/airfoil/airfoil_app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
/* OP2's own Airfoil (airfoil_hdf5/dp, sequential build: OP2's library, no
 * translation) on the 40x60 mesh of the same generator (tsr-mkairfoil
 * --size 40x60, or tsr-airfoil --size 40x60), its rms at iterations 100,
 * 200, ..., 1000 printed to 17 digits. tsr-airfoil's cpu/ref differs from
 * them by at most 5e-13 (relative) with any reordering at 1-4 ranks: the
 * order of the increments and of the rms sum. */
static const double af_op2_small[10] = {
    4.25406467334781143e-04, 1.79346052385816320e-04, 9.96361649435177263e-05,
    6.26427438839066903e-05, 3.94606663042591747e-05, 2.05602581762209107e-05,
    1.03755029323316736e-05, 3.48180767250488219e-06, 3.11699470117605508e-06,
    1.87631006256137300e-06};
#define AF_OP2_SMALL_TOL 1e-10
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

/* Largest |rms - ref| / |ref| over ref[0..n), taken from rms at every
 * step-th iteration (rms[step*k + step-1] against ref[k]); *at: that
 * iteration. NaN counts as the worst. */
static double af_worst_rel(const double *rms, int step, const double *ref, int n, int *at) {
  double worst = 0;
  *at = 0;
  for (int k = 0; k < n; k++) {
    const double d = fabs(rms[step * k + step - 1] - ref[k]) / fabs(ref[k]);
    if (!(d <= worst)) worst = d, *at = step * (k + 1);
  }
  return worst;
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
  double tol = prec == AIRFOIL_DOUBLE ? AF_REF_TOL_DOUBLE : AF_REF_TOL_FLOAT;
  int at;
  const double worst = af_worst_rel(rms, 1, ref, niter, &at);
  snprintf(note, nnote, "cpu/ref history: max rel. diff %.1e at %d (< %.0e)", worst, at, tol);
  return worst < tol ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
}

int af_run_one(const airfoil_problem_t *p, int vid, int block, int fuse, int graph, airfoil_l2_t l2,
               airfoil_run_t *r, airfoil_profile_t *prof) {
  if (vid == AIRFOIL_V_CPU_REF) TSR_CALL(airfoil_cpu_ref_profile(p, r, prof));
  else {
    airfoil_cuda_opts_t o = {af_incr[vid], af_layout[vid], block, fuse, AIRFOIL_SPLIT_AUTO,
                             graph ? AIRFOIL_GRAPH_AUTO : AIRFOIL_GRAPH_OFF, l2};
    TSR_CALL(airfoil_cuda_run_profile(p, &o, r, prof));
  }
  return 0;
}

/* cpu/ref on the 40x60 mesh in double, at least 100 iterations: its rms at
 * every hundredth iteration against OP2's. */
static tsr_verify_t af_check_small(const double *rms, int niter, int quiet, char *note,
                                   size_t nnote) {
  int at;
  const double worst = af_worst_rel(rms, 100, af_op2_small, niter < 1000 ? niter / 100 : 10, &at);
  if (!(worst < AF_OP2_SMALL_TOL) && !quiet)
    printf("  iteration %d: rms %.17e, OP2 prints %.17e\n", at, rms[at - 1],
           af_op2_small[at / 100 - 1]);
  snprintf(note, nnote, "OP2 reference (40x60 mesh): max |rms/OP2-1| = %.1e at %d (< %.0e)",
           worst, at, AF_OP2_SMALL_TOL);
  return worst < AF_OP2_SMALL_TOL ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
}

/* One run of the harness: the time is the run's own (iterations only). */
typedef struct {
  af_app_t *A;
  int vid, write; /* write: checkpoints in this run (the first run of any variant) */
  airfoil_run_t *r;
} af_job_t;

static int af_timed(void *ctx, tsr_run_sample_t *s) {
  af_job_t *j = ctx;
  TSR_CALL(af_ckpt_run(j->A, j->vid, j->r, NULL, j->write));
  j->write = 0, j->A->ck_run = 1;
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

/* The row of a variant that ran: rms history, verdict, times, bytes; its
 * kernel profile (--profile). */
static int af_variant_row(af_app_t *A, int vid, tsr_result_t *row, const tsr_device_t *dev,
                          const tsr_run_result_t *res, const airfoil_run_t *rp,
                          const airfoil_profile_t *prof, tsr_verify_t pv, const char *pnote) {
  const tsr_cli_t *cli = &A->cli;
  const tsr_variant_t *v = &af_variants[vid];
  const int niter = A->niter, say = A->say, standard = A->standard;
  const double *rms = A->rms;
  int rc;
  if (say) {
    printf("\n%s\n", v->name);
    for (int k = 99; k < niter; k += 100) printf(" %d  %10.5e \n", k + 1, rms[k]);
  }
  row->time = res->time;
  row->bytes = af_floor_bytes(A->gcount, A->real) * (niter - A->k0); /* the iterations run */
  row->footprint = af_floor_bytes(A->gcount, A->real); /* one iteration touches every array */
  if (tsr_bandwidth_ceiling(dev, &row->ceiling)) tsr_error_clear(), row->ceiling = 0;
  snprintf(row->figure, sizeof row->figure, "rms=%.17g", niter > 0 ? rms[niter - 1] : 0.0);
  if (vid == AIRFOIL_V_CPU_REF && A->small && A->prec == AIRFOIL_DOUBLE && niter >= 100 &&
      cli->verify) {
    row->verify = af_check_small(rms, niter, !say, row->note, sizeof row->note);
  } else if (vid == AIRFOIL_V_CPU_REF && !(standard && niter >= 1000)) {
    row->verify = cli->verify ? TSR_VERIFY_NA : TSR_VERIFY_SKIPPED;
    snprintf(row->note, sizeof row->note, "the reference of the other variants");
  } else {
    row->verify = af_check(standard, A->prec, rms, A->ref, niter, cli->verify, !say, row->note,
                           sizeof row->note);
  }
  if (pv == TSR_VERIFY_FAIL) {
    row->verify = TSR_VERIFY_FAIL;
    snprintf(row->note, sizeof row->note, "profiled run: %s", pnote);
  }
  if (say) printf("%s: %s %s\n", v->name, row->verify == TSR_VERIFY_FAIL ? "FAILED" :
                         row->verify == TSR_VERIFY_PASS ? "PASSED" : tsr_verify_name(row->verify),
                         row->note);
  rc = tsr_report_add(A->rep, row);
  if (!rc && A->profile) {
    const int fused = v->device == TSR_DEV_CUDA && !A->nofuse;
    airfoil_profile_label_t l = {v->name, A->precision, A->reorder, A->nranks, A->block, fused,
                                 niter, row->ceiling, rp->seconds, row->time.median};
    rc = af_profile_emit(prof, af_incr[vid], &A->counts, A->real, &l, say, A->pcsv);
  }
  return rc;
}

/* Selected variant s: skipped (unavailable, unsupported) or run through the
 * harness, (--profile) run once more with every kernel timed, its row. */
static int af_variant(af_app_t *A, int s) {
  const tsr_cli_t *cli = &A->cli;
  const int vid = A->sel.index[s], niter = A->niter;
  const tsr_variant_t *v = &af_variants[vid];
  int rc;
  tsr_result_t row;
  tsr_result_init(&row, "airfoil", v, NULL, A->sel.required[s]);
  snprintf(row.precision, sizeof row.precision, "%s", A->precision);
  row.size[0] = A->gcount[0], row.size[1] = A->gcount[1], row.size[2] = niter;
  /* the configuration beyond the name: CUDA block, reordering, fusion */
  if (v->device == TSR_DEV_CUDA)
    snprintf(row.config, sizeof row.config, "block=%d reorder=%s%s%s", A->block, A->reorder,
             A->nofuse ? " fuse=no" : "", A->nograph ? " graph=no" : "");
  else
    snprintf(row.config, sizeof row.config, "reorder=%s", A->reorder);
  const char *why = tsr_variant_unavailable(v);
  if (why) {
    tsr_result_notrun(&row, "%s", why);
    return tsr_report_add(A->rep, &row);
  }
  tsr_device_t dev;
  rc = tsr_error_agree(MPI_COMM_WORLD, tsr_device_select(MPI_COMM_WORLD, v->device, &dev));
  if (rc) return rc;
  snprintf(row.device, sizeof row.device, "%s", dev.name);
  airfoil_run_t r = {niter, A->prec, A->rms, A->have_q ? NULL : A->qout, 0, 0};
  af_job_t job = {A, vid, !A->ck_run, &r};
  tsr_run_t sp = {.prog = "tsr-airfoil", .label = v->name, .comm = MPI_COMM_WORLD,
                  .dev = &dev, .timing = TSR_TIME_REPORTED, .warmup = cli->warmup,
                  .runs = cli->runs, .quiet = cli->quiet, .run = af_timed, .ctx = &job};
  tsr_run_result_t res;
  rc = tsr_run(&sp, &res);
  if (!rc && v->device == TSR_DEV_CUDA && (r.l2_window > 0 || A->l2mode == AIRFOIL_L2_OFF)) {
    /* the L2 window the run used (--l2-persist), or that it was turned off */
    const size_t n = strlen(row.config);
    if (r.l2_window > 0)
      snprintf(row.config + n, sizeof row.config - n, " l2=%.1fMiB", (double)r.l2_window / 1048576.0);
    else
      snprintf(row.config + n, sizeof row.config - n, " l2=off");
  }
  if (rc == TSR_ERR_UNSUPPORTED) { /* same answer on every rank */
    tsr_result_notrun(&row, "%s", tsr_error_message());
    tsr_error_clear();
    return tsr_report_add(A->rep, &row);
  }
  /* --profile: one more run, every kernel timed, checked like the others */
  airfoil_profile_t prof;
  memset(&prof, 0, sizeof prof);
  airfoil_run_t rp = {niter, A->prec, A->prms, NULL, 0, 0};
  tsr_verify_t pv = TSR_VERIFY_NA;
  char pnote[240] = "";
  if (!rc && A->profile) {
    rc = af_ckpt_run(A, vid, &rp, &prof, 0);
    if (!rc)
      pv = af_check(A->standard, A->prec, A->prms, A->ref, niter, cli->verify, !A->say, pnote,
                    sizeof pnote);
  }
  if (!rc && A->qout && !A->have_q)
    A->have_q = 1, snprintf(A->qvariant, sizeof A->qvariant, "%s", v->name),
    snprintf(A->qdevice, sizeof A->qdevice, "%s", dev.name);
  if (!rc) rc = af_variant_row(A, vid, &row, &dev, &res, &rp, &prof, pv, pnote);
  return rc;
}

/* --variant auto: every selected variant that can run here a candidate
 * (lib's tsr_auto_run); a trial runs without --profile and leaves -o's q to
 * the winner. */
typedef struct {
  af_app_t *A;
  int n, s[AIRFOIL_NVARIANTS];
  const char *names[AIRFOIL_NVARIANTS];
} af_auto_t;

static int af_auto_run(void *ctx, int c, const tsr_cli_t *cli, tsr_report_t *rep) {
  af_auto_t *X = ctx;
  af_app_t *A = X->A;
  const int trial = cli != &A->cli, have_q = A->have_q, profile = A->profile;
  const tsr_cli_t keep = A->cli;
  tsr_report_t *krep = A->rep;
  A->cli = *cli, A->rep = rep;
  if (trial) A->profile = 0;
  const int rc = af_variant(A, X->s[c]);
  A->cli = keep, A->rep = krep, A->profile = profile;
  if (trial) A->have_q = have_q;
  return rc;
}

static int af_auto(af_app_t *A) {
  af_auto_t X;
  memset(&X, 0, sizeof X);
  X.A = A;
  for (int s = 0; s < A->sel.n; s++)
    if (!tsr_variant_unavailable(&af_variants[A->sel.index[s]]))
      X.s[X.n] = s, X.names[X.n++] = af_variants[A->sel.index[s]].name;
  char problem[200], devname[sizeof(tsr_device_t){0}.name] = "";
  snprintf(problem, sizeof problem, "%lld cells %lld edges %d iterations %s reorder=%s block=%d%s%s l2=%s %d ranks",
           (long long)A->gcount[0], (long long)A->gcount[1], A->niter, A->precision, A->reorder, A->block,
           A->nofuse ? " fuse=no" : "", A->nograph ? " graph=no" : "", A->l2, A->nranks);
  tsr_device_t d;
  if (X.n > 0 && !tsr_device_select(MPI_COMM_WORLD, af_variants[A->sel.index[X.s[0]]].device, &d))
    snprintf(devname, sizeof devname, "%s", d.name);
  tsr_error_clear();
  TSR_CALL(tsr_auto_run(&A->cli, MPI_COMM_WORLD, problem, devname, X.n, X.names, af_auto_run, &X, A->rep));
  return TSR_SUCCESS;
}

int af_run_variants(af_app_t *A) {
  if (A->sel.autotune) return af_auto(A);
  int rc = 0;
  for (int s = 0; !rc && s < A->sel.n; s++) rc = af_variant(A, s);
  return rc;
}
