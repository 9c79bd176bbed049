/* kernels/sparse/sg_kernels.h: setup helpers (sg.c), the CPU loop nests
 * (sg_cpu.c) and the CUDA launchers (sg_cuda.cu) of fastsg.
 *
 * Every variant of variants.def is one function taking a fastsg_kernel_args_t:
 *   hier: one hierarchization sweep in dimension t, updating only the global
 *         blocks [b0, b1) (all of them: 0, nblocks) in place. A block's
 *         parents lie in lower blocks and must still hold their values from
 *         before the sweep: ranges swept one after the other on one array go
 *         from the highest range down (ranks with their own copies need no
 *         order);
 *   eval: r[j] = interpolant at point j for j < npts.
 * Pointers are host memory for cpu variants and device memory for cuda
 * variants; the grid descriptor is always a host pointer (copied by value). */
#ifndef FASTSG_SG_KERNELS_H
#define FASTSG_SG_KERNELS_H

#include "kernels/sparse/sg.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const fastsg_grid_t *grid;
  tsr_dtype_t prec;       /* TSR_DOUBLE or TSR_FLOAT */
  void *coef;             /* [npoints] coefficients (hier: updated in place) */
  /* hier */
  int t;                  /* sweep dimension, 0..D-1 */
  int64_t b0, b1;         /* global blocks to update */
  const uint32_t *par1d;  /* inv4: [2][2^n] 1-D parent tables (fastsg_par1d_fill) */
  /* eval */
  int64_t npts;
  const void *x;          /* points: [npts][D], or tiled (fastsg_eval_layout) */
  void *r;                /* [npts] results */
  const uint8_t *btab;    /* sred1: [nblocks][2][D] levels and shifts (fastsg_btab_fill) */
} fastsg_kernel_args_t;

/* The cuda/eval/simplex* variants are compiled for levels n <= this. */
#define FASTSG_SIMPLEX_MAX_LEVEL 8
#define FASTSG_SIMPLEX_MAX_LEVEL_STR "8"

/* Variant numbers: FASTSG_V_cpu_hier_plain, ... */
typedef enum {
#define FASTSG_VARIANT(dev, kernel, name, help) FASTSG_V_##dev##_##kernel##_##name,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
  FASTSG_V_COUNT
} fastsg_variant_id_t;

#define FASTSG_VARIANT(dev, kernel, name, help) \
  int fastsg_##kernel##_##name##_##dev(const fastsg_kernel_args_t *args);
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT

/* ---------------------------------------------------------------- sg.c */

/* Fill a descriptor for dimension D and level n. Raises TSR_ERR_ARG naming
 * the limit when D or n is out of range or the grid has more than
 * FASTSG_MAX_POINTS points. */
int fastsg_grid_init(int D, int n, fastsg_grid_t *G);
/* N(D,n) as a double (valid for any D, n >= 1; for error messages). */
double fastsg_grid_count(int D, int n);
/* Global block id b -> group and first position. */
int fastsg_gblock_group(const fastsg_grid_t *G, int64_t b);
int64_t fastsg_gblock_pos(const fastsg_grid_t *G, int64_t b);
/* Contiguous block range of part `part` of `nparts`, balanced by points. */
void fastsg_block_range(const fastsg_grid_t *G, int part, int nparts, int64_t *b0, int64_t *b1);

/* inv4 tables: par[side * 2^n + heap1d(l, i)] = heap1d(parent) + 1, or 0 for
 * a boundary parent. Size fastsg_par1d_count(n) entries. */
size_t fastsg_par1d_count(int n);
void fastsg_par1d_fill(int n, uint32_t *par);
/* sred1 table: for global block b, btab[(b*2+0)*D + t] = l_t and
 * btab[(b*2+1)*D + t] = sum_{s>t} l_s. Size nblocks * 2 * D bytes. */
void fastsg_btab_fill(const fastsg_grid_t *G, uint8_t *btab);

/* Point layouts the eval variants read. */
typedef enum { FASTSG_X_ROWS = 0, FASTSG_X_TILE16 = 16, FASTSG_X_TILE32 = 32 } fastsg_xlayout_t;
fastsg_xlayout_t fastsg_eval_layout(int variant);
/* Number of elements of the x array in layout lay for npts points. */
int64_t fastsg_x_count(fastsg_xlayout_t lay, int64_t npts, int D);
/* x [npts][D] -> xt in layout lay: xt[(j/m)*D + t][j%m] (m = 16 or 32),
 * the tail of the last tile padded with 0.5. Element type prec. */
void fastsg_x_relayout(fastsg_xlayout_t lay, tsr_dtype_t prec, int64_t npts, int D,
                       const void *x, void *xt);

/* ---------------------------------------------------------------- sg_cpu.c */

/* Reference dehierarchization (all sweeps, all blocks), the inverse of D
 * hierarchization sweeps. */
int fastsg_dehier_cpu(const fastsg_grid_t *G, tsr_dtype_t prec, void *coef);

#ifdef __cplusplus
}
#endif
#endif /* FASTSG_SG_KERNELS_H */
