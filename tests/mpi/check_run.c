/* check_run: the run harness (warm-up and timed runs, the per-sample
 * maximum over ranks, time budgets, agreed errors), the variant selection
 * with its skip and exit rules, and the result rows (not-run rows, CSV rows
 * only for what ran, the cache rule of %floor, the FOM line). Runs at any
 * rank count. */
#include <fcntl.h>
#include "tsr_check.h"

typedef struct {
  int rank, resets, runs, fail_at;
  double seconds;
} ctx_t;

static int reset_cb(void *p, const tsr_run_sample_t *s) {
  (void)s;
  ((ctx_t *)p)->resets++;
  return 0;
}

static int run_cb(void *p, tsr_run_sample_t *s) {
  ctx_t *c = p;
  c->runs++;
  if (!s->warmup && s->k == c->fail_at && c->rank == 0)
    return TSR_RAISE(TSR_ERR_VERIFY, "run %d failed", s->k);
  s->seconds = c->seconds > 0 ? c->seconds : (c->rank + 1) * 1e-3 * (s->k + 1);
  s->extra[0] = c->rank;
  return 0;
}

static tsr_run_t spec_of(ctx_t *c, tsr_device_t *dev) {
  tsr_run_t sp;
  memset(&sp, 0, sizeof sp);
  sp.prog = "check_run";
  sp.label = "cpu/test";
  sp.comm = MPI_COMM_WORLD;
  sp.dev = dev;
  sp.timing = TSR_TIME_REPORTED;
  sp.warmup = 2;
  sp.runs = 5;
  sp.barrier = 1;
  sp.quiet = 1;
  sp.nextra = 1;
  sp.reset = reset_cb;
  sp.run = run_cb;
  sp.ctx = c;
  c->fail_at = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
  return sp;
}

START_TEST(test_counts_and_max) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &dev));
  ctx_t c = {0};
  tsr_run_t sp = spec_of(&c, &dev);
  sp.per = 2; /* samples per step: divided by 2 */
  tsr_run_result_t r;
  ck_tsr(tsr_run(&sp, &r));
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ck_assert_int_eq(c.resets, 7);
  ck_assert_int_eq(c.runs, 7);
  ck_assert_int_eq(r.time.n, 5);
  /* sample k is the slowest rank's: size * 1e-3 * (k + 1), / 2 */
  ck_assert_double_eq_tol(r.time.min, size * 1e-3 / 2, 1e-15);
  ck_assert_double_eq_tol(r.time.max, size * 5e-3 / 2, 1e-15);
  ck_assert_double_eq_tol(r.time.median, size * 3e-3 / 2, 1e-15);
  ck_assert_double_eq(r.extra[0].max, size - 1);
  ck_assert_int_eq(r.extra[0].n, 5);
}
END_TEST

START_TEST(test_budget) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &dev));
  ctx_t c = {0};
  tsr_run_t sp = spec_of(&c, &dev);
  c.seconds = 1.0;
  sp.runs = 10;
  sp.max_seconds = 1.5;
  sp.min_runs = 1;
  tsr_run_result_t r;
  ck_tsr(tsr_run(&sp, &r));
  ck_assert_int_eq(r.time.n, 2); /* 2 s spent after two runs */
  sp.min_runs = 4;
  ck_tsr(tsr_run(&sp, &r));
  ck_assert_int_eq(r.time.n, 4);
}
END_TEST

START_TEST(test_error_agreed) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &dev));
  ctx_t c = {0};
  tsr_run_t sp = spec_of(&c, &dev);
  c.fail_at = 1; /* rank 0's second timed run fails: every rank stops there */
  tsr_run_result_t r;
  ck_tsr_fails(tsr_run(&sp, &r), TSR_ERR_VERIFY);
  ck_assert_int_eq(c.runs, 4);
}
END_TEST

static int sleep_cb(void *p, tsr_run_sample_t *s) {
  (void)p, (void)s;
  usleep(2000);
  return 0;
}

START_TEST(test_wall_and_device_timing) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &dev));
  ctx_t c = {0};
  tsr_run_t sp = spec_of(&c, &dev);
  sp.run = sleep_cb;
  sp.nextra = 0;
  sp.warmup = 0;
  sp.runs = 3;
  tsr_run_result_t r;
  sp.timing = TSR_TIME_WALL;
  ck_tsr(tsr_run(&sp, &r));
  ck_assert(r.time.min >= 0.0019 && r.time.max < 1.0);
  sp.timing = TSR_TIME_DEVICE;
  ck_tsr(tsr_run(&sp, &r));
  ck_assert(r.time.min >= 0.0019 && r.time.max < 1.0);
}
END_TEST

