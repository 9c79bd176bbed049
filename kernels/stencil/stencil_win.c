/* kernels/stencil/stencil_win.c: the j-window and patch strategies of the
 * CUDA kernels (stencil_win.inc) run on the host, so that the tests check
 * their indexing, edges and partial strips / patches without a GPU: the
 * same column and phase functions, a loop over threads between the
 * phases where the kernels synchronise. Built with -ffp-contract=off. */
#include "config.h"
#include "kernels/stencil/stencil.h"
#include "tessera/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
/* The compressed plan's prototype chains: entries are byte offsets from the
   chain's base slot (stencil__uwinp_cpu), as in the CUDA kernel. */
#define ST_WAT(x, p, o) ((p) + (int64_t)(uint32_t)(o) / (int64_t)sizeof *(p))
#define ST_REAL double
#define ST_FN(f) f##_d
#define ST_WN(f) f##_uphd
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#define ST_REAL float
#define ST_FN(f) f##_f
#define ST_WN(f) f##_uphf
#include "kernels/stencil/stencil_win.inc"
#undef ST_REAL
#undef ST_FN
#undef ST_WN
#undef ST_WAT
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

/* The window of one chain over every level: pointers at slot B of the
 * level, the chain's entries at U. */
#define ST_UWIN_CHAIN(SUF, T, B, U)                                                             \
  for (int64_t z = g->lo[2]; z < g->hi[2]; z++) {                                               \
    const int64_t c = (B) + z * g->zs;                                                          \
    stencil_wcol_t_##SUF col = {(const T *)f->in + c, f->coeff ? (const T *)f->coeff + c : NULL, \
                                (T *)f->out + c, 0, 0, 1, 1, 1, U};                             \
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
      ST_UWIN_CHAIN(uhf, float, 0, u)
    } else {
      ST_UWIN_CHAIN(uhd, double, 0, u)
    }
  }
  free(u);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ chain plans */
int stencil__uplan_host(const stencil_grid_t *g, int jpt, uint32_t scale, int32_t *plan) {
  TSR_CHECK(g->kind == STENCIL_GRID_UNSTR && g->col, TSR_ERR_UNSUPPORTED,
            "chain plan: the grid has no column order (stencil_grid_t.col)");
  TSR_CHECK(jpt >= 1 && jpt <= 16 && scale >= 1, TSR_ERR_ARG, "chain plan: %d rows per chain, scale %u",
            jpt, scale);
  const int K = 5 * (jpt + 4);
  const int64_t nstrip = (g->nrow + jpt - 1) / jpt, ncolp = stencil_uplan_ncolp(g->ncol);
  memset(plan, 0, (size_t)stencil_uplan_base(nstrip * ncolp, jpt) * sizeof *plan);
  int32_t u[STENCIL_UPLAN_MAXK];
  for (int64_t s = 0; s < nstrip; s++)
    for (int64_t c = 0; c < g->ncol; c++) {
      const int64_t p = s * jpt;
      memset(u, 0, sizeof u);
      st_uchain(g, g->col[p * g->ncol + c], (int)(g->nrow - p < jpt ? g->nrow - p : jpt), u);
      int32_t *o = plan + stencil_uplan_base(s * ncolp + c, jpt);
      for (int k = 0; k < K; k++) o[32 * k] = (int32_t)((uint32_t)u[k] * scale);
    }
  return TSR_SUCCESS;
}

/* r[k]: the slot offsets of chain o's entries from its entry 12. */
static void st_uproto_rel(const int32_t *o, uint32_t scale, int K, int32_t *r) {
  const int32_t c0 = (int32_t)((uint32_t)o[32 * 12] / scale);
  for (int k = 0; k < K; k++) r[k] = (int32_t)((uint32_t)o[32 * k] / scale) - c0;
}
static int st_uproto_eq(const int32_t *a, const int32_t *b, int K, int n) {
  for (int k = 0; k < K; k++)
    if (stencil_uplan_used(k, n) && a[k] != b[k]) return 0;
  return 1;
}

