/* check_airfoil_profile: --profile on the CPU. The profiled reference keeps
 * the rms history bit for bit and counts every loop it runs; the report's
 * rows (text and CSV) are the kernels that ran plus a sum that adds them
 * up, with bytes from the byte model; the byte model reproduces the
 * documented floor (564.6 MB per iteration on OP2's standard mesh) and the
 * bytes fusion saves; the counts of a mesh match brute force. */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

enum { N = 30 };

/* The profiled run: same history as the plain one, calls as the schedule
 * says (one rank: core only), times inside the run's wall time. */
START_TEST(test_profile_cpu) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(20, 16, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  double plain[N], prof_rms[N];
  airfoil_run_t r = {N, AIRFOIL_DOUBLE, plain, NULL, 0, 0};
  ck_tsr(airfoil_cpu_ref(&p, &r));
  airfoil_profile_t pr;
  memset(&pr, 0, sizeof pr);
  r.rms = prof_rms;
  ck_tsr(airfoil_cpu_ref_profile(&p, &r, &pr));
  for (int k = 0; k < N; k++) ck_assert_double_eq(plain[k], prof_rms[k]);
  const int64_t want[AIRFOIL_NKERNELS] = {[AIRFOIL_K_SAVE] = N, [AIRFOIL_K_ADT] = 2 * N,
                                          [AIRFOIL_K_RES] = 2 * N, [AIRFOIL_K_BRES] = 2 * N,
                                          [AIRFOIL_K_UPDATE] = 2 * N};
  double sum = 0;
  for (int k = 0; k < AIRFOIL_NKERNELS; k++) {
    ck_assert_msg(pr.calls[k] == want[k], "%s: %lld calls, expected %lld",
                  airfoil_kernel_name((airfoil_kernel_t)k), (long long)pr.calls[k],
                  (long long)want[k]);
    ck_assert(pr.seconds[k] >= 0 && (want[k] > 0 || pr.seconds[k] == 0));
    sum += pr.seconds[k];
  }
  ck_assert(pr.seconds[AIRFOIL_K_RES] > 0);
  ck_assert_msg(sum <= r.seconds * (1 + 1e-9), "kernels %.6f s > run %.6f s", sum, r.seconds);
  /* the profile adds up: a second run doubles the calls */
  ck_tsr(airfoil_cpu_ref_profile(&p, &r, &pr));
  ck_assert_int_eq(pr.calls[AIRFOIL_K_RES], 4 * N);
  tsr_mesh_destroy(&m);
}
END_TEST

/* Split a CSV line in place; returns the number of fields. */
static int split(char *line, char **f, int most) {
  int n = 0;
  for (char *s = strtok(line, ",\n"); s && n < most; s = strtok(NULL, ",\n")) f[n++] = s;
  return n;
}

/* The report: one CSV row per kernel that ran, in enum order, then "sum";
 * each number as the model and the profile say. */
