/* check_cli: the shared command line, variant selection, statistics and CSV. */
#include <unistd.h>
#include "tsr_check.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define NARGS(a) ((int)(sizeof(a) / sizeof(a[0])))

START_TEST(test_common_flags) {
  tsr_cli_t c;
  tsr_cli_init(&c, "tsr-test", "a test");
  char *argv[] = {"tsr-test", "-i", "in.h5", "--output=out.h5", "--variant", "cpu/*",
                  "--variant", "cuda/ref", "--iterations", "7", "--runs", "3", "--no-verify",
                  "-q", "--device", "cpu", "--csv", "r.csv"};
  ck_tsr(tsr_cli_parse(&c, NARGS(argv), argv, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL));
  ck_assert_str_eq(c.input, "in.h5");
  ck_assert_str_eq(c.output, "out.h5");
  ck_assert_str_eq(c.variants, "cpu/*,cuda/ref");
  ck_assert_int_eq(c.iterations, 7);
  ck_assert_int_eq(c.runs, 3);
  ck_assert_int_eq(c.verify, 0);
  ck_assert_int_eq(c.quiet, 1);
  ck_assert_str_eq(c.device, "cpu");
  ck_assert_str_eq(c.csv, "r.csv");
  ck_assert_int_eq(c.exit_now, 0);
  ck_assert(strstr(c.command_line, "--iterations 7") != NULL);
}
END_TEST

START_TEST(test_app_options) {
  tsr_cli_t c;
  tsr_cli_init(&c, "tsr-test", "a test");
  int64_t size[3] = {8, 8, 8};
  double coeff = 0.5;
  int flag = 0;
  tsr_opt_t opts[] = {
      {"size", 's', TSR_OPT_SIZE3, size, "NXxNYxNZ", "domain"},
      {"coeff", 0, TSR_OPT_DOUBLE, &coeff, "C", "coefficient"},
      {"chase", 0, TSR_OPT_FLAG, &flag, NULL, "pointer chasing"},
  };
  char *argv[] = {"tsr-test", "-s", "13x11", "--coeff", "0.25", "--chase"};
  ck_tsr(tsr_cli_parse(&c, NARGS(argv), argv, opts, 3, MPI_COMM_WORLD, NULL, 0, NULL));
  ck_assert_int_eq(size[0], 13);
  ck_assert_int_eq(size[1], 11);
  ck_assert_int_eq(size[2], 1);
  ck_assert_double_eq(coeff, 0.25);
  ck_assert_int_eq(flag, 1);
}
END_TEST

START_TEST(test_bad_flags) {
  tsr_cli_t c;
  int64_t size[3];
  tsr_opt_t opts[] = {{"size", 0, TSR_OPT_SIZE3, size, "S", "domain"}};
  struct { int argc; char *argv[4]; const char *needle; } cases[] = {
      {2, {"p", "--bogus"}, "unknown option '--bogus'"},
      {3, {"p", "--iterations", "x"}, "'x' is not an integer"},
      {2, {"p", "--iterations"}, "needs a value"},
      {3, {"p", "--iterations", "0"}, "must be >= 1"},
      {3, {"p", "--size", "12x0x3"}, "bad size"},
      {3, {"p", "--size", "12y3"}, "bad size"},
      {3, {"p", "--device", "tpu"}, "expected auto, cpu or cuda"},
      {2, {"p", "stray"}, "unexpected argument 'stray'"},
      {2, {"p", "--quiet=1"}, "takes no value"},
  };
  for (int k = 0; k < NARGS(cases); k++) {
    tsr_cli_init(&c, "p", "");
    ck_assert_int_eq(tsr_cli_parse(&c, cases[k].argc, cases[k].argv, opts, 1, MPI_COMM_WORLD,
                                   NULL, 0, NULL),
                     TSR_ERR_ARG);
    ck_assert_msg(strstr(tsr_error_message(), cases[k].needle), "case %d: '%s' lacks '%s'", k,
                  tsr_error_message(), cases[k].needle);
    tsr_error_clear();
  }
}
END_TEST

