/* check_copy: the CPU copy variants copy every inner cell of every field
 * and touch nothing else of dst (halo, padding); argument checks; the
 * variant table. */
#include "config.h"

#include <unistd.h> /* tsr_check.h uses getpid() */

#include "tsr_check.h"
#include "kernels/copy/copy.h"

/* Fails like ck_assert_msg, without check's per-call mark point. */

static const double SENTINEL = -7.0;

/* Run a CPU variant on L; compare every element of dst with the expectation
 * computed from tsr_layout_offset: src at inner cells, SENTINEL elsewhere. */
static void check_cpu_copy(tsr_layout_t L, int id, unsigned long long seed) {
  int64_t *tab = NULL;
  if (L.kind == TSR_LAYOUT_ZCURVE) {
    tab = malloc((size_t)tsr_layout_table_len(&L) * sizeof *tab);
    ck_tsr(tsr_layout_table_build(&L, tab));
    L = tsr_layout_with_table(L, tab);
  }
  double *src = malloc(tsr_layout_bytes(&L, 8)), *dst = malloc(tsr_layout_bytes(&L, 8));
  unsigned char *inner = calloc((size_t)L.size, 1);
  for (int64_t i = 0; i < L.size; i++) {
    src[i] = tsr_test_rand(&seed, 1.0, 2.0);
    dst[i] = SENTINEL;
  }
  for (int64_t z = L.halo[2]; z < L.halo[2] + L.n[2]; z++)
    for (int64_t y = L.halo[1]; y < L.halo[1] + L.n[1]; y++)
      for (int64_t x = L.halo[0]; x < L.halo[0] + L.n[0]; x++)
        for (int f = 0; f < L.nf; f++) inner[tsr_layout_offset(&L, x, y, z, f)] = 1;
  ck_tsr(copy_run(id, L, NULL, src, dst, 32, 4, 1));
  int64_t copied = 0;
  for (int64_t i = 0; i < L.size; i++) {
    if (inner[i]) {
      REQUIRE(dst[i] == src[i], "%s: inner element %lld not copied", copy_variant_name(id),
              (long long)i);
      copied++;
    } else {
      REQUIRE(dst[i] == SENTINEL, "%s: element %lld (halo or padding) was written",
              copy_variant_name(id), (long long)i);
    }
  }
  ck_assert_int_eq(copied, L.n[0] * L.n[1] * L.n[2] * L.nf);
  free(src);
  free(dst);
  free(inner);
  free(tab);
}

START_TEST(test_cpu_variants) {
  static const int64_t sz[][3] = {{1, 1, 1}, {7, 5, 3}, {33, 8, 2}, {64, 16, 3}, {100, 7, 1}};
  static const int64_t hs[][3] = {{0, 0, 0}, {1, 1, 1}, {2, 3, 1}};
  unsigned long long seed = 2024;
  for (size_t i = 0; i < sizeof sz / sizeof *sz; i++)
    for (size_t h = 0; h < sizeof hs / sizeof *hs; h++)
      for (int nf = 1; nf <= 2; nf++) {
        tsr_layout_t R = tsr_layout_with_halo(tsr_layout_rowmajor(sz[i][0], sz[i][1], sz[i][2]),
                                              hs[h][0], hs[h][1], hs[h][2]);
        check_cpu_copy(tsr_layout_with_fields(R, nf, TSR_SOA), COPY_CPU_ROWMAJOR, seed++);
        tsr_layout_t Z = tsr_layout_with_halo(tsr_layout_zcurve(sz[i][0], sz[i][1], sz[i][2], 2),
                                              hs[h][0], hs[h][1], hs[h][2]);
        check_cpu_copy(tsr_layout_with_fields(Z, nf, TSR_SOA), COPY_CPU_ZCURVE, seed++);
      }
  /* one field in any placement is SoA */
  check_cpu_copy(tsr_layout_with_fields(tsr_layout_rowmajor(9, 4, 2), 1, TSR_AOSOA),
                 COPY_CPU_ROWMAJOR, seed);
}
END_TEST

START_TEST(test_checks) {
  double a[4096], b[4096];
  tsr_layout_t R = tsr_layout_rowmajor(4, 4, 4);
  tsr_layout_t Z = tsr_layout_zcurve(4, 4, 4, 0);
  ck_tsr_fails(copy_rowmajor_cpu(Z, a, b), TSR_ERR_ARG);         /* wrong kind */
  ck_tsr_fails(copy_zcurve_cpu(Z, a, b), TSR_ERR_ARG);           /* no table */
  ck_tsr_fails(copy_rowmajor_cpu(tsr_layout_with_fields(R, 2, TSR_AOS), a, b), TSR_ERR_ARG);
  ck_tsr_fails(copy_rowmajor_cpu(R, a, a), TSR_ERR_ARG);
  ck_tsr_fails(copy_rowmajor_cpu(R, NULL, b), TSR_ERR_ARG);
  ck_tsr_fails(copy_rowmajor_cpu(tsr_layout_with_halo(R, -1, 0, 0), a, b), TSR_ERR_ARG);
  ck_tsr_fails(copy_run(COPY_NVARIANTS, R, NULL, a, b, 32, 1, 1), TSR_ERR_ARG);
  if (!tsr_device_cuda_built()) {
    ck_tsr_fails(copy_run(COPY_CUDA_ROWMAJOR, R, NULL, a, b, 32, 1, 1), TSR_ERR_NOCUDA);
    ck_tsr_fails(copy_memcpy_cuda(R, a, b, 32, 1, 1), TSR_ERR_NOCUDA);
  }
}
END_TEST

START_TEST(test_variant_table) {
  ck_assert_int_eq(COPY_NVARIANTS, 6);
  ck_assert_str_eq(copy_variant_name(COPY_CUDA_ZCURVE_STORAGE), "cuda/zcurve-storage");
  ck_assert_str_eq(copy_variant_name(COPY_CPU_ROWMAJOR), "cpu/rowmajor");
  ck_assert_str_eq(copy_variant_name(COPY_CUDA_MEMCPY), "cuda/memcpy");
  ck_assert_ptr_null(copy_variant_name(-1));
  ck_assert_ptr_null(copy_variant_name(COPY_NVARIANTS));
  tsr_layout_t L = tsr_layout_with_fields(tsr_layout_with_halo(tsr_layout_rowmajor(10, 10, 10), 1, 1, 1), 2, TSR_SOA);
  ck_assert_double_eq(copy_bytes_moved(COPY_CUDA_ROWMAJOR, &L), 16.0 * 1000 * 2);
  ck_assert_double_eq(copy_bytes_moved(COPY_CUDA_MEMCPY, &L), 16.0 * (double)L.size);
}
END_TEST

static Suite *copy_suite(void) {
  Suite *s = suite_create("copy");
  TCase *tc = tcase_create("cpu");
  tcase_add_test(tc, test_cpu_variants);
  tcase_add_test(tc, test_checks);
  tcase_add_test(tc, test_variant_table);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(copy_suite()); }
