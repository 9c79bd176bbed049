/* kernels/sparse/sg_walk_pt.h: one point's part of the block walk
 * (sg_walk.h), included by sg_walk.h once per element type with
 *   R       the element type (double, float)
 *   SFX(f)  f with the precision suffix (_d, _f)
 *   HAT     fastsg_hat_d or fastsg_hat_f
 *   WPT     the point type (fastsg_walkpt_d_t, fastsg_walkpt_f_t)
 *   ABS     fabs or fabsf
 *   CELL    fastsg_cell or fastsg_cell_f
 *   POW2    fastsg_pow2_d or fastsg_pow2_f
 *   WPTO    its outer dimensions (fastsg_walkpt_outer_d_t, ..._f_t)
 * No include guard: it is meant to be included twice. */

/* Dimensions t >= 3, indexed at run time: a separate object, so that the
 * point's scalars stay in registers. */
typedef struct {
  R x[FASTSG_MAX_DIM];          /* the point's coordinates t >= 3 */
  R P[FASTSG_MAX_DIM + 1];      /* P[t] = prod_{s>=t} h_s(l_s), t >= 3; P[D] = 1 */
  int32_t I[FASTSG_MAX_DIM + 1];/* I[t] = sum_{s>=t} c_s(l_s) << sh_s; I[D] = 0 */
} WPTO;

typedef struct {
  R x0, x1, x2;                 /* dimensions 0..2 of the point (0.5 where D is smaller:
                                   the level-0 hat of 0.5 is exactly 1, its cell 0) */
  R P3;                         /* prod_{t>=3} h_t(l_t) (1 when D <= 3) */
  int32_t I3;                   /* sum_{t>=3} c_t(l_t) << sh_t (0 when D <= 3) */
  R P2;                         /* P3 * h_2(l_2) */
  int32_t I2;                   /* I3 + c_2(l_2) << sh_2 */
  R xs1, cf1;                   /* x1 * 2^l1 and its cell c1 as R */
  int32_t c1;
  R f0;                         /* x0 * 2^l0 - c0: the cell fraction of dimension 0 */
  int32_t c0;
  R p;                          /* the current block: product of the D hats */
  int32_t idx;                  /*   and local index of the point's cell */
  WPTO *o;                      /* dimensions t >= 3 */
} WPT;

/* Point xj (D coordinates), with o for its outer dimensions. */
static inline TSR_HD void SFX(fastsg_walkpt_set)(WPT *q, WPTO *o, const R *xj, int D) {
  q->o = o;
  q->x0 = xj[0];
  q->x1 = D > 1 ? xj[1] : (R)0.5;
  q->x2 = D > 2 ? xj[2] : (R)0.5;
  for (int t = 3; t < D; t++) o->x[t] = xj[t];
  const int top = D > 3 ? D : 3;
  o->P[top] = 1;
  o->I[top] = 0;
  q->P3 = 1;
  q->I3 = 0;
}

/* The point's product and local index for the walk's current block, after
 * fastsg_walk_first/next returned ch (not FASTSG_WALK_END). */
static inline TSR_HD void SFX(fastsg_walkpt_update)(const fastsg_walk_t *w,
                                                    WPT *q, int ch) {
  if (ch >= 3) { /* outer dimensions ch .. 3 */
    WPTO *o = q->o;
    for (int s = ch; s >= 3; s--) {
      const int ls = w->o->l[s];
      const R xs = o->x[s] * POW2(ls);
      const int c = CELL(xs, ls);
      o->P[s] = o->P[s + 1] * HAT(xs, c);
      o->I[s] = o->I[s + 1] + (c << w->o->sh[s]);
    }
    q->P3 = o->P[3];
    q->I3 = o->I[3];
  }
  if (ch >= 2) { /* dimension 2 at l2, dimension 1 at l1, dimension 0 at l0 */
    const R xs2 = q->x2 * POW2(w->l2);
    const int c2 = CELL(xs2, w->l2);
    q->P2 = q->P3 * HAT(xs2, c2);
    q->I2 = q->I3 + (c2 << fastsg_walk_sh2(w));
    q->xs1 = q->x1 * POW2(w->l1);
    q->c1 = CELL(q->xs1, w->l1);
    q->cf1 = (R)q->c1;
    if (w->l0 == 0) { /* always but for D = 1: level 0 has one cell, x <= 1 is in it */
      q->c0 = 0;
      q->f0 = q->x0;
    } else {
      const R xs0 = q->x0 * POW2(w->l0);
      q->c0 = CELL(xs0, w->l0);
      q->f0 = xs0 - (R)q->c0; /* exact */
    }
  } else {
    /* l0 + 1: the cell doubles plus the next bit, the fraction doubles
     * minus it (exact; a clamped cell, x = 1, stays clamped: f0 stays 1) */
    const int bit = q->f0 >= (R)0.5;
    q->f0 = q->f0 + q->f0 - (bit ? (R)1 : (R)0);
    q->c0 = 2 * q->c0 + bit;
    /* l1 - 1: x1 * 2^l1 halves, the cell loses its last bit (exact) */
    const int odd = q->c1 & 1;
    q->xs1 *= (R)0.5;
    q->c1 >>= 1;
    q->cf1 = (q->cf1 - (odd ? (R)1 : (R)0)) * (R)0.5;
  }
  /* the two hats as HAT computes them: 1 - |2 (xs - c) - 1| */
  const R v1 = (R)2 * (q->xs1 - q->cf1) - (R)1;
  const R v0 = (R)2 * q->f0 - (R)1;
  const R h1 = (R)1 - ABS(v1), h0 = (R)1 - ABS(v0); /* |v| = (v < 0 ? -v : v), also for -0 */
  q->p = q->P2 * h1 * h0;
  q->idx = q->I2 + (((q->c0 << w->l1) + q->c1) << fastsg_walk_sh1(w));
}
