/* tests/cuda/check_stencil_tb_cuda.c: temporal blocking on the GPU
 * (stencil_tb_cuda) against single steps on the host, bit for bit, over the
 * sweeps of tests/stencil_tb_case.h, regular and unstructured grids (skips
 * without a GPU). */
#include "config.h"
#include <check.h>
#include "stencil_tb_case.h"

START_TEST(test_cuda_bits) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_SELF, TSR_DEV_CUDA, &dev));
  tb_sweep(&dev, _i);
}
END_TEST

START_TEST(test_cuda_unstr_bits) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_SELF, TSR_DEV_CUDA, &dev));
  tb_usweep(&dev, _i);
}
END_TEST

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (!tsr_test_have_gpu()) {
    MPI_Finalize();
    return tsr_test_skip_all("no CUDA device");
  }
  Suite *s = suite_create("stencil_tb_cuda");
  TCase *t = tcase_create("cuda");
  tcase_set_timeout(t, 300);
  tcase_add_loop_test(t, test_cuda_bits, 0, 4);
  tcase_add_loop_test(t, test_cuda_unstr_bits, 0, 4);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  const int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
