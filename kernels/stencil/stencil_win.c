/* kernels/stencil/stencil_win.c: the j-window and patch strategies of the
 * CUDA kernels (stencil_win.inc) run on the host, so that the tests check
 * their indexing, edges and partial strips / patches without a GPU: the
 * same column and phase functions, a loop over threads between the
 * phases where the kernels synchronise. Built with -ffp-contract=off. */
#include "config.h"
#include "kernels/stencil/stencil.h"
#include "tessera/error.h"

#include <stdlib.h>

#define ST_WQ static inline
#define ST_WLD(p) (*(p))
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_hd
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_hf
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN

/* The unstructured chains: rows through x->u (ST_WUNSTR). */
#define ST_WUNSTR
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_uhd
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_uhf
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#undef ST_WUNSTR

/* Every (x, strip, z) column of the box, as the kernel's threads. */
#define ST_WIN_LOOP(SUF, T)                                                                    \
  for (int64_t z = g->lo[2]; z < g->hi[2]; z++)                                                \
    for (int64_t j0 = g->lo[1]; j0 < g->hi[1]; j0 += jpt)                                      \
      for (int64_t x = g->lo[0]; x < g->hi[0]; x++) {                                          \
        const int64_t c = tsr_layout_rm_cell(&g->L, x, j0, z);                                 \
        stencil_wcol_t_##SUF col = {(const T *)f->in + c,                                      \
                                    f->coeff ? (const T *)f->coeff + c : NULL,                 \
                                    (T *)f->out + c, g->L.sy, 0, 1, 1, 1, NULL};               \
        const int64_t n = g->hi[1] - j0 < jpt ? g->hi[1] - j0 : jpt;                           \
        stencil_wcol_##SUF(kind == STENCIL_HDIFF, &col, (int)n);                               \
      }

int stencil__win_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int jpt) {
  TSR_CHECK(kind == STENCIL_LAPLAP || kind == STENCIL_HDIFF, TSR_ERR_UNSUPPORTED,
            "the j-window strategy computes laplap and hdiff only");
  TSR_CHECK(g->kind == STENCIL_GRID_REGULAR, TSR_ERR_UNSUPPORTED,
            "the j-window strategy runs on regular grids only");
  TSR_CHECK(jpt >= 1, TSR_ERR_ARG, "j-window: rows per thread must be >= 1, got %d", jpt);
  if (f->prec == STENCIL_FLOAT) {
    ST_WIN_LOOP(hf, float)
  } else {
    ST_WIN_LOOP(hd, double)
  }
  return TSR_SUCCESS;
}

/* One block of the patch-kloop kernel: slots s0 .. s0+pv-1 (thread t: slot
 * s0+t), every level; sin, sL: its shared memory, off: [patch][13]. */
#define ST_PATCH_BLOCK(SUF, T)                                                                  \
  do {                                                                                          \
    T *sin = (T *)sh, *sL = sin + patch, *v = sL + patch; /* v: [patch][5] */                   \
    const T *in = (const T *)f->in, *coeff = (const T *)f->coeff;                               \
    T *out = (T *)f->out;                                                                       \
    for (int64_t z = g->lo[2]; z < g->hi[2]; z++) {                                             \
      for (int t = 0; t < pv; t++) sin[t] = in[s0 + t + z * g->zs];                             \
      for (int t = 0; t < pv; t++)                                                              \
        sL[t] = stencil_patch_lap_##SUF(hdiff, sin, t, pv, in + s0 + t + z * g->zs,             \
                                        off + (size_t)t * STENCIL_NP13, v + 5 * t);             \
      for (int t = 0; t < pv; t++) {                                                            \
        const int64_t c = s0 + t + z * g->zs;                                                   \
        out[c] = stencil_patch_out_##SUF(hdiff, sin, sL, t, pv, in + c,                         \
                                         off + (size_t)t * STENCIL_NP13, v + 5 * t, sL[t],      \
                                         hdiff ? coeff[c] : (T)0);                              \
      }                                                                                         \
    }                                                                                           \
  } while (0)

int stencil__patch_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int patch) {
  TSR_CHECK(kind == STENCIL_LAPLAP || kind == STENCIL_HDIFF, TSR_ERR_UNSUPPORTED,
            "the patch strategy computes laplap and hdiff only");
  TSR_CHECK(g->kind == STENCIL_GRID_UNSTR, TSR_ERR_UNSUPPORTED,
            "the patch strategy runs on unstructured grids only");
  TSR_CHECK(patch >= 1, TSR_ERR_ARG, "patch: slots per block must be >= 1, got %d", patch);
  const int hdiff = kind == STENCIL_HDIFF;
  int32_t *off = malloc((size_t)patch * STENCIL_NP13 * sizeof *off);
  double *sh = malloc((size_t)patch * 7 * sizeof *sh); /* sin, sL, v[5] */
  if (!off || !sh) {
    free(off), free(sh);
    return TSR_RAISE(TSR_ERR_ALLOC, "patch: no memory for a block of %d slots", patch);
  }
  for (int64_t s0 = g->lo[0]; s0 < g->hi[0]; s0 += patch) {
    const int pv = (int)(g->hi[0] - s0 < patch ? g->hi[0] - s0 : patch);
    for (int t = 0; t < pv; t++)
      for (int p = 0; p < STENCIL_NP13; p++)
        off[(size_t)t * STENCIL_NP13 + p] = (int32_t)stencil_unstr_off13(g, s0 + t, p);
    if (f->prec == STENCIL_FLOAT) ST_PATCH_BLOCK(hf, float);
    else ST_PATCH_BLOCK(hd, double);
  }
  free(off);
  free(sh);
  return TSR_SUCCESS;
}

