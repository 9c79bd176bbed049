/* check_airfoil_cuda: every CUDA variant (increments x layout x precision,
 * two block sizes) against the CPU reference on a small generated mesh, in
 * the generator's numbering and after each reordering (GPS, RCM, METIS
 * partition blocks of <= 64 edges, which the shared-memory variant then
 * uses), each unfused (one kernel per loop) and fused (update + adt_calc +
 * save_soln; gather inside update): the rms history within 1e-9 (double) / 1e-3 (float) relative and
 * the final q within 1e-9 / 1e-3 relative to max |q|. Also on a mesh that
 * is not four sides per cell (an edge doubled: two cells of 5 sides, so
 * gather4 takes its general map, every other cell padded with the zero
 * row), and profiled runs (same history as unprofiled, bit for bit for the
 * deterministic strategies, every launch counted), and the L2 persisting
 * window off, on and auto (the same results; test_l2). Skips without a GPU. */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

enum { N = 50 };

static void check_problem(const airfoil_problem_t *pp) {
  const airfoil_problem_t p = *pp;
  double *qref = malloc(sizeof(double) * 4 * p.ncell), *q = malloc(sizeof(double) * 4 * p.ncell);
  for (int prec = 0; prec < 2; prec++) {
    double ref[N], rms[N], tol = prec == AIRFOIL_DOUBLE ? 1e-9 : 1e-3;
    airfoil_run_t r = {N, (airfoil_prec_t)prec, ref, qref, 0, 0};
    ck_tsr(airfoil_cpu_ref(&p, &r));
    double qmax = 0;
    for (int64_t i = 0; i < 4 * p.ncell; i++) qmax = fmax(qmax, fabs(qref[i]));
    for (int incr = 0; incr < AIRFOIL_NINCR; incr++)
      for (int layout = 0; layout < 2; layout++)
        for (int block = 64; block <= 512; block *= 8)
          for (int fuse = 0; fuse < 2; fuse++) {
            airfoil_cuda_opts_t o = {(airfoil_incr_t)incr, (airfoil_layout_t)layout, block, fuse,
                                     AIRFOIL_SPLIT_AUTO, AIRFOIL_GRAPH_AUTO, AIRFOIL_L2_AUTO};
            airfoil_run_t g = {N, (airfoil_prec_t)prec, rms, q, 0, 0};
            ck_tsr(airfoil_cuda_run(&p, &o, &g));
            double wr = 0, wq = 0;
            int at = 0;
            for (int k = 0; k < N; k++) {
              double d = fabs(rms[k] / ref[k] - 1);
              if (!(d <= wr)) wr = d, at = k + 1;
            }
            for (int64_t i = 0; i < 4 * p.ncell; i++) {
              double d = fabs(q[i] - qref[i]) / qmax;
              if (!(d <= wq)) wq = d;
            }
            if (!(wr < tol && wq <= tol))
              ck_abort_msg("prec %d incr %d layout %d block %d fuse %d: rms max rel. diff %.3e "
                           "(iteration %d), q %.3e (tolerance %.0e)",
                           prec, incr, layout, block, fuse, wr, at, wq, tol);
          }
  }
  free(q);
  free(qref);
}

/* A copy of a mesh's problem with edge 0 doubled: its cells get its flux
 * twice and have 5 sides. (Dropping a boundary edge instead makes the
 * solver diverge.) */
START_TEST(test_irregular) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(12, 10, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  const int64_t ne = p.nedge + 1;
  int32_t *pedge = malloc(sizeof(int32_t) * 2 * ne), *pecell = malloc(sizeof(int32_t) * 2 * ne);
  memcpy(pedge, p.pedge, sizeof(int32_t) * 2 * p.nedge);
  memcpy(pecell, p.pecell, sizeof(int32_t) * 2 * p.nedge);
  pedge[2 * p.nedge] = p.pedge[0], pedge[2 * p.nedge + 1] = p.pedge[1];
  pecell[2 * p.nedge] = p.pecell[0], pecell[2 * p.nedge + 1] = p.pecell[1];
  p.pedge = pedge, p.pecell = pecell;
  p.nedge = p.nedge_core = p.nedge_exec = ne;
  airfoil_counts_t c;
  airfoil_counts_of(&p, &c);
  ck_assert_int_eq(c.gather_k, 5);
  check_problem(&p);
  free(pedge);
  free(pecell);
  tsr_mesh_destroy(&m);
}
END_TEST