int stencil_uproto_find(const int32_t *plan, uint32_t scale, int64_t ncol, int64_t nrow, int jpt,
                        stencil_uproto_t *P, uint8_t *match) {
  TSR_CHECK(jpt >= 1 && jpt <= 16 && scale >= 1 && ncol >= 0 && nrow >= 0, TSR_ERR_ARG,
            "chain prototype: %d rows per chain, scale %u, %lld x %lld chains", jpt, scale,
            (long long)ncol, (long long)nrow);
  memset(P, 0, sizeof *P);
  P->jpt = jpt;
  const int K = 5 * (jpt + 4);
  const int64_t nstrip = (nrow + jpt - 1) / jpt, ncolp = stencil_uplan_ncolp(ncol);
  int32_t cand[STENCIL_UPLAN_MAXK] = {0}, r[STENCIL_UPLAN_MAXK];
  int64_t votes = 0, nfull = 0, m = 0;
  /* majority vote (Boyer-Moore) over the full chains, then a count */
  for (int pass = 0; pass < 2; pass++)
    for (int64_t s = 0; s < nstrip && (s + 1) * jpt <= nrow; s++)
      for (int64_t c = 0; c < ncol; c++) {
        st_uproto_rel(plan + stencil_uplan_base(s * ncolp + c, jpt), scale, K, r);
        const int eq = st_uproto_eq(r, cand, K, jpt);
        if (pass == 1) {
          nfull++, m += eq;
        } else if (votes == 0) {
          memcpy(cand, r, sizeof cand), votes = 1;
        } else {
          votes += eq ? 1 : -1;
        }
      }
  P->nchain = nstrip * ncol, P->nfull = nfull;
  P->found = nfull > 0 && 2 * m > nfull;
  if (P->found)
    for (int k = 0; k < K; k++) {
      P->rel[k] = stencil_uplan_used(k, jpt) ? cand[k] : 0;
      if (P->rel[k] < P->rmin) P->rmin = P->rel[k];
    }
  for (int64_t s = 0; s < nstrip; s++) {
    const int n = (int)(nrow - s * jpt < jpt ? nrow - s * jpt : jpt);
    for (int64_t c = 0; c < ncol; c++) {
      int eq = 0;
      if (P->found) {
        st_uproto_rel(plan + stencil_uplan_base(s * ncolp + c, jpt), scale, K, r);
        eq = st_uproto_eq(r, P->rel, K, n);
      }
      match[s * ncol + c] = (uint8_t)eq;
      P->nmatch += eq;
    }
  }
  return TSR_SUCCESS;
}

int stencil_uproto_bytes(const stencil_uproto_t *P, int esz, int32_t *o) {
  for (int k = 0; k < 5 * (P->jpt + 4); k++) {
    const int64_t v = stencil_uplan_used(k, P->jpt) ? ((int64_t)P->rel[k] - P->rmin) * esz : 0;
    TSR_CHECK(v <= INT32_MAX, TSR_ERR_UNSUPPORTED,
              "chain prototype: entry %d is %lld bytes from the chain's first slot, beyond 32 bits", k,
              (long long)v);
    o[k] = (int32_t)v;
  }
  return TSR_SUCCESS;
}

int stencil_uproto_rect(const uint8_t *match, int64_t ncol, int64_t nstrip, int64_t r[4], int32_t *list,
                        int64_t *nlist) {
  TSR_CHECK(ncol >= 0 && nstrip >= 0 && ncol * nstrip <= INT32_MAX, TSR_ERR_ARG,
            "chain prototype rectangle: %lld x %lld chains", (long long)ncol, (long long)nstrip);
  int64_t *h = calloc((size_t)ncol + 1, sizeof *h), *st = malloc(((size_t)ncol + 1) * sizeof *st);
  if (!h || !st) {
    free(h), free(st);
    return TSR_RAISE(TSR_ERR_ALLOC, "chain prototype rectangle: no memory for %lld columns", (long long)ncol);
  }
  int64_t best = 0;
  r[0] = r[1] = r[2] = r[3] = 0;
  /* h[c]: matching chains of column c ending at strip s; the largest
     rectangle under the histogram by a stack of increasing heights */
  for (int64_t s = 0; s < nstrip; s++) {
    for (int64_t c = 0; c < ncol; c++) h[c] = match[s * ncol + c] ? h[c] + 1 : 0;
    int64_t n = 0;
    for (int64_t c = 0; c <= ncol; c++) {
      const int64_t hc = c < ncol ? h[c] : 0;
      while (n > 0 && h[st[n - 1]] >= hc) {
        const int64_t top = h[st[--n]], c0 = n > 0 ? st[n - 1] + 1 : 0;
        if (top * (c - c0) > best) {
          best = top * (c - c0);
          r[0] = c0, r[1] = c, r[2] = s - top + 1, r[3] = s + 1;
        }
      }
      st[n++] = c;
    }
  }
  free(h);
  free(st);
  *nlist = 0;
  for (int64_t s = 0; s < nstrip; s++)
    for (int64_t c = 0; c < ncol; c++)
      if (!(c >= r[0] && c < r[1] && s >= r[2] && s < r[3])) list[(*nlist)++] = (int32_t)(s * ncol + c);
  return TSR_SUCCESS;
}

int stencil_uproto_affine(const int32_t *col, int64_t ncol, int jpt, const int64_t r[4], int64_t a[3]) {
  a[0] = a[1] = a[2] = 0;
  if (r[0] >= r[1] || r[2] >= r[3]) return 0;
#define ST_COL(c, s) ((int64_t)col[(s) * jpt * ncol + (c)])
  a[1] = r[1] - r[0] > 1 ? ST_COL(r[0] + 1, r[2]) - ST_COL(r[0], r[2]) : 0;
  a[2] = r[3] - r[2] > 1 ? ST_COL(r[0], r[2] + 1) - ST_COL(r[0], r[2]) : 0;
  a[0] = ST_COL(r[0], r[2]) - a[1] * r[0] - a[2] * r[2];
  for (int64_t s = r[2]; s < r[3]; s++)
    for (int64_t c = r[0]; c < r[1]; c++)
      if (ST_COL(c, s) != a[0] + a[1] * c + a[2] * s) return 0;
#undef ST_COL
  return 1;
}

