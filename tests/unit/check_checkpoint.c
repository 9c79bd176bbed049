/* check_checkpoint: lib's checkpoint files (tessera/checkpoint.h): the
 * schedule, the rank-count-free hash, the match, a write/read round trip,
 * refusals with their messages, and a failed write keeping the last one. */
#include <dirent.h>
#include "tsr_check.h"

START_TEST(test_schedule) {
  ck_assert_int_eq(tsr_checkpoint_next(0, 10, 4), 4);
  ck_assert_int_eq(tsr_checkpoint_next(4, 10, 4), 4);
  ck_assert_int_eq(tsr_checkpoint_next(8, 10, 4), 2);
  ck_assert_int_eq(tsr_checkpoint_next(5, 10, 4), 3); /* a restart at 5 goes to 8 */
  ck_assert_int_eq(tsr_checkpoint_next(10, 10, 4), 0);
  ck_assert_int_eq(tsr_checkpoint_next(3, 10, 0), 7);
  ck_assert(tsr_checkpoint_due(8, 4) && !tsr_checkpoint_due(0, 4) && !tsr_checkpoint_due(6, 4));
  ck_assert(!tsr_checkpoint_due(8, 0));
}
END_TEST

START_TEST(test_hash) {
  double v[6] = {1.5, -2.0, 3.25, 0.0, 1e300, -0.0};
  uint64_t all = 0, a = 0, b = 0, rev = 0;
  for (int i = 0; i < 6; i++) all = tsr_checkpoint_hash_add(all, &v[i], sizeof v[i], i);
  for (int i = 5; i >= 0; i--) rev = tsr_checkpoint_hash_add(rev, &v[i], sizeof v[i], i);
  for (int i = 0; i < 6; i++) { /* two "ranks": the sum is the same */
    if (i % 2) a = tsr_checkpoint_hash_add(a, &v[i], sizeof v[i], i);
    else b = tsr_checkpoint_hash_add(b, &v[i], sizeof v[i], i);
  }
  ck_assert(all == rev && all == a + b);
  uint64_t moved = 0, changed = 0;
  for (int i = 0; i < 6; i++) moved = tsr_checkpoint_hash_add(moved, &v[i], sizeof v[i], (i + 1) % 6);
  v[5] = 0.0; /* -0.0 -> +0.0: other bits */
  for (int i = 0; i < 6; i++) changed = tsr_checkpoint_hash_add(changed, &v[i], sizeof v[i], i);
  ck_assert(moved != all && changed != all);
}
END_TEST

START_TEST(test_match_keys) {
  tsr_checkpoint_match_t m;
  tsr_checkpoint_match_init(&m, "tsr-test");
  ck_tsr_fails(tsr_checkpoint_match_add(&m, "a=b", "x"), TSR_ERR_ARG);
  ck_tsr_fails(tsr_checkpoint_match_add(&m, "a", "two\nlines"), TSR_ERR_ARG);
  for (int i = 0; i < TSR_CHECKPOINT_MAXKEYS; i++) ck_tsr(tsr_checkpoint_match_add(&m, "k", "%d", i));
  ck_tsr_fails(tsr_checkpoint_match_add(&m, "k", "more"), TSR_ERR_ARG);
}
END_TEST

static void ck_msg(int rc, const char *needle) {
  ck_assert_msg(rc == TSR_ERR_FORMAT || rc == TSR_ERR_IO, "rc %s: %s", tsr_errname(rc),
                tsr_error_message());
  ck_assert_msg(strstr(tsr_error_message(), needle), "'%s' lacks '%s'", tsr_error_message(), needle);
  tsr_error_clear();
}

static int ck_write(const char *path, const tsr_checkpoint_match_t *m, int64_t it, int fail) {
  tsr_file_t *f = NULL;
  TSR_CALL(tsr_checkpoint_create(MPI_COMM_WORLD, path, m, it, NULL, &f));
  const tsr_idx_t dims[3] = {3, 1, 1};
  const double v[3] = {1, 2, (double)it};
  int rc = tsr_file_write_rows(f, "/state/v", 1, dims, TSR_DOUBLE, 0, 3, v);
  if (!rc && fail) rc = TSR_RAISE(TSR_ERR_IO, "a write that fails");
  return tsr_checkpoint_commit(&f, rc);
}

START_TEST(test_roundtrip) {
  char dir[] = "/tmp/tsr-ckpt-XXXXXX", path[128], other[128];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/ck.h5", dir);
  snprintf(other, sizeof other, "%s/grid.h5", dir);
  tsr_checkpoint_match_t m, m2;
  tsr_checkpoint_match_init(&m, "tsr-test");
  ck_tsr(tsr_checkpoint_match_add(&m, "size", "%dx%d", 8, 4));
  ck_tsr(tsr_checkpoint_match_add(&m, "precision", "double"));
  ck_tsr(tsr_checkpoint_match_hash(&m, MPI_COMM_WORLD, "hash", 42));
  ck_tsr(ck_write(path, &m, 20, 0));
  tsr_file_t *f = NULL;
  int64_t it = -1;
  ck_tsr(tsr_checkpoint_open(MPI_COMM_WORLD, path, &m, &it, &f));
  ck_assert_int_eq(it, 20);
  double v[3];
  ck_tsr(tsr_file_read_rows(f, "/state/v", 0, 3, TSR_DOUBLE, v));
  ck_assert(v[0] == 1 && v[2] == 20);
  ck_tsr(tsr_file_close(&f));
  /* a write that fails leaves the last checkpoint and no temporary */
  ck_tsr_fails(ck_write(path, &m, 40, 1), TSR_ERR_IO);
  ck_tsr(tsr_checkpoint_open(MPI_COMM_WORLD, path, &m, &it, &f));
  ck_assert_int_eq(it, 20);
  ck_tsr(tsr_file_close(&f));
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
  closedir(d);
  ck_assert_int_eq(n, 1);
  /* refusals */
  m2 = m;
  snprintf(m2.value[1], sizeof m2.value[1], "float");
  ck_msg(tsr_checkpoint_open(MPI_COMM_WORLD, path, &m2, &it, &f),
         "written for precision=double, this run has precision=float");
  m2 = m;
  ck_tsr(tsr_checkpoint_match_add(&m2, "fields", "soa"));
  ck_msg(tsr_checkpoint_open(MPI_COMM_WORLD, path, &m2, &it, &f), "does not record fields");
  m2 = m;
  snprintf(m2.app, sizeof m2.app, "tsr-other");
  ck_msg(tsr_checkpoint_open(MPI_COMM_WORLD, path, &m2, &it, &f), "a checkpoint of tsr-test, not of tsr-other");
  tsr_grid_t g = {4, 4, 4, {0, 0, 0}};
  ck_tsr(tsr_file_create(MPI_COMM_WORLD, other, &f));
  ck_tsr(tsr_grid_write_header(f, &g));
  ck_tsr(tsr_file_close(&f));
  ck_msg(tsr_checkpoint_open(MPI_COMM_WORLD, other, &m, &it, &f), "kind 'regular-grid', not a checkpoint");
  unlink(other);
  ck_msg(tsr_checkpoint_open(MPI_COMM_WORLD, other, &m, &it, &f), "--restart");
  ck_assert_ptr_null(f);
  unlink(path);
  rmdir(dir);
}
END_TEST

static Suite *checkpoint_suite(void) {
  Suite *s = suite_create("checkpoint");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_schedule);
  tcase_add_test(tc, test_hash);
  tcase_add_test(tc, test_match_keys);
  tcase_add_test(tc, test_roundtrip);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, checkpoint_suite); }
