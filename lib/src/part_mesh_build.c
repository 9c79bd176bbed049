/* part_mesh_build.c: partitioning an unstructured mesh, phase 2: with the
 * owner of every element decided (part_mesh.c), move owned and exec-halo
 * rows to their ranks, pull the non-exec halo rows, number them locally
 * (core, owned, exec, non-exec) and assemble the partitioned mesh. */
#include "config.h"
#include "tessera/part.h"
#include "tessera/error.h"
#include "part_internal.h"

#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

/* A row record of set s, in int64 words:
 *   [0] global index, [1] kind (0 owned, 1 exec halo, 2 non-exec halo),
 *   then for each map from s (mesh order) its dim global targets,
 *   then for each dat on s (mesh order) its row's bytes, padded to words. */
typedef struct {
  int width;       /* words per record */
  int nrec;        /* records held */
  int64_t *rec;    /* [nrec][width] */
} rows_t;

static int dat_words(const tsr_dat_t *d) {
  return (int)TSR_CEIL_DIV((size_t)d->dim * tsr_dtype_size(d->type), sizeof(int64_t));
}

static int record_width(const tsr__view_t *v, int s) {
  int w = 2;
  for (int i = 0; i < v->nmaps; i++)
    if (tsr_mesh_map(v->m, i)->from == s) w += tsr_mesh_map(v->m, i)->dim;
  for (int i = 0; i < v->ndats; i++)
    if (tsr_mesh_dat(v->m, i)->set == s) w += dat_words(tsr_mesh_dat(v->m, i));
  return w;
}

static void put_record(tsr__msg_t *msg, int dest, const tsr__view_t *v, int s, tsr_idx_t i,
                       int kind) {
  tsr__msg_put(msg, dest, v->lo[s] + i);
  tsr__msg_put(msg, dest, kind);
  for (int m = 0; m < v->nmaps; m++) {
    const tsr_map_t *mp = tsr_mesh_map(v->m, m);
    if (mp->from != s) continue;
    const int32_t *row = tsr__view_map(v, m) + i * mp->dim;
    for (int k = 0; k < mp->dim; k++) tsr__msg_put(msg, dest, row[k]);
  }
  for (int d = 0; d < v->ndats; d++) {
    const tsr_dat_t *dt = tsr_mesh_dat(v->m, d);
    if (dt->set != s) continue;
    size_t rb = (size_t)dt->dim * tsr_dtype_size(dt->type);
    int nw = dat_words(dt);
    int64_t *w = msg->buf + msg->fill[dest];
    memset(w, 0, (size_t)nw * sizeof *w);
    memcpy(w, tsr__view_dat(v, d) + i * rb, rb);
    msg->fill[dest] += nw;
  }
}

/* Ranks that get block row i of set s: its owner, and (as exec halo) the
 * owners of its targets through every map from s. tgt[m] holds the target
 * owners of map m's block rows (NULL for maps not from s). */
static int row_dests(const tsr__view_t *v, int s, tsr_idx_t i, int **tgt, int *dest) {
  int nd = 0;
  dest[nd++] = v->owner[s][i];
  for (int m = 0; m < v->nmaps; m++) {
    if (!tgt[m]) continue;
    int dim = tsr_mesh_map(v->m, m)->dim;
    for (int k = 0; k < dim; k++) {
      int q = tgt[m][i * dim + k], seen = 0;
      for (int x = 0; x < nd; x++) seen |= dest[x] == q;
      if (!seen) dest[nd++] = q;
    }
  }
  return nd;
}

