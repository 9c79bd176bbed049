/* check_lulesh_dist_cuda: tsr-lulesh's GPU step on several ranks
 * (kernels/lulesh/lulesh_cuda.h: lulesh_cuda_step_dist, the exchanges of
 * lulesh_dist.h on device arrays) at the rank count it runs under (the
 * ranks share the GPUs present); skips without a GPU or without CUDA.
 *
 * For each node-force assembly (gather, fused and not; atomic; colour;
 * two-level; atomic with FMA) on the METIS parts of the -s 6 cube, and on
 * the cube decomposition (-s 3 per rank) where the rank count is a cube, a
 * whole run to the stop time on the GPU against
 *   - the same parts run by the CPU's distributed step (lulesh_step), and
 *   - one rank's CPU run of the whole cube:
 * the same cycle count, e(0) and total energy within REL_TOL; the copies of
 * every shared node hold the same bits (positions and velocities) after the
 * run; the gather assembly (no atomics anywhere: the node sums add the
 * holders' partial sums in a fixed order) gives the same bits in two runs.
 * A VolumeError on one rank's GPU ends the step on every rank with that
 * rank's message.
 *
 * REL_TOL 1e-12 (the reference check's tolerance): the GPU assemblies sum a
 * node's 8 corner forces in their own order (tests/cuda/check_lulesh_cuda:
 * whole runs within 1e-12 of the CPU's on one rank), the rank count changes
 * the order of the sums over shared nodes (check_lulesh_dist: within
 * 2e-15), and FMA contraction rounds differently; each is orders below the
 * third-digit change of e(0) that a missed force contribution or ghost
 * gradient makes. */
#include "config.h"
#include <math.h>
#include <string.h>
#include "tsr_check.h"
#include "lulesh_check.h"
#ifdef TSR_HAVE_CUDA
#include "kernels/lulesh/lulesh_cuda.h"
#endif

#ifndef TSR_HAVE_CUDA
int main(int argc, char **argv) {
  return tsr_test_mpi_skip_all(&argc, &argv, "no CUDA device (built without CUDA)");
}
#else

#define REL_TOL 1e-12
#define EDGE 6

static int g_rank, g_size;

typedef struct {
  const char *name;
  lulesh_cuda_opts_t o;
} asm_case_t;

