/* check_sparse_cuda_eval: the CUDA "walk" evaluation variants (cuda/eval/walk,
 * walk_s1, walk_s2, walk_s4, walk_s2w; kernels/sparse/sg_cuda_eval.cu)
 * against cpu/eval/plain, in double and float, on random non-zero
 * coefficients of both signs and at points that include x = 1.0 (the
 * clamped last cell), x = 0 and cell boundaries k / 2^m.
 * Cases: every D = 1..5 with n = 1..6, D = 10 with n = 4 and 5, and grids
 * whose largest blocks do not fit the staging windows (D = 2, n = 13:
 * 4096-point blocks, more than walk_s2w's 3070 doubles; D = 1, n = 16:
 * 32768-point blocks, more than any window), so the global-memory path of
 * the staged kernels runs too. Point counts are not multiples of the points
 * per CUDA block (256 to 2048), so partial blocks are covered.
 * Tolerance: |walk - plain| <= tol (1 + |plain|), tol = 1e-12 in double and
 * 2e-5 in float (the app's), since the walk multiplies the D hats in a
 * different order (and the GPU may fuse multiply-adds). Skips without a GPU. */
#include "config.h"
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/sparse/sg_kernels.h"

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

/* Points in [0,1]^D: every 7th coordinate 1.0, every 11th 0.0, every 5th on
 * a cell boundary k / 2^m (m <= n), the rest uniform. */
static void points(double *x, int64_t cnt, int n, unsigned long long seed) {
  for (int64_t e = 0; e < cnt; e++) {
    double v = tsr_test_rand(&seed, 0, 1);
    if (e % 7 == 0) v = 1.0;
    else if (e % 11 == 3) v = 0.0;
    else if (e % 5 == 2) {
      int m = (int)(v * (n + 1)) % (n + 1);
      v = floor(tsr_test_rand(&seed, 0, 1) * ((1 << m) + 1)) / (double)(1 << m);
    }
    x[e] = v;
  }
}

static void *to_dev(const void *h, size_t bytes) {
  void *d = NULL;
  ck_tsr(tsr_device_malloc(&dev, bytes, &d));
  ck_tsr(tsr_device_upload(&dev, d, h, bytes));
  return d;
}

static double get(const void *a, tsr_dtype_t prec, int64_t k) {
  return prec == TSR_FLOAT ? (double)((const float *)a)[k] : ((const double *)a)[k];
}

static void eval_case(int D, int n, int64_t m) {
  for (int pr = 0; pr < 2; pr++) {
    const tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
    const double tol = pr ? 2e-5 : 1e-12;
    const size_t es = tsr_dtype_size(prec);
    fastsg_grid_t G;
    ck_tsr(fastsg_grid_init(D, n, &G));
    double *xd = malloc(sizeof(double) * (size_t)(m * D));
    points(xd, m * D, n, 500 + 31 * D + n);
    void *x = malloc(es * (size_t)(m * D)), *a = malloc(es * (size_t)G.npoints);
    unsigned long long seed = 700 + 13 * D + n;
    for (int64_t e = 0; e < m * D; e++) {
      if (pr) ((float *)x)[e] = (float)xd[e];
      else ((double *)x)[e] = xd[e];
    }
    for (int64_t e = 0; e < G.npoints; e++) { /* non-zero, both signs */
      double v = tsr_test_rand(&seed, 0.1, 1.0) * (e % 3 ? 1 : -1);
      if (pr) ((float *)a)[e] = (float)v;
      else ((double *)a)[e] = v;
    }
    void *ref = malloc(es * (size_t)m), *got = malloc(es * (size_t)m);
    fastsg_kernel_args_t A = {.grid = &G, .prec = prec, .coef = a, .npts = m, .x = x, .r = ref};
    ck_tsr(fastsg_eval_plain_cpu(&A));
    void *da = to_dev(a, es * (size_t)G.npoints), *dx = to_dev(x, es * (size_t)(m * D)), *dr = NULL;
    ck_tsr(tsr_device_malloc(&dev, es * (size_t)m, &dr));
    for (int v = FASTSG_V_cuda_eval_walk; v <= FASTSG_V_cuda_eval_walk_s2w; v++) {
      ck_tsr(tsr_device_memset(&dev, dr, 0xff, es * (size_t)m));
      fastsg_kernel_args_t B = {.grid = &G, .prec = prec, .coef = da, .npts = m, .x = dx, .r = dr};
      ck_tsr(fns[v](&B));
      ck_tsr(tsr_device_sync(&dev));
      ck_tsr(tsr_device_download(&dev, got, dr, es * (size_t)m));
      for (int64_t k = 0; k < m; k++) {
        const double e = get(ref, prec, k), o = get(got, prec, k);
        REQUIRE(fabs(e - o) <= tol * (1 + fabs(e)), "D=%d n=%d %s %s point %lld: %.17g, CPU plain %.17g",
                D, n, tsr_dtype_name(prec), names[v], (long long)k, o, e);
      }
    }
    tsr_device_free(&dev, &da);
    tsr_device_free(&dev, &dx);
    tsr_device_free(&dev, &dr);
    free(xd); free(x); free(a); free(ref); free(got);
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
}
END_TEST

START_TEST(test_walk_big_blocks) {
  eval_case(2, 13, 1500);
  eval_case(1, 16, 3000);
}
END_TEST

static Suite *sparse_cuda_eval_suite(void) {
  Suite *s = suite_create("sparse_cuda_eval");
  TCase *tc = tcase_create("walk");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_walk_small);
  tcase_add_test(tc, test_walk_d10);
  tcase_add_test(tc, test_walk_big_blocks);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rc;
  if (!tsr_test_have_gpu()) {
    rc = tsr_test_skip_all("no CUDA device");
  } else if (tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &dev) != 0) {
    fprintf(stderr, "%s\n", tsr_error_message());
    rc = EXIT_FAILURE;
  } else {
    SRunner *sr = srunner_create(sparse_cuda_eval_suite());
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_ENV);
    rc = srunner_ntests_failed(sr) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    srunner_free(sr);
  }
  MPI_Finalize();
  return rc;
}
