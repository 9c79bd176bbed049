/* tests/mpi/check_stencil_mpi.c (run at 1, 2, 3 and 4 ranks by tests/driver):
 * the X-Y decomposition of tsr-stencil. Each stencil in double and float
 * (fastwaves in SoA and AoS) runs 3 ping-pong iterations, exchanging halos
 * every step with the interior overlapped; each rank's block must equal
 * the reference on the same decomposition (the app's verification) and,
 * cell by cell, the serial CPU reference of the whole domain (computed here
 * by each rank on its own, MPI_COMM_SELF) EXACTLY (max |err| = 0: the same
 * arithmetic on the same bits), so results are identical for every rank
 * count. A CUDA variant is checked too where a GPU is present. Odd sizes:
 * 23x35x4 (fastwaves 23x35x8). No rank holds the global problem: the peak
 * resident memory a rank gains for a 258x258x16 laplap (state, reference,
 * a cpu/regular run) stays within 7 of its blocks' fields plus half a
 * global field (holding the global problem takes 5 or more).
 * Unstructured grids: the METIS partition of the X-Y plane, local tables of
 * owned + halo cells, halo exchange through tsr_halo_create lists, core
 * computed while the exchange is in flight; every CPU strategy (naive,
 * idxvar, idxvar-kloop) in row-major, z-curve and random order, tables
 * compressed or not, chasing or not; fastwaves in SoA and AoS; the gathered
 * result must equal the serial reference EXACTLY at every rank count (1
 * rank: the serial unstructured grid), and be run (not skipped).
 * Temporal blocking (cpu/regular/tblock, and cuda/regular/tblock with a
 * GPU): 1, 2 and 3 steps per pass over the 3 iterations (a pass of 2 and
 * one of 1; one pass of 3), a halo of 2, 4 and 6 cells exchanged before
 * every pass: the same exact equality, and run at every rank count.
 * Transports (with a GPU): the CUDA regular window (laplap double, hdiff
 * float), temporal blocking (2 steps per pass) and the unstructured idxvar
 * variant with the halo by CUDA IPC (--halo ipc) and, where built, NCCL
 * (--halo nccl; ranks that share a GPU are refused by NCCL, which the
 * output notes as "nccl: not run"): the same exact equality. */
#include "config.h"
#include <sys/resource.h>
#include <check.h>
#include "tsr_check.h"
#include "apps/stencil/stencil_app.h"

static void check_one_u(int kind, int prec, int placement, int id, stencil_ucfg_t u);
static stencil_tb_t check_tb; /* the temporal-blocking variants' configuration */
static int check_transport;   /* tsr_halo_transport_t of the CUDA runs (--halo) */
static int check_refused;     /* NCCL refused the run (ranks share a GPU) */
static void check_one(int kind, int prec, int placement, int id) {
  stencil_ucfg_t u = {0, 2, 0, 2};
  check_one_u(kind, prec, placement, id, u);
}

/* Cells of the updated region of this rank's block of a (P's input layout)
 * that differ from the serial result g (the whole domain, layout Lg). */
static long st_diff_serial(const stencil_state_t *S, const void *a, const tsr_layout_t *Lg,
                           const void *g) {
  const stencil_problem_t *P = &S->P;
  const tsr_layout_t *L = P->kind == STENCIL_FASTWAVES ? &P->Luv : &P->L;
  const stencil_grid_t gr = stencil_problem_grid(P);
  const size_t es = stencil_problem_esize(P);
  long bad = 0;
  for (int f = 0; f < L->nf; f++)
    for (int64_t z = gr.lo[2]; z < gr.hi[2]; z++)
      for (int64_t y = gr.lo[1]; y < gr.hi[1]; y++)
        for (int64_t x = gr.lo[0]; x < gr.hi[0]; x++) {
          const int64_t c = tsr_layout_rm_cell(L, x, y, z);
          const int64_t cg = tsr_layout_rm_cell(Lg, x + S->off[0], y + S->off[1], z);
          bad += memcmp((const char *)a + (size_t)stencil__off(L, c, f) * es,
                        (const char *)g + (size_t)stencil__off(Lg, cg, f) * es, es) != 0;
        }
  return bad;
}

