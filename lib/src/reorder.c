/* lib/src/reorder.c: graphs of maps, GPS (Scotch) and RCM renumbering,
 * bandwidth and profile, METIS partition-based blocks, Sulyok et al.'s
 * data-point order, and permutation helpers (tessera/reorder.h). */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <scotch.h>

#include "tessera/error.h"
#include "tessera/reorder.h"

/* ---------------------------------------------------------------- sorting */

/* Stable merge sort of idx[n] by cmp(a, b, ctx) < 0. */
typedef int (*tsr__cmp_ctx_t)(tsr_idx_t a, tsr_idx_t b, const void *ctx);
static int tsr__sort(tsr_idx_t *idx, tsr_idx_t n, tsr__cmp_ctx_t cmp, const void *ctx) {
  tsr_idx_t *tmp = malloc(sizeof(tsr_idx_t) * (size_t)(n > 0 ? n : 1));
  TSR_CHECK(tmp, TSR_ERR_ALLOC, "reorder: no memory to sort %lld items", (long long)n);
  for (tsr_idx_t w = 1; w < n; w *= 2) {
    for (tsr_idx_t lo = 0; lo < n; lo += 2 * w) {
      tsr_idx_t mid = TSR_MIN(lo + w, n), hi = TSR_MIN(lo + 2 * w, n), i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = cmp(idx[j], idx[i], ctx) < 0 ? idx[j++] : idx[i++];
      while (i < mid) tmp[k++] = idx[i++];
      while (j < hi) tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, sizeof(tsr_idx_t) * (size_t)n);
  }
  free(tmp);
  return 0;
}

/* perm[order[i]] = i */
static void tsr__perm_of_order(const tsr_idx_t *order, tsr_idx_t n, tsr_idx_t *perm) {
  for (tsr_idx_t i = 0; i < n; i++) perm[order[i]] = i;
}

static int tsr__cmp_key(tsr_idx_t a, tsr_idx_t b, const void *ctx) {
  const int64_t *key = ctx;
  return key[a] < key[b] ? -1 : key[a] > key[b] ? 1 : 0;
}

int tsr_perm_from_keys(const int64_t *key, tsr_idx_t n, tsr_idx_t *perm) {
  tsr_idx_t *order = malloc(sizeof(tsr_idx_t) * (size_t)(n > 0 ? n : 1));
  TSR_CHECK(order, TSR_ERR_ALLOC, "tsr_perm_from_keys: no memory for %lld keys", (long long)n);
  for (tsr_idx_t i = 0; i < n; i++) order[i] = i;
  int rc = tsr__sort(order, n, tsr__cmp_key, key);
  if (!rc) tsr__perm_of_order(order, n, perm);
  free(order);
  TSR_CALL(rc);
  return 0;
}

int tsr_perm_check(const tsr_idx_t *perm, tsr_idx_t n) {
  unsigned char *seen = calloc((size_t)(n > 0 ? n : 1), 1);
  if (!seen) return 0;
  int ok = 1;
  for (tsr_idx_t i = 0; i < n && ok; i++) {
    if (perm[i] < 0 || perm[i] >= n || seen[perm[i]]) ok = 0;
    else seen[perm[i]] = 1;
  }
  free(seen);
  return ok;
}

int tsr_perm_restrict(tsr_idx_t *perm, int nseg, const tsr_idx_t *seg) {
  TSR_CHECK(nseg >= 0 && seg && seg[0] == 0, TSR_ERR_ARG,
            "tsr_perm_restrict: segments must start at 0 (%d segments)", nseg);
  tsr_idx_t n = seg[nseg];
  for (int s = 0; s < nseg; s++)
    TSR_CHECK(seg[s] <= seg[s + 1], TSR_ERR_ARG,
              "tsr_perm_restrict: segment %d is [%lld, %lld)", s, (long long)seg[s],
              (long long)seg[s + 1]);
  TSR_CHECK(tsr_perm_check(perm, n), TSR_ERR_ARG,
            "tsr_perm_restrict: not a permutation of [0, %lld)", (long long)n);
  int64_t *key = malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  TSR_CHECK(key, TSR_ERR_ALLOC, "tsr_perm_restrict: no memory for %lld elements", (long long)n);
  /* segment first, then the old perm value: sorting by it keeps segments */
  for (int s = 0; s < nseg; s++)
    for (tsr_idx_t i = seg[s]; i < seg[s + 1]; i++) key[i] = (int64_t)s * (n + 1) + perm[i];
  int rc = tsr_perm_from_keys(key, n, perm);
  free(key);
  TSR_CALL(rc);
  return 0;
}

