/* kernels/lulesh/lulesh_dist.c: the exchanges of a distributed LULESH run
 * (lulesh_dist.h) on tessera/halo.h: who holds each shared node and ghost
 * element (a directory keyed by global id), the node-sum and ghost halos
 * over compact buffers (gathered from and scattered to the arrays with
 * tsr_halo_pack/unpack, so the same code runs on device arrays), and the
 * reductions. */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/halo.h"
#include "kernels/lulesh/lulesh_dist.h"

/* Index lists and buffers on one device (host: dev kind CPU). */
typedef struct {
  int ready;
  tsr_devkind_t kind;
  int id;
  tsr_idx_t *shared, *send, *ghost; /* gather/scatter lists */
  tsr_idx_t *rnd;                   /* [ncontrib] the owner's node of each slot */
  double *nbuf, *ebuf;              /* [3 nstride], [3 (nsend + ng)] */
} side_t;

struct lulesh_dist {
  MPI_Comm comm;
  int rank, nranks, edge, origin_rank, nneigh;
  lulesh_decomp_t decomp;
  int64_t num_elem_global;
  int32_t ne, ng, nn;
  int64_t *elem_gid, *node_gid;
  tsr_idx_t nshared, nsend, nshared_owned;
  tsr_idx_t *shared_idx; /* local node of each shared entry */
  tsr_idx_t *send_idx;   /* owned element of each sent entry */
  tsr_idx_t *ghost_idx;  /* ne + g */
  /* Node sums: buffer plane c is nbuf[c nstride ..]: the nshared partial
   * sums, then ncontrib slots where an owner receives the other holders'
   * partial sums, slot by slot in rounds (round r: the (r+1)-th lowest
   * other holder of each node; rnd_idx[slot] its node): the sums are
   * added round by round, each node at most once per round, so the order
   * is fixed (own + holders in increasing rank) on the host and on a GPU. */
  tsr_idx_t ncontrib, nstride, *rnd_idx;
  int nrounds;
  tsr_idx_t *rnd_off; /* [nrounds + 1] */
  tsr_halo_t *hn[3], *he[3]; /* n planes: owner to copies (stride nshared), ghosts */
  tsr_halo_t *hc[3], *hf[3]; /* n planes, stride nstride: holders to the owner's slots, owner to copies */
  side_t host, dev;
  void *stream; /* the device work of the exchanges (NULL: default stream) */
  lulesh_split_t split;
  lulesh_exchange_t ex;
};

static const tsr_device_t host_dev = {TSR_DEV_CPU, -1, "CPU"};

/* ---- directory ----------------------------------------------------------- */

static int cmp_item(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  for (int k = 0; k < 3; k++)
    if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
  return 0;
}

/* For each local entry (gid[i], flag[i]): every (rank, flag) holding the
 * same gid on any rank, in increasing rank order, as CSR start[n+1],
 * hr[], hf[]. The directory of gid is rank gid mod nranks. Collective. */
