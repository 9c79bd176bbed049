/* apps/airfoil/airfoil_ckpt.c: tsr-airfoil's checkpoints and restarts
 * (lib's tessera/checkpoint.h; docs/AIRFOIL.md, docs/FORMAT.md).
 *
 * The state of an Airfoil run after k iterations is q on the cells (every
 * other array is recomputed from q in the next iteration) and the rms
 * history of iterations 1..k. A checkpoint holds q in the mesh's ORIGINAL
 * numbering (/state/q [cells][4], each rank its block of rows) and the
 * history (/state/rms [k]). A restart puts q into the mesh's p_q before the
 * mesh is partitioned, so the partition, reordering and halos of any rank
 * count see it as the initial state, and runs iterations k+1..N; the rms
 * history before k comes from the checkpoint. The iterations are those of
 * an uninterrupted run, so the results are the same bit for bit. */
#include "config.h"
#include "apps/airfoil/airfoil_app.h"

#include <stdlib.h>
#include <string.h>

/* The options a restart must repeat: the mesh (set sizes and a hash of the
 * node coordinates and constants) and the precision. */
static int af_ckpt_match(af_app_t *A) {
  const tsr_mesh_t *m = A->mesh;
  tsr_checkpoint_match_init(&A->match, "tsr-airfoil");
  static const char *const sets[4] = {"nodes", "cells", "edges", "bedges"};
  for (int i = 0; i < 4; i++) {
    const int s = tsr_mesh_find_set(m, sets[i]);
    TSR_CHECK(s >= 0, TSR_ERR_INTERNAL, "airfoil mesh without set %s", sets[i]);
    TSR_CALL(tsr_checkpoint_match_add(&A->match, sets[i], "%lld",
                                      (long long)tsr_mesh_set(m, s)->global_size));
  }
  TSR_CALL(tsr_checkpoint_match_add(&A->match, "precision", "%s", A->precision));
  /* every node's coordinates once over the ranks: a SERIAL mesh hashes its
   * block of rows, a BLOCK mesh its own rows */
  const int xd = tsr_mesh_find_dat(m, "p_x");
  TSR_CHECK(xd >= 0, TSR_ERR_INTERNAL, "airfoil mesh without p_x");
  const tsr_dat_t *x = tsr_mesh_dat(m, xd);
  const tsr_set_t *ns = tsr_mesh_set(m, x->set);
  tsr_idx_t first = 0, count = ns->size;
  if (tsr_mesh_dist(m) == TSR_MESH_SERIAL) tsr_mesh_block_rows(ns->global_size, A->nranks, A->rank, &first, &count);
  const tsr_idx_t base = tsr_mesh_dist(m) == TSR_MESH_SERIAL ? 0 : ns->offset;
  uint64_t h = 0;
  for (tsr_idx_t i = first; i < first + count; i++)
    h = tsr_checkpoint_hash_add(h, (const double *)x->data + 2 * i, 2 * sizeof(double), base + i);
  for (int c = 0; A->rank == 0 && c < tsr_mesh_nconsts(m); c++) {
    const tsr_const_t *k = tsr_mesh_const(m, c);
    h = tsr_checkpoint_hash_add(h, k->data, sizeof(double) * (size_t)k->dim, -1 - c);
  }
  TSR_CALL(tsr_checkpoint_match_hash(&A->match, MPI_COMM_WORLD, "mesh_hash", h));
  return 0;
}

/* --restart: the checkpoint's q into the mesh's p_q (its rows), its rms
 * history into A->hist, its iteration into A->k0. */
