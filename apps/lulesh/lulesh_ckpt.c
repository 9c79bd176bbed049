/* apps/lulesh/lulesh_ckpt.c: tsr-lulesh's checkpoints and restarts
 * (tessera/checkpoint.h; docs/LULESH.md, docs/FORMAT.md).
 *
 * What carries over from one cycle to the next in LULESH: the node
 * positions and velocities, the element energy, pressure, artificial
 * viscosity, relative volume and sound speed, and the time, the last dt
 * and the Courant and hydro constraints (the next dt's inputs); everything
 * else a cycle computes before it reads it, and the masses and reference
 * volumes come from the mesh. A checkpoint holds them in the global
 * numbering (each rank sends its owned elements and its nodes to the
 * ranks whose block of rows holds them, which write the rows):
 *   /state/nodes    [nodes][6]    x y z xd yd zd
 *   /state/elements [elements][5] e p q v ss
 *   /state/time     [4]           time, dt, dtcourant, dthydro
 *   /state/dt_first [3]           dt of cycles 1-3 (the reference check's)
 * and the cycle as the checkpoint's iteration. A restart reads its block of
 * rows on every rank and fetches the rows of its elements and nodes
 * (tessera/xfer.h), so any rank count resumes any checkpoint; on the same
 * rank count the run continues with the same bits as an uninterrupted one. */
#include "config.h"
#include "tessera.h"
#include "apps/lulesh/lulesh_app.h"

#include <stdlib.h>
#include <string.h>

/* Global ids of this rank's elements and nodes (identity on one rank). */
static void ids(lulesh_dist_t *dist, const int64_t **eg, const int64_t **ng) {
  *eg = dist ? lulesh_dist_elem_gid(dist) : NULL;
  *ng = dist ? lulesh_dist_node_gid(dist) : NULL;
}

static int64_t *iota(int64_t n) {
  int64_t *v = malloc(sizeof *v * (size_t)(n + 1));
  for (int64_t i = 0; v && i < n; i++) v[i] = i;
  return v;
}

