/* kernels/sparse/sg_cpu.c: the CPU variants of fastsg (OpenMP), instantiated
 * for double and float from sg_cpu_impl.h, and their public entry points. */
#include "config.h"
#include "kernels/sparse/sg_kernels.h"
#include "tessera/error.h"

#define R double
#define SFX(f) f##_d
#define HAT fastsg_hat_d
#include "kernels/sparse/sg_cpu_impl.h"
#undef R
#undef SFX
#undef HAT

#define R float
#define SFX(f) f##_f
#define HAT fastsg_hat_f
#include "kernels/sparse/sg_cpu_impl.h"
#undef R
#undef SFX
#undef HAT

static int fastsg__check(const fastsg_kernel_args_t *A, int hier) {
  TSR_CHECK(A && A->grid && A->coef, TSR_ERR_ARG, "fastsg kernel: NULL grid or coefficients");
  TSR_CHECK(A->prec == TSR_DOUBLE || A->prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg kernel: precision must be double or float, not %s", tsr_dtype_name(A->prec));
  if (hier)
    TSR_CHECK(A->t >= 0 && A->t < A->grid->dim && A->b0 >= 0 && A->b1 <= A->grid->nblocks,
              TSR_ERR_ARG, "fastsg sweep: dimension %d or blocks [%lld, %lld) out of range", A->t,
              (long long)A->b0, (long long)A->b1);
  else
    TSR_CHECK(A->npts == 0 || (A->x && A->r), TSR_ERR_ARG, "fastsg eval: NULL points or results");
  return TSR_SUCCESS;
}

#define FASTSG_CPU_ENTRY(kernel, name, call_d, call_f, hier)                  \
  int fastsg_##kernel##_##name##_cpu(const fastsg_kernel_args_t *A) {         \
    TSR_CALL(fastsg__check(A, hier));                                          \
    return A->prec == TSR_DOUBLE ? call_d : call_f;                            \
  }

FASTSG_CPU_ENTRY(hier, plain, hier_plain_d(A), hier_plain_f(A), 1)
FASTSG_CPU_ENTRY(hier, inv1, hier_inv_d(A, 1), hier_inv_f(A, 1), 1)
FASTSG_CPU_ENTRY(hier, inv2, hier_inv_d(A, 2), hier_inv_f(A, 2), 1)
FASTSG_CPU_ENTRY(hier, inv3, hier_inv_d(A, 3), hier_inv_f(A, 3), 1)
int fastsg_hier_inv4_cpu(const fastsg_kernel_args_t *A) {
  TSR_CALL(fastsg__check(A, 1));
  TSR_CHECK(A->par1d, TSR_ERR_ARG, "hier/inv4 needs the 1-D parent tables (fastsg_par1d_fill)");
  return A->prec == TSR_DOUBLE ? hier_inv_d(A, 4) : hier_inv_f(A, 4);
}
FASTSG_CPU_ENTRY(hier, ichg1, hier_ichg1_d(A), hier_ichg1_f(A), 1)
FASTSG_CPU_ENTRY(eval, plain, eval_plain_d(A), eval_plain_f(A), 0)
int fastsg_eval_sred1_cpu(const fastsg_kernel_args_t *A) {
  TSR_CALL(fastsg__check(A, 0));
  TSR_CHECK(A->btab, TSR_ERR_ARG, "eval/sred1 needs the block table (fastsg_btab_fill)");
  return A->prec == TSR_DOUBLE ? eval_sred1_d(A) : eval_sred1_f(A);
}
FASTSG_CPU_ENTRY(eval, ichg2, eval_ichg2_d(A), eval_ichg2_f(A), 0)
FASTSG_CPU_ENTRY(eval, vec1, eval_vec1_d(A), eval_vec1_f(A), 0)

int fastsg_dehier_cpu(const fastsg_grid_t *G, tsr_dtype_t prec, void *coef) {
  TSR_CHECK(G && coef, TSR_ERR_ARG, "fastsg_dehier_cpu: NULL argument");
  TSR_CHECK(prec == TSR_DOUBLE || prec == TSR_FLOAT, TSR_ERR_ARG,
            "fastsg_dehier_cpu: precision must be double or float");
  return prec == TSR_DOUBLE ? dehier_d(G, (double *)coef) : dehier_f(G, (float *)coef);
}
