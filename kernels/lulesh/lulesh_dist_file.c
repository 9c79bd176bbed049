/* kernels/lulesh/lulesh_dist_file.c: one rank's part of a hex-mesh file
 * (lulesh_dist.h, lulesh_dist_create_file): each rank reads its block of
 * rows (tsr_hex_read, checked), the elements are partitioned (METIS on the
 * face graph, or LULESH's cube boxes for a generated cube), their records
 * go to their ranks, which fetch the coordinates and symmetry flags of the
 * nodes they use from the nodes' blocks. No rank holds the whole mesh
 * (rank 0 holds the element face graph while METIS partitions it). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/error.h"
#include "tessera/graph.h"
#include "tessera/part.h"
#include "tessera/xfer.h"
#include "kernels/lulesh/lulesh_dist.h"

#define ER (LULESH_EREC + 1) /* a sent element record: global id, then LULESH_EREC */

static int cmp_first(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The arrays of the BLOCK (or, on one rank, SERIAL) mesh read. */
typedef struct {
  const tsr_set_t *es, *ns;
  const int32_t *conn, *faces, *bc, *reg;
  const double *x;
} blk_t;

static int blk_get(const tsr_mesh_t *t, const char *path, blk_t *b) {
  int ie = tsr_mesh_find_set(t, TSR_HEX_ELEMS), in = tsr_mesh_find_set(t, TSR_HEX_NODES);
  int mc = tsr_mesh_find_map(t, TSR_HEX_CONN), mf = tsr_mesh_find_map(t, TSR_HEX_FACES);
  int db = tsr_mesh_find_dat(t, TSR_HEX_BC), dr = tsr_mesh_find_dat(t, TSR_HEX_REGION);
  int dx = tsr_mesh_find_dat(t, TSR_HEX_COORDS);
  TSR_CHECK(ie >= 0 && in >= 0 && mc >= 0 && mf >= 0 && db >= 0 && dr >= 0 && dx >= 0,
            TSR_ERR_FORMAT, "%s: not a hex mesh (a set, map or dat is missing)", path);
  b->es = tsr_mesh_set(t, ie), b->ns = tsr_mesh_set(t, in);
  b->conn = tsr_mesh_map(t, mc)->data, b->faces = tsr_mesh_map(t, mf)->data;
  b->bc = tsr_mesh_dat(t, db)->data, b->reg = tsr_mesh_dat(t, dr)->data;
  b->x = tsr_mesh_dat(t, dx)->data;
  return 0;
}

/* METIS parts of this rank's block of elements: the face graph (the
 * neighbours other than the element itself, faces in order, as the
 * generated METIS decomposition builds it) gathered to rank 0, partitioned
 * there with the same seed, the parts scattered back. */
static int parts_metis(MPI_Comm comm, const char *path, const blk_t *b, int *part) {
  int rank, P;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &P);
  const int64_t cnt = b->es->size, first = b->es->offset, N = b->es->global_size;
  int *deg = calloc((size_t)cnt + 1, sizeof *deg);
  int64_t *adj = malloc(sizeof *adj * (size_t)(6 * cnt + 1));
  int *cn = rank == 0 ? calloc(4 * (size_t)P, sizeof *cn) : NULL;
  int rc = deg && adj && (rank || cn) ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for the "
                                                      "face graph", path);
  int64_t k = 0;
  for (int64_t e = 0; !rc && e < cnt; e++)
    for (int q = 0; q < 6; q++)
      if (b->faces[6 * e + q] != first + e) adj[k++] = b->faces[6 * e + q], deg[e]++;
  rc = tsr_error_agree(comm, rc);
  int ic = (int)cnt, ik = (int)k;
  int *gdeg = NULL, *gpart = NULL;
  int64_t *gadj = NULL;
  if (!rc) {
    MPI_Gather(&ic, 1, MPI_INT, cn, 1, MPI_INT, 0, comm);
    MPI_Gather(&ik, 1, MPI_INT, cn ? cn + P : NULL, 1, MPI_INT, 0, comm);
    if (rank == 0) {
      int64_t tk = 0;
      for (int q = 0; q < P; q++) tk += cn[P + q];
      for (int q = 1; q < P; q++)
        cn[2 * P + q] = cn[2 * P + q - 1] + cn[q - 1], cn[3 * P + q] = cn[3 * P + q - 1] + cn[P + q - 1];
      gdeg = malloc(sizeof *gdeg * (size_t)(N + 1)), gpart = malloc(sizeof *gpart * (size_t)(N + 1));
      gadj = malloc(sizeof *gadj * (size_t)(tk + 1));
      if (!gdeg || !gpart || !gadj)
        rc = TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for the face graph of %lld elements", path,
                       (long long)N);
    }
    rc = tsr_error_agree(comm, rc);
  }
  if (!rc) {
    MPI_Gatherv(deg, ic, MPI_INT, gdeg, cn, cn ? cn + 2 * P : NULL, MPI_INT, 0, comm);
    MPI_Gatherv(adj, ik, MPI_INT64_T, gadj, cn ? cn + P : NULL, cn ? cn + 3 * P : NULL,
                MPI_INT64_T, 0, comm);
    if (rank == 0) {
      tsr_graph_t gr;
      memset(&gr, 0, sizeof gr);
      char what[300];
      snprintf(what, sizeof what, "the face graph of %s", path);
      rc = tsr_graph_from_csr(N, gdeg, gadj, &gr);
      if (!rc) rc = tsr_graph_partition(&gr, P, 1, 0, what, gpart);
      tsr_graph_free(&gr);
      int *c = rc ? NULL : calloc((size_t)P, sizeof *c);
      if (!rc && !c) rc = TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory", path);
      for (int64_t e = 0; !rc && e < N; e++) c[gpart[e]]++;
      for (int q = 0; !rc && q < P; q++)
        if (c[q] == 0)
          rc = TSR_RAISE(TSR_ERR_PARTITION, "%s: METIS left rank %d of %d without elements (%lld "
                         "elements); use fewer ranks", path, q, P, (long long)N);
      free(c);
    }
    rc = tsr_error_agree(comm, rc);
  }
  if (!rc) MPI_Scatterv(gpart, cn, cn ? cn + 2 * P : NULL, MPI_INT, part, ic, MPI_INT, 0, comm);
  free(deg), free(adj), free(cn), free(gdeg), free(gpart), free(gadj);
  return rc;
}

