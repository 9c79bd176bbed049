/* tests/unit/check_stencil_fit.c: the CUDA launch planning of every CUDA
 * variant on odd-sized grids, on the host (no GPU needed).
 * - test_fit: laplap, hdiff (37x29x9, 33x17x5, 41x23x11, 7x6x3) and
 *   fastwaves (37x29x9, 41x23x11, 9x8x7); every (grid, strategy) pair of a
 *   CUDA variant, unstructured grids in row-major, z-curve and random order,
 *   compressed or not, chasing or not; thread shapes 128x1x8 (the default),
 *   256x1x1, 32x1x8, 64x4x1, 1024x1x1, 32x32x1, 64x2x1 (jpt 4) and 32x1x1
 *   (jpt 16, kpt 1); the kernels' attributes as stencil_cuda_plan assumes
 *   without CUDA, and as a 168- and a 255-register kernel (at most 384 and
 *   256 threads per block). Each must plan (no skip), except the laplap and
 *   hdiff strategies on fastwaves (TSR_ERR_UNSUPPORTED); the block no
 *   larger than asked in any extent (but jwindow-shfl's whole warps and a
 *   cut shared tile's rows), within the kernel's threads, with a note
 *   exactly when it differs from the request; and the launch grid, walked
 *   with each kernel's thread-to-cell mapping (the formulas of
 *   stencil_cuda.cuh and stencil_cuda_win.cuh), updates every cell of the
 *   region exactly once and nothing else, with no block outside it.
 *   patch-kloop with the fitted block (its slots per block) runs on the
 *   host emulation (stencil__patch_cpu) byte-equal to the reference.
 * - test_keep: a block that fits the region (128x64x16 inner) is launched as
 *   asked (the launches measured in BENCHMARKS.md do not change). */
#include "config.h"
#include <check.h>
#include "tsr_check.h"
#include "kernels/stencil/stencil_problem.h"

/* The (grid, strategy) pairs of the CUDA variants (kernels/stencil/variants.def). */
static const int vreg[] = {STENCIL_CU_NAIVE, STENCIL_CU_IDXVAR, STENCIL_CU_SHARED, STENCIL_CU_KLOOP,
                           STENCIL_CU_IDXVAR_KLOOP, STENCIL_CU_IDXVAR_KLOOP_SLICED, STENCIL_CU_TILE,
                           STENCIL_CU_TILE_KLOOP, STENCIL_CU_JWIN, STENCIL_CU_JWIN_SHFL};
static const int vun[] = {STENCIL_CU_NAIVE, STENCIL_CU_IDXVAR, STENCIL_CU_SHARED, STENCIL_CU_WARP,
                          STENCIL_CU_KLOOP, STENCIL_CU_IDXVAR_KLOOP, STENCIL_CU_IDXVAR_KLOOP_SLICED,
                          STENCIL_CU_PATCH, STENCIL_CU_JWIN, STENCIL_CU_JWIN_PLAN, STENCIL_CU_JWIN_PROTO};
#define NVREG ((int)(sizeof vreg / sizeof vreg[0]))
#define NVUN ((int)(sizeof vun / sizeof vun[0]))

/* Strategies for laplap and hdiff only. */
static int only13(int st) {
  return st == STENCIL_CU_TILE || st == STENCIL_CU_TILE_KLOOP || stencil_cuda_uses_jpt(st) ||
         st == STENCIL_CU_PATCH;
}

#define NSHAPE 8
static const stencil_launch_t shapes[NSHAPE] = {
    {128, 1, 8, 8, 8}, {256, 1, 1, 8, 8},   {32, 1, 8, 8, 8}, {64, 4, 1, 8, 8},
    {1024, 1, 1, 8, 8}, {32, 32, 1, 8, 8}, {64, 2, 1, 8, 4}, {32, 1, 1, 1, 16}};
static const stencil_kattr_t attrs[3] = {{1024, 0, 0, 48 * 1024}, {384, 168, 0, 48 * 1024},
                                         {256, 255, 0, 48 * 1024}};

/* Levels [za, zb) of thread layer tz of block z bz (the kernels' formulas;
 * the regular j-window's one level per thread: st_cover). */
