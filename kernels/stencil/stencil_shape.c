/* kernels/stencil/stencil_shape.c: CUDA launch shapes (checked on the host,
 * in every build) and the dispatch of stencil_cuda_run. */
#include "config.h"
#include "kernels/stencil/stencil.h"
#include "tessera/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const st_strategy_names[STENCIL_CU_NSTRATEGIES] = {
    "naive", "idxvar", "idxvar-shared", "idxvar-warp", "kloop", "idxvar-kloop",
    "idxvar-kloop-sliced", "shared", "tile-kloop", "jwindow", "jwindow-shfl", "patch-kloop",
    "jwindow-plan", "jwindow-proto"};

const char *stencil_cuda_strategy_name(int strategy) {
  return strategy >= 0 && strategy < STENCIL_CU_NSTRATEGIES ? st_strategy_names[strategy] : NULL;
}

int stencil_cuda_shape_valid(int strategy, stencil_launch_t s) {
  const int bx = s.bx, by = s.by, bz = s.bz;
  TSR_CHECK(bx >= 1 && by >= 1 && bz >= 1 && (long)bx * by * bz <= 1024, TSR_ERR_ARG,
            "thread shape %dx%dx%d: each extent must be >= 1 and the block at most 1024 threads",
            bx, by, bz);
  TSR_CHECK(s.kpt >= 1, TSR_ERR_ARG, "levels per thread (--kpt) must be >= 1, got %d", s.kpt);
  if (stencil_cuda_uses_jpt(strategy)) {
    const int j = stencil_launch_jpt(s);
    TSR_CHECK(j == 2 || j == 4 || j == 8 || j == 16, TSR_ERR_ARG,
              "rows per thread (--jpt) of %s: 2, 4, 8 or 16 (compiled), got %d",
              stencil_cuda_strategy_name(strategy), j);
  }
  if (strategy == STENCIL_CU_WARP) {
    const int cols = bx * by;
    TSR_CHECK((bx * by * bz) % 32 == 0 && (cols % 32 == 0 || 32 % cols == 0), TSR_ERR_ARG,
              "thread shape %dx%dx%d: warp broadcast (idxvar-warp) needs whole warps, a block "
              "of a multiple of 32 threads whose x*y (%d) divides 32 or is a multiple of 32",
              bx, by, bz, cols);
  }
  return TSR_SUCCESS;
}

#define ST_SKIP(...) (snprintf(note, n, __VA_ARGS__), 1)