int lulesh_ckpt_begin(MPI_Comm comm, lulesh_ckpt_t *k, const tsr_cli_t *cli,
                      const lulesh_opts_t *o, const char *reorder, const lulesh_mesh_t *mesh,
                      lulesh_dist_t *dist) {
  memset(k, 0, sizeof *k);
  if (!cli->restart && cli->checkpoint_every <= 0) return 0;
  const int64_t *eg, *ng;
  ids(dist, &eg, &ng);
  int64_t NE = mesh->num_elem, NN = 0;
  for (int32_t i = 0; i < mesh->num_node; i++) NN = (ng ? ng[i] : i) + 1 > NN ? (ng ? ng[i] : i) + 1 : NN;
  MPI_Allreduce(MPI_IN_PLACE, &NE, 1, MPI_INT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &NN, 1, MPI_INT64_T, MPI_MAX, comm);
  k->ne_glob = NE, k->nn_glob = NN;
  tsr_checkpoint_match_t *m = &k->match;
  tsr_checkpoint_match_init(m, "tsr-lulesh");
  TSR_CALL(tsr_checkpoint_match_add(m, "size", "%d", o->global_edge));
  TSR_CALL(tsr_checkpoint_match_add(m, "regions", "%d", o->regions));
  TSR_CALL(tsr_checkpoint_match_add(m, "balance", "%d", o->balance));
  TSR_CALL(tsr_checkpoint_match_add(m, "cost", "%d", o->cost));
  TSR_CALL(tsr_checkpoint_match_add(m, "elements", "%lld", (long long)NE));
  TSR_CALL(tsr_checkpoint_match_add(m, "nodes", "%lld", (long long)NN));
  TSR_CALL(tsr_checkpoint_match_add(m, "reorder", "%s", reorder));
  /* the mesh: each element once over the ranks (its corners' global ids and
     initial coordinates, its flags without the ranks' COMM flags, region) */
  int comm_bits = 0;
  for (int f = 0; f < 6; f++) comm_bits |= LULESH_XI_M_COMM << (3 * f);
  uint64_t h = 0;
  for (int32_t e = 0; e < mesh->num_elem; e++) {
    double r[8 * 4 + 2];
    for (int c = 0; c < 8; c++) {
      const int32_t n = mesh->nodelist[8 * (int64_t)e + c];
      r[4 * c] = (double)(ng ? ng[n] : n);
      r[4 * c + 1] = mesh->x[n], r[4 * c + 2] = mesh->y[n], r[4 * c + 3] = mesh->z[n];
    }
    r[32] = mesh->elem_bc[e] & ~comm_bits, r[33] = mesh->reg_num[e];
    h = tsr_checkpoint_hash_add(h, r, sizeof r, eg ? eg[e] : e);
  }
  TSR_CALL(tsr_checkpoint_match_hash(m, comm, "mesh_hash", h));
  k->active = 1;
  if (!cli->restart) return 0;

  /* the restart: this rank's block of rows, then its own rows */
  const char *path = cli->restart;
  tsr_file_t *f = NULL;
  int64_t it = 0;
  TSR_CALL(tsr_checkpoint_open(comm, path, m, &it, &f));
  int P, me, rk;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  tsr_idx_t dims[3];
  tsr_dtype_t ty;
  const char *dn[2] = {"/state/nodes", "/state/elements"};
  const int64_t gn[2] = {NN, NE}, w[2] = {6, 5};
  int rc = 0;
  for (int i = 0; i < 2 && !rc; i++) {
    rc = tsr_file_dataset_shape(f, dn[i], &rk, dims, &ty);
    if (!rc && (rk != 2 || dims[0] != gn[i] || dims[1] != w[i] || ty != TSR_DOUBLE))
      rc = TSR_RAISE(TSR_ERR_FORMAT, "--restart %s: %s is not [%lld][%lld] double", path, dn[i],
                     (long long)gn[i], (long long)w[i]);
  }
  const char *sn[2] = {"/state/time", "/state/dt_first"};
  const int64_t sl[2] = {4, LULESH_NDT};
  for (int i = 0; i < 2 && !rc; i++) {
    rc = tsr_file_dataset_shape(f, sn[i], &rk, dims, &ty);
    if (!rc && (rk != 1 || dims[0] != sl[i] || ty != TSR_DOUBLE))
      rc = TSR_RAISE(TSR_ERR_FORMAT, "--restart %s: %s is not [%lld] double", path, sn[i],
                     (long long)sl[i]);
  }
  if (!rc) rc = tsr_file_read_rows(f, "/state/time", 0, 4, TSR_DOUBLE, k->scal);
  if (!rc) rc = tsr_file_read_rows(f, "/state/dt_first", 0, LULESH_NDT, TSR_DOUBLE, k->dt);
  k->cycle = (int)it;
  if (!rc && o->its > 0 && it > o->its)
    rc = TSR_RAISE(TSR_ERR_ARG, "--restart %s: holds cycle %lld, beyond -i %d", path,
                   (long long)it, o->its);
  rc = tsr_error_agree(comm, rc);
  const int64_t nl[2] = {mesh->num_node, mesh->num_elem};
  const int64_t *lg[2] = {ng, eg};
  double **dst[2] = {&k->node, &k->elem};
  for (int i = 0; i < 2 && !rc; i++) {
    tsr_idx_t first, count;
    tsr_mesh_block_rows(gn[i], P, me, &first, &count);
    double *blk = malloc(sizeof *blk * (size_t)(w[i] * count + 1));
    int64_t *have = iota(count), *want = lg[i] ? NULL : iota(nl[i]);
    int *wr = malloc(sizeof *wr * (size_t)(nl[i] + 1));
    *dst[i] = malloc(sizeof(double) * (size_t)(w[i] * nl[i] + 1));
    rc = blk && have && (lg[i] || want) && wr && *dst[i]
             ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "--restart %s: no memory", path);
    rc = tsr_error_agree(comm, rc);
    if (!rc) rc = tsr_file_read_rows(f, dn[i], first, count, TSR_DOUBLE, blk);
    const int64_t *wg = lg[i] ? lg[i] : want;
    for (tsr_idx_t j = 0; !rc && j < count; j++) have[j] += first;
    for (int64_t j = 0; !rc && j < nl[i]; j++) wr[j] = tsr_part_block_owner(gn[i], P, wg[j]);
    tsr_xfer_t *xf = NULL;
    if (!rc) rc = tsr_xfer_create(comm, count, have, nl[i], wg, wr, &xf);
    if (!rc) rc = tsr_xfer_run(xf, blk, *dst[i], sizeof(double) * (size_t)w[i]);
    tsr_xfer_destroy(&xf);
    free(blk), free(have), free(want), free(wr);
  }
  rc = tsr_error_agree(comm, rc);
  tsr_file_close(&f);
  TSR_CALL(rc);
  k->have = 1;
  return 0;
}