/* Push owned and exec-halo rows of set s to their ranks. */
static int push_rows(tsr__view_t *v, int s, rows_t *out) {
  int **tgt = calloc((size_t)(v->nmaps > 0 ? v->nmaps : 1), sizeof *tgt);
  TSR_CHECK(tgt, TSR_ERR_ALLOC, "partition: cannot allocate %d map tables", v->nmaps);
  int maxd = 1;
  for (int m = 0; m < v->nmaps; m++) {
    const tsr_map_t *mp = tsr_mesh_map(v->m, m);
    if (mp->from != s) continue;
    tsr_idx_t ne = v->n[s] * mp->dim;
    tgt[m] = malloc((size_t)(ne > 0 ? ne : 1) * sizeof **tgt);
    TSR_CHECK(tgt[m], TSR_ERR_ALLOC, "partition: cannot allocate %lld owners", (long long)ne);
    TSR_CALL(tsr__fetch_owner(v, mp->to, ne, tsr__view_map(v, m), tgt[m]));
    maxd += mp->dim;
  }
  int *dest = malloc((size_t)maxd * sizeof *dest);
  TSR_CHECK(dest, TSR_ERR_ALLOC, "partition: out of memory");
  out->width = record_width(v, s);
  tsr__msg_t msg, r;
  TSR_CALL(tsr__msg_init(&msg, v->size));
  for (tsr_idx_t i = 0; i < v->n[s]; i++) {
    int nd = row_dests(v, s, i, tgt, dest);
    for (int x = 0; x < nd; x++) tsr__msg_count(&msg, dest[x], out->width);
  }
  TSR_CALL(tsr__msg_alloc(&msg));
  for (tsr_idx_t i = 0; i < v->n[s]; i++) {
    int nd = row_dests(v, s, i, tgt, dest);
    for (int x = 0; x < nd; x++) put_record(&msg, dest[x], v, s, i, x == 0 ? 0 : 1);
  }
  for (int m = 0; m < v->nmaps; m++) free(tgt[m]);
  free(tgt);
  free(dest);
  TSR_CALL(tsr__msg_send(v->comm, &msg, &r));
  tsr__msg_free(&msg);
  out->nrec = (int)(tsr__msg_total(&r) / out->width);
  out->rec = r.buf; /* keep the buffer */
  r.buf = NULL;
  tsr__msg_free(&r);
  return TSR_SUCCESS;
}

/* Pull the non-exec halo of set s: gids[n] (sorted, not held here). */
static int pull_rows(tsr__view_t *v, int s, const int64_t *gids, tsr_idx_t n, rows_t *rows) {
  tsr__msg_t q, qr, a, ar;
  TSR_CALL(tsr__msg_init(&q, v->size));
  for (tsr_idx_t i = 0; i < n; i++) tsr__msg_count(&q, tsr__view_block_owner(v, s, gids[i]), 1);
  TSR_CALL(tsr__msg_alloc(&q));
  for (tsr_idx_t i = 0; i < n; i++) tsr__msg_put(&q, tsr__view_block_owner(v, s, gids[i]), gids[i]);
  TSR_CALL(tsr__msg_send(v->comm, &q, &qr));
  tsr__msg_free(&q);
  int w = rows->width;
  TSR_CALL(tsr__msg_init(&a, v->size));
  for (int r = 0; r < v->size; r++) a.cnt[r] = qr.cnt[r] * w;
  TSR_CALL(tsr__msg_alloc(&a));
  for (int r = 0; r < v->size; r++)
    for (int k = 0; k < qr.cnt[r]; k++) put_record(&a, r, v, s, qr.buf[qr.off[r] + k] - v->lo[s], 2);
  tsr__msg_free(&qr);
  TSR_CALL(tsr__msg_send(v->comm, &a, &ar));
  tsr__msg_free(&a);
  tsr_idx_t got = tsr__msg_total(&ar) / w;
  int64_t *rec = realloc(rows->rec, (size_t)(rows->nrec + got + 1) * w * sizeof *rec);
  TSR_CHECK(rec, TSR_ERR_ALLOC, "partition: cannot allocate %lld halo rows", (long long)got);
  memcpy(rec + (size_t)rows->nrec * w, ar.buf, (size_t)got * w * sizeof *rec);
  rows->rec = rec;
  rows->nrec += (int)got;
  tsr__msg_free(&ar);
  return TSR_SUCCESS;
}

/* Offset (in words) of map m's targets inside a record of its set. */
static int map_word(const tsr__view_t *v, int m) {
  int s = tsr_mesh_map(v->m, m)->from, w = 2;
  for (int i = 0; i < m; i++)
    if (tsr_mesh_map(v->m, i)->from == s) w += tsr_mesh_map(v->m, i)->dim;
  return w;
}

