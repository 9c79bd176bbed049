/* tests/mpi/check_fastsg_dist_cuda.c (run at 1, 2, 3 and 4 ranks, which
 * share the GPUs present): the CUDA sweep kernel of the distributed
 * hierarchization equals one rank's cpu/hier/plain bit for bit
 * (check_fastsg_dist_impl.h); skips without a GPU. */
#define FASTSG_TEST_DEV TSR_DEV_CUDA
#include "check_fastsg_dist_impl.h"

int main(int argc, char **argv) {
  if (!tsr_test_have_gpu()) return tsr_test_mpi_skip_all(&argc, &argv, "no CUDA device");
  return tsr_test_run_mpi(&argc, &argv, fastsg_dist_suite);
}
