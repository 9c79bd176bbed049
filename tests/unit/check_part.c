/* check_part: the pure parts of the decomposition: block sizes and owners,
 * process-grid factors, rank boxes, and the "cannot decompose" error. */
#include <unistd.h> /* getpid, used by tsr_check.h */
#include "tsr_check.h"

START_TEST(test_blocks) {
  /* blocks tile [0, n) in order, sizes differ by at most one, and the
   * owner function inverts them (brute force over every cell) */
  for (tsr_idx_t n = 1; n <= 40; n++)
    for (int p = 1; p <= 9; p++) {
      tsr_idx_t prev = 0, mn = n + 1, mx = -1;
      for (int i = 0; i < p; i++) {
        tsr_idx_t lo, hi;
        tsr_part_block(n, p, i, &lo, &hi);
        ck_assert_int_eq(lo, prev);
        ck_assert_int_ge(hi, lo);
        mn = TSR_MIN(mn, hi - lo);
        mx = TSR_MAX(mx, hi - lo);
        if (hi > lo) /* empty blocks (p > n) own nothing */
          for (tsr_idx_t c = lo; c < hi; c++) ck_assert_int_eq(tsr_part_block_owner(n, p, c), i);
        prev = hi;
      }
      ck_assert_int_eq(prev, n);
      ck_assert_int_le(mx - mn, 1);
      ck_assert_int_eq(mn, n / p);
    }
  tsr_idx_t lo, hi;
  tsr_part_block(10, 3, 0, &lo, &hi);
  ck_assert(lo == 0 && hi == 4);
  tsr_part_block(10, 3, 2, &lo, &hi);
  ck_assert(lo == 7 && hi == 10);
}
END_TEST

START_TEST(test_dims) {
  /* the product is the rank count, the pair exchanges the fewest halo cells
   * (brute force over every pair: 2 x 2 ny/py per x cut, 2 nx/px per y cut,
   * as rationals), ties to fewer ranks along x */
  const long long planes[4][2] = {{100, 50}, {50, 100}, {512, 512}, {4096, 64}};
  for (int pl = 0; pl < 4; pl++)
    for (int n = 1; n <= 64; n++) {
      const long long nx = planes[pl][0], ny = planes[pl][1];
      int d[2], bx = 0;
      long long bnum = 0; /* cost times n: 4 ny px + 2 nx py */
      for (int a = 1; a <= n; a++) {
        if (n % a || a > nx || n / a > ny) continue;
        long long c = (a > 1 ? 4 * ny * a : 0) + (n / a > 1 ? 2 * nx * (n / a) : 0);
        if (!bx || c < bnum) bx = a, bnum = c;
      }
      if (!bx) continue;
      ck_tsr(tsr_part_dims(n, nx, ny, d));
      ck_assert_int_eq(d[0] * d[1], n);
      ck_assert_msg(d[0] == bx, "%d ranks on %lld x %lld: %d x %d, expected %d x %d", n, nx, ny,
                    d[0], d[1], bx, n / bx);
    }
  /* by hand: a square plane on 2 or 4 ranks in rows; 512 x 2048 on 4 in
     rows of 512 x 512; a wide flat plane in columns; 12 ranks on 512 x 512:
     2 x 6 and 3 x 4 tie (10240), the fewer x cuts win */
  int d[2];
  ck_tsr(tsr_part_dims(2, 1024, 1024, d));
  ck_assert(d[0] == 1 && d[1] == 2);
  ck_tsr(tsr_part_dims(4, 1024, 1024, d));
  ck_assert(d[0] == 1 && d[1] == 4);
  ck_tsr(tsr_part_dims(4, 512, 2048, d));
  ck_assert(d[0] == 1 && d[1] == 4);
  ck_tsr(tsr_part_dims(2, 4096, 64, d));
  ck_assert(d[0] == 2 && d[1] == 1);
  ck_tsr(tsr_part_dims(12, 512, 512, d));
  ck_assert(d[0] == 2 && d[1] == 6);
  ck_tsr(tsr_part_dims(16, 512, 512, d));
  ck_assert(d[0] == 2 && d[1] == 8); /* ties with 4 x 4 (12288) */
  ck_tsr_fails(tsr_part_dims(0, 4, 4, d), TSR_ERR_ARG);
}
END_TEST

