/* tessera/hex.h: hexahedral meshes in HDF5, kind "hex-mesh" (docs/FORMAT.md
 * is the contract): an OP2-layout mesh (tessera/mesh.h, tessera/io.h) with
 * fixed names, so lib's block reading and tsr_mesh_partition work on it
 * unchanged:
 *
 *   sets  nodes, elements, symm_x, symm_y, symm_z (nodes on the x = 0,
 *         y = 0, z = 0 symmetry planes)
 *   maps  elem_nodes   elements -> nodes     [8]  corners in LULESH's order
 *         elem_faces   elements -> elements  [6]  neighbours across the xi-,
 *                      xi+, eta-, eta+, zeta-, zeta+ faces; the element
 *                      itself across a SYMM or FREE face
 *         symm_x_nodes symm_x -> nodes [1] (and symm_y_nodes, symm_z_nodes)
 *   dats  coords  nodes [3] double; elem_bc elements [1] int32 (face flags,
 *         3 bits per face: SYMM 1, FREE 2, COMM 4); region elements [1]
 *         int32 (0 .. regions-1)
 *   constant einit [1]: the initial energy deposit; root attributes origin
 *         (the element receiving it), regions (region count), and from a
 *         generator edge and balance.
 *
 * Readers check shapes and types (lib's mesh reader), then the semantics
 * (tsr_hex_check): corners distinct, positive trilinear volumes, face flags
 * and neighbours consistent (a neighbour across face f names the element
 * across the opposite face, and the two faces share their 4 nodes), regions
 * in range, symmetry nodes on their planes. Every error is one message naming the file, the dataset, the row
 * and the problem, agreed by every rank. */
#ifndef TESSERA_HEX_H
#define TESSERA_HEX_H

#include <mpi.h>
#include "tessera/common.h"
#include "tessera/io.h"
#include "tessera/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_HEX_NODES "nodes"
#define TSR_HEX_ELEMS "elements"
#define TSR_HEX_CONN "elem_nodes"
#define TSR_HEX_FACES "elem_faces"
#define TSR_HEX_COORDS "coords"
#define TSR_HEX_BC "elem_bc"
#define TSR_HEX_REGION "region"
#define TSR_HEX_EINIT "einit"
/* symmetry sets "symm_x" .. and their maps "symm_x_nodes" .. */
extern const char *const tsr_hex_symm_sets[3];
extern const char *const tsr_hex_symm_maps[3];

/* Face flag bits of elem_bc: face f (xi-, xi+, eta-, eta+, zeta-, zeta+)
 * holds bits (bc >> 3f) & 7 = 0 (neighbour), SYMM, FREE or COMM. */
enum { TSR_HEX_SYMM = 1, TSR_HEX_FREE = 2, TSR_HEX_COMM = 4 };

/* What a hex-mesh file holds beside its sets, maps and dats. */
typedef struct {
  int64_t origin;  /* element of the energy deposit (global index)   */
  int32_t regions; /* region count (regions may be empty)            */
  double einit;    /* initial energy of the origin element (> 0)     */
  int32_t edge;    /* elements per edge of a generated cube, else 0  */
  int32_t balance; /* the generator's region balance, -1 if unknown  */
} tsr_hex_header_t;

/* Summary found by the checks (over every rank). */
typedef struct {
  int64_t num_elem, num_node, num_symm[3];
  double vol_min, vol_max, vol_sum; /* trilinear element volumes          */
  double lo[3], hi[3];              /* bounding box of the coordinates    */
  int64_t flags[6][3];              /* faces with SYMM, FREE, COMM by face */
} tsr_hex_stats_t;

/* Volume of the trilinear hex with corners c[8][3] in LULESH's order
 * (positive for a right-handed element). */
double tsr_hex_volume(const double c[8][3]);

/* Read a hex mesh: on one rank a SERIAL tsr_mesh_t, on several a BLOCK one
 * (each rank reads only its rows of every set; maps hold global indices),
 * with its header, checked by tsr_hex_check (stats may be NULL).
 * Collective. */
int tsr_hex_read(MPI_Comm comm, const char *path, tsr_mesh_t **out, tsr_hex_header_t *h,
                 tsr_hex_stats_t *stats);
int tsr_hex_read_file(tsr_file_t *f, tsr_mesh_t **out, tsr_hex_header_t *h,
                      tsr_hex_stats_t *stats);

/* The semantic checks of a SERIAL or BLOCK hex mesh (every object above
 * present, shapes as above); name names it in messages (the file). In a
 * BLOCK mesh the coordinates of the corners a rank's elements use are
 * fetched from their owners (tessera/xfer.h). Collective over comm. */
int tsr_hex_check(MPI_Comm comm, const char *name, const tsr_mesh_t *m,
                  const tsr_hex_header_t *h, tsr_hex_stats_t *stats);

/* Write a SERIAL or BLOCK hex mesh (every set, map, dat and constant it
 * holds, OP2's layout) with root kind "hex-mesh" and the header; checked
 * first (nothing is written for a bad mesh). tsr_hex_write adds provenance
 * (p may be NULL) and writes temp-then-rename. Collective. */
int tsr_hex_write_file(tsr_file_t *f, const tsr_mesh_t *m, const tsr_hex_header_t *h);
int tsr_hex_write(MPI_Comm comm, const char *path, const tsr_mesh_t *m,
                  const tsr_hex_header_t *h, const tsr_provenance_t *p);

/* XDMF sidecar of a hex-mesh file: Hexahedron topology from elem_nodes, XYZ
 * geometry from coords, every other dat on elements as cell data and on
 * nodes as node data. Rank 0 writes it, temp-then-rename; collective. */
int tsr_xdmf_write_hex(MPI_Comm comm, const char *h5path, const tsr_mesh_t *m);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HEX_H */
