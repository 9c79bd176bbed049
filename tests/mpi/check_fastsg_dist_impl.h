/* tests/mpi/check_fastsg_dist_impl.h: the body of the distributed
 * hierarchization tests, shared by the CPU suite (check_fastsg_dist.c) and
 * the CUDA suite (check_fastsg_dist_cuda.c); FASTSG_TEST_DEV names the
 * device kind.
 *
 * For each (D, n) and precision: random non-zero values (the same on every
 * rank), the one-rank reference by cpu/hier/plain on the whole array (and
 * fastsg_dehier_cpu for the inverse), then the distributed transform from
 * each rank's rows; every rank's rows must equal the reference's bit for
 * bit. The plan must hold every block exactly once per layout (sums over
 * the ranks equal N) and balance the phases. */
#include "config.h"
#include <check.h>
#include "tsr_check.h"
#include "kernels/sparse/sg_dist.h"

static void *fastsg_test_values(const fastsg_grid_t *G, tsr_dtype_t prec, unsigned long long seed) {
  const size_t es = tsr_dtype_size(prec);
  void *a = malloc((size_t)G->npoints * es);
  ck_assert(a != NULL);
  for (int64_t p = 0; p < G->npoints; p++) {
    double v = tsr_test_rand(&seed, 0.25, 2.0) * (p % 3 == 0 ? -1 : 1);
    if (prec == TSR_FLOAT) ((float *)a)[p] = (float)v;
    else ((double *)a)[p] = v;
  }
  return a;
}

/* The one-rank reference: D sweeps of cpu/hier/plain over all blocks. */
static void fastsg_test_reference(const fastsg_grid_t *G, tsr_dtype_t prec, void *a) {
  fastsg_kernel_args_t A = {.grid = G, .prec = prec, .coef = a, .b0 = 0, .b1 = G->nblocks};
  for (A.t = 0; A.t < G->dim; A.t++) ck_tsr(fastsg_hier_plain_cpu(&A));
}

static void fastsg_test_one(int D, int n, tsr_dtype_t prec) {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(D, n, &G));
  const size_t es = tsr_dtype_size(prec);
  void *a0 = fastsg_test_values(&G, prec, 1000u * (unsigned)D + (unsigned)n);
  void *ref = malloc((size_t)G.npoints * es), *back = malloc((size_t)G.npoints * es);
  ck_assert(ref && back);
  memcpy(ref, a0, (size_t)G.npoints * es);
  fastsg_test_reference(&G, prec, ref);
  memcpy(back, ref, (size_t)G.npoints * es);
  ck_tsr(fastsg_dehier_cpu(&G, prec, back));

  fastsg_dist_t *d = NULL;
  int rc = fastsg_dist_create(&G, rank, size, &d);
  ck_assert_msg(tsr_test_all(rc == 0), "D=%d n=%d plan: %s", D, n, tsr_error_message());
  /* every block once per layout; the exchanges move what is held */
  int64_t held[3] = {d->nlocal[0], d->nlocal[1], d->nlocal[2]}, sum[3], mx[3];
  MPI_Allreduce(held, sum, 3, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(held, mx, 3, MPI_INT64_T, MPI_MAX, comm);
  for (int k = 0; k < 3; k++)
    ck_assert_msg(sum[k] == G.npoints, "D=%d n=%d layout %d holds %lld of %lld points", D, n, k,
                  (long long)sum[k], (long long)G.npoints);
  static const int from[3] = {FASTSG_L_ROWS, FASTSG_L_A, FASTSG_L_B};
  for (int k = 0; k < 3; k++) {
    ck_assert_int_eq(d->xf[k].sdispl[size], d->nlocal[from[k]]);
    ck_assert_int_eq(d->xf[k].rdispl[size], d->nlocal[(from[k] + 1) % 3]);
  }
  /* balance: with enough classes no rank holds more than 1.5 N / P + the
   * heaviest class (at most N(D - |key|, n) points) */
  if (D >= 4)
    for (int k = 1; k < 3; k++)
      ck_assert_msg((double)mx[k] <= 1.5 * (double)G.npoints / size + fastsg_grid_count(D - D / 2, n),
                    "D=%d n=%d phase %d: a rank holds %lld of %lld points", D, n, k,
                    (long long)mx[k], (long long)G.npoints);

  tsr_device_t dev;
  ck_tsr(tsr_device_select(comm, FASTSG_TEST_DEV, &dev));
  fastsg_dist_buf_t buf;
  fastsg_dist_dev_t dt;
  ck_tsr(fastsg_dist_buf_init(d, &dev, es, &buf));
  ck_tsr(fastsg_dist_dev_init(d, &dev, &dt));
  const size_t rows = (size_t)(d->row_p1 - d->row_p0) * es;
  void *a = NULL, *h = malloc((size_t)(d->cap + 1) * es);
  ck_assert(h != NULL);
  ck_tsr(tsr_device_malloc(&dev, (size_t)(d->cap + 1) * es, &a));
  ck_tsr(tsr_device_upload(&dev, a, (char *)a0 + d->row_p0 * es, rows));
  for (int dir = 0; dir < 2; dir++) { /* hierarchize, then back */
    rc = fastsg_dist_transform(d, comm, &dev, &dt, prec, a, &buf, dir);
    ck_assert_msg(tsr_test_all(rc == 0), "transform: %s", tsr_error_message());
    ck_tsr(tsr_device_download(&dev, h, a, rows));
    const char *want = (const char *)(dir ? back : ref) + d->row_p0 * es;
    int64_t bad = -1;
    for (int64_t p = 0; p < d->row_p1 - d->row_p0 && bad < 0; p++)
      if (memcmp((char *)h + p * es, want + p * es, es)) bad = d->row_p0 + p;
    ck_assert_msg(tsr_test_all(bad < 0), "D=%d n=%d %s %s on %d ranks: %s differs from one "
                  "rank's at position %lld", D, n, tsr_dtype_name(prec), dev.name, size,
                  dir ? "dehierarchization" : "hierarchization", (long long)bad);
  }
  tsr_device_free(&dev, &a);
  fastsg_dist_dev_free(d, &dev, &dt);
  fastsg_dist_buf_free(&buf);
  fastsg_dist_destroy(&d);
  free(h);
  free(a0);
  free(ref);
  free(back);
}

static const int fastsg_test_sizes[][2] = {{1, 6}, {2, 5}, {2, 9}, {3, 6}, {4, 6}, {5, 5}, {6, 4}};
enum { FASTSG_TEST_NSIZES = (int)(sizeof fastsg_test_sizes / sizeof fastsg_test_sizes[0]) };

START_TEST(test_dist_equals_one_rank) {
  const int D = fastsg_test_sizes[_i / 2][0], n = fastsg_test_sizes[_i / 2][1];
  fastsg_test_one(D, n, _i % 2 ? TSR_FLOAT : TSR_DOUBLE);
}
END_TEST

static Suite *fastsg_dist_suite(void) {
  Suite *s = suite_create("fastsg_dist");
  TCase *tc = tcase_create("dist");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_dist_equals_one_rank, 0, 2 * FASTSG_TEST_NSIZES);
  suite_add_tcase(s, tc);
  return s;
}
