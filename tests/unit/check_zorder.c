/* check_zorder: the stretched Morton code and the plane rank tables.
 * References are independent: a bit-by-bit interleave for the code and a
 * sort of all codes (qsort) for the ranks. */
#include "config.h"

#include <unistd.h> /* tsr_check.h uses getpid() */

#include "tsr_check.h"
#include "tessera/zorder.h"

/* check's ck_assert_* records a mark point (a write to a pipe) per call;
 * these fail the same way but cost nothing when they hold, for the loops
 * over every element. */

/* Bit-by-bit reference of the stretched code. */
static uint64_t ref_code(uint32_t x, uint32_t y, int w) {
  uint64_t code = x & ((1ULL << w) - 1ULL);
  uint64_t xh = (uint64_t)x >> w;
  int pos = w;
  for (int k = 0; k < 32 && pos < 64; k++) {
    code |= ((xh >> k) & 1ULL) << pos++;
    if (pos < 64) code |= (((uint64_t)y >> k) & 1ULL) << pos++;
  }
  return code;
}

static uint64_t rng_u64(unsigned long long *s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

START_TEST(test_code_known_values) {
  REQ_UEQ(tsr_zorder_code(0, 0, 0), 0);
  REQ_UEQ(tsr_zorder_code(1, 0, 0), 1);
  REQ_UEQ(tsr_zorder_code(0, 1, 0), 2);
  REQ_UEQ(tsr_zorder_code(2, 1, 0), 6);   /* x=10b, y=01b -> 0110b */
  REQ_UEQ(tsr_zorder_code(3, 3, 0), 15);
  REQ_UEQ(tsr_zorder_code(5, 1, 2), 13);  /* xl=01, xh=1, y=1 -> 11b.01b */
  REQ_UEQ(tsr_zorder_code(31, 0, 5), 31); /* a whole run stays linear */
  REQ_UEQ(tsr_zorder_code(32, 0, 5), 32);
  REQ_UEQ(tsr_zorder_code(0, 1, 5), 64);
  REQ_UEQ(tsr_zorder_code(0xFFFFFFFFu, 0xFFFFFFFFu, 0), UINT64_MAX);
}
END_TEST

START_TEST(test_code_vs_reference_and_decode) {
  unsigned long long s = 12345;
  for (int w = 0; w <= 8; w++) {
    for (int i = 0; i < 20000; i++) {
      /* keep 2*bits(max(x>>w, y)) + w <= 64 */
      int ybits = (64 - w) / 2;
      uint32_t y = (uint32_t)(rng_u64(&s) & (ybits >= 32 ? 0xFFFFFFFFULL : ((1ULL << ybits) - 1)));
      uint32_t x = (uint32_t)rng_u64(&s);
      uint64_t c = tsr_zorder_code(x, y, w);
      REQ_UEQ(c, ref_code(x, y, w));
      uint32_t dx, dy;
      tsr_zorder_decode(c, w, &dx, &dy);
      REQ_UEQ(dx, x);
      REQ_UEQ(dy, y);
      REQ_UEQ(tsr_zorder_compact(tsr_zorder_spread(x)), x);
    }
  }
}
END_TEST

typedef struct {
  uint64_t code;
  int64_t cell;
} pair_t;

static int cmp_pair(const void *a, const void *b) {
  uint64_t x = ((const pair_t *)a)->code, y = ((const pair_t *)b)->code;
  return x < y ? -1 : x > y;
}

/* Check order/inverse for one plane against the sorted codes. */
static void check_plane(int64_t nx, int64_t ny, int w) {
  int64_t n = nx * ny;
  int64_t *order = malloc((size_t)n * sizeof *order);
  int64_t *cells = malloc((size_t)n * sizeof *cells);
  pair_t *p = malloc((size_t)n * sizeof *p);
  int *seen = calloc((size_t)n, sizeof *seen);
  ck_assert(order && cells && p && seen);
  for (int64_t i = 0; i < n; i++) order[i] = cells[i] = -7;
  ck_tsr(tsr_zorder_plane_order(nx, ny, w, order));
  ck_tsr(tsr_zorder_plane_inverse(nx, ny, w, cells));
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x = 0; x < nx; x++)
      p[x + nx * y] = (pair_t){tsr_zorder_code((uint32_t)x, (uint32_t)y, w), x + nx * y};
  qsort(p, (size_t)n, sizeof *p, cmp_pair);
  for (int64_t r = 0; r < n; r++) {
    /* codes are distinct, so the rank is the sorted position */
    if (r > 0) REQ_ULT(p[r - 1].code, p[r].code);
    REQUIRE(order[p[r].cell] == r, "%lldx%lld w=%d: cell %lld has rank %lld, want %lld",
                  (long long)nx, (long long)ny, w, (long long)p[r].cell,
                  (long long)order[p[r].cell], (long long)r);
    REQ_EQ(cells[r], p[r].cell);
  }
  /* bijection onto [0, n), inverse of each other */
  for (int64_t c = 0; c < n; c++) {
    ck_assert(order[c] >= 0 && order[c] < n);
    REQ_EQ(seen[order[c]]++, 0);
    REQ_EQ(cells[order[c]], c);
  }
  /* runs of 2^w consecutive x (aligned to 2^w, inside the plane) are contiguous */
  int64_t run = (int64_t)1 << w;
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x0 = 0; x0 + run <= nx; x0 += run)
      for (int64_t k = 1; k < run; k++)
        REQ_EQ(order[x0 + k + nx * y], order[x0 + nx * y] + k);
  free(order);
  free(cells);
  free(p);
  free(seen);
}

