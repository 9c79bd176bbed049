/* tessera/mesh.h: unstructured meshes in OP2's vocabulary.
 *
 *   set    a named collection of elements (nodes, edges, cells, ...)
 *   map    a fixed-arity relation from one set to another:
 *          data[from.size][dim] (int32, 0-based target indices)
 *   dat    data on a set: data[set.size][dim] of one tsr_dtype_t
 *   const  a named small array of doubles (gam, qinf, ...)
 *
 * The structs below are plain and public: kernels, partitioners and halo
 * builders read (and may rewrite) their fields directly. They are owned by
 * an opaque tsr_mesh_t; ids are small integers in the order of addition and
 * never change. Every data array a mesh holds was allocated with malloc and
 * is released with free() by tsr_mesh_destroy; code that replaces an array
 * (e.g. the halo module renumbering a map) frees the old one and stores a
 * malloc'd one.
 *
 * Distribution (tsr_mesh_dist_t), recorded per mesh:
 *  - TSR_MESH_SERIAL: each set holds all of its rows;
 *    size == global_size, offset == 0. Map targets are indices in [0, to.size).
 *  - TSR_MESH_BLOCK: as read from a file by several ranks: each rank holds
 *    a contiguous block of rows of every set, rows [offset, offset + size)
 *    of global_size, with blocks given by tsr_mesh_block_rows(). Maps hold
 *    GLOBAL target indices in [0, to.global_size) (the target row usually
 *    lives on another rank). Dats hold the local rows.
 *  - TSR_MESH_PARTITIONED: local numbering after partitioning (built by the
 *    halo module): a set's local rows are ordered
 *      [0, owned)                         core + owned elements,
 *      [owned, owned + exec_halo)         executed halo (redundant compute),
 *      [.. , size = owned+exec+nonexec)   non-executed halo (read only);
 *    global_id[size] gives each local row's global index, and map targets
 *    are LOCAL indices in [0, to.size).
 *  For SERIAL and BLOCK meshes owned == size, exec_halo == nonexec_halo == 0
 *  and global_id == NULL.
 */
#ifndef TESSERA_MESH_H
#define TESSERA_MESH_H

#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_NAME_MAX 64 /* names include the terminating NUL */

typedef enum { TSR_MESH_SERIAL = 0, TSR_MESH_BLOCK, TSR_MESH_PARTITIONED } tsr_mesh_dist_t;

/* How an add function treats the caller's array. */
typedef enum {
  TSR_COPY = 0, /* the mesh copies the data; the caller keeps its array  */
  TSR_ADOPT     /* the mesh takes the (malloc'd) array and will free() it */
} tsr_own_t;

typedef struct {
  char name[TSR_NAME_MAX];
  tsr_idx_t size;        /* local rows held on this rank                    */
  tsr_idx_t global_size; /* rows of the whole set over all ranks            */
  tsr_idx_t offset;      /* BLOCK: global index of local row 0; else 0      */
  /* PARTITIONED only (else owned == size, the others 0 / NULL): */
  tsr_idx_t owned;        /* rows this rank owns (core + boundary)         */
  tsr_idx_t exec_halo;    /* halo rows that are executed redundantly       */
  tsr_idx_t nonexec_halo; /* halo rows that are only read                  */
  int64_t *global_id;     /* [size] global index of each local row, or NULL */
} tsr_set_t;

typedef struct {
  char name[TSR_NAME_MAX];
  int from, to;  /* set ids                                               */
  int dim;       /* arity (>= 1)                                          */
  int32_t *data; /* [mesh set(from).size][dim] target indices, see above  */
} tsr_map_t;

typedef struct {
  char name[TSR_NAME_MAX];
  int set;          /* set id                                             */
  int dim;          /* components per element (>= 1)                     */
  tsr_dtype_t type; /* element type                                       */
  void *data;       /* [set.size][dim] of type                            */
} tsr_dat_t;

typedef struct {
  char name[TSR_NAME_MAX];
  int dim;      /* number of values (>= 1) */
  double *data; /* [dim]                   */
} tsr_const_t;

/* Inverse of a map in CSR form: for target t, entries
 * offsets[t] .. offsets[t+1]-1 list the (elem, corner) pairs with
 * map[elem][corner] == t, in increasing order of elem then corner. */
typedef struct {
  tsr_idx_t n;        /* number of targets                          */
  tsr_idx_t *offsets; /* [n + 1]                                    */
  int32_t *elem;      /* [offsets[n]] source element (row of map)   */
  int32_t *corner;    /* [offsets[n]] column k of map[elem][k]      */
} tsr_csr_t;

typedef struct tsr_mesh tsr_mesh_t;

/* ---- lifetime ---------------------------------------------------------- */
int tsr_mesh_create(tsr_mesh_t **out); /* an empty SERIAL mesh */
int tsr_mesh_destroy(tsr_mesh_t **mesh); /* frees everything; *mesh = NULL; NULL ok */

