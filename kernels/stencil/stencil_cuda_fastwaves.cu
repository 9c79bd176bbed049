/* kernels/stencil/stencil_cuda_fastwaves.cu: the CUDA variants of fastwaves
 * (double and float; SoA, AoS and AoSoA placement; regular and unstructured
 * grids; kernels in stencil_cuda.cuh). */
#include "config.h"
#include "kernels/stencil/stencil_cuda.cuh"

template <typename T, int PLACE>
static int st_run_fw(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                     const stencil_cfg_t *cfg) {
  StFw<T, PLACE> st;
  st.cst = (const T *)f->cst;
  st.uvin = (const T *)f->uvin;
  st.uvout = (T *)f->uvout;
  st.Lc = f->Lc;
  st.Luv = f->Luv;
  st.flat_level = f->flat_level;
  TSR_CALL(st_run_grids(strategy, st, g, cfg));
  return TSR_SUCCESS;
}

template <typename T>
static int st_run_fw_t(int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                       const stencil_cfg_t *cfg) {
  TSR_CHECK(f->Lc.fields == f->Luv.fields, TSR_ERR_ARG,
            "fastwaves: constant fields and velocities must share one placement");
  switch (f->Lc.fields) {
    case TSR_AOS: TSR_CALL((st_run_fw<T, TSR_AOS>(strategy, g, f, cfg))); break;
    case TSR_AOSOA: TSR_CALL((st_run_fw<T, TSR_AOSOA>(strategy, g, f, cfg))); break;
    default: TSR_CALL((st_run_fw<T, TSR_SOA>(strategy, g, f, cfg))); break;
  }
  return TSR_SUCCESS;
}

extern "C" int stencil_cuda_fastwaves(int strategy, const stencil_grid_t *g,
                                      const stencil_fields_t *f, const stencil_cfg_t *cfg) {
  if (f->prec == STENCIL_FLOAT) TSR_CALL(st_run_fw_t<float>(strategy, g, f, cfg));
  else TSR_CALL(st_run_fw_t<double>(strategy, g, f, cfg));
  return TSR_SUCCESS;
}

extern "C" int stencil_cuda_fastwaves_prepare(const stencil_grid_t *g) {
  TSR_CALL(stencil_cuda_dict_prepare(g));
  return TSR_SUCCESS;
}