/* LULESH's cube boxes: a generated cube of edge E = p n on p^3 ranks; each
 * element's cell from its centroid (any numbering), its rank the box
 * (i / n, j / n, k / n) numbered as LULESH numbers its domains. */
static int parts_cube(MPI_Comm comm, const char *path, const tsr_hex_header_t *h, const blk_t *b,
                      int *part) {
  int P;
  MPI_Comm_size(comm, &P);
  int p = (int)lround(cbrt((double)P));
  const int64_t E = h->edge;
  /* the header is the same on every rank: one message, no hang */
  TSR_CHECK(p * p * p == P, TSR_ERR_ARG,
            "--decomp cube: needs a cube number of ranks (1, 8, 27, 64, ...), not %d; use "
            "--decomp metis for any rank count", P);
  TSR_CHECK(E > 0 && E % p == 0 && E * E * E == b->es->global_size, TSR_ERR_ARG,
            "--decomp cube: %s is %s, not a generated cube whose edge %d ranks per edge divide; "
            "use --decomp metis", path, E > 0 ? "a cube" : "no generated cube", p);
  const int64_t cnt = b->es->size, nn = b->ns->size;
  int64_t *have = malloc(sizeof *have * (size_t)(nn + 1));
  int64_t *want = malloc(sizeof *want * (size_t)(8 * cnt + 1));
  int *wr = malloc(sizeof *wr * (size_t)(8 * cnt + 1));
  double *c = malloc(sizeof *c * (size_t)(24 * cnt + 1));
  int rc = have && want && wr && c ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory", path);
  rc = tsr_error_agree(comm, rc);
  tsr_xfer_t *xf = NULL;
  if (!rc) {
    for (int64_t i = 0; i < nn; i++) have[i] = b->ns->offset + i;
    for (int64_t k = 0; k < 8 * cnt; k++)
      want[k] = b->conn[k], wr[k] = tsr_part_block_owner(b->ns->global_size, P, b->conn[k]);
    rc = tsr_xfer_create(comm, nn, have, 8 * cnt, want, wr, &xf);
  }
  if (!rc) rc = tsr_xfer_run(xf, b->x, c, 3 * sizeof(double));
  tsr_xfer_destroy(&xf);
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int64_t i = 0; i < nn; i++)
    for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], b->x[3 * i + d]), hi[d] = fmax(hi[d], b->x[3 * i + d]);
  if (!rc) {
    MPI_Allreduce(MPI_IN_PLACE, lo, 3, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, hi, 3, MPI_DOUBLE, MPI_MAX, comm);
  }
  const int64_t n = E / p;
  for (int64_t e = 0; !rc && e < cnt; e++) {
    int64_t box[3];
    for (int d = 0; d < 3; d++) {
      double s = 0.0;
      for (int k = 0; k < 8; k++) s += c[24 * e + 3 * k + d];
      int64_t i = (int64_t)((s / 8.0 - lo[d]) / (hi[d] - lo[d]) * (double)E);
      if (!(hi[d] > lo[d]) || i < 0 || i >= E) {
        rc = TSR_RAISE(TSR_ERR_FORMAT, "--decomp cube: element %lld of %s is not a cell of a "
                       "cube of edge %lld", (long long)(b->es->offset + e), path, (long long)E);
        break;
      }
      box[d] = i / n;
    }
    if (!rc) part[e] = (int)(box[0] + p * (box[1] + p * box[2]));
  }
  free(have), free(want), free(wr), free(c);
  return tsr_error_agree(comm, rc);
}

