/* kernels/sparse/sg_walk.h: evaluation by an incremental walk over the blocks
 * (the "walk" variants, CPU and CUDA), as static inline TSR_HD functions.
 *
 * The blocks of group g are stored in descending lexicographic order of
 * (l_{D-1}, l_{D-2}, ..., l_1), l_0 = g - (l_1 + .. + l_{D-1}) (the colex
 * order of sg.h), so a depth-first walk with l_{D-1} outermost, each level
 * counting down from what is left, visits them in storage order: the block's
 * position is the previous one + 2^g and needs no ranking. The walk is split
 * in two parts:
 *   - fastsg_walk_t, the uniform part (the level vector and position): the
 *     same for every point, so a CUDA block or a CPU tile steps it once for
 *     all its points;
 *   - fastsg_walkpt_{d,f}_t, one point's part (sg_walk_pt.h): prefix products
 *     P[t] = prod_{s>=t} h_s(l_s) and prefix local indices
 *     I[t] = sum_{s>=t} c_s(l_s) << sh_s, sh_s = sum_{u>s} l_u, updated only
 *     from the highest dimension that changed.
 * Dimensions 0, 1, 2 are kept in scalars (a block step usually changes only
 * l_1 and l_0): stepping l_1 down and l_0 up costs, per point, one exact
 * doubling of dimension 0's cell fraction, one exact halving of dimension
 * 1's, two hats, two multiplications and four integer operations; no
 * conversion and no division. Hats and cells are bit-identical to
 * fastsg_cell/fastsg_hat_*; only the order of the D-fold product differs
 * from cpu/eval/plain (rounding).
 *
 * Windows (CUDA staging): consecutive whole blocks of total size <= S,
 * starting at position 0; fastsg_window_end gives the end of the window
 * that starts at a block boundary. */
#ifndef FASTSG_SG_WALK_H
#define FASTSG_SG_WALK_H

#include <math.h>
#include <string.h>
#include "kernels/sparse/sg.h"

/* Return codes of fastsg_walk_first/next: which dimensions changed. */
enum {
  FASTSG_WALK_END = 0,   /* no block left in the group */
  FASTSG_WALK_INNER = 1, /* l_1 - 1, l_0 + 1 */
  FASTSG_WALK_MID = 2    /* l_2 changed (l_1 = l_0 + l_1, l_0 = 0 or, for D = 1, g) */
  /* t >= 3: dimensions t and below changed */
};

/* The uniform part of the walk: scalars, and the outer dimensions' levels
 * and shifts in a separate array object (so that compilers keep the
 * scalars in registers: dimensions t >= 3 are indexed at run time). */
typedef struct {
  int l[FASTSG_MAX_DIM];      /* levels of dimensions t >= 3 */
  int sh[FASTSG_MAX_DIM];     /* sh[t] = sum_{u>t} l_u for t >= 3 */
} fastsg_walk_outer_t;

typedef struct {
  int dim, g;
  int l0, l1, l2;             /* levels of dimensions 0, 1, 2 (0 where D is smaller) */
  int m2, m3;                 /* l0 + l1, l0 + l1 + l2 */
  int64_t pos;                /* first position of the current block */
  fastsg_walk_outer_t *o;     /* dimensions t >= 3 */
} fastsg_walk_t;

/* Bit offsets of dimensions 2, 1, 0 in the local index. */
static inline TSR_HD int fastsg_walk_sh2(const fastsg_walk_t *w) { return w->g - w->m3; }
static inline TSR_HD int fastsg_walk_sh1(const fastsg_walk_t *w) { return w->g - w->m2; }

/* sh[t-1] from sh[t] for the outer dimensions top-1 .. 3. */
static inline TSR_HD void fastsg_walk_shifts(fastsg_walk_outer_t *o, int top) {
  for (int t = top; t > 3; t--) o->sh[t - 1] = o->sh[t] + o->l[t];
}

/* Start group g at its first block (0, .., 0, g), with o holding the outer
 * dimensions; returns the code to give to the points' update (everything
 * changed). */
static inline TSR_HD int fastsg_walk_first(fastsg_walk_t *w, fastsg_walk_outer_t *o,
                                           const fastsg_grid_t *G, int g) {
  const int D = G->dim;
  w->o = o;
  w->dim = D;
  w->g = g;
  w->pos = G->gstart[g];
  w->l0 = w->l1 = w->l2 = 0;
  for (int t = 3; t < D; t++) o->l[t] = 0;
  if (D >= 4) {
    o->l[D - 1] = g;
    o->sh[D - 1] = 0;
    fastsg_walk_shifts(o, D - 1);
    w->m2 = w->m3 = 0;
    return D - 1;
  }
  if (D == 3) w->l2 = g;
  if (D == 2) w->l1 = g;
  if (D == 1) w->l0 = g;
  w->m2 = w->l0 + w->l1;
  w->m3 = g;
  return FASTSG_WALK_MID;
}