START_TEST(test_profile_report) {
  airfoil_profile_t pr;
  memset(&pr, 0, sizeof pr);
  pr.calls[AIRFOIL_K_RESB] = 2 * N, pr.seconds[AIRFOIL_K_RESB] = 0.25;
  pr.calls[AIRFOIL_K_GUPDATE_ADT] = N, pr.seconds[AIRFOIL_K_GUPDATE_ADT] = 0.125;
  pr.calls[AIRFOIL_K_GUPDATE_ADT_SAVE] = N, pr.seconds[AIRFOIL_K_GUPDATE_ADT_SAVE] = 0.1875;
  pr.calls[AIRFOIL_K_SAVE] = 1, pr.seconds[AIRFOIL_K_SAVE] = 0.001;
  pr.calls[AIRFOIL_K_ADT] = 1, pr.seconds[AIRFOIL_K_ADT] = 0.002;
  airfoil_counts_t c = {1000, 900, 1800, 120, 118, 120, 4};
  airfoil_profile_label_t l = {"cuda/gather4/soa", "double", "none", 1, 256, 1, N, 2e12,
                               0.75, 0.5};
  FILE *csv = tmpfile(), *table = tmpfile();
  ck_assert(csv && table);
  airfoil_profile_csv_header(csv);
  airfoil_profile_report(&pr, AIRFOIL_GATHER4, &c, 8, &l, table, csv);
  rewind(csv);
  char line[1024], *f[32];
  ck_assert(fgets(line, sizeof line, csv));
  ck_assert_int_eq(split(line, f, 32), 20);
  ck_assert_str_eq(f[8], "kernel");
  const airfoil_kernel_t order[5] = {AIRFOIL_K_SAVE, AIRFOIL_K_ADT, AIRFOIL_K_RESB,
                                     AIRFOIL_K_GUPDATE_ADT, AIRFOIL_K_GUPDATE_ADT_SAVE};
  double sec = 0, bytes = 0;
  long long calls = 0;
  for (int i = 0; i <= 5; i++) {
    ck_assert(fgets(line, sizeof line, csv));
    ck_assert_int_eq(split(line, f, 32), 20);
    ck_assert_str_eq(f[1], "cuda/gather4/soa");
    ck_assert_str_eq(f[6], "yes");
    double s = atof(f[11]), b = atof(f[14]), g = atof(f[15]), pct = atof(f[17]);
    if (i < 5) {
      const airfoil_kernel_t k = order[i];
      const double passes = airfoil_kernel_passes(k, pr.calls[k], N);
      ck_assert_double_eq(passes, k == AIRFOIL_K_RESB ? 2 * N : (double)pr.calls[k]);
      ck_assert_str_eq(f[8], airfoil_kernel_name(k));
      ck_assert_int_eq(atoll(f[9]), pr.calls[k]);
      ck_assert_double_eq(atof(f[10]), passes);
      ck_assert_double_eq_tol(s, pr.seconds[k], 1e-12);
      ck_assert_double_eq(atof(f[13]), airfoil_kernel_bytes(k, AIRFOIL_GATHER4, &c, 8));
      ck_assert_double_eq(b, passes * airfoil_kernel_bytes(k, AIRFOIL_GATHER4, &c, 8));
      sec += s, bytes += b, calls += atoll(f[9]);
    } else {
      ck_assert_str_eq(f[8], "sum");
      ck_assert_double_eq_tol(s, sec, 1e-12);
      ck_assert_double_eq(b, bytes);
      ck_assert_int_eq(atoll(f[9]), calls);
    }
    ck_assert_double_eq_tol(atof(f[12]) / (s * 1000.0 / N), 1, 1e-8);
    ck_assert_double_eq_tol(g / (b / s * 1e-9), 1, 1e-5);
    ck_assert_double_eq_tol(pct / (100 * b / 2e12 / s), 1, 1e-3);
    ck_assert_double_eq(atof(f[18]), 0.75);
    ck_assert_double_eq(atof(f[19]), 0.5);
  }
  ck_assert(!fgets(line, sizeof line, csv));
  /* the table: a title, a header, the same six rows, the run line */
  rewind(table);
  int rows = 0, sum_row = 0;
  while (fgets(line, sizeof line, table)) {
    for (int i = 0; i < 5; i++) {
      char want[64];
      snprintf(want, sizeof want, "  %s ", airfoil_kernel_name(order[i]));
      rows += strncmp(line, want, strlen(want)) == 0;
    }
    sum_row += strncmp(line, "  sum ", 6) == 0;
  }
  ck_assert_int_eq(rows, 5);
  ck_assert_int_eq(sum_row, 1);
  fclose(csv);
  fclose(table);
}
END_TEST

/* The model against docs/AIRFOIL.md: OP2's loops one kernel each (bres
 * counting its maps only) give the floor of the standard mesh, 564.6 MB per
 * iteration in double; fusing update + adt_calc + save_soln saves q's
 * three reads (12 R per cell), ping-pong buffers the qold write (4 R);
 * gather4's fixed map is 4 K bytes per cell. */