/* The chain of n cells from slot s0 (the kernel's st_uchain, with the
 * host's lookups): u[5 (q + 2) + i] = slot of in(x-2+i) at row q. Rows
 * north by N (depth 1) or NN from two rows below (depth 2); rows -1, -2 by
 * S and SS (S of S when chased); W, E at rows -1 .. n, WW, EE (W of W, E
 * of E when chased) at rows 0 .. n-1; unused entries are the row's slot. */
static void st_uchain(const stencil_grid_t *g, int32_t s0, int n, int32_t *u) {
#define ST_NB(s, r) ((int32_t)((s) + stencil_tab_off(g, s, r)))
  const int d2 = g->depth >= 2;
#define ST_U(q, i) u[5 * ((q) + 2) + 2 + (i)]
  ST_U(0, 0) = s0;
  ST_U(-1, 0) = ST_NB(s0, TSR_NB_YM1);
  ST_U(-2, 0) = d2 ? ST_NB(s0, TSR_NB_YM2) : ST_NB(ST_U(-1, 0), TSR_NB_YM1);
  for (int q = 1; q <= n + 1; q++)
    ST_U(q, 0) = d2 && q >= 2 ? ST_NB(ST_U(q - 2, 0), TSR_NB_YP2) : ST_NB(ST_U(q - 1, 0), TSR_NB_YP1);
  for (int q = -2; q <= n + 1; q++) {
    const int32_t r = ST_U(q, 0);
    ST_U(q, -2) = ST_U(q, -1) = ST_U(q, 1) = ST_U(q, 2) = r;
    if (q < -1 || q > n) continue;
    ST_U(q, -1) = ST_NB(r, TSR_NB_XM1);
    ST_U(q, 1) = ST_NB(r, TSR_NB_XP1);
    if (q < 0 || q >= n) continue;
    ST_U(q, -2) = d2 ? ST_NB(r, TSR_NB_XM2) : ST_NB(ST_U(q, -1), TSR_NB_XM1);
    ST_U(q, 2) = d2 ? ST_NB(r, TSR_NB_XP2) : ST_NB(ST_U(q, 1), TSR_NB_XP1);
  }
#undef ST_U
#undef ST_NB
}

#define ST_UWIN_CHAIN(SUF, T)                                                                   \
  for (int64_t z = g->lo[2]; z < g->hi[2]; z++) {                                               \
    const int64_t c = z * g->zs;                                                                \
    stencil_wcol_t_##SUF col = {(const T *)f->in + c, f->coeff ? (const T *)f->coeff + c : NULL, \
                                (T *)f->out + c, 0, 0, 1, 1, 1, u};                             \
    stencil_wcol_##SUF(kind == STENCIL_HDIFF, &col, n);                                         \
  }

int stencil__uwin_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int jpt) {
  TSR_CHECK(kind == STENCIL_LAPLAP || kind == STENCIL_HDIFF, TSR_ERR_UNSUPPORTED,
            "the unstructured j-window computes laplap and hdiff only");
  TSR_CHECK(g->kind == STENCIL_GRID_UNSTR && g->col, TSR_ERR_UNSUPPORTED,
            "the unstructured j-window needs the whole updated region as a rectangle of the "
            "relations (stencil_grid_t.col)");
  TSR_CHECK(jpt >= 1, TSR_ERR_ARG, "j-window: rows per chain must be >= 1, got %d", jpt);
  int32_t *u = malloc((size_t)(jpt + 4) * 5 * sizeof *u);
  TSR_CHECK(u, TSR_ERR_ALLOC, "j-window: no memory for a chain of %d rows", jpt);
  const int64_t nband = (g->nrow + jpt - 1) / jpt;
  for (int64_t t = 0; t < nband * g->ncol; t++) {
    const int64_t b = t / g->ncol, i = t % g->ncol, p = b * jpt;
    const int n = (int)(g->nrow - p < jpt ? g->nrow - p : jpt);
    st_uchain(g, g->col[p * g->ncol + i], n, u);
    if (f->prec == STENCIL_FLOAT) {
      ST_UWIN_CHAIN(uhf, float)
    } else {
      ST_UWIN_CHAIN(uhd, double)
    }
  }
  free(u);
  return TSR_SUCCESS;
}