/* Step to the next block of the group: FASTSG_WALK_END after the last. */
static inline TSR_HD int fastsg_walk_next(fastsg_walk_t *w) {
  w->pos += (int64_t)1 << w->g;
  if (w->l1 > 0) {
    w->l1--;
    w->l0++;
    return FASTSG_WALK_INNER;
  }
  if (w->l2 > 0) { /* here l1 = 0, l0 = m2 */
    w->l2--;
    w->m2++;
    w->l1 = w->m2;
    w->l0 = 0;
    return FASTSG_WALK_MID;
  }
  fastsg_walk_outer_t *o = w->o;
  for (int t = 3; t < w->dim; t++) /* here l2 = l1 = 0, l0 = m3, l_s = 0 for 3 <= s < t */
    if (o->l[t] > 0) {
      const int rem = w->m3 + 1; /* what dimensions < t share now */
      o->l[t]--;
      w->l0 = w->l1 = 0;
      w->m2 = 0;
      if (t > 3) {
        o->l[t - 1] = rem;
        w->l2 = 0;
        w->m3 = 0;
      } else {
        w->l2 = rem;
        w->m3 = rem;
      }
      fastsg_walk_shifts(o, t);
      return t;
    }
  return FASTSG_WALK_END;
}

/* The full level vector of the current block (for tests). */
static inline TSR_HD void fastsg_walk_levels(const fastsg_walk_t *w, int *l) {
  for (int t = 3; t < w->dim; t++) l[t] = w->o->l[t];
  l[0] = w->l0;
  if (w->dim > 1) l[1] = w->l1;
  if (w->dim > 2) l[2] = w->l2;
}

/* Largest group whose blocks (2^g coefficients) fit a window of S. */
static inline TSR_HD int fastsg_window_gmax(const fastsg_grid_t *G, int64_t S) {
  int g = -1;
  while (g + 1 < G->level && ((int64_t)1 << (g + 1)) <= S) g++;
  return g;
}

/* End of the window that starts at block boundary `start` (in a group
 * g <= gmax): the last block boundary e <= start + S, taking whole blocks of
 * groups <= gmax only. Returns start when nothing is left to stage. */
static inline TSR_HD int64_t fastsg_window_end(const fastsg_grid_t *G, int64_t start, int64_t S,
                                               int gmax) {
  const int64_t lim = start + S;
  int64_t e = start;
  for (int g = fastsg_pos_group(G, start); g <= gmax && e < G->npoints; g++) {
    const int64_t gend = G->gstart[g + 1];
    if (gend <= lim) {
      e = gend;
      continue;
    }
    const int64_t b = e > G->gstart[g] ? e : G->gstart[g];
    e = b + (((lim - b) >> g) << g);
    break;
  }
  return e;
}

/* Exact 2^l (0 <= l < 127) from its exponent bits: no integer-to-float
 * conversion (on the GPU those share a slow pipe). */
static inline TSR_HD double fastsg_pow2_d(int l) {
  const uint64_t b = (uint64_t)(1023 + l) << 52;
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}
static inline TSR_HD float fastsg_pow2_f(int l) {
  const uint32_t b = (uint32_t)(127 + l) << 23;
  float v;
  memcpy(&v, &b, sizeof v);
  return v;
}
/* fastsg_cell for a float xs (the same value: (int) of a float equals (int)
 * of it widened to double), without the widening. */
static inline TSR_HD int fastsg_cell_f(float xs, int lv) {
  int c = (int)xs;
  int last = (1 << lv) - 1;
  return c > last ? last : c;
}

/* One point's part, for double and float. */
#define R double
#define SFX(f) f##_d
#define HAT fastsg_hat_d
#define WPT fastsg_walkpt_d_t
#define WPTO fastsg_walkpt_outer_d_t
#define ABS fabs
#define CELL fastsg_cell
#define POW2 fastsg_pow2_d
#include "kernels/sparse/sg_walk_pt.h"
#undef R
#undef SFX
#undef HAT
#undef WPT
#undef WPTO
#undef ABS
#undef CELL
#undef POW2
#define R float
#define SFX(f) f##_f
#define HAT fastsg_hat_f
#define WPT fastsg_walkpt_f_t
#define WPTO fastsg_walkpt_outer_f_t
#define ABS fabsf
#define CELL fastsg_cell_f
#define POW2 fastsg_pow2_f
#include "kernels/sparse/sg_walk_pt.h"
#undef R
#undef SFX
#undef HAT
#undef WPT
#undef WPTO
#undef ABS
#undef CELL
#undef POW2

#endif /* FASTSG_SG_WALK_H */
