/* kernels/sparse/sg.h: the compact regular sparse grid of fastsg (Murarasu
 * et al., PPoPP 2011), as static inline TSR_HD functions shared by the CPU
 * loops and the CUDA kernels.
 *
 * A regular sparse grid of dimension D and level n, without boundary points,
 * holds the points of the piecewise-linear hat basis whose level vector l
 * (0-based per dimension) has |l|_1 <= n-1. A point is (l, i) with index
 * vector 0 <= i_t < 2^l_t; its coordinate is x_t = (2 i_t + 1) / 2^(l_t+1).
 *
 * All N(D,n) = sum_{g<n} 2^g C(g+D-1, D-1) coefficients live in one array,
 * ordered
 *   - by group g = |l|_1 (group g starts at gstart[g]),
 *   - inside a group by block (one level vector, 2^g points) in colex order
 *     of the stars-and-bars subset {p_t = l_0+..+l_t + t, t < D-1}: the
 *     block's rank is sum_t C(p_t, t+1) (combinatorial number system),
 *   - inside a block by the index vector, row-major with the last dimension
 *     fastest: local = ((i_0 2^l_1 + i_1) 2^l_2 + i_2) ...
 * Positions are 64-bit. Ranking and unranking cost O(D + g) integer
 * operations with incremental binomials and no tables; the only stored data
 * are the n+1 group starts in the descriptor.
 */
#ifndef FASTSG_SG_H
#define FASTSG_SG_H

#include "tessera/common.h"

#define FASTSG_MAX_DIM 32
#define FASTSG_MAX_LEVEL 30
/* Largest grid the descriptor accepts (positions and all intermediate
 * binomial products stay far below 2^63). */
#define FASTSG_MAX_POINTS ((int64_t)1 << 50)

/* Plain descriptor, passed by value to kernels (about 0.5 KiB). */
typedef struct {
  int dim;                               /* D, 1..FASTSG_MAX_DIM */
  int level;                             /* n, 1..FASTSG_MAX_LEVEL */
  int64_t npoints;                       /* N(D,n) */
  int64_t nblocks;                       /* C(n-1+D, D): all level vectors */
  int64_t gstart[FASTSG_MAX_LEVEL + 1];  /* first position of group g; [n] = N */
  int64_t bstart[FASTSG_MAX_LEVEL + 1];  /* first global block id of group g; [n] = nblocks */
} fastsg_grid_t;

/* ------------------------------------------------------------ integers */

static inline TSR_HD int fastsg_ctz(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs((int)x) - 1;
#else
  return __builtin_ctz(x);
#endif
}
static inline TSR_HD int fastsg_log2(uint32_t x) { /* floor(log2 x), x > 0 */
#if defined(__CUDA_ARCH__)
  return 31 - __clz((int)x);
#else
  return 31 - __builtin_clz(x);
#endif
}

/* C(p, k) for 0 <= p < 64 (0 when k < 0 or k > p). */
static inline TSR_HD uint64_t fastsg_binom(int p, int k) {
  if (k < 0 || p < k) return 0;
  if (k > p - k) k = p - k;
  uint64_t c = 1;
  for (int j = 1; j <= k; j++) c = c * (uint64_t)(p - k + j) / (uint64_t)j;
  return c;
}

/* Number of blocks (level vectors) in group g: C(g+D-1, D-1). */
static inline TSR_HD int64_t fastsg_group_blocks(int D, int g) {
  return (int64_t)fastsg_binom(g + D - 1, D - 1);
}

/* ------------------------------------------------- level vector <-> rank */

/* Rank of level vector l (|l|_1 = g) inside its group, in O(D + g). */
static inline TSR_HD int64_t fastsg_block_rank(int D, const int *l) {
  if (D == 1) return 0;
  int p = l[0], k = 1;      /* p_0 = l_0; c = C(p_0, 1) */
  uint64_t c = (uint64_t)p, rank = c;
  for (int t = 1; t <= D - 2; t++) {
    c = c * (uint64_t)(p + 1) / (uint64_t)(k + 1); /* C(p+1, k+1) */
    p++;
    k++;
    for (int s = 0; s < l[t]; s++) { /* C(q+1, k) from C(q, k), q = p */
      if (p + 1 == k) c = 1;
      else if (p + 1 > k) c = c * (uint64_t)(p + 1) / (uint64_t)(p + 1 - k);
      p++;
    }
    rank += c;
  }
  return (int64_t)rank;
}