START_TEST(test_plane_ranks) {
  static const int64_t sz[] = {1, 2, 3, 7, 8, 33, 100, 128};
  static const int ws[] = {0, 1, 2, 3, 5};
  for (size_t i = 0; i < sizeof sz / sizeof *sz; i++)
    for (size_t j = 0; j < sizeof sz / sizeof *sz; j++)
      for (size_t k = 0; k < sizeof ws / sizeof *ws; k++) check_plane(sz[i], sz[j], ws[k]);
  check_plane(1, 1000, 0); /* very thin planes */
  check_plane(1000, 1, 5);
  check_plane(257, 3, 8);
}
END_TEST

START_TEST(test_power_of_two_is_code) {
  /* On a 2^k x 2^k plane (w = 0) the rank is the code itself. */
  int64_t n = 64;
  int64_t *order = malloc((size_t)(n * n) * sizeof *order);
  ck_tsr(tsr_zorder_plane_order(n, n, 0, order));
  for (int64_t y = 0; y < n; y++)
    for (int64_t x = 0; x < n; x++)
      REQ_EQ(order[x + n * y], (int64_t)tsr_zorder_code((uint32_t)x, (uint32_t)y, 0));
  free(order);
}
END_TEST

START_TEST(test_errors) {
  int64_t t[4];
  ck_tsr_fails(tsr_zorder_plane_order(0, 2, 0, t), TSR_ERR_ARG);
  ck_tsr_fails(tsr_zorder_plane_order(2, -1, 0, t), TSR_ERR_ARG);
  ck_tsr_fails(tsr_zorder_plane_order(2, 2, -1, t), TSR_ERR_ARG);
  ck_tsr_fails(tsr_zorder_plane_order(2, 2, 32, t), TSR_ERR_ARG);
  ck_tsr_fails(tsr_zorder_plane_order(2, 2, 0, NULL), TSR_ERR_ARG);
  ck_tsr_fails(tsr_zorder_plane_inverse(2, 2, 0, NULL), TSR_ERR_ARG);
  /* 2^32 rows with w = 31 would need 2*32 + 31 code bits */
  ck_tsr_fails(tsr_zorder_plane_order(1, (int64_t)1 << 32, 31, t), TSR_ERR_ARG);
  ck_tsr(tsr_zorder_plane_order(2, 2, 31, t)); /* w larger than x's bits is fine */
  ck_assert(t[0] == 0 && t[1] == 1 && t[2] == 2 && t[3] == 3);
}
END_TEST

static Suite *zorder_suite(void) {
  Suite *s = suite_create("zorder");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_code_known_values);
  tcase_add_test(tc, test_code_vs_reference_and_decode);
  tcase_add_test(tc, test_plane_ranks);
  tcase_add_test(tc, test_power_of_two_is_code);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(zorder_suite()); }
