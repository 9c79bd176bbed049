/* kernels/sparse/sg_cpu_eval.c: cpu/eval/walk, evaluation by the incremental
 * block walk of sg_walk.h (OpenMP over tiles of points). A tile of
 * FASTSG_WALK_TILE points shares one uniform walk; each point keeps its
 * prefix products and indices, so a block costs a few operations per point
 * instead of the O(D) of the other variants, and the tile's points read
 * each block while it is in cache. */
#include "config.h"
#include "kernels/sparse/sg_kernels.h"
#include "kernels/sparse/sg_walk.h"
#include "tessera/error.h"

enum { FASTSG_WALK_TILE = 16 };

#define R double
#define SFX(f) f##_d
#define WPT fastsg_walkpt_d_t
#define WPTO fastsg_walkpt_outer_d_t
#include "kernels/sparse/sg_cpu_eval_impl.h"
#undef R
#undef SFX
#undef WPT
#undef WPTO

#define R float
#define SFX(f) f##_f
#define WPT fastsg_walkpt_f_t
#define WPTO fastsg_walkpt_outer_f_t
#include "kernels/sparse/sg_cpu_eval_impl.h"
#undef R
#undef SFX
#undef WPT
#undef WPTO

int fastsg_eval_walk_cpu(const fastsg_kernel_args_t *A) {
  TSR_CHECK(A && A->grid && A->coef, TSR_ERR_ARG, "fastsg kernel: NULL grid or coefficients");
  TSR_CHECK(A->prec == TSR_DOUBLE || A->prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg kernel: precision must be double or float, not %s", tsr_dtype_name(A->prec));
  TSR_CHECK(A->npts == 0 || (A->x && A->r), TSR_ERR_ARG, "fastsg eval: NULL points or results");
  if (A->prec == TSR_DOUBLE)
    walk_eval_d(A->grid, (const double *)A->coef, A->npts, (const double *)A->x, (double *)A->r);
  else
    walk_eval_f(A->grid, (const float *)A->coef, A->npts, (const float *)A->x, (float *)A->r);
  return TSR_SUCCESS;
}