int stencil_uproto_split(const uint8_t *match, const int32_t *col, int64_t ncol, int64_t nstrip, int jpt,
                         int64_t r[4], int64_t a[3], int32_t *list, int64_t *nlist) {
  TSR_CALL(stencil_uproto_rect(match, ncol, nstrip, r, list, nlist));
  if (!stencil_uproto_affine(col, ncol, jpt, r, a)) { /* no rectangle: every chain listed */
    r[0] = r[1] = r[2] = r[3] = 0;
    for (*nlist = 0; *nlist < ncol * nstrip; (*nlist)++) list[*nlist] = (int32_t)*nlist;
  }
  return TSR_SUCCESS;
}

int stencil__uwinp_cpu(int kind, const stencil_grid_t *g, const stencil_fields_t *f, int jpt,
                       int64_t *nproto) {
  TSR_CHECK(kind == STENCIL_LAPLAP || kind == STENCIL_HDIFF, TSR_ERR_UNSUPPORTED,
            "the unstructured j-window computes laplap and hdiff only");
  TSR_CHECK(g->kind == STENCIL_GRID_UNSTR && g->col, TSR_ERR_UNSUPPORTED,
            "the unstructured j-window needs the whole updated region as a rectangle of the "
            "relations (stencil_grid_t.col)");
  TSR_CHECK(jpt >= 1 && jpt <= 16, TSR_ERR_ARG, "chain plan: rows per chain must be 1 .. 16, got %d", jpt);
  const int fl = f->prec == STENCIL_FLOAT, esz = fl ? 4 : 8, K = 5 * (jpt + 4);
  const uint32_t scale = fl ? 4 : 1; /* as the CUDA plans */
  const int64_t nstrip = (g->nrow + jpt - 1) / jpt, ncolp = stencil_uplan_ncolp(g->ncol);
  int32_t *plan = malloc((size_t)stencil_uplan_base(nstrip * ncolp, jpt) * sizeof *plan);
  uint8_t *wt = malloc((size_t)(nstrip * g->ncol) + 1);
  stencil_uproto_t P;
  int32_t o[STENCIL_UPLAN_MAXK], u[STENCIL_UPLAN_MAXK];
  int rc = plan && wt ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "chain plan: no memory for %lld chains",
                                                 (long long)(nstrip * ncolp));
  if (rc == TSR_SUCCESS) rc = stencil__uplan_host(g, jpt, scale, plan);
  if (rc == TSR_SUCCESS) rc = stencil_uproto_find(plan, scale, g->ncol, g->nrow, jpt, &P, wt);
  const int use = rc == TSR_SUCCESS && P.found && stencil_uproto_bytes(&P, esz, o) == TSR_SUCCESS;
  int64_t r[4] = {0, 0, 0, 0}, aff[3] = {0, 0, 0}, nl = 0;
  int32_t *list = use ? malloc((size_t)(nstrip * g->ncol) * sizeof *list + 1) : NULL;
  if (use && !list) rc = TSR_RAISE(TSR_ERR_ALLOC, "chain prototype: no memory for %lld chains", (long long)nstrip);
  if (use && rc == TSR_SUCCESS) rc = stencil_uproto_split(wt, g->col, g->ncol, nstrip, jpt, r, aff, list, &nl);
  free(list);
  if (nproto) *nproto = 0;
  /* as the kernel: the chains of the rectangle through the prototype (the
     row-0 slot affine in the column and strip), the others (its list)
     through the plan */
  for (int64_t s = 0; rc == TSR_SUCCESS && s < nstrip; s++)
    for (int64_t i = 0; i < g->ncol; i++) {
      const int64_t p = s * jpt;
      const int n = (int)(g->nrow - p < jpt ? g->nrow - p : jpt);
      if (use && i >= r[0] && i < r[1] && s >= r[2] && s < r[3]) {
        const int64_t b = aff[0] + aff[1] * i + aff[2] * s + P.rmin;
        if (nproto) (*nproto)++;
        if (fl) {
          ST_UWIN_CHAIN(uphf, float, b, o)
        } else {
          ST_UWIN_CHAIN(uphd, double, b, o)
        }
      } else {
        const int32_t *e = plan + stencil_uplan_base(s * ncolp + i, jpt);
        for (int k = 0; k < K; k++) u[k] = (int32_t)((uint32_t)e[32 * k] / scale);
        if (fl) {
          ST_UWIN_CHAIN(uhf, float, 0, u)
        } else {
          ST_UWIN_CHAIN(uhd, double, 0, u)
        }
      }
    }
  free(plan);
  free(wt);
  return rc;
}