/* Graphs are built in graph.c (tessera/graph.h). */

void tsr_graph_bandwidth(const tsr_graph_t *g, const tsr_idx_t *perm, tsr_idx_t *bandwidth,
                         tsr_idx_t *profile) {
  tsr_idx_t bw = 0, pr = 0;
  for (tsr_idx_t v = 0; v < g->n; v++) {
    tsr_idx_t pv = perm ? perm[v] : v, lo = pv;
    for (tsr_idx_t j = g->off[v]; j < g->off[v + 1]; j++) {
      tsr_idx_t pu = perm ? perm[g->adj[j]] : g->adj[j];
      tsr_idx_t d = pu > pv ? pu - pv : pv - pu;
      if (d > bw) bw = d;
      if (pu < lo) lo = pu;
    }
    pr += pv - lo;
  }
  if (bandwidth) *bandwidth = bw;
  if (profile) *profile = pr;
}

/* ---------------------------------------------------------------- GPS */

int tsr_reorder_gps(const tsr_graph_t *g, tsr_idx_t *perm) {
  const tsr_idx_t n = g->n;
  if (n == 0) return 0;
  TSR_CHECK(n < INT_MAX && g->off[n] < INT_MAX, TSR_ERR_UNSUPPORTED,
            "tsr_reorder_gps: %lld vertices / %lld edges exceed Scotch's int numbers",
            (long long)n, (long long)g->off[n]);
  SCOTCH_Num *verttab = malloc(sizeof(SCOTCH_Num) * (size_t)(n + 1));
  SCOTCH_Num *edgetab = malloc(sizeof(SCOTCH_Num) * (size_t)(g->off[n] + 1));
  SCOTCH_Num *permtab = malloc(sizeof(SCOTCH_Num) * (size_t)n);
  int rc = 0;
  if (!verttab || !edgetab || !permtab)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_gps: no memory for %lld vertices", (long long)n);
  for (tsr_idx_t v = 0; !rc && v <= n; v++) verttab[v] = (SCOTCH_Num)g->off[v];
  for (tsr_idx_t j = 0; !rc && j < g->off[n]; j++) edgetab[j] = (SCOTCH_Num)g->adj[j];
  SCOTCH_Graph graph;
  SCOTCH_Strat strat;
  int ginit = 0, sinit = 0;
  if (!rc) {
    ginit = SCOTCH_graphInit(&graph) == 0;
    sinit = SCOTCH_stratInit(&strat) == 0;
    if (!ginit || !sinit) rc = TSR_RAISE(TSR_ERR_INTERNAL, "tsr_reorder_gps: Scotch initialisation failed");
  }
  if (!rc && SCOTCH_graphBuild(&graph, 0, (SCOTCH_Num)n, verttab, verttab + 1, NULL, NULL,
                               (SCOTCH_Num)g->off[n], edgetab, NULL) != 0)
    rc = TSR_RAISE(TSR_ERR_ARG, "tsr_reorder_gps: Scotch rejects the graph (%lld vertices)",
                   (long long)n);
  if (!rc && SCOTCH_stratGraphOrder(&strat, "g") != 0)
    rc = TSR_RAISE(TSR_ERR_INTERNAL, "tsr_reorder_gps: Scotch rejects strategy \"g\"");
  if (!rc && SCOTCH_graphOrder(&graph, &strat, permtab, NULL, NULL, NULL, NULL) != 0)
    rc = TSR_RAISE(TSR_ERR_INTERNAL, "tsr_reorder_gps: SCOTCH_graphOrder failed");
  for (tsr_idx_t v = 0; !rc && v < n; v++) perm[v] = permtab[v];
  if (!rc && !tsr_perm_check(perm, n))
    rc = TSR_RAISE(TSR_ERR_INTERNAL, "tsr_reorder_gps: Scotch returned no permutation");
  if (sinit) SCOTCH_stratExit(&strat);
  if (ginit) SCOTCH_graphExit(&graph);
  free(verttab);
  free(edgetab);
  free(permtab);
  TSR_CALL(rc);
  return 0;
}