static const tsr_variant_t table[] = {
    {"cpu/a", TSR_DEV_CPU, "a", 0},
    {"cpu/b", TSR_DEV_CPU, "b", 1},
    {"cuda/x", TSR_DEV_CUDA, "x", 2},
};

static int select_with(const char *variants, const char *device, tsr_selection_t *sel) {
  tsr_cli_t cli;
  tsr_cli_init(&cli, "check_run", "test");
  cli.variants = variants;
  cli.device = device;
  return tsr_run_select(&cli, table, 3, "cpu/*", "cuda/*", sel);
}

START_TEST(test_select) {
  tsr_selection_t sel;
  const char *nocuda = tsr_variant_unavailable(&table[2]);
  ck_assert_ptr_null(tsr_variant_unavailable(&table[0]));
  ck_tsr(select_with("cpu/a,cuda/*", "auto", &sel));
  int req = -1;
  ck_assert_int_eq(sel.n, 2);
  ck_assert(tsr_selection_has(&sel, 0, &req) && req == 1); /* named */
  ck_assert(tsr_selection_has(&sel, 2, &req) && req == 0); /* by pattern */
  ck_assert(!tsr_selection_has(&sel, 1, NULL));
  tsr_selection_free(&sel);
  ck_tsr(select_with("all", "cpu", &sel));
  ck_assert_int_eq(sel.n, 3);
  tsr_selection_free(&sel);
  ck_tsr(select_with(NULL, "cpu", &sel));
  ck_assert_str_eq(sel.spec, "cpu/*");
  tsr_selection_free(&sel);
  ck_tsr_fails(select_with("cpu/nosuch", "auto", &sel), TSR_ERR_ARG);
  if (nocuda) { /* no GPU here: the early exit rules */
    ck_tsr(select_with(NULL, "auto", &sel));
    ck_assert_str_eq(sel.spec, "cpu/*");
    tsr_selection_free(&sel);
    ck_assert_int_eq(select_with("cuda/x", "auto", &sel), TSR_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(tsr_error_message(), "cuda/x not run: ") &&
                      strstr(tsr_error_message(), nocuda) &&
                      strstr(tsr_error_message(), "(asked for by name)"),
                  "%s", tsr_error_message());
    tsr_error_clear();
    tsr_selection_free(&sel);
    ck_assert_int_eq(select_with("cuda/*", "auto", &sel), TSR_ERR_UNSUPPORTED);
    ck_assert_msg(strncmp(tsr_error_message(), "nothing ran: ", 13) == 0, "%s", tsr_error_message());
    tsr_error_clear();
    tsr_selection_free(&sel);
    ck_assert_int_eq(select_with(NULL, "cuda", &sel), TSR_ERR_UNSUPPORTED);
    ck_assert_msg(strncmp(tsr_error_message(), "nothing ran: ", 13) == 0, "%s", tsr_error_message());
    tsr_error_clear();
    tsr_selection_free(&sel);
    ck_assert_int_eq(select_with("cpu/a,cuda/x", "auto", &sel), TSR_ERR_UNSUPPORTED);
    tsr_error_clear();
    tsr_selection_free(&sel);
  }
}
END_TEST

/* tsr_report_finish with stdout sent to a file; returns its code. */
static int finish_quietly(tsr_report_t *r, const tsr_cli_t *cli, char *out, size_t n) {
  char path[256];
  tsr_test_tmpname(path, sizeof path, "finish.out");
  fflush(stdout);
  int keep = dup(1), fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  dup2(fd, 1);
  close(fd);
  int rc = tsr_report_finish(r, cli, MPI_COMM_WORLD);
  fflush(stdout);
  dup2(keep, 1);
  close(keep);
  FILE *f = fopen(path, "r");
  size_t k = f ? fread(out, 1, n - 1, f) : 0;
  out[k] = 0;
  if (f) fclose(f);
  unlink(path);
  return rc;
}

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0, ch;
  while ((ch = fgetc(f)) != EOF) n += ch == '\n';
  fclose(f);
  return n;
}

