/* check_sparse_cuda_eval: the CUDA "walk" evaluation variants (cuda/eval/walk,
 * walk_s1, walk_s2, walk_s4, walk_s2w; kernels/sparse/sg_cuda_eval.cu) and
 * the "simplex" ones (simplex, simplex_s, simplex_s2, simplex4_s;
 * sg_cuda_simplex.cu)
 * against cpu/eval/plain, in double and float, on random non-zero
 * coefficients of both signs and at points that include x = 1.0 (the
 * clamped last cell), x = 0 and cell boundaries k / 2^m.
 * Cases: every D = 1..5 with n = 1..6, D = 10 with n = 4 and 5, and grids
 * whose largest blocks do not fit the staging windows (D = 2, n = 13:
 * 4096-point blocks, more than walk_s2w's 3070 doubles; D = 1, n = 16:
 * 32768-point blocks, more than any window), so the global-memory path of
 * the staged kernels runs too (the simplex variants refuse these levels,
 * above FASTSG_SIMPLEX_MAX_LEVEL). The simplex variants also at their
 * largest level, n = 8: D = 3 (no outer dimension) and 4, and D = 10 (8
 * outer dimensions; in double the 59 KiB chunk of outer sum 0 exceeds
 * simplex_s2's windows and is gathered from global memory). Point counts
 * are not multiples of the points per CUDA block (256 to 2048), so partial
 * blocks are covered.
 * Tolerance: |walk - plain| <= tol (1 + |plain|), tol = 1e-12 in double and
 * 2e-5 in float (the app's), since the walk multiplies the D hats in a
 * different order (and the GPU may fuse multiply-adds). Skips without a GPU. */
#include "config.h"
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/sparse/sg_kernels.h"
#include "sparse_eval_case.h"

typedef int (*kernel_fn)(const fastsg_kernel_args_t *);
static const kernel_fn fns[] = {
#define FASTSG_VARIANT(dev, kernel, name, help) fastsg_##kernel##_##name##_##dev,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
};
static const char *const names[] = {
#define FASTSG_VARIANT(dev, kernel, name, help) #dev "/" #kernel "/" #name,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
};

static tsr_device_t dev;

static void *to_dev(const void *h, size_t bytes) {
  void *d = NULL;
  ck_tsr(tsr_device_malloc(&dev, bytes, &d));
  ck_tsr(tsr_device_upload(&dev, d, h, bytes));
  return d;
}

static void eval_case(int D, int n, int64_t m) {
  for (int pr = 0; pr < 2; pr++) {
    const tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
    const double tol = pr ? 2e-5 : 1e-12;
    sg_test_case_t c;
    sg_test_case_init(&c, D, n, m, prec, 500 + 31 * D + n, 700 + 13 * D + n);
    const size_t es = c.es;
    void *got = malloc(es * (size_t)m);
    void *da = to_dev(c.a, es * (size_t)c.G.npoints), *dx = to_dev(c.x, es * (size_t)(m * D)), *dr = NULL;
    ck_tsr(tsr_device_malloc(&dev, es * (size_t)m, &dr));
    for (int v = FASTSG_V_cuda_eval_walk; v <= FASTSG_V_cuda_eval_simplex4_s; v++) {
      if (v >= FASTSG_V_cuda_eval_simplex && n > FASTSG_SIMPLEX_MAX_LEVEL) {
        fastsg_kernel_args_t B = {.grid = &c.G, .prec = prec, .coef = da, .npts = m, .x = dx, .r = dr};
        ck_tsr_fails(fns[v](&B), TSR_ERR_ARG); /* refused, saying the level */
        continue;
      }
      ck_tsr(tsr_device_memset(&dev, dr, 0xff, es * (size_t)m));
      fastsg_kernel_args_t B = {.grid = &c.G, .prec = prec, .coef = da, .npts = m, .x = dx, .r = dr};
      ck_tsr(fns[v](&B));
      ck_tsr(tsr_device_sync(&dev));
      ck_tsr(tsr_device_download(&dev, got, dr, es * (size_t)m));
      for (int64_t k = 0; k < m; k++) {
        const double e = sg_test_get(c.ref, prec, k), o = sg_test_get(got, prec, k);
        REQUIRE(fabs(e - o) <= tol * (1 + fabs(e)), "D=%d n=%d %s %s point %lld: %.17g, CPU plain %.17g",
                D, n, tsr_dtype_name(prec), names[v], (long long)k, o, e);
      }
    }
    tsr_device_free(&dev, &da);
    tsr_device_free(&dev, &dx);
    tsr_device_free(&dev, &dr);
    free(got);
    sg_test_case_free(&c);
  }
}

START_TEST(test_walk_small) {
  for (int D = 1; D <= 5; D++)
    for (int n = 1; n <= 6; n++) eval_case(D, n, 2500 + 37 * D + n);
}
END_TEST

START_TEST(test_walk_d10) {
  eval_case(10, 4, 4099);
  eval_case(10, 5, 2111);
  eval_case(10, FASTSG_SIMPLEX_MAX_LEVEL, 1000);
  eval_case(3, FASTSG_SIMPLEX_MAX_LEVEL, 1500);
  eval_case(4, FASTSG_SIMPLEX_MAX_LEVEL - 1, 1300);
}
END_TEST

START_TEST(test_walk_big_blocks) {
  eval_case(2, 13, 1500);
  eval_case(1, 16, 3000);
}
END_TEST

/* The GPU of this rank, before each test. */
static void select_dev(void) { ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &dev)); }

static Suite *sparse_cuda_eval_suite(void) {
  Suite *s = suite_create("sparse_cuda_eval");
  TCase *tc = tcase_create("walk");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, select_dev, NULL);
  tcase_add_test(tc, test_walk_small);
  tcase_add_test(tc, test_walk_d10);
  tcase_add_test(tc, test_walk_big_blocks);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, sparse_cuda_eval_suite);
}
