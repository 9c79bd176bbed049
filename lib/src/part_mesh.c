/* part_mesh.c: partitioning an unstructured mesh, phase 1: the block view
 * of the input, the graph a map induces on the partitioned set, the METIS
 * k-way partition (serial, on rank 0), and the owners of every other set
 * (propagated through maps). The PT-Scotch partition (parallel, on the
 * block-distributed graph) is in part_mesh_ptscotch.c; phase 2 (migration,
 * halos, local numbering) is in part_mesh_build.c. */
#include "config.h"
#include "tessera/part.h"
#include "tessera/error.h"
#include "tessera/graph.h"
#include "part_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ messages */

int tsr__msg_init(tsr__msg_t *m, int size) {
  memset(m, 0, sizeof *m);
  m->size = size;
  m->cnt = calloc((size_t)size * 3, sizeof *m->cnt);
  TSR_CHECK(m->cnt, TSR_ERR_ALLOC, "partition: cannot allocate message counts for %d ranks", size);
  m->off = m->cnt + size;
  m->fill = m->off + size;
  return TSR_SUCCESS;
}

int tsr__msg_alloc(tsr__msg_t *m) {
  long long total = 0;
  for (int q = 0; q < m->size; q++) {
    TSR_CHECK(total <= INT_MAX, TSR_ERR_UNSUPPORTED,
              "partition: a message of more than %d words; partition with more ranks", INT_MAX);
    m->off[q] = (int)total;
    m->fill[q] = (int)total;
    total += m->cnt[q];
  }
  TSR_CHECK(total <= INT_MAX, TSR_ERR_UNSUPPORTED,
            "partition: a message of %lld words exceeds MPI's int count", total);
  m->buf = malloc((size_t)(total > 0 ? total : 1) * sizeof *m->buf);
  TSR_CHECK(m->buf, TSR_ERR_ALLOC, "partition: cannot allocate %lld message words", total);
  return TSR_SUCCESS;
}

int tsr__msg_send(MPI_Comm comm, tsr__msg_t *s, tsr__msg_t *r) {
  TSR_CALL(tsr__msg_init(r, s->size));
  TSR_CALL_MPI(MPI_Alltoall(s->cnt, 1, MPI_INT, r->cnt, 1, MPI_INT, comm));
  TSR_CALL(tsr__msg_alloc(r));
  TSR_CALL_MPI(MPI_Alltoallv(s->buf, s->cnt, s->off, MPI_INT64_T, r->buf, r->cnt, r->off,
                             MPI_INT64_T, comm));
  return TSR_SUCCESS;
}

