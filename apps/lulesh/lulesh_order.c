/* apps/lulesh/lulesh_order.c: tsr-lulesh's --reorder: the elements and nodes
 * of the mesh renumbered for locality before any variant runs.
 *
 *   gps    the elements by Gibbs-Poole-Stockmeyer (Scotch, tessera/reorder.h)
 *          on the element graph (elements adjacent when they share a node);
 *          the nodes in the order the renumbered elements first touch them;
 *   metis  Sulyok et al.'s (2019) partition-based blocks: METIS k-way parts
 *          of at most `block` elements (tsr_reorder_blocks, imbalance
 *          1.001), elements numbered block by block; the nodes by the blocks
 *          that touch them (tsr_reorder_points_by_blocks): the kernels'
 *          lulesh_order_metis, which tsr-mklulesh --renumber metis also uses.
 *          The blocks are kept: cuda/twolevel plans them as its thread blocks.
 * The mesh is renumbered by lulesh_mesh_permute; the run reports energies in
 * the original element numbering (elem_perm). */
#include "config.h"
#include "apps/lulesh/lulesh_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/reorder.h"
#include "kernels/lulesh/lulesh_io.h"

void lulesh_order_free(lulesh_reorder_t *o) {
  free(o->elem_perm);
  free(o->block_off);
  memset(o, 0, sizeof *o);
}

/* Nodes numbered in the order the elements, in their new numbering
 * (ep[old] = new), first name them; nodes no element names keep their
 * order after those. */
static int nodes_by_first_touch(const lulesh_mesh_t *m, const int32_t *ep, int32_t *np) {
  const int32_t ne = m->num_elem, nn = m->num_node;
  int32_t *old = malloc(sizeof(int32_t) * ((size_t)ne + 1)); /* new element -> old */
  TSR_CHECK(old, TSR_ERR_ALLOC, "--reorder gps: no memory for %d elements", ne);
  for (int32_t e = 0; e < ne; e++) old[ep[e]] = e;
  for (int32_t n = 0; n < nn; n++) np[n] = -1;
  int32_t k = 0;
  for (int32_t e = 0; e < ne; e++)
    for (int i = 0; i < 8; i++) {
      const int32_t n = m->nodelist[8 * (int64_t)old[e] + i];
      if (np[n] < 0) np[n] = k++;
    }
  for (int32_t n = 0; n < nn; n++)
    if (np[n] < 0) np[n] = k++;
  free(old);
  return TSR_SUCCESS;
}

int lulesh_order_apply(lulesh_mesh_t *m, const char *how, int block, lulesh_reorder_t *o) {
  memset(o, 0, sizeof *o);
  int gps = !strcmp(how, "gps"), metis = !strcmp(how, "metis");
  TSR_CHECK(gps || metis || !strcmp(how, "none"), TSR_ERR_ARG,
            "--reorder: '%s', expected none, gps or metis", how);
  if (!gps && !metis) return 0;
  const int32_t ne = m->num_elem, nn = m->num_node;
  tsr_graph_t g;
  TSR_CALL(tsr_graph_from_map(m->nodelist, 0, ne, 8, nn, TSR_GRAPH_ROWS, &g));
  tsr_idx_t *perm = malloc(sizeof(tsr_idx_t) * ((size_t)ne + 1));
  int32_t *ep = malloc(sizeof(int32_t) * ((size_t)ne + 1));
  int32_t *np = malloc(sizeof(int32_t) * ((size_t)nn + 1));
  int rc = perm && ep && np ? 0 : TSR_RAISE(TSR_ERR_ALLOC,
           "--reorder %s: no memory for %d elements", how, ne);
  tsr_graph_bandwidth(&g, NULL, &o->bw_before, &o->profile_before);
  if (!rc && gps) {
    rc = tsr_reorder_gps(&g, perm);
    for (int32_t e = 0; !rc && e < ne; e++) ep[e] = (int32_t)perm[e];
    if (!rc) rc = nodes_by_first_touch(m, ep, np);
  }
  if (!rc && metis) {
    rc = lulesh_order_metis(m, &g, block, ep, np, &o->nblocks, &o->block_off);
    for (int32_t e = 0; !rc && e < ne; e++) perm[e] = ep[e];
  }
  if (!rc) tsr_graph_bandwidth(&g, perm, &o->bw_after, &o->profile_after);
  tsr_graph_free(&g);
  lulesh_mesh_t out;
  if (!rc) rc = lulesh_mesh_permute(m, ep, np, &out);
  if (!rc) {
    lulesh_mesh_free(m);
    *m = out;
    o->elem_perm = ep;
    ep = NULL;
  }
  free(perm);
  free(ep);
  free(np);
  if (rc) lulesh_order_free(o);
  return rc;
}
