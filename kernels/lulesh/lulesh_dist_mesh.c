/* kernels/lulesh/lulesh_dist_mesh.c: one rank's part of the distributed
 * Sedov cube (lulesh_dist.h): the owned elements of the cube or METIS
 * decomposition, the nodes they touch, ghost elements behind COMM faces,
 * regions, symmetry sets and the origin. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/graph.h"
#include "tessera/part.h"
#include "kernels/lulesh/lulesh_dist.h"

/* Where the global elements come from: the cube's formulas (edge E, no
 * global arrays: the generated decompositions) or the records of a file's elements and
 * nodes this rank was sent (tab: lulesh_dist_part_records). */
typedef struct {
  int64_t E;
  const lulesh_dist_records_t *tab;
} gsrc_t;

static int64_t find(const int64_t *v, int64_t n, int64_t id);

static void elem_info(const gsrc_t *s, int64_t id, int64_t nodes[8], int64_t nb[6], int *bc) {
  if (s->tab) {
    const int64_t *r = s->tab->elem + LULESH_EREC * find(s->tab->elem_gid, s->tab->ne, id);
    for (int c = 0; c < 8; c++) nodes[c] = r[c];
    for (int k = 0; k < 6; k++) nb[k] = r[8 + k];
    *bc = (int)r[14];
    return;
  }
  int64_t E = s->E, n1 = E + 1, i = id % E, j = (id / E) % E, k = id / (E * E);
  int64_t b = (k * n1 + j) * n1 + i;
  nodes[0] = b, nodes[1] = b + 1, nodes[2] = b + n1 + 1, nodes[3] = b + n1;
  for (int q = 0; q < 4; q++) nodes[4 + q] = nodes[q] + n1 * n1;
  nb[0] = i > 0 ? id - 1 : id, nb[1] = i < E - 1 ? id + 1 : id;
  nb[2] = j > 0 ? id - E : id, nb[3] = j < E - 1 ? id + E : id;
  nb[4] = k > 0 ? id - E * E : id, nb[5] = k < E - 1 ? id + E * E : id;
  int f = 0;
  if (i == 0) f |= LULESH_XI_M_SYMM;
  if (i == E - 1) f |= LULESH_XI_P_FREE;
  if (j == 0) f |= LULESH_ETA_M_SYMM;
  if (j == E - 1) f |= LULESH_ETA_P_FREE;
  if (k == 0) f |= LULESH_ZETA_M_SYMM;
  if (k == E - 1) f |= LULESH_ZETA_P_FREE;
  *bc = f;
}