/* Records (es bytes, an int64 destination key first) to their ranks:
 * dest[n]; *out, *nout: what this rank receives. Collective. */
static int send_records(MPI_Comm comm, int64_t n, const int *dest, const void *rec, size_t es,
                        void **out, int64_t *nout) {
  int P;
  MPI_Comm_size(comm, &P);
  int64_t *c = calloc(5 * (size_t)P, sizeof *c), *sd = c + P, *rcn = c + 2 * P, *rd = c + 3 * P,
          *fill = c + 4 * P;
  char *sbuf = malloc(es * (size_t)(n + 1)), *rbuf = NULL;
  int rc = c && sbuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory to send %lld records",
                                     (long long)n);
  rc = tsr_error_agree(comm, rc);
  if (!rc) {
    for (int64_t i = 0; i < n; i++) c[dest[i]]++;
    for (int q = 1; q < P; q++) sd[q] = sd[q - 1] + c[q - 1];
    for (int q = 0; q < P; q++) fill[q] = sd[q];
    for (int64_t i = 0; i < n; i++)
      memcpy(sbuf + es * (size_t)fill[dest[i]]++, (const char *)rec + es * (size_t)i, es);
    MPI_Alltoall(c, 1, MPI_INT64_T, rcn, 1, MPI_INT64_T, comm);
    for (int q = 1; q < P; q++) rd[q] = rd[q - 1] + rcn[q - 1];
    *nout = rd[P - 1] + rcn[P - 1];
    rbuf = malloc(es * (size_t)(*nout + 1));
    rc = tsr_error_agree(comm, rbuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory for %lld "
                                                    "records", (long long)*nout));
  }
  if (!rc) rc = tsr_alltoallv(comm, sbuf, c, sd, rbuf, rcn, rd, es);
  free(c), free(sbuf);
  if (rc) free(rbuf), rbuf = NULL;
  *out = rbuf;
  return rc;
}

