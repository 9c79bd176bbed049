/* kernels/lulesh/lulesh_split.h: the split of one rank's part of a
 * distributed LULESH run for a step that overlaps its exchanges with
 * interior work (kernels/lulesh/lulesh_dist_split.c; used by
 * lulesh_cuda_step_dist). No MPI here, so the CUDA files can include it. */
#ifndef TSR_KERNELS_LULESH_SPLIT_H
#define TSR_KERNELS_LULESH_SPLIT_H

#include <stdint.h>

#include "kernels/lulesh/lulesh_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The split of one rank's part for a step that overlaps its exchanges with
 * interior work (lulesh_cuda_step_dist): local numbers, each part in
 * increasing order.
 *   elem[num_elem]  the owned elements touching a shared node (the first
 *                   num_bnd: every force on a shared node comes from them),
 *                   then the interior ones (touching no shared node);
 *   node[num_node]  the shared nodes (num_shared), then the others;
 *   kin[num_elem]   the owned elements that are ghosts on another rank
 *                   (num_send: the ones whose velocity gradients are sent),
 *                   then the others.
 * Every sent element touches a shared node (a face it shares with another
 * rank's element has 4 nodes both ranks hold). */
typedef struct lulesh_split {
  int32_t num_elem, num_bnd, num_node, num_shared, num_send;
  int32_t *elem, *node, *kin;
} lulesh_split_t;

/* Build s for mesh m from its shared nodes shared[nshared] and sent
 * elements send[nsend] (local numbers, each once). Free with
 * lulesh_split_free. Local (no communication). */
int lulesh_split_build(const lulesh_mesh_t *m, int64_t nshared, const int64_t *shared,
                       int64_t nsend, const int64_t *send, lulesh_split_t *s);
void lulesh_split_free(lulesh_split_t *s);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_LULESH_SPLIT_H */