/* Profiled runs: the history of the unprofiled run (bit for bit where the
 * increments are deterministic, atomics within 1e-10), launches counted as
 * the schedule says, every time positive. */
START_TEST(test_profile) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(20, 16, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  for (int incr = 0; incr < AIRFOIL_NINCR; incr++)
    for (int fuse = 0; fuse < 2; fuse++) {
      double plain[N], prof_rms[N];
      airfoil_cuda_opts_t o = {(airfoil_incr_t)incr, AIRFOIL_SOA, 128, fuse, AIRFOIL_SPLIT_AUTO,
                               AIRFOIL_GRAPH_AUTO, AIRFOIL_L2_AUTO};
      airfoil_run_t g = {N, AIRFOIL_DOUBLE, plain, NULL, 0, 0};
      ck_tsr(airfoil_cuda_run(&p, &o, &g));
      airfoil_profile_t pr;
      memset(&pr, 0, sizeof pr);
      g.rms = prof_rms;
      ck_tsr(airfoil_cuda_run_profile(&p, &o, &g, &pr));
      const int atomic = incr == AIRFOIL_ATOMIC || incr == AIRFOIL_ATOMIC1;
      for (int k = 0; k < N; k++)
        ck_assert_msg(atomic ? fabs(prof_rms[k] / plain[k] - 1) < 1e-10 : prof_rms[k] == plain[k],
                      "incr %d fuse %d iteration %d: %.17g profiled, %.17g not", incr, fuse, k,
                      prof_rms[k], plain[k]);
      const int one = incr == AIRFOIL_ATOMIC1 || incr == AIRFOIL_GATHER4;
      const int per_pass = incr == AIRFOIL_COLOUR || incr == AIRFOIL_SHARED ? 0 : 1;
      int64_t want[AIRFOIL_NKERNELS] = {0};
      const int pingpong = fuse && one;
      want[AIRFOIL_K_SAVE] = pingpong ? 0 : fuse ? 1 : N;
      want[AIRFOIL_K_ADT] = fuse ? 1 : 2 * N;
      if (one) want[AIRFOIL_K_RESB] = 2 * N;
      else want[AIRFOIL_K_RES] = want[AIRFOIL_K_BRES] = 2 * N;
      if (!fuse && (incr == AIRFOIL_GATHER || incr == AIRFOIL_GATHER4)) want[AIRFOIL_K_GATHER] = 2 * N;
      const int g_in_update = fuse && (incr == AIRFOIL_GATHER || incr == AIRFOIL_GATHER4);
      if (!fuse) want[AIRFOIL_K_UPDATE] = 2 * N;
      else if (g_in_update) want[AIRFOIL_K_GUPDATE_ADT] = want[AIRFOIL_K_GUPDATE_ADT_SAVE] = N;
      else want[AIRFOIL_K_UPDATE_ADT] = want[AIRFOIL_K_UPDATE_ADT_SAVE] = N;
      if (pingpong && g_in_update) /* no save_soln: both stages the same kernel */
        want[AIRFOIL_K_GUPDATE_ADT] = 2 * N, want[AIRFOIL_K_GUPDATE_ADT_SAVE] = 0;
      else if (pingpong)
        want[AIRFOIL_K_UPDATE_ADT] = 2 * N, want[AIRFOIL_K_UPDATE_ADT_SAVE] = 0;
      for (int k = 0; k < AIRFOIL_NKERNELS; k++) {
        /* colour and shared: several launches (colours) per pass */
        int ok = per_pass || (k != AIRFOIL_K_RES && k != AIRFOIL_K_BRES)
                     ? pr.calls[k] == want[k]
                     : pr.calls[k] >= want[k] && (want[k] == 0) == (pr.calls[k] == 0);
        ck_assert_msg(ok, "incr %d fuse %d: %s %lld launches, expected %lld", incr, fuse,
                      airfoil_kernel_name((airfoil_kernel_t)k), (long long)pr.calls[k],
                      (long long)want[k]);
        ck_assert((pr.calls[k] > 0) == (pr.seconds[k] > 0));
      }
    }
  tsr_mesh_destroy(&m);
}
END_TEST

START_TEST(test_variants) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(20, 16, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  check_problem(&p);
  for (int how = AIRFOIL_REORDER_GPS; how <= AIRFOIL_REORDER_PARTITION; how++) {
    airfoil_setup_t o = {(airfoil_reorder_t)how, 64, 1.001, 0, TSR_PARTITIONER_METIS, 0};
    airfoil_local_t l;
    ck_tsr(airfoil_local_create(MPI_COMM_SELF, m, "gen", &o, &l));
    if (how == AIRFOIL_REORDER_PARTITION) ck_assert(l.p.neblock > 0 && l.p.eblock_off);
    check_problem(&l.p);
    airfoil_local_free(&l);
  }
  tsr_mesh_destroy(&m);
}
END_TEST

