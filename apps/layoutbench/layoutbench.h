/* apps/layoutbench/layoutbench.h: what the parts of tsr-layoutbench share.
 * layoutbench.c: options, the variant table, main; lb_matmul.c: the matmul,
 * cuBLAS and transform experiments; lb_stencil.c: the stencil builds. */
#ifndef TSR_APPS_LAYOUTBENCH_H
#define TSR_APPS_LAYOUTBENCH_H

#include "tessera.h"
#include "kernels/layout/matmul.h"
#include "kernels/layout/stencil.h"

/* What a variant does (tsr_variant_t.id = what * 1000 + argument). */
enum {
  LB_MATMUL = 1, /* argument: (ia * 6 + ib) * 6 + ic, indices into matmul_kinds */
  LB_CUBLAS = 2, /* R x R = R through cuBLAS */
  LB_TRANSFORM = 3, /* argument: from * 8 + to (layout kinds) */
  LB_STENCIL = 4 /* argument: cc * 3 + build (cc 0 gcc, 1 clang; build 0 runtime, 1 cindex, 2 cloops) */
};
#define LB_ID(what, arg) ((what) * 1000 + (arg))
#define LB_WHAT(id) ((id) / 1000)
#define LB_ARG(id) ((id) % 1000)

#define LB_MAXSIZES 16

/* Default sizes (--size, --stencil-size): on a GPU machine the seed's
 * (docs/LAYOUTBENCH.md), on the CPU ones that finish in under a minute on
 * two cores. */
#define LB_GPU_SIZES "1008,10080"
#define LB_GPU_STENCIL "32x32x1048576"
#define LB_CPU_SIZES "256"
#define LB_CPU_STENCIL "32x32x4096"

typedef struct {
  tsr_cli_t cli;
  int64_t sizes[LB_MAXSIZES]; /* matrix sizes N (square: M = N = K) */
  int nsizes;
  int tile;                   /* tile side of the tiled matrix layouts */
  int64_t align;              /* alignment of the R and C matrix layouts */
  int64_t cpu_max_n;          /* CPU matmul rows skipped above this N */
  int cpu_runs;               /* timed runs of a CPU matmul */
  double max_seconds;         /* stop timing a variant after this much (>= 3 runs) */
  int64_t verify_full;        /* verify every row up to this N, else verify_rows rows */
  int verify_rows;
  int64_t stencil[3];         /* stencil grid (default: the constant builds' shape) */
  int stencil_runs;           /* timed runs of `iterations` sweeps */
  tsr_report_t *rep;
  const tsr_variant_t *table; /* the variants and the selection (tsr_run_select) */
  tsr_selection_t sel;
} lb_t;

/* Matmul, cuBLAS and transform variants selected in sel[0..n) (indices
 * into table), for every size; adds rows and the payoff rows to B->rep. */
int lb_matmul_run(lb_t *B, const tsr_variant_t *table, const int *sel, int n);
/* Stencil variants selected in sel[0..n). */
int lb_stencil_run(lb_t *B, const tsr_variant_t *table, const int *sel, int n);

/* Times fn(arg) like every experiment here (tsr_run): warm-up runs, then
 * timed runs (device timer) until `runs` or --max-seconds (at least 3). */
int lb_time(const lb_t *B, const char *label, const tsr_device_t *dev, int warmup, int runs,
            int (*fn)(void *), void *arg, tsr_stats_t *st);

/* An empty result row of this app for the variant named variant. */
tsr_result_t lb_row(const lb_t *B, const char *variant, const tsr_device_t *dev,
                    const char *precision);
/* A row for a variant that cannot run here (why: "built without CUDA", ...). */
int lb_skip(lb_t *B, const char *variant, int64_t n, const char *why);

#endif /* TSR_APPS_LAYOUTBENCH_H */