/* The symmetry bits of this rank's block of nodes (blk[nn]): each rank's
 * rows of the three symmetry maps to the nodes' block owners. */
static int symm_bits(MPI_Comm comm, const tsr_mesh_t *t, const blk_t *b, double *xb) {
  int P;
  MPI_Comm_size(comm, &P);
  int64_t tot = 0;
  for (int d = 0; d < 3; d++) {
    int is = tsr_mesh_find_set(t, tsr_hex_symm_sets[d]);
    tot += is >= 0 ? tsr_mesh_set(t, is)->size : 0;
  }
  int64_t(*r)[2] = malloc(sizeof *r * (size_t)(tot + 1));
  int *dest = malloc(sizeof *dest * (size_t)(tot + 1));
  int rc = r && dest ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory for symmetry sets");
  rc = tsr_error_agree(comm, rc);
  int64_t k = 0;
  for (int d = 0; !rc && d < 3; d++) {
    int is = tsr_mesh_find_set(t, tsr_hex_symm_sets[d]), im = tsr_mesh_find_map(t, tsr_hex_symm_maps[d]);
    if (is < 0 || im < 0) continue; /* tsr_hex_read checked they exist */
    const int32_t *m = tsr_mesh_map(t, im)->data;
    for (int64_t i = 0; i < tsr_mesh_set(t, is)->size; i++, k++) {
      r[k][0] = m[i], r[k][1] = 1 << d;
      dest[k] = tsr_part_block_owner(b->ns->global_size, P, m[i]);
    }
  }
  int64_t (*got)[2] = NULL, ng = 0;
  if (!rc) rc = send_records(comm, k, dest, r, sizeof *r, (void **)&got, &ng);
  for (int64_t i = 0; !rc && i < ng; i++)
    xb[4 * (got[i][0] - b->ns->offset) + 3] = (double)((int)xb[4 * (got[i][0] - b->ns->offset) + 3] | (int)got[i][1]);
  free(r), free(dest), free(got);
  return rc;
}

