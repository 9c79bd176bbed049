/* part_internal.h: helpers shared by part_mesh*.c (not installed).
 *
 * tsr__msg_t: one all-to-all round of int64 words. Count what goes to each
 * rank (tsr__msg_count), allocate, append (tsr__msg_put) in the same order,
 * then tsr__msg_send delivers: the receiver's cnt[q]/off[q] give the words
 * that came from rank q. */
#ifndef TSR_PART_INTERNAL_H
#define TSR_PART_INTERNAL_H

#include <mpi.h>
#include "tessera/common.h"
#include "tessera/mesh.h"
#include "tessera/part.h"

typedef struct {
  int size;
  int *cnt;      /* [size] words to / from each rank */
  int *off;      /* [size] displacements */
  int *fill;     /* [size] append cursor (send side) */
  int64_t *buf;
} tsr__msg_t;

int tsr__msg_init(tsr__msg_t *m, int size);
static inline void tsr__msg_count(tsr__msg_t *m, int dest, int words) { m->cnt[dest] += words; }
int tsr__msg_alloc(tsr__msg_t *m);
static inline void tsr__msg_put(tsr__msg_t *m, int dest, int64_t w) {
  m->buf[m->fill[dest]++] = w;
}
/* Collective: sends *s, fills *r (initialised inside). */
int tsr__msg_send(MPI_Comm comm, tsr__msg_t *s, tsr__msg_t *r);
void tsr__msg_free(tsr__msg_t *m);
static inline tsr_idx_t tsr__msg_total(const tsr__msg_t *m) {
  return m->size ? (tsr_idx_t)m->off[m->size - 1] + m->cnt[m->size - 1] : 0;
}

/* Sorted lookup table gid -> local index. */
typedef struct {
  tsr_idx_t n;
  int64_t *gid;    /* [n] ascending */
  tsr_idx_t *loc;  /* [n] */
} tsr__lookup_t;
int tsr__lookup_build(tsr__lookup_t *t, const int64_t *gid, tsr_idx_t n);
tsr_idx_t tsr__lookup_find(const tsr__lookup_t *t, int64_t g); /* -1 if absent */
void tsr__lookup_free(tsr__lookup_t *t);

int tsr__cmp_i64(const void *a, const void *b);

/* The input mesh seen as block-distributed (a SERIAL mesh is viewed through
 * this rank's block of rows; maps hold global targets either way), with the
 * owner rank of every block row once decided. */
typedef struct {
  MPI_Comm comm;
  int size, rank;
  const tsr_mesh_t *m;
  int nsets, nmaps, ndats, serial;
  tsr_idx_t *lo, *n, *gn; /* [nsets] first block row, block rows, global rows */
  int **owner;            /* [nsets][n[s]] owner rank, -1 undecided */
} tsr__view_t;

int tsr__view_init(MPI_Comm comm, const tsr_mesh_t *m, tsr__view_t *v);
void tsr__view_free(tsr__view_t *v);
const int32_t *tsr__view_map(const tsr__view_t *v, int map); /* this rank's block rows */
const char *tsr__view_dat(const tsr__view_t *v, int dat);
int tsr__view_block_owner(const tsr__view_t *v, int set, int64_t g);
int tsr__fetch_owner(tsr__view_t *v, int set, tsr_idx_t nq, const int32_t *gids, int *out);
/* CSR adjacency of this rank's block rows of pset in the graph map gmap
 * induces (part_mesh.c): deg[v->n[pset]], adj[*nadj] global neighbours,
 * sorted per row, no repeats or self loops, symmetric. Collective. */
int tsr__graph_csr(tsr__view_t *v, int pset, int gmap, int **deg, int64_t **adj,
                   tsr_idx_t *nadj);
/* v->owner[pset] from PT-Scotch on the block-distributed graph
 * (part_mesh_ptscotch.c). Collective; errors are agreed. */
int tsr__partition_ptscotch(tsr__view_t *v, int pset, int gmap);
/* Decide v->owner for every set (part_mesh.c). */
int tsr__mesh_owners(tsr__view_t *v, const tsr_mesh_part_opts_t *o, int pset);

#endif
