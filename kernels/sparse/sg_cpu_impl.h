/* kernels/sparse/sg_cpu_impl.h: the CPU loop nests of fastsg for one element
 * type. Included by sg_cpu.c once per precision with
 *   R       the element type (double, float)
 *   SFX(f)  f with the precision suffix
 *   HAT     fastsg_hat_d or fastsg_hat_f
 * Hierarchization sweeps update groups from the highest to the lowest: the
 * points of group g read only parents in lower groups, which still hold
 * their values from before the sweep, so all points of a group (and all
 * poles in ichg1) are independent and run in parallel. */

/* Intersection of group g with the global block range [b0, b1), as ranks
 * inside the group; returns 0 when empty. */
static int SFX(grange)(const fastsg_grid_t *G, int g, int64_t b0, int64_t b1, int64_t *r0,
                       int64_t *r1) {
  int64_t lo = TSR_MAX(G->bstart[g], b0), hi = TSR_MIN(G->bstart[g + 1], b1);
  *r0 = lo - G->bstart[g];
  *r1 = hi - G->bstart[g];
  return lo < hi;
}

/* ------------------------------------------------------------ hierarchize */

static int SFX(hier_plain)(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t *G = A->grid;
  R *a = (R *)A->coef;
  const int t = A->t;
  for (int g = G->level - 1; g >= 1; g--) {
    int64_t r0, r1;
    if (!SFX(grange)(G, g, A->b0, A->b1, &r0, &r1)) continue;
    int64_t p0 = fastsg_block_pos(G, g, r0), p1 = fastsg_block_pos(G, g, r1);
#pragma omp parallel for schedule(static)
    for (int64_t j = p0; j < p1; j++) {
      int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
      fastsg_idx2l(G, j, l);
      fastsg_idx2i(G, j, g, l, i);
      R v[2] = {0, 0};
      for (int side = 0; side < 2; side++) {
        int64_t q = fastsg_parent_pos(G, l, i, t, side, NULL);
        if (q >= 0) v[side] = a[q];
      }
      a[j] = FASTSG_HIER(a[j], v[0], v[1]);
    }
  }
  return TSR_SUCCESS;
}

/* inv1 .. inv4 share one loop nest; `level` says how much is hoisted. */
static void SFX(hier_block)(const fastsg_grid_t *G, R *a, int t, int g, int64_t rank,
                            const int *lin, int level, const uint32_t *par) {
  const int D = G->dim;
  int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
  for (int s = 0; s < D; s++) l[s] = lin[s];
  const int lt = l[t];
  if (lt == 0) return; /* both parents on the boundary */
  const int64_t base = fastsg_block_pos(G, g, rank), bsize = (int64_t)1 << g;
  int64_t ps[FASTSG_MAX_LEVEL]; /* inv2+: start of the parent block with l_t = k */
  int low = 0;                  /* inv3+: sum_{s>t} l_s */
  if (level >= 2) {
    fastsg_parent_blocks(G, l, t, g, ps);
    for (int s = t + 1; s < D; s++) low += l[s];
  }
  for (int64_t loc = 0; loc < bsize; loc++) {
    R v[2] = {0, 0};
    if (level <= 2) fastsg_local_decode(D, l, loc, i);
    for (int side = 0; side < 2; side++) {
      int64_t q;
      if (level <= 2) {
        q = fastsg_parent_pos(G, l, i, t, side, level == 1 ? NULL : ps);
      } else {
        q = fastsg_parent_pos_o1(loc, lt, low, ps, side, level == 4 ? par : NULL, G->level);
      }
      if (q >= 0) v[side] = a[q];
    }
    a[base + loc] = FASTSG_HIER(a[base + loc], v[0], v[1]);
  }
}

static int SFX(hier_inv)(const fastsg_kernel_args_t *A, int level) {
  const fastsg_grid_t *G = A->grid;
  for (int g = G->level - 1; g >= 1; g--) {
    int64_t r0, r1;
    if (!SFX(grange)(G, g, A->b0, A->b1, &r0, &r1)) continue;
#pragma omp parallel for schedule(dynamic, 1 + (int)(4096 >> g))
    for (int64_t rk = r0; rk < r1; rk++) {
      int l[FASTSG_MAX_DIM];
      fastsg_block_unrank(G->dim, g, rk, l);
      SFX(hier_block)(G, (R *)A->coef, A->t, g, rk, l, level, A->par1d);
    }
  }
  return TSR_SUCCESS;
}