static int dir_holders(MPI_Comm comm, int64_t n, const int64_t *gid, const int *flag,
                       int64_t **start, int **hr, int **hf) {
  int P = 1, me = 0;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  /* the rank count in a variable whose address is not taken: writes through
     the int arrays below cannot change it as far as the compiler knows */
  const size_t nP = P > 0 ? (size_t)P : 1;
  int *sc = calloc(nP, sizeof *sc), *rc = calloc(nP, sizeof *rc);
  int *sd = calloc(nP + 1, sizeof *sd), *rd = calloc(nP + 1, sizeof *rd);
  int64_t *order = malloc(sizeof *order * (size_t)(n + 1));
  int64_t *sbuf = malloc(sizeof *sbuf * (size_t)(2 * n + 1));
  int64_t *rbuf = NULL, *rep = NULL, *ans = NULL;
  int64_t (*item)[3] = NULL;
  int err = !sc || !rc || !sd || !rd || !order || !sbuf;
  int *rsc = NULL, *rrc = NULL, *rsd = NULL, *rrd = NULL;
  int64_t R = 0;
  if (!err) {
    for (int64_t i = 0; i < n; i++) sc[gid[i] % P] += 2;
    for (int q = 0; q < P; q++) sd[q + 1] = sd[q] + sc[q];
    int *fill = calloc(nP, sizeof *fill);
    err = !fill;
    for (int64_t i = 0; !err && i < n; i++) {
      int q = (int)(gid[i] % P);
      int64_t at = sd[q] + fill[q];
      fill[q] += 2;
      sbuf[at] = gid[i], sbuf[at + 1] = flag[i];
      order[at / 2] = i;
    }
    free(fill);
  }
  /* every rank reaches the same collectives: a failed allocation is agreed on */
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, comm);
  if (err) goto out;
  MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm);
  for (int q = 0; q < P; q++) rd[q + 1] = rd[q] + rc[q];
  R = rd[P] / 2;
  rbuf = malloc(sizeof *rbuf * (size_t)(2 * R + 1));
  item = malloc(sizeof *item * (size_t)(R + 1));
  rsc = calloc((size_t)P, sizeof *rsc), rrc = calloc((size_t)P, sizeof *rrc);
  rsd = calloc((size_t)P + 1, sizeof *rsd), rrd = calloc((size_t)P + 1, sizeof *rrd);
  err = !rbuf || !item || !rsc || !rrc || !rsd || !rrd;
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, comm);
  if (err) goto out;
  MPI_Alltoallv(sbuf, sc, sd, MPI_INT64_T, rbuf, rc, rd, MPI_INT64_T, comm);
  /* group the received entries by gid: item = (gid, source rank, index) */
  int src = 0;
  for (int64_t j = 0; j < R; j++) {
    while (2 * j >= rd[src + 1]) src++;
    item[j][0] = rbuf[2 * j], item[j][1] = src, item[j][2] = j;
  }
  qsort(item, (size_t)R, sizeof *item, cmp_item);
  int64_t *grp = malloc(sizeof *grp * (size_t)(R + 1)), *gbeg = malloc(sizeof *gbeg * (size_t)(R + 1));
  err = !grp || !gbeg;
  if (!err) { /* grp[entry] = first sorted position of its gid; gbeg[pos] */
    for (int64_t s = 0, b = 0; s < R; s++) {
      if (s == 0 || item[s][0] != item[s - 1][0]) b = s;
      gbeg[s] = b;
      grp[item[s][2]] = b;
    }
    /* replies in the order received: count k, then k (rank, flag) */
    for (int64_t j = 0, q = 0; j < R; j++) {
      int64_t b = grp[j], e = b;
      while (e < R && item[e][0] == item[b][0]) e++;
      while (2 * j >= rd[q + 1]) q++;
      rsc[q] += (int)(1 + 2 * (e - b));
    }
    for (int q = 0; q < P; q++) rsd[q + 1] = rsd[q] + rsc[q];
    rep = malloc(sizeof *rep * (size_t)(rsd[P] + 1));
    err = !rep;
  }
  if (!err) {
    int64_t at = 0;
    for (int64_t j = 0; j < R; j++) {
      int64_t b = grp[j], e = b;
      while (e < R && item[e][0] == item[b][0]) e++;
      rep[at++] = e - b;
      for (int64_t s = b; s < e; s++) rep[at++] = item[s][1], rep[at++] = rbuf[2 * item[s][2] + 1];
    }
  }
  free(grp), free(gbeg);
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, comm);
  if (err) goto out;
  MPI_Alltoall(rsc, 1, MPI_INT, rrc, 1, MPI_INT, comm);
  for (int q = 0; q < P; q++) rrd[q + 1] = rrd[q] + rrc[q];
  ans = malloc(sizeof *ans * (size_t)(rrd[P] + 1));
  err = !ans;
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, comm);
  if (err) goto out;
  MPI_Alltoallv(rep, rsc, rsd, MPI_INT64_T, ans, rrc, rrd, MPI_INT64_T, comm);
  /* answers come per directory rank in the order the entries were sent */
  *start = calloc((size_t)(n + 1), sizeof **start);
  int64_t tot = (rrd[P] - n) / 2;
  *hr = malloc(sizeof **hr * (size_t)(tot + 1));
  *hf = malloc(sizeof **hf * (size_t)(tot + 1));
  err = !*start || !*hr || !*hf;
  if (!err) {
    for (int64_t k = 0, at = 0; k < n; k++) {
      (*start)[order[k] + 1] = ans[at];
      at += 1 + 2 * ans[at];
    }
    for (int64_t i = 0; i < n; i++) (*start)[i + 1] += (*start)[i];
    for (int64_t k = 0, at = 0; k < n; k++) {
      int64_t c = ans[at++], o = (*start)[order[k]];
      for (int64_t s = 0; s < c; s++, at += 2) (*hr)[o + s] = (int)ans[at], (*hf)[o + s] = (int)ans[at + 1];
    }
  }
out:
  free(sc), free(rc), free(sd), free(rd), free(order), free(sbuf), free(rbuf), free(item);
  free(rep), free(ans), free(rsc), free(rrc), free(rsd), free(rrd);
  (void)me;
  TSR_CHECK(!err, TSR_ERR_ALLOC, "lulesh: cannot allocate the directory of shared ids");
  return 0;
}

/* ---- halos --------------------------------------------------------------- */

/* Neighbour lists from per-rank counts sc[P], rc[P]: the ranks with any
 * entry, ascending; the lists filled by the caller. */
typedef struct {
  int n, *ranks, *sc, *rc;
  tsr_idx_t *sidx, *ridx;
  int64_t *soff, *roff; /* [P]: where rank q's entries go */
} lists_t;

static void lists_free(lists_t *l) {
  free(l->ranks), free(l->sc), free(l->rc), free(l->sidx), free(l->ridx), free(l->soff);
  free(l->roff);
  memset(l, 0, sizeof *l);
}

static int lists_init(lists_t *l, int P, const int *sc, const int *rc) {
  memset(l, 0, sizeof *l);
  l->ranks = malloc(sizeof(int) * (size_t)P), l->sc = malloc(sizeof(int) * (size_t)P);
  l->rc = malloc(sizeof(int) * (size_t)P);
  l->soff = calloc((size_t)P, sizeof(int64_t)), l->roff = calloc((size_t)P, sizeof(int64_t));
  int64_t ns = 0, nr = 0;
  for (int q = 0; q < P; q++) ns += sc[q], nr += rc[q];
  l->sidx = malloc(sizeof(tsr_idx_t) * (size_t)(ns + 1));
  l->ridx = malloc(sizeof(tsr_idx_t) * (size_t)(nr + 1));
  TSR_CHECK(l->ranks && l->sc && l->rc && l->soff && l->roff && l->sidx && l->ridx, TSR_ERR_ALLOC,
            "lulesh: cannot allocate halo lists");
  ns = nr = 0;
  for (int q = 0; q < P; q++) {
    if (sc[q] + rc[q] == 0) continue;
    l->ranks[l->n] = q, l->sc[l->n] = sc[q], l->rc[l->n] = rc[q];
    l->soff[q] = ns, l->roff[q] = nr;
    ns += sc[q], nr += rc[q];
    l->n++;
  }
  return 0;
}