static void node_info(const gsrc_t *s, int64_t id, double *x, double *y, double *z, int *symm) {
  if (s->tab) {
    const double *r = s->tab->node + 4 * find(s->tab->node_gid, s->tab->nn, id);
    *x = r[0], *y = r[1], *z = r[2], *symm = (int)r[3];
    return;
  }
  int64_t n1 = s->E + 1, i = id % n1, j = (id / n1) % n1, k = id / (n1 * n1);
  /* lulesh_mesh_sedov's coordinates: 1.125 i / E from the global index */
  *x = 1.125 * (double)i / (double)s->E;
  *y = 1.125 * (double)j / (double)s->E;
  *z = 1.125 * (double)k / (double)s->E;
  *symm = (i == 0 ? 1 : 0) | (j == 0 ? 2 : 0) | (k == 0 ? 4 : 0);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Sort and drop repeats; returns the new length. */
static int64_t sort_unique(int64_t *v, int64_t n) {
  if (n == 0) return 0;
  qsort(v, (size_t)n, sizeof *v, cmp_i64);
  int64_t m = 1;
  for (int64_t i = 1; i < n; i++)
    if (v[i] != v[m - 1]) v[m++] = v[i];
  return m;
}

/* Position of id in the sorted v[n], or -1. */
static int64_t find(const int64_t *v, int64_t n, int64_t id) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (v[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && v[lo] == id ? lo : -1;
}

typedef struct {
  int64_t *own, *ghost, *node; /* sorted global ids */
  int64_t ne, ng, nn;
} ids_t;

static void ids_free(ids_t *t) {
  free(t->own), free(t->ghost), free(t->node);
  memset(t, 0, sizeof *t);
}

/* The part of the owned elements own[ne] (sorted, taken over by the part):
 * nodes, ghosts, the local mesh m (without regions and origin). */
static int build_part(const gsrc_t *s, ids_t *t, lulesh_mesh_t *m) {
  int64_t ne = t->ne;
  TSR_CHECK(ne >= 1 && ne <= INT32_MAX / 8, TSR_ERR_UNSUPPORTED,
            "lulesh: a rank's part of %lld elements (needs 1 .. 2^28)", (long long)ne);
  t->node = malloc(sizeof(int64_t) * (size_t)(8 * ne));
  t->ghost = malloc(sizeof(int64_t) * (size_t)(6 * ne));
  TSR_CHECK(t->node && t->ghost, TSR_ERR_ALLOC, "lulesh: cannot allocate a part's ids");
  int64_t nn = 0, ng = 0;
  for (int64_t e = 0; e < ne; e++) {
    int64_t nodes[8], nb[6];
    int bc;
    elem_info(s, t->own[e], nodes, nb, &bc);
    for (int c = 0; c < 8; c++) t->node[nn++] = nodes[c];
    for (int f = 0; f < 6; f++)
      if (((bc >> (3 * f)) & 7) == 0 && find(t->own, ne, nb[f]) < 0) t->ghost[ng++] = nb[f];
  }
  t->nn = sort_unique(t->node, nn);
  t->ng = sort_unique(t->ghost, ng);
  TSR_CHECK(t->nn <= INT32_MAX && t->ng <= INT32_MAX - ne, TSR_ERR_UNSUPPORTED,
            "lulesh: a rank's part exceeds 32-bit local indices");
  m->num_elem = (int32_t)ne;
  m->num_ghost = (int32_t)t->ng;
  m->num_node = (int32_t)t->nn;
  int ok = (m->x = malloc(sizeof(double) * (size_t)t->nn)) && (m->y = malloc(sizeof(double) * (size_t)t->nn)) &&
           (m->z = malloc(sizeof(double) * (size_t)t->nn)) &&
           (m->nodelist = malloc(sizeof(int32_t) * (size_t)(8 * ne))) &&
           (m->elem_bc = malloc(sizeof(int32_t) * (size_t)ne)) &&
           (m->reg_num = calloc((size_t)ne, sizeof(int32_t)));
  int32_t **face[6] = {&m->lxim, &m->lxip, &m->letam, &m->letap, &m->lzetam, &m->lzetap};
  for (int f = 0; f < 6 && ok; f++) ok = (*face[f] = malloc(sizeof(int32_t) * (size_t)ne)) != NULL;
  TSR_CHECK(ok, TSR_ERR_ALLOC, "lulesh: cannot allocate a part of %lld elements", (long long)ne);
  for (int64_t e = 0; e < ne; e++) {
    int64_t nodes[8], nb[6];
    int bc;
    elem_info(s, t->own[e], nodes, nb, &bc);
    for (int c = 0; c < 8; c++) m->nodelist[8 * e + c] = (int32_t)find(t->node, t->nn, nodes[c]);
    for (int f = 0; f < 6; f++) {
      int64_t l = find(t->own, ne, nb[f]);
      if (l < 0) { /* owned elsewhere: a ghost behind a COMM face */
        l = ne + find(t->ghost, t->ng, nb[f]);
        bc |= LULESH_XI_M_COMM << (3 * f);
      }
      (*face[f])[e] = (int32_t)l;
    }
    m->elem_bc[e] = bc;
  }
  int32_t cnt[3] = {0, 0, 0};
  for (int pass = 0; pass < 2; pass++) {
    int32_t *sy[3] = {m->symm_x, m->symm_y, m->symm_z};
    cnt[0] = cnt[1] = cnt[2] = 0;
    for (int64_t n = 0; n < t->nn; n++) {
      int bits;
      node_info(s, t->node[n], &m->x[n], &m->y[n], &m->z[n], &bits);
      for (int d = 0; d < 3; d++)
        if (bits & (1 << d)) {
          if (pass) sy[d][cnt[d]] = (int32_t)n;
          cnt[d]++;
        }
    }
    if (pass) break;
    m->num_symm_x = cnt[0], m->num_symm_y = cnt[1], m->num_symm_z = cnt[2];
    TSR_CHECK((m->symm_x = malloc(sizeof(int32_t) * (size_t)(cnt[0] + 1))) &&
                  (m->symm_y = malloc(sizeof(int32_t) * (size_t)(cnt[1] + 1))) &&
                  (m->symm_z = malloc(sizeof(int32_t) * (size_t)(cnt[2] + 1))),
              TSR_ERR_ALLOC, "lulesh: cannot allocate symmetry sets");
  }
  return 0;
}

/* The end of a generated part of the global cube of edge E from its owned
 * ids t->own[t->ne] (sorted): the local mesh, regions by LULESH's rule on
 * the global numbering (as one rank: independent of the rank count), the
 * origin (global element 0) and the deposit. */
static int part_global(int64_t E, int nr, int balance, lulesh_mesh_t *m, ids_t *t) {
  gsrc_t s = {E, NULL};
  TSR_CALL(build_part(&s, t, m));
  TSR_CALL(lulesh_regions_assign_ids(E * E * E, nr, balance, 0, t->ne, t->own, m->reg_num));
  m->origin = (int32_t)find(t->own, t->ne, 0);
  m->einit = lulesh_sedov_einit(E);
  return 0;
}

#define LULESH_GLOBAL_EDGE_MAX 4096

/* METIS on the face graph of the cube of edge E, built from the formulas on
 * rank 0 alone (the graph only: no coordinates, no node lists), which then
 * sends each rank the ids of its elements: t->own (sorted). Every part must
 * get an element. */
static int metis_owned(MPI_Comm comm, int64_t E, ids_t *t) {
  int rank, P, rc = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &P);
  const int64_t n = E * E * E;
  int *cnt = NULL, *displ = NULL, *part = NULL, mine = 0;
  int64_t *ids = NULL;
  if (rank == 0) {
    tsr_graph_t gr;
    memset(&gr, 0, sizeof gr);
    gr.n = n;
    gr.off = malloc(sizeof *gr.off * (size_t)(n + 1));
    gr.adj = malloc(sizeof *gr.adj * (size_t)(6 * n));
    part = malloc(sizeof *part * (size_t)n);
    cnt = calloc((size_t)P, sizeof *cnt), displ = calloc((size_t)P, sizeof *displ);
    if (!gr.off || !gr.adj || !part || !cnt || !displ)
      rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the face graph of %lld elements",
                     (long long)n);
    gsrc_t s = {E, NULL};
    if (!rc) gr.off[0] = 0;
    for (int64_t e = 0; !rc && e < n; e++) { /* -xi, +xi, -eta, +eta, -zeta, +zeta */
      int64_t nodes[8], nb[6], k = gr.off[e];
      int bc;
      elem_info(&s, e, nodes, nb, &bc);
      for (int q = 0; q < 6; q++)
        if (nb[q] != e) gr.adj[k++] = (int32_t)nb[q];
      gr.off[e + 1] = k;
    }
    if (!rc) rc = tsr_graph_partition(&gr, P, 1, 0, "the face graph of the LULESH cube", part);
    tsr_graph_free(&gr);
    for (int64_t e = 0; !rc && e < n; e++) cnt[part[e]]++;
    for (int r = 0; !rc && r < P; r++)
      if (cnt[r] == 0)
        rc = TSR_RAISE(TSR_ERR_PARTITION,
                       "lulesh: METIS left rank %d of %d without elements (a cube of %lld "
                       "elements); use fewer ranks or a larger -s",
                       r, P, (long long)n);
    if (!rc) {
      ids = malloc(sizeof *ids * (size_t)n);
      if (!ids) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the partition's ids");
    }
    if (!rc) {
      for (int r = 1; r < P; r++) displ[r] = displ[r - 1] + cnt[r - 1];
      int *fill = calloc((size_t)P, sizeof *fill);
      if (!fill) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the partition's counts");
      for (int64_t e = 0; !rc && e < n; e++) ids[displ[part[e]] + fill[part[e]]++] = e;
      free(fill);
    }
    free(part);
  }
  rc = tsr_error_agree(comm, rc);
  if (!rc) MPI_Scatter(cnt, 1, MPI_INT, &mine, 1, MPI_INT, 0, comm);
  if (!rc) {
    t->own = malloc(sizeof(int64_t) * ((size_t)mine + 1));
    if (!t->own) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate a part's ids");
    rc = tsr_error_agree(comm, rc);
  }
  if (!rc) {
    MPI_Scatterv(ids, cnt, displ, MPI_INT64_T, t->own, mine, MPI_INT64_T, 0, comm);
    t->ne = mine;
  }
  free(cnt), free(displ), free(ids);
  return rc;
}

