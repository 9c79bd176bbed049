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
 * deterministic strategies, every launch counted). Skips without a GPU. */
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
    airfoil_run_t r = {N, (airfoil_prec_t)prec, ref, qref, 0};
    ck_tsr(airfoil_cpu_ref(&p, &r));
    double qmax = 0;
    for (int64_t i = 0; i < 4 * p.ncell; i++) qmax = fmax(qmax, fabs(qref[i]));
    for (int incr = 0; incr < AIRFOIL_NINCR; incr++)
      for (int layout = 0; layout < 2; layout++)
        for (int block = 64; block <= 512; block *= 8)
          for (int fuse = 0; fuse < 2; fuse++) {
            airfoil_cuda_opts_t o = {(airfoil_incr_t)incr, (airfoil_layout_t)layout, block, fuse,
                                     AIRFOIL_SPLIT_AUTO, AIRFOIL_GRAPH_AUTO};
            airfoil_run_t g = {N, (airfoil_prec_t)prec, rms, q, 0};
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
                               AIRFOIL_GRAPH_AUTO};
      airfoil_run_t g = {N, AIRFOIL_DOUBLE, plain, NULL, 0};
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

int main(void) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  MPI_Init(NULL, NULL);
  Suite *s = suite_create("airfoil_cuda");
  TCase *t = tcase_create("variants");
  tcase_set_timeout(t, 300);
  tcase_add_test(t, test_variants);
  tcase_add_test(t, test_irregular);
  tcase_add_test(t, test_profile);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