/* The halo of l over a buffer of nlocal entries and its 2- and 3-plane
 * copies of stride nlocal. */
static int make_halos(lulesh_dist_t *d, const lists_t *l, tsr_idx_t nlocal, tsr_halo_t *h[3]) {
  if (nlocal < 1) nlocal = 1;
  TSR_CALL(tsr_halo_create(d->comm, l->n, l->ranks, nlocal, l->sc, l->sidx, l->rc, l->ridx, &h[0]));
  TSR_CALL(tsr_halo_create_planes(h[0], 2, nlocal, &h[1]));
  TSR_CALL(tsr_halo_create_planes(h[0], 3, nlocal, &h[2]));
  return 0;
}

/* The owners' slots of the node sums (see struct lulesh_dist): holders
 * hr[st[i] .. st[i+1]) of each node in increasing rank (the owner first);
 * sc[q]: nodes this rank owns and q holds, rcn[q]: nodes q owns and this
 * rank holds. Collective. */
static int setup_slots(lulesh_dist_t *d, const int64_t *st, const int *hr, const int *sc,
                       const int *rcn) {
  int P = d->nranks, me = d->rank, rc = 0;
  lists_t l;
  memset(&l, 0, sizeof l);
  for (int32_t i = 0; i < d->nn; i++) /* rounds: the most other holders of an owned node */
    if (st[i + 1] - st[i] >= 2 && hr[st[i]] == me && st[i + 1] - st[i] - 1 > d->nrounds)
      d->nrounds = (int)(st[i + 1] - st[i] - 1);
  tsr_idx_t *fill = calloc((size_t)d->nrounds + 1, sizeof *fill);
  d->rnd_off = calloc((size_t)d->nrounds + 2, sizeof *d->rnd_off);
  if (!fill || !d->rnd_off) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate node slots");
  for (int32_t i = 0; !rc && i < d->nn; i++) {
    int64_t b = st[i], e = st[i + 1];
    if (e - b < 2 || hr[b] != me) continue;
    for (int64_t k = b + 1; k < e; k++) d->rnd_off[k - b]++;
  }
  for (int r = 0; !rc && r < d->nrounds; r++) d->rnd_off[r + 1] += d->rnd_off[r];
  d->ncontrib = rc ? 0 : d->rnd_off[d->nrounds];
  d->nstride = d->nshared + d->ncontrib > 0 ? d->nshared + d->ncontrib : 1;
  d->rnd_idx = rc ? NULL : malloc(sizeof(tsr_idx_t) * (size_t)(d->ncontrib + 1));
  if (!rc && !d->rnd_idx) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate node slots");
  /* the holders send to their owner, the owner receives into slots */
  if (!rc) rc = lists_init(&l, P, rcn, sc);
  for (int32_t i = 0, k = 0; !rc && i < d->nn; i++) {
    int64_t b = st[i], e = st[i + 1];
    if (e - b < 2) continue;
    int owner = hr[b];
    if (owner != me) l.sidx[l.soff[owner]++] = k;
    else
      for (int64_t s = b + 1; s < e; s++) {
        int r = (int)(s - b - 1);
        tsr_idx_t slot = d->rnd_off[r] + fill[r]++;
        d->rnd_idx[slot] = k;
        l.ridx[l.roff[hr[s]]++] = d->nshared + slot;
      }
    k++;
  }
  free(fill);
  rc = tsr_error_agree(d->comm, rc);
  if (!rc) rc = make_halos(d, &l, d->nstride, d->hc);
  lists_free(&l);
  for (int k = 0; !rc && k < 3; k++) rc = tsr_halo_create_planes(d->hn[0], k + 1, d->nstride, &d->hf[k]);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
}

/* Shared nodes: owner = the lowest rank holding the node. The owner sends
 * the node to every other holder; each holder receives it from the owner;
 * both sides list the nodes they share in increasing global id. */
