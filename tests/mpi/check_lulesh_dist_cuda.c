/* check_lulesh_dist_cuda: tsr-lulesh's GPU step on several ranks
 * (kernels/lulesh/lulesh_cuda.h: lulesh_cuda_step_dist, the exchanges of
 * lulesh_dist.h on device arrays) at the rank count it runs under (the
 * ranks share the GPUs present); skips without a GPU or without CUDA.
 *
 * For each node-force assembly (gather, fused and not; atomic; colour;
 * two-level; atomic with FMA), each with the exchanges overlapped with the
 * interior work (the default) and without (no_overlap), on the METIS parts
 * of the -s 6 and -s 10 cubes, the block grid of the -s 10 cube, and on the
 * cube decomposition (-s 3 and -s 4 per rank) where the rank count is a cube, a whole run to the stop time on
 * the GPU against
 *   - the same parts run by the CPU's distributed step (lulesh_step), and
 *   - one rank's CPU run of the whole cube:
 * the same cycle count, e(0) and total energy within REL_TOL; the copies of
 * every shared node hold the same bits (positions and velocities) after the
 * run; the gather assembly (no atomics anywhere: the node sums add the
 * holders' partial sums in a fixed order) gives the same bits in two runs,
 * fused or not, overlapped or not, and with the exchanges by CUDA IPC or a
 * CUDA-aware MPI where those work (else the transport is reported as not
 * run). The overlapped colour and two-level assemblies add a node's corner
 * forces in another order than without overlap (the elements touching
 * shared nodes first): the same tolerance.
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
    {"gather no-overlap", {.assembly = LULESH_ASM_GATHER, .fuse = 1, .no_overlap = 1}},
    {"gather unfused", {.assembly = LULESH_ASM_GATHER, .fuse = 0, .block = 64}},
    {"gather unfused no-overlap",
     {.assembly = LULESH_ASM_GATHER, .fuse = 0, .block = 64, .no_overlap = 1}},
    {"atomic", {.assembly = LULESH_ASM_ATOMIC, .fuse = 1}},
    {"atomic no-overlap", {.assembly = LULESH_ASM_ATOMIC, .fuse = 1, .no_overlap = 1}},
    {"atomic unfused", {.assembly = LULESH_ASM_ATOMIC, .fuse = 0, .block = 32}},
    {"colour", {.assembly = LULESH_ASM_COLOUR, .fuse = 1}},
    {"colour no-overlap", {.assembly = LULESH_ASM_COLOUR, .fuse = 1, .no_overlap = 1}},
    {"twolevel", {.assembly = LULESH_ASM_TWOLEVEL, .fuse = 1}},
    {"twolevel no-overlap", {.assembly = LULESH_ASM_TWOLEVEL, .fuse = 1, .no_overlap = 1}},
    {"twolevel block 32", {.assembly = LULESH_ASM_TWOLEVEL, .fuse = 1, .block = 32}},
    {"atomic fma", {.assembly = LULESH_ASM_ATOMIC, .fuse = 1, .fma = 1}},
    {"atomic fma no-overlap",
     {.assembly = LULESH_ASM_ATOMIC, .fuse = 1, .fma = 1, .no_overlap = 1}},
};
#define NCASES ((int)(sizeof cases / sizeof cases[0]))

/* The GPU run of parts m (exchanges of d) for case c: result, final state
 * (host) in *s (the caller frees it). */
static void gpu_run(const lulesh_mesh_t *m, lulesh_dist_t *d, const lulesh_cuda_opts_t *o,
                    lulesh_state_t *s, lulesh_result_t *r) {
  ck_tsr(lulesh_state_init_ex(s, m, 1, lulesh_dist_exchange(d)));
  ck_tsr(lulesh_cuda_run_opts(s, o, 0, r));
}

/* 1 on every rank when a and b (final states of the parts m) hold the same
 * bits of e, positions and velocities on every rank. */
static int same_bits(const lulesh_mesh_t *m, const lulesh_state_t *a, const lulesh_state_t *b) {
  const size_t ne = sizeof(double) * (size_t)m->num_elem, nn = sizeof(double) * (size_t)m->num_node;
  int same = memcmp(a->e, b->e, ne) == 0;
  const double *pa[6] = {a->x, a->y, a->z, a->xd, a->yd, a->zd};
  const double *pb[6] = {b->x, b->y, b->z, b->xd, b->yd, b->zd};
  for (int k = 0; k < 6; k++) same = same && memcmp(pa[k], pb[k], nn) == 0;
  return tsr_test_all(same);
}