static const asm_case_t cases[] = {
    {"gather", {.assembly = LULESH_ASM_GATHER, .fuse = 1}},
    {"gather unfused", {.assembly = LULESH_ASM_GATHER, .fuse = 0, .block = 64}},
    {"atomic", {.assembly = LULESH_ASM_ATOMIC, .fuse = 1}},
    {"colour", {.assembly = LULESH_ASM_COLOUR, .fuse = 1}},
    {"twolevel", {.assembly = LULESH_ASM_TWOLEVEL, .fuse = 1}},
    {"atomic fma", {.assembly = LULESH_ASM_ATOMIC, .fuse = 1, .fma = 1}},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The GPU run of parts m (exchanges of d) for case c: result, final state
 * (host) in *s (the caller frees it). */
static void gpu_run(const lulesh_mesh_t *m, lulesh_dist_t *d, const lulesh_cuda_opts_t *o,
                    lulesh_state_t *s, lulesh_result_t *r) {
  ck_tsr(lulesh_state_init_ex(s, m, 1, lulesh_dist_exchange(d)));
  ck_tsr(lulesh_cuda_run_opts(s, o, 0, r));
}

static void compare(lulesh_decomp_t dec, int size, int gedge) {
  lulesh_mesh_t g, m;
  lulesh_state_t sg, sc;
  lulesh_result_t rg, rc;
  lulesh_dist_t *d;
  lulesh_test_serial_run(gedge, 0, &g, &sg, &rg); /* one rank, CPU */
  lulesh_test_dist_state(dec, size, &m, &d, &sc);
  ck_tsr(lulesh_run(&sc, 0, &rc)); /* the same parts, CPU */
  REQ_EQ(rc.cycles, rg.cycles);
  for (int k = 0; k < NCASES; k++) {
    lulesh_state_t s;
    lulesh_result_t r;
    gpu_run(&m, d, &cases[k].o, &s, &r);
    double cx, cv;
    lulesh_test_copy_diffs(d, &s, &cx, &cv);
    const double dc0 = lulesh_test_rel(r.e_origin, rc.e_origin);
    const double dct = lulesh_test_rel(r.e_total, rc.e_total);
    const double d10 = lulesh_test_rel(r.e_origin, rg.e_origin);
    const double d1t = lulesh_test_rel(r.e_total, rg.e_total);
    if (g_rank == 0)
      printf("%s -s %d, %d ranks, cuda %s: %d cycles (CPU %d); e(0) rel diff %.2e against the "
             "CPU's parts, %.2e against one rank; sum e %.2e, %.2e; copies differ by %g, %g\n",
             lulesh_decomp_name(dec), size, g_size, cases[k].name, r.cycles, rg.cycles, dc0, d10,
             dct, d1t, cx, cv);
    REQ_EQ(r.cycles, rg.cycles);
    REQUIRE(dc0 <= REL_TOL && dct <= REL_TOL && d10 <= REL_TOL && d1t <= REL_TOL,
            "cuda %s: e(0) rel diff %.3e / %.3e, sum e %.3e / %.3e above %.0e", cases[k].name,
            dc0, d10, dct, d1t, REL_TOL);
    REQ_DEQ(cx, 0.0);
    REQ_DEQ(cv, 0.0);
    if (cases[k].o.assembly == LULESH_ASM_GATHER && cases[k].o.fuse) {
      /* no atomics: a second run gives the same bits on every rank */
      lulesh_state_t s2;
      lulesh_result_t r2;
      gpu_run(&m, d, &cases[k].o, &s2, &r2);
      int same = memcmp(s.e, s2.e, sizeof(double) * (size_t)m.num_elem) == 0 &&
                 memcmp(s.x, s2.x, sizeof(double) * (size_t)m.num_node) == 0 &&
                 memcmp(s.xd, s2.xd, sizeof(double) * (size_t)m.num_node) == 0;
      REQUIRE(tsr_test_all(same), "cuda gather: two distributed runs differ");
      lulesh_state_free(&s2);
    }
    lulesh_state_free(&s);
  }
  lulesh_state_free(&sc);
  lulesh_state_free(&sg);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
}

START_TEST(test_runs_metis) { compare(LULESH_DECOMP_METIS, EDGE, EDGE); }
END_TEST

START_TEST(test_runs_cube) {
  int p = (int)lround(cbrt((double)g_size));
  if (p * p * p == g_size) compare(LULESH_DECOMP_CUBE, 3, 3 * p);
}
END_TEST

/* A VolumeError on the last rank's GPU alone: every rank's step fails
 * with it, after the step's exchanges (no hang). */
START_TEST(test_volume_error) {
  lulesh_mesh_t m;
  lulesh_state_t s;
  lulesh_dist_t *d;
  lulesh_cuda_t dv;
  const lulesh_cuda_opts_t o = {.assembly = LULESH_ASM_ATOMIC, .fuse = 1};
  lulesh_test_dist_state(LULESH_DECOMP_METIS, EDGE, &m, &d, &s);
  ck_tsr(lulesh_cuda_init_opts(&dv, &s, &o));
  ck_tsr(lulesh_cuda_step(&dv, &s));
  ck_tsr(lulesh_cuda_copy(&dv, &s, LULESH_CUDA_TO_HOST));
  lulesh_test_collapse_on_last(&m, &s);
  ck_tsr(lulesh_cuda_copy(&dv, &s, LULESH_CUDA_TO_DEVICE));
  lulesh_test_volume_error_everywhere(lulesh_cuda_step(&dv, &s));
  lulesh_cuda_free(&dv);
  lulesh_state_free(&s);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
}
END_TEST

static Suite *suite(void) {
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  tsr_device_t dev; /* ranks share the GPUs present, round robin */
  if (tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &dev)) tsr_error_clear();
  Suite *s = suite_create("lulesh_dist_cuda");
  TCase *tc = tcase_create("dist_cuda");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_runs_metis);
  tcase_add_test(tc, test_runs_cube);
  tcase_add_test(tc, test_volume_error);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_mpi_skip_all(&argc, &argv, "no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, suite);
}
#endif