/* ---------------------------------------------------------------- RCM */

/* BFS from s over unvisited (mark != stamp) vertices; returns the number of
 * levels and the last level's start in queue (queue holds all reached). */
static tsr_idx_t tsr__bfs(const tsr_graph_t *g, tsr_idx_t s, int32_t *mark, int32_t stamp,
                          tsr_idx_t *queue, tsr_idx_t *nq, tsr_idx_t *last_start) {
  tsr_idx_t head = 0, tail = 0, levels = 0;
  queue[tail++] = s;
  mark[s] = stamp;
  while (head < tail) {
    tsr_idx_t end = tail;
    *last_start = head;
    levels++;
    for (; head < end; head++) {
      tsr_idx_t v = queue[head];
      for (tsr_idx_t j = g->off[v]; j < g->off[v + 1]; j++)
        if (mark[g->adj[j]] != stamp && mark[g->adj[j]] >= 0) mark[g->adj[j]] = stamp, queue[tail++] = g->adj[j];
    }
  }
  *nq = tail;
  return levels;
}

static int tsr__cmp_deg(tsr_idx_t a, tsr_idx_t b, const void *ctx) {
  const tsr_graph_t *g = ctx;
  tsr_idx_t da = g->off[a + 1] - g->off[a], db = g->off[b + 1] - g->off[b];
  return da < db ? -1 : da > db ? 1 : (a > b) - (a < b);
}

int tsr_reorder_rcm(const tsr_graph_t *g, tsr_idx_t *perm) {
  const tsr_idx_t n = g->n;
  int32_t *mark = calloc((size_t)(n > 0 ? n : 1), sizeof(int32_t)); /* -1: numbered */
  tsr_idx_t *queue = malloc(sizeof(tsr_idx_t) * (size_t)(n > 0 ? n : 1));
  tsr_idx_t *order = malloc(sizeof(tsr_idx_t) * (size_t)(n > 0 ? n : 1));
  tsr_idx_t *byd = malloc(sizeof(tsr_idx_t) * (size_t)(n > 0 ? n : 1));
  int rc = 0;
  if (!mark || !queue || !order || !byd)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_rcm: no memory for %lld vertices", (long long)n);
  for (tsr_idx_t v = 0; !rc && v < n; v++) byd[v] = v;
  if (!rc) rc = tsr__sort(byd, n, tsr__cmp_deg, g); /* components start at least degree */
  tsr_idx_t done = 0;
  int32_t stamp = 0;
  for (tsr_idx_t i = 0; !rc && i < n; i++) {
    tsr_idx_t s = byd[i];
    if (mark[s] < 0) continue;
    /* pseudo-peripheral vertex (George & Liu): repeat BFS from a least-degree
     * vertex of the last level while the eccentricity grows. */
    tsr_idx_t nq, last, levels = tsr__bfs(g, s, mark, ++stamp, queue, &nq, &last);
    for (int tries = 0; tries < 16; tries++) {
      tsr_idx_t best = queue[last];
      for (tsr_idx_t j = last; j < nq; j++)
        if (tsr__cmp_deg(queue[j], best, g) < 0) best = queue[j];
      tsr_idx_t nq2, last2, lv2 = tsr__bfs(g, best, mark, ++stamp, queue, &nq2, &last2);
      if (lv2 <= levels) break;
      s = best, levels = lv2, nq = nq2, last = last2;
    }
    /* Cuthill-McKee from s: neighbours in increasing degree. */
    tsr_idx_t head = done, tail = done;
    order[tail++] = s;
    mark[s] = -1;
    while (head < tail) {
      tsr_idx_t v = order[head++], first = tail;
      for (tsr_idx_t j = g->off[v]; j < g->off[v + 1]; j++)
        if (mark[g->adj[j]] >= 0) mark[g->adj[j]] = -1, order[tail++] = g->adj[j];
      rc = tsr__sort(order + first, tail - first, tsr__cmp_deg, g);
      if (rc) break;
    }
    done = tail;
  }
  for (tsr_idx_t i = 0; !rc && i < n; i++) perm[order[i]] = n - 1 - i; /* reversed */
  free(mark);
  free(queue);
  free(order);
  free(byd);
  TSR_CALL(rc);
  return 0;
}