static void st_levels(int st, const stencil_cfg_t *c, int64_t bz, int64_t tz, int64_t *za, int64_t *zb) {
  const int64_t z0 = c->z0, z1 = c->z1;
  if (st == STENCIL_CU_KLOOP) { /* st_k_kloop */
    *za = z0, *zb = z1;
    return;
  }
  if (st == STENCIL_CU_NAIVE || st == STENCIL_CU_IDXVAR || st == STENCIL_CU_SHARED || st == STENCIL_CU_WARP) {
    *za = z0 + bz * c->block[2] + tz, *zb = *za + 1;
  } else {
    *za = z0 + (bz * c->block[2] + tz) * c->kpt, *zb = *za + c->kpt;
  }
  if (*zb > z1) *zb = z1;
}

/* Walk the launch cfg of strategy st on g as the kernels map threads to
 * cells; cnt[(cell in plane) + plane * (z - z0)] counts the updates, *bad
 * the updates outside the region. */
static void st_cover(int st, const stencil_grid_t *g, const stencil_cfg_t *c, int *cnt, int64_t plane,
                     int64_t *bad) {
  const int unstr = g->kind == STENCIL_GRID_UNSTR, J = c->jpt;
  const int regwin = !unstr && stencil_cuda_uses_jpt(st);
  const int64_t bx = c->block[0], by = c->block[1], P = bx * by;
  for (int64_t kz = 0; kz < c->grid[2]; kz++)
    for (int64_t ky = 0; ky < c->grid[1]; ky++)
      for (int64_t kx = 0; kx < c->grid[0]; kx++)
        for (int64_t tz = 0; tz < c->block[2]; tz++)
          for (int64_t ty = 0; ty < by; ty++)
            for (int64_t tx = 0; tx < bx; tx++) {
              int64_t za, zb;
              if (regwin) za = c->z0 + kz * c->block[2] + tz, zb = za + 1 < c->z1 ? za + 1 : c->z1;
              else st_levels(st, c, kz, tz, &za, &zb);
              int64_t cells[16], nc = 0;
              if (!unstr) {
                const int64_t x = g->lo[0] + kx * bx + tx;
                if (x >= g->hi[0]) continue;
                const int64_t y0 = regwin ? g->lo[1] + (ky * by + ty) * J : g->lo[1] + ky * by + ty;
                for (int64_t y = y0; y < g->hi[1] && y < y0 + (regwin ? J : 1); y++)
                  cells[nc++] = (x - g->lo[0]) + (g->hi[0] - g->lo[0]) * (y - g->lo[1]);
              } else if (st == STENCIL_CU_PATCH) {
                const int64_t s = g->lo[0] + kx * P + ty * bx + tx;
                if (s < g->hi[0]) cells[nc++] = s - g->lo[0];
              } else if (stencil_cuda_uses_jpt(st)) { /* chains: st_k_uwin, st_k_uwinp */
                int64_t col, strip;
                if (stencil_cuda_uses_plan(st)) {
                  col = kx * bx + tx, strip = ky * by + ty;
                  if (col >= g->ncol) continue;
                } else {
                  const int64_t t = (kx * by + ty) * bx + tx;
                  strip = t / g->ncol, col = t % g->ncol;
                }
                for (int64_t p = strip * J; p < g->nrow && p < strip * J + J; p++)
                  cells[nc++] = g->col[p * g->ncol + col] - g->lo[0];
              } else { /* StGridUn::column */
                const int64_t s = g->lo[0] + (kx * by + ty) * bx + tx;
                if (s < g->hi[0]) cells[nc++] = s - g->lo[0];
              }
              for (int64_t z = za; z < zb; z++)
                for (int64_t k = 0; k < nc; k++) {
                  if (cells[k] < 0 || cells[k] >= plane || z < c->z0 || z >= c->z1) (*bad)++;
                  else cnt[cells[k] + plane * (z - c->z0)]++;
                }
            }
}