static int setup_nodes(lulesh_dist_t *d, int *nb_mark) {
  int P = d->nranks, me = d->rank, rc = 0;
  int64_t *st = NULL;
  int *hr = NULL, *hf = NULL, *flag = calloc((size_t)d->nn + 1, sizeof *flag);
  int *sc = calloc((size_t)P, sizeof *sc), *rcn = calloc((size_t)P, sizeof *rcn);
  lists_t l;
  memset(&l, 0, sizeof l);
  if (!flag || !sc || !rcn) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate node flags");
  TSR_CALL(tsr_error_agree(d->comm, rc));
  rc = dir_holders(d->comm, d->nn, d->node_gid, flag, &st, &hr, &hf);
  if (!rc) {
    d->shared_idx = malloc(sizeof(tsr_idx_t) * (size_t)(d->nn + 1));
    if (!d->shared_idx) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate shared nodes");
  }
  for (int32_t i = 0; !rc && i < d->nn; i++) {
    int64_t b = st[i], e = st[i + 1];
    if (e - b < 2) continue;
    d->shared_idx[d->nshared++] = i;
    int owner = hr[b];
    d->nshared_owned += owner == me;
    for (int64_t k = b; k < e; k++) {
      int q = hr[k];
      if (q == me) continue;
      nb_mark[q] = 1;
      if (owner == me) sc[q]++;
      else if (q == owner) rcn[q]++;
    }
  }
  if (!rc) rc = lists_init(&l, P, sc, rcn);
  for (int32_t i = 0, k = 0; !rc && i < d->nn; i++) {
    int64_t b = st[i], e = st[i + 1];
    if (e - b < 2) continue;
    int owner = hr[b];
    for (int64_t s = b; s < e; s++) {
      int q = hr[s];
      if (q == me) continue;
      if (owner == me) l.sidx[l.soff[q]++] = k;
      else if (q == owner) l.ridx[l.roff[q]++] = k;
    }
    k++;
  }
  rc = tsr_error_agree(d->comm, rc);
  if (!rc) rc = make_halos(d, &l, d->nshared, d->hn);
  lists_free(&l);
  if (!rc) rc = setup_slots(d, st, hr, sc, rcn);
  free(st), free(hr), free(hf), free(flag), free(sc), free(rcn);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
}

/* Ghost elements: the owner (the one rank holding the element as owned)
 * sends it to every rank holding it as a ghost, in increasing global id. */
static int setup_ghosts(lulesh_dist_t *d, int *nb_mark) {
  int P = d->nranks, me = d->rank, rc = 0;
  int64_t n = (int64_t)d->ne + d->ng, *st = NULL;
  int *hr = NULL, *hf = NULL, *flag = malloc(sizeof *flag * (size_t)(n + 1));
  int *sc = calloc((size_t)P, sizeof *sc), *rcn = calloc((size_t)P, sizeof *rcn);
  int *owner = malloc(sizeof *owner * (size_t)(d->ng + 1));
  tsr_idx_t *pos = malloc(sizeof *pos * (size_t)(d->ne + 1));
  lists_t l;
  memset(&l, 0, sizeof l);
  if (!flag || !sc || !rcn || !owner || !pos)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate ghost tables");
  TSR_CALL(tsr_error_agree(d->comm, rc));
  for (int64_t i = 0; i < n; i++) flag[i] = i < d->ne;
  rc = dir_holders(d->comm, n, d->elem_gid, flag, &st, &hr, &hf);
  if (!rc) {
    d->send_idx = malloc(sizeof(tsr_idx_t) * (size_t)(d->ne + 1));
    d->ghost_idx = malloc(sizeof(tsr_idx_t) * (size_t)(d->ng + 1));
    if (!d->send_idx || !d->ghost_idx)
      rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate ghost lists");
  }
  for (int32_t e = 0; !rc && e < d->ne; e++) {
    pos[e] = -1;
    for (int64_t k = st[e]; k < st[e + 1]; k++)
      if (!hf[k]) {
        if (pos[e] < 0) pos[e] = d->nsend, d->send_idx[d->nsend++] = e;
        sc[hr[k]]++, nb_mark[hr[k]] = 1;
      }
  }
  for (int32_t g = 0; !rc && g < d->ng; g++) {
    int64_t i = d->ne + g;
    owner[g] = -1;
    for (int64_t k = st[i]; k < st[i + 1]; k++)
      if (hf[k]) owner[g] = owner[g] < 0 ? hr[k] : P;
    if (owner[g] < 0 || owner[g] == P || owner[g] == me)
      rc = TSR_RAISE(TSR_ERR_INTERNAL, "lulesh: ghost element %lld has %s owner",
                     (long long)d->elem_gid[i], owner[g] < 0 ? "no" : "more than one");
    else
      rcn[owner[g]]++, nb_mark[owner[g]] = 1;
    d->ghost_idx[g] = i;
  }
  if (!rc) rc = lists_init(&l, P, sc, rcn);
  for (int32_t e = 0; !rc && e < d->ne; e++)
    for (int64_t k = st[e]; k < st[e + 1]; k++)
      if (!hf[k]) l.sidx[l.soff[hr[k]]++] = pos[e];
  for (int32_t g = 0; !rc && g < d->ng; g++) l.ridx[l.roff[owner[g]]++] = d->nsend + g;
  rc = tsr_error_agree(d->comm, rc);
  if (!rc) rc = make_halos(d, &l, d->nsend + d->ng, d->he);
  lists_free(&l);
  free(st), free(hr), free(hf), free(flag), free(sc), free(rcn), free(owner), free(pos);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
}

/* ---- the boundary first ------------------------------------------------- */

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* Renumber this rank's owned elements and nodes so that each part of the
 * overlapped step's split (lulesh_split_t) is a run of consecutive numbers:
 * the elements sent as ghosts, then the other elements touching a shared
 * node, then the interior; the shared nodes, then the others; each group
 * in its former order (so the interior keeps its locality). The groups are
 * the split's of the current numbering. The mesh, the global ids and the
 * shared and sent lists follow (their order, which the neighbours' buffers
 * share, stays); ghosts keep their numbers. Local: after the exchanges'
 * setup, before the split is built for the run. */