static int part_metis(MPI_Comm comm, int size, int nr, int balance, lulesh_mesh_t *m, ids_t *t) {
  int nranks;
  MPI_Comm_size(comm, &nranks);
  TSR_CHECK(size >= 1 && size <= LULESH_GLOBAL_EDGE_MAX, TSR_ERR_ARG,
            "lulesh: the cube edge (-s) must be 1..%d elements, not %d", LULESH_GLOBAL_EDGE_MAX,
            size);
  const int64_t E = size;
  TSR_CHECK(nranks <= E * E * E, TSR_ERR_ARG,
            "lulesh: %d ranks for a cube of %lld elements (-s %d): at most one rank per element",
            nranks, (long long)(E * E * E), size);
  TSR_CHECK(E * E * E < INT32_MAX / 6, TSR_ERR_UNSUPPORTED,
            "lulesh: --decomp metis: the face graph of a cube of %lld elements exceeds METIS's "
            "32-bit indices; use --decomp block", (long long)(E * E * E));
  TSR_CALL(metis_owned(comm, E, t));
  int rc = part_global(E, nr, balance, m, t);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
}

/* Interface nodes of a px x py x pz grid of boxes over the cube of edge E:
 * the nodes on an inner cut plane. */
static int64_t block_iface(int64_t E, const int d[3]) {
  int64_t n1 = E + 1;
  return n1 * n1 * n1 - (n1 - (d[0] - 1)) * (n1 - (d[1] - 1)) * (n1 - (d[2] - 1));
}

