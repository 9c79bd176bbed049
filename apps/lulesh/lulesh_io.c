/* apps/lulesh/lulesh_io.c: tsr-lulesh's files: the mesh from --input (a
 * hex-mesh file, docs/FORMAT.md) or LULESH's generated cube, and -o, the
 * final state in the hex-mesh kind with its results and an XDMF sidecar
 * (Hexahedron topology) for ParaView or VisIt. */
#include "config.h"
#include "tessera.h"
#include "apps/lulesh/lulesh_app.h"
#include "kernels/lulesh/lulesh_io.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -s, -r and -b are unset (INT_MIN) until parsed, so that they can be told
 * apart from their defaults. */
void lulesh_io_opts_begin(lulesh_opts_t *o) { o->edge = o->regions = o->balance = INT_MIN; }

int lulesh_io_opts_end(MPI_Comm comm, lulesh_opts_t *o, const char *input, const char *output) {
  if (input) {
    const char *given = o->edge != INT_MIN ? "-s" : o->regions != INT_MIN ? "-r"
                        : o->balance != INT_MIN ? "-b" : NULL;
    TSR_CHECK(!given, TSR_ERR_ARG,
              "option %s: the mesh comes from --input %s (its size and regions are the "
              "file's); %s applies to the generated cube only", given, input, given);
  } else {
    if (o->edge == INT_MIN) o->edge = 30;
    if (o->regions == INT_MIN) o->regions = 11;
    if (o->balance == INT_MIN) o->balance = 1;
  }
  TSR_CALL(tsr_output_check(comm, "-o", output));
  return TSR_SUCCESS;
}

int lulesh_io_mesh(MPI_Comm comm, const char *input, const char *decomp, int quiet,
                   lulesh_opts_t *o, lulesh_mesh_t *mesh, lulesh_dist_t **dist) {
  *dist = NULL;
  int nranks;
  MPI_Comm_size(comm, &nranks);
  tsr_hex_header_t h;
  lulesh_decomp_t dec = LULESH_DECOMP_METIS;
  if (nranks == 1) {
    TSR_CALL(lulesh_mesh_read(comm, input, mesh, &h));
  } else {
    /* each rank reads its blocks; the elements go to their ranks
       (kernels/lulesh/lulesh_dist_file.c): METIS unless --decomp cube */
    if (decomp && strcmp(decomp, "cube") == 0) dec = LULESH_DECOMP_CUBE;
    else
      TSR_CHECK(!decomp || strcmp(decomp, "metis") == 0, TSR_ERR_ARG,
                "option --decomp: '%s' with --input, expected cube or metis (block cuts the "
                "generated cube only)", decomp);
    TSR_CALL(lulesh_dist_create_file(comm, dec, input, mesh, &h, dist));
    lulesh_app_part_stats(comm, *dist, mesh->num_elem, o);
  }
  /* the file's problem: its cube edge (0 when not a generated cube) and
   * regions, for LULESH's reference check and report */
  o->input = input;
  o->edge = o->global_edge = h.edge;
  o->regions = h.regions;
  o->balance = h.balance;
  o->ranks = nranks;
  o->decomp = nranks > 1 ? lulesh_decomp_name(dec) : NULL;
  if (nranks > 1 && dec == LULESH_DECOMP_CUBE) /* -s per rank, as LULESH's */
    o->edge = h.edge / (int)lround(cbrt((double)nranks));
  int64_t ne = mesh->num_elem, nn = mesh->num_node;
  MPI_Allreduce(MPI_IN_PLACE, &ne, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &nn, 1, MPI_INT64_T, MPI_SUM, comm);
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (!quiet && rank == 0)
    printf("Mesh from %s: %lld elements, %lld nodes%s, %d regions, origin element %lld%s\n",
           input, (long long)ne, (long long)nn, nranks > 1 ? " (with the copies of shared ones)" : "",
           mesh->num_reg, (long long)h.origin,
           h.edge > 0 ? "" : " (not a generated cube: no LULESH reference)");
  return TSR_SUCCESS;
}