static int af_ckpt_read(af_app_t *A) {
  const char *path = A->cli.restart;
  tsr_file_t *f = NULL;
  int64_t k0 = 0;
  TSR_CALL(tsr_checkpoint_open(MPI_COMM_WORLD, path, &A->match, &k0, &f));
  tsr_mesh_t *m = A->mesh;
  const tsr_dat_t *q = tsr_mesh_dat(m, tsr_mesh_find_dat(m, "p_q"));
  const tsr_set_t *cs = tsr_mesh_set(m, q->set);
  int rank = 0;
  tsr_idx_t dims[3];
  tsr_dtype_t type;
  int rc = k0 <= A->cli.iterations ? 0
         : TSR_RAISE(TSR_ERR_ARG, "--restart %s: holds iteration %lld, beyond --iterations %d", path,
                     (long long)k0, A->cli.iterations);
  if (!rc) rc = tsr_file_dataset_shape(f, "/state/q", &rank, dims, &type);
  if (!rc && (rank != 2 || dims[0] != cs->global_size || dims[1] != 4 || type != TSR_DOUBLE))
    rc = TSR_RAISE(TSR_ERR_FORMAT, "--restart %s: /state/q is not [%lld][4] double", path,
                   (long long)cs->global_size);
  if (!rc) rc = tsr_file_read_rows(f, "/state/q", tsr_mesh_dist(m) == TSR_MESH_SERIAL ? 0 : cs->offset,
                                   cs->size, TSR_DOUBLE, q->data);
  A->hist = malloc(sizeof(double) * (size_t)(k0 + 1));
  if (!rc && !A->hist) rc = TSR_RAISE(TSR_ERR_ALLOC, "--restart %s: no memory", path);
  if (!rc && k0 > 0) rc = tsr_file_dataset_shape(f, "/state/rms", &rank, dims, &type);
  if (!rc && k0 > 0 && (rank != 1 || dims[0] != k0 || type != TSR_DOUBLE))
    rc = TSR_RAISE(TSR_ERR_FORMAT, "--restart %s: /state/rms is not [%lld] double", path,
                   (long long)k0);
  if (!rc && k0 > 0) rc = tsr_file_read_rows(f, "/state/rms", 0, k0, TSR_DOUBLE, A->hist);
  rc = tsr_error_agree(MPI_COMM_WORLD, rc);
  tsr_file_close(&f);
  TSR_CALL(rc);
  A->k0 = (int)k0;
  if (A->say) printf("restart from %s: iteration %lld\n", path, (long long)k0);
  return 0;
}

int af_ckpt_begin(af_app_t *A) {
  if (!A->cli.restart && A->cli.checkpoint_every <= 0) return 0;
  TSR_CALL(af_ckpt_match(A));
  if (A->cli.restart) TSR_CALL(af_ckpt_read(A));
  return 0;
}

/* Checkpoint at iteration k: the owned rows of q (local [ncell][4]) to the
 * ranks holding their block of the original numbering, then written with
 * the rms history rms[0..k). */
static int af_ckpt_write(af_app_t *A, int vid, int64_t k, const double *q, const double *rms) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const int size = A->nranks, me = A->rank;
  const airfoil_local_t *l = &A->loc;
  const int64_t *gid = tsr_mesh_set(l->mesh, tsr_mesh_find_set(l->mesh, "cells"))->global_id;
  const tsr_idx_t N = A->gcount[0], nco = l->p.ncell_owned;
  tsr_idx_t first, count;
  tsr_mesh_block_rows(N, size, me, &first, &count);
  int64_t *cnt = calloc((size_t)size * 5, sizeof *cnt), *sdis = cnt + size, *rcnt = cnt + 2 * size,
          *rdis = cnt + 3 * size, *fill = cnt + 4 * size;
  double *sbuf = malloc(sizeof(double) * (size_t)(5 * nco + 1));
  double *rbuf = malloc(sizeof(double) * (size_t)(5 * count + 1));
  double *rows = malloc(sizeof(double) * (size_t)(4 * count + 1));
  int rc = cnt && sbuf && rbuf && rows ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "--checkpoint %s: no memory",
                                                       A->cli.checkpoint);
  rc = tsr_error_agree(comm, rc);
  if (!rc) { /* records (global id, q) to the owner of the row */
    for (tsr_idx_t i = 0; i < nco; i++) cnt[tsr_part_block_owner(N, size, gid ? gid[i] : i)]++;
    for (int r = 1; r < size; r++) sdis[r] = sdis[r - 1] + cnt[r - 1];
    for (int r = 0; r < size; r++) fill[r] = sdis[r];
    for (tsr_idx_t i = 0; i < nco; i++) {
      const int64_t g = gid ? gid[i] : i;
      double *o = sbuf + 5 * fill[tsr_part_block_owner(N, size, g)]++;
      o[0] = (double)g;
      memcpy(o + 1, q + 4 * i, 4 * sizeof(double));
    }
    rc = MPI_Alltoall(cnt, 1, MPI_INT64_T, rcnt, 1, MPI_INT64_T, comm) == MPI_SUCCESS ? 0
         : TSR_RAISE(TSR_ERR_MPI, "--checkpoint: MPI_Alltoall failed");
    rc = tsr_error_agree(comm, rc);
  }
  int64_t got = 0;
  for (int r = 0; !rc && r < size; r++) rdis[r] = got, got += rcnt[r];
  if (!rc) rc = tsr_error_agree(comm, got == count ? 0 : TSR_RAISE(TSR_ERR_INTERNAL,
                                "--checkpoint: rank %d gets %lld cells, expected %lld", me,
                                (long long)got, (long long)count));
  if (!rc) rc = tsr_alltoallv(comm, sbuf, cnt, sdis, rbuf, rcnt, rdis, 5 * sizeof(double));
  for (int64_t j = 0; !rc && j < count; j++) {
    const double *v = rbuf + 5 * j;
    memcpy(rows + 4 * ((int64_t)v[0] - first), v + 1, 4 * sizeof(double));
  }
  tsr_file_t *f = NULL;
  tsr_provenance_t prov = {"tsr-airfoil", af_variants[vid].name, "", A->cli.command_line, size};
  if (!rc) rc = tsr_checkpoint_create(comm, A->cli.checkpoint, &A->match, k, &prov, &f);
  if (!rc) {
    const tsr_idx_t dq[3] = {N, 4, 1}, dr[3] = {k, 1, 1};
    rc = tsr_file_write_rows(f, "/state/q", 2, dq, TSR_DOUBLE, first, count, rows);
    if (!rc) rc = tsr_file_write_rows(f, "/state/rms", 1, dr, TSR_DOUBLE, 0, me == 0 ? k : 0, rms);
    rc = tsr_checkpoint_commit(&f, rc);
  }
  free(cnt), free(sbuf), free(rbuf), free(rows);
  TSR_CALL(rc);
  if (A->say) printf("checkpoint at iteration %lld written to %s\n", (long long)k, A->cli.checkpoint);
  return 0;
}