static int boundary_first(lulesh_dist_t *d, lulesh_mesh_t *mesh) {
  const int32_t ne = mesh->num_elem, nn = mesh->num_node;
  lulesh_split_t sp;
  TSR_CALL(lulesh_split_build(mesh, d->nshared, d->shared_idx, d->nsend, d->send_idx, &sp));
  int32_t *ep = malloc(sizeof(int32_t) * ((size_t)ne + 1)), *np = malloc(sizeof(int32_t) * ((size_t)nn + 1));
  int64_t *gid = malloc(sizeof(int64_t) * ((size_t)(ne > nn ? ne : nn) + 1));
  int rc = ep && np && gid ? 0
           : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the renumbering of %d elements", ne);
  int same = 1;
  if (!rc) {
    int32_t next = 0;
    for (int32_t e = 0; e < ne; e++) ep[e] = -1;
    for (int32_t i = 0; i < sp.num_send; i++) ep[sp.kin[i]] = next++; /* sent: all boundary */
    for (int32_t i = 0; i < ne; i++)
      if (ep[sp.elem[i]] < 0) ep[sp.elem[i]] = next++; /* the rest of the boundary, the interior */
    for (int32_t n = 0; n < nn; n++) np[sp.node[n]] = n;
    for (int32_t e = 0; e < ne; e++) same &= ep[e] == e;
    for (int32_t n = 0; n < nn; n++) same &= np[n] == n;
  }
  lulesh_split_free(&sp);
  lulesh_mesh_t out;
  memset(&out, 0, sizeof out);
  if (!rc && !same) rc = lulesh_mesh_permute(mesh, ep, np, &out);
  if (!rc && !same) {
    int32_t *sy[3] = {out.symm_x, out.symm_y, out.symm_z};
    const int32_t ns[3] = {out.num_symm_x, out.num_symm_y, out.num_symm_z};
    for (int k = 0; k < 3; k++) qsort(sy[k], (size_t)ns[k], sizeof(int32_t), cmp_i32);
    lulesh_mesh_free(mesh);
    *mesh = out;
    for (int32_t e = 0; e < ne; e++) gid[ep[e]] = d->elem_gid[e];
    memcpy(d->elem_gid, gid, sizeof(int64_t) * (size_t)ne);
    for (int32_t n = 0; n < nn; n++) gid[np[n]] = d->node_gid[n];
    memcpy(d->node_gid, gid, sizeof(int64_t) * (size_t)nn);
    for (tsr_idx_t k = 0; k < d->nshared; k++) d->shared_idx[k] = np[d->shared_idx[k]];
    for (tsr_idx_t k = 0; k < d->nsend; k++) d->send_idx[k] = ep[d->send_idx[k]];
  }
  free(ep), free(np), free(gid);
  return rc;
}

/* ---- exchanges ----------------------------------------------------------- */

static void side_free(side_t *s) {
  if (!s->ready) return;
  tsr_device_t dev = host_dev;
  dev.kind = s->kind, dev.id = s->id;
  void **p[6] = {(void **)&s->shared, (void **)&s->send, (void **)&s->ghost, (void **)&s->rnd,
                 (void **)&s->nbuf, (void **)&s->ebuf};
  for (int k = 0; k < 6; k++) tsr_device_free(&dev, p[k]);
  s->ready = 0;
}