tsr_mesh_dist_t tsr_mesh_dist(const tsr_mesh_t *mesh);
/* Declare how the mesh is distributed (see above); the caller is responsible
 * for the fields matching the declaration (tsr_mesh_validate checks). */
int tsr_mesh_set_dist(tsr_mesh_t *mesh, tsr_mesh_dist_t dist);

/* ---- building ---------------------------------------------------------- */
/* Names must be non-empty, shorter than TSR_NAME_MAX and unique within their
 * kind (a set and a map may share a name, two maps may not). The new id is
 * stored in *id when id is non-NULL. */

/* A whole set (SERIAL): size == global_size, offset 0. size >= 0. */
int tsr_mesh_add_set(tsr_mesh_t *mesh, const char *name, tsr_idx_t size, int *id);
/* A block of a set (BLOCK): local rows [offset, offset + count) of global_size. */
int tsr_mesh_add_set_block(tsr_mesh_t *mesh, const char *name, tsr_idx_t global_size,
                           tsr_idx_t offset, tsr_idx_t count, int *id);
/* data: [from.size][dim] int32, or NULL for zero-filled storage to be filled by
 * the caller. With TSR_ADOPT the array becomes the mesh's (malloc'd, freed by
 * the mesh); with TSR_COPY it is copied. Indices are not checked here
 * (tsr_mesh_validate does). */
int tsr_mesh_add_map(tsr_mesh_t *mesh, const char *name, int from, int to, int dim,
                     int32_t *data, tsr_own_t own, int *id);
/* data: [set.size][dim] of type, or NULL for zero-filled; own as for maps. */
int tsr_mesh_add_dat(tsr_mesh_t *mesh, const char *name, int set, int dim, tsr_dtype_t type,
                     void *data, tsr_own_t own, int *id);
/* data: [dim] doubles, always copied. */
int tsr_mesh_add_const(tsr_mesh_t *mesh, const char *name, int dim, const double *data,
                       int *id);

/* ---- lookup ------------------------------------------------------------ */
int tsr_mesh_nsets(const tsr_mesh_t *mesh);
int tsr_mesh_nmaps(const tsr_mesh_t *mesh);
int tsr_mesh_ndats(const tsr_mesh_t *mesh);
int tsr_mesh_nconsts(const tsr_mesh_t *mesh);
/* id of the object with that name, or -1 */
int tsr_mesh_find_set(const tsr_mesh_t *mesh, const char *name);
int tsr_mesh_find_map(const tsr_mesh_t *mesh, const char *name);
int tsr_mesh_find_dat(const tsr_mesh_t *mesh, const char *name);
int tsr_mesh_find_const(const tsr_mesh_t *mesh, const char *name);
/* the object with that id, or NULL when id is out of range; the pointers stay
 * valid until the next add of the same kind or destroy */
tsr_set_t *tsr_mesh_set(const tsr_mesh_t *mesh, int id);
tsr_map_t *tsr_mesh_map(const tsr_mesh_t *mesh, int id);
tsr_dat_t *tsr_mesh_dat(const tsr_mesh_t *mesh, int id);
tsr_const_t *tsr_mesh_const(const tsr_mesh_t *mesh, int id);

/* ---- checks and transformations --------------------------------------- */
/* Every set's counts are consistent with the distribution and every map
 * index is in range ([0, to.size) for SERIAL and PARTITIONED meshes,
 * [0, to.global_size) for BLOCK). Raises TSR_ERR_RANGE naming the map, the
 * row, the value and the range of the first bad index. Local (not
 * collective). */
int tsr_mesh_validate(const tsr_mesh_t *mesh);

/* Inverse of map (targets in [0, to_size)) into *csr; free with
 * tsr_csr_free. Raises TSR_ERR_RANGE if a target is out of range. */
int tsr_map_inverse(const tsr_map_t *map, tsr_idx_t from_size, tsr_idx_t to_size,
                    tsr_csr_t *csr);
void tsr_csr_free(tsr_csr_t *csr);

/* Renumber set `set`: element old becomes element perm[old] (perm has
 * set.size entries and must be a permutation of [0, size)). Rows of every
 * map from the set and of every dat on it move with their element, targets
 * of every map to the set are renumbered, and global_id (if any) moves with
 * its row. SERIAL or PARTITIONED meshes only (in a BLOCK mesh targets are
 * global). Raises TSR_ERR_ARG if perm is not a permutation. */
int tsr_mesh_permute(tsr_mesh_t *mesh, int set, const tsr_idx_t *perm);

/* The contiguous row block of rank `rank` out of nranks for n rows:
 * the first n % nranks ranks get one row more. Shared by every reader. */
static inline void tsr_mesh_block_rows(tsr_idx_t n, int nranks, int rank, tsr_idx_t *first,
                                       tsr_idx_t *count) {
  tsr_idx_t q = n / nranks, r = n % nranks;
  *count = q + (rank < r ? 1 : 0);
  *first = q * rank + (rank < r ? rank : r);
}

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_MESH_H */
