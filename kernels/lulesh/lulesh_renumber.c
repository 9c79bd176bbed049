/* kernels/lulesh/lulesh_renumber.c: renumberings of a LULESH mesh's
 * elements and nodes (random, GPS, METIS blocks) through lib's graphs and
 * reorderings; used by the generator and the invariance tests. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/graph.h"
#include "tessera/reorder.h"
#include "kernels/lulesh/lulesh_io.h"

int lulesh_order_parse(const char *s, const char *flag, lulesh_order_t *o) {
  static const char *const names[] = {"none", "random", "gps", "metis"};
  for (int i = 0; i < 4; i++)
    if (s && strcmp(s, names[i]) == 0) {
      *o = (lulesh_order_t)i;
      return TSR_SUCCESS;
    }
  return TSR_RAISE(TSR_ERR_ARG, "option %s: '%s', expected none, random, gps or metis", flag,
                   s ? s : "");
}

/* splitmix64: a small reproducible generator */
static uint64_t next64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static void random_perm(int32_t n, uint64_t *s, int32_t *p) {
  for (int32_t i = 0; i < n; i++) p[i] = i;
  for (int32_t i = n - 1; i > 0; i--) {
    int32_t j = (int32_t)(next64(s) % (uint64_t)(i + 1)), t = p[i];
    p[i] = p[j], p[j] = t;
  }
}

static int graph_perm(const lulesh_mesh_t *m, tsr_graph_kind_t kind, int32_t *out) {
  tsr_graph_t g;
  memset(&g, 0, sizeof g);
  TSR_CALL(tsr_graph_from_map(m->nodelist, 0, m->num_elem, 8, m->num_node, kind, &g));
  tsr_idx_t *p = malloc((size_t)(g.n + 1) * sizeof *p);
  int rc = p ? tsr_reorder_gps(&g, p) : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: out of memory");
  for (tsr_idx_t i = 0; !rc && i < g.n; i++) out[i] = (int32_t)p[i];
  free(p);
  tsr_graph_free(&g);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int lulesh_order_metis(const lulesh_mesh_t *m, const tsr_graph_t *graph, int block, int32_t *ep,
                       int32_t *np, tsr_idx_t *nblocks, tsr_idx_t **block_off) {
  tsr_graph_t own;
  memset(&own, 0, sizeof own);
  if (!graph)
    TSR_CALL(tsr_graph_from_map(m->nodelist, 0, m->num_elem, 8, m->num_node, TSR_GRAPH_ROWS, &own));
  const tsr_graph_t *g = graph ? graph : &own;
  int64_t ne = m->num_elem, nn = m->num_node;
  tsr_idx_t *p = malloc((size_t)(ne + nn + 1) * sizeof *p), nb = 0, *off = NULL;
  int32_t *rows = malloc((size_t)(8 * ne + 1) * sizeof *rows);
  int rc = p && rows ? tsr_reorder_blocks(g, block, 1.001, 0.0, p, &nb, &off)
                     : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: out of memory");
  if (!rc) { /* node order by the blocks of the renumbered elements */
    for (int64_t e = 0; e < ne; e++) {
      ep[e] = (int32_t)p[e];
      memcpy(rows + 8 * (int64_t)ep[e], m->nodelist + 8 * e, 8 * sizeof *rows);
    }
    rc = tsr_reorder_points_by_blocks(rows, 8, nb, off, nn, p + ne);
  }
  for (int64_t n = 0; !rc && n < nn; n++) np[n] = (int32_t)p[ne + n];
  free(p);
  free(rows);
  if (!rc && block_off) {
    *nblocks = nb;
    *block_off = off;
    off = NULL;
  }
  free(off);
  tsr_graph_free(&own);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int lulesh_order_perms(const lulesh_mesh_t *m, lulesh_order_t o, uint64_t seed, int32_t *ep,
                       int32_t *np) {
  switch (o) {
  case LULESH_ORDER_NONE:
    for (int32_t e = 0; e < m->num_elem; e++) ep[e] = e;
    for (int32_t n = 0; n < m->num_node; n++) np[n] = n;
    return TSR_SUCCESS;
  case LULESH_ORDER_RANDOM:
    random_perm(m->num_elem, &seed, ep);
    random_perm(m->num_node, &seed, np);
    return TSR_SUCCESS;
  case LULESH_ORDER_GPS:
    TSR_CALL(graph_perm(m, TSR_GRAPH_ROWS, ep));
    TSR_CALL(graph_perm(m, TSR_GRAPH_TARGETS, np));
    return TSR_SUCCESS;
  case LULESH_ORDER_METIS:
    TSR_CALL(lulesh_order_metis(m, NULL, 64, ep, np, NULL, NULL));
    return TSR_SUCCESS;
  }
  return TSR_RAISE(TSR_ERR_ARG, "lulesh: unknown order %d", (int)o);
}

int lulesh_mesh_renumber(const lulesh_mesh_t *m, lulesh_order_t o, uint64_t seed,
                         lulesh_mesh_t *out) {
  int32_t *ep = malloc((size_t)m->num_elem * sizeof *ep);
  int32_t *np = malloc((size_t)m->num_node * sizeof *np);
  int rc = ep && np ? lulesh_order_perms(m, o, seed, ep, np)
                    : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: out of memory for permutations");
  if (!rc) rc = lulesh_mesh_permute(m, ep, np, out);
  free(ep);
  free(np);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
