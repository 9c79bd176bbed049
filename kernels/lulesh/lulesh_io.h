/* kernels/lulesh/lulesh_io.h: LULESH meshes and hex-mesh HDF5 files
 * (tessera/hex.h, docs/FORMAT.md): conversion between lulesh_mesh_t and
 * the library's tsr_mesh_t in the hex-mesh layout, whole-mesh reading and
 * writing for single-rank runs and generators, and renumberings of a mesh
 * (random, GPS, METIS blocks) that must leave every result unchanged to
 * rounding.
 *
 * A distributed run reads its blocks with tsr_hex_read (each rank its rows,
 * a BLOCK tsr_mesh_t with global indices, checked) and partitions that; a
 * single rank reads the whole mesh with lulesh_mesh_read. */
#ifndef TSR_KERNELS_LULESH_IO_H
#define TSR_KERNELS_LULESH_IO_H

#include <mpi.h>

#include "tessera/graph.h"
#include "tessera/hex.h"
#include "kernels/lulesh/lulesh_mesh.h"

/* A SERIAL tsr_mesh_t in the hex-mesh layout with m's arrays (copied) and
 * its header (balance -1: unknown). */
int lulesh_mesh_to_tsr(const lulesh_mesh_t *m, tsr_mesh_t **out, tsr_hex_header_t *h);

/* A whole (SERIAL) hex mesh, as tsr_hex_read gives it on one rank, to a
 * lulesh_mesh_t with its CSR tables, checked (lulesh_mesh_check); name
 * names it in messages. */
int lulesh_mesh_from_tsr(const tsr_mesh_t *t, const tsr_hex_header_t *h, const char *name,
                         lulesh_mesh_t *m);

/* Read a hex-mesh file whole on a one-rank comm (every check of
 * tsr_hex_read); h may be NULL. */
int lulesh_mesh_read(MPI_Comm comm, const char *path, lulesh_mesh_t *m, tsr_hex_header_t *h);

/* Write m as a hex-mesh file (temp-then-rename, provenance p may be NULL)
 * with its XDMF sidecar; balance: the region balance it was made with (-1
 * unknown). Collective (each rank writes its block of the whole mesh). */
int lulesh_mesh_write(MPI_Comm comm, const char *path, const lulesh_mesh_t *m, int balance,
                      const tsr_provenance_t *p);

/* For a mesh whose elements form an nx^3 cube of cells over the box of its
 * coordinates (LULESH's generated cube, in any numbering):
 * cell[(k nx + j) nx + i] = the element at (i, j, k), found from the element
 * centroids. TSR_ERR_FORMAT when the mesh is no such cube. */
int lulesh_mesh_cube_cells(const lulesh_mesh_t *m, int nx, int32_t *cell);

/* Renumberings (new = perm[old]) of elements and nodes:
 *   LULESH_ORDER_RANDOM  uniform random permutations of both (seed);
 *   LULESH_ORDER_GPS     Gibbs-Poole-Stockmeyer (lib's tsr_reorder_gps) of
 *                        the element graph (elements sharing a node) and of
 *                        the node graph (nodes sharing an element);
 *   LULESH_ORDER_METIS   elements in METIS blocks of 64 (tsr_reorder_blocks),
 *                        nodes by the blocks that use them
 *                        (tsr_reorder_points_by_blocks). */
typedef enum { LULESH_ORDER_NONE = 0, LULESH_ORDER_RANDOM, LULESH_ORDER_GPS, LULESH_ORDER_METIS } lulesh_order_t;
/* "none", "random", "gps", "metis" -> *o; TSR_ERR_ARG naming `flag` otherwise. */
int lulesh_order_parse(const char *s, const char *flag, lulesh_order_t *o);
/* elem_perm[num_elem], node_perm[num_node]. */
int lulesh_order_perms(const lulesh_mesh_t *m, lulesh_order_t o, uint64_t seed,
                       int32_t *elem_perm, int32_t *node_perm);
/* LULESH_ORDER_METIS with blocks of at most `block` elements: elem_perm,
 * node_perm as above; the blocks (new element numbering) in *nblocks,
 * *block_off [nblocks + 1] (the caller frees it; NULL: not kept). graph: m's
 * element graph (tsr_graph_from_map of nodelist, TSR_GRAPH_ROWS) where the
 * caller has it, else NULL. */
int lulesh_order_metis(const lulesh_mesh_t *m, const tsr_graph_t *graph, int block,
                       int32_t *elem_perm, int32_t *node_perm, tsr_idx_t *nblocks,
                       tsr_idx_t **block_off);
/* The renumbered copy of m (lulesh_mesh_permute) in *out. */
int lulesh_mesh_renumber(const lulesh_mesh_t *m, lulesh_order_t o, uint64_t seed,
                         lulesh_mesh_t *out);

#endif /* TSR_KERNELS_LULESH_IO_H */
