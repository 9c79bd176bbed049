/* tessera/graph.h: undirected graphs in CSR form and their k-way partition.
 *
 * One place builds the graphs the library partitions or renumbers (the
 * graph a mesh map induces, the 4-neighbour graph of an X-Y plane) and one
 * place calls METIS on them (tsr_graph_partition), with the same options
 * for every caller: C numbering, unit weights, a fixed seed (reproducible
 * parts), METIS's default or the caller's imbalance; one part needs no
 * METIS call.
 */
#ifndef TESSERA_GRAPH_H
#define TESSERA_GRAPH_H

#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An undirected graph: the neighbours of vertex v are
 * adj[off[v] .. off[v+1]), without v itself and without repeats (each edge
 * twice). Ascending for tsr_graph_from_map; tsr_graph_plane lists them in
 * its own fixed order. */
typedef struct {
  tsr_idx_t n;     /* vertices                   */
  tsr_idx_t *off;  /* [n + 1]                    */
  int32_t *adj;    /* [off[n]] (each edge twice) */
} tsr_graph_t;

/* The graph a map (rows of `dim` targets in [0, ntargets); negative entries
 * are skipped, as in the non-exec halo rows of partitioned meshes) induces:
 *  TSR_GRAPH_TARGETS: vertices are the targets, adjacent when one row names
 *                     both (cells joined by an edge, through pecell);
 *  TSR_GRAPH_ROWS:    vertices are the rows, adjacent when they share a
 *                     target (edges touching the same cell).
 * Rows [first, first + nrows) of the map only (first = 0 for all). */
typedef enum { TSR_GRAPH_TARGETS = 0, TSR_GRAPH_ROWS } tsr_graph_kind_t;
int tsr_graph_from_map(const int32_t *map, tsr_idx_t first, tsr_idx_t nrows, int dim,
                       tsr_idx_t ntargets, tsr_graph_kind_t kind, tsr_graph_t *g);

/* The 4-neighbour graph of an nx x ny plane: vertex x + nx*y, its
 * neighbours in the order -x, +x, -y, +y (those inside the plane). */
int tsr_graph_plane(tsr_idx_t nx, tsr_idx_t ny, tsr_graph_t *g);

/* A graph from CSR arrays given as vertex degrees deg[n] and neighbours
 * adj[sum deg] (64-bit, each in [0, n)), in that order. */
int tsr_graph_from_csr(tsr_idx_t n, const int *deg, const int64_t *adj, tsr_graph_t *g);

void tsr_graph_free(tsr_graph_t *g); /* zeroes *g */

/* METIS k-way (METIS_PartGraphKway) of g into nparts (>= 1) parts: part[v]
 * in [0, nparts). seed: METIS_OPTION_SEED (the same seed gives the same
 * parts); imbalance: the load imbalance tolerance (ubvec, >= 1), or 0 for
 * METIS's default. what names the graph in the error message ("the graph of
 * set 'cells'"). Serial: call it on one rank and share the result. Fails
 * with TSR_ERR_UNSUPPORTED when g exceeds METIS's index type, with
 * TSR_ERR_PARTITION when METIS fails. */
int tsr_graph_partition(const tsr_graph_t *g, int nparts, int seed, double imbalance,
                        const char *what, int *part);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_GRAPH_H */