static int64_t st_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* Append to a note (a "; " between parts). */
static void st_note(char *note, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void st_note(char *note, size_t n, const char *fmt, ...) {
  size_t k = strlen(note);
  if (k + 3 >= n) return;
  if (k) note[k++] = ';', note[k++] = ' ', note[k] = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(note + k, n - k, fmt, ap);
  va_end(ap);
}

/* The block a strategy runs on a region of ext[0] x ext[1] x ext[2] (x:
 * cells of a row, slots or chains of an unstructured grid, the plan's
 * columns; y: rows or strips of jpt rows (regular), the plan's strips; z:
 * levels, or slices of kpt levels): the requested block with
 *  - block z 1 where a thread (z-loops) or a block (patch-kloop, the chain
 *    plans) runs over every level of its slice, else at most the levels or
 *    slices (the warp broadcast: whole warps kept);
 *  - block x and y at most the region (unstructured one-thread-per-slot
 *    strategies: bx by at most the slots or chains, by cut first); the
 *    shuffle window's x to whole warps over the row (its last warp runs
 *    partly outside); the warp broadcast keeps its x and y (its kernels
 *    guard the slots past the region inside whole warps); a shared tile
 *    cut in x grows in y until each thread loads at most STENCIL_TILE_LOADS
 *    values, as a requested tile must.
 * A block that fits is returned as it is (the same launch as before). b[]:
 * the block; why: what it was cut to, else empty. */
static void st_fit(int strategy, int unstr, const int64_t ext[3], stencil_launch_t s, int b[3],
                   char *why, size_t nwhy) {
  const int zloop = strategy == STENCIL_CU_KLOOP || strategy == STENCIL_CU_IDXVAR_KLOOP;
  const int patch = strategy == STENCIL_CU_PATCH, plan = stencil_cuda_uses_plan(strategy);
  const int warp = strategy == STENCIL_CU_WARP, shfl = strategy == STENCIL_CU_JWIN_SHFL;
  const int tile = strategy == STENCIL_CU_TILE || strategy == STENCIL_CU_TILE_KLOOP;
  const int sliced = strategy == STENCIL_CU_IDXVAR_KLOOP_SLICED || strategy == STENCIL_CU_TILE_KLOOP ||
                     patch || (unstr && stencil_cuda_uses_jpt(strategy));
  int64_t bx = s.bx, by = s.by, bz = s.bz;
  why[0] = 0;
  if (zloop || patch || plan) {
    if (bz > 1)
      st_note(why, nwhy, "%s",
              zloop ? "z 1: a thread loops over the levels"
                    : patch ? "z 1: a block's slots march up the levels"
                            : "z 1: a block's chains share their levels");
    bz = 1;
  } else {
    const int64_t q = warp && bx * by < 32 ? 32 / (bx * by) : 1; /* whole warps */
    const int64_t zmax = (ext[2] + q - 1) / q * q;
    if (bz > zmax)
      st_note(why, nwhy, "%lld %s%s", (long long)ext[2], sliced ? "slice" : "level",
              ext[2] == 1 ? "" : "s"),
          bz = zmax;
  }
  if (plan) {
    if (bx > ext[0] || by > ext[1])
      st_note(why, nwhy, "%lld columns x %lld strips", (long long)ext[0], (long long)ext[1]);
    bx = st_min(bx, ext[0]), by = st_min(by, ext[1]);
  } else if (unstr && !warp) {
    if (bx * by > ext[0]) {
      st_note(why, nwhy, "%lld %s", (long long)ext[0],
              stencil_cuda_uses_jpt(strategy) ? "chains" : "slots");
      if (bx >= ext[0]) bx = ext[0], by = 1;
      else by = (ext[0] + bx - 1) / bx;
    }
  } else if (!unstr && !warp) {
    const int64_t xmax = shfl ? (ext[0] + 31) / 32 * 32 : ext[0];
    if (bx > xmax || by > ext[1])
      st_note(why, nwhy, "region %lld x %lld %s", (long long)ext[0],
              (long long)ext[1], stencil_cuda_uses_jpt(strategy) ? "strips" : "rows");
    const int cutx = bx > xmax;
    bx = st_min(bx, xmax), by = st_min(by, ext[1]);
    if (tile && cutx)
      while (by < ext[1] && (bx + 4) * (by + 4) > (int64_t)STENCIL_TILE_LOADS * bx * by) by++;
  }
  if (bx * by * bz > 1024) bz = 1024 / (bx * by);
  b[0] = (int)bx, b[1] = (int)by, b[2] = (int)bz;
}

static int st_cfg(int kind, int strategy, const stencil_grid_t *g, stencil_launch_t s, size_t elem,
                  stencil_cfg_t *cfg, char *note, size_t n, char *why, size_t nwhy) {
  memset(cfg, 0, sizeof *cfg);
  if (note && n) note[0] = 0;
  why[0] = 0;
  const char *sn = stencil_cuda_strategy_name(strategy);
  TSR_CHECK(sn, TSR_ERR_ARG, "unknown CUDA strategy %d", strategy);
  TSR_CALL(stencil_cuda_shape_valid(strategy, s));
  const int unstr = g->kind == STENCIL_GRID_UNSTR;
  const int tile = strategy == STENCIL_CU_TILE || strategy == STENCIL_CU_TILE_KLOOP;
  TSR_CHECK(!tile || (!unstr && kind != STENCIL_FASTWAVES), TSR_ERR_UNSUPPORTED,
            "the shared-tile strategies (%s) run laplap and hdiff on regular grids only", sn);
  const int jwin = stencil_cuda_uses_jpt(strategy), patch = strategy == STENCIL_CU_PATCH;
  const int uwin = jwin && unstr; /* chains of the north relation */
  TSR_CHECK(!jwin || (kind != STENCIL_FASTWAVES &&
                      (unstr ? strategy != STENCIL_CU_JWIN_SHFL : !stencil_cuda_uses_plan(strategy))),
            TSR_ERR_UNSUPPORTED,
            "the j-window strategies (%s) run laplap and hdiff (jwindow-shfl on regular grids, "
            "jwindow-plan and jwindow-proto on unstructured ones)", sn);
  TSR_CHECK(!uwin || g->col, TSR_ERR_UNSUPPORTED,
            "unstructured jwindow: the updated slots [%lld, %lld) are not the whole region as a "
            "rectangle of the relations (no column order)", (long long)g->lo[0], (long long)g->hi[0]);
  TSR_CHECK(!patch || (unstr && kind != STENCIL_FASTWAVES), TSR_ERR_UNSUPPORTED,
            "patch-kloop runs laplap and hdiff on unstructured grids only");
  const int64_t ex = g->hi[0] - g->lo[0], ey = g->hi[1] - g->lo[1], ez = g->hi[2] - g->lo[2];
  if (ex <= 0 || ey <= 0 || ez <= 0) return ST_SKIP("nothing to update");
  const int zloop = strategy == STENCIL_CU_KLOOP || strategy == STENCIL_CU_IDXVAR_KLOOP;
  const int plan2 = stencil_cuda_uses_plan(strategy);
  if (strategy == STENCIL_CU_JWIN_SHFL && s.bx % 32 != 0)
    return ST_SKIP("block %dx%dx%d: %s needs whole warps along x (block x a multiple of 32)", s.bx,
                   s.by, s.bz, sn);
  /* j-window: the y extent counts strips of jpt rows */
  const int jpt = jwin ? stencil_launch_jpt(s) : 1;
  const int64_t ny = (ey + jpt - 1) / jpt;
  const int64_t nstrip = uwin ? (g->nrow + jpt - 1) / jpt : 0;
  const int64_t nchain = uwin ? g->ncol * nstrip : ex;
  const int sliced = strategy == STENCIL_CU_IDXVAR_KLOOP_SLICED || strategy == STENCIL_CU_TILE_KLOOP ||
                     patch || uwin;
  const int64_t nsl = sliced ? (ez + s.kpt - 1) / s.kpt : ez;
  /* The block that runs: the requested one, each extent beyond the region
     cut to it (st_fit; the note says so), so that small and odd-sized grids
     run every strategy; a block that fits is taken as it is. */
  int b[3];
  const int64_t ext[3] = {plan2 ? g->ncol : unstr ? nchain : ex, plan2 ? nstrip : ny, nsl};
  st_fit(strategy, unstr, ext, s, b, why, nwhy);
  const int bx = b[0], by = b[1], bz = b[2];
  if (tile && (int64_t)(bx + 4) * (by + 4) > (int64_t)STENCIL_TILE_LOADS * bx * by)
    return ST_SKIP("block %dx%dx%d: the %dx%d input tile needs more than %d loads per thread (%s)",
                   bx, by, bz, bx + 4, by + 4, STENCIL_TILE_LOADS, sn);
  /* jwindow-plan, jwindow-proto: blocks of bx columns and by strips of the chains */
  const int64_t gx = plan2 ? (g->ncol + bx - 1) / bx
                     : unstr ? (nchain + (int64_t)bx * by - 1) / ((int64_t)bx * by) : (ex + bx - 1) / bx;
  const int64_t gy = plan2 ? (nstrip + by - 1) / by : unstr ? 1 : (ny + by - 1) / by;
  const int64_t gz = zloop ? 1 : (nsl + bz - 1) / bz;
  TSR_CHECK(gx <= 2147483647LL && gy <= 65535 && gz <= 65535, TSR_ERR_ARG,
            "thread shape %dx%dx%d needs %lldx%lldx%lld blocks, more than CUDA allows", bx, by, bz,
            (long long)gx, (long long)gy, (long long)gz);
  cfg->grid[0] = (unsigned)gx, cfg->grid[1] = (unsigned)gy, cfg->grid[2] = (unsigned)gz;
  cfg->block[0] = (unsigned)bx, cfg->block[1] = (unsigned)by, cfg->block[2] = (unsigned)bz;
  cfg->z0 = g->lo[2];
  cfg->z1 = g->hi[2];
  cfg->kpt = sliced ? s.kpt : strategy == STENCIL_CU_TILE ? 1 : (int)ez;
  const int np = kind == STENCIL_FASTWAVES ? STENCIL_NP3 : STENCIL_NP13;
  if (strategy == STENCIL_CU_SHARED) cfg->smem = (size_t)bx * by * (size_t)(np | 1) * 4;
  if (tile) cfg->smem = stencil_tile_smem(bx, by, bz, elem);
  if (patch) cfg->smem = (size_t)4 * bx * by * elem; /* two buffers of in and L */
  cfg->jpt = jwin ? jpt : 0;
  return 0;
}

/* "block 128x1x8 ran as 33x1x5 (why)" when the block that runs is not s. */
static void st_ran_as(char *note, size_t n, stencil_launch_t s, const stencil_cfg_t *cfg, const char *why) {
  if (cfg->block[0] == (unsigned)s.bx && cfg->block[1] == (unsigned)s.by && cfg->block[2] == (unsigned)s.bz)
    note[0] = 0;
  else
    snprintf(note, n, "block %dx%dx%d ran as %ux%ux%u (%s)", s.bx, s.by, s.bz, cfg->block[0],
             cfg->block[1], cfg->block[2], why);
}

int stencil_cuda_cfg(int kind, int strategy, const stencil_grid_t *g, stencil_launch_t s,
                     size_t elem, stencil_cfg_t *cfg, char *note, size_t n) {
  char why[192];
  const int rc = st_cfg(kind, strategy, g, s, elem, cfg, note, n, why, sizeof why);
  if (rc == 0 && note && n) st_ran_as(note, n, s, cfg, why);
  return rc;
}

int stencil_cuda_fits(const stencil_cfg_t *cfg, const stencil_kattr_t *a, const char *sn,
                      char *note, size_t n) {
  const long threads = (long)cfg->block[0] * cfg->block[1] * cfg->block[2];
  if (threads > a->max_threads)
    return ST_SKIP("block %ux%ux%u: %ld threads, but the %s kernel uses %d registers per thread "
                   "and runs at most %d threads per block",
                   cfg->block[0], cfg->block[1], cfg->block[2], threads, sn, a->regs,
                   a->max_threads);
  if (cfg->smem > a->smem_max)
    return ST_SKIP("block %ux%ux%u needs %zu bytes of shared memory, the device allows %zu (%s)",
                   cfg->block[0], cfg->block[1], cfg->block[2], cfg->smem, a->smem_max, sn);
  return 0;
}

/* A smaller block for a kernel that cannot take b: over maxth threads (its
 * registers), the most threads that it takes, z cut first, then y, then x;
 * else (shared memory) z, y or x halved; keeping the strategy's shape rules.
 * 0 when none is left. */
static int st_shrink(int strategy, stencil_launch_t *b, long maxth) {
  const long th = (long)b->bx * b->by * b->bz;
  for (int d = 2; d >= 0; d--) {
    stencil_launch_t t = *b;
    int *e = d == 2 ? &t.bz : d == 1 ? &t.by : &t.bx;
    if (*e <= 1) continue;
    const long others = th / *e;
    long v = th > maxth ? maxth / others : *e / 2;
    if (v < 1) v = 1;
    if (v >= *e) v = *e - 1;
    for (; v >= 1; v--) {
      *e = (int)v;
      if (strategy == STENCIL_CU_JWIN_SHFL && t.bx % 32 != 0) continue;
      if (stencil_cuda_shape_valid(strategy, t) != TSR_SUCCESS) {
        tsr_error_clear();
        continue;
      }
      *b = t;
      return 1;
    }
  }
  return 0;
}

/* stencil_cuda_plan with the kernels' attributes from *fixed (every kernel
 * alike) instead of the CUDA runtime when fixed != NULL. */
static int st_plan(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                   stencil_launch_t s, stencil_cfg_t *cfg, char *note, size_t n,
                   const stencil_kattr_t *fixed) {
  const size_t elem = f->prec == STENCIL_FLOAT ? 4 : 8;
  const stencil_launch_t want = s;
  char why[192] = "", cut[192] = "", kern[192] = "";
  for (;;) {
    int rc = st_cfg(kind, strategy, g, s, elem, cfg, note, n, why, sizeof why);
    if (rc < 0 || rc > 1) return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
    if (rc == 1) return 1;
    if (why[0] && !cut[0]) snprintf(cut, sizeof cut, "%s", why);
    stencil_kattr_t a = {1024, 0, 0, 48 * 1024};
    if (fixed) a = *fixed;
#ifdef TSR_HAVE_CUDA
    if (!fixed) {
      cfg->attr = &a;
      if (kind == STENCIL_LAPLAP) rc = stencil_cuda_laplap(strategy, g, f, cfg);
      else if (kind == STENCIL_HDIFF) rc = stencil_cuda_hdiff(strategy, g, f, cfg);
      else rc = stencil_cuda_fastwaves(strategy, g, f, cfg);
      cfg->attr = NULL;
      TSR_CALL(rc);
    }
#endif
    if (!stencil_cuda_fits(cfg, &a, stencil_cuda_strategy_name(strategy), note, n)) break;
    /* the kernel cannot take this block: a smaller one (the note says why) */
    stencil_launch_t t = s;
    t.bx = (int)cfg->block[0], t.by = (int)cfg->block[1], t.bz = (int)cfg->block[2];
    const long th = (long)cfg->block[0] * cfg->block[1] * cfg->block[2];
    if (!st_shrink(strategy, &t, th > a.max_threads ? a.max_threads : th)) return 1;
    if (th > a.max_threads)
      snprintf(kern, sizeof kern, "the kernel: %d registers, at most %d threads", a.regs, a.max_threads);
    else
      snprintf(kern, sizeof kern, "shared memory: at most %zu bytes", a.smem_max);
    s = t;
  }
  snprintf(why, sizeof why, "%s%s%s", cut, cut[0] && kern[0] ? "; " : "", kern);
  st_ran_as(note, n, want, cfg, why);
  return 0;
}

int stencil_cuda_plan(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                      stencil_launch_t s, stencil_cfg_t *cfg, char *note, size_t n) {
  return st_plan(kind, strategy, g, f, s, cfg, note, n, NULL);
}

int stencil__cuda_plan_attr(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                            stencil_launch_t s, const stencil_kattr_t *a, stencil_cfg_t *cfg, char *note,
                            size_t n) {
  return st_plan(kind, strategy, g, f, s, cfg, note, n, a);
}

int stencil_cuda_shape(int kind, int strategy, const stencil_grid_t *g, stencil_launch_t s,
                       unsigned blocks[3], char *note, size_t n) {
  stencil_cfg_t cfg;
  int rc = stencil_cuda_cfg(kind, strategy, g, s, 8, &cfg, note, n);
  if (rc < 0 || rc > 1) return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  for (int d = 0; d < 3; d++) blocks[d] = cfg.grid[d];
  return rc;
}

int stencil_cuda_run(int kind, int strategy, const stencil_grid_t *g, const stencil_fields_t *f,
                     stencil_launch_t s) {
  return stencil_cuda_run_stream(kind, strategy, g, f, s, NULL);
}

int stencil_cuda_run_stream(int kind, int strategy, const stencil_grid_t *g,
                            const stencil_fields_t *f, stencil_launch_t s, void *stream) {
#ifdef TSR_HAVE_CUDA
  /* the block cut to the region only: no attribute queries inside timed
     loops (the caller asks stencil_cuda_plan once before) */
  stencil_cfg_t cfg;
  char note[256], why[192]; /* (the block as cut: no note formatted per launch) */
  int rc = st_cfg(kind, strategy, g, s, f->prec == STENCIL_FLOAT ? 4 : 8, &cfg, note, sizeof note, why,
                  sizeof why);
  if (rc == 1) return TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s", note);
  TSR_CALL(rc);
  cfg.stream = stream;
  if (kind == STENCIL_LAPLAP) TSR_CALL(stencil_cuda_laplap(strategy, g, f, &cfg));
  else if (kind == STENCIL_HDIFF) TSR_CALL(stencil_cuda_hdiff(strategy, g, f, &cfg));
  else TSR_CALL(stencil_cuda_fastwaves(strategy, g, f, &cfg));
  return TSR_SUCCESS;
#else
  (void)kind, (void)strategy, (void)g, (void)f, (void)s, (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "stencil: CUDA variants are not available in this build");
#endif
}

int stencil_cuda_uplan_split(int kind, int64_t n[2]) {
  n[0] = n[1] = 0;
#ifdef TSR_HAVE_CUDA
  if (kind == STENCIL_LAPLAP) stencil_cuda_laplap_split(n);
  else if (kind == STENCIL_HDIFF) stencil_cuda_hdiff_split(n);
#else
  (void)kind;
#endif
  return TSR_SUCCESS;
}

int stencil_cuda_prepare(int kind, const stencil_grid_t *g) {
#ifdef TSR_HAVE_CUDA
  if (kind == STENCIL_LAPLAP) TSR_CALL(stencil_cuda_laplap_prepare(g));
  else if (kind == STENCIL_HDIFF) TSR_CALL(stencil_cuda_hdiff_prepare(g));
  else TSR_CALL(stencil_cuda_fastwaves_prepare(g));
#else
  (void)kind, (void)g;
#endif
  return TSR_SUCCESS;
}