int lulesh_to_blocks(MPI_Comm comm, int64_t N, int64_t n, const int64_t *gid, const void *rec,
                     size_t es, void *rows) {
  int P, me;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  tsr_idx_t first, count;
  tsr_mesh_block_rows(N, P, me, &first, &count);
  const size_t rs = es + sizeof(int64_t);
  int64_t *c = calloc(5 * (size_t)P, sizeof *c), *sd = c + P, *rc_ = c + 2 * P, *rd = c + 3 * P,
          *fill = c + 4 * P;
  char *sbuf = malloc(rs * (size_t)(n + 1)), *rbuf = NULL;
  int rc = c && sbuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory for %lld rows",
                                     (long long)n);
  rc = tsr_error_agree(comm, rc);
  int64_t got = 0;
  if (!rc) {
    for (int64_t i = 0; i < n; i++) c[tsr_part_block_owner(N, P, gid[i])]++;
    for (int q = 1; q < P; q++) sd[q] = sd[q - 1] + c[q - 1];
    for (int q = 0; q < P; q++) fill[q] = sd[q];
    for (int64_t i = 0; i < n; i++) {
      char *o = sbuf + rs * (size_t)fill[tsr_part_block_owner(N, P, gid[i])]++;
      memcpy(o, &gid[i], sizeof(int64_t));
      memcpy(o + sizeof(int64_t), (const char *)rec + es * (size_t)i, es);
    }
    MPI_Alltoall(c, 1, MPI_INT64_T, rc_, 1, MPI_INT64_T, comm);
    for (int q = 1; q < P; q++) rd[q] = rd[q - 1] + rc_[q - 1];
    got = rd[P - 1] + rc_[P - 1];
    rbuf = malloc(rs * (size_t)(got + 1));
    rc = tsr_error_agree(comm, rbuf ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "lulesh: no memory"));
  }
  if (!rc) rc = tsr_alltoallv(comm, sbuf, c, sd, rbuf, rc_, rd, rs);
  for (int64_t i = 0; !rc && i < got; i++) { /* copies of a row hold the same bits */
    int64_t g;
    memcpy(&g, rbuf + rs * (size_t)i, sizeof g);
    memcpy((char *)rows + es * (size_t)(g - first), rbuf + rs * (size_t)i + sizeof g, es);
  }
  free(c), free(sbuf), free(rbuf);
  return rc;
}

/* The final state as a hex mesh: the mesh's arrays with the final node
 * coordinates, the element fields e, p, q, v (relative volume), the node
 * velocities, and the run's results as constants. */
static int state_mesh(const lulesh_mesh_t *mesh, const lulesh_state_t *s, tsr_mesh_t **out,
                      tsr_hex_header_t *h) {
  tsr_mesh_t *t = NULL;
  TSR_CALL(lulesh_mesh_to_tsr(mesh, &t, h));
  *out = t;
  int ie = tsr_mesh_find_set(t, TSR_HEX_ELEMS), in = tsr_mesh_find_set(t, TSR_HEX_NODES);
  double *x = tsr_mesh_dat(t, tsr_mesh_find_dat(t, TSR_HEX_COORDS))->data;
  for (int32_t n = 0; n < s->num_node; n++)
    x[3 * n] = s->x[n], x[3 * n + 1] = s->y[n], x[3 * n + 2] = s->z[n];
  const char *names[4] = {"e", "p", "q", "v"};
  const double *f[4] = {s->e, s->p, s->q, s->v};
  for (int k = 0; k < 4; k++)
    TSR_CALL(tsr_mesh_add_dat(t, names[k], ie, 1, TSR_DOUBLE, (void *)f[k], TSR_COPY, NULL));
  int iv;
  TSR_CALL(tsr_mesh_add_dat(t, "velocity", in, 3, TSR_DOUBLE, NULL, TSR_COPY, &iv));
  double *v = tsr_mesh_dat(t, iv)->data;
  for (int32_t n = 0; n < s->num_node; n++)
    v[3 * n] = s->xd[n], v[3 * n + 1] = s->yd[n], v[3 * n + 2] = s->zd[n];
  double tot = 0.0;
  for (int32_t e = 0; e < s->num_elem; e++) tot += s->e[e];
  double res[4] = {s->time, (double)s->cycle, s->e[mesh->origin], tot};
  const char *rn[4] = {"time", "cycles", "e_origin", "e_total"};
  for (int k = 0; k < 4; k++) TSR_CALL(tsr_mesh_add_const(t, rn[k], 1, &res[k], NULL));
  return TSR_SUCCESS;
}

