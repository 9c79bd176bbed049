/* check_node: the node helper at whatever rank count the driver runs
 * (1, 2, 3, 4; all ranks on this machine, so one node):
 *  - tsr_node_split gives node-local ranks 0..size-1, each once, and the
 *    node communicator holds every rank of MPI_COMM_WORLD;
 *  - tsr_node_omp_threads without OMP_NUM_THREADS gives each rank >= 1
 *    thread and sets OpenMP to it; the ranks together run no more threads
 *    than the cores of their affinity masks (or one each when there are more
 *    ranks than cores): the default never oversubscribes the node; unbound
 *    ranks (identical masks) get max(1, cores / ranks) each;
 *  - with OMP_NUM_THREADS set, its value stands. */
#define _GNU_SOURCE
#include <sched.h>
#include "tsr_check.h"
#ifdef _OPENMP
#include <omp.h>
#endif

START_TEST(test_node_split) {
  int wsize, lrank = -1, lsize = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  MPI_Comm node;
  ck_tsr(tsr_node_split(MPI_COMM_WORLD, &node, &lrank, &lsize));
  int nsize = 0;
  MPI_Comm_size(node, &nsize);
  ck_assert_int_eq(lsize, wsize);
  ck_assert_int_eq(nsize, wsize);
  int *seen = calloc((size_t)lsize, sizeof *seen), sum = 0;
  MPI_Allgather(&lrank, 1, MPI_INT, seen, 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < lsize; r++) sum += 1 << seen[r];
  free(seen);
  MPI_Comm_free(&node);
  ck_assert_int_eq(sum, (1 << lsize) - 1);
  int r2 = -1, s2 = 0;
  ck_tsr(tsr_node_split(MPI_COMM_WORLD, NULL, &r2, &s2));
  ck_assert_int_eq(r2, lrank);
  ck_assert_int_eq(s2, lsize);
}
END_TEST

START_TEST(test_omp_default) {
  unsetenv("OMP_NUM_THREADS");
  int threads = 0, size;
  char why[128];
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ck_tsr(tsr_node_omp_threads(MPI_COMM_WORLD, &threads, why, sizeof why));
  cpu_set_t mine, all;
  CPU_ZERO(&mine);
  ck_assert_int_eq(sched_getaffinity(0, sizeof mine, &mine), 0);
  MPI_Allreduce(&mine, &all, (int)sizeof mine, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  int total = 0, same = 0;
  MPI_Allreduce(&threads, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int mycount = CPU_COUNT(&mine), maxc = 0, minc = 0;
  MPI_Allreduce(&mycount, &maxc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&mycount, &minc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  same = CPU_EQUAL(&mine, &all) && maxc == minc;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  const int cores = CPU_COUNT(&all);
  ck_assert_msg(threads >= 1, "%d threads (%s)", threads, why);
#ifdef _OPENMP
  ck_assert_int_eq(omp_get_max_threads(), threads);
#endif
#ifdef _OPENMP
  ck_assert_msg(total <= (cores > size ? cores : size),
                "%d ranks run %d threads on %d cores (%s)", size, total, cores, why);
  if (same) {
    int want = cores / size > 1 ? cores / size : 1;
    ck_assert_msg(threads == want, "unbound: %d threads, expected max(1, %d / %d) (%s)", threads,
                  cores, size, why);
  }
#endif
}
END_TEST

START_TEST(test_omp_env) {
  setenv("OMP_NUM_THREADS", "3", 1);
  int threads = 0;
  char why[128];
  ck_tsr(tsr_node_omp_threads(MPI_COMM_WORLD, &threads, why, sizeof why));
  ck_assert_str_eq(why, "OMP_NUM_THREADS=3");
#ifdef _OPENMP
  ck_assert_int_eq(threads, omp_get_max_threads());
#else
  ck_assert_int_eq(threads, 1);
#endif
  unsetenv("OMP_NUM_THREADS");
}
END_TEST

static Suite *node_suite(void) {
  Suite *s = suite_create("node");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_node_split);
  tcase_add_test(tc, test_omp_default);
  tcase_add_test(tc, test_omp_env);
  suite_add_tcase(s, tc);
  return s;
}

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, node_suite); }
