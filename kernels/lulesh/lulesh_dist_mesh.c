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
#include "kernels/lulesh/lulesh_dist.h"

/* Where the global elements come from: the cube's formulas (edge E, no
 * global arrays: the cube decomposition), a whole mesh g whose indices
 * are the global ids (METIS), or the records of a file's elements and
 * nodes this rank was sent (tab: lulesh_dist_part_records). */
typedef struct {
  int64_t E;
  const lulesh_mesh_t *g;
  const uint8_t *symm; /* g: symmetry bits per node */
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
  if (s->g) {
    const lulesh_mesh_t *g = s->g;
    for (int c = 0; c < 8; c++) nodes[c] = g->nodelist[8 * id + c];
    const int32_t *f[6] = {g->lxim, g->lxip, g->letam, g->letap, g->lzetam, g->lzetap};
    for (int k = 0; k < 6; k++) nb[k] = f[k][id];
    *bc = g->elem_bc[id];
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
  if (s->g) {
    *x = s->g->x[id], *y = s->g->y[id], *z = s->g->z[id];
    *symm = s->symm[id];
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

/* METIS on the face graph of g: part[num_elem] on every rank (computed on
 * rank 0, broadcast). Every part must get an element. */
static int metis_parts(MPI_Comm comm, const lulesh_mesh_t *g, int nranks, int *part) {
  int rank, rc = 0;
  MPI_Comm_rank(comm, &rank);
  int32_t ne = g->num_elem;
  if (rank == 0 && nranks > 1) {
    int *deg = calloc((size_t)ne, sizeof *deg);
    int64_t *adj = malloc(sizeof *adj * (size_t)(6 * (int64_t)ne));
    tsr_graph_t gr;
    memset(&gr, 0, sizeof gr);
    if (!deg || !adj) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the face graph");
    const int32_t *f[6] = {g->lxim, g->lxip, g->letam, g->letap, g->lzetam, g->lzetap};
    int64_t k = 0;
    for (int32_t e = 0; !rc && e < ne; e++)
      for (int q = 0; q < 6; q++)
        if (f[q][e] != e) adj[k++] = f[q][e], deg[e]++;
    if (!rc) rc = tsr_graph_from_csr(ne, deg, adj, &gr);
    if (!rc)
      rc = tsr_graph_partition(&gr, nranks, 1, 0, "the face graph of the LULESH cube", part);
    tsr_graph_free(&gr);
    free(deg), free(adj);
    int *cnt = rc ? NULL : calloc((size_t)nranks, sizeof *cnt);
    if (!rc && !cnt) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot count parts");
    for (int32_t e = 0; !rc && e < ne; e++) cnt[part[e]]++;
    for (int r = 0; !rc && r < nranks; r++)
      if (cnt[r] == 0)
        rc = TSR_RAISE(TSR_ERR_PARTITION,
                       "lulesh: METIS left rank %d of %d without elements (a cube of %d "
                       "elements); use fewer ranks or a larger -s",
                       r, nranks, ne);
    free(cnt);
  } else if (nranks == 1)
    memset(part, 0, sizeof *part * (size_t)ne);
  TSR_CALL(tsr_error_agree(comm, rc));
  TSR_CALL_MPI(MPI_Bcast(part, ne, MPI_INT, 0, comm));
  return 0;
}

static int part_metis(MPI_Comm comm, int size, int nr, int balance, lulesh_mesh_t *m, ids_t *t) {
  int rank, nranks;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  lulesh_mesh_t g;
  TSR_CALL(lulesh_mesh_sedov(&g, size, nr, balance));
  if (nranks > g.num_elem) {
    lulesh_mesh_free(&g);
    return TSR_RAISE(TSR_ERR_ARG,
                     "lulesh: %d ranks for a cube of %d elements (-s %d): at most one rank per "
                     "element", nranks, size * size * size, size);
  }
  int rc = 0;
  int *part = malloc(sizeof *part * (size_t)g.num_elem);
  uint8_t *symm = calloc((size_t)g.num_node, 1);
  if (!part || !symm) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate the partition");
  rc = tsr_error_agree(comm, rc);
  if (!rc) rc = metis_parts(comm, &g, nranks, part);
  if (!rc) {
    for (int32_t i = 0; i < g.num_symm_x; i++) symm[g.symm_x[i]] |= 1;
    for (int32_t i = 0; i < g.num_symm_y; i++) symm[g.symm_y[i]] |= 2;
    for (int32_t i = 0; i < g.num_symm_z; i++) symm[g.symm_z[i]] |= 4;
    int64_t ne = 0;
    for (int32_t e = 0; e < g.num_elem; e++) ne += part[e] == rank;
    t->own = malloc(sizeof(int64_t) * (size_t)(ne + 1));
    if (!t->own) rc = TSR_RAISE(TSR_ERR_ALLOC, "lulesh: cannot allocate a part's ids");
    for (int32_t e = 0; !rc && e < g.num_elem; e++)
      if (part[e] == rank) t->own[t->ne++] = e;
    gsrc_t s = {g.edge, &g, symm, NULL};
    if (!rc) rc = build_part(&s, t, m);
    for (int64_t e = 0; !rc && e < t->ne; e++) m->reg_num[e] = g.reg_num[t->own[e]];
    m->origin = rc ? -1 : (int32_t)find(t->own, t->ne, g.origin);
    m->einit = g.einit;
  }
  free(part), free(symm);
  lulesh_mesh_free(&g);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
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
  gsrc_t s = {E, NULL, NULL, NULL};
  TSR_CALL(build_part(&s, t, m));
  /* LULESH's MPI build draws each rank's regions with srand(myRank) */
  TSR_CALL(lulesh_regions_assign_seed(m->num_elem, nr, balance, (unsigned)rank, m->reg_num));
  m->origin = rank == 0 ? 0 : -1;
  double scale = (double)E / 45.0;
  m->einit = 3.948746e+7 * scale * scale * scale;
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
              "not %d; use --decomp metis for any rank count", nranks);
    rc = tsr_error_agree(comm, part_cube(rank, p, size, nr, balance, m, &t));
    *edge = p * size;
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
    gsrc_t s = {0, NULL, NULL, r};
    rc = build_part(&s, &t, m);
  }
  for (int64_t e = 0; !rc && e < t.ne; e++) m->reg_num[e] = (int32_t)r->elem[LULESH_EREC * e + 15];
  m->origin = rc ? -1 : (int32_t)find(t.own, t.ne, origin);
  m->einit = einit;
  return part_finish(comm, rc, nr, m, &t, elem_gid, node_gid);
}
