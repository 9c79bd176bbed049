/* kernels/stencil/stencil_tb_cpu.c: temporal blocking of laplap and hdiff on
 * the host (stencil_tb.h): the register-wavefront pipeline of the CUDA
 * kernel, OpenMP over the warps' work, and the configuration checks. */
#include "config.h"
#include "kernels/stencil/stencil_tb.h"
#include "tessera/error.h"

#include <stdint.h>
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

/* Element of position (x, y) at level z: the regular array's cell, or the
 * slot the unstructured grid's map gives; -1 outside the array, or where
 * the map names no slot. */
static inline int64_t tb_at(const stencil_grid_t *g, const stencil_tb_umap_t *um, int64_t x, int64_t y,
                            int64_t z) {
  if (um) {
    if (x < 0 || x >= um->d0 || y < 0 || y >= um->d1) return -1;
    const int32_t s = um->map[x + um->d0 * y];
    return s < 0 ? -1 : s + z * g->zs;
  }
  if (x < 0 || x >= g->L.d[0] || y < 0 || y >= g->L.d[1]) return -1;
  return tsr_layout_rm_cell(&g->L, x, y, z);
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

/* A neighbour's slot through the tables (two lookups when depth-2 points
 * are chased), -1 when they name no slot of the grid. */
static int32_t tb_nb(const stencil_grid_t *g, int64_t s, int pt) {
  const int64_t t = s + stencil_unstr_off13(g, s, pt);
  return t >= 0 && t < g->np ? (int32_t)t : -1;
}

int stencil_tb_umap_create(const stencil_grid_t *g, stencil_tb_umap_t *m) {
  TSR_CHECK(g && m, TSR_ERR_ARG, "stencil_tb_umap_create: NULL argument");
  memset(m, 0, sizeof *m);
  TSR_CHECK(g->kind == STENCIL_GRID_UNSTR && (g->comp ? g->dict != NULL && g->proto != NULL : g->tab != NULL), TSR_ERR_ARG,
            "stencil_tb_umap_create: an unstructured grid with host tables is needed");
  TSR_CHECK(g->col && g->ncol > 0 && g->nrow > 0, TSR_ERR_UNSUPPORTED,
            "temporal blocking on an unstructured grid needs the tables to show its updated slots as one "
            "rectangle of the neighbour relations (one domain); a rank's part of a partitioned plane is not");
  const int64_t nc = g->ncol, nr = g->nrow, d0 = nc + 4, d1 = nr + 4;
  TSR_CHECK(d0 * d1 <= INT32_MAX && g->np <= INT32_MAX, TSR_ERR_UNSUPPORTED,
            "temporal blocking: %lld x %lld positions are too many for the slot map", (long long)d0,
            (long long)d1);
  int32_t *map = malloc((size_t)(d0 * d1) * sizeof *map);
  TSR_CHECK(map, TSR_ERR_ALLOC, "cannot allocate the slot map of %lld positions", (long long)(d0 * d1));
  for (int64_t e = 0; e < d0 * d1; e++) map[e] = -1;
  const int32_t *col = g->col;
#define TB_C(i, p) ((int64_t)col[(int64_t)(p) * nc + (i)])
#define TB_NB(s, pt) tb_nb(g, (s), (pt))
#define TB_M(x, y) map[(x) + d0 * (y)]
  for (int64_t p = 0; p < nr; p++)
    for (int64_t i = 0; i < nc; i++) TB_M(i + 2, p + 2) = (int32_t)TB_C(i, p);
  for (int64_t p = 0; p < nr; p++) { /* west and east of the rectangle */
    const int64_t w = TB_C(0, p), e = TB_C(nc - 1, p);
    TB_M(1, p + 2) = TB_NB(w, STENCIL_P_W), TB_M(0, p + 2) = TB_NB(w, STENCIL_P_WW);
    TB_M(nc + 2, p + 2) = TB_NB(e, STENCIL_P_E), TB_M(nc + 3, p + 2) = TB_NB(e, STENCIL_P_EE);
  }
  for (int64_t i = 0; i < nc; i++) { /* south and north */
    const int64_t sv = TB_C(i, 0), nv = TB_C(i, nr - 1);
    TB_M(i + 2, 1) = TB_NB(sv, STENCIL_P_S), TB_M(i + 2, 0) = TB_NB(sv, STENCIL_P_SS);
    TB_M(i + 2, nr + 2) = TB_NB(nv, STENCIL_P_N), TB_M(i + 2, nr + 3) = TB_NB(nv, STENCIL_P_NN);
  }
  TB_M(1, 1) = TB_NB(TB_C(0, 0), STENCIL_P_WS);
  TB_M(nc + 2, 1) = TB_NB(TB_C(nc - 1, 0), STENCIL_P_ES);
  TB_M(1, nr + 2) = TB_NB(TB_C(0, nr - 1), STENCIL_P_WN);
  TB_M(nc + 2, nr + 2) = TB_NB(TB_C(nc - 1, nr - 1), STENCIL_P_EN);
  /* stored row by row? slot(i, p) = col[0] + i + p sy over the rectangle */
  const int64_t sy = nr > 1 ? TB_C(0, 1) - TB_C(0, 0) : nc;
  int affine = 1;
  for (int64_t p = 0; p < nr && affine; p++)
    for (int64_t i = 0; i < nc && affine; i++) affine = TB_C(i, p) == TB_C(0, 0) + i + p * sy;
  m->map = map, m->d0 = d0, m->d1 = d1, m->affine = affine;
  m->sy = sy, m->a0 = TB_C(0, 0) - 2 - 2 * sy; /* the position (0, 0) of the map */
#undef TB_C
#undef TB_NB
#undef TB_M
  return TSR_SUCCESS;
}

int stencil_tb_umap_upload(stencil_tb_umap_t *m, const tsr_device_t *dev) {
  TSR_CHECK(m && m->map && dev, TSR_ERR_ARG, "stencil_tb_umap_upload: no map");
  if (dev->kind != TSR_DEV_CUDA) return TSR_SUCCESS;
  TSR_CHECK(!m->dmap, TSR_ERR_ARG, "stencil_tb_umap_upload: the map is on a device already");
  const size_t b = (size_t)(m->d0 * m->d1) * sizeof *m->map;
  void *p = NULL;
  TSR_CALL(tsr_device_malloc(dev, b, &p));
  const int rc = tsr_device_upload(dev, p, m->map, b);
  if (rc) {
    (void)tsr_device_free(dev, &p);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  m->dev = *dev, m->dmap = p;
  return TSR_SUCCESS;
}

void stencil_tb_umap_destroy(stencil_tb_umap_t *m) {
  if (!m) return;
  if (m->dmap) {
    void *p = (void *)m->dmap;
    (void)tsr_device_free(&m->dev, &p);
  }
  free(m->map);
  memset(m, 0, sizeof *m);
}

/* The checks both devices make; box: the updated positions (x lo, x hi,
 * y lo, y hi): the regular grid's region, or the map's rectangle. */
int stencil__tb_prep(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um, const int64_t *live,
                     int64_t box[4]) {
  TSR_CHECK(kind == STENCIL_LAPLAP || kind == STENCIL_HDIFF, TSR_ERR_UNSUPPORTED,
            "temporal blocking is for laplap and hdiff");
  if (g->kind == STENCIL_GRID_UNSTR) {
    TSR_CHECK(um && um->map, TSR_ERR_ARG, "temporal blocking on an unstructured grid: no slot map");
    TSR_CHECK(!live, TSR_ERR_UNSUPPORTED, "temporal blocking on an unstructured grid runs on one domain");
    TSR_CHECK(g->L.nf == 1 && g->zs == g->L.sy, TSR_ERR_UNSUPPORTED,
              "temporal blocking on an unstructured grid: one field per slot and level");
    box[0] = 2, box[1] = um->d0 - 2, box[2] = 2, box[3] = um->d1 - 2;
  } else {
    TSR_CHECK(g->kind == STENCIL_GRID_REGULAR && g->L.kind == TSR_LAYOUT_ROWMAJOR && !um, TSR_ERR_UNSUPPORTED,
              "temporal blocking runs on regular row-major grids and unstructured grids with a slot map");
    box[0] = g->lo[0], box[1] = g->hi[0], box[2] = g->lo[1], box[3] = g->hi[1];
  }
  return TSR_SUCCESS;
}

int stencil_tb_cpu(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um, const stencil_fields_t *f,
                   stencil_tb_t tb, int n, const int64_t live[4]) {
  int64_t box[4];
  TSR_CALL(stencil__tb_prep(kind, g, um, live, box));
  tb.steps = n;
  TSR_CALL(stencil_tb_check(tb));
  if (box[1] <= box[0] || box[3] <= box[2] || g->hi[2] <= g->lo[2]) return TSR_SUCCESS;
  const int64_t *lv = live ? live : box;
  if (f->prec == STENCIL_FLOAT) TSR_CALL(tb_cpu_f(kind, g, um, box, f, tb, n, lv));
  else TSR_CALL(tb_cpu_d(kind, g, um, box, f, tb, n, lv));
  return TSR_SUCCESS;
}

#ifndef TSR_HAVE_CUDA
int stencil_tb_cuda(int kind, const stencil_grid_t *g, const stencil_tb_umap_t *um, const stencil_fields_t *f,
                    stencil_tb_t tb, int n, const int64_t live[4], unsigned blocks[3]) {
  (void)kind, (void)g, (void)um, (void)f, (void)tb, (void)n, (void)live, (void)blocks;
  return TSR_RAISE(TSR_ERR_NOCUDA, "temporal blocking on the GPU: built without CUDA");
}
#endif
