/* lib/src/graph.c: CSR graphs (from a map, an X-Y plane, degree lists) and
 * their METIS k-way partition, the one METIS call of the library
 * (tessera/graph.h). */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <metis.h>

#include "tessera/graph.h"
#include "tessera/error.h"

/* ------------------------------------------------------------ from a map */

void tsr_graph_free(tsr_graph_t *g) {
  if (!g) return;
  free(g->off);
  free(g->adj);
  memset(g, 0, sizeof *g);
}

static int tsr__cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

int tsr_graph_from_map(const int32_t *map, tsr_idx_t first, tsr_idx_t nrows, int dim,
                       tsr_idx_t ntargets, tsr_graph_kind_t kind, tsr_graph_t *g) {
  memset(g, 0, sizeof *g);
  TSR_CHECK(map || nrows == 0, TSR_ERR_ARG, "tsr_graph_from_map: map is NULL");
  TSR_CHECK(dim >= 1 && first >= 0 && nrows >= 0 && ntargets >= 0 && ntargets < INT32_MAX &&
                nrows < INT32_MAX,
            TSR_ERR_ARG, "tsr_graph_from_map: dim %d, rows [%lld, +%lld), %lld targets", dim,
            (long long)first, (long long)nrows, (long long)ntargets);
  const int32_t *m = map + first * dim;
  for (tsr_idx_t k = 0; k < nrows * dim; k++)
    TSR_CHECK(m[k] < ntargets, TSR_ERR_RANGE,
              "tsr_graph_from_map: row %lld column %d: target %d not below %lld",
              (long long)(first + k / dim), (int)(k % dim), m[k], (long long)ntargets);
  /* Incidence target -> rows (CSR), needed by both kinds. */
  tsr_idx_t *toff = calloc((size_t)ntargets + 2, sizeof(tsr_idx_t));
  int32_t *trow = malloc(sizeof(int32_t) * (size_t)(nrows * dim + 1));
  if (!toff || !trow) {
    free(toff);
    free(trow);
    return TSR_RAISE(TSR_ERR_ALLOC, "tsr_graph_from_map: no memory for %lld rows", (long long)nrows);
  }
  for (tsr_idx_t k = 0; k < nrows * dim; k++)
    if (m[k] >= 0) toff[m[k] + 1]++;
  for (tsr_idx_t t = 0; t < ntargets; t++) toff[t + 1] += toff[t];
  for (tsr_idx_t k = 0; k < nrows * dim; k++)
    if (m[k] >= 0) trow[toff[m[k]]++] = (int32_t)(k / dim);
  for (tsr_idx_t t = ntargets; t > 0; t--) toff[t] = toff[t - 1];
  toff[0] = 0;

  tsr_idx_t n = kind == TSR_GRAPH_TARGETS ? ntargets : nrows;
  g->n = n;
  g->off = calloc((size_t)n + 1, sizeof(tsr_idx_t));
  int rc = g->off ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "tsr_graph_from_map: no memory");
  /* Two passes: count (with repeats), fill, then sort and deduplicate. */
  tsr_idx_t cap = 0;
  for (tsr_idx_t v = 0; !rc && v < n; v++) {
    tsr_idx_t c = 0;
    if (kind == TSR_GRAPH_TARGETS) c = (toff[v + 1] - toff[v]) * (dim - 1);
    else
      for (int k = 0; k < dim; k++)
        if (m[v * dim + k] >= 0) c += toff[m[v * dim + k] + 1] - toff[m[v * dim + k]];
    cap += c;
  }
  int32_t *adj = rc ? NULL : malloc(sizeof(int32_t) * (size_t)(cap + 1));
  if (!rc && !adj) rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_graph_from_map: no memory for %lld entries",
                                  (long long)cap);
  tsr_idx_t w = 0;
  for (tsr_idx_t v = 0; !rc && v < n; v++) {
    tsr_idx_t start = w;
    if (kind == TSR_GRAPH_TARGETS) {
      for (tsr_idx_t j = toff[v]; j < toff[v + 1]; j++)
        for (int k = 0; k < dim; k++) {
          int32_t u = m[(tsr_idx_t)trow[j] * dim + k];
          if (u >= 0 && u != v) adj[w++] = u;
        }
    } else {
      for (int k = 0; k < dim; k++) {
        int32_t t = m[v * dim + k];
        if (t < 0) continue;
        for (tsr_idx_t j = toff[t]; j < toff[t + 1]; j++)
          if (trow[j] != v) adj[w++] = trow[j];
      }
    }
    qsort(adj + start, (size_t)(w - start), sizeof(int32_t), tsr__cmp_i32);
    tsr_idx_t u = start;
    for (tsr_idx_t j = start; j < w; j++)
      if (j == start || adj[j] != adj[j - 1]) adj[u++] = adj[j];
    w = u;
    g->off[v + 1] = w;
  }
  free(toff);
  free(trow);
  if (rc) {
    free(adj);
    tsr_graph_free(g);
    TSR_CALL(rc);
  }
  g->adj = adj;
  return 0;
}

/* ------------------------------------------------------------ other builders */

