/* tests/mpi/check_fastsg_dist.c (run at 1, 2, 3 and 4 ranks): distributed
 * hierarchization and dehierarchization on the CPU equal one rank's
 * cpu/hier/plain and fastsg_dehier_cpu bit for bit
 * (check_fastsg_dist_impl.h). */
#define FASTSG_TEST_DEV TSR_DEV_CPU
#include "check_fastsg_dist_impl.h"

int main(int argc, char **argv) { return tsr_test_run_mpi(&argc, &argv, fastsg_dist_suite); }