static void check_one_u(int kind, int prec, int placement, int id, stencil_ucfg_t u) {
  const int64_t size[3] = {23, 35, kind == STENCIL_FASTWAVES ? 8 : 4};
  stencil_state_t S, W;
  int rc = stencil_state_init(&S, MPI_COMM_WORLD, kind, prec, placement, size, 5, NULL, 0);
  if (!rc) rc = stencil_state_reference(&S, 3);
  /* the serial reference of the whole domain, on every rank alone */
  int rw = stencil_state_init(&W, MPI_COMM_SELF, kind, prec, placement, size, 5, NULL, 0);
  if (!rw) rw = stencil_state_reference(&W, 3);
  ck_assert_msg(tsr_test_all(rc == 0 && rw == 0), "set-up: %s", tsr_error_message());
  stencil_run_t r;
  memset(&r, 0, sizeof r);
  r.id = id;
  r.u = u;
  r.shape = (stencil_launch_t){32, 1, 1, 8, 0};
  r.tb = check_tb;
  r.halo_transport = check_transport;
  r.iterations = 3, r.runs = 1, r.warmup = 0, r.verify = 1, r.quiet = 1;
  rc = stencil_run_variant(&S, &r);
  if (rc == TSR_ERR_UNSUPPORTED && check_transport == TSR_HALO_NCCL) { /* agreed on every rank */
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) printf("# nccl: not run (%s)\n", tsr_error_message()), fflush(stdout);
    tsr_error_clear();
    check_refused = 1;
    free(r.result);
    stencil_state_free(&S);
    stencil_state_free(&W);
    return;
  }
  ck_assert_msg(tsr_test_all(rc == 0), "run: %s", tsr_error_message());
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const tsr_layout_t *Lw = kind == STENCIL_FASTWAVES ? &W.P.Luv : &W.P.L;
  int good = r.skipped || (r.verdict == TSR_VERIFY_PASS && r.maxerr == 0 && r.result &&
                           st_diff_serial(&S, r.result, Lw, W.ref) == 0);
  ck_assert_msg(tsr_test_all(good), "%s %s placement %d variant %s order %d comp %d depth %d: %s (max err %.3e)",
                stencil_name(kind), prec ? "float" : "double", placement,
                stencil_variants[id].name, u.order, u.comp, u.depth, tsr_verify_name(r.verdict), r.maxerr);
  ck_assert_msg(tsr_test_all(stencil_variants[id].device != TSR_DEV_CPU || !r.skipped),
                "%s %s skipped: %s", stencil_name(kind), stencil_variants[id].name, r.note);
  ck_assert_msg(tsr_test_all(st_diff_serial(&S, S.ref, Lw, W.ref) == 0),
                "%s: the decomposed reference differs from the serial one", stencil_name(kind));
  free(r.result);
  stencil_state_free(&S);
  stencil_state_free(&W);
}

