/* kernels/layout/stencil.h: the 3-D 7-point averaging stencil of the Noarr paper
 * (section 3), used to measure what compile-time extents buy in C.
 *
 * out(x,y,z) = (u(x,y,z) + u(x+1,..) + u(x-1,..) + u(.,y+1,.) + u(.,y-1,.)
 *               + u(.,.,z+1) + u(.,.,z-1)) / 7
 * for every cell not on a face of the grid (1 <= x < d[0]-1, likewise y, z);
 * faces of out are not written. Float, dense row-major (x fastest), so the
 * paper's 2^20 x 32 x 32 grid with its fastest dimension last is our
 * 32 x 32 x 2^20 (x = the paper's z).
 *
 * kernels/layout/stencil.c is ONE source compiled in three builds (and with
 * each compiler: $(CC), gcc on Debian, and clang when configure finds it):
 *   runtime  the layout is a run-time value (the extents and strides are
 *            loaded from a tsr_layout_t the caller passes); loops run to
 *            the caller's layout's extents
 *   cindex   offsets through a CONSTANT layout,
 *              static const tsr_layout_t = TSR_LAYOUT_DENSE_CONST(NX, NY, NZ)
 *            (the same tsr_layout_rm_cell, folded by the compiler); loop
 *            bounds still the caller's run-time extents
 *   cloops   the constant layout for offsets and loop bounds
 * The constant builds are compiled for one shape (STENCIL_NX/NY/NZ, the
 * paper's by default) and refuse any other with TSR_ERR_ARG.
 *
 * Every build's sweep is stencil_sweep_<cc>_<build>(L, in, out), cc in
 * {gcc, clang}, build in {runtime, cindex, cloops}; stencil_info_<cc>_<build>()
 * returns "compiler version; shape" of that object, stencil_shape_<cc>_<build>(d)
 * the constant shape it was compiled for (all 0 for the runtime build).
 */
#ifndef TSR_KERNELS_LAYOUT_STENCIL_H
#define TSR_KERNELS_LAYOUT_STENCIL_H

#include <stdint.h>
#include "tessera/common.h"
#include "tessera/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One cell, through the row-major offset function (L may be a constant). */
static inline void stencil_cell(const tsr_layout_t *L, const float *TSR_RESTRICT in,
                                float *TSR_RESTRICT out, int64_t x, int64_t y, int64_t z) {
  float sum = in[tsr_layout_rm_cell(L, x, y, z)];
  sum += in[tsr_layout_rm_cell(L, x + 1, y, z)];
  sum += in[tsr_layout_rm_cell(L, x - 1, y, z)];
  sum += in[tsr_layout_rm_cell(L, x, y + 1, z)];
  sum += in[tsr_layout_rm_cell(L, x, y - 1, z)];
  sum += in[tsr_layout_rm_cell(L, x, y, z + 1)];
  sum += in[tsr_layout_rm_cell(L, x, y, z - 1)];
  out[tsr_layout_rm_cell(L, x, y, z)] = sum / 7;
}

typedef int (*stencil_sweep_fn)(const tsr_layout_t *L, const float *in, float *out);
typedef const char *(*stencil_info_fn)(void);
typedef void (*stencil_shape_fn)(int64_t d[3]);

#define STENCIL_DECLARE(cc, build)                                                            \
  int stencil_sweep_##cc##_##build(const tsr_layout_t *L, const float *in, float *out);       \
  const char *stencil_info_##cc##_##build(void);                                              \
  void stencil_shape_##cc##_##build(int64_t d[3]);
STENCIL_DECLARE(gcc, runtime)
STENCIL_DECLARE(gcc, cindex)
STENCIL_DECLARE(gcc, cloops)
STENCIL_DECLARE(clang, runtime)
STENCIL_DECLARE(clang, cindex)
STENCIL_DECLARE(clang, cloops)

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_LAYOUT_STENCIL_H */
