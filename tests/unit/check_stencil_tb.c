/* tests/unit/check_stencil_tb.c: temporal blocking on the host
 * (stencil_tb_cpu, the CUDA kernel's pipeline) against single steps, bit
 * for bit (tests/stencil_tb_case.h), and its configuration checks. */
#include "config.h"
#include <check.h>
#include "stencil_tb_case.h"

START_TEST(test_cpu_bits) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_SELF, TSR_DEV_CPU, &dev));
  tb_sweep(&dev, _i);
}
END_TEST

START_TEST(test_cpu_unstr_bits) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_SELF, TSR_DEV_CPU, &dev));
  tb_usweep(&dev, _i);
}
END_TEST

/* The passes of N steps at most k per pass: N in all, each 1..k, the fewest
 * (ceil(N / k)), none more than one step longer than another. */
START_TEST(test_passes) {
  for (int k = 1; k <= STENCIL_TB_MAXSTEPS; k++)
    for (int N = 1; N <= 50; N++) {
      int sum = 0, np = 0, lo = k + 1, hi = 0;
      while (sum < N) {
        const int n = stencil_tb_next(N - sum, k);
        ck_assert_msg(n >= 1 && n <= k, "N %d k %d: a pass of %d steps", N, k, n);
        sum += n, np++, lo = n < lo ? n : lo, hi = n > hi ? n : hi;
      }
      ck_assert_int_eq(sum, N);
      ck_assert_int_eq(np, (N + k - 1) / k);
      ck_assert_msg(hi - lo <= 1, "N %d k %d: passes of %d to %d steps", N, k, lo, hi);
    }
  ck_assert_int_eq(stencil_tb_next(10, 4), 4);
  ck_assert_int_eq(stencil_tb_next(6, 4), 3);
  ck_assert_int_eq(stencil_tb_next(10, 3), 3);
  ck_assert_int_eq(stencil_tb_next(4, 3), 2);
}
END_TEST

START_TEST(test_config) {
  const stencil_tb_t d = stencil_tb_defaults((stencil_tb_t){0, 0, 0, 0});
  ck_assert_int_eq(d.steps, 2);
  ck_assert_int_eq(d.rows, 32);
  ck_assert_int_eq(d.xpt, 2);
  ck_assert_int_eq(stencil_tb_width(d), 56);
  ck_tsr(stencil_tb_check(d));
  ck_tsr_fails(stencil_tb_check((stencil_tb_t){5, 32, 2, 4}), TSR_ERR_ARG);
  ck_tsr_fails(stencil_tb_check((stencil_tb_t){2, 32, 3, 4}), TSR_ERR_ARG);
  ck_tsr_fails(stencil_tb_check((stencil_tb_t){2, 0, 2, 4}), TSR_ERR_ARG);
  ck_tsr_fails(stencil_tb_check((stencil_tb_t){2, 32, 2, 9}), TSR_ERR_ARG);
  /* fastwaves and non-regular grids are refused, not run */
  stencil_problem_t P;
  const int64_t size[3] = {16, 16, 8};
  ck_tsr(stencil_problem_create(STENCIL_FASTWAVES, STENCIL_DOUBLE, size, TSR_SOA, &P));
  const stencil_grid_t g = stencil_problem_grid(&P);
  const stencil_fields_t f = stencil_problem_fields(&P, P.uv, P.cst, P.uv, 0);
  ck_tsr_fails(stencil_tb_cpu(STENCIL_FASTWAVES, &g, NULL, &f, d, 2, NULL), TSR_ERR_UNSUPPORTED);
  stencil_problem_destroy(&P);
  /* an unstructured grid: needs its slot map, one domain (no live box) and
     a rectangle of the relations */
  ck_tsr(stencil_problem_create(STENCIL_LAPLAP, STENCIL_DOUBLE, size, TSR_SOA, &P));
  stencil_ugrid_t U;
  ck_tsr(stencil_ugrid_create(&P, STENCIL_ORDER_ZCURVE, 2, 1, 2, 0, &U));
  stencil_grid_t gu;
  ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &gu));
  const stencil_fields_t fu = stencil_problem_fields(&P, P.in, NULL, P.in, 0);
  ck_tsr_fails(stencil_tb_cpu(STENCIL_LAPLAP, &gu, NULL, &fu, d, 2, NULL), TSR_ERR_ARG);
  stencil_tb_umap_t um;
  ck_tsr(stencil_tb_umap_create(&gu, &um));
  ck_assert_int_eq(um.d0, 12 + 4);
  ck_assert_int_eq(um.d1, 12 + 4);
  ck_assert(!um.affine);
  ck_assert_int_eq(um.map[0], -1); /* the ring's outer corner: no footprint holds it */
  ck_assert_int_ge(um.map[1 + 16 * 1], 0);
  const int64_t live[4] = {2, 14, 2, 14};
  ck_tsr_fails(stencil_tb_cpu(STENCIL_LAPLAP, &gu, &um, &fu, d, 2, live), TSR_ERR_UNSUPPORTED);
  ck_tsr_fails(stencil_tb_cpu(STENCIL_LAPLAP, &g, &um, &fu, d, 2, NULL), TSR_ERR_UNSUPPORTED);
  stencil_tb_umap_destroy(&um);
  stencil_grid_t gpart; /* a part of the slots: no rectangle */
  ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown / 2, &gpart));
  ck_tsr_fails(stencil_tb_umap_create(&gpart, &um), TSR_ERR_UNSUPPORTED);
  stencil_ugrid_destroy(&U);
  stencil_problem_destroy(&P);
}
END_TEST

static Suite *tb_suite(void) {
  Suite *s = suite_create("stencil_tb");
  TCase *t = tcase_create("cpu");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_cpu_bits, 0, 4);
  tcase_add_loop_test(t, test_cpu_unstr_bits, 0, 4);
  tcase_add_test(t, test_config);
  tcase_add_test(t, test_passes);
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, tb_suite); }