/* Plan st on g with shape s and attributes a; the checks of test_fit. */
static void st_check(int kind, int st, const stencil_grid_t *g, const stencil_fields_t *f, stencil_launch_t s,
                     const stencil_kattr_t *a, const char *what, stencil_cfg_t *cfg) {
  char note[256];
  const int rc = stencil__cuda_plan_attr(kind, st, g, f, s, a, cfg, note, sizeof note);
  if (kind == STENCIL_FASTWAVES && only13(st)) {
    ck_assert_msg(rc == TSR_ERR_UNSUPPORTED, "%s: fastwaves %s: rc %d", what, stencil_cuda_strategy_name(st), rc);
    tsr_error_clear();
    return;
  }
  REQUIRE(rc == 0, "%s %s %s block %dx%dx%d jpt %d kpt %d (max %d threads): rc %d: %s %s", what,
          stencil_name(kind), stencil_cuda_strategy_name(st), s.bx, s.by, s.bz, s.jpt, s.kpt,
          a->max_threads, rc, note, rc < 0 ? tsr_error_message() : "");
  const unsigned *b = cfg->block;
  const int tile = st == STENCIL_CU_TILE || st == STENCIL_CU_TILE_KLOOP;
  REQUIRE(b[0] <= (unsigned)s.bx && (b[1] <= (unsigned)s.by || tile) && b[2] <= (unsigned)s.bz &&
              (long)b[0] * b[1] * b[2] <= a->max_threads,
          "%s %s: block %ux%ux%u from %dx%dx%d", what, stencil_cuda_strategy_name(st), b[0], b[1], b[2], s.bx,
          s.by, s.bz);
  const int same = b[0] == (unsigned)s.bx && b[1] == (unsigned)s.by && b[2] == (unsigned)s.bz;
  REQUIRE(same == (note[0] == 0), "%s %s: block %ux%ux%u, note '%s'", what, stencil_cuda_strategy_name(st),
          b[0], b[1], b[2], note);
  REQUIRE(same || strstr(note, " ran as "), "%s: note '%s'", what, note);
  /* the block cut to the region (stencil_cuda_cfg); halved only when the kernel cannot take it */
  stencil_cfg_t c0;
  char n0[256];
  REQUIRE(stencil_cuda_cfg(kind, st, g, s, 8, &c0, n0, sizeof n0) == 0, "%s: cfg %s", what, n0);
  const long t0 = (long)c0.block[0] * c0.block[1] * c0.block[2];
  if (t0 > a->max_threads)
    REQUIRE(strstr(note, "registers") != NULL && (long)b[0] * b[1] * b[2] > a->max_threads / 2,
            "%s %s: block %ux%ux%u, note '%s'", what, stencil_cuda_strategy_name(st), b[0], b[1], b[2], note);
  else
    REQUIRE(b[0] == c0.block[0] && b[1] == c0.block[1] && b[2] == c0.block[2] && !strcmp(note, n0),
            "%s %s: block %ux%ux%u (cut: %ux%ux%u), note '%s'", what, stencil_cuda_strategy_name(st), b[0], b[1],
            b[2], c0.block[0], c0.block[1], c0.block[2], note);
  /* every cell once, nothing outside, no empty block */
  const int64_t plane = g->kind == STENCIL_GRID_UNSTR ? g->hi[0] - g->lo[0]
                                                      : (g->hi[0] - g->lo[0]) * (g->hi[1] - g->lo[1]);
  const int64_t nz = g->hi[2] - g->lo[2];
  int *cnt = calloc((size_t)(plane * nz), sizeof *cnt);
  ck_assert(cnt);
  int64_t bad = 0;
  st_cover(st, g, cfg, cnt, plane, &bad);
  REQUIRE(bad == 0, "%s %s: %lld updates outside the region", what, stencil_cuda_strategy_name(st), (long long)bad);
  for (int64_t k = 0; k < plane * nz; k++)
    REQUIRE(cnt[k] == 1, "%s %s %s block %ux%ux%u grid %ux%ux%u: cell %lld of the plane at level %lld "
            "updated %d times", what, stencil_name(kind), stencil_cuda_strategy_name(st), b[0], b[1], b[2],
            cfg->grid[0], cfg->grid[1], cfg->grid[2], (long long)(k % plane), (long long)(k / plane), cnt[k]);
  free(cnt);
  /* no block wholly outside: one fewer in any direction would not cover */
  stencil_cfg_t less = *cfg;
  for (int d = 0; d < 3; d++) {
    if (cfg->grid[d] <= 1) continue;
    less = *cfg;
    less.grid[d]--;
    int *c2 = calloc((size_t)(plane * nz), sizeof *c2);
    ck_assert(c2);
    int64_t bad2 = 0, miss = 0;
    st_cover(st, g, &less, c2, plane, &bad2);
    for (int64_t k = 0; k < plane * nz; k++) miss += c2[k] == 0;
    free(c2);
    REQUIRE(miss > 0, "%s %s: grid %ux%ux%u has a block outside the region in dimension %d", what,
            stencil_cuda_strategy_name(st), cfg->grid[0], cfg->grid[1], cfg->grid[2], d);
  }
}

