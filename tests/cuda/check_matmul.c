/* check_matmul (CUDA): the layout-agnostic matmul on the GPU for all
 * 6 x 6 x 6 layout combinations against the independent double reference,
 * cuBLAS SGEMM likewise, and tsr_layout_transform_device on the GPU between
 * every pair of the seven kinds in 2-D, 3-D and 4-D, bit-identical to the
 * host transform. Skips without a GPU. */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include "tsr_check.h"
#include "kernels/layout/matmul.h"


static tsr_device_t dev;

static void pick_gpu(void) { ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CUDA, &dev)); }

static void randomize(float *v, size_t n, unsigned long long seed) {
  for (size_t i = 0; i < n; i++) {
    double r = tsr_test_rand(&seed, -1.0, 1.0);
    v[i] = (float)(r < 0 ? r - 0.5 : r + 0.5);
  }
}

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
      REQUIRE(err <= tol, "%s: C(%lld,%lld) = %.9g, reference %.9g (bound %.3g)", what,
              (long long)i, (long long)j, cr[i * N + j], ref[j], tol);
    }
  }
  free(cr);
  free(ref);
  free(bd);
}

static tsr_layout_t mat(int kind, int64_t rows, int64_t cols, int tile) {
  return tsr_layout_with_tile(
      tsr_layout_with_align(tsr_layout_of_kind(kind, cols, rows, 1), 1), tile, tile);
}

/* A row-major host matrix on the GPU in layout L. */
static float *upload(const tsr_layout_t *L, int64_t rows, int64_t cols, const float *h) {
  tsr_layout_t R = tsr_layout_with_align(tsr_layout_rowmajor(cols, rows, 1), 1);
  float *t = calloc((size_t)L->size, 4), *d = NULL;
  ck_tsr(tsr_layout_transform(&R, h, L, t, 4));
  ck_tsr(tsr_layout_alloc(&dev, L, 4, (void **)&d));
  ck_tsr(tsr_device_upload(&dev, d, t, tsr_layout_bytes(L, 4)));
  free(t);
  return d;
}

static void run(int ka, int kb, int kc, int64_t M, int64_t N, int64_t K, int tile, const float *a,
                const float *b) {
  tsr_layout_t LA = mat(ka, M, K, tile), LB = mat(kb, K, N, tile), LC = mat(kc, M, N, tile);
  float *A = upload(&LA, M, K, a), *B = upload(&LB, K, N, b), *C = NULL;
  ck_tsr(tsr_layout_alloc(&dev, &LC, 4, (void **)&C));
  ck_tsr(matmul_cuda(LA, A, LB, B, LC, C));
  ck_tsr(tsr_device_sync(&dev));
  float *c = malloc(tsr_layout_bytes(&LC, 4));
  ck_tsr(tsr_device_download(&dev, c, C, tsr_layout_bytes(&LC, 4)));
  char what[64];
  snprintf(what, sizeof what, "cuda %sx%s=%s tile %d", tsr_layout_kind_short(ka),
           tsr_layout_kind_short(kb), tsr_layout_kind_short(kc), tile);
  check_c(what, &LC, c, M, N, K, a, b);
  free(c);
  tsr_device_free(&dev, (void **)&A);
  tsr_device_free(&dev, (void **)&B);
  tsr_device_free(&dev, (void **)&C);
}

START_TEST(test_matmul_cuda_every_combination) {
  pick_gpu();
  const int64_t M = 37, N = 29, K = 45;
  float *a = malloc((size_t)(M * K) * 4), *b = malloc((size_t)(K * N) * 4);
  randomize(a, (size_t)(M * K), 21);
  randomize(b, (size_t)(K * N), 22);
  for (int ia = 0; ia < MATMUL_NKINDS; ia++)
    for (int ib = 0; ib < MATMUL_NKINDS; ib++)
      for (int ic = 0; ic < MATMUL_NKINDS; ic++)
        run(matmul_kinds[ia], matmul_kinds[ib], matmul_kinds[ic], M, N, K, 16, a, b);
  free(a);
  free(b);
  /* a larger case with several tiles in every direction, other tile sizes */
  const int64_t M2 = 130, N2 = 96, K2 = 201;
  a = malloc((size_t)(M2 * K2) * 4);
  b = malloc((size_t)(K2 * N2) * 4);
  randomize(a, (size_t)(M2 * K2), 23);
  randomize(b, (size_t)(K2 * N2), 24);
  for (int i = 0; i < MATMUL_NKINDS; i++)
    run(matmul_kinds[i], matmul_kinds[(i + 2) % 6], matmul_kinds[(i + 5) % 6], M2, N2, K2,
        i % 2 ? 8 : 32, a, b);
  free(a);
  free(b);
}
END_TEST

