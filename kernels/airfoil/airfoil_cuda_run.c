#include "config.h"
#include "tessera/error.h"
#include "kernels/airfoil/airfoil_run.h"
int airfoil_cuda_run(const airfoil_problem_t *p, const airfoil_cuda_opts_t *o, airfoil_run_t *r) {
  (void)p; (void)o; (void)r;
  return TSR_RAISE(TSR_ERR_NOCUDA, "airfoil: CUDA variants not written yet");
}