/* Level vector of the block of rank r in group g, in O(D + g). */
static inline TSR_HD void fastsg_block_unrank(int D, int g, int64_t r, int *l) {
  if (D == 1) {
    l[0] = g;
    return;
  }
  uint64_t rem = (uint64_t)r;
  int k = D - 1, p = g + D - 2, prev = g + D - 1;
  uint64_t c = fastsg_binom(p, k);
  for (int t = D - 2; t >= 0; t--) { /* here k = t + 1 and c = C(p, k) */
    while (c > rem) {
      c = c * (uint64_t)(p - k) / (uint64_t)p; /* C(p-1, k) */
      p--;
    }
    rem -= c;
    l[t + 1] = prev - p - 1;
    prev = p;
    if (t > 0) {
      c = c * (uint64_t)k / (uint64_t)p; /* C(p-1, k-1) */
      p--;
      k--;
    }
  }
  l[0] = prev;
}

/* First level vector of group g in block order: (0, ..., 0, g). */
static inline TSR_HD void fastsg_block_first(int D, int g, int *l) {
  for (int t = 0; t < D - 1; t++) l[t] = 0;
  l[D - 1] = g;
}

/* Advance l to the next block of its group; returns 0 after the last one
 * (l is then unchanged). Amortised O(1), worst case O(D). */
static inline TSR_HD int fastsg_block_next(int D, int *l) {
  int s = 0;
  for (int t = 0; t < D - 1; t++) {
    s += l[t];
    if (l[t + 1] > 0) {
      for (int u = 0; u < t; u++) l[u] = 0;
      l[t] = s + 1;
      l[t + 1]--;
      return 1;
    }
  }
  return 0;
}

/* ------------------------------------------------- positions */

/* Group of position pos (0 <= pos < N): O(n) scan of the group starts. */
static inline TSR_HD int fastsg_pos_group(const fastsg_grid_t *G, int64_t pos) {
  int g = 0;
  while (g + 1 < G->level && G->gstart[g + 1] <= pos) g++;
  return g;
}

/* First position of the block of rank r in group g. */
static inline TSR_HD int64_t fastsg_block_pos(const fastsg_grid_t *G, int g, int64_t r) {
  return G->gstart[g] + (r << g);
}

/* Local index of i inside a block of level vector l (last dimension fastest). */
static inline TSR_HD int64_t fastsg_local(int D, const int *l, const int *i) {
  int64_t loc = 0;
  for (int t = 0; t < D; t++) loc = (loc << l[t]) | (int64_t)i[t];
  return loc;
}

/* agp2idx: position of point (l, i). */
static inline TSR_HD int64_t fastsg_agp2idx(const fastsg_grid_t *G, const int *l, const int *i) {
  int g = 0;
  for (int t = 0; t < G->dim; t++) g += l[t];
  return fastsg_block_pos(G, g, fastsg_block_rank(G->dim, l)) + fastsg_local(G->dim, l, i);
}

/* idx2l: level vector of position pos; returns its group g. */
static inline TSR_HD int fastsg_idx2l(const fastsg_grid_t *G, int64_t pos, int *l) {
  int g = fastsg_pos_group(G, pos);
  fastsg_block_unrank(G->dim, g, (pos - G->gstart[g]) >> g, l);
  return g;
}

/* idx2i: index vector of position pos, given its level vector l and group g. */
static inline TSR_HD void fastsg_idx2i(const fastsg_grid_t *G, int64_t pos, int g, const int *l,
                                       int *i) {
  int64_t loc = (pos - G->gstart[g]) & (((int64_t)1 << g) - 1);
  for (int t = G->dim - 1; t >= 0; t--) {
    i[t] = (int)(loc & (((int64_t)1 << l[t]) - 1));
    loc >>= l[t];
  }
}

/* ------------------------------------------------- one dimension */

/* Hierarchical parent of the 1-D point (lv, iv) on side 0 (left) or 1
 * (right): returns 0 when that parent is on the boundary (value 0), else 1
 * with its level and index in *lp, *ip. O(1). */
static inline TSR_HD int fastsg_parent1d(int lv, int iv, int side, int *lp, int *ip) {
  uint32_t j = (uint32_t)iv + (uint32_t)side; /* parent at x = j / 2^lv */
  if (j == 0 || j == ((uint32_t)1 << lv)) return 0;
  int s = fastsg_ctz(j);
  *lp = lv - 1 - s;
  *ip = (int)(j >> (s + 1));
  return 1;
}

/* 1-D heap number of (lv, iv): 2^lv - 1 + iv (used by the inv4 tables). */
static inline TSR_HD uint32_t fastsg_heap1d(int lv, int iv) {
  return ((uint32_t)1 << lv) - 1u + (uint32_t)iv;
}

