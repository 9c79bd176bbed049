/* tests/mpi/check_xfer.c (run at 1, 2, 3 and 4 ranks by tests/driver): lib's
 * messaging outside the halo exchange. tsr_alltoallv moves uneven segments
 * (empty ones included) to the right place; a transfer set up from global
 * ids scatters from one rank, gathers on one rank and redistributes between
 * two block distributions, with records of several bytes; a wanted id its
 * rank does not hold fails on every rank; tsr_gather_each hands the root
 * every rank's bytes in order, in pieces of the given size; a rank that
 * cannot allocate its all-to-all requests (TSR_FAULT=alloc:rank=1, set
 * before lib's first allocation: this test runs first) ends the call on
 * every rank with the same error instead of leaving them waiting. */
#include "config.h"
#include "tsr_check.h"

static int rank_, size_;

START_TEST(test_alltoallv_fault) {
  int64_t c[8], d[8], x[8], y[8]; /* one element to and from every rank */
  for (int q = 0; q < size_; q++) c[q] = 1, d[q] = q, x[q] = 10 * rank_ + q;
  const int e = tsr_alltoallv(MPI_COMM_WORLD, x, c, d, y, c, d, sizeof *x);
  if (size_ < 2) { /* no rank 1: nothing fails */
    ck_assert_int_eq(e, TSR_SUCCESS);
    ck_assert(y[0] == 0);
    return;
  }
  ck_assert_int_eq(e, TSR_ERR_ALLOC); /* rank 1's error, agreed on every rank */
  ck_assert(tsr_error_is_collective());
  ck_assert_msg(strstr(tsr_error_message(), "all-to-all: cannot allocate") != NULL, "%s",
                tsr_error_message());
  tsr_error_clear();
}
END_TEST

START_TEST(test_alltoallv) {
  int64_t sc[8], sd[8], rc[8], rd[8], ns = 0, nr = 0;
  for (int q = 0; q < size_; q++) { /* rank p sends (p + q) % 3 elements to q */
    sc[q] = (rank_ + q) % 3, sd[q] = ns, ns += sc[q];
    rc[q] = (q + rank_) % 3, rd[q] = nr, nr += rc[q];
  }
  int64_t *s = malloc(sizeof *s * (size_t)(ns + 1)), *r = malloc(sizeof *r * (size_t)(nr + 1));
  for (int q = 0; q < size_; q++)
    for (int64_t k = 0; k < sc[q]; k++) s[sd[q] + k] = 1000 * rank_ + 10 * q + k;
  ck_tsr(tsr_alltoallv(MPI_COMM_WORLD, s, sc, sd, r, rc, rd, sizeof *s));
  int bad = 0;
  for (int q = 0; q < size_; q++)
    for (int64_t k = 0; k < rc[q]; k++) bad += r[rd[q] + k] != 1000 * q + 10 * rank_ + k;
  ck_assert_int_eq(bad, 0);
  free(s);
  free(r);
}
END_TEST

