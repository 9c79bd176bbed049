/* kernels/lulesh/lulesh_dist_split.c: the split of a rank's part into the
 * elements and nodes an exchange needs first and the interior ones
 * (lulesh_dist.h: lulesh_split_t), for a distributed GPU step that runs the
 * exchanges beside the interior work. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "kernels/lulesh/lulesh_dist.h"

void lulesh_split_free(lulesh_split_t *s) {
  if (!s) return;
  free(s->elem), free(s->node), free(s->kin);
  memset(s, 0, sizeof *s);
}

/* out[n]: the i with mark[i] first, then the others, each in increasing
 * order; returns the count of the first part. */
static int32_t partition(int32_t n, const unsigned char *mark, int32_t *out) {
  int32_t k = 0;
  for (int32_t i = 0; i < n; i++)
    if (mark[i]) out[k++] = i;
  int32_t first = k;
  for (int32_t i = 0; i < n; i++)
    if (!mark[i]) out[k++] = i;
  return first;
}

int lulesh_split_build(const lulesh_mesh_t *m, int64_t nshared, const int64_t *shared,
                       int64_t nsend, const int64_t *send, lulesh_split_t *s) {
  memset(s, 0, sizeof *s);
  const int32_t ne = m->num_elem, nn = m->num_node;
  s->num_elem = ne, s->num_node = nn;
  s->elem = malloc(sizeof(int32_t) * ((size_t)ne + 1));
  s->kin = malloc(sizeof(int32_t) * ((size_t)ne + 1));
  s->node = malloc(sizeof(int32_t) * ((size_t)nn + 1));
  unsigned char *nmark = calloc((size_t)nn + 1, 1), *emark = calloc((size_t)ne + 1, 1);
  int rc = 0;
  if (!s->elem || !s->kin || !s->node || !nmark || !emark)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the boundary split of %d elements", ne);
  for (int64_t k = 0; !rc && k < nshared; k++) {
    if (shared[k] < 0 || shared[k] >= nn)
      rc = TSR_RAISE(TSR_ERR_INTERNAL, "lulesh: shared node %lld out of range [0, %d)",
                     (long long)shared[k], nn);
    else
      nmark[shared[k]] = 1;
  }
  if (!rc) s->num_shared = partition(nn, nmark, s->node);
  for (int32_t e = 0; !rc && e < ne; e++)
    for (int i = 0; i < 8 && !emark[e]; i++) emark[e] = nmark[m->nodelist[8 * (int64_t)e + i]];
  if (!rc) s->num_bnd = partition(ne, emark, s->elem);
  if (!rc) memset(emark, 0, (size_t)ne + 1);
  for (int64_t k = 0; !rc && k < nsend; k++) {
    if (send[k] < 0 || send[k] >= ne)
      rc = TSR_RAISE(TSR_ERR_INTERNAL, "lulesh: sent element %lld out of range [0, %d)",
                     (long long)send[k], ne);
    else
      emark[send[k]] = 1;
  }
  if (!rc) s->num_send = partition(ne, emark, s->kin);
  free(nmark), free(emark);
  if (rc) lulesh_split_free(s);
  return rc;
}