/* ---------------------------------------------------------------- blocks */

int tsr_reorder_blocks(const tsr_graph_t *g, int block, double imbalance, double eps,
                       tsr_idx_t *perm, tsr_idx_t *nblocks, tsr_idx_t **block_off) {
  *block_off = NULL;
  *nblocks = 0;
  const tsr_idx_t n = g->n;
  TSR_CHECK(block >= 1 && imbalance >= 1 && eps >= 0 && isfinite(imbalance) && isfinite(eps),
            TSR_ERR_ARG, "tsr_reorder_blocks: block %d, imbalance %g, eps %g (need block >= 1, "
            "imbalance >= 1, eps >= 0)", block, imbalance, eps);
  TSR_CHECK(n < INT32_MAX && g->off[n] < INT32_MAX, TSR_ERR_UNSUPPORTED,
            "tsr_reorder_blocks: %lld vertices exceed METIS's 32-bit indices", (long long)n);
  /* Sulyok et al.'s margins: METIS balances to S' with tolerance l', so that the
   * largest part stays within S (+ eps). */
  tsr_idx_t sp = (tsr_idx_t)floor(block / imbalance);
  if (sp < 1) sp = 1;
  const tsr_idx_t nparts = TSR_CEIL_DIV(n, sp);
  TSR_CHECK(nparts <= INT_MAX, TSR_ERR_UNSUPPORTED, "tsr_reorder_blocks: %lld blocks",
            (long long)nparts);
  int *part = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  int rc = part ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_blocks: no memory");
  if (!rc && nparts <= 1) {
    for (tsr_idx_t v = 0; v < n; v++) part[v] = 0;
  } else if (!rc) {
    rc = tsr_graph_partition(g, (int)nparts, 1 /* the same blocks every run */,
                             (block + eps) / (double)sp, "the graph of tsr_reorder_blocks", part);
  }
  /* Vertices by part (stable), then cut parts larger than block. */
  int64_t *key = rc ? NULL : malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (!rc && !key) rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_blocks: no memory");
  for (tsr_idx_t v = 0; !rc && v < n; v++) key[v] = part[v];
  if (!rc) rc = tsr_perm_from_keys(key, n, perm);
  tsr_idx_t nb = 0, *off = NULL;
  if (!rc) {
    /* sizes per part */
    tsr_idx_t *size = calloc((size_t)nparts + 1, sizeof(tsr_idx_t));
    tsr_idx_t total = 0;
    if (!size) rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_blocks: no memory");
    for (tsr_idx_t v = 0; !rc && v < n; v++) size[part[v]]++;
    for (tsr_idx_t p = 0; !rc && p < nparts; p++) total += TSR_CEIL_DIV(size[p], (tsr_idx_t)block);
    off = rc ? NULL : malloc(sizeof(tsr_idx_t) * (size_t)(total + 1));
    if (!rc && !off) rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_blocks: no memory");
    tsr_idx_t at = 0;
    if (!rc) off[0] = 0;
    for (tsr_idx_t p = 0; !rc && p < nparts; p++) {
      if (size[p] == 0) continue; /* empty part: no block */
      tsr_idx_t k = TSR_CEIL_DIV(size[p], (tsr_idx_t)block);
      for (tsr_idx_t c = 0; c < k; c++) { /* near-equal pieces */
        at += size[p] / k + (c < size[p] % k ? 1 : 0);
        off[++nb] = at;
      }
    }
    free(size);
  }
  free(part);
  free(key);
  if (rc) {
    free(off);
    TSR_CALL(rc);
  }
  *nblocks = nb;
  *block_off = off;
  return 0;
}

/* ---------------------------------------------------------------- points */

