/* kernels/stencil/stencil_cuda_laplap.cu: the CUDA variants of laplap (double and
 * float, regular and unstructured grids; kernels in stencil_cuda.cuh). */
#include "config.h"
#include "kernels/stencil/stencil_cuda.cuh"

extern "C" int stencil_cuda_laplap(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                               const stencil_cfg_t *cfg) {
  if (f->prec == STENCIL_FLOAT) TSR_CALL((st_run13<float, 0>(strategy, g, f, cfg)));
  else TSR_CALL((st_run13<double, 0>(strategy, g, f, cfg)));
  return TSR_SUCCESS;
}

extern "C" int stencil_cuda_laplap_prepare(const stencil_grid_t *g) {
  TSR_CALL(stencil_cuda_dict_prepare(g));
  stencil_cuda_uwin_forget();
  return TSR_SUCCESS;
}

extern "C" void stencil_cuda_laplap_split(int64_t n[2]) {
  n[0] = stencil_usplit[0], n[1] = stencil_usplit[1];
}
