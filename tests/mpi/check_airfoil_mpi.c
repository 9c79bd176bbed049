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
 *    same history as the generated one;
 *  - PT-Scotch partitions (when built --with-ptscotch) give the same history;
 *  - the halo of q held SoA (tsr_halo_create_planes: four planes in one
 *    exchange) fills every halo row with its owner's values, as the AoS
 *    exchange does (values made from global ids, so independent of both);
 *  - with a GPU on every rank: each CUDA variant (strategy x layout, fused
 *    and not, update in one launch or two, a stage as a CUDA graph or not,
 *    in the file's numbering and partition-reordered, halos host-staged, by
 *    CUDA IPC and by NCCL) gives the
 *    rms history of the same variant run serially on the whole mesh to
 *    1e-12 relative, and the CPU reference's to 1e-9; the final owned q to
 *    1e-12 of max |q|. Without a GPU that case is left out (one comment). */
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/airfoil/airfoil_mesh.h"
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
  airfoil_run_t rs = {N, AIRFOIL_DOUBLE, ref, NULL, 0, 0};
  ck_tsr(airfoil_cpu_ref(&ps, &rs));
  for (int how = AIRFOIL_REORDER_NONE; how <= AIRFOIL_REORDER_PARTITION; how++) {
    airfoil_setup_t o = {(airfoil_reorder_t)how, 64, 1.001, 0, TSR_PARTITIONER_METIS, 0};
    airfoil_local_t l;
    ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, "gen", &o, &l));
    airfoil_run_t r = {N, AIRFOIL_DOUBLE, rms, NULL, 0, 0};
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
  airfoil_run_t rs = {N, AIRFOIL_DOUBLE, ref, qs, 0, 0};
  ck_tsr(airfoil_cpu_ref(&ps, &rs));
  ck_tsr(airfoil_mesh_write(MPI_COMM_WORLD, in, g, NULL));
  /* read by blocks, partition, reorder, run, write back */
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_mesh_read(MPI_COMM_WORLD, in, &m));
  airfoil_setup_t o = {AIRFOIL_REORDER_GPS, 64, 1.001, 0, TSR_PARTITIONER_METIS, 0};
  airfoil_local_t l;
  ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, in, &o, &l));
  double *q = malloc(sizeof(double) * (4 * l.p.ncell + 1));
  airfoil_run_t r = {N, AIRFOIL_DOUBLE, rms, q, 0, 0};
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

START_TEST(test_ptscotch) {
  if (!tsr_partitioner_have_ptscotch()) return; /* nothing to compare without it */
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(24, 14, 1, &m));
  airfoil_problem_t ps;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &ps));
  double ref[N], rms[N];
  airfoil_run_t rs = {N, AIRFOIL_DOUBLE, ref, NULL, 0, 0};
  ck_tsr(airfoil_cpu_ref(&ps, &rs));
  airfoil_setup_t o = {AIRFOIL_REORDER_NONE, 64, 1.001, 0, TSR_PARTITIONER_PTSCOTCH, 0};
  airfoil_local_t l;
  ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, "gen", &o, &l));
  airfoil_run_t r = {N, AIRFOIL_DOUBLE, rms, NULL, 0, 0};
  int rc = airfoil_cpu_ref(&l.p, &r);
  double w = rc ? 1 : max_rel(rms, ref, N);
  airfoil_local_free(&l);
  tsr_mesh_destroy(&m);
  ck_assert_msg(tsr_test_all(rc == 0 && w < TOL), "PT-Scotch: rc %d, max rel. diff %.3e", rc, w);
}
END_TEST

START_TEST(test_partitioner_names) {
  tsr_partitioner_t m = TSR_PARTITIONER_GIVEN;
  ck_tsr(tsr_partitioner_parse("metis", &m));
  ck_assert_int_eq(m, TSR_PARTITIONER_METIS);
  ck_tsr(tsr_partitioner_parse("ptscotch", &m));
  ck_assert_int_eq(m, TSR_PARTITIONER_PTSCOTCH);
  ck_tsr(tsr_partitioner_parse("block", &m));
  ck_assert_int_eq(m, TSR_PARTITIONER_BLOCK);
  ck_tsr_fails(tsr_partitioner_parse("Metis", &m), TSR_ERR_ARG);
  ck_tsr_fails(tsr_partitioner_parse(NULL, &m), TSR_ERR_ARG);
  ck_assert_str_eq(tsr_partitioner_name(TSR_PARTITIONER_PTSCOTCH), "ptscotch");
  ck_assert_str_eq(tsr_partitioner_name(TSR_PARTITIONER_METIS), "metis");
}
END_TEST