int tsr_graph_plane(tsr_idx_t nx, tsr_idx_t ny, tsr_graph_t *g) {
  memset(g, 0, sizeof *g);
  TSR_CHECK(nx >= 1 && ny >= 1 && nx * ny < INT32_MAX / 4, TSR_ERR_ARG,
            "tsr_graph_plane: a %lld x %lld plane (need 1 <= nx*ny < 2^29)", (long long)nx,
            (long long)ny);
  const tsr_idx_t n = nx * ny;
  g->n = n;
  g->off = malloc((size_t)(n + 1) * sizeof *g->off);
  g->adj = malloc((size_t)(4 * n) * sizeof *g->adj);
  if (!g->off || !g->adj) {
    tsr_graph_free(g);
    return TSR_RAISE(TSR_ERR_ALLOC, "tsr_graph_plane: no memory for a %lld x %lld plane",
                     (long long)nx, (long long)ny);
  }
  tsr_idx_t k = 0;
  g->off[0] = 0;
  for (tsr_idx_t y = 0; y < ny; y++)
    for (tsr_idx_t x = 0; x < nx; x++) {
      if (x > 0) g->adj[k++] = (int32_t)(x - 1 + nx * y);
      if (x < nx - 1) g->adj[k++] = (int32_t)(x + 1 + nx * y);
      if (y > 0) g->adj[k++] = (int32_t)(x + nx * (y - 1));
      if (y < ny - 1) g->adj[k++] = (int32_t)(x + nx * (y + 1));
      g->off[x + nx * y + 1] = k;
    }
  return TSR_SUCCESS;
}

int tsr_graph_from_csr(tsr_idx_t n, const int *deg, const int64_t *adj, tsr_graph_t *g) {
  memset(g, 0, sizeof *g);
  TSR_CHECK(n >= 0 && n < INT32_MAX && (n == 0 || (deg && adj)), TSR_ERR_ARG,
            "tsr_graph_from_csr: %lld vertices (need 0 <= n < 2^31 and both arrays)",
            (long long)n);
  g->n = n;
  g->off = malloc((size_t)(n + 1) * sizeof *g->off);
  TSR_CHECK(g->off, TSR_ERR_ALLOC, "tsr_graph_from_csr: no memory for %lld vertices", (long long)n);
  g->off[0] = 0;
  for (tsr_idx_t v = 0; v < n; v++) g->off[v + 1] = g->off[v] + deg[v];
  const tsr_idx_t m = g->off[n];
  g->adj = malloc((size_t)(m > 0 ? m : 1) * sizeof *g->adj);
  int rc = g->adj ? TSR_SUCCESS
                  : TSR_RAISE(TSR_ERR_ALLOC, "tsr_graph_from_csr: no memory for %lld neighbours",
                              (long long)m);
  for (tsr_idx_t j = 0; !rc && j < m; j++) {
    if (adj[j] < 0 || adj[j] >= n)
      rc = TSR_RAISE(TSR_ERR_RANGE, "tsr_graph_from_csr: neighbour %lld is %lld, not in [0, %lld)",
                     (long long)j, (long long)adj[j], (long long)n);
    else
      g->adj[j] = (int32_t)adj[j];
  }
  if (rc) {
    tsr_graph_free(g);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ METIS */

int tsr_graph_partition(const tsr_graph_t *g, int nparts, int seed, double imbalance,
                        const char *what, int *part) {
  const char *w = what ? what : "a graph";
  const tsr_idx_t n = g->n, m = g->off[n];
  TSR_CHECK(nparts >= 1 && (imbalance == 0 || imbalance >= 1), TSR_ERR_ARG,
            "partition of %s: %d parts, imbalance %g (need >= 1 parts, imbalance 0 or >= 1)", w,
            nparts, imbalance);
  TSR_CHECK(n <= (tsr_idx_t)INT32_MAX && m <= (tsr_idx_t)INT32_MAX, TSR_ERR_UNSUPPORTED,
            "partition of %s: %lld vertices, %lld edge ends exceed METIS's 32-bit indices", w,
            (long long)n, (long long)m);
  if (nparts == 1) { /* METIS's k-way divides by nparts - 1 */
    for (tsr_idx_t v = 0; v < n; v++) part[v] = 0;
    return TSR_SUCCESS;
  }
  idx_t nv = (idx_t)n, ncon = 1, np = (idx_t)nparts, obj = 0, opt[METIS_NOPTIONS];
  real_t ub = (real_t)imbalance;
  idx_t *xadj = malloc(sizeof(idx_t) * (size_t)(n + 1));
  idx_t *adj = malloc(sizeof(idx_t) * (size_t)(m > 0 ? m : 1));
  idx_t *ip = malloc(sizeof(idx_t) * (size_t)(n > 0 ? n : 1));
  int rc = xadj && adj && ip ? TSR_SUCCESS
                             : TSR_RAISE(TSR_ERR_ALLOC, "partition of %s: cannot allocate METIS "
                                         "arrays for %lld vertices", w, (long long)n);
  if (!rc) {
    for (tsr_idx_t v = 0; v <= n; v++) xadj[v] = (idx_t)g->off[v];
    for (tsr_idx_t j = 0; j < m; j++) adj[j] = g->adj[j];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_NUMBERING] = 0;
    opt[METIS_OPTION_SEED] = seed;
    const int mrc = METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, NULL, &np, NULL,
                                        imbalance > 0 ? &ub : NULL, opt, &obj, ip);
    if (mrc != METIS_OK)
      rc = TSR_RAISE(TSR_ERR_PARTITION,
                     "METIS_PartGraphKway failed (code %d) on %s (%lld vertices, %lld edge ends, "
                     "%d parts)", mrc, w, (long long)n, (long long)m, nparts);
    for (tsr_idx_t v = 0; !rc && v < n; v++) part[v] = (int)ip[v];
  }
  free(xadj);
  free(adj);
  free(ip);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
