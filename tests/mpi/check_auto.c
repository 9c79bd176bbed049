/* tests/mpi/check_auto.c: --variant auto's choice (lib's tsr_auto_choose)
 * at any rank count: the winner is a candidate that ran and the fastest of
 * the trial (rank 0's times decide: the other ranks see different times and
 * still agree); the cache under $XDG_CACHE_HOME is written, read back
 * without a trial, ignored with --retune, missed when the cached name is not
 * a candidate any more; a corrupt cache is ignored (a warning) and
 * rewritten; no cache directory is not an error; nothing ran is
 * TSR_ERR_UNSUPPORTED on every rank. Also --variant auto in the selection. */
#include "config.h"
#include <check.h>
#include <sys/stat.h>
#include "tsr_check.h"

typedef struct {
  const double *sec; /* rank 0's times; < 0: does not run */
  int calls;
} trial_t;

static int trial(void *ctx, int c, double *sec) {
  trial_t *t = ctx;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  t->calls++;
  /* another rank's times rank the candidates the other way round */
  *sec = t->sec[c] < 0 ? -1 : rank == 0 ? t->sec[c] : 1.0 / (1 + t->sec[c]);
  return TSR_SUCCESS;
}

static const char *const names[4] = {"cpu/a", "cpu/b threads=4", "cpu/c", "cpu/d"};
static const double times[4] = {3e-3, 2e-3, -1, 5e-3}; /* c is faster, but it did not run */

/* A fresh cache directory for this test, the same on every rank. */
static void fresh_cache(const char *tag, char *dir, size_t n) {
  snprintf(dir, n, "%s/tsr-check-auto-%s-%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", tag,
           (long)getppid());
  MPI_Bcast(dir, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
  setenv("XDG_CACHE_HOME", dir, 1);
  char cmd[600];
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void drop_cache(const char *dir) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
  }
}

static int choose(const char *problem, int ncand, const double *sec, int retune, trial_t *t,
                  tsr_auto_result_t *res) {
  t->sec = sec, t->calls = 0;
  const tsr_auto_t a = {"check_auto", problem, "CPU", ncand, names, trial, t, retune, 1};
  return tsr_auto_choose(&a, MPI_COMM_WORLD, res);
}

START_TEST(test_trial_and_cache) {
  char dir[256], path[512];
  fresh_cache("cache", dir, sizeof dir);
  ck_tsr(tsr_auto_cache_path(path, sizeof path));
  ck_assert_str_eq(path + strlen(dir), "/tessera/variant-auto.tsv");
  trial_t t;
  tsr_auto_result_t res;
  ck_tsr(choose("laplap 64x64x16", 4, times, 0, &t, &res));
  ck_assert_int_eq(t.calls, 4);
  ck_assert_int_eq(res.winner, 1); /* rank 0's fastest that ran, on every rank */
  ck_assert(tsr_test_all(res.winner == 1));
  ck_assert_int_eq(res.cached, 0);
  ck_assert_int_eq(res.tried, 3);
  ck_assert(res.seconds == 2e-3);
  /* a second choice for the same key: from the cache, no trial */
  ck_tsr(choose("laplap 64x64x16", 4, times, 0, &t, &res));
  ck_assert_int_eq(t.calls, 0);
  ck_assert_int_eq(res.cached, 1);
  ck_assert_int_eq(res.winner, 1);
  /* another problem: its own trial, both keys kept */
  const double other[4] = {1e-3, 2e-3, 3e-3, 4e-3};
  ck_tsr(choose("laplap 128x64x16", 4, other, 0, &t, &res));
  ck_assert_int_eq(t.calls, 4);
  ck_assert_int_eq(res.winner, 0);
  ck_tsr(choose("laplap 64x64x16", 4, other, 0, &t, &res));
  ck_assert_int_eq(t.calls, 0);
  ck_assert_int_eq(res.winner, 1); /* still the first problem's choice */
  /* --retune: a new trial, the new winner stored */
  ck_tsr(choose("laplap 64x64x16", 4, other, 1, &t, &res));
  ck_assert_int_eq(t.calls, 4);
  ck_assert_int_eq(res.winner, 0);
  ck_tsr(choose("laplap 64x64x16", 4, times, 0, &t, &res));
  ck_assert_int_eq(t.calls, 0);
  ck_assert_int_eq(res.winner, 0);
  /* a cached name that is not a candidate any more (candidates 1..3 only): a trial */
  ck_tsr(choose("laplap 128x64x16", 4, times, 0, &t, &res)); /* cached: cpu/a */
  ck_assert_int_eq(res.winner, 0);
  t.sec = times + 1, t.calls = 0;
  const tsr_auto_t a = {"check_auto", "laplap 128x64x16", "CPU", 3, names + 1, trial, &t, 0, 1};
  ck_tsr(tsr_auto_choose(&a, MPI_COMM_WORLD, &res));
  ck_assert_int_eq(t.calls, 3);
  ck_assert_int_eq(res.winner, 0); /* names[1] */
  /* the file: one line per key, KEY<TAB>NAME<TAB>SECONDS */
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    FILE *f = fopen(path, "r");
    ck_assert(f != NULL);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
      n++;
      ck_assert(strchr(line, '\t') && strstr(line, "check_auto | laplap "));
    }
    fclose(f);
    ck_assert_int_eq(n, 2);
  }
  drop_cache(dir);
}
END_TEST