/* The L2 persisting window (--l2-persist): fused gather4 and atomic1 with
 * the window off, on and auto give the history and q of the window off (bit
 * for bit for gather4, within 1e-10 relative for atomic1's atomics); off
 * reports no window; where the GPU has persisting L2, on and auto report one
 * on a small mesh, and on OP2's standard mesh in double gather4's fluxes
 * (46 MB) exceed an H200's 37.5 MiB set-aside: auto none, on a partial window, the
 * same bits. */
static void check_l2(const airfoil_problem_t *p, int iters, size_t maxp) {
  const int64_t nq = 4 * p->ncell;
  double *qo = malloc(sizeof(double) * (size_t)nq), *q = malloc(sizeof(double) * (size_t)nq);
  double *ro = malloc(sizeof(double) * (size_t)iters), *rr = malloc(sizeof(double) * (size_t)iters);
  const airfoil_incr_t incrs[2] = {AIRFOIL_GATHER4, AIRFOIL_ATOMIC1};
  for (int i = 0; i < 2; i++) {
    const int atomic = incrs[i] == AIRFOIL_ATOMIC1;
    airfoil_cuda_opts_t o = {incrs[i], AIRFOIL_AOS, 256, 1, AIRFOIL_SPLIT_AUTO, AIRFOIL_GRAPH_AUTO,
                             AIRFOIL_L2_OFF};
    airfoil_run_t off = {iters, AIRFOIL_DOUBLE, ro, qo, 0, 0};
    ck_tsr(airfoil_cuda_run(p, &o, &off));
    ck_assert_msg(off.l2_window == 0, "incr %d: a window with --l2-persist off", (int)incrs[i]);
    for (int mode = AIRFOIL_L2_AUTO; mode <= AIRFOIL_L2_ON; mode++) {
      o.l2 = (airfoil_l2_t)mode;
      airfoil_run_t r = {iters, AIRFOIL_DOUBLE, rr, q, 0, 0};
      ck_tsr(airfoil_cuda_run(p, &o, &r));
      const size_t bytes = (size_t)(atomic ? 4 * 8 * p->ncell : 4 * 8 * (p->nedge_exec + p->nbedge_exec + 1));
      const size_t want = maxp == 0 ? 0 : mode == AIRFOIL_L2_AUTO && bytes > maxp ? 0 : bytes;
      ck_assert_msg(r.l2_window == want, "incr %d mode %d: window %zu bytes, expected %zu (array %zu, set-aside %zu)",
                    (int)incrs[i], mode, r.l2_window, want, bytes, maxp);
      for (int k = 0; k < iters; k++)
        ck_assert_msg(atomic ? fabs(rr[k] / ro[k] - 1) < 1e-10 : rr[k] == ro[k],
                      "incr %d mode %d iteration %d: rms %.17g, %.17g without the window", (int)incrs[i],
                      mode, k, rr[k], ro[k]);
      double wq = 0;
      for (int64_t j = 0; j < nq; j++) wq = fmax(wq, fabs(q[j] - qo[j]));
      ck_assert_msg(atomic ? wq < 1e-10 : wq == 0, "incr %d mode %d: q differs by %.3e", (int)incrs[i], mode, wq);
    }
  }
  free(qo), free(q), free(ro), free(rr);
}

START_TEST(test_l2) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_SELF, TSR_DEV_CUDA, &dev));
  size_t maxp = 0, maxw = 0;
  ck_tsr(tsr_device_l2_persist_max(&dev, &maxp, &maxw));
  const int sizes[2][2] = {{20, 16}, {400, 600}};
  for (int s = 0; s < 2; s++) {
    tsr_mesh_t *m = NULL;
    ck_tsr(airfoil_naca0012(sizes[s][0], sizes[s][1], 1, &m));
    airfoil_problem_t p;
    ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
    check_l2(&p, s == 0 ? N : 4, maxp);
    tsr_mesh_destroy(&m);
  }
}
END_TEST

int main(void) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  MPI_Init(NULL, NULL);
  Suite *s = suite_create("airfoil_cuda");
  TCase *t = tcase_create("variants");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_variants);
  tcase_add_test(t, test_irregular);
  tcase_add_test(t, test_profile);
  tcase_add_test(t, test_l2);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
