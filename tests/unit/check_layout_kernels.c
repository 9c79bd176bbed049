/* check_layout_kernels: the layout-agnostic matmul on the CPU for all
 * 6 x 6 x 6 layout combinations against an independent double reference
 * (sizes that are not multiples of the tile), its argument checks, and the
 * three stencil builds (each compiler) against a hand-written reference,
 * bit for bit. */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include "tsr_check.h"
#include "kernels/layout/matmul.h"
#include "kernels/layout/stencil.h"


/* Random non-zero floats, |v| in [0.5, 1.5). */
static void randomize(float *v, size_t n, unsigned long long seed) {
  for (size_t i = 0; i < n; i++) {
    double r = tsr_test_rand(&seed, -1.0, 1.0);
    v[i] = (float)(r < 0 ? r - 0.5 : r + 0.5);
  }
}

/* C (layout LC) equals the reference within 2 K u sum|a||b|, every element. */
static void check_c(const char *what, const tsr_layout_t *LC, const float *c, int64_t M,
                    int64_t N, int64_t K, const float *a, const float *b) {
  tsr_layout_t R = tsr_layout_with_align(tsr_layout_rowmajor(N, M, 1), 1);
  float *cr = malloc((size_t)(M * N) * sizeof *cr);
  double *ref = malloc((size_t)N * sizeof *ref), *bd = malloc((size_t)N * sizeof *bd);
  ck_tsr(tsr_layout_transform(LC, c, &R, cr, sizeof(float)));
  for (int64_t i = 0; i < M; i++) {
    matmul_reference_row(N, K, i, a, b, ref, bd);
    for (int64_t j = 0; j < N; j++) {
      double err = fabs(cr[i * N + j] - ref[j]), tol = 2.0 * K * ldexp(1.0, -24) * bd[j];
      REQUIRE(err <= tol && bd[j] > 0, "%s: C(%lld,%lld) = %.9g, reference %.9g (bound %.3g)",
              what, (long long)i, (long long)j, cr[i * N + j], ref[j], tol);
    }
  }
  free(cr);
  free(ref);
  free(bd);
}

static tsr_layout_t mat(int kind, int64_t rows, int64_t cols, int tile, int64_t align) {
  return tsr_layout_with_tile(
      tsr_layout_with_align(tsr_layout_of_kind(kind, cols, rows, 1), align), tile, tile);
}

/* One combination on the CPU: A, B (row-major host arrays) into their
 * layouts, multiply, check C. */
static void run_cpu(int ka, int kb, int kc, int64_t M, int64_t N, int64_t K, int tile,
                    int64_t align, const float *a, const float *b) {
  tsr_layout_t LA = mat(ka, M, K, tile, align), LB = mat(kb, K, N, tile, align),
               LC = mat(kc, M, N, tile, align);
  tsr_layout_t RA = tsr_layout_with_align(tsr_layout_rowmajor(K, M, 1), 1),
               RB = tsr_layout_with_align(tsr_layout_rowmajor(N, K, 1), 1);
  float *A = calloc((size_t)LA.size, 4), *B = calloc((size_t)LB.size, 4),
        *C = calloc((size_t)LC.size, 4);
  ck_tsr(tsr_layout_transform(&RA, a, &LA, A, 4));
  ck_tsr(tsr_layout_transform(&RB, b, &LB, B, 4));
  ck_tsr(matmul_cpu(LA, A, LB, B, LC, C));
  char what[64];
  snprintf(what, sizeof what, "cpu %sx%s=%s tile %d", tsr_layout_kind_short(ka),
           tsr_layout_kind_short(kb), tsr_layout_kind_short(kc), tile);
  check_c(what, &LC, C, M, N, K, a, b);
  free(A);
  free(B);
  free(C);
}

START_TEST(test_matmul_cpu_every_combination) {
  const int64_t M = 37, N = 29, K = 45; /* no multiple of 16 */
  float *a = malloc((size_t)(M * K) * 4), *b = malloc((size_t)(K * N) * 4);
  randomize(a, (size_t)(M * K), 11);
  randomize(b, (size_t)(K * N), 12);
  for (int ia = 0; ia < MATMUL_NKINDS; ia++)
    for (int ib = 0; ib < MATMUL_NKINDS; ib++)
      for (int ic = 0; ic < MATMUL_NKINDS; ic++)
        run_cpu(matmul_kinds[ia], matmul_kinds[ib], matmul_kinds[ic], M, N, K, 16, 1, a, b);
  /* other tile sizes and padded R/C layouts */
  for (int ia = 0; ia < MATMUL_NKINDS; ia++)
    run_cpu(matmul_kinds[ia], matmul_kinds[(ia + 2) % 6], matmul_kinds[(ia + 3) % 6], M, N, K,
            ia % 2 ? 4 : 32, 8, a, b);
  free(a);
  free(b);
}
END_TEST