int lulesh_block_dims(int nranks, int edge, int dims[3]) {
  TSR_CHECK(nranks >= 1 && edge >= 1, TSR_ERR_ARG, "lulesh: --decomp block: %d ranks, edge %d",
            nranks, edge);
  int best[3] = {0, 0, 0};
  int64_t bcost = 0;
  for (int pz = nranks; pz >= 1; pz--) { /* ties: more cuts along z, then y (whole planes) */
    if (nranks % pz) continue;
    for (int py = nranks / pz; py >= 1; py--) {
      if ((nranks / pz) % py) continue;
      int d[3] = {nranks / pz / py, py, pz};
      if (d[0] > edge || d[1] > edge || d[2] > edge) continue;
      int64_t c = block_iface(edge, d);
      if (!best[0] || c < bcost) memcpy(best, d, sizeof best), bcost = c;
    }
  }
  TSR_CHECK(best[0], TSR_ERR_ARG,
            "lulesh: --decomp block: %d ranks cannot cut a cube of edge %d (-s) into boxes of "
            "at least one element (every factorisation puts more ranks than elements along an "
            "axis); use fewer ranks or a larger -s",
            nranks, edge);
  memcpy(dims, best, sizeof best);
  return 0;
}

void lulesh_block_box(int edge, const int dims[3], int rank, int64_t lo[3], int64_t hi[3]) {
  int c[3] = {rank % dims[0], (rank / dims[0]) % dims[1], rank / (dims[0] * dims[1])};
  for (int d = 0; d < 3; d++) {
    tsr_idx_t a, b;
    tsr_part_block(edge, dims[d], c[d], &a, &b);
    lo[d] = a, hi[d] = b;
  }
}

static int part_block(int rank, int nranks, int size, int nr, int balance, lulesh_mesh_t *m,
                      ids_t *t) {
  TSR_CHECK(size >= 1 && size <= LULESH_GLOBAL_EDGE_MAX, TSR_ERR_ARG,
            "lulesh: the cube edge (-s) must be 1..%d elements, not %d", LULESH_GLOBAL_EDGE_MAX,
            size);
  int dims[3];
  TSR_CALL(lulesh_block_dims(nranks, size, dims));
  int64_t lo[3], hi[3], E = size;
  lulesh_block_box(size, dims, rank, lo, hi);
  int64_t ne = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  t->own = malloc(sizeof(int64_t) * (size_t)(ne + 1));
  TSR_CHECK(t->own, TSR_ERR_ALLOC, "lulesh: cannot allocate a part's ids");
  for (int64_t k = lo[2]; k < hi[2]; k++)
    for (int64_t j = lo[1]; j < hi[1]; j++)
      for (int64_t i = lo[0]; i < hi[0]; i++) t->own[t->ne++] = (k * E + j) * E + i;
  return part_global(E, nr, balance, m, t);
}