static const int64_t sizes13[4][3] = {{37, 29, 9}, {33, 17, 5}, {41, 23, 11}, {7, 6, 3}};
static const int64_t sizesfw[3][3] = {{37, 29, 9}, {41, 23, 11}, {9, 8, 7}};

START_TEST(test_fit) {
  const int kind = _i / 4, sz = _i % 4;
  if (kind == STENCIL_FASTWAVES && sz == 3) return;
  const int64_t *size = kind == STENCIL_FASTWAVES ? sizesfw[sz] : sizes13[sz];
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, STENCIL_DOUBLE, size, TSR_SOA, &P));
  stencil_problem_fill(&P, 29 + (uint64_t)_i, NULL);
  const size_t es = stencil_problem_esize(&P), bytes = (size_t)stencil_problem_elems(&P, 0) * es;
  const stencil_grid_t g = stencil_problem_grid(&P);
  const stencil_fields_t f = stencil_problem_fields(&P, P.kind == STENCIL_FASTWAVES ? P.uv : P.in,
                                                    P.kind == STENCIL_FASTWAVES ? P.cst : P.coeff, P.in, 0);
  void *ref = NULL;
  if (kind != STENCIL_FASTWAVES) {
    ref = malloc(bytes);
    ck_assert(ref);
    memcpy(ref, P.in, bytes);
    stencil_fields_t fr = stencil_problem_fields(&P, P.in, P.coeff, ref, 0);
    ck_tsr(stencil_cpu_ref(kind, &g, &fr));
  }
  char what[64];
  stencil_cfg_t cfg;
  int planned = 0, patched = 0;
  for (int a = 0; a < 3; a++)
    for (int t = 0; t < NSHAPE; t++) {
      snprintf(what, sizeof what, "%lldx%lldx%lld regular", (long long)size[0], (long long)size[1],
               (long long)size[2]);
      for (int v = 0; v < NVREG; v++, planned++) st_check(kind, vreg[v], &g, &f, shapes[t], &attrs[a], what, &cfg);
    }
  for (int u = 0; u < (kind == STENCIL_FASTWAVES ? 6 : 12); u++) {
    const int order = u % 3, comp = (u / 3) % 2, depth = 1 + u / 6;
    stencil_ugrid_t U;
    ck_tsr(stencil_ugrid_create(&P, order, 4, 3, depth, comp, &U));
    stencil_grid_t ug;
    ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &ug));
    ck_assert(kind == STENCIL_FASTWAVES || ug.col);
    snprintf(what, sizeof what, "%lldx%lldx%lld order %d comp %d depth %d", (long long)size[0],
             (long long)size[1], (long long)size[2], order, comp, depth);
    for (int a = 0; a < 3; a++)
      for (int t = 0; t < NSHAPE; t++)
        for (int v = 0; v < NVUN; v++, planned++) {
          st_check(kind, vun[v], &ug, &f, shapes[t], &attrs[a], what, &cfg);
          if (vun[v] != STENCIL_CU_PATCH || kind == STENCIL_FASTWAVES || a || (t != 0 && t != 4)) continue;
          /* patch-kloop with the fitted block: its slots per block on the host emulation */
          void *uin = calloc(1, (size_t)U.L.size * es), *ucst = calloc(1, (size_t)U.L.size * es);
          void *uout = calloc(1, (size_t)U.L.size * es), *back = malloc(bytes);
          ck_assert(uin && ucst && uout && back);
          stencil_ugrid_scatter(&U, &P.L, P.in, &U.L, uin, es);
          if (P.coeff) stencil_ugrid_scatter(&U, &P.L, P.coeff, &U.L, ucst, es);
          memcpy(uout, uin, (size_t)U.L.size * es);
          stencil_fields_t fu = stencil_problem_fields(&P, uin, ucst, uout, 0);
          ck_tsr(stencil__patch_cpu(kind, &ug, &fu, (int)(cfg.block[0] * cfg.block[1])));
          memcpy(back, P.in, bytes);
          stencil_ugrid_gather(&U, &U.L, uout, &P.L, back, es, U.np);
          ck_assert_msg(memcmp(back, ref, bytes) == 0, "%s patch of %u slots: differs from the reference",
                        what, cfg.block[0] * cfg.block[1]);
          free(uin), free(ucst), free(uout), free(back);
          patched++;
        }
    stencil_ugrid_destroy(&U);
  }
  ck_assert_int_ge(planned, 3 * NSHAPE * (NVREG + 6 * NVUN));
  ck_assert(kind == STENCIL_FASTWAVES || patched == 24);
  free(ref);
  stencil_problem_destroy(&P);
}
END_TEST