START_TEST(test_matmul_reference_and_checks) {
  /* the reference itself on a 2 x 2 case worked by hand */
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, -6, 7, 8};
  double c[2], bd[2];
  matmul_reference_row(2, 2, 1, a, b, c, bd);
  ck_assert_double_eq(c[0], 3 * 5 + 4 * 7);
  ck_assert_double_eq(c[1], 3 * -6 + 4 * 8);
  ck_assert_double_eq(bd[1], 3 * 6 + 4 * 8);
  float x[64], y[64], z[64];
  tsr_layout_t A = mat(TSR_LAYOUT_ROWMAJOR, 4, 5, 16, 1), B = mat(TSR_LAYOUT_RC, 5, 3, 16, 1),
               C = mat(TSR_LAYOUT_CC, 4, 3, 16, 1);
  ck_tsr(matmul_check("t", &A, x, &B, y, &C, z));
  tsr_layout_t Cbad = mat(TSR_LAYOUT_CC, 3, 4, 16, 1);
  ck_assert_int_eq(matmul_cpu(A, x, B, y, Cbad, z), TSR_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "shapes do not match"));
  tsr_error_clear();
  ck_tsr_fails(matmul_cpu(A, x, B, y, C, NULL), TSR_ERR_ARG);
  ck_tsr_fails(matmul_cpu(A, x, B, y, C, (float *)x), TSR_ERR_ARG);
  tsr_layout_t Z = tsr_layout_zcurve(5, 4, 1, 0);
  ck_tsr_fails(matmul_cpu(Z, x, B, y, C, z), TSR_ERR_ARG);
  tsr_layout_t H = tsr_layout_with_halo(A, 1, 0, 0);
  ck_tsr_fails(matmul_cpu(H, x, B, y, C, z), TSR_ERR_ARG);
  tsr_layout_t F = tsr_layout_with_fields(A, 2, TSR_SOA);
  ck_tsr_fails(matmul_cpu(F, x, B, y, C, z), TSR_ERR_ARG);
  if (!tsr_device_cuda_built()) {
    ck_tsr_fails(matmul_cuda(A, x, B, y, C, z), TSR_ERR_NOCUDA);
    ck_tsr_fails(matmul_cublas_cuda(4, 3, 5, x, y, z), TSR_ERR_NOCUDA);
  }
}
END_TEST

/* The reference stencil: u[(z*ny + y)*nx + x]. */
static void ref_sweep(int64_t nx, int64_t ny, int64_t nz, const float *in, float *out) {
  for (int64_t z = 1; z < nz - 1; z++)
    for (int64_t y = 1; y < ny - 1; y++)
      for (int64_t x = 1; x < nx - 1; x++) {
        int64_t i = (z * ny + y) * nx + x;
        float s = in[i];
        s += in[i + 1];
        s += in[i - 1];
        s += in[i + nx];
        s += in[i - nx];
        s += in[i + nx * ny];
        s += in[i - nx * ny];
        out[i] = s / 7;
      }
}

typedef struct {
  const char *name;
  stencil_sweep_fn sweep;
  stencil_shape_fn shape;
} sbuild_t;

static const sbuild_t SBUILDS[] = {
    {"gcc/runtime", stencil_sweep_gcc_runtime, stencil_shape_gcc_runtime},
    {"gcc/cindex", stencil_sweep_gcc_cindex, stencil_shape_gcc_cindex},
    {"gcc/cloops", stencil_sweep_gcc_cloops, stencil_shape_gcc_cloops},
#ifdef LB_HAVE_CLANG
    {"clang/runtime", stencil_sweep_clang_runtime, stencil_shape_clang_runtime},
    {"clang/cindex", stencil_sweep_clang_cindex, stencil_shape_clang_cindex},
    {"clang/cloops", stencil_sweep_clang_cloops, stencil_shape_clang_cloops},
#endif
};