static int side_get(lulesh_dist_t *d, const tsr_device_t *dev, side_t **out) {
  side_t *s = dev->kind == TSR_DEV_CPU ? &d->host : &d->dev;
  *out = s;
  if (s->ready) {
    TSR_CHECK(s->kind == dev->kind && s->id == dev->id, TSR_ERR_UNSUPPORTED,
              "lulesh: the exchanges of a distributed run serve one device");
    return 0;
  }
  size_t ni = sizeof(tsr_idx_t), nb = (size_t)d->nshared + 1, eb = (size_t)(d->nsend + d->ng) + 1;
  void **p[6] = {(void **)&s->shared, (void **)&s->send, (void **)&s->ghost, (void **)&s->rnd,
                 (void **)&s->nbuf, (void **)&s->ebuf};
  size_t bytes[6] = {ni * nb, ni * ((size_t)d->nsend + 1), ni * ((size_t)d->ng + 1),
                     ni * ((size_t)d->ncontrib + 1), sizeof(double) * 3 * (size_t)d->nstride,
                     sizeof(double) * 3 * eb};
  const void *src[4] = {d->shared_idx, d->send_idx, d->ghost_idx, d->rnd_idx};
  size_t len[4] = {ni * (size_t)d->nshared, ni * (size_t)d->nsend, ni * (size_t)d->ng,
                   ni * (size_t)d->ncontrib};
  s->kind = dev->kind, s->id = dev->id, s->ready = 1; /* side_free takes back a partial one */
  int rc = 0;
  for (int k = 0; k < 6 && !rc; k++) rc = tsr_device_malloc(dev, bytes[k], p[k]);
  for (int k = 0; k < 4 && !rc; k++) /* the host's lists to the device */
    if (len[k]) rc = tsr_device_upload(dev, *p[k], src[k], len[k]);
  if (rc) {
    side_free(s);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  return 0;
}

static int ex_node_sum(void *ctx, const tsr_device_t *dev, int n, double *const *a) {
  lulesh_dist_t *d = ctx;
  side_t *s;
  if (!dev) dev = &host_dev;
  TSR_CHECK(n >= 1 && n <= 3, TSR_ERR_ARG, "lulesh: node sum of %d arrays (1..3)", n);
  TSR_CALL(side_get(d, dev, &s));
  tsr_idx_t m = d->nshared, st = d->nstride;
  double *part[3]; /* each array's part of nbuf */
  for (int c = 0; c < n; c++) part[c] = s->nbuf + c * st;
  /* one launch per step for all n arrays */
  TSR_CALL(tsr_halo_pack_arrays_on(dev, d->stream, m, s->shared, TSR_DOUBLE, n,
                                   (const void *const *)a, s->nbuf, st));
  /* the other holders' partial sums into the owner's slots; added to the
   * owner's own round by round (increasing holder rank; each node once per
   * round, so a GPU's atomic add meets no other add of the same node), then
   * the total back to every copy */
  TSR_CALL(tsr_halo_exchange(d->hc[n - 1], dev, s->nbuf, 1, TSR_DOUBLE));
  for (int r = 0; r < d->nrounds; r++) {
    tsr_idx_t o = d->rnd_off[r], len = d->rnd_off[r + 1] - o;
    TSR_CALL(tsr_halo_unpack_arrays_on(dev, d->stream, len, s->rnd + o, TSR_DOUBLE, n,
                                       s->nbuf + m + o, st, (void *const *)part, 1));
  }
  TSR_CALL(tsr_halo_exchange(d->hf[n - 1], dev, s->nbuf, 1, TSR_DOUBLE));
  TSR_CALL(tsr_halo_unpack_arrays_on(dev, d->stream, m, s->shared, TSR_DOUBLE, n, s->nbuf, st,
                                     (void *const *)a, 0));
  return 0;
}

static int ex_elem_ghosts(void *ctx, const tsr_device_t *dev, int n, double *const *a) {
  lulesh_dist_t *d = ctx;
  side_t *s;
  if (!dev) dev = &host_dev;
  TSR_CHECK(n >= 1 && n <= 3, TSR_ERR_ARG, "lulesh: ghost exchange of %d arrays (1..3)", n);
  TSR_CALL(side_get(d, dev, &s));
  tsr_idx_t ns = d->nsend, ng = d->ng, st = ns + ng > 0 ? ns + ng : 1;
  TSR_CALL(tsr_halo_pack_arrays_on(dev, d->stream, ns, s->send, TSR_DOUBLE, n,
                                   (const void *const *)a, s->ebuf, st));
  TSR_CALL(tsr_halo_begin(d->he[n - 1], dev, s->ebuf, 1, TSR_DOUBLE));
  TSR_CALL(tsr_halo_end(d->he[n - 1], dev, s->ebuf, 1, TSR_DOUBLE));
  TSR_CALL(tsr_halo_unpack_arrays_on(dev, d->stream, ng, s->ghost, TSR_DOUBLE, n, s->ebuf + ns, st,
                                     (void *const *)a, 0));
  return 0;
}

static int ex_min(void *ctx, int n, double *v) {
  lulesh_dist_t *d = ctx;
  TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MIN, d->comm));
  return 0;
}

static int ex_sum(void *ctx, int n, double *v) {
  lulesh_dist_t *d = ctx;
  TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, d->comm));
  return 0;
}

/* The exchanges' device work on `stream`: the packs and unpacks above and
 * the halos' own (tsr_halo_set_stream). */
static int ex_set_stream(void *ctx, void *stream) {
  lulesh_dist_t *d = ctx;
  for (int k = 0; k < 3; k++) {
    TSR_CALL(tsr_halo_set_stream(d->he[k], stream));
    TSR_CALL(tsr_halo_set_stream(d->hc[k], stream));
    TSR_CALL(tsr_halo_set_stream(d->hf[k], stream));
  }
  d->stream = stream;
  return 0;
}

/* A step's VolumeError or QStopError names a local element: say whose. */
static int ex_agree(void *ctx, int code) {
  lulesh_dist_t *d = ctx;
  if ((code == LULESH_VOLUME_ERROR || code == LULESH_QSTOP_ERROR) && tsr_error_code() == code) {
    char msg[400];
    snprintf(msg, sizeof msg, "%s", tsr_error_message());
    tsr_error_raise(code, __FILE__, __LINE__, __func__, "%s (on rank %d of %d; element in its "
                    "local numbering)", msg, d->rank, d->nranks);
  }
  return tsr_error_agree(d->comm, code);
}

/* ---- the object ---------------------------------------------------------- */

lulesh_decomp_t lulesh_decomp_default(int nranks) {
  int p = (int)lround(cbrt((double)nranks));
  return p * p * p == nranks ? LULESH_DECOMP_CUBE : LULESH_DECOMP_BLOCK;
}

const char *lulesh_decomp_name(lulesh_decomp_t d) {
  return d == LULESH_DECOMP_CUBE    ? "cube"
         : d == LULESH_DECOMP_METIS ? "metis"
         : d == LULESH_DECOMP_BLOCK ? "block"
                                    : NULL;
}