START_TEST(test_keep) {
  const int kind = _i;
  stencil_problem_t P;
  const int64_t size[3] = {132, 68, kind == STENCIL_FASTWAVES ? 21 : 16}; /* 128 x 64 x 16 updated */
  ck_tsr(stencil_problem_create(kind, STENCIL_DOUBLE, size, TSR_SOA, &P));
  const stencil_grid_t g = stencil_problem_grid(&P);
  const stencil_fields_t f = stencil_problem_fields(&P, P.in, P.coeff, P.in, 0);
  static const stencil_launch_t keep[4] = {{128, 1, 1, 8, 8}, {64, 2, 1, 4, 4}, {32, 4, 2, 8, 8}, {64, 4, 1, 16, 16}};
  const stencil_kattr_t a = {1024, 0, 0, 227 * 1024};
  stencil_cfg_t cfg;
  char note[256];
  for (int v = 0; v < NVREG; v++)
    for (int t = 0; t < 4; t++) {
      if (kind == STENCIL_FASTWAVES && only13(vreg[v])) continue;
      if (keep[t].bz > 1 && (vreg[v] == STENCIL_CU_KLOOP || vreg[v] == STENCIL_CU_IDXVAR_KLOOP)) continue;
      ck_tsr(stencil__cuda_plan_attr(kind, vreg[v], &g, &f, keep[t], &a, &cfg, note, sizeof note));
      ck_assert_msg(cfg.block[0] == (unsigned)keep[t].bx && cfg.block[1] == (unsigned)keep[t].by &&
                        cfg.block[2] == (unsigned)keep[t].bz && note[0] == 0,
                    "%s: %dx%dx%d ran as %ux%ux%u (%s)", stencil_cuda_strategy_name(vreg[v]), keep[t].bx,
                    keep[t].by, keep[t].bz, cfg.block[0], cfg.block[1], cfg.block[2], note);
    }
  /* the default 128x1x8 on this region: as asked where block z may exceed 1 */
  ck_tsr(stencil__cuda_plan_attr(kind, STENCIL_CU_NAIVE, &g, &f, (stencil_launch_t){128, 1, 8, 8, 8}, &a,
                                 &cfg, note, sizeof note));
  ck_assert(cfg.block[0] == 128 && cfg.block[2] == 8 && note[0] == 0 && cfg.grid[0] == 1 && cfg.grid[1] == 64);
  stencil_problem_destroy(&P);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("stencil_fit");
  TCase *t = tcase_create("cpu");
  tcase_set_timeout(t, 300);
  tcase_add_loop_test(t, test_fit, 0, 12);
  tcase_add_loop_test(t, test_keep, 0, 3);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return tsr_test_run(make()); }