/* The gather run again with the exchanges by another transport: the same
 * bits as ref, or "not run" when the transport cannot serve these ranks. */
static void transport_run(const lulesh_mesh_t *m, lulesh_dist_t *d, const lulesh_state_t *ref,
                          tsr_halo_transport_t t) {
  if (t == TSR_HALO_AWARE && !tsr_halo_cuda_aware_available()) {
    if (g_rank == 0) printf("transport aware: not run (MPI is not CUDA-aware)\n");
    return;
  }
  if (t == TSR_HALO_NCCL && !tsr_halo_nccl_available()) {
    if (g_rank == 0) printf("transport nccl: not run (built without NCCL)\n");
    return;
  }
  const lulesh_cuda_opts_t o = {.assembly = LULESH_ASM_GATHER, .fuse = 1};
  lulesh_state_t s;
  lulesh_result_t r;
  ck_tsr(lulesh_dist_set_transport(d, t));
  ck_tsr(lulesh_state_init_ex(&s, m, 1, lulesh_dist_exchange(d)));
  int rc = lulesh_cuda_run_opts(&s, &o, 0, &r);
  if (rc == TSR_ERR_UNSUPPORTED) { /* agreed on every rank by the halo */
    if (g_rank == 0)
      printf("transport %s: not run (%s)\n", tsr_halo_transport_name(t), tsr_error_message());
    tsr_error_clear();
  } else {
    ck_tsr(rc);
    REQUIRE(same_bits(m, &s, ref), "cuda gather: the %s transport changes the bits",
            tsr_halo_transport_name(t));
    if (g_rank == 0) printf("transport %s: the same bits\n", tsr_halo_transport_name(t));
  }
  lulesh_state_free(&s);
  ck_tsr(lulesh_dist_set_transport(d, TSR_HALO_STAGED));
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
  lulesh_state_t ref; /* the first gather run: every gather run's bits */
  int have_ref = 0;
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
    if (cases[k].o.assembly == LULESH_ASM_GATHER) {
      /* no atomics: every gather run gives the first one's bits on every
         rank, fused or not, overlapped or not */
      if (!have_ref) {
        ref = s, have_ref = 1;
        continue;
      }
      REQUIRE(same_bits(&m, &s, &ref), "cuda %s: not the bits of cuda %s", cases[k].name,
              cases[0].name);
    }
    lulesh_state_free(&s);
  }
  REQUIRE(have_ref, "no gather case");
  transport_run(&m, d, &ref, TSR_HALO_IPC);
  transport_run(&m, d, &ref, TSR_HALO_AWARE);
  transport_run(&m, d, &ref, TSR_HALO_NCCL);
  lulesh_state_free(&ref);
  lulesh_state_free(&sc);
  lulesh_state_free(&sg);
  lulesh_dist_destroy(&d);
  lulesh_mesh_free(&m);
  lulesh_mesh_free(&g);
}

START_TEST(test_runs_metis) {
  compare(LULESH_DECOMP_METIS, EDGE, EDGE);
  compare(LULESH_DECOMP_METIS, 10, 10); /* parts with interior elements */
}
END_TEST

START_TEST(test_runs_block) { /* boxes with interior elements at 1 to 8 ranks */
  int dm[3];
  if (lulesh_block_dims(g_size, 10, dm) == 0) compare(LULESH_DECOMP_BLOCK, 10, 10);
  tsr_error_clear();
}
END_TEST

START_TEST(test_runs_cube) {
  int p = (int)lround(cbrt((double)g_size));
  if (p * p * p == g_size) compare(LULESH_DECOMP_CUBE, 3, 3 * p);
  if (p * p * p == g_size) compare(LULESH_DECOMP_CUBE, 4, 4 * p);
}
END_TEST

/* A VolumeError on the last rank's GPU alone: every rank's step fails
 * with it, after the step's exchanges (no hang), overlapped or not. */
static void volume_error(int no_overlap) {
  lulesh_mesh_t m;
  lulesh_state_t s;
  lulesh_dist_t *d;
  lulesh_cuda_t dv;
  const lulesh_cuda_opts_t o = {.assembly = LULESH_ASM_ATOMIC, .fuse = 1,
                                .no_overlap = no_overlap};
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

START_TEST(test_volume_error) {
  volume_error(0);
  volume_error(1);
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
  tcase_add_test(tc, test_runs_block);
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