/* ichg1: one task per pole (fixed l_s for s != t), walking l_t downwards. */
static int SFX(hier_ichg1)(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t *G = A->grid;
  const int D = G->dim, t = A->t;
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t b = 0; b < G->bstart[G->level - 1]; b++) { /* roots: l_t = 0 */
    int l[FASTSG_MAX_DIM];
    const int s = fastsg_gblock_group(G, b);
    fastsg_block_unrank(D, s, b - G->bstart[s], l);
    if (l[t] != 0) continue;
    for (int k = G->level - 1 - s; k >= 1; k--) {
      l[t] = k;
      int64_t rk = fastsg_block_rank(D, l), gb = G->bstart[s + k] + rk;
      if (gb < A->b0 || gb >= A->b1) continue;
      SFX(hier_block)(G, (R *)A->coef, t, s + k, rk, l, 3, NULL);
    }
  }
  return TSR_SUCCESS;
}

/* Reference dehierarchization: groups from low to high, parents already
 * nodal. */
static int SFX(dehier)(const fastsg_grid_t *G, R *a) {
  const int D = G->dim;
  for (int t = 0; t < D; t++)
    for (int g = 1; g < G->level; g++) {
      const int64_t nb = fastsg_group_blocks(D, g);
#pragma omp parallel for schedule(dynamic, 1 + (int)(4096 >> g))
      for (int64_t rk = 0; rk < nb; rk++) {
        int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
        fastsg_block_unrank(D, g, rk, l);
        if (l[t] == 0) continue;
        const int64_t base = fastsg_block_pos(G, g, rk);
        for (int64_t loc = 0; loc < ((int64_t)1 << g); loc++) {
          fastsg_local_decode(D, l, loc, i);
          R v[2] = {0, 0};
          for (int side = 0; side < 2; side++) {
            int64_t q = fastsg_parent_pos(G, l, i, t, side, NULL);
            if (q >= 0) v[side] = a[q];
          }
          a[base + loc] = FASTSG_DEHIER(a[base + loc], v[0], v[1]);
        }
      }
    }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ evaluate */

/* plain: the fastsg study's Algorithm 2 on the CPU. */
static int SFX(eval_plain)(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t *G = A->grid;
  const int D = G->dim;
  const R *a = (const R *)A->coef, *x = (const R *)A->x;
  R *r = (R *)A->r;
#pragma omp parallel for schedule(static)
  for (int64_t j = 0; j < A->npts; j++) {
    const R *xj = x + j * D;
    R sum = 0;
    int64_t idx23 = 0;
    for (int g = 0; g < G->level; g++) {
      const int64_t nb = fastsg_group_blocks(D, g);
      for (int64_t b = 0; b < nb; b++) {
        int l[FASTSG_MAX_DIM];
        fastsg_block_unrank(D, g, b, l);
        int64_t idx1 = 0;
        R p = 1;
        for (int t = 0; t < D; t++) {
          const R div = (R)1 / (R)(1 << l[t]);
          const R xs = xj[t] / div;
          const int c = fastsg_cell(xs, l[t]);
          idx1 = (idx1 << l[t]) + c;
          p *= HAT(xs, c);
        }
        sum += a[idx23 + idx1] * p;
        idx23 += (int64_t)1 << g;
      }
    }
    r[j] = sum;
  }
  return TSR_SUCCESS;
}

/* sred1: per-block levels and shifts from a table; multiplications. */
static int SFX(eval_sred1)(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t *G = A->grid;
  const int D = G->dim;
  const R *a = (const R *)A->coef, *x = (const R *)A->x;
  const uint8_t *btab = A->btab;
  R *r = (R *)A->r;
  R pow2[FASTSG_MAX_LEVEL];
  for (int k = 0; k < FASTSG_MAX_LEVEL; k++) pow2[k] = (R)(1 << k);
#pragma omp parallel for schedule(static)
  for (int64_t j = 0; j < A->npts; j++) {
    const R *xj = x + j * D;
    R sum = 0;
    for (int g = 0; g < G->level; g++) {
      const int64_t bs = G->bstart[g], nb = G->bstart[g + 1] - bs;
      const R *ag = a + G->gstart[g];
      for (int64_t b = 0; b < nb; b++) {
        const uint8_t *lv = btab + (size_t)(bs + b) * 2 * D, *sh = lv + D;
        int64_t idx1 = 0;
        R p = 1;
        for (int t = 0; t < D; t++) {
          const R xs = xj[t] * pow2[lv[t]];
          const int c = fastsg_cell(xs, lv[t]);
          idx1 += (int64_t)c << sh[t];
          p *= HAT(xs, c);
        }
        sum += ag[(b << g) + idx1] * p;
      }
    }
    r[j] = sum;
  }
  return TSR_SUCCESS;
}

enum { SFX(TILE) = 64 };

/* ichg2: the loop over points moves inside the loop over blocks (per tile). */
static int SFX(eval_ichg2)(const fastsg_kernel_args_t *A) {
  const fastsg_grid_t *G = A->grid;
  const int D = G->dim;
  const R *a = (const R *)A->coef, *x = (const R *)A->x;
  R *r = (R *)A->r;
  const int64_t ntiles = TSR_CEIL_DIV(A->npts, (int64_t)SFX(TILE));
#pragma omp parallel for schedule(static)
  for (int64_t tile = 0; tile < ntiles; tile++) {
    const int64_t j0 = tile * SFX(TILE), m = TSR_MIN((int64_t)SFX(TILE), A->npts - j0);
    R acc[SFX(TILE)];
    for (int q = 0; q < m; q++) acc[q] = 0;
    const R *ab = a;
    for (int g = 0; g < G->level; g++) {
      int l[FASTSG_MAX_DIM];
      fastsg_block_first(D, g, l);
      do {
        R div[FASTSG_MAX_DIM];
        for (int t = 0; t < D; t++) div[t] = (R)1 / (R)(1 << l[t]);
        for (int q = 0; q < m; q++) {
          const R *xj = x + (j0 + q) * D;
          int64_t idx1 = 0;
          R p = 1;
          for (int t = 0; t < D; t++) {
            const R xs = xj[t] / div[t];
            const int c = fastsg_cell(xs, l[t]);
            idx1 = (idx1 << l[t]) + c;
            p *= HAT(xs, c);
          }
          acc[q] += ab[idx1] * p;
        }
        ab += (int64_t)1 << g;
      } while (fastsg_block_next(D, l));
    }
    for (int q = 0; q < m; q++) r[j0 + q] = acc[q];
  }
  return TSR_SUCCESS;
}

/* vec1: ichg2 on 16-point tiles of the transposed x, unroll-and-jam over
 * the tile, the tile loop vectorised. */
static int SFX(eval_vec1)(const fastsg_kernel_args_t *A) {
  enum { M = 16 };
  const fastsg_grid_t *G = A->grid;
  const int D = G->dim;
  const R *a = (const R *)A->coef, *xt = (const R *)A->x;
  R *r = (R *)A->r;
  const int64_t ntiles = TSR_CEIL_DIV(A->npts, (int64_t)M);
#pragma omp parallel for schedule(static)
  for (int64_t tile = 0; tile < ntiles; tile++) {
    const R *xtile = xt + tile * M * D; /* [D][M] */
    R acc[M];
    for (int q = 0; q < M; q++) acc[q] = 0;
    const R *ab = a;
    for (int g = 0; g < G->level; g++) {
      int l[FASTSG_MAX_DIM];
      fastsg_block_first(D, g, l);
      do {
        int64_t idx[M];
        R p[M];
        for (int q = 0; q < M; q++) {
          idx[q] = 0;
          p[q] = 1;
        }
        int sh = g;
        for (int t = 0; t < D; t++) {
          const R scale = (R)(1 << l[t]);
          const int lt = l[t], last = (1 << lt) - 1;
          sh -= lt;
          const R *xr = xtile + t * M;
#pragma omp simd
          for (int q = 0; q < M; q++) {
            const R xs = xr[q] * scale;
            int c = (int)xs;
            c = c > last ? last : c;
            idx[q] += (int64_t)c << sh;
            p[q] *= HAT(xs, c);
          }
        }
        for (int q = 0; q < M; q++) acc[q] += ab[idx[q]] * p[q];
        ab += (int64_t)1 << g;
      } while (fastsg_block_next(D, l));
    }
    const int64_t m = TSR_MIN((int64_t)M, A->npts - tile * M);
    for (int q = 0; q < m; q++) r[tile * M + q] = acc[q];
  }
  return TSR_SUCCESS;
}