typedef struct {
  const tsr_idx_t *off; /* per target: its blocks are blk[off[t] .. off[t+1]) */
  const int32_t *blk;
} tsr__pts_t;

static int tsr__cmp_pts(tsr_idx_t a, tsr_idx_t b, const void *ctx) {
  const tsr__pts_t *c = ctx;
  tsr_idx_t na = c->off[a + 1] - c->off[a], nb = c->off[b + 1] - c->off[b];
  if (na == 0 || nb == 0) return na == nb ? 0 : na == 0 ? 1 : -1; /* untouched last */
  if (na != nb) return na < nb ? -1 : 1;
  for (tsr_idx_t j = 0; j < na; j++) {
    int32_t x = c->blk[c->off[a] + j], y = c->blk[c->off[b] + j];
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

int tsr_reorder_points_by_blocks(const int32_t *map, int dim, tsr_idx_t nblocks,
                                 const tsr_idx_t *block_off, tsr_idx_t ntargets, tsr_idx_t *perm) {
  TSR_CHECK(dim >= 1 && nblocks >= 0 && nblocks < INT32_MAX && block_off, TSR_ERR_ARG,
            "tsr_reorder_points_by_blocks: dim %d, %lld blocks", dim, (long long)nblocks);
  tsr_idx_t nent = block_off[nblocks] - block_off[0];
  tsr_idx_t *off = calloc((size_t)ntargets + 2, sizeof(tsr_idx_t));
  int32_t *blk = malloc(sizeof(int32_t) * (size_t)(nent * dim + 1));
  tsr_idx_t *order = malloc(sizeof(tsr_idx_t) * (size_t)(ntargets + 1));
  int rc = 0;
  if (!off || !blk || !order)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_points_by_blocks: no memory for %lld targets",
                   (long long)ntargets);
  /* count, fill (blocks come in ascending order), then drop repeats */
  for (tsr_idx_t b = 0; !rc && b < nblocks; b++)
    for (tsr_idx_t r = block_off[b]; r < block_off[b + 1]; r++)
      for (int k = 0; k < dim; k++) {
        int32_t t = map[r * dim + k];
        if (t >= ntargets) {
          rc = TSR_RAISE(TSR_ERR_RANGE, "tsr_reorder_points_by_blocks: row %lld column %d: "
                         "target %d not below %lld", (long long)r, k, t, (long long)ntargets);
          break;
        }
        if (t >= 0) off[t + 1]++;
      }
  for (tsr_idx_t t = 0; !rc && t < ntargets; t++) off[t + 1] += off[t];
  tsr_idx_t *fill = rc ? NULL : malloc(sizeof(tsr_idx_t) * (size_t)(ntargets + 1));
  if (!rc && !fill) rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_reorder_points_by_blocks: no memory");
  if (!rc) {
    memcpy(fill, off, sizeof(tsr_idx_t) * (size_t)ntargets);
    for (tsr_idx_t b = 0; b < nblocks; b++)
      for (tsr_idx_t r = block_off[b]; r < block_off[b + 1]; r++)
        for (int k = 0; k < dim; k++) {
          int32_t t = map[r * dim + k];
          if (t >= 0 && (fill[t] == off[t] || blk[fill[t] - 1] != (int32_t)b)) blk[fill[t]++] = (int32_t)b;
        }
    /* compact: target t's distinct blocks are blk[off[t] .. fill[t]) */
    tsr_idx_t w = 0;
    for (tsr_idx_t t = 0; t < ntargets; t++) {
      tsr_idx_t s = off[t], e = fill[t];
      off[t] = w;
      for (tsr_idx_t j = s; j < e; j++) blk[w++] = blk[j];
    }
    off[ntargets] = w;
    for (tsr_idx_t t = 0; t < ntargets; t++) order[t] = t;
    tsr__pts_t ctx = {off, blk};
    rc = tsr__sort(order, ntargets, tsr__cmp_pts, &ctx);
    if (!rc) tsr__perm_of_order(order, ntargets, perm);
  }
  free(fill);
  free(off);
  free(blk);
  free(order);
  TSR_CALL(rc);
  return 0;
}