/* Value of component n of the cell with global id g. */
static double cell_value(int64_t g, int n) { return 1000.0 * (double)g + n + 0.25; }

START_TEST(test_halo_planes) {
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(24, 14, 1, &m));
  airfoil_setup_t o = {AIRFOIL_REORDER_GPS, 64, 1.001, 0, TSR_PARTITIONER_METIS, 0};
  airfoil_local_t l;
  ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, "gen", &o, &l));
  const int64_t nc = l.p.ncell, nco = l.p.ncell_owned;
  const int64_t *gid = tsr_mesh_set(l.mesh, tsr_mesh_find_set(l.mesh, "cells"))->global_id;
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ck_assert(size == 1 || (l.halo && gid && nco < nc));
  if (size > 1) {
    double *aos = malloc(sizeof(double) * 4 * nc), *soa = malloc(sizeof(double) * 4 * nc);
    for (int64_t i = 0; i < nc; i++)
      for (int n = 0; n < 4; n++) /* owned rows right, halo rows wrong */
        aos[4 * i + n] = soa[n * nc + i] = i < nco ? cell_value(gid[i], n) : -1.0;
    tsr_device_t cpu;
    ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
    tsr_halo_t *planes = NULL, *copy = NULL;
    ck_tsr(tsr_halo_create_planes(l.halo, 4, nc, &planes));
    ck_tsr(tsr_halo_create_planes(l.halo, 1, nc, &copy));
    ck_assert(tsr_halo_recv_count(planes) == 4 * tsr_halo_recv_count(l.halo));
    ck_tsr(tsr_halo_begin(planes, &cpu, soa, 1, TSR_DOUBLE));
    ck_tsr(tsr_halo_begin(copy, &cpu, aos, 4, TSR_DOUBLE)); /* both in flight */
    ck_tsr(tsr_halo_end(copy, &cpu, aos, 4, TSR_DOUBLE));
    ck_tsr(tsr_halo_end(planes, &cpu, soa, 1, TSR_DOUBLE));
    int64_t bad = 0, filled = 0;
    for (int64_t i = nco; i < nc; i++) {
      int got = 0;
      for (int n = 0; n < 4; n++) {
        bad += soa[n * nc + i] != aos[4 * i + n];
        got += aos[4 * i + n] == cell_value(gid[i], n);
      }
      filled += got == 4;
    }
    /* every halo row the exchange fills is a cell some rank owns: all of them */
    ck_assert_msg(bad == 0 && filled == nc - nco, "SoA planes vs AoS: %lld differ, %lld of %lld "
                  "halo rows hold their owner's values", (long long)bad, (long long)filled,
                  (long long)(nc - nco));
    tsr_halo_t *none = NULL;
    ck_tsr_fails(tsr_halo_create_planes(l.halo, 0, nc, &none), TSR_ERR_ARG);
    ck_assert_ptr_null(none);
    tsr_halo_destroy(&planes);
    tsr_halo_destroy(&copy);
    free(aos);
    free(soa);
  }
  airfoil_local_free(&l);
  tsr_mesh_destroy(&m);
}
END_TEST

enum { NG = 30 };