int af_ckpt_run(af_app_t *A, int vid, airfoil_run_t *r, airfoil_profile_t *prof, int write) {
  const int niter = r->niter, k0 = A->k0;
  const int64_t every = write ? A->cli.checkpoint_every : 0;
  if (k0 > 0) memcpy(r->rms, A->hist, sizeof(double) * (size_t)k0);
  if (every <= 0) { /* one piece: iterations k0+1 .. niter */
    airfoil_run_t s = {niter - k0, r->prec, r->rms + k0, r->q, 0, 0};
    TSR_CALL(af_run_one(&A->p, vid, A->block, !A->nofuse, !A->nograph, A->l2mode, &s, prof));
    r->seconds = s.seconds, r->l2_window = s.l2_window;
    return 0;
  }
  /* pieces ending at the multiples of every, each from the last one's q */
  const int64_t nq = 4 * A->p.ncell;
  double *qa = malloc(sizeof(double) * (size_t)(nq + 1)), *qb = malloc(sizeof(double) * (size_t)(nq + 1));
  int rc = qa && qb ? 0 : TSR_RAISE(TSR_ERR_ALLOC, "--checkpoint-every: no memory for q");
  rc = tsr_error_agree(MPI_COMM_WORLD, rc);
  if (!rc) memcpy(qa, A->p.q0, sizeof(double) * (size_t)nq);
  airfoil_problem_t p = A->p;
  r->seconds = 0;
  for (int64_t k = k0; !rc && k < niter;) {
    const int64_t n = tsr_checkpoint_next(k, niter, every);
    airfoil_run_t s = {(int)n, r->prec, r->rms + k, qb, 0, 0};
    p.q0 = qa;
    rc = tsr_error_agree(MPI_COMM_WORLD, af_run_one(&p, vid, A->block, !A->nofuse, !A->nograph, A->l2mode, &s, prof));
    r->seconds += s.seconds, r->l2_window = s.l2_window;
    k += n;
    double *t = qa;
    qa = qb, qb = t;
    if (!rc && tsr_checkpoint_due(k, every)) rc = af_ckpt_write(A, vid, k, qa, r->rms);
  }
  if (!rc && r->q) memcpy(r->q, qa, sizeof(double) * (size_t)nq);
  free(qa), free(qb);
  TSR_CALL(rc);
  return 0;
}