/* Coordinate of the 1-D point (lv, iv). */
static inline TSR_HD double fastsg_coord1d(int lv, int iv) {
  return (double)(2 * (int64_t)iv + 1) / (double)((int64_t)2 << lv);
}

/* ------------------------------------------------- parents of a point */

/* Index vector of local point loc of a block with level vector l. */
static inline TSR_HD void fastsg_local_decode(int D, const int *l, int64_t loc, int *i) {
  for (int t = D - 1; t >= 0; t--) {
    i[t] = (int)(loc & (((int64_t)1 << l[t]) - 1));
    loc >>= l[t];
  }
}

/* Starts of the parent blocks in dimension t of block l (group g):
 * ps[k] = first position of the block l with l_t replaced by k < l_t
 * (inv2: hoisted out of the loop over the block's points). */
static inline TSR_HD void fastsg_parent_blocks(const fastsg_grid_t *G, int *l, int t, int g,
                                               int64_t *ps) {
  const int lt = l[t];
  for (int k = 0; k < lt; k++) {
    l[t] = k;
    ps[k] = fastsg_block_pos(G, g - lt + k, fastsg_block_rank(G->dim, l));
  }
  l[t] = lt;
}

/* plain and inv1 (ps == NULL: full agp2idx) or inv2 (ps: O(D) local index):
 * position of the parent of (l, i) on `side` in dimension t, or -1 when it
 * lies on the boundary. l and i are left unchanged. */
static inline TSR_HD int64_t fastsg_parent_pos(const fastsg_grid_t *G, int *l, int *i, int t,
                                               int side, const int64_t *ps) {
  const int lt = l[t], it = i[t];
  int lp, ip;
  if (!fastsg_parent1d(lt, it, side, &lp, &ip)) return -1;
  l[t] = lp;
  i[t] = ip;
  int64_t p = ps ? ps[lp] + fastsg_local(G->dim, l, i) : fastsg_agp2idx(G, l, i);
  l[t] = lt;
  i[t] = it;
  return p;
}

/* inv3 (par == NULL: parent from trailing zeros) and inv4 (par: the 1-D
 * parent tables of fastsg_par1d_fill for level n): O(1) position of the
 * parent of local point loc in a block with l_t = lt and low = sum_{s>t} l_s,
 * whose parent blocks start at ps[]; -1 on the boundary. The local index
 * of the parent differs from loc only in the bits of dimension t. */
static inline TSR_HD int64_t fastsg_parent_pos_o1(int64_t loc, int lt, int low,
                                                  const int64_t *ps, int side,
                                                  const uint32_t *par, int n) {
  const int64_t lo = loc & (((int64_t)1 << low) - 1);
  const int it = (int)((loc >> low) & (((int64_t)1 << lt) - 1));
  const int64_t hi = loc >> (low + lt);
  int lp, ip;
  if (par) {
    uint32_t e = par[((size_t)side << n) + fastsg_heap1d(lt, it)];
    if (!e) return -1;
    lp = fastsg_log2(e);
    ip = (int)(e - (1u << lp));
  } else if (!fastsg_parent1d(lt, it, side, &lp, &ip)) {
    return -1;
  }
  return ps[lp] + ((((hi << lp) | (int64_t)ip) << low) | lo);
}

/* ------------------------------------------------- arithmetic */

/* One hierarchization step and its inverse (the one formula every variant
 * uses, so that all variants agree bit for bit). */
#define FASTSG_HIER(a, v1, v2) ((a) - ((v1) + (v2)) * 0.5f)
#define FASTSG_DEHIER(a, v1, v2) ((a) + ((v1) + (v2)) * 0.5f)

/* Hat value at xs = x * 2^lv, whose cell is c = floor(xs) clamped to the
 * last cell (x = 1.0 lies in cell 2^lv - 1, where the public fastsg code
 * read past the block). */
static inline TSR_HD int fastsg_cell(double xs, int lv) {
  int c = (int)xs;
  int last = (1 << lv) - 1;
  return c > last ? last : c;
}
static inline TSR_HD double fastsg_hat_d(double xs, int c) {
  double v = 2.0 * (xs - (double)c) - 1.0;
  return 1.0 - (v < 0 ? -v : v);
}
static inline TSR_HD float fastsg_hat_f(float xs, int c) {
  float v = 2.0f * (xs - (float)c) - 1.0f;
  return 1.0f - (v < 0 ? -v : v);
}

#endif /* FASTSG_SG_H */