/* Non-exec halo of every set: targets of owned/exec rows not held here. */
static int pull_halos(tsr__view_t *v, rows_t *rows) {
  for (int s = 0; s < v->nsets; s++) {
    tsr__lookup_t held;
    int64_t *g = malloc((size_t)(rows[s].nrec + 1) * sizeof *g);
    TSR_CHECK(g, TSR_ERR_ALLOC, "partition: out of memory");
    for (int i = 0; i < rows[s].nrec; i++) g[i] = rows[s].rec[(size_t)i * rows[s].width];
    TSR_CALL(tsr__lookup_build(&held, g, rows[s].nrec));
    free(g);
    tsr_idx_t nc = 0, cap = 0;
    int64_t *cand = NULL;
    for (int m = 0; m < v->nmaps; m++) {
      const tsr_map_t *mp = tsr_mesh_map(v->m, m);
      if (mp->to != s) continue;
      const rows_t *src = &rows[mp->from];
      int off = map_word(v, m);
      for (int i = 0; i < src->nrec; i++)
        for (int k = 0; k < mp->dim && src->rec[(size_t)i * src->width + 1] < 2; k++) {
          int64_t t = src->rec[(size_t)i * src->width + off + k];
          if (tsr__lookup_find(&held, t) >= 0) continue;
          if (nc == cap) {
            cap = cap ? 2 * cap : 64;
            int64_t *c = realloc(cand, (size_t)cap * sizeof *c);
            TSR_CHECK(c, TSR_ERR_ALLOC, "partition: out of memory");
            cand = c;
          }
          cand[nc++] = t;
        }
    }
    tsr__lookup_free(&held);
    if (cand) qsort(cand, (size_t)nc, sizeof *cand, tsr__cmp_i64);
    tsr_idx_t nu = 0;
    for (tsr_idx_t i = 0; i < nc; i++)
      if (nu == 0 || cand[i] != cand[nu - 1]) cand[nu++] = cand[i];
    int err = pull_rows(v, s, cand, nu, &rows[s]); /* collective: every rank calls */
    free(cand);
    TSR_CALL(err);
  }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ numbering */

typedef struct {
  int group; /* 0 core, 1 other owned, 2 exec halo, 3 non-exec halo */
  int64_t gid;
  int rec;
} order_t;
static int cmp_order(const void *a, const void *b) {
  const order_t *x = a, *y = b;
  if (x->group != y->group) return x->group - y->group;
  return (x->gid > y->gid) - (x->gid < y->gid);
}

/* order[s][local] = record index; counts per group. */
static int number_rows(const tsr__view_t *v, rows_t *rows, int **order, tsr_idx_t (*cnt)[4]) {
  tsr__lookup_t *own = calloc((size_t)(v->nsets > 0 ? v->nsets : 1), sizeof *own);
  TSR_CHECK(own, TSR_ERR_ALLOC, "partition: out of memory");
  for (int s = 0; s < v->nsets; s++) {
    int64_t *g = malloc((size_t)(rows[s].nrec + 1) * sizeof *g);
    TSR_CHECK(g, TSR_ERR_ALLOC, "partition: out of memory");
    tsr_idx_t n = 0;
    for (int i = 0; i < rows[s].nrec; i++)
      if (rows[s].rec[(size_t)i * rows[s].width + 1] == 0) g[n++] = rows[s].rec[(size_t)i * rows[s].width];
    TSR_CALL(tsr__lookup_build(&own[s], g, n));
    free(g);
  }
  for (int s = 0; s < v->nsets; s++) {
    const rows_t *rs = &rows[s];
    order_t *o = malloc((size_t)(rs->nrec + 1) * sizeof *o);
    TSR_CHECK(o, TSR_ERR_ALLOC, "partition: out of memory");
    for (int g = 0; g < 4; g++) cnt[s][g] = 0;
    for (int i = 0; i < rs->nrec; i++) {
      const int64_t *r = rs->rec + (size_t)i * rs->width;
      int group = r[1] == 0 ? 0 : (int)r[1] + 1;
      for (int m = 0; m < v->nmaps && group == 0; m++) {
        const tsr_map_t *mp = tsr_mesh_map(v->m, m);
        if (mp->from != s) continue;
        int off = map_word(v, m);
        for (int k = 0; k < mp->dim; k++)
          if (tsr__lookup_find(&own[mp->to], r[off + k]) < 0) group = 1;
      }
      o[i].group = group;
      o[i].gid = r[0];
      o[i].rec = i;
      cnt[s][group]++;
    }
    qsort(o, (size_t)rs->nrec, sizeof *o, cmp_order);
    order[s] = malloc((size_t)(rs->nrec + 1) * sizeof **order);
    TSR_CHECK(order[s], TSR_ERR_ALLOC, "partition: out of memory");
    for (int i = 0; i < rs->nrec; i++) order[s][i] = o[i].rec;
    free(o);
  }
  for (int s = 0; s < v->nsets; s++) tsr__lookup_free(&own[s]);
  free(own);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ assembly */

/* Set s's records, once the last map from s and dat on s is built: the
 * records (maps in int64 words) and the assembled mesh are never both
 * whole. */
static void drop_records(rows_t *rows, int **order, int s) {
  free(rows[s].rec);
  rows[s].rec = NULL;
  free(order[s]);
  order[s] = NULL;
}

static int assemble(const tsr__view_t *v, rows_t *rows, int **order, tsr_idx_t (*cnt)[4],
                    tsr_mesh_t *out) {
  tsr__lookup_t *loc = calloc((size_t)(v->nsets > 0 ? v->nsets : 1), sizeof *loc);
  int *uses = calloc((size_t)(v->nsets > 0 ? v->nsets : 1), sizeof *uses);
  if (!loc || !uses) {
    free(loc);
    free(uses);
    return TSR_RAISE(TSR_ERR_ALLOC, "partition: out of memory");
  }
  for (int m = 0; m < v->nmaps; m++) uses[tsr_mesh_map(v->m, m)->from]++;
  for (int d = 0; d < v->ndats; d++) uses[tsr_mesh_dat(v->m, d)->set]++;
  for (int s = 0; s < v->nsets; s++) {
    const tsr_set_t *in = tsr_mesh_set(v->m, s);
    int id;
    tsr_idx_t n = rows[s].nrec;
    TSR_CALL(tsr_mesh_add_set_block(out, in->name, in->global_size, 0, n, &id));
    tsr_set_t *st = tsr_mesh_set(out, id);
    st->owned = cnt[s][0] + cnt[s][1];
    st->exec_halo = cnt[s][2];
    st->nonexec_halo = cnt[s][3];
    st->global_id = malloc((size_t)(n > 0 ? n : 1) * sizeof *st->global_id);
    TSR_CHECK(st->global_id, TSR_ERR_ALLOC, "partition: out of memory");
    for (tsr_idx_t i = 0; i < n; i++)
      st->global_id[i] = rows[s].rec[(size_t)order[s][i] * rows[s].width];
    TSR_CALL(tsr__lookup_build(&loc[s], st->global_id, n));
    if (!uses[s]) drop_records(rows, order, s); /* no map or dat needs them */
  }
  for (int m = 0; m < v->nmaps; m++) {
    const tsr_map_t *mp = tsr_mesh_map(v->m, m);
    const rows_t *rs = &rows[mp->from];
    int off = map_word(v, m);
    int32_t *data = malloc((size_t)(rs->nrec * mp->dim + 1) * sizeof *data);
    TSR_CHECK(data, TSR_ERR_ALLOC, "partition: out of memory for map '%s'", mp->name);
    for (int i = 0; i < rs->nrec; i++) {
      const int64_t *r = rs->rec + (size_t)order[mp->from][i] * rs->width;
      for (int k = 0; k < mp->dim; k++) {
        tsr_idx_t l = tsr__lookup_find(&loc[mp->to], r[off + k]);
        if (l < 0 && r[1] != 2) {
          free(data);
          return TSR_RAISE(TSR_ERR_INTERNAL, "partition: map '%s' row %lld: target %lld is not "
                           "held on rank %d", mp->name, (long long)r[0], (long long)r[off + k], v->rank);
        }
        data[(size_t)i * mp->dim + k] = (int32_t)l;
      }
    }
    TSR_CALL(tsr_mesh_add_map(out, mp->name, mp->from, mp->to, mp->dim, data, TSR_ADOPT, NULL));
    if (--uses[mp->from] == 0) drop_records(rows, order, mp->from);
  }
  for (int d = 0; d < v->ndats; d++) {
    const tsr_dat_t *dt = tsr_mesh_dat(v->m, d);
    const rows_t *rs = &rows[dt->set];
    int off = 2;
    for (int m = 0; m < v->nmaps; m++)
      if (tsr_mesh_map(v->m, m)->from == dt->set) off += tsr_mesh_map(v->m, m)->dim;
    for (int e = 0; e < d; e++)
      if (tsr_mesh_dat(v->m, e)->set == dt->set) off += dat_words(tsr_mesh_dat(v->m, e));
    size_t rb = (size_t)dt->dim * tsr_dtype_size(dt->type);
    char *data = malloc((size_t)rs->nrec * rb + 1);
    TSR_CHECK(data, TSR_ERR_ALLOC, "partition: out of memory for dat '%s'", dt->name);
    for (int i = 0; i < rs->nrec; i++)
      memcpy(data + (size_t)i * rb, rs->rec + (size_t)order[dt->set][i] * rs->width + off, rb);
    TSR_CALL(tsr_mesh_add_dat(out, dt->name, dt->set, dt->dim, dt->type, data, TSR_ADOPT, NULL));
    if (--uses[dt->set] == 0) drop_records(rows, order, dt->set);
  }
  for (int c = 0; c < tsr_mesh_nconsts(v->m); c++) {
    const tsr_const_t *k = tsr_mesh_const(v->m, c);
    TSR_CALL(tsr_mesh_add_const(out, k->name, k->dim, k->data, NULL));
  }
  for (int s = 0; s < v->nsets; s++) tsr__lookup_free(&loc[s]);
  free(loc);
  free(uses);
  TSR_CALL(tsr_mesh_set_dist(out, TSR_MESH_PARTITIONED));
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ entry */

static int partition(tsr__view_t *v, const tsr_mesh_part_opts_t *o, tsr_mesh_t **out) {
  int pset = tsr_mesh_find_set(v->m, o->set);
  /* checked on every rank alike (same mesh metadata everywhere) */
  TSR_CHECK(pset >= 0, TSR_ERR_ARG, "partition: the mesh has no set '%s'", o->set);
  int bad = o->method == TSR_PARTITIONER_GIVEN && !o->part && v->n[pset] > 0;
  TSR_CALL(tsr_error_agree(v->comm, bad ? TSR_RAISE(TSR_ERR_ARG, "partition: method GIVEN needs "
                                                    "opts.part (rank %d holds %lld rows of '%s')",
                                                    v->rank, (long long)v->n[pset], o->set)
                                        : TSR_SUCCESS));
  TSR_CALL(tsr__mesh_owners(v, o, pset));
  int ns = v->nsets > 0 ? v->nsets : 1;
  rows_t *rows = calloc((size_t)ns, sizeof *rows);
  int **order = calloc((size_t)ns, sizeof *order);
  tsr_idx_t(*cnt)[4] = calloc((size_t)ns, sizeof *cnt);
  TSR_CHECK(rows && order && cnt, TSR_ERR_ALLOC, "partition: out of memory");
  int err = TSR_SUCCESS;
  for (int s = 0; s < v->nsets && !err; s++) err = push_rows(v, s, &rows[s]);
  if (!err) err = pull_halos(v, rows);
  if (!err) err = number_rows(v, rows, order, cnt);
  err = tsr_error_agree(v->comm, err);
  if (!err) err = tsr_mesh_create(out);
  if (!err) err = assemble(v, rows, order, cnt, *out);
  for (int s = 0; s < v->nsets; s++) {
    free(rows[s].rec);
    free(order[s]);
  }
  free(rows);
  free(order);
  free(cnt);
#ifdef __GLIBC__
  /* The messages and records above are freed, but glibc keeps freed heap
   * pages that lie below live blocks (and after large frees it raises its
   * mmap threshold, so most of them came from the heap): without this the
   * process would carry much of the redistribution's peak through the run. */
  malloc_trim(0);
#endif
  err = tsr_error_agree(v->comm, err);
  if (err) tsr_mesh_destroy(out);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

int tsr_mesh_partition(MPI_Comm comm, const tsr_mesh_t *in, const tsr_mesh_part_opts_t *opts,
                       tsr_mesh_t **out) {
  TSR_CHECK(in && opts && out && opts->set, TSR_ERR_ARG, "tsr_mesh_partition: NULL argument");
  *out = NULL;
  tsr__view_t v;
  int err = tsr__view_init(comm, in, &v);
  err = tsr_error_agree(comm, err);
  if (!err) err = partition(&v, opts, out);
  tsr__view_free(&v);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

tsr_idx_t tsr_mesh_core_size(const tsr_mesh_t *mesh, int set) {
  const tsr_set_t *s = tsr_mesh_set(mesh, set);
  if (!s) return 0;
  if (tsr_mesh_dist(mesh) != TSR_MESH_PARTITIONED) return s->size;
  tsr_idx_t core = 0;
  for (; core < s->owned; core++)
    for (int m = 0; m < tsr_mesh_nmaps(mesh); m++) {
      const tsr_map_t *mp = tsr_mesh_map(mesh, m);
      if (mp->from != set) continue;
      for (int k = 0; k < mp->dim; k++) {
        int32_t t = mp->data[core * mp->dim + k];
        if (t < 0 || t >= tsr_mesh_set(mesh, mp->to)->owned) return core;
      }
    }
  return core;
}
