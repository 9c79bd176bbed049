/* check_error: the error table, raise/trace, and collective agreement. */
#include <unistd.h>
#include "tsr_check.h"

static int fail_inner(int n) {
  TSR_CHECK(n > 0, TSR_ERR_ARG, "n must be positive, got %d", n);
  return TSR_SUCCESS;
}
static int fail_outer(int n) {
  TSR_CALL(fail_inner(n));
  return TSR_SUCCESS;
}

START_TEST(test_strings) {
  ck_assert_str_eq(tsr_strerror(TSR_SUCCESS), "success");
  ck_assert_str_eq(tsr_errname(TSR_ERR_HDF5), "HDF5");
  ck_assert_str_eq(tsr_strerror(TSR_ERR_NOCUDA), "built without CUDA");
  ck_assert_str_eq(tsr_strerror(-1), "unknown error");
  ck_assert_str_eq(tsr_strerror(TSR_ERR_COUNT_), "unknown error");
  for (int c = 0; c < TSR_ERR_COUNT_; c++) ck_assert_ptr_nonnull(tsr_strerror(c));
}
END_TEST

START_TEST(test_raise_and_trace) {
  tsr_error_clear();
  ck_assert_int_eq(fail_outer(5), 0);
  ck_assert_int_eq(tsr_error_code(), 0);
  ck_assert_int_eq(fail_outer(-3), TSR_ERR_ARG);
  ck_assert_int_eq(tsr_error_code(), TSR_ERR_ARG);
  ck_assert_str_eq(tsr_error_message(), "n must be positive, got -3");
  /* the printed line is one line, naming the problem */
  char path[256];
  tsr_test_tmpname(path, sizeof path, "errprint");
  FILE *f = fopen(path, "w+");
  ck_assert_ptr_nonnull(f);
  unsetenv("TSR_TRACE");
  tsr_error_set_progname("/usr/bin/lt-tsr-demo");
  tsr_error_print(f);
  rewind(f);
  char line[512];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_str_eq(line, "tsr-demo: error: n must be positive, got -3\n");
  ck_assert_ptr_null(fgets(line, sizeof line, f));
  /* with TSR_TRACE the frames follow */
  rewind(f);
  setenv("TSR_TRACE", "1", 1);
  tsr_error_print(f);
  unsetenv("TSR_TRACE");
  fflush(f);
  long n = ftell(f);
  fclose(f);
  unlink(path);
  ck_assert_int_gt(n, 60);
  tsr_error_clear();
  ck_assert_int_eq(tsr_error_code(), 0);
  ck_assert_str_eq(tsr_error_message(), "");
}
END_TEST

START_TEST(test_untraced_code) {
  tsr_error_clear();
  ck_assert_int_eq(tsr_error_trace(TSR_ERR_IO, __FILE__, __LINE__, __func__), TSR_ERR_IO);
  ck_assert_str_eq(tsr_error_message(), "I/O error");
  tsr_error_clear();
}
END_TEST

START_TEST(test_agree_single) {
  /* without MPI initialised, agree passes the code through */
  ck_assert_int_eq(tsr_error_agree(MPI_COMM_WORLD, 0), 0);
  ck_assert_int_eq(tsr_error_agree(MPI_COMM_WORLD, TSR_ERR_IO), TSR_ERR_IO);
  tsr_error_clear();
}
END_TEST

static Suite *error_suite(void) {
  Suite *s = suite_create("error");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_strings);
  tcase_add_test(tc, test_raise_and_trace);
  tcase_add_test(tc, test_untraced_code);
  tcase_add_test(tc, test_agree_single);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(error_suite()); }
