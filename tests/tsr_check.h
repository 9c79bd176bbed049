/* tests/tsr_check.h: small helpers for Tessera's check suites.
 *
 * Unit tests:  int main(void) { return tsr_test_run(my_suite()); }
 * MPI tests:   int main(int c, char **v) { return tsr_test_run_mpi(&c, &v, my_suite()); }
 *              (no-fork mode; a test failing on any rank fails on all, and
 *              only rank 0 prints check's report)
 * CUDA tests:  if (!tsr_test_have_gpu()) return tsr_test_skip_all("no CUDA device");
 */
#ifndef TSR_TESTS_CHECK_H
#define TSR_TESTS_CHECK_H

#include <check.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tessera.h"

/* Fail the current test with the library's error message when a call fails. */
#define ck_tsr(expr)                                                         \
  do {                                                                       \
    int ck__e = (expr);                                                      \
    ck_assert_msg(ck__e == 0, "%s -> %s: %s", #expr, tsr_errname(ck__e),     \
                  tsr_error_message());                                      \
  } while (0)

/* Expect a call to fail with code; clears the error afterwards. */
#define ck_tsr_fails(expr, code)                                             \
  do {                                                                       \
    int ck__e = (expr);                                                      \
    ck_assert_msg(ck__e == (code), "%s -> %s, expected %s (%s)", #expr,      \
                  tsr_errname(ck__e), tsr_errname(code), tsr_error_message()); \
    tsr_error_clear();                                                       \
  } while (0)

/* Checks for loops over many elements: check's own ck_assert_* records a
 * mark point per call (slow in tight loops), so these test first and call
 * ck_abort_msg only on failure. */
#define REQUIRE(cond, ...)                    \
  do {                                        \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);   \
  } while (0)
#define REQ_EQ(a, b)                                                       \
  REQUIRE((int64_t)(a) == (int64_t)(b), "%s == %s: %lld != %lld", #a, #b, \
          (long long)(a), (long long)(b))
#define REQ_UEQ(a, b)                                                         \
  REQUIRE((uint64_t)(a) == (uint64_t)(b), "%s == %s: %llu != %llu", #a, #b, \
          (unsigned long long)(a), (unsigned long long)(b))
#define REQ_ULT(a, b)                                                       \
  REQUIRE((uint64_t)(a) < (uint64_t)(b), "%s < %s: %llu >= %llu", #a, #b, \
          (unsigned long long)(a), (unsigned long long)(b))
#define REQ_DEQ(a, b)                                                                     \
  REQUIRE((double)(a) == (double)(b), "%s == %s: %.17g != %.17g", #a, #b, (double)(a), \
          (double)(b))
#define REQ_MEM(a, b, n) REQUIRE(memcmp((a), (b), (n)) == 0, "%s and %s differ", #a, #b)

static inline int tsr_test_run(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* Runs an MPI suite in no-fork mode. A rank whose assertion fails leaves its
 * test early; tests that communicate must therefore agree on the outcome
 * before asserting (tsr_test_all). */
static inline int tsr_test_run_mpi(int *argc, char ***argv, Suite *(*make)(void)) {
  MPI_Init(argc, argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SRunner *sr = srunner_create(make());
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, rank == 0 ? CK_NORMAL : CK_SILENT);
  int nf = srunner_ntests_failed(sr), total = 0;
  srunner_free(sr);
  MPI_Allreduce(&nf, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return total == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* 1 on every rank iff ok is non-zero on every rank of MPI_COMM_WORLD. */
static inline int tsr_test_all(int ok) {
  int all = 0;
  ok = ok ? 1 : 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

static inline int tsr_test_have_gpu(void) { return tsr_device_cuda_count() > 0; }

/* Whole-program skip in TAP (automake's driver reads "1..0 # SKIP"). */
static inline int tsr_test_skip_all(const char *why) {
  printf("1..0 # SKIP %s\n", why);
  return EXIT_SUCCESS;
}

/* MPI tests that need a GPU: without one, rank 0 prints the skip plan (the
 * driver shows it as a comment) and every rank exits 0. */
static inline int tsr_test_mpi_skip_all(int *argc, char ***argv, const char *why) {
  int rank = 0;
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) tsr_test_skip_all(why);
  MPI_Finalize();
  return EXIT_SUCCESS;
}

/* Reproducible pseudo-random doubles in [lo, hi) (splitmix64). */
static inline double tsr_test_rand(unsigned long long *state, double lo, double hi) {
  unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* A scratch path for a test's files, unique per process: DIR/NAME.PID. */
static inline void tsr_test_tmpname(char *buf, size_t n, const char *name) {
  const char *d = getenv("TMPDIR");
  snprintf(buf, n, "%s/tsr-%s.%ld", d && *d ? d : "/tmp", name, (long)getpid());
}
#endif