START_TEST(test_boxes) {
  /* a hand-made 3 x 2 process grid over 11 x 7: boxes tile the plane and
   * the owner of every cell is the rank whose box holds it */
  tsr_grid_part_t p;
  memset(&p, 0, sizeof p);
  p.n[0] = 11;
  p.n[1] = 7;
  p.n[2] = 2;
  p.dims[0] = 3;
  p.dims[1] = 2;
  int cover[7][11];
  memset(cover, 0, sizeof cover);
  for (int r = 0; r < 6; r++) {
    tsr_idx_t lo[3], hi[3];
    tsr_grid_part_box(&p, r, lo, hi);
    ck_assert(lo[2] == 0 && hi[2] == 2);
    for (tsr_idx_t y = lo[1]; y < hi[1]; y++)
      for (tsr_idx_t x = lo[0]; x < hi[0]; x++) {
        cover[y][x]++;
        ck_assert_int_eq(tsr_grid_part_owner(&p, x, y), r);
      }
  }
  for (int y = 0; y < 7; y++)
    for (int x = 0; x < 11; x++) ck_assert_int_eq(cover[y][x], 1);
  /* neighbours: non-periodic edges give MPI_PROC_NULL, periodic ones wrap */
  ck_assert_int_eq(tsr_grid_part_rank_at(&p, -1, 0), MPI_PROC_NULL);
  ck_assert_int_eq(tsr_grid_part_rank_at(&p, 2, 1), 5);
  p.periodic[0] = 1;
  ck_assert_int_eq(tsr_grid_part_rank_at(&p, -1, 0), 2);
  ck_assert_int_eq(tsr_grid_part_rank_at(&p, 3, 1), 3);
  ck_assert_int_eq(tsr_grid_part_rank_at(&p, 0, 2), MPI_PROC_NULL);
}
END_TEST

START_TEST(test_single_rank) {
  /* on one rank: the whole grid, local array = inner + halo, no neighbours
   * unless periodic (then the rank itself, all around) */
  tsr_grid_part_t p;
  tsr_idx_t n[3] = {9, 5, 3};
  ck_tsr(tsr_grid_part_init(MPI_COMM_WORLD, n, 2, NULL, &p));
  ck_assert(p.dims[0] == 1 && p.dims[1] == 1 && p.inner[0] == 9 && p.inner[1] == 5);
  tsr_grid_box_t b = tsr_grid_part_local(&p, 1);
  ck_assert(b.nx == 13 && b.ny == 9 && b.nz == 5 && b.x0 == 2 && b.y0 == 2 && b.z0 == 1);
  for (int k = 0; k < 9; k++) ck_assert_int_eq(p.nbr[k], k == 4 ? 0 : MPI_PROC_NULL);
  int per[2] = {1, 1};
  ck_tsr(tsr_grid_part_init(MPI_COMM_WORLD, n, 2, per, &p));
  for (int k = 0; k < 9; k++) ck_assert_int_eq(p.nbr[k], 0);
}
END_TEST

START_TEST(test_too_small) {
  tsr_grid_part_t p;
  tsr_idx_t n[3] = {9, 1, 3};
  ck_assert_int_eq(tsr_grid_part_init(MPI_COMM_WORLD, n, 2, NULL, &p), TSR_ERR_PARTITION);
  const char *m = tsr_error_message();
  ck_assert_msg(strstr(m, "9 x 1 x 3") && strstr(m, "1 ranks") && strstr(m, "process grid 1 x 1"),
                "message does not name grid, ranks and process grid: %s", m);
  tsr_error_clear();
  tsr_idx_t bad[3] = {4, 0, 3};
  ck_tsr_fails(tsr_grid_part_init(MPI_COMM_WORLD, bad, 1, NULL, &p), TSR_ERR_ARG);
  ck_tsr_fails(tsr_grid_part_init(MPI_COMM_WORLD, n, -1, NULL, &p), TSR_ERR_ARG);
}
END_TEST

static Suite *part_suite(void) {
  Suite *s = suite_create("part");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_blocks);
  tcase_add_test(tc, test_dims);
  tcase_add_test(tc, test_boxes);
  tcase_add_test(tc, test_single_rank);
  tcase_add_test(tc, test_too_small);
  suite_add_tcase(s, tc);
  return s;
}

/* MPI_Dims_create needs MPI; a singleton MPI_Init works without mpiexec.
 * No fork: forked children must not use the parent's MPI. */
int main(int argc, char **argv) {
  setenv("CK_FORK", "no", 1);
  MPI_Init(&argc, &argv);
  int rc = tsr_test_run(part_suite());
  MPI_Finalize();
  return rc;
}