START_TEST(test_byte_model) {
  airfoil_counts_t c = {721801, 720000, 1438600, 2800, 0, 0, 4};
  const double R = 8, nn = 721801, nc = 720000, ne = 1438600, nb = 2800;
  const double floor = 8 * R * nc + 2 * (2 * R * nn + (16 + 5 * R) * nc) +
                       2 * (16 * ne + 2 * R * nn + 13 * R * nc) + 2 * 16 * nb + 2 * 17 * R * nc;
  double unfused = 0, fused = 0;
  const airfoil_kernel_t uk[5] = {AIRFOIL_K_SAVE, AIRFOIL_K_ADT, AIRFOIL_K_RES, AIRFOIL_K_BRES,
                                  AIRFOIL_K_UPDATE};
  for (int i = 0; i < 5; i++)
    unfused += airfoil_kernel_bytes(uk[i], AIRFOIL_ATOMIC, &c, 8) *
               airfoil_kernel_passes(uk[i], i == 0 ? 1000 : 2000, 1000) / 1000;
  ck_assert_double_eq_tol(unfused, floor, 1e-6);
  ck_assert_double_eq_tol(unfused * 1e-6, 564.6, 0.05);
  const airfoil_kernel_t fk[4] = {AIRFOIL_K_RES, AIRFOIL_K_BRES, AIRFOIL_K_UPDATE_ADT,
                                  AIRFOIL_K_UPDATE_ADT_SAVE};
  for (int i = 0; i < 4; i++)
    fused += airfoil_kernel_bytes(fk[i], AIRFOIL_ATOMIC, &c, 8) * airfoil_kernel_passes(fk[i], 1, 1);
  /* ping-pong (atomic1, gather4) leaves out save_soln's qold write too */
  const double pp = 2 * airfoil_kernel_bytes(AIRFOIL_K_RESB, AIRFOIL_ATOMIC1, &c, 8) +
                    2 * airfoil_kernel_bytes(AIRFOIL_K_UPDATE_ADT, AIRFOIL_ATOMIC1, &c, 8);
  ck_assert_double_eq_tol(fused - pp, 4 * R * nc, 1e-6);
  ck_assert_double_eq_tol(unfused - fused, 12 * R * nc, 1e-6);
  /* gather4 against gather: only the gathering map differs */
  double g4 = airfoil_kernel_bytes(AIRFOIL_K_GUPDATE_ADT, AIRFOIL_GATHER4, &c, 8);
  double g = airfoil_kernel_bytes(AIRFOIL_K_GUPDATE_ADT, AIRFOIL_GATHER, &c, 8);
  ck_assert_double_eq_tol(g - g4, 16 * (nc + 1) + 4 * (2 * ne + nb) - 16 * nc, 1e-6);
  /* res+bres in one launch reads x, q and adt once */
  double rb = airfoil_kernel_bytes(AIRFOIL_K_RESB, AIRFOIL_ATOMIC1, &c, 8);
  ck_assert_double_eq_tol(rb, 16 * ne + 16 * nb + 2 * R * nn + 13 * R * nc, 1e-6);
  ck_assert_double_eq(airfoil_kernel_bytes(AIRFOIL_NKERNELS, AIRFOIL_ATOMIC, &c, 8), 0);
}
END_TEST

/* The counts of a generated mesh: distinct bedge nodes and cells by brute
 * force, four sides per cell. */
START_TEST(test_counts) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(12, 9, 1, &m));
  airfoil_problem_t p;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &p));
  airfoil_counts_t c;
  airfoil_counts_of(&p, &c);
  ck_assert_int_eq(c.nnode, p.nnode);
  ck_assert_int_eq(c.ncell, p.ncell);
  ck_assert_int_eq(c.nedge, p.nedge);
  ck_assert_int_eq(c.nbedge, p.nbedge);
  ck_assert_int_eq(c.gather_k, 4);
  int64_t dn = 0, dc = 0;
  for (int64_t i = 0; i < 2 * p.nbedge; i++) {
    int first = 1;
    for (int64_t j = 0; j < i; j++) first &= p.pbedge[j] != p.pbedge[i];
    dn += first;
  }
  for (int64_t i = 0; i < p.nbedge; i++) {
    int first = 1;
    for (int64_t j = 0; j < i; j++) first &= p.pbecell[j] != p.pbecell[i];
    dc += first;
  }
  ck_assert_int_eq(c.nbnode, dn);
  ck_assert_int_eq(c.nbcell, dc);
  tsr_mesh_destroy(&m);
}
END_TEST

static Suite *profile_suite(void) {
  Suite *s = suite_create("airfoil_profile");
  TCase *t = tcase_create("core");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_profile_cpu);
  tcase_add_test(t, test_profile_report);
  tcase_add_test(t, test_byte_model);
  tcase_add_test(t, test_counts);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  MPI_Init(NULL, NULL);
  int rc = tsr_test_run(profile_suite());
  MPI_Finalize();
  return rc;
}