START_TEST(test_rows_and_finish) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  tsr_cli_t cli;
  tsr_cli_init(&cli, "check_run", "test");
  char csv[256], out[8192];
  tsr_test_tmpname(csv, sizeof csv, "rows.csv");
  if (rank == 0) unlink(csv);
  MPI_Bcast(csv, sizeof csv, MPI_CHAR, 0, MPI_COMM_WORLD); /* rank 0 writes it */
  cli.csv = csv;
  tsr_device_t cpu;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &cpu));
  tsr_report_t *r;
  ck_tsr(tsr_report_create(&r));
  tsr_result_t a, b;
  tsr_result_init(&a, "test", &table[0], &cpu, 1);
  double s[] = {2e-6, 1e-6, 3e-6};
  a.time = tsr_stats(s, 3);
  a.bytes = 2000;
  a.ceiling = 2e9;
  a.footprint = 1; /* fits in any cache: no DRAM floor */
  a.verify = TSR_VERIFY_PASS;
  snprintf(a.config, sizeof a.config, "threads=4x1x1");
  ck_tsr(tsr_report_add(r, &a));
  tsr_result_init(&b, "test", &table[2], NULL, 0);
  ck_assert_str_eq(b.device, "cuda"); /* what it would have run on */
  tsr_result_notrun(&b, "%s", "built without CUDA");
  ck_assert_str_eq(b.note, "not run: built without CUDA");
  ck_assert_int_eq(b.notrun, 1);
  ck_tsr(tsr_report_add(r, &b));
  ck_assert_int_eq(tsr_report_ran(r), 1);
  ck_tsr(finish_quietly(r, &cli, out, sizeof out));
  if (rank == 0) {
    ck_assert_msg(strstr(out, "not run: 1 of 2 rows: built without CUDA (1)\n"), "%s", out);
    ck_assert_msg(strstr(out, "FOM check_run: variant=cpu/a config=\"threads=4x1x1\" time_s=2e-06 "
                              "bandwidth=1 GB/s verify=PASS\n"), "%s", out);
    if (tsr_cpu_llc_bytes() > 0) ck_assert_msg(strstr(out, " -*  PASS"), "%s", out);
    ck_assert_int_eq(count_lines(csv), 2); /* header + the row that ran */
    FILE *f = fopen(csv, "r");
    char line[2048];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_msg(strcmp(line, TSR_CSV_COLUMNS "\n") == 0, "%s", line); /* no app columns */
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    if (tsr_cpu_llc_bytes() > 0) ck_assert_msg(strstr(line, ",1.000,2.000,,,PASS,threads=4x1x1,"), "%s", line);
    fclose(f);
  }
  /* a required row that did not run: the table, then an error */
  b.required = 1;
  ck_tsr(tsr_report_add(r, &b));
  ck_assert_int_eq(finish_quietly(r, &cli, out, sizeof out), TSR_ERR_UNSUPPORTED);
  ck_assert_msg(strstr(tsr_error_message(), "cuda/x not run: built without CUDA (asked for by name)"),
                "%s", tsr_error_message());
  tsr_error_clear();
  /* a failed verification */
  tsr_report_destroy(&r);
  ck_tsr(tsr_report_create(&r));
  a.verify = TSR_VERIFY_FAIL;
  ck_tsr(tsr_report_add(r, &a));
  ck_assert_int_eq(finish_quietly(r, &cli, out, sizeof out), TSR_ERR_VERIFY);
  tsr_error_clear();
  /* nothing ran: one error, nothing printed, no CSV */
  tsr_report_destroy(&r);
  ck_tsr(tsr_report_create(&r));
  b.required = 0;
  ck_tsr(tsr_report_add(r, &b));
  ck_tsr(tsr_report_add(r, &b));
  if (rank == 0) unlink(csv);
  ck_assert_int_eq(finish_quietly(r, &cli, out, sizeof out), TSR_ERR_UNSUPPORTED);
  ck_assert_str_eq(tsr_error_message(), "nothing ran: built without CUDA (2)");
  ck_assert_str_eq(out, "");
  if (rank == 0) ck_assert_int_eq(access(csv, F_OK), -1);
  tsr_error_clear();
  tsr_report_destroy(&r);
}
END_TEST

START_TEST(test_csv_extra_columns) {
  char buf[64] = "";
  tsr_csv_field(buf, sizeof buf, "a");
  tsr_csv_field(buf, sizeof buf, "b,c");
  tsr_csv_field(buf, sizeof buf, "say \"hi\"");
  ck_assert_str_eq(buf, "a,\"b,c\",\"say \"\"hi\"\"\"");
  ck_assert(tsr_cpu_llc_bytes() >= 0);
}
END_TEST

static Suite *run_suite(void) {
  Suite *s = suite_create("run");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_counts_and_max);
  tcase_add_test(tc, test_budget);
  tcase_add_test(tc, test_error_agreed);
  tcase_add_test(tc, test_wall_and_device_timing);
  tcase_add_test(tc, test_select);
  tcase_add_test(tc, test_rows_and_finish);
  tcase_add_test(tc, test_csv_extra_columns);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, run_suite); }
