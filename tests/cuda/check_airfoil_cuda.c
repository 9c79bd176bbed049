/* check_airfoil_cuda: every CUDA variant (increments x layout x precision,
 * two block sizes) against the CPU reference on a small generated mesh, in
 * the generator's numbering and after each reordering (GPS, RCM, METIS
 * partition blocks of <= 64 edges, which the shared-memory variant then
 * uses), each unfused (one kernel per loop) and fused (update + adt_calc +
 * save_soln; gather inside update): the rms history within 1e-9 (double) / 1e-3 (float) relative and
 * the final q within 1e-9 / 1e-3 relative to max |q|. Skips without a GPU. */
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "apps/airfoil/airfoil_mesh.h"
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
    for (int incr = 0; incr < 4; incr++)
      for (int layout = 0; layout < 2; layout++)
        for (int block = 64; block <= 512; block *= 8)
          for (int fuse = 0; fuse < 2; fuse++) {
            airfoil_cuda_opts_t o = {(airfoil_incr_t)incr, (airfoil_layout_t)layout, block, fuse};
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

START_TEST(test_variants) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(20, 16, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  check_problem(&p);
  for (int how = AIRFOIL_REORDER_GPS; how <= AIRFOIL_REORDER_PARTITION; how++) {
    airfoil_setup_t o = {(airfoil_reorder_t)how, 64, 1.001, 0, TSR_PARTITIONER_METIS};
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
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_variants);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