START_TEST(test_corrupt_cache) {
  char dir[256], path[512];
  fresh_cache("corrupt", dir, sizeof dir);
  ck_tsr(tsr_auto_cache_path(path, sizeof path));
  trial_t t;
  tsr_auto_result_t res;
  ck_tsr(choose("hdiff 32x32x8", 4, times, 0, &t, &res)); /* stored */
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) { /* a cache another program broke: the stored line, then garbage */
    FILE *f = fopen(path, "a");
    ck_assert(f != NULL);
    fputs("not a cache line\n\x01\x02\n", f);
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  ck_tsr(choose("hdiff 32x32x8", 4, times, 0, &t, &res)); /* ignored (a warning): a trial */
  ck_assert_int_eq(t.calls, 4);
  ck_assert_int_eq(res.winner, 1);
  ck_tsr(choose("hdiff 32x32x8", 4, times, 0, &t, &res)); /* rewritten: cached again */
  ck_assert_int_eq(t.calls, 0);
  ck_assert_int_eq(res.cached, 1);
  /* no usable cache directory: a warning, the trial's choice */
  char file[300]; /* XDG_CACHE_HOME a plain file: tessera/ cannot be made under it */
  snprintf(file, sizeof file, "%s/plainfile", dir);
  if (rank == 0) {
    FILE *f = fopen(file, "w");
    ck_assert(f != NULL);
    fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  setenv("XDG_CACHE_HOME", file, 1);
  ck_tsr(choose("hdiff 32x32x8", 4, times, 0, &t, &res));
  ck_assert_int_eq(t.calls, 4);
  ck_assert_int_eq(res.winner, 1);
  drop_cache(dir);
}
END_TEST

START_TEST(test_nothing_ran) {
  char dir[256];
  fresh_cache("none", dir, sizeof dir);
  const double none[4] = {-1, -1, -1, -1};
  trial_t t;
  tsr_auto_result_t res;
  ck_tsr_fails(choose("x", 4, none, 0, &t, &res), TSR_ERR_UNSUPPORTED);
  ck_assert_int_eq(t.calls, 4);
  drop_cache(dir);
}
END_TEST

START_TEST(test_selection) {
  static const tsr_variant_t table[3] = {{"cpu/a", TSR_DEV_CPU, "", 0}, {"cpu/b", TSR_DEV_CPU, "", 1},
                                         {"cuda/c", TSR_DEV_CUDA, "", 2}};
  tsr_cli_t cli;
  tsr_cli_init(&cli, "check_auto", "");
  cli.variants = "auto";
  cli.device = "cpu";
  tsr_selection_t sel;
  ck_tsr_fails(tsr_run_select(&cli, table, 3, "cpu/*", "cuda/*", &sel), TSR_ERR_ARG); /* not declared */
  cli.variant_auto = 1;
  ck_tsr(tsr_run_select(&cli, table, 3, "cpu/*", "cuda/*", &sel));
  ck_assert_int_eq(sel.autotune, 1);
  ck_assert_int_eq(sel.n, 2); /* the device's default list */
  ck_assert_int_eq(sel.required[0] + sel.required[1], 0);
  tsr_selection_free(&sel);
  cli.variants = "cpu/a";
  ck_tsr(tsr_run_select(&cli, table, 3, "cpu/*", "cuda/*", &sel));
  ck_assert_int_eq(sel.autotune, 0);
  tsr_selection_free(&sel);
}
END_TEST

static Suite *auto_suite(void) {
  Suite *s = suite_create("auto");
  TCase *t = tcase_create("choose");
  tcase_add_test(t, test_trial_and_cache);
  tcase_add_test(t, test_corrupt_cache);
  tcase_add_test(t, test_nothing_ran);
  tcase_add_test(t, test_selection);
  suite_add_tcase(s, t);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, auto_suite); }