START_TEST(test_cuda_histories) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &dev));
  tsr_mesh_t *m = NULL;
  ck_tsr(airfoil_naca0012(24, 14, 1, &m));
  airfoil_problem_t ps;
  ck_tsr(airfoil_problem_from_mesh(m, "gen", &ps));
  double cref[NG], gref[NG], rms[NG];
  double *qs = malloc(sizeof(double) * 4 * ps.ncell);
  airfoil_run_t rc_ = {NG, AIRFOIL_DOUBLE, cref, NULL, 0, 0};
  ck_tsr(airfoil_cpu_ref(&ps, &rc_));
  for (int k = 0; k < 6; k++) { /* reorder none / partition, halo staged / CUDA IPC / NCCL */
    const int how = k % 2 ? AIRFOIL_REORDER_PARTITION : AIRFOIL_REORDER_NONE;
    const tsr_halo_transport_t tr = k / 2 == 2 ? TSR_HALO_NCCL : k / 2 ? TSR_HALO_IPC : TSR_HALO_STAGED;
    if (tr == TSR_HALO_NCCL && !tsr_halo_nccl_available()) continue;
    airfoil_setup_t so = {(airfoil_reorder_t)how, 64, 1.001, 0, TSR_PARTITIONER_METIS, (int)tr};
    airfoil_local_t l;
    ck_tsr(airfoil_local_create(MPI_COMM_WORLD, m, "gen", &so, &l));
    const int64_t *gid = tsr_mesh_set(l.mesh, tsr_mesh_find_set(l.mesh, "cells"))->global_id;
    double *q = malloc(sizeof(double) * (4 * l.p.ncell + 1));
    int nccl_refused = 0;
    for (int incr = 0; incr < AIRFOIL_NINCR && !nccl_refused; incr++)
      for (int layout = 0; layout < 2 && !nccl_refused; layout++)
        for (int fs = 0; fs < 4 && !nccl_refused; fs++) {
          /* unfused; fused, update in one launch, or two (a stage as a CUDA graph where IPC's put
             goes, and launched from the host) */
          const int fuse = fs > 0;
          airfoil_cuda_opts_t o = {(airfoil_incr_t)incr, (airfoil_layout_t)layout, 64, fuse,
                                   fs >= 2 ? AIRFOIL_SPLIT_ON : AIRFOIL_SPLIT_OFF,
                                   fs == 3 ? AIRFOIL_GRAPH_OFF : AIRFOIL_GRAPH_AUTO,
                                   AIRFOIL_L2_AUTO};
          airfoil_run_t g = {NG, AIRFOIL_DOUBLE, gref, qs, 0, 0};
          ck_tsr(airfoil_cuda_run(&ps, &o, &g)); /* serial, whole mesh */
          airfoil_run_t r = {NG, AIRFOIL_DOUBLE, rms, q, 0, 0};
          int rc = airfoil_cuda_run(&l.p, &o, &r);
          if (rc == TSR_ERR_UNSUPPORTED && tr == TSR_HALO_NCCL) { /* agreed: ranks share a GPU */
            int me;
            MPI_Comm_rank(MPI_COMM_WORLD, &me);
            if (me == 0) printf("# nccl: not run (%s)\n", tsr_error_message()), fflush(stdout);
            tsr_error_clear();
            nccl_refused = 1;
            continue;
          }
          double wg = rc ? 1 : max_rel(rms, gref, NG), wc = rc ? 1 : max_rel(rms, cref, NG);
          double qmax = 0, wq = 0;
          for (int64_t i = 0; i < 4 * ps.ncell; i++) qmax = fmax(qmax, fabs(qs[i]));
          for (int64_t i = 0; !rc && i < l.p.ncell_owned; i++)
            for (int n = 0; n < 4; n++)
              wq = fmax(wq, fabs(q[4 * i + n] - qs[4 * (gid ? gid[i] : i) + n]) / qmax);
          if (!tsr_test_all(rc == 0 && wg < TOL && wc < 1e-9 && wq < TOL))
            ck_abort_msg("reorder %d halo %s incr %d layout %d fuse %d split %d graph %d: rc %d (%s), "
                         "vs serial GPU %.3e, vs CPU %.3e, q %.3e", how, tsr_halo_transport_name(tr),
                         incr, layout, fuse, fs >= 2, fs == 2, rc,
                         rc ? tsr_error_message() : "", wg, wc, wq);
        }
    free(q);
    airfoil_local_free(&l);
  }
  free(qs);
  tsr_mesh_destroy(&m);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("airfoil_mpi");
  TCase *t = tcase_create("mpi");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_histories);
  tcase_add_test(t, test_output_and_block_read);
  tcase_add_test(t, test_ptscotch);
  tcase_add_test(t, test_partitioner_names);
  tcase_add_test(t, test_halo_planes);
  /* the CUDA case only when every rank sees a GPU */
  int gpu = tsr_device_cuda_count() > 0, all = 0, rank;
  MPI_Allreduce(&gpu, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (all) tcase_add_test(t, test_cuda_histories);
  else if (rank == 0) fprintf(stderr, "CUDA case skipped: no CUDA device\n");
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, suite); }