START_TEST(test_cublas) {
  pick_gpu();
  const int64_t M = 70, N = 33, K = 52;
  float *a = malloc((size_t)(M * K) * 4), *b = malloc((size_t)(K * N) * 4);
  randomize(a, (size_t)(M * K), 31);
  randomize(b, (size_t)(K * N), 32);
  tsr_layout_t LA = mat(TSR_LAYOUT_ROWMAJOR, M, K, 16), LB = mat(TSR_LAYOUT_ROWMAJOR, K, N, 16),
               LC = mat(TSR_LAYOUT_ROWMAJOR, M, N, 16);
  float *A = upload(&LA, M, K, a), *B = upload(&LB, K, N, b), *C = NULL;
  ck_tsr(tsr_layout_alloc(&dev, &LC, 4, (void **)&C));
  ck_tsr(matmul_cublas_cuda(M, N, K, A, B, C));
  ck_tsr(tsr_device_sync(&dev));
  float *c = malloc(tsr_layout_bytes(&LC, 4));
  ck_tsr(tsr_device_download(&dev, c, C, tsr_layout_bytes(&LC, 4)));
  check_c("cublas", &LC, c, M, N, K, a, b);
  double peak = 0;
  char what[128];
  ck_tsr(matmul_cuda_peak_gflops(&peak, what, sizeof what));
  REQUIRE(peak > 100.0, "peak %g GFLOP/s (%s)", peak, what);
  ck_tsr(matmul_cublas_release());
  free(a);
  free(b);
  free(c);
  tsr_device_free(&dev, (void **)&A);
  tsr_device_free(&dev, (void **)&B);
  tsr_device_free(&dev, (void **)&C);
}
END_TEST

/* A layout with its Z-curve table where `where` says (NULL = host). */
static tsr_layout_t with_table(tsr_layout_t L, const tsr_device_t *where, int64_t **tab) {
  static tsr_device_t host = {TSR_DEV_CPU, -1, "host"};
  *tab = NULL;
  ck_tsr(tsr_layout_table_create(where ? where : &host, &L, tab));
  return *tab ? tsr_layout_with_table(L, *tab) : L;
}

START_TEST(test_transform_cuda_every_pair) {
  pick_gpu();
  static const int64_t ext[3][3] = {{19, 11, 1}, {13, 6, 3}, {10, 9, 2}};
  static const size_t esz[] = {4, 8, 12, 16};
  static tsr_device_t host = {TSR_DEV_CPU, -1, "host"};
  for (int dim = 0; dim < 3; dim++)
    for (int ki = 0; ki < TSR_LAYOUT_NKINDS; ki++)
      for (int kj = 0; kj < TSR_LAYOUT_NKINDS; kj++) {
        size_t es = esz[(ki + kj + dim) % 4];
        tsr_layout_t S = tsr_layout_of_kind(ki, ext[dim][0], ext[dim][1], ext[dim][2]);
        tsr_layout_t D = tsr_layout_of_kind(kj, ext[dim][0], ext[dim][1], ext[dim][2]);
        S = tsr_layout_with_tile(tsr_layout_with_halo(S, 1, 0, 0), 4, 8);
        D = tsr_layout_with_align(tsr_layout_with_halo(D, 0, 2, dim == 1), 4);
        if (dim == 2) {
          S = tsr_layout_with_fields(S, 3, TSR_AOS);
          D = tsr_layout_with_block(tsr_layout_with_fields(D, 3, TSR_AOSOA), 8);
        }
        int64_t *hs, *hd, *gs, *gd;
        tsr_layout_t Sh = with_table(S, NULL, &hs), Dh = with_table(D, NULL, &hd);
        tsr_layout_t Sg = with_table(S, &dev, &gs), Dg = with_table(D, &dev, &gd);
        size_t sb = tsr_layout_bytes(&S, es), db = tsr_layout_bytes(&D, es);
        unsigned char *a = malloc(sb), *want = malloc(db), *got = malloc(db);
        unsigned long long st = 1000 + (unsigned long long)(ki * 7 + kj);
        for (size_t e = 0; e < sb; e++) a[e] = (unsigned char)(1 + 254 * tsr_test_rand(&st, 0, 1));
        memset(want, 0xEE, db);
        ck_tsr(tsr_layout_transform(&Sh, a, &Dh, want, es));
        void *ga = NULL, *gb = NULL;
        ck_tsr(tsr_device_malloc(&dev, sb, &ga));
        ck_tsr(tsr_device_malloc(&dev, db, &gb));
        ck_tsr(tsr_device_upload(&dev, ga, a, sb));
        memset(got, 0xEE, db);
        ck_tsr(tsr_device_upload(&dev, gb, got, db));
        ck_tsr(tsr_layout_transform_device(&dev, &Sg, ga, &Dg, gb, es));
        ck_tsr(tsr_device_sync(&dev));
        ck_tsr(tsr_device_download(&dev, got, gb, db));
        REQUIRE(memcmp(got, want, db) == 0, "%dD %s -> %s, %zu-byte elements: GPU differs from host",
                dim + 2, tsr_layout_kind_short(ki), tsr_layout_kind_short(kj), es);
        tsr_device_free(&dev, &ga);
        tsr_device_free(&dev, &gb);
        tsr_layout_table_destroy(&host, &hs);
        tsr_layout_table_destroy(&host, &hd);
        tsr_layout_table_destroy(&dev, &gs);
        tsr_layout_table_destroy(&dev, &gd);
        free(a);
        free(want);
        free(got);
      }
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("matmul_cuda");
  TCase *tc = tcase_create("all");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_matmul_cuda_every_combination);
  tcase_add_test(tc, test_cublas);
  tcase_add_test(tc, test_transform_cuda_every_pair);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, suite);
}