void tsr__msg_free(tsr__msg_t *m) {
  free(m->cnt);
  free(m->buf);
  memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------ lookup */

int tsr__cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

typedef struct {
  int64_t g;
  tsr_idx_t l;
} pair_t;
static int cmp_pair(const void *a, const void *b) {
  return tsr__cmp_i64(&((const pair_t *)a)->g, &((const pair_t *)b)->g);
}

int tsr__lookup_build(tsr__lookup_t *t, const int64_t *gid, tsr_idx_t n) {
  memset(t, 0, sizeof *t);
  pair_t *p = malloc((size_t)(n > 0 ? n : 1) * sizeof *p);
  t->gid = malloc((size_t)(n > 0 ? n : 1) * sizeof *t->gid);
  t->loc = malloc((size_t)(n > 0 ? n : 1) * sizeof *t->loc);
  if (!p || !t->gid || !t->loc) {
    free(p);
    tsr__lookup_free(t);
    return TSR_RAISE(TSR_ERR_ALLOC, "partition: cannot allocate a lookup of %lld ids", (long long)n);
  }
  for (tsr_idx_t i = 0; i < n; i++) {
    p[i].g = gid[i];
    p[i].l = i;
  }
  qsort(p, (size_t)n, sizeof *p, cmp_pair);
  for (tsr_idx_t i = 0; i < n; i++) {
    t->gid[i] = p[i].g;
    t->loc[i] = p[i].l;
  }
  t->n = n;
  free(p);
  return TSR_SUCCESS;
}

tsr_idx_t tsr__lookup_find(const tsr__lookup_t *t, int64_t g) {
  tsr_idx_t lo = 0, hi = t->n;
  while (lo < hi) {
    tsr_idx_t mid = lo + (hi - lo) / 2;
    if (t->gid[mid] < g) lo = mid + 1;
    else hi = mid;
  }
  return lo < t->n && t->gid[lo] == g ? t->loc[lo] : -1;
}

void tsr__lookup_free(tsr__lookup_t *t) {
  free(t->gid);
  free(t->loc);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ block view */

int tsr__view_init(MPI_Comm comm, const tsr_mesh_t *m, tsr__view_t *v) {
  memset(v, 0, sizeof *v);
  v->comm = comm;
  v->m = m;
  TSR_CALL_MPI(MPI_Comm_size(comm, &v->size));
  TSR_CALL_MPI(MPI_Comm_rank(comm, &v->rank));
  tsr_mesh_dist_t d = tsr_mesh_dist(m);
  TSR_CHECK(d == TSR_MESH_SERIAL || d == TSR_MESH_BLOCK, TSR_ERR_ARG,
            "partition: the mesh is already partitioned; give a serial or block-distributed mesh");
  v->serial = d == TSR_MESH_SERIAL;
  v->nsets = tsr_mesh_nsets(m);
  v->nmaps = tsr_mesh_nmaps(m);
  v->ndats = tsr_mesh_ndats(m);
  int ns = v->nsets > 0 ? v->nsets : 1;
  v->lo = calloc((size_t)ns * 3, sizeof *v->lo);
  v->owner = calloc((size_t)ns, sizeof *v->owner);
  TSR_CHECK(v->lo && v->owner, TSR_ERR_ALLOC, "partition: cannot allocate the set table");
  v->n = v->lo + ns;
  v->gn = v->n + ns;
  for (int s = 0; s < v->nsets; s++) {
    const tsr_set_t *set = tsr_mesh_set(m, s);
    v->gn[s] = set->global_size;
    tsr_mesh_block_rows(set->global_size, v->size, v->rank, &v->lo[s], &v->n[s]);
    if (!v->serial)
      TSR_CHECK(set->offset == v->lo[s] && set->size == v->n[s], TSR_ERR_ARG,
                "partition: set '%s' holds rows [%lld, %lld) on rank %d, expected the block "
                "[%lld, %lld) of %lld rows over %d ranks (tsr_mesh_block_rows)",
                set->name, (long long)set->offset, (long long)(set->offset + set->size), v->rank,
                (long long)v->lo[s], (long long)(v->lo[s] + v->n[s]), (long long)v->gn[s],
                v->size);
    v->owner[s] = malloc((size_t)(v->n[s] > 0 ? v->n[s] : 1) * sizeof **v->owner);
    TSR_CHECK(v->owner[s], TSR_ERR_ALLOC, "partition: cannot allocate owners of set '%s'",
              set->name);
    for (tsr_idx_t i = 0; i < v->n[s]; i++) v->owner[s][i] = -1;
  }
  return TSR_SUCCESS;
}

void tsr__view_free(tsr__view_t *v) {
  if (v->owner)
    for (int s = 0; s < v->nsets; s++) free(v->owner[s]);
  free(v->owner);
  free(v->lo);
  memset(v, 0, sizeof *v);
}

const int32_t *tsr__view_map(const tsr__view_t *v, int map) {
  const tsr_map_t *mp = tsr_mesh_map(v->m, map);
  return mp->data + (v->serial ? v->lo[mp->from] * mp->dim : 0);
}

const char *tsr__view_dat(const tsr__view_t *v, int dat) {
  const tsr_dat_t *d = tsr_mesh_dat(v->m, dat);
  size_t row = (size_t)d->dim * tsr_dtype_size(d->type);
  return (const char *)d->data + (v->serial ? (size_t)v->lo[d->set] * row : 0);
}

int tsr__view_block_owner(const tsr__view_t *v, int set, int64_t g) {
  return tsr_part_block_owner(v->gn[set], v->size, g);
}

/* Owners of the global rows gids[nq] of `set`, asked of the ranks holding
 * their blocks. Collective. */
int tsr__fetch_owner(tsr__view_t *v, int set, tsr_idx_t nq, const int32_t *gids, int *out) {
  tsr__msg_t q, qr, a, ar;
  TSR_CALL(tsr__msg_init(&q, v->size));
  for (tsr_idx_t i = 0; i < nq; i++) tsr__msg_count(&q, tsr__view_block_owner(v, set, gids[i]), 1);
  TSR_CALL(tsr__msg_alloc(&q));
  for (tsr_idx_t i = 0; i < nq; i++) tsr__msg_put(&q, tsr__view_block_owner(v, set, gids[i]), gids[i]);
  TSR_CALL(tsr__msg_send(v->comm, &q, &qr));
  /* answer in place, in the order asked */
  TSR_CALL(tsr__msg_init(&a, v->size));
  for (int r = 0; r < v->size; r++) a.cnt[r] = qr.cnt[r];
  TSR_CALL(tsr__msg_alloc(&a));
  for (int r = 0; r < v->size; r++)
    for (int k = 0; k < qr.cnt[r]; k++)
      tsr__msg_put(&a, r, v->owner[set][qr.buf[qr.off[r] + k] - v->lo[set]]);
  TSR_CALL(tsr__msg_send(v->comm, &a, &ar));
  for (int r = 0; r < v->size; r++) q.fill[r] = q.off[r];
  for (tsr_idx_t i = 0; i < nq; i++) {
    int r = tsr__view_block_owner(v, set, gids[i]);
    out[i] = (int)ar.buf[q.fill[r]++];
  }
  tsr__msg_free(&q);
  tsr__msg_free(&qr);
  tsr__msg_free(&a);
  tsr__msg_free(&ar);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ graph */

typedef struct {
  int64_t a, b;
} edge_t;
static int cmp_edge(const void *x, const void *y) {
  const edge_t *p = x, *q = y;
  if (p->a != q->a) return (p->a > q->a) - (p->a < q->a);
  return (p->b > q->b) - (p->b < q->b);
}

static void put_pair(tsr__msg_t *m, const tsr__view_t *v, int pset, int64_t p, int64_t q,
                     int counting) {
  int r = tsr__view_block_owner(v, pset, p);
  if (counting) {
    tsr__msg_count(m, r, 2);
  } else {
    tsr__msg_put(m, r, p);
    tsr__msg_put(m, r, q);
  }
}

/* Adjacency (p, q) pairs of the partitioned set, sent to p's block rank. */
static int graph_pairs(tsr__view_t *v, int pset, int gmap, tsr__msg_t *out) {
  const tsr_map_t *g = tsr_mesh_map(v->m, gmap);
  const int32_t *rows = tsr__view_map(v, gmap);
  tsr_idx_t nrow = v->n[g->from];
  int dim = g->dim;
  tsr__msg_t s;
  if (g->from == pset && g->to != pset) {
    /* elements sharing a target: group (target, element) at the target's block rank */
    tsr__msg_t t, tr;
    TSR_CALL(tsr__msg_init(&t, v->size));
    for (tsr_idx_t i = 0; i < nrow * dim; i++)
      tsr__msg_count(&t, tsr__view_block_owner(v, g->to, rows[i]), 2);
    TSR_CALL(tsr__msg_alloc(&t));
    for (tsr_idx_t i = 0; i < nrow * dim; i++) {
      int r = tsr__view_block_owner(v, g->to, rows[i]);
      tsr__msg_put(&t, r, rows[i]);
      tsr__msg_put(&t, r, v->lo[pset] + i / dim);
    }
    TSR_CALL(tsr__msg_send(v->comm, &t, &tr));
    tsr__msg_free(&t);
    tsr_idx_t ne = tsr__msg_total(&tr) / 2;
    edge_t *e = malloc((size_t)(ne > 0 ? ne : 1) * sizeof *e);
    TSR_CHECK(e, TSR_ERR_ALLOC, "partition: cannot allocate %lld graph entries", (long long)ne);
    for (tsr_idx_t i = 0; i < ne; i++) {
      e[i].a = tr.buf[2 * i];
      e[i].b = tr.buf[2 * i + 1];
    }
    tsr__msg_free(&tr);
    qsort(e, (size_t)ne, sizeof *e, cmp_edge);
    TSR_CALL(tsr__msg_init(&s, v->size));
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1) TSR_CALL(tsr__msg_alloc(&s));
      for (tsr_idx_t i = 0, j; i < ne; i = j) {
        for (j = i; j < ne && e[j].a == e[i].a; j++) {}
        for (tsr_idx_t x = i; x < j; x++)
          for (tsr_idx_t y = i; y < j; y++)
            if (e[x].b != e[y].b) put_pair(&s, v, pset, e[x].b, e[y].b, pass == 0);
      }
    }
    free(e);
  } else if (g->to == pset) {
    /* elements joined by a row of the map (both ends in pset: p -> q and q -> p) */
    TSR_CALL(tsr__msg_init(&s, v->size));
    for (int pass = 0; pass < 2; pass++) {
      if (pass == 1) TSR_CALL(tsr__msg_alloc(&s));
      for (tsr_idx_t a = 0; a < nrow; a++) {
        const int32_t *row = rows + a * dim;
        if (g->from == pset) {
          int64_t p = v->lo[pset] + a;
          for (int k = 0; k < dim; k++)
            if (row[k] != p) {
              put_pair(&s, v, pset, p, row[k], pass == 0);
              put_pair(&s, v, pset, row[k], p, pass == 0);
            }
        } else {
          for (int x = 0; x < dim; x++)
            for (int y = 0; y < dim; y++)
              if (row[x] != row[y]) put_pair(&s, v, pset, row[x], row[y], pass == 0);
        }
      }
    }
  } else {
    return TSR_RAISE(TSR_ERR_ARG,
                     "partition: map '%s' (%s -> %s) does not touch set '%s', so it cannot "
                     "define that set's graph",
                     g->name, tsr_mesh_set(v->m, g->from)->name, tsr_mesh_set(v->m, g->to)->name,
                     tsr_mesh_set(v->m, pset)->name);
  }
  TSR_CALL(tsr__msg_send(v->comm, &s, out));
  tsr__msg_free(&s);
  return TSR_SUCCESS;
}

/* CSR adjacency (global numbering, sorted, no repeats, no self loops,
 * symmetric) of this rank's block rows of pset. Collective. */
int tsr__graph_csr(tsr__view_t *v, int pset, int gmap, int **deg, int64_t **adj,
                   tsr_idx_t *nadj) {
  tsr__msg_t r;
  TSR_CALL(graph_pairs(v, pset, gmap, &r));
  tsr_idx_t ne = tsr__msg_total(&r) / 2, n = v->n[pset];
  edge_t *e = malloc((size_t)(ne > 0 ? ne : 1) * sizeof *e);
  *deg = calloc((size_t)(n > 0 ? n : 1), sizeof **deg);
  *adj = malloc((size_t)(ne > 0 ? ne : 1) * sizeof **adj);
  TSR_CHECK(e && *deg && *adj, TSR_ERR_ALLOC, "partition: cannot allocate %lld graph edges",
            (long long)ne);
  for (tsr_idx_t i = 0; i < ne; i++) {
    e[i].a = r.buf[2 * i];
    e[i].b = r.buf[2 * i + 1];
  }
  tsr__msg_free(&r);
  qsort(e, (size_t)ne, sizeof *e, cmp_edge);
  tsr_idx_t m = 0;
  for (tsr_idx_t i = 0; i < ne; i++) {
    if (i > 0 && e[i].a == e[i - 1].a && e[i].b == e[i - 1].b) continue;
    (*deg)[e[i].a - v->lo[pset]]++;
    (*adj)[m++] = e[i].b;
  }
  *nadj = m;
  free(e);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ METIS */

/* Gather the graph on rank 0, partition it there, scatter the parts: rank 0
 * holds the whole graph (and METIS' copies of it), so its peak memory does
 * not fall with the rank count; PT-Scotch (part_mesh_ptscotch.c) does. */
static int partition_metis(tsr__view_t *v, int pset, int gmap) {
  int *deg = NULL;
  int64_t *adj = NULL;
  tsr_idx_t nadj = 0;
  TSR_CALL(tsr__graph_csr(v, pset, gmap, &deg, &adj, &nadj));
  int size = v->size, root = v->rank == 0;
  tsr_idx_t gn = v->gn[pset];
  int *rows = calloc((size_t)size * 4, sizeof *rows);
  TSR_CHECK(rows, TSR_ERR_ALLOC, "partition: cannot allocate counts for %d ranks", size);
  int *rowoff = rows + size, *acnt = rowoff + size, *aoff = acnt + size;
  for (int r = 0; r < size; r++) {
    tsr_idx_t lo, n;
    tsr_mesh_block_rows(gn, size, r, &lo, &n);
    rows[r] = (int)n;
    rowoff[r] = (int)lo;
  }
  TSR_CHECK(nadj <= INT_MAX, TSR_ERR_UNSUPPORTED,
            "partition: %lld graph edges on one rank exceed an int count", (long long)nadj);
  int mine = (int)nadj;
  TSR_CALL_MPI(MPI_Gather(&mine, 1, MPI_INT, acnt, 1, MPI_INT, 0, v->comm));
  long long total = 0;
  if (root)
    for (int r = 0; r < size; r++) {
      aoff[r] = (int)total;
      total += acnt[r];
    }
  int err = TSR_SUCCESS;
  if (root && (total > INT_MAX || gn > (tsr_idx_t)INT_MAX))
    err = TSR_RAISE(TSR_ERR_UNSUPPORTED,
                    "partition: the graph of set '%s' (%lld vertices, %lld edges) is too large "
                    "for serial METIS with int counts",
                    tsr_mesh_set(v->m, pset)->name, (long long)gn, total);
  TSR_CALL(tsr_error_agree(v->comm, err));
  int *gdeg = root ? malloc((size_t)(gn > 0 ? gn : 1) * sizeof *gdeg) : NULL;
  int64_t *gadj = root ? malloc((size_t)(total > 0 ? total : 1) * sizeof *gadj) : NULL;
  int *part = root ? malloc((size_t)(gn > 0 ? gn : 1) * sizeof *part) : NULL;
  err = root && !(gdeg && gadj && part)
            ? TSR_RAISE(TSR_ERR_ALLOC, "partition: cannot gather a graph of %lld edges", total)
            : TSR_SUCCESS;
  TSR_CALL(tsr_error_agree(v->comm, err));
  TSR_CALL_MPI(MPI_Gatherv(deg, rows[v->rank], MPI_INT, gdeg, rows, rowoff, MPI_INT, 0, v->comm));
  TSR_CALL_MPI(MPI_Gatherv(adj, mine, MPI_INT64_T, gadj, acnt, aoff, MPI_INT64_T, 0, v->comm));
  free(deg);
  free(adj);
  if (root) {
    tsr_graph_t g;
    char what[TSR_NAME_MAX + 32];
    snprintf(what, sizeof what, "the graph of set '%s'", tsr_mesh_set(v->m, pset)->name);
    err = tsr_graph_from_csr(gn, gdeg, gadj, &g);
    if (!err) err = tsr_graph_partition(&g, size, 7 /* reproducible partitions */, 0, what, part);
    tsr_graph_free(&g);
  }
  free(gdeg);
  free(gadj);
  err = tsr_error_agree(v->comm, err);
  if (!err && MPI_Scatterv(part, rows, rowoff, MPI_INT, v->owner[pset], rows[v->rank], MPI_INT,
                           0, v->comm) != MPI_SUCCESS)
    err = TSR_RAISE(TSR_ERR_MPI, "partition: MPI_Scatterv of the part vector failed");
  free(part);
  free(rows);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ owners */

/* Rows of `from` take the owner of their first target (edges -> their first cell). */
static int owners_from_first_target(tsr__view_t *v, int map) {
  const tsr_map_t *mp = tsr_mesh_map(v->m, map);
  const int32_t *rows = tsr__view_map(v, map);
  tsr_idx_t n = v->n[mp->from];
  int32_t *first = malloc((size_t)(n > 0 ? n : 1) * sizeof *first);
  TSR_CHECK(first, TSR_ERR_ALLOC, "partition: cannot allocate %lld ids", (long long)n);
  for (tsr_idx_t i = 0; i < n; i++) first[i] = rows[i * mp->dim];
  int err = tsr__fetch_owner(v, mp->to, n, first, v->owner[mp->from]);
  free(first);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

/* Rows of `to` take the owner of the lowest-numbered `from` row that
 * reaches them (nodes -> their first incident cell); rows no map entry
 * reaches stay with the rank holding their block. */
static int owners_from_first_source(tsr__view_t *v, int map) {
  const tsr_map_t *mp = tsr_mesh_map(v->m, map);
  const int32_t *rows = tsr__view_map(v, map);
  tsr_idx_t n = v->n[mp->from], nt = v->n[mp->to];
  tsr__msg_t s, r;
  TSR_CALL(tsr__msg_init(&s, v->size));
  for (tsr_idx_t i = 0; i < n * mp->dim; i++)
    tsr__msg_count(&s, tsr__view_block_owner(v, mp->to, rows[i]), 3);
  TSR_CALL(tsr__msg_alloc(&s));
  for (tsr_idx_t i = 0; i < n * mp->dim; i++) {
    int q = tsr__view_block_owner(v, mp->to, rows[i]);
    tsr__msg_put(&s, q, rows[i]);
    tsr__msg_put(&s, q, v->lo[mp->from] + i / mp->dim);
    tsr__msg_put(&s, q, v->owner[mp->from][i / mp->dim]);
  }
  TSR_CALL(tsr__msg_send(v->comm, &s, &r));
  tsr__msg_free(&s);
  int64_t *best = malloc((size_t)(nt > 0 ? nt : 1) * sizeof *best);
  TSR_CHECK(best, TSR_ERR_ALLOC, "partition: cannot allocate %lld ids", (long long)nt);
  for (tsr_idx_t i = 0; i < nt; i++) {
    best[i] = INT64_MAX;
    v->owner[mp->to][i] = v->rank;
  }
  for (tsr_idx_t k = 0; k < tsr__msg_total(&r); k += 3) {
    tsr_idx_t t = r.buf[k] - v->lo[mp->to];
    if (r.buf[k + 1] < best[t]) {
      best[t] = r.buf[k + 1];
      v->owner[mp->to][t] = (int)r.buf[k + 2];
    }
  }
  free(best);
  tsr__msg_free(&r);
  return TSR_SUCCESS;
}

int tsr__mesh_owners(tsr__view_t *v, const tsr_mesh_part_opts_t *o, int pset) {
  int gmap = -1;
  int graph = o->method == TSR_PARTITIONER_METIS || o->method == TSR_PARTITIONER_PTSCOTCH;
  const char *who = o->method == TSR_PARTITIONER_METIS ? "METIS" : "PT-Scotch";
#ifndef TSR_HAVE_PTSCOTCH
  TSR_CHECK(o->method != TSR_PARTITIONER_PTSCOTCH, TSR_ERR_UNSUPPORTED,
            "partition: method PTSCOTCH asked for set '%s', but Tessera was built without "
            "PT-Scotch (configure --with-ptscotch)", tsr_mesh_set(v->m, pset)->name);
#endif
  TSR_CHECK(graph || o->method == TSR_PARTITIONER_BLOCK || o->method == TSR_PARTITIONER_GIVEN,
            TSR_ERR_ARG, "partition: unknown method %d for set '%s'", (int)o->method,
            tsr_mesh_set(v->m, pset)->name);
  if (graph) {
    TSR_CHECK(o->map, TSR_ERR_ARG, "partition: %s needs a map that defines the graph of set '%s'",
              who, tsr_mesh_set(v->m, pset)->name);
    gmap = tsr_mesh_find_map(v->m, o->map);
    TSR_CHECK(gmap >= 0, TSR_ERR_ARG, "partition: the mesh has no map '%s'", o->map);
    const tsr_map_t *g = tsr_mesh_map(v->m, gmap);
    TSR_CHECK(g->from == pset || g->to == pset, TSR_ERR_ARG,
              "partition: map '%s' (%s -> %s) does not touch set '%s', so it cannot define that "
              "set's graph", g->name, tsr_mesh_set(v->m, g->from)->name,
              tsr_mesh_set(v->m, g->to)->name, tsr_mesh_set(v->m, pset)->name);
  }
  /* every rank takes the same branches: errors from here on are collective */
  int err = TSR_SUCCESS;
  switch (o->method) {
    case TSR_PARTITIONER_METIS:
      if (v->size == 1)
        for (tsr_idx_t i = 0; i < v->n[pset]; i++) v->owner[pset][i] = 0;
      else
        err = partition_metis(v, pset, gmap);
      break;
    case TSR_PARTITIONER_PTSCOTCH:
#ifdef TSR_HAVE_PTSCOTCH
      if (v->size == 1)
        for (tsr_idx_t i = 0; i < v->n[pset]; i++) v->owner[pset][i] = 0;
      else
        err = tsr__partition_ptscotch(v, pset, gmap);
#endif
      break;
    case TSR_PARTITIONER_BLOCK:
      for (tsr_idx_t i = 0; i < v->n[pset]; i++) v->owner[pset][i] = v->rank;
      break;
    case TSR_PARTITIONER_GIVEN:
      for (tsr_idx_t i = 0; i < v->n[pset] && !err; i++) {
        if (o->part[i] < 0 || o->part[i] >= v->size)
          err = TSR_RAISE(TSR_ERR_ARG, "partition: part[%lld] = %d on rank %d is not a rank of "
                          "the %d-rank communicator", (long long)i, o->part[i], v->rank, v->size);
        else
          v->owner[pset][i] = o->part[i];
      }
      break;
  }
  TSR_CALL(tsr_error_agree(v->comm, err));
  /* propagate through maps until every set has owners */
  int *known = calloc((size_t)(v->nsets > 0 ? v->nsets : 1), sizeof *known);
  TSR_CHECK(known, TSR_ERR_ALLOC, "partition: cannot allocate %d flags", v->nsets);
  known[pset] = 1;
  for (;;) {
    int done = 0;
    for (int i = 0; i < v->nmaps && !done; i++) { /* edges take their first cell's owner */
      const tsr_map_t *mp = tsr_mesh_map(v->m, i);
      if (known[mp->to] && !known[mp->from]) {
        TSR_CALL(owners_from_first_target(v, i));
        known[mp->from] = done = 1;
      }
    }
    for (int pref = 1; pref >= 0 && !done; pref--) /* nodes: their first cell (maps from pset first) */
      for (int i = 0; i < v->nmaps && !done; i++) {
        const tsr_map_t *mp = tsr_mesh_map(v->m, i);
        if ((mp->from == pset) == pref && known[mp->from] && !known[mp->to]) {
          TSR_CALL(owners_from_first_source(v, i));
          known[mp->to] = done = 1;
        }
      }
    if (!done) break;
  }
  for (int s = 0; s < v->nsets; s++) /* sets no map connects: they stay where they are */
    if (!known[s])
      for (tsr_idx_t i = 0; i < v->n[s]; i++) v->owner[s][i] = v->rank;
  free(known);
  return TSR_SUCCESS;
}

int tsr_partitioner_parse(const char *name, tsr_partitioner_t *out) {
  TSR_CHECK(out, TSR_ERR_ARG, "tsr_partitioner_parse: out is NULL");
  static const struct {
    const char *name;
    tsr_partitioner_t m;
  } known[] = {{"metis", TSR_PARTITIONER_METIS},
               {"ptscotch", TSR_PARTITIONER_PTSCOTCH},
               {"block", TSR_PARTITIONER_BLOCK}};
  for (size_t i = 0; name && i < sizeof known / sizeof known[0]; i++)
    if (strcmp(name, known[i].name) == 0) {
      *out = known[i].m;
      return TSR_SUCCESS;
    }
  return TSR_RAISE(TSR_ERR_ARG, "partitioner '%s': expected metis, ptscotch or block",
                   name ? name : "(null)");
}

const char *tsr_partitioner_name(tsr_partitioner_t m) {
  switch (m) {
  case TSR_PARTITIONER_METIS: return "metis";
  case TSR_PARTITIONER_PTSCOTCH: return "ptscotch";
  case TSR_PARTITIONER_BLOCK: return "block";
  case TSR_PARTITIONER_GIVEN: return "given";
  }
  return "?";
}

int tsr_partitioner_have_ptscotch(void) {
#ifdef TSR_HAVE_PTSCOTCH
  return 1;
#else
  return 0;
#endif
}