static int part_file(MPI_Comm comm, lulesh_decomp_t decomp, const char *path, const tsr_mesh_t *t,
                     const tsr_hex_header_t *h, lulesh_mesh_t *m, int64_t **elem_gid,
                     int64_t **node_gid) {
  int P;
  MPI_Comm_size(comm, &P);
  blk_t b;
  memset(&b, 0, sizeof b);
  TSR_CALL(blk_get(t, path, &b));
  const int64_t cnt = b.es->size, nnb = b.ns->size;
  TSR_CHECK(P <= b.es->global_size, TSR_ERR_ARG, "%s: %d ranks for %lld elements: at most one "
            "rank per element", path, P, (long long)b.es->global_size);
  int *part = malloc(sizeof *part * (size_t)(cnt + 1));
  int64_t *rec = malloc(sizeof *rec * ER * (size_t)(cnt + 1)), *got = NULL, ne = 0;
  double *xb = malloc(sizeof *xb * 4 * (size_t)(nnb + 1));
  lulesh_dist_records_t r;
  memset(&r, 0, sizeof r);
  int rc = part && rec && xb ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for a block", path);
  rc = tsr_error_agree(comm, rc);
  if (!rc)
    rc = decomp == LULESH_DECOMP_CUBE ? parts_cube(comm, path, h, &b, part)
                                      : parts_metis(comm, path, &b, part);
  for (int64_t e = 0; !rc && e < cnt; e++) {
    int64_t *o = rec + ER * e;
    o[0] = b.es->offset + e;
    for (int c = 0; c < 8; c++) o[1 + c] = b.conn[8 * e + c];
    for (int f = 0; f < 6; f++) o[9 + f] = b.faces[6 * e + f];
    o[15] = b.bc[e], o[16] = b.reg[e];
  }
  if (!rc) rc = send_records(comm, cnt, part, rec, sizeof *rec * ER, (void **)&got, &ne);
  if (!rc) { /* sorted by global id, split into ids and records */
    qsort(got, (size_t)ne, sizeof *got * ER, cmp_first);
    r.ne = ne;
    r.elem_gid = malloc(sizeof(int64_t) * (size_t)(ne + 1));
    r.elem = malloc(sizeof(int64_t) * LULESH_EREC * (size_t)(ne + 1));
    r.node_gid = malloc(sizeof(int64_t) * 8 * (size_t)(ne + 1));
    rc = r.elem_gid && r.elem && r.node_gid ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory", path);
  }
  rc = tsr_error_agree(comm, rc);
  for (int64_t e = 0; !rc && e < ne; e++) {
    r.elem_gid[e] = got[ER * e];
    memcpy(r.elem + LULESH_EREC * e, got + ER * e + 1, sizeof(int64_t) * LULESH_EREC);
    for (int c = 0; c < 8; c++) r.node_gid[8 * e + c] = got[ER * e + 1 + c];
  }
  if (!rc) { /* the nodes used: sorted, unique */
    qsort(r.node_gid, (size_t)(8 * ne), sizeof(int64_t), cmp_first);
    for (int64_t i = 0; i < 8 * ne; i++)
      if (r.nn == 0 || r.node_gid[i] != r.node_gid[r.nn - 1]) r.node_gid[r.nn++] = r.node_gid[i];
    for (int64_t i = 0; i < nnb; i++) {
      for (int d = 0; d < 3; d++) xb[4 * i + d] = b.x[3 * i + d];
      xb[4 * i + 3] = 0.0;
    }
    rc = symm_bits(comm, t, &b, xb);
  }
  int *wr = rc ? NULL : malloc(sizeof *wr * (size_t)(r.nn + 1));
  int64_t *have = rc ? NULL : malloc(sizeof *have * (size_t)(nnb + 1));
  if (!rc) {
    r.node = malloc(sizeof(double) * 4 * (size_t)(r.nn + 1));
    rc = wr && have && r.node ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "%s: no memory for nodes", path);
    rc = tsr_error_agree(comm, rc);
  }
  tsr_xfer_t *xf = NULL;
  if (!rc) {
    for (int64_t i = 0; i < nnb; i++) have[i] = b.ns->offset + i;
    for (int64_t i = 0; i < r.nn; i++) wr[i] = tsr_part_block_owner(b.ns->global_size, P, r.node_gid[i]);
    rc = tsr_xfer_create(comm, nnb, have, r.nn, r.node_gid, wr, &xf);
  }
  if (!rc) rc = tsr_xfer_run(xf, xb, r.node, 4 * sizeof(double));
  tsr_xfer_destroy(&xf);
  free(part), free(rec), free(got), free(xb), free(wr), free(have);
  if (!rc)
    rc = lulesh_dist_part_records(comm, &r, h->regions, h->origin, h->einit, m, elem_gid, node_gid);
  free(r.elem_gid), free(r.elem), free(r.node_gid), free(r.node);
  return rc;
}

int lulesh_dist_part_file(MPI_Comm comm, lulesh_decomp_t decomp, const char *path,
                          lulesh_mesh_t *m, int64_t **elem_gid, int64_t **node_gid,
                          tsr_hex_header_t *h) {
  memset(m, 0, sizeof *m);
  *elem_gid = *node_gid = NULL;
  tsr_mesh_t *t = NULL;
  TSR_CALL(tsr_hex_read(comm, path, &t, h, NULL));
  int rc = part_file(comm, decomp, path, t, h, m, elem_gid, node_gid);
  tsr_mesh_destroy(&t);
  rc = tsr_error_agree(comm, rc);
  if (!rc) m->edge = 0; /* a part */
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : 0;
}