/* Peak resident memory (kB) so far. */
static long st_maxrss(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

START_TEST(test_memory) {
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int64_t gs[3] = {258, 258, 16};
  const double field = (double)(gs[0] * gs[1] * gs[2]) * 8 / 1024; /* kB */
  const long before = st_maxrss();
  stencil_state_t S;
  int rc = stencil_state_init(&S, MPI_COMM_WORLD, STENCIL_LAPLAP, STENCIL_DOUBLE, TSR_SOA, gs, 3,
                              NULL, 0);
  if (!rc) rc = stencil_state_reference(&S, 1);
  stencil_run_t r;
  memset(&r, 0, sizeof r);
  r.id = STENCIL_V_CPU_REGULAR;
  r.iterations = 1, r.runs = 1, r.warmup = 0, r.verify = 1, r.quiet = 1;
  if (!rc) rc = stencil_run_variant(&S, &r);
  ck_assert_msg(tsr_test_all(rc == 0 && r.verdict == TSR_VERIFY_PASS), "run: %s", tsr_error_message());
  const double block = (double)stencil_problem_elems(&S.P, 0) * 8 / 1024; /* kB, halo included */
  double gained = (double)(st_maxrss() - before), limit = 7 * block + 0.5 * field;
#if defined(__SANITIZE_ADDRESS__)
  gained = 0; /* AddressSanitizer's shadow memory and red zones: no resident-memory bound */
#endif
  ck_assert_msg(tsr_test_all(gained <= limit), "rank %d of %d gained %.0f kB of resident memory, "
                "more than 7 blocks (%.0f kB each) + half a global field (%.0f kB)", rank, size,
                gained, block, field);
  free(r.result);
  stencil_state_free(&S);
}
END_TEST

START_TEST(test_regular_ranks) {
  const int kind = _i / 2, prec = _i % 2;
  check_one(kind, prec, TSR_SOA, STENCIL_V_CPU_REGULAR);
  check_one(kind, prec, TSR_SOA, STENCIL_V_CPU_REF);
  if (kind == STENCIL_FASTWAVES) check_one(kind, prec, TSR_AOS, STENCIL_V_CPU_REGULAR);
  if (tsr_test_all(tsr_test_have_gpu())) check_one(kind, prec, TSR_SOA, STENCIL_V_CUDA_REG_IDXVAR);
}
END_TEST

START_TEST(test_tblock_ranks) {
  const int kind = _i / 6 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = (_i / 3) % 2;
  check_tb = (stencil_tb_t){1 + _i % 3, 5, 1 + _i % 2, 2};
  check_one(kind, prec, TSR_SOA, STENCIL_V_CPU_TBLOCK);
  if (tsr_test_all(tsr_test_have_gpu())) check_one(kind, prec, TSR_SOA, STENCIL_V_CUDA_REG_TBLOCK);
  check_tb = (stencil_tb_t){0, 0, 0, 0};
}
END_TEST

START_TEST(test_unstr_ranks) {
  const int kind = _i / 2, prec = _i % 2;
  static const int ids[3] = {STENCIL_V_CPU_UNSTR_NAIVE, STENCIL_V_CPU_UNSTR_IDXVAR,
                             STENCIL_V_CPU_UNSTR_KLOOP};
  for (int c = 0; c < 6; c++) {
    stencil_ucfg_t u = {c % 3, 2, c % 2, kind == STENCIL_FASTWAVES ? 1 : 1 + (c / 3)};
    check_one_u(kind, prec, TSR_SOA, ids[c % 3], u);
  }
  if (kind == STENCIL_FASTWAVES) {
    stencil_ucfg_t u = {STENCIL_ORDER_ZCURVE, 2, 0, 1};
    check_one_u(kind, prec, TSR_AOS, STENCIL_V_CPU_UNSTR_IDXVAR, u);
  }
  if (tsr_test_all(tsr_test_have_gpu())) {
    stencil_ucfg_t u = {STENCIL_ORDER_ZCURVE, 2, 1, 1};
    check_one_u(kind, prec, TSR_SOA, STENCIL_V_CUDA_UN_IDXVAR, u);
    check_one_u(kind, prec, TSR_SOA, STENCIL_V_CUDA_UN_SLICED, u);
  }
}
END_TEST

START_TEST(test_transports_ranks) {
  const int tr = _i ? TSR_HALO_NCCL : TSR_HALO_IPC;
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (!tsr_test_all(tsr_test_have_gpu())) {
    if (me == 0) printf("# %s: not run (no GPU)\n", _i ? "nccl" : "ipc"), fflush(stdout);
    return;
  }
  if (tr == TSR_HALO_NCCL && !tsr_halo_nccl_available()) {
    if (me == 0) printf("# nccl: not run (built without NCCL)\n"), fflush(stdout);
    return;
  }
  check_transport = tr, check_refused = 0;
  check_one(STENCIL_LAPLAP, STENCIL_DOUBLE, TSR_SOA, STENCIL_V_CUDA_REG_JWIN);
  if (!check_refused) check_one(STENCIL_HDIFF, STENCIL_FLOAT, TSR_SOA, STENCIL_V_CUDA_REG_JWIN);
  if (!check_refused) check_one(STENCIL_FASTWAVES, STENCIL_DOUBLE, TSR_SOA, STENCIL_V_CUDA_REG_SLICED);
  check_tb = (stencil_tb_t){2, 5, 1, 2};
  if (!check_refused) check_one(STENCIL_LAPLAP, STENCIL_DOUBLE, TSR_SOA, STENCIL_V_CUDA_REG_TBLOCK);
  check_tb = (stencil_tb_t){0, 0, 0, 0};
  stencil_ucfg_t u = {STENCIL_ORDER_ZCURVE, 2, 1, 1};
  if (!check_refused) check_one_u(STENCIL_HDIFF, STENCIL_DOUBLE, TSR_SOA, STENCIL_V_CUDA_UN_IDXVAR, u);
  check_transport = TSR_HALO_STAGED;
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("stencil_mpi");
  TCase *t = tcase_create("ranks");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, test_memory); /* first: the peak resident memory is a high-water mark */
  tcase_add_loop_test(t, test_regular_ranks, 0, 6);
  tcase_add_loop_test(t, test_unstr_ranks, 0, 6);
  tcase_add_loop_test(t, test_tblock_ranks, 0, 12);
  tcase_add_loop_test(t, test_transports_ranks, 0, 2);
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, make); }