/* The final state of a distributed run as a BLOCK hex mesh in the global
 * numbering: each rank sends its owned elements and its nodes (the copies
 * of a shared node hold the same bits) to the ranks whose block of rows
 * holds them (lulesh_to_blocks), which build their rows of every dataset;
 * the symmetry sets list their nodes in increasing global id. */
#define EW 20 /* element row: 8 nodes, 6 faces, bc, region, e, p, q, v */
#define NW 7  /* node row: x, y, z, xd, yd, zd, symmetry bits */
static int state_mesh_dist(MPI_Comm comm, const lulesh_mesh_t *mesh, lulesh_dist_t *dist,
                           const lulesh_state_t *s, tsr_mesh_t *t, tsr_hex_header_t *h) {
  int P, me;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  const int64_t *eg = lulesh_dist_elem_gid(dist), *ng = lulesh_dist_node_gid(dist);
  const int32_t ne = mesh->num_elem, nn = mesh->num_node;
  int64_t NE = ne, NN = 0, org = mesh->origin >= 0 ? eg[mesh->origin] : -1;
  for (int32_t i = 0; i < nn; i++) NN = ng[i] + 1 > NN ? ng[i] + 1 : NN;
  MPI_Allreduce(MPI_IN_PLACE, &NE, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &NN, 1, MPI_INT64_T, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &org, 1, MPI_INT64_T, MPI_MAX, comm);
  tsr_idx_t ef, ec, nf, nc;
  tsr_mesh_block_rows(NE, P, me, &ef, &ec);
  tsr_mesh_block_rows(NN, P, me, &nf, &nc);
  int64_t *er = malloc(sizeof *er * EW * (size_t)(ne + 1)), *erow = malloc(sizeof *erow * EW * (size_t)(ec + 1));
  double *nr = malloc(sizeof *nr * NW * (size_t)(nn + 1)), *nrow = calloc(NW * (size_t)(nc + 1), sizeof *nrow);
  int rc = er && erow && nr && nrow ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "-o: no memory for the rows");
  rc = tsr_error_agree(comm, rc);
  const int32_t *face[6] = {mesh->lxim, mesh->lxip, mesh->letam, mesh->letap, mesh->lzetam, mesh->lzetap};
  int comm_bits = 0;
  for (int f = 0; f < 6; f++) comm_bits |= LULESH_XI_M_COMM << (3 * f);
  for (int32_t e = 0; !rc && e < ne; e++) {
    int64_t *o = er + EW * e;
    for (int c = 0; c < 8; c++) o[c] = ng[mesh->nodelist[8 * (int64_t)e + c]];
    for (int f = 0; f < 6; f++) o[8 + f] = eg[face[f][e]];
    o[14] = mesh->elem_bc[e] & ~comm_bits, o[15] = mesh->reg_num[e];
    const double v[4] = {s->e[e], s->p[e], s->q[e], s->v[e]};
    memcpy(o + 16, v, sizeof v);
  }
  for (int32_t n = 0; !rc && n < nn; n++) {
    double *o = nr + NW * n;
    o[0] = s->x[n], o[1] = s->y[n], o[2] = s->z[n], o[3] = s->xd[n], o[4] = s->yd[n], o[5] = s->zd[n];
    o[6] = 0;
  }
  const int32_t nsy[3] = {mesh->num_symm_x, mesh->num_symm_y, mesh->num_symm_z};
  const int32_t *sy[3] = {mesh->symm_x, mesh->symm_y, mesh->symm_z};
  for (int d = 0; !rc && d < 3; d++)
    for (int32_t i = 0; i < nsy[d]; i++) nr[NW * sy[d][i] + 6] = (double)((int)nr[NW * sy[d][i] + 6] | 1 << d);
  if (!rc) rc = lulesh_to_blocks(comm, NE, ne, eg, er, sizeof *er * EW, erow);
  if (!rc) rc = lulesh_to_blocks(comm, NN, nn, ng, nr, sizeof *nr * NW, nrow);
  free(er), free(nr);
  int ids[5];
  if (!rc) rc = tsr_mesh_set_dist(t, TSR_MESH_BLOCK);
  if (!rc) rc = tsr_mesh_add_set_block(t, TSR_HEX_NODES, NN, nf, nc, &ids[0]);
  if (!rc) rc = tsr_mesh_add_set_block(t, TSR_HEX_ELEMS, NE, ef, ec, &ids[1]);
  /* the symmetry sets: this block's nodes on each plane, at their place in
     the global list (increasing node id), to that list's blocks */
  int64_t cnt[3] = {0, 0, 0}, off[3] = {0, 0, 0}, tot[3];
  for (tsr_idx_t i = 0; i < nc; i++)
    for (int d = 0; d < 3; d++) cnt[d] += ((int)nrow[NW * i + 6] >> d) & 1;
  MPI_Exscan(cnt, off, 3, MPI_INT64_T, MPI_SUM, comm);
  if (me == 0) off[0] = off[1] = off[2] = 0;
  MPI_Allreduce(cnt, tot, 3, MPI_INT64_T, MPI_SUM, comm);
  int32_t *smap[3] = {NULL, NULL, NULL};
  for (int d = 0; !rc && d < 3; d++) {
    tsr_idx_t sf, sc;
    tsr_mesh_block_rows(tot[d], P, me, &sf, &sc);
    int64_t *pos = malloc(sizeof *pos * (size_t)(cnt[d] + 1)), *id = malloc(sizeof *id * (size_t)(cnt[d] + 1));
    int64_t *rows = malloc(sizeof *rows * (size_t)(sc + 1));
    smap[d] = malloc(sizeof(int32_t) * (size_t)(sc + 1));
    rc = tsr_error_agree(comm, pos && id && rows && smap[d] ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "-o: no memory"));
    int64_t k = 0;
    for (tsr_idx_t i = 0; !rc && i < nc; i++)
      if (((int)nrow[NW * i + 6] >> d) & 1) pos[k] = off[d] + k, id[k] = nf + i, k++;
    if (!rc) rc = lulesh_to_blocks(comm, tot[d], k, pos, id, sizeof *id, rows);
    for (tsr_idx_t i = 0; !rc && i < sc; i++) smap[d][i] = (int32_t)rows[i];
    if (!rc) rc = tsr_mesh_add_set_block(t, tsr_hex_symm_sets[d], tot[d], sf, sc, NULL);
    free(pos), free(id), free(rows);
  }
  int32_t *conn = rc ? NULL : malloc(sizeof *conn * 8 * (size_t)(ec + 1));
  int32_t *fc = rc ? NULL : malloc(sizeof *fc * 6 * (size_t)(ec + 1));
  int32_t *bc = rc ? NULL : malloc(sizeof *bc * (size_t)(ec + 1));
  int32_t *reg = rc ? NULL : malloc(sizeof *reg * (size_t)(ec + 1));
  double *x = rc ? NULL : malloc(sizeof *x * 3 * (size_t)(nc + 1));
  double *vel = rc ? NULL : malloc(sizeof *vel * 3 * (size_t)(nc + 1));
  double *fe[4];
  for (int k = 0; k < 4; k++) fe[k] = rc ? NULL : malloc(sizeof(double) * (size_t)(ec + 1));
  int ok = !rc && conn && fc && bc && reg && x && vel && fe[0] && fe[1] && fe[2] && fe[3];
  if (!rc) rc = tsr_error_agree(comm, ok ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "-o: no memory"));
  for (tsr_idx_t i = 0; !rc && i < ec; i++) {
    const int64_t *o = erow + EW * i;
    for (int c = 0; c < 8; c++) conn[8 * i + c] = (int32_t)o[c];
    for (int f = 0; f < 6; f++) fc[6 * i + f] = (int32_t)o[8 + f];
    bc[i] = (int32_t)o[14], reg[i] = (int32_t)o[15];
    double v[4];
    memcpy(v, o + 16, sizeof v);
    for (int k = 0; k < 4; k++) fe[k][i] = v[k];
  }
  for (tsr_idx_t i = 0; !rc && i < nc; i++)
    for (int d = 0; d < 3; d++) x[3 * i + d] = nrow[NW * i + d], vel[3 * i + d] = nrow[NW * i + 3 + d];
  /* the order of lulesh_mesh_to_tsr, then the state (as one rank writes it) */
  if (!rc) rc = tsr_mesh_add_map(t, TSR_HEX_CONN, ids[1], ids[0], 8, conn, TSR_ADOPT, NULL), conn = NULL;
  if (!rc) rc = tsr_mesh_add_map(t, TSR_HEX_FACES, ids[1], ids[1], 6, fc, TSR_ADOPT, NULL), fc = NULL;
  for (int d = 0; d < 3 && !rc; d++) {
    rc = tsr_mesh_add_map(t, tsr_hex_symm_maps[d], tsr_mesh_find_set(t, tsr_hex_symm_sets[d]),
                          ids[0], 1, smap[d], TSR_ADOPT, NULL);
    smap[d] = NULL;
  }
  if (!rc) rc = tsr_mesh_add_dat(t, TSR_HEX_COORDS, ids[0], 3, TSR_DOUBLE, x, TSR_ADOPT, NULL), x = NULL;
  if (!rc) rc = tsr_mesh_add_dat(t, TSR_HEX_BC, ids[1], 1, TSR_INT32, bc, TSR_ADOPT, NULL), bc = NULL;
  if (!rc) rc = tsr_mesh_add_dat(t, TSR_HEX_REGION, ids[1], 1, TSR_INT32, reg, TSR_ADOPT, NULL), reg = NULL;
  if (!rc) rc = tsr_mesh_add_const(t, TSR_HEX_EINIT, 1, &mesh->einit, NULL);
  const char *names[4] = {"e", "p", "q", "v"};
  for (int k = 0; k < 4 && !rc; k++)
    rc = tsr_mesh_add_dat(t, names[k], ids[1], 1, TSR_DOUBLE, fe[k], TSR_ADOPT, NULL), fe[k] = NULL;
  if (!rc) rc = tsr_mesh_add_dat(t, "velocity", ids[0], 3, TSR_DOUBLE, vel, TSR_ADOPT, NULL), vel = NULL;
  free(conn), free(fc), free(bc), free(reg), free(x), free(vel), free(erow), free(nrow);
  for (int k = 0; k < 4; k++) free(fe[k]);
  for (int d = 0; d < 3; d++) free(smap[d]);
  rc = tsr_error_agree(comm, rc);
  lulesh_result_t res;
  if (!rc) rc = lulesh_state_result(s, &res);
  double rv[4] = {s->time, (double)s->cycle, res.e_origin, res.e_total};
  const char *rn[4] = {"time", "cycles", "e_origin", "e_total"};
  for (int k = 0; k < 4 && !rc; k++) rc = tsr_mesh_add_const(t, rn[k], 1, &rv[k], NULL);
  *h = (tsr_hex_header_t){org, mesh->num_reg, mesh->einit, 0, -1};
  return tsr_error_agree(comm, rc);
}

int lulesh_io_write(MPI_Comm comm, const char *path, const lulesh_mesh_t *mesh,
                    lulesh_dist_t *dist, const lulesh_state_t *s, const lulesh_opts_t *o,
                    const tsr_cli_t *cli, const char *variant) {
  tsr_mesh_t *t = NULL;
  tsr_hex_header_t h;
  int rc;
  if (dist) {
    rc = tsr_mesh_create(&t);
    rc = tsr_error_agree(comm, rc);
    if (!rc) rc = state_mesh_dist(comm, mesh, dist, s, t, &h);
  } else
    rc = state_mesh(mesh, s, &t, &h);
  h.balance = o->balance;
  h.edge = 0; /* deformed coordinates: no longer the generated cube */
  int P;
  MPI_Comm_size(comm, &P);
  tsr_provenance_t prov = {"tsr-lulesh", variant, "cpu", cli->command_line, P};
  if (!rc) rc = tsr_hex_write(comm, path, t, &h, &prov);
  if (!rc) rc = tsr_xdmf_write_hex(comm, path, t);
  tsr_mesh_destroy(&t);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}
