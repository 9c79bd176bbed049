/* tessera/reorder.h: renumberings of mesh sets for data locality and reuse.
 *
 * Sulyok et al.'s (2019) two reorderings of the elements of an indirect loop, and the
 * tools they need:
 *
 *  - bandwidth-reducing renumbering of the points (the to-set of a map):
 *    Gibbs-Poole-Stockmeyer through Scotch's graph ordering (strategy "g",
 *    the one OP2 uses) and reverse Cuthill-McKee (written here: no library
 *    on Debian offers it) as a baseline, with the bandwidth and profile of a
 *    graph under a numbering to report what they achieved;
 *  - partition-based block formation: the elements are partitioned by METIS
 *    (k-way) into blocks of at most the GPU block size S, so that blocks
 *    share as little data as possible; imbalance l (1.001) with the paper's
 *    margins S' = floor(S / l) and l' = (S + eps) / S'; blocks of unequal
 *    size (CSR offsets; the kernel idles the spare threads);
 *  - data points sorted by the number of blocks that access them, then by
 *    those blocks (Sulyok et al.), so points shared by the same blocks share cache
 *    lines.
 *
 * Permutations follow tsr_mesh_permute's convention: perm[old] = new.
 * Graphs are symmetric CSR adjacency lists without self loops.
 */
#ifndef TESSERA_REORDER_H
#define TESSERA_REORDER_H

#include "tessera/common.h"
#include "tessera/graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Graphs (tsr_graph_t, tsr_graph_from_map) are tessera/graph.h's. */

/* Bandwidth (max |perm[u] - perm[v]| over edges) and profile (sum over v of
 * the distance from perm[v] to its lowest-numbered neighbour below it) of g
 * numbered by perm (NULL: the identity). */
void tsr_graph_bandwidth(const tsr_graph_t *g, const tsr_idx_t *perm, tsr_idx_t *bandwidth,
                         tsr_idx_t *profile);

/* Gibbs-Poole-Stockmeyer through Scotch (SCOTCH_graphOrder, strategy "g"):
 * perm[g.n]. */
int tsr_reorder_gps(const tsr_graph_t *g, tsr_idx_t *perm);
/* Reverse Cuthill-McKee (each connected component from a pseudo-peripheral
 * vertex of least degree, neighbours by increasing degree): perm[g.n]. */
int tsr_reorder_rcm(const tsr_graph_t *g, tsr_idx_t *perm);

/* Partition-based blocks (METIS k-way on g, e.g. TSR_GRAPH_ROWS of the
 * increment map) of at most `block` vertices each, imbalance `imbalance`
 * (>= 1, 1.001 by the seed), margin eps (>= 0) as described above. Parts
 * METIS leaves larger than `block` are split. Writes perm[g.n] (vertices
 * ordered by block, in their old order within a block), *nblocks and a
 * malloc'd *block_off [*nblocks + 1] (block b holds the new numbers
 * block_off[b] .. block_off[b+1]). */
int tsr_reorder_blocks(const tsr_graph_t *g, int block, double imbalance, double eps,
                       tsr_idx_t *perm, tsr_idx_t *nblocks, tsr_idx_t **block_off);

/* Sulyok et al.'s data-point order: given map rows (`dim` targets, negative
 * entries skipped) grouped in blocks [block_off[b], block_off[b+1]) of rows
 * (rows outside every block are ignored), number the targets by (number of
 * blocks that access them, then the ascending list of those blocks), ties
 * and untouched targets in their old order (untouched ones last). perm[ntargets]. */
int tsr_reorder_points_by_blocks(const int32_t *map, int dim, tsr_idx_t nblocks,
                                 const tsr_idx_t *block_off, tsr_idx_t ntargets, tsr_idx_t *perm);

/* Keep every element in its segment: segments [seg[s], seg[s+1]) of
 * [0, seg[nseg]); within a segment, elements are numbered in the order of
 * their perm values. perm is rewritten in place. Used to reorder a
 * partitioned mesh without mixing its core, owned and halo rows. */
int tsr_perm_restrict(tsr_idx_t *perm, int nseg, const tsr_idx_t *seg);

/* perm[v] = rank of key[v] in ascending (key, v) order: a permutation that
 * sorts by key, stably. */
int tsr_perm_from_keys(const int64_t *key, tsr_idx_t n, tsr_idx_t *perm);

/* 1 when perm[n] is a permutation of [0, n). */
int tsr_perm_check(const tsr_idx_t *perm, tsr_idx_t n);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_REORDER_H */