int lulesh_decomp_parse(const char *name, lulesh_decomp_t *d) {
  const lulesh_decomp_t all[3] = {LULESH_DECOMP_CUBE, LULESH_DECOMP_BLOCK, LULESH_DECOMP_METIS};
  for (int k = 0; name && k < 3; k++)
    if (strcmp(name, lulesh_decomp_name(all[k])) == 0) {
      *d = all[k];
      return 0;
    }
  return -1;
}

void lulesh_dist_destroy(lulesh_dist_t **pd) {
  lulesh_dist_t *d = pd ? *pd : NULL;
  if (!d) return;
  for (int k = 0; k < 3; k++) tsr_halo_destroy(&d->hn[k]), tsr_halo_destroy(&d->he[k]);
  for (int k = 0; k < 3; k++) tsr_halo_destroy(&d->hc[k]), tsr_halo_destroy(&d->hf[k]);
  side_free(&d->dev);
  free(d->host.nbuf), free(d->host.ebuf);
  free(d->elem_gid), free(d->node_gid), free(d->shared_idx), free(d->send_idx), free(d->ghost_idx);
  free(d->rnd_idx), free(d->rnd_off);
  lulesh_split_free(&d->split);
  if (d->comm != MPI_COMM_NULL) MPI_Comm_free(&d->comm);
  free(d);
  *pd = NULL;
}

static int dist_create(MPI_Comm comm, lulesh_decomp_t decomp, int size, int nr, int balance,
                       const char *path, tsr_hex_header_t *h, lulesh_mesh_t *mesh,
                       lulesh_dist_t **out);

int lulesh_dist_create(MPI_Comm comm, lulesh_decomp_t decomp, int size, int nr, int balance,
                       lulesh_mesh_t *mesh, lulesh_dist_t **out) {
  return dist_create(comm, decomp, size, nr, balance, NULL, NULL, mesh, out);
}

int lulesh_dist_create_file(MPI_Comm comm, lulesh_decomp_t decomp, const char *path,
                            lulesh_mesh_t *mesh, tsr_hex_header_t *h, lulesh_dist_t **out) {
  return dist_create(comm, decomp, 0, 0, 0, path, h, mesh, out);
}