static int part_cube(int rank, int p, int size, int nr, int balance, lulesh_mesh_t *m, ids_t *t) {
  TSR_CHECK(size >= 1 && size <= 600, TSR_ERR_ARG,
            "lulesh: the edge per rank (-s) must be 1..600 elements, not %d", size);
  int64_t n = size, E = (int64_t)p * n;
  int64_t ci = rank % p, cj = (rank / p) % p, ck = rank / (p * p);
  t->own = malloc(sizeof(int64_t) * (size_t)(n * n * n));
  TSR_CHECK(t->own, TSR_ERR_ALLOC, "lulesh: cannot allocate a part's ids");
  for (int64_t k = 0; k < n; k++)
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < n; i++)
        t->own[t->ne++] = ((ck * n + k) * E + cj * n + j) * E + ci * n + i;
  gsrc_t s = {E, NULL};
  TSR_CALL(build_part(&s, t, m));
  /* LULESH's MPI build draws each rank's regions with srand(myRank) */
  TSR_CALL(lulesh_regions_assign_seed(m->num_elem, nr, balance, (unsigned)rank, m->reg_num));
  m->origin = rank == 0 ? 0 : -1;
  m->einit = lulesh_sedov_einit(E);
  return 0;
}

/* The end of every part: CSR tables, checks, the global ids (agreed). */
static int part_finish(MPI_Comm comm, int rc, int nr, lulesh_mesh_t *m, ids_t *tp,
                       int64_t **elem_gid, int64_t **node_gid) {
  ids_t t = *tp;
  m->num_reg = nr;
  m->edge = 0; /* a part, not a cube */
  if (!rc) rc = lulesh_mesh_build_csr(m);
  if (!rc) rc = lulesh_mesh_check(m, "lulesh part");
  rc = tsr_error_agree(comm, rc);
  if (!rc) {
    int64_t *eg = malloc(sizeof *eg * (size_t)(t.ne + t.ng + 1));
    if (eg) {
      memcpy(eg, t.own, sizeof *eg * (size_t)t.ne);
      memcpy(eg + t.ne, t.ghost, sizeof *eg * (size_t)t.ng);
      *elem_gid = eg;
      *node_gid = t.node;
      t.node = NULL;
    } else
      rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate global ids");
    rc = tsr_error_agree(comm, rc);
  }
  ids_free(&t);
  memset(tp, 0, sizeof *tp);
  if (rc) lulesh_mesh_free(m);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
}

int lulesh_dist_part(MPI_Comm comm, lulesh_decomp_t decomp, int size, int nr, int balance,
                     lulesh_mesh_t *m, int64_t **elem_gid, int64_t **node_gid, int *edge) {
  int rank, nranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  memset(m, 0, sizeof *m);
  *elem_gid = *node_gid = NULL;
  ids_t t;
  memset(&t, 0, sizeof t);
  int rc = 0, p = 0;
  if (decomp == LULESH_DECOMP_CUBE) {
    p = (int)lround(cbrt((double)nranks));
    /* the same test on every rank: one message, no communication */
    TSR_CHECK(p * p * p == nranks, TSR_ERR_ARG,
              "lulesh: the cube decomposition needs a cube number of ranks (1, 8, 27, 64, ...), "
              "not %d; use --decomp block or metis for any rank count", nranks);
    rc = tsr_error_agree(comm, part_cube(rank, p, size, nr, balance, m, &t));
    *edge = p * size;
  } else if (decomp == LULESH_DECOMP_BLOCK) {
    rc = part_block(rank, nranks, size, nr, balance, m, &t);
    *edge = size;
  } else {
    rc = part_metis(comm, size, nr, balance, m, &t);
    *edge = size;
  }
  return part_finish(comm, rc, nr, m, &t, elem_gid, node_gid);
}

int lulesh_dist_part_records(MPI_Comm comm, const lulesh_dist_records_t *r, int nr,
                             int64_t origin, double einit, lulesh_mesh_t *m, int64_t **elem_gid,
                             int64_t **node_gid) {
  memset(m, 0, sizeof *m);
  *elem_gid = *node_gid = NULL;
  ids_t t;
  memset(&t, 0, sizeof t);
  t.own = malloc(sizeof(int64_t) * (size_t)(r->ne + 1));
  int rc = t.own ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate a part's ids");
  if (!rc) {
    memcpy(t.own, r->elem_gid, sizeof(int64_t) * (size_t)r->ne);
    t.ne = r->ne;
    gsrc_t s = {0, r};
    rc = build_part(&s, &t, m);
  }
  for (int64_t e = 0; !rc && e < t.ne; e++) m->reg_num[e] = (int32_t)r->elem[LULESH_EREC * e + 15];
  m->origin = rc ? -1 : (int32_t)find(t.own, t.ne, origin);
  m->einit = einit;
  return part_finish(comm, rc, nr, m, &t, elem_gid, node_gid);
}