START_TEST(test_options_mask) {
  tsr_cli_t c;
  tsr_cli_init(&c, "p", "");
  c.options &= ~(unsigned)(TSR_CLI_INPUT | TSR_CLI_RUNS);
  char *a1[] = {"p", "-i", "x.h5"};
  ck_tsr_fails(tsr_cli_parse(&c, 3, a1, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL), TSR_ERR_ARG);
  char *a2[] = {"p", "--warmup", "3"};
  ck_tsr_fails(tsr_cli_parse(&c, 3, a2, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL), TSR_ERR_ARG);
  char *a3[] = {"p", "-o", "y.h5", "--iterations", "4", "-q"};
  ck_tsr(tsr_cli_parse(&c, 6, a3, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL));
  ck_assert_str_eq(c.output, "y.h5");
  /* --help lists only what is taken */
  char path[256];
  tsr_test_tmpname(path, sizeof path, "usage");
  FILE *f = fopen(path, "w+");
  tsr_cli_usage(&c, NULL, 0, f);
  rewind(f);
  char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  unlink(path);
  ck_assert(strstr(buf, "--output") && strstr(buf, "--iterations"));
  ck_assert(!strstr(buf, "--input") && !strstr(buf, "--warmup") && !strstr(buf, "--runs"));
}
END_TEST

/* A program without variants or other common options: --list-variants and
 * -q are unknown; a single-rank program's --help says so; --version has the
 * one format. */
START_TEST(test_no_common_options) {
  tsr_cli_t c;
  tsr_cli_init(&c, "p", "summary");
  c.options = 0;
  c.single_rank = 1;
  c.args = "FILE.h5";
  char *a1[] = {"p", "--list-variants"};
  ck_assert_int_eq(tsr_cli_parse(&c, 2, a1, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL), TSR_ERR_ARG);
  ck_assert(strstr(tsr_error_message(), "unknown option '--list-variants'") != NULL);
  tsr_error_clear();
  char *a2[] = {"p", "-q"};
  ck_tsr_fails(tsr_cli_parse(&c, 2, a2, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL), TSR_ERR_ARG);
  const char *pos[1];
  int npos = 0;
  char *a3[] = {"p", "f.h5"};
  ck_tsr(tsr_cli_parse(&c, 2, a3, NULL, 0, MPI_COMM_WORLD, pos, 1, &npos)); /* one rank: runs */
  ck_assert_int_eq(npos, 1);
  char path[256];
  tsr_test_tmpname(path, sizeof path, "usage1");
  FILE *f = fopen(path, "w+");
  tsr_cli_usage(&c, NULL, 0, f);
  rewind(f);
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  unlink(path);
  ck_assert(strstr(buf, "Usage: p [OPTIONS] FILE.h5\n") && strstr(buf, "Runs on one rank"));
  ck_assert(!strstr(buf, "--quiet") && !strstr(buf, "--list-variants") && !strstr(buf, "--input"));
  ck_assert(strstr(buf, "--help") && strstr(buf, "--version"));
}
END_TEST

/* After a parse the rank runs the OpenMP threads it was given, >= 1. */
START_TEST(test_omp_threads) {
  tsr_cli_t c;
  tsr_cli_init(&c, "p", "");
  c.quiet = 1;
  char *a[] = {"p"};
  ck_tsr(tsr_cli_parse(&c, 1, a, NULL, 0, MPI_COMM_WORLD, NULL, 0, NULL));
  ck_assert_int_ge(c.omp_threads, 1);
  ck_assert(c.omp_why[0] != '\0');
#ifdef _OPENMP
  ck_assert_int_eq(omp_get_max_threads(), c.omp_threads);
#endif
}
END_TEST

static const tsr_variant_t table[] = {
    {"cpu/ref", TSR_DEV_CPU, "reference", 0},
    {"cpu/zcurve", TSR_DEV_CPU, "", 1},
    {"cuda/regular/idxvar", TSR_DEV_CUDA, "", 2},
    {"cuda/unstr/zcurve/idxvar", TSR_DEV_CUDA, "", 3},
};

START_TEST(test_variant_select) {
  int sel[4], n;
  ck_tsr(tsr_variant_select(table, 4, "all", sel, &n));
  ck_assert_int_eq(n, 4);
  ck_tsr(tsr_variant_select(table, 4, "cuda/*", sel, &n));
  ck_assert_int_eq(n, 2);
  ck_assert_int_eq(sel[0], 2);
  ck_tsr(tsr_variant_select(table, 4, "*zcurve*,cpu/ref,cpu/ref", sel, &n));
  ck_assert_int_eq(n, 3);
  ck_assert_int_eq(sel[0], 0);
  ck_assert_int_eq(sel[1], 1);
  ck_assert_int_eq(sel[2], 3);
  ck_tsr_fails(tsr_variant_select(table, 4, "cpu/ref,gpu/x", sel, &n), TSR_ERR_ARG);
  ck_assert_int_eq(tsr_variant_built(&table[0]), 1);
  ck_assert_int_eq(tsr_variant_built(&table[2]), tsr_device_cuda_built());
}
END_TEST