/* Global ids 0..n-1 in blocks: rank p holds tsr_part_block(n, size, p). */
START_TEST(test_xfer) {
  const tsr_idx_t n = 103;
  tsr_idx_t lo, hi, lo2, hi2;
  tsr_part_block(n, size_, rank_, &lo, &hi);
  /* the source: this rank's block, stored backwards; records of 3 doubles */
  const tsr_idx_t nh = hi - lo;
  int64_t *hg = malloc(sizeof *hg * (size_t)(nh + 1));
  double *src = malloc(sizeof *src * 3 * (size_t)(nh + 1));
  for (tsr_idx_t i = 0; i < nh; i++) {
    hg[i] = hi - 1 - i;
    for (int c = 0; c < 3; c++) src[3 * i + c] = (double)hg[i] + 0.25 * c;
  }
  /* 1. redistribution to the reversed block order (rank p takes block size-1-p) */
  tsr_part_block(n, size_, size_ - 1 - rank_, &lo2, &hi2);
  const tsr_idx_t nw = hi2 - lo2;
  int64_t *wg = malloc(sizeof *wg * (size_t)(n + 1));
  int *wr = malloc(sizeof *wr * (size_t)(n + 1));
  double *dst = malloc(sizeof *dst * 3 * (size_t)(n + 1));
  for (tsr_idx_t j = 0; j < nw; j++) {
    wg[j] = lo2 + j;
    wr[j] = tsr_part_block_owner(n, size_, wg[j]);
  }
  tsr_xfer_t *x = NULL;
  ck_tsr(tsr_xfer_create(MPI_COMM_WORLD, nh, hg, nw, wg, wr, &x));
  ck_assert_int_eq(tsr_xfer_recv_count(x), nw);
  ck_tsr(tsr_xfer_run(x, src, dst, 3 * sizeof(double)));
  int bad = 0;
  for (tsr_idx_t j = 0; j < nw; j++)
    for (int c = 0; c < 3; c++) bad += dst[3 * j + c] != (double)wg[j] + 0.25 * c;
  ck_assert_int_eq(bad, 0);
  tsr_xfer_destroy(&x);
  ck_assert_ptr_null(x);
  /* 2. gather on the last rank: it wants every id */
  const int root = size_ - 1;
  const tsr_idx_t ng = rank_ == root ? n : 0;
  for (tsr_idx_t j = 0; j < ng; j++) wg[j] = j, wr[j] = tsr_part_block_owner(n, size_, j);
  ck_tsr(tsr_xfer_create(MPI_COMM_WORLD, nh, hg, ng, wg, wr, &x));
  ck_tsr(tsr_xfer_run(x, src, dst, 3 * sizeof(double)));
  for (tsr_idx_t j = 0; j < ng; j++) bad += dst[3 * j + 1] != (double)j + 0.25;
  ck_assert_int_eq(bad, 0);
  tsr_xfer_destroy(&x);
  /* 3. scatter from rank 0 (it holds every id) to blocks, one byte records */
  unsigned char all[103], mine[103];
  int64_t ag[103];
  for (tsr_idx_t i = 0; i < n; i++) ag[i] = i, all[i] = (unsigned char)(7 * i);
  for (tsr_idx_t j = 0; j < nh; j++) wg[j] = lo + j, wr[j] = 0;
  ck_tsr(tsr_xfer_create(MPI_COMM_WORLD, rank_ == 0 ? n : 0, ag, nh, wg, wr, &x));
  ck_tsr(tsr_xfer_run(x, all, mine, 1));
  for (tsr_idx_t j = 0; j < nh; j++) bad += mine[j] != (unsigned char)(7 * (lo + j));
  ck_assert_int_eq(bad, 0);
  tsr_xfer_destroy(&x);
  /* 4. an id the rank does not hold: an error on every rank */
  wg[0] = n + 5, wr[0] = 0;
  ck_tsr_fails(tsr_xfer_create(MPI_COMM_WORLD, nh, hg, rank_ == root ? 1 : 0, wg, wr, &x),
               TSR_ERR_RANGE);
  ck_assert_ptr_null(x);
  free(hg);
  free(src);
  free(wg);
  free(wr);
  free(dst);
}
END_TEST

typedef struct {
  unsigned char buf[4096];
  size_t n;
  int last_rank, pieces, bad;
} sink_t;

static int sink(void *ctx, int rank, const void *data, size_t bytes) {
  sink_t *s = ctx;
  if (rank < s->last_rank || bytes > 7) s->bad++;
  s->last_rank = rank;
  memcpy(s->buf + s->n, data, bytes);
  s->n += bytes;
  s->pieces++;
  return TSR_SUCCESS;
}

START_TEST(test_gather_each) {
  unsigned char mine[40];
  const size_t nb = (size_t)(5 * rank_ + 3); /* 3, 8, 13, 18 bytes */
  for (size_t k = 0; k < nb; k++) mine[k] = (unsigned char)(rank_ * 50 + k);
  sink_t s;
  memset(&s, 0, sizeof s);
  ck_tsr(tsr_gather_each(MPI_COMM_WORLD, 0, mine, nb, 7, rank_ == 0 ? sink : NULL, &s));
  if (rank_ == 0) {
    size_t at = 0;
    for (int q = 0; q < size_; q++)
      for (size_t k = 0; k < (size_t)(5 * q + 3); k++, at++) s.bad += s.buf[at] != q * 50 + k;
    ck_assert_int_eq(s.n, at);
    ck_assert_int_eq(s.bad, 0);
  }
}
END_TEST

static Suite *make(void) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  Suite *s = suite_create("xfer");
  TCase *t = tcase_create("core");
  setenv("TSR_FAULT", "alloc:rank=1", 1); /* the first tsr_malloc of rank 1 fails */
  tcase_add_test(t, test_alltoallv_fault);
  tcase_add_test(t, test_alltoallv);
  tcase_add_test(t, test_xfer);
  tcase_add_test(t, test_gather_each);
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, make); }
