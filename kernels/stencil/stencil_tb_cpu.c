/* kernels/stencil/stencil_tb_cpu.c: temporal blocking of laplap and hdiff on
 * the host (stencil_tb.h): the register-wavefront pipeline of the CUDA
 * kernel, OpenMP over the warps' work, and the configuration checks. */
#include "config.h"
#include "kernels/stencil/stencil_tb.h"
#include "tessera/error.h"

#include <stdlib.h>
#include <string.h>

stencil_tb_t stencil_tb_defaults(stencil_tb_t tb) {
  if (tb.steps <= 0) tb.steps = 2;
  if (tb.rows <= 0) tb.rows = 32;
  if (tb.xpt <= 0) tb.xpt = 2;
  if (tb.warps <= 0) tb.warps = 4;
  return tb;
}

int stencil_tb_check(stencil_tb_t tb) {
  TSR_CHECK(tb.steps >= 1 && tb.steps <= STENCIL_TB_MAXSTEPS, TSR_ERR_ARG,
            "--tb-steps: steps per pass 1 .. %d (compiled), got %d", STENCIL_TB_MAXSTEPS, tb.steps);
  TSR_CHECK(tb.xpt == 1 || tb.xpt == 2, TSR_ERR_ARG, "--tb-xpt: points per lane 1 or 2, got %d", tb.xpt);
  TSR_CHECK(stencil_tb_width(tb) > 0, TSR_ERR_ARG,
            "--tb-steps %d with --tb-xpt %d: a tile of 32x%d columns keeps no column after %d steps "
            "(4 per step)", tb.steps, tb.xpt, tb.xpt, tb.steps);
  TSR_CHECK(tb.rows >= 1 && tb.rows <= 1 << 20, TSR_ERR_ARG, "--tb-rows: expected 1 .. 1048576, got %d",
            tb.rows);
  TSR_CHECK(tb.warps >= 1 && tb.warps <= STENCIL_TB_MAXWARPS, TSR_ERR_ARG, "--tb-warps: expected 1 .. %d, got %d",
            STENCIL_TB_MAXWARPS, tb.warps);
  return TSR_SUCCESS;
}

/* y mod D for any y (rows above the array are negative). */
static inline int tb_mod(int64_t y, int D) {
  const int m = (int)(y % D);
  return m < 0 ? m + D : m;
}

#define ST_REAL double
#define ST_FN(f) f##_d
#include "kernels/stencil/stencil_tb_cpu.inc"
#undef ST_REAL
#undef ST_FN
#define ST_REAL float
#define ST_FN(f) f##_f
#include "kernels/stencil/stencil_tb_cpu.inc"
#undef ST_REAL
#undef ST_FN

int stencil_tb_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, stencil_tb_t tb, int n,
                   const int64_t live[4]) {
  TSR_CHECK(kind == STENCIL_LAPLAP || kind == STENCIL_HDIFF, TSR_ERR_UNSUPPORTED,
            "temporal blocking is for laplap and hdiff");
  TSR_CHECK(g->kind == STENCIL_GRID_REGULAR && g->L.kind == TSR_LAYOUT_ROWMAJOR, TSR_ERR_UNSUPPORTED,
            "temporal blocking runs on regular row-major grids");
  tb.steps = n;
  TSR_CALL(stencil_tb_check(tb));
  if (g->hi[0] <= g->lo[0] || g->hi[1] <= g->lo[1] || g->hi[2] <= g->lo[2]) return TSR_SUCCESS;
  const int64_t lv[4] = {g->lo[0], g->hi[0], g->lo[1], g->hi[1]};
  if (f->prec == STENCIL_FLOAT) TSR_CALL(tb_cpu_f(kind, g, f, tb, n, live ? live : lv));
  else TSR_CALL(tb_cpu_d(kind, g, f, tb, n, live ? live : lv));
  return TSR_SUCCESS;
}

#ifndef TSR_HAVE_CUDA
int stencil_tb_cuda(int kind, const stencil_grid_t *g, const stencil_fields_t *f, stencil_tb_t tb, int n,
                    const int64_t live[4], unsigned blocks[3]) {
  (void)kind, (void)g, (void)f, (void)tb, (void)n, (void)live, (void)blocks;
  return TSR_RAISE(TSR_ERR_NOCUDA, "temporal blocking on the GPU: built without CUDA");
}
#endif