START_TEST(test_stats) {
  double s[] = {5, 1, 4, 2, 3};
  tsr_stats_t st = tsr_stats(s, 5);
  ck_assert_double_eq(st.median, 3);
  ck_assert_double_eq(st.min, 1);
  ck_assert_double_eq(st.max, 5);
  ck_assert_double_eq(st.mean, 3);
  double t[] = {4, 1, 3, 2};
  ck_assert_double_eq(tsr_stats(t, 4).median, 2.5);
}
END_TEST

START_TEST(test_csv) {
  tsr_report_t *r;
  ck_tsr(tsr_report_create(&r));
  tsr_result_t x;
  memset(&x, 0, sizeof x);
  strcpy(x.app, "copy");
  strcpy(x.variant, "cpu/rowmajor");
  strcpy(x.device, "CPU, 2 threads");
  strcpy(x.precision, "double");
  x.size[0] = 4; x.size[1] = 5; x.size[2] = 6;
  x.ranks = 1;
  double s[] = {2e-6, 1e-6, 3e-6};
  x.time = tsr_stats(s, 3);
  x.bytes = 2000;
  x.ceiling = 2e9;
  x.verify = TSR_VERIFY_PASS;
  ck_tsr(tsr_report_add(r, &x));
  x.verify = TSR_VERIFY_FAIL;
  ck_tsr(tsr_report_add(r, &x));
  ck_assert_int_eq(tsr_report_failures(r), 1);
  char path[256];
  tsr_test_tmpname(path, sizeof path, "report.csv");
  ck_tsr(tsr_report_write_csv(r, MPI_COMM_WORLD, path));
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[1024];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_msg(strcmp(line, TSR_CSV_COLUMNS "\n") == 0, "%s", line);
  const char *first = "app,variant,version,commit,date,host,device,ranks,precision,nx,ny,nz,";
  ck_assert(strncmp(line, first, strlen(first)) == 0);
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  /* the release, commit, date and host of this build and machine */
  tsr_build_t b;
  char host[256], want[1024];
  tsr_build_info(&b);
  tsr_host_name(host, sizeof host);
  snprintf(want, sizeof want, "copy,cpu/rowmajor,%s,%s,20", b.version, b.commit);
  ck_assert_msg(strstr(line, want) == line, "%s", line);
  snprintf(want, sizeof want, "Z,%s,", host);
  ck_assert_msg(strstr(line, want) != NULL, "%s", line);
  /* the device name has a comma: quoted; 2000 B in 2 us = 1 GB/s; floor 1 us = 50 % */
  ck_assert_msg(strstr(line, ",\"CPU, 2 threads\",1,double,4,5,6,3,2.000,"), "%s", line);
  ck_assert_msg(strstr(line, ",1.000,2.000,50.00,,PASS"), "%s", line);
  snprintf(want, sizeof want, ",%s,%s,", b.mpi, b.hdf5);
  ck_assert_msg(strstr(line, want), "%s", line);
  fclose(f);
  unlink(path);
  /* an unwritable path fails cleanly and leaves nothing behind */
  ck_tsr_fails(tsr_report_write_csv(r, MPI_COMM_WORLD, "/nonexistent-dir/x.csv"), TSR_ERR_IO);
  tsr_report_destroy(&r);
  ck_assert_ptr_null(r);
}
END_TEST

START_TEST(test_ceiling_cpu) {
  tsr_device_t d;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &d));
  double bw = 0;
  ck_tsr(tsr_bandwidth_ceiling(&d, &bw));
  ck_assert(bw > 1e8 && bw < 1e13); /* between 0.1 GB/s and 10 TB/s */
}
END_TEST

static Suite *cli_suite(void) {
  Suite *s = suite_create("cli");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_common_flags);
  tcase_add_test(tc, test_app_options);
  tcase_add_test(tc, test_bad_flags);
  tcase_add_test(tc, test_options_mask);
  tcase_add_test(tc, test_no_common_options);
  tcase_add_test(tc, test_omp_threads);
  tcase_add_test(tc, test_variant_select);
  tcase_add_test(tc, test_stats);
  tcase_add_test(tc, test_csv);
  tcase_add_test(tc, test_ceiling_cpu);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(cli_suite()); }