static int dist_create(MPI_Comm comm, lulesh_decomp_t decomp, int size, int nr, int balance,
                       const char *path, tsr_hex_header_t *h, lulesh_mesh_t *mesh,
                       lulesh_dist_t **out) {
  *out = NULL;
  lulesh_dist_t *d = calloc(1, sizeof *d);
  int rc = d ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the distribution");
  TSR_CALL(tsr_error_agree(comm, rc));
  d->comm = MPI_COMM_NULL;
  MPI_Comm_rank(comm, &d->rank);
  MPI_Comm_size(comm, &d->nranks);
  d->decomp = decomp;
  rc = path ? lulesh_dist_part_file(comm, decomp, path, mesh, &d->elem_gid, &d->node_gid, h)
            : lulesh_dist_part(comm, decomp, size, nr, balance, mesh, &d->elem_gid, &d->node_gid,
                               &d->edge);
  if (!rc && path) d->edge = h->edge > 0 ? h->edge : 0;
  if (!rc) rc = MPI_Comm_dup(comm, &d->comm) == MPI_SUCCESS ? 0 : TSR_RAISE(TSR_ERR_MPI, "lulesh: MPI_Comm_dup failed");
  int *mark = NULL;
  if (!rc) {
    d->ne = mesh->num_elem, d->ng = mesh->num_ghost, d->nn = mesh->num_node;
    d->num_elem_global = (int64_t)d->edge * d->edge * d->edge;
    if (path) MPI_Allreduce(&(int64_t){d->ne}, &d->num_elem_global, 1, MPI_INT64_T, MPI_SUM, comm);
    mark = calloc((size_t)d->nranks, sizeof *mark);
    rc = tsr_error_agree(comm, mark ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory"));
  }
  if (!rc) rc = setup_nodes(d, mark);
  if (!rc) rc = setup_ghosts(d, mark);
  if (!rc) {
    for (int q = 0; q < d->nranks; q++) d->nneigh += mark[q];
    int o = mesh->origin >= 0 ? d->rank : d->nranks;
    MPI_Allreduce(&o, &d->origin_rank, 1, MPI_INT, MPI_MIN, d->comm);
    d->host.shared = d->shared_idx, d->host.send = d->send_idx, d->host.ghost = d->ghost_idx;
    d->host.rnd = d->rnd_idx;
    d->host.nbuf = malloc(sizeof(double) * 3 * (size_t)d->nstride);
    d->host.ebuf = malloc(sizeof(double) * 3 * (size_t)(d->nsend + d->ng + 1));
    d->host.kind = TSR_DEV_CPU, d->host.id = -1, d->host.ready = 1;
    rc = d->host.nbuf && d->host.ebuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory for buffers");
    rc = tsr_error_agree(comm, rc);
  }
  free(mark);
  if (!rc && d->origin_rank == d->nranks)
    rc = TSR_RAISE(TSR_ERR_INTERNAL, "lulesh: no rank holds the origin element");
  if (!rc && d->nranks > 1) rc = tsr_error_agree(comm, boundary_first(d, mesh));
  if (!rc)
    rc = tsr_error_agree(comm, lulesh_split_build(mesh, d->nshared, d->shared_idx, d->nsend,
                                                  d->send_idx, &d->split));
  if (rc) {
    d->host.ready = 0;
    lulesh_dist_destroy(&d);
    lulesh_mesh_free(mesh);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  d->ex = (lulesh_exchange_t){d,        ex_node_sum,   ex_elem_ghosts, ex_min,
                              ex_sum,   ex_agree,      ex_set_stream,  &d->split};
  *out = d;
  return 0;
}

const lulesh_exchange_t *lulesh_dist_exchange(lulesh_dist_t *d) { return &d->ex; }

int lulesh_dist_set_transport(lulesh_dist_t *d, tsr_halo_transport_t t) {
  for (int k = 0; k < 3; k++) {
    TSR_CALL(tsr_halo_set_transport(d->hn[k], t));
    TSR_CALL(tsr_halo_set_transport(d->he[k], t));
    TSR_CALL(tsr_halo_set_transport(d->hc[k], t));
    TSR_CALL(tsr_halo_set_transport(d->hf[k], t));
  }
  return 0;
}

void lulesh_dist_info(const lulesh_dist_t *d, lulesh_dist_info_t *info) {
  info->decomp = d->decomp;
  info->rank = d->rank, info->nranks = d->nranks, info->edge = d->edge;
  info->num_elem = d->num_elem_global;
  info->origin_rank = d->origin_rank;
  info->num_shared = (int32_t)d->nshared;
  info->num_shared_owned = (int32_t)d->nshared_owned;
  info->num_send_elem = (int32_t)d->nsend;
  info->nneigh = d->nneigh;
}

const int64_t *lulesh_dist_elem_gid(const lulesh_dist_t *d) { return d->elem_gid; }
const int64_t *lulesh_dist_node_gid(const lulesh_dist_t *d) { return d->node_gid; }

int lulesh_dist_gather_plane0(const lulesh_dist_t *d, const double *e, double *plane) {
  int64_t E2 = (int64_t)d->edge * d->edge;
  int n = 0, rc = 0;
  for (int32_t i = 0; i < d->ne; i++) n += d->elem_gid[i] < E2;
  int64_t *id = malloc(sizeof *id * (size_t)(n + 1));
  double *v = malloc(sizeof *v * (size_t)(n + 1));
  int *cnt = d->rank == 0 ? malloc(sizeof *cnt * (size_t)d->nranks) : NULL;
  int *dsp = d->rank == 0 ? malloc(sizeof *dsp * (size_t)d->nranks) : NULL;
  int64_t *aid = d->rank == 0 ? malloc(sizeof *aid * (size_t)(E2 + 1)) : NULL;
  double *av = d->rank == 0 ? malloc(sizeof *av * (size_t)(E2 + 1)) : NULL;
  if (!id || !v || (d->rank == 0 && (!cnt || !dsp || !aid || !av || !plane)))
    rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the plane gather");
  rc = tsr_error_agree(d->comm, rc);
  if (!rc) {
    n = 0;
    for (int32_t i = 0; i < d->ne; i++)
      if (d->elem_gid[i] < E2) id[n] = d->elem_gid[i], v[n++] = e[i];
    MPI_Gather(&n, 1, MPI_INT, cnt, 1, MPI_INT, 0, d->comm);
    if (d->rank == 0)
      for (int q = 0, o = 0; q < d->nranks; q++) dsp[q] = o, o += cnt[q];
    MPI_Gatherv(id, n, MPI_INT64_T, aid, cnt, dsp, MPI_INT64_T, 0, d->comm);
    MPI_Gatherv(v, n, MPI_DOUBLE, av, cnt, dsp, MPI_DOUBLE, 0, d->comm);
    for (int64_t k = 0; d->rank == 0 && k < E2; k++) plane[aid[k]] = av[k];
  }
  free(id), free(v), free(cnt), free(dsp), free(aid), free(av);
  return rc;
}

int lulesh_dist_node_copy_diff(lulesh_dist_t *d, int n, double *const *a, double *maxdiff) {
  tsr_idx_t m = d->nshared, st = m > 0 ? m : 1;
  double *mine = malloc(sizeof(double) * 3 * (size_t)st);
  int rc = mine && n >= 1 && n <= 3 ? 0 : TSR_RAISE(TSR_ERR_ARG, "lulesh: copy check of %d arrays", n);
  TSR_CALL(tsr_error_agree(d->comm, rc));
  double *buf = d->host.nbuf, worst = 0.0;
  for (int c = 0; c < n && m; c++)
    TSR_CALL(tsr_halo_pack(&host_dev, m, d->shared_idx, 1, TSR_DOUBLE, a[c], buf + c * st));
  memcpy(mine, buf, sizeof(double) * 3 * (size_t)st);
  TSR_CALL(tsr_halo_exchange(d->hn[n - 1], &host_dev, buf, 1, TSR_DOUBLE));
  for (int c = 0; c < n; c++)
    for (tsr_idx_t k = 0; k < m; k++) {
      double x = mine[c * st + k], y = buf[c * st + k];
      if (memcmp(&x, &y, sizeof x) == 0) continue;
      double dd = fabs(x - y);
      worst = fmax(worst, dd > 0 ? dd : 5e-324); /* -0 against 0, or NaN */
    }
  free(mine);
  TSR_CALL_MPI(MPI_Allreduce(&worst, maxdiff, 1, MPI_DOUBLE, MPI_MAX, d->comm));
  return 0;
}
