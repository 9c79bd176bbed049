/* check_airfoil_mpi: Airfoil distributed OP2's way (METIS cells, owner-
 * compute halos, q/adt exchanges, rms allreduce) on a small generated mesh,
 * at whatever rank count the driver runs (1, 2, 3, 4):
 *  - the rms history equals the serial CPU reference (computed on every rank
 *    on the whole mesh) to 1e-12 relative, in the file's numbering and after
 *    every reordering (GPS, RCM, METIS partition blocks);
 *  - the final q written with -o semantics (airfoil_write_solution), read
 *    back, equals the serial final q in the original numbering to 1e-12
 *    relative to max |q|, and the pressure dat matches it;
 *  - a mesh read from a file by every rank (parallel HDF5, BLOCK) gives the
 *    same history as the generated one. */
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "apps/airfoil/airfoil_mesh.h"
#include "inputs/naca0012.h"

enum { N = 40 };
#define TOL 1e-12

static double max_rel(const double *a, const double *b, int n) {
  double w = 0;
  for (int k = 0; k < n; k++) {
    double d = fabs(a[k] / b[k] - 1);
    if (!(d <= w)) w = d;
  }
  return w;
}

START_TEST(test_histories) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(24, 14, 1, &m));
  airfoil_problem_t ps;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &ps));
  double ref[N], rms[N];
  airfoil_run_t rs = {N, AIRFOIL_DOUBLE, ref, NULL, 0};
  ck_tsr(airfoil_cpu_ref(&ps, &rs));
  for (int how = AIRFOIL_REORDER_NONE; how <= AIRFOIL_REORDER_PARTITION; how++) {
    airfoil_setup_t o = {(airfoil_reorder_t)how, 64, 1.001, 0, TSR_PARTITIONER_METIS};
    airfoil_local_t l;
    ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, "gen", &o, &l));
    airfoil_run_t r = {N, AIRFOIL_DOUBLE, rms, NULL, 0};
    int rc = airfoil_cpu_ref(&l.p, &r);
    double w = rc ? 1 : max_rel(rms, ref, N);
    airfoil_local_free(&l);
    ck_assert_msg(tsr_test_all(rc == 0 && w < TOL), "reorder %d: rc %d, max rel. diff %.3e", how, rc, w);
  }
  tsr_mesh_destroy(&m);
}
END_TEST

START_TEST(test_output_and_block_read) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char in[256], out[256];
  tsr_test_tmpname(in, sizeof in, "afmpi-in.h5");
  tsr_test_tmpname(out, sizeof out, "afmpi-out.h5");
  /* the same names on every rank: rank 0's pid */
  long pid = (long)getpid();
  MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  const char *d = getenv("TMPDIR");
  snprintf(in, sizeof in, "%s/tsr-afmpi-in.%ld.h5", d && *d ? d : "/tmp", pid);
  snprintf(out, sizeof out, "%s/tsr-afmpi-out.%ld.h5", d && *d ? d : "/tmp", pid);
  tsr_mesh_t *g = NULL;
  ck_tsr(airfoil_naca0012(24, 14, 1, &g));
  airfoil_problem_t ps;
  ck_tsr(airfoil_problem_from_mesh(g, "gen", &ps));
  double ref[N], rms[N];
  double *qs = malloc(sizeof(double) * 4 * ps.ncell);
  airfoil_run_t rs = {N, AIRFOIL_DOUBLE, ref, qs, 0};
  ck_tsr(airfoil_cpu_ref(&ps, &rs));
  ck_tsr(airfoil_mesh_write(MPI_COMM_WORLD, in, g, NULL));
  /* read by blocks, partition, reorder, run, write back */
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_mesh_read(MPI_COMM_WORLD, in, &m));
  airfoil_setup_t o = {AIRFOIL_REORDER_GPS, 64, 1.001, 0, TSR_PARTITIONER_METIS};
  airfoil_local_t l;
  ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, in, &o, &l));
  double *q = malloc(sizeof(double) * (4 * l.p.ncell + 1));
  airfoil_run_t r = {N, AIRFOIL_DOUBLE, rms, q, 0};
  ck_tsr(airfoil_cpu_ref(&l.p, &r));
  double w = max_rel(rms, ref, N);
  ck_assert_msg(tsr_test_all(w < TOL), "history of the file read by blocks: %.3e", w);
  ck_tsr(airfoil_write_solution(MPI_COMM_WORLD, out, m, &l, q, NULL));
  /* read back whole on every rank (a serial view through MPI_COMM_SELF) */
  tsr_mesh_t *back = NULL;
  ck_tsr(airfoil_mesh_read(MPI_COMM_SELF, out, &back));
  const double *bq = tsr_mesh_dat(back, tsr_mesh_find_dat(back, "p_q"))->data;
  double qmax = 0, worst = 0, pworst = 0;
  for (int64_t i = 0; i < 4 * ps.ncell; i++) qmax = fmax(qmax, fabs(qs[i]));
  for (int64_t i = 0; i < 4 * ps.ncell; i++) worst = fmax(worst, fabs(bq[i] - qs[i]) / qmax);
  /* pressure: read as an extra dat */
  tsr_io_dat_t pd = {"pressure", "cells", TSR_DOUBLE};
  tsr_mesh_spec_t spec = {0, NULL, 0, NULL, 1, &pd, 0, NULL};
  tsr_mesh_t *pm = NULL;
  ck_tsr(tsr_mesh_read(MPI_COMM_SELF, out, &spec, &pm));
  const double *pp = tsr_mesh_dat(pm, 0)->data;
  for (int64_t c = 0; c < ps.ncell; c++) {
    const double *v = qs + 4 * c;
    double want = ps.c.gm1 * (v[3] - 0.5 * (v[1] * v[1] + v[2] * v[2]) / v[0]);
    pworst = fmax(pworst, fabs(pp[c] - want) / fabs(want));
  }
  char xmf[300];
  tsr_xdmf_path(out, xmf, sizeof xmf);
  int have_xmf = access(xmf, R_OK) == 0;
  ck_assert_msg(tsr_test_all(worst < TOL && pworst < 1e-10 && have_xmf),
                "final q in the original numbering: %.3e, pressure %.3e, xdmf %d", worst, pworst,
                have_xmf);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) unlink(in), unlink(out), unlink(xmf);
  tsr_mesh_destroy(&pm);
  tsr_mesh_destroy(&back);
  airfoil_local_free(&l);
  tsr_mesh_destroy(&m);
  tsr_mesh_destroy(&g);
  free(q);
  free(qs);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("airfoil_mpi");
  TCase *t = tcase_create("mpi");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_histories);
  tcase_add_test(t, test_output_and_block_read);
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, suite); }