void lulesh_ckpt_apply(const lulesh_ckpt_t *k, lulesh_state_t *s, lulesh_outcome_t *out) {
  if (!k->have) return;
  double *nf[6] = {s->x, s->y, s->z, s->xd, s->yd, s->zd};
  double *ef[5] = {s->e, s->p, s->q, s->v, s->ss};
  for (int32_t n = 0; n < s->num_node; n++)
    for (int c = 0; c < 6; c++) nf[c][n] = k->node[6 * (int64_t)n + c];
  for (int32_t e = 0; e < s->num_elem; e++)
    for (int c = 0; c < 5; c++) ef[c][e] = k->elem[5 * (int64_t)e + c];
  s->time = k->scal[0], s->deltatime = k->scal[1];
  s->dtcourant = k->scal[2], s->dthydro = k->scal[3];
  s->cycle = k->cycle;
  out->ndt = k->cycle < LULESH_NDT ? k->cycle : LULESH_NDT;
  memcpy(out->dt, k->dt, sizeof out->dt);
}

int lulesh_ckpt_write(MPI_Comm comm, const lulesh_ckpt_t *k, const tsr_cli_t *cli,
                      const lulesh_mesh_t *mesh, lulesh_dist_t *dist, const lulesh_state_t *s,
                      const lulesh_outcome_t *out, const char *variant) {
  int P, me;
  MPI_Comm_size(comm, &P);
  MPI_Comm_rank(comm, &me);
  const int64_t *eg, *ng;
  ids(dist, &eg, &ng);
  const int32_t ne = mesh->num_elem, nn = mesh->num_node;
  tsr_idx_t ef, ec, nf, nc;
  tsr_mesh_block_rows(k->ne_glob, P, me, &ef, &ec);
  tsr_mesh_block_rows(k->nn_glob, P, me, &nf, &nc);
  double *nr = malloc(sizeof *nr * 6 * (size_t)(nn + 1)), *er = malloc(sizeof *er * 5 * (size_t)(ne + 1));
  double *nrow = malloc(sizeof *nrow * 6 * (size_t)(nc + 1)), *erow = malloc(sizeof *erow * 5 * (size_t)(ec + 1));
  int64_t *ie = eg ? NULL : iota(ne), *in = ng ? NULL : iota(nn);
  int rc = nr && er && nrow && erow && (eg || ie) && (ng || in)
               ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "--checkpoint %s: no memory", cli->checkpoint);
  rc = tsr_error_agree(comm, rc);
  const double *nsrc[6] = {s->x, s->y, s->z, s->xd, s->yd, s->zd};
  const double *esrc[5] = {s->e, s->p, s->q, s->v, s->ss};
  for (int32_t n = 0; !rc && n < nn; n++)
    for (int c = 0; c < 6; c++) nr[6 * (int64_t)n + c] = nsrc[c][n];
  for (int32_t e = 0; !rc && e < ne; e++)
    for (int c = 0; c < 5; c++) er[5 * (int64_t)e + c] = esrc[c][e];
  if (!rc) rc = lulesh_to_blocks(comm, k->nn_glob, nn, ng ? ng : in, nr, 6 * sizeof(double), nrow);
  if (!rc) rc = lulesh_to_blocks(comm, k->ne_glob, ne, eg ? eg : ie, er, 5 * sizeof(double), erow);
  tsr_file_t *f = NULL;
  tsr_provenance_t prov = {"tsr-lulesh", variant, "", cli->command_line, P};
  if (!rc) rc = tsr_checkpoint_create(comm, cli->checkpoint, &k->match, s->cycle, &prov, &f);
  if (!rc) {
    const tsr_idx_t dn[3] = {k->nn_glob, 6, 1}, de[3] = {k->ne_glob, 5, 1}, dt[3] = {4, 1, 1},
                    d3[3] = {LULESH_NDT, 1, 1};
    const double tv[4] = {s->time, s->deltatime, s->dtcourant, s->dthydro};
    double dt1[LULESH_NDT] = {0};
    for (int i = 0; i < out->ndt && i < LULESH_NDT; i++) dt1[i] = out->dt[i];
    rc = tsr_file_write_rows(f, "/state/nodes", 2, dn, TSR_DOUBLE, nf, nc, nrow);
    if (!rc) rc = tsr_file_write_rows(f, "/state/elements", 2, de, TSR_DOUBLE, ef, ec, erow);
    if (!rc) rc = tsr_file_write_rows(f, "/state/time", 1, dt, TSR_DOUBLE, 0, me == 0 ? 4 : 0, tv);
    if (!rc)
      rc = tsr_file_write_rows(f, "/state/dt_first", 1, d3, TSR_DOUBLE, 0, me == 0 ? LULESH_NDT : 0,
                               dt1);
    rc = tsr_checkpoint_commit(&f, rc);
  }
  free(nr), free(er), free(nrow), free(erow), free(ie), free(in);
  TSR_CALL(rc);
  return 0;
}

void lulesh_ckpt_free(lulesh_ckpt_t *k) {
  free(k->node), free(k->elem);
  k->node = k->elem = NULL;
  k->have = 0;
}