/* 5 sweeps of build s on an nx*ny*nz grid equal 5 reference sweeps exactly. */
static void stencil_case(const sbuild_t *s, int64_t nx, int64_t ny, int64_t nz) {
  tsr_layout_t L = tsr_layout_with_align(tsr_layout_rowmajor(nx, ny, nz), 1);
  size_t n = (size_t)(nx * ny * nz);
  float *a = malloc(n * 4), *b = malloc(n * 4), *r = malloc(n * 4), *q = malloc(n * 4);
  randomize(a, n, 77);
  memcpy(b, a, n * 4);
  memcpy(r, a, n * 4);
  memcpy(q, a, n * 4);
  for (int it = 0; it < 5; it++) {
    ck_tsr(it % 2 ? s->sweep(&L, b, a) : s->sweep(&L, a, b));
    if (it % 2) ref_sweep(nx, ny, nz, q, r);
    else ref_sweep(nx, ny, nz, r, q);
  }
  REQUIRE(memcmp(b, q, n * 4) == 0, "%s on %lldx%lldx%lld differs from the reference", s->name,
          (long long)nx, (long long)ny, (long long)nz);
  /* and the reference moved something: an inner cell is the mean of 7 */
  REQUIRE(q[(size_t)((ny + 1) * nx + 1)] != a[(size_t)((ny + 1) * nx + 1)], "nothing moved");
  free(a);
  free(b);
  free(r);
  free(q);
}

START_TEST(test_stencil_builds) {
  for (size_t i = 0; i < sizeof SBUILDS / sizeof *SBUILDS; i++) {
    int64_t d[3];
    SBUILDS[i].shape(d);
    if (d[0] == 0) { /* the runtime build takes any grid */
      stencil_case(&SBUILDS[i], 13, 6, 9);
      stencil_case(&SBUILDS[i], 5, 11, 4);
    } else {
      ck_assert_int_eq(d[0], 13);
      ck_assert_int_eq(d[1], 6);
      ck_assert_int_eq(d[2], 9);
      stencil_case(&SBUILDS[i], 13, 6, 9);
      /* another shape: refused, naming the compiled one */
      tsr_layout_t L = tsr_layout_with_align(tsr_layout_rowmajor(5, 11, 4), 1);
      float u[220], v[220];
      ck_tsr_fails(SBUILDS[i].sweep(&L, u, v), TSR_ERR_ARG);
      ck_tsr_fails(SBUILDS[i].sweep(&L, u, u), TSR_ERR_ARG);
    }
  }
  /* padding is refused (the stencil indexes a dense grid) */
  tsr_layout_t P = tsr_layout_rowmajor(13, 6, 9);
  float u[8], v[8];
  ck_tsr_fails(stencil_sweep_gcc_runtime(&P, u, v), TSR_ERR_ARG);
}
END_TEST

/* A single stencil sweep against a double-precision computation of the
 * formula (independent of the float reference above). */
START_TEST(test_stencil_formula) {
  const int64_t nx = 9, ny = 7, nz = 5;
  tsr_layout_t L = tsr_layout_with_align(tsr_layout_rowmajor(nx, ny, nz), 1);
  float a[315], b[315];
  randomize(a, 315, 5);
  memcpy(b, a, sizeof b);
  ck_tsr(stencil_sweep_gcc_runtime(&L, a, b));
  for (int64_t z = 0; z < nz; z++)
    for (int64_t y = 0; y < ny; y++)
      for (int64_t x = 0; x < nx; x++) {
        int64_t i = (z * ny + y) * nx + x;
        if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
          REQUIRE(b[i] == a[i], "face cell %lld written", (long long)i);
          continue;
        }
        double s = (double)a[i] + a[i + 1] + a[i - 1] + a[i + nx] + a[i - nx] + a[i + nx * ny] +
                   a[i - nx * ny];
        REQUIRE(fabs(b[i] - s / 7) <= 8 * ldexp(1.0, -24) * 1.5, "cell %lld: %.9g vs %.9g",
                (long long)i, b[i], s / 7);
      }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("layout_kernels");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_matmul_cpu_every_combination);
  tcase_add_test(tc, test_matmul_reference_and_checks);
  tcase_add_test(tc, test_stencil_builds);
  tcase_add_test(tc, test_stencil_formula);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(suite()); }
