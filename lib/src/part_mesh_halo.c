/* part_mesh_halo.c: the halo of one set of a partitioned mesh: every
 * exec and non-exec halo row receives from the rank that owns it. */
#include "config.h"
#include "tessera/halo.h"
#include "tessera/error.h"
#include "part_internal.h"

#include <stdlib.h>
#include <string.h>

static int block_owner(tsr_idx_t gn, int size, int64_t g) { return tsr_part_block_owner(gn, size, g); }

/* owner rank and owner-local index of each halo row, via a directory
 * distributed by blocks of global indices. */
static int locate(MPI_Comm comm, int size, const tsr_set_t *s, int *orank, tsr_idx_t *oloc) {
  tsr_idx_t gn = s->global_size, dlo, dn, nh = s->size - s->owned;
  int me;
  MPI_Comm_rank(comm, &me);
  tsr_mesh_block_rows(gn, size, me, &dlo, &dn);
  tsr__msg_t a, ar, q, qr, b, br;
  /* register owned rows */
  TSR_CALL(tsr__msg_init(&a, size));
  for (tsr_idx_t i = 0; i < s->owned; i++) tsr__msg_count(&a, block_owner(gn, size, s->global_id[i]), 2);
  TSR_CALL(tsr__msg_alloc(&a));
  for (tsr_idx_t i = 0; i < s->owned; i++) {
    int r = block_owner(gn, size, s->global_id[i]);
    tsr__msg_put(&a, r, s->global_id[i]);
    tsr__msg_put(&a, r, i);
  }
  TSR_CALL(tsr__msg_send(comm, &a, &ar));
  tsr__msg_free(&a);
  int *drank = malloc((size_t)(dn > 0 ? dn : 1) * sizeof *drank);
  tsr_idx_t *dloc = malloc((size_t)(dn > 0 ? dn : 1) * sizeof *dloc);
  TSR_CHECK(drank && dloc, TSR_ERR_ALLOC, "mesh halo: out of memory");
  for (tsr_idx_t i = 0; i < dn; i++) drank[i] = -1;
  int err = TSR_SUCCESS;
  for (int r = 0; r < size; r++)
    for (int k = 0; k < ar.cnt[r]; k += 2) {
      tsr_idx_t g = ar.buf[ar.off[r] + k] - dlo;
      if (drank[g] >= 0 && !err)
        err = TSR_RAISE(TSR_ERR_ARG, "mesh halo: set '%s' element %lld is owned by ranks %d and %d",
                        s->name, (long long)(g + dlo), drank[g], r);
      drank[g] = r;
      dloc[g] = ar.buf[ar.off[r] + k + 1];
    }
  tsr__msg_free(&ar);
  /* ask about halo rows */
  TSR_CALL(tsr__msg_init(&q, size));
  for (tsr_idx_t i = 0; i < nh; i++) tsr__msg_count(&q, block_owner(gn, size, s->global_id[s->owned + i]), 1);
  TSR_CALL(tsr__msg_alloc(&q));
  for (tsr_idx_t i = 0; i < nh; i++) {
    int64_t g = s->global_id[s->owned + i];
    tsr__msg_put(&q, block_owner(gn, size, g), g);
  }
  TSR_CALL(tsr__msg_send(comm, &q, &qr));
  TSR_CALL(tsr__msg_init(&b, size));
  for (int r = 0; r < size; r++) b.cnt[r] = 2 * qr.cnt[r];
  TSR_CALL(tsr__msg_alloc(&b));
  for (int r = 0; r < size; r++)
    for (int k = 0; k < qr.cnt[r]; k++) {
      tsr_idx_t g = qr.buf[qr.off[r] + k] - dlo;
      if (drank[g] < 0 && !err)
        err = TSR_RAISE(TSR_ERR_ARG, "mesh halo: set '%s' element %lld is a halo row on rank %d "
                        "but no rank owns it", s->name, (long long)(g + dlo), r);
      tsr__msg_put(&b, r, drank[g]);
      tsr__msg_put(&b, r, dloc[g]);
    }
  free(drank);
  free(dloc);
  tsr__msg_free(&qr);
  TSR_CALL(tsr__msg_send(comm, &b, &br));
  tsr__msg_free(&b);
  for (int r = 0; r < size; r++) q.fill[r] = q.off[r];
  for (tsr_idx_t i = 0; i < nh; i++) {
    int r = block_owner(gn, size, s->global_id[s->owned + i]);
    int at = 2 * (q.fill[r]++ - q.off[r]) + br.off[r];
    orank[i] = (int)br.buf[at];
    oloc[i] = br.buf[at + 1];
  }
  tsr__msg_free(&q);
  tsr__msg_free(&br);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

static int build(MPI_Comm comm, const tsr_set_t *s, tsr_halo_t **out) {
  int size;
  TSR_CALL_MPI(MPI_Comm_size(comm, &size));
  tsr_idx_t nh = s->size - s->owned;
  int *orank = malloc((size_t)(nh + 1) * sizeof *orank);
  tsr_idx_t *oloc = malloc((size_t)(nh + 1) * sizeof *oloc);
  TSR_CHECK(orank && oloc, TSR_ERR_ALLOC, "mesh halo: out of memory");
  int err = locate(comm, size, s, orank, oloc);
  err = tsr_error_agree(comm, err);
  if (err) {
    free(orank);
    free(oloc);
    TSR_CALL(err);
  }
  /* receive lists grouped by owner rank, in local order; tell each owner
   * which of its rows to send, in that order */
  tsr__msg_t t, tr;
  TSR_CALL(tsr__msg_init(&t, size));
  for (tsr_idx_t i = 0; i < nh; i++) tsr__msg_count(&t, orank[i], 1);
  TSR_CALL(tsr__msg_alloc(&t));
  tsr_idx_t *ridx = malloc((size_t)(nh + 1) * sizeof *ridx);
  TSR_CHECK(ridx, TSR_ERR_ALLOC, "mesh halo: out of memory");
  for (tsr_idx_t i = 0; i < nh; i++) {
    ridx[t.fill[orank[i]] ] = s->owned + i; /* positions follow the message layout */
    tsr__msg_put(&t, orank[i], oloc[i]);
  }
  free(orank);
  free(oloc);
  TSR_CALL(tsr__msg_send(comm, &t, &tr));
  int nn = 0, *ranks = malloc((size_t)size * 3 * sizeof *ranks);
  TSR_CHECK(ranks, TSR_ERR_ALLOC, "mesh halo: out of memory");
  int *sc = ranks + size, *rc = sc + size;
  tsr_idx_t *sidx = malloc((size_t)(tsr__msg_total(&tr) + 1) * sizeof *sidx);
  tsr_idx_t *rsorted = malloc((size_t)(nh + 1) * sizeof *rsorted);
  TSR_CHECK(sidx && rsorted, TSR_ERR_ALLOC, "mesh halo: out of memory");
  tsr_idx_t ns = 0, nr = 0;
  for (int r = 0; r < size; r++) {
    if (t.cnt[r] == 0 && tr.cnt[r] == 0) continue;
    ranks[nn] = r;
    sc[nn] = tr.cnt[r];
    rc[nn] = t.cnt[r];
    for (int k = 0; k < tr.cnt[r]; k++) sidx[ns++] = tr.buf[tr.off[r] + k];
    for (int k = 0; k < t.cnt[r]; k++) rsorted[nr++] = ridx[t.off[r] + k];
    nn++;
  }
  tsr__msg_free(&t);
  tsr__msg_free(&tr);
  free(ridx);
  err = tsr_halo_create(comm, nn, ranks, s->size, sc, sidx, rc, rsorted, out);
  free(ranks);
  free(sidx);
  free(rsorted);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

int tsr_halo_create_mesh(MPI_Comm comm, const tsr_mesh_t *mesh, int set, tsr_halo_t **out) {
  TSR_CHECK(out, TSR_ERR_ARG, "tsr_halo_create_mesh: out is NULL");
  *out = NULL;
  const tsr_set_t *s = mesh ? tsr_mesh_set(mesh, set) : NULL;
  int err = !s ? TSR_RAISE(TSR_ERR_ARG, "tsr_halo_create_mesh: no set %d in the mesh", set)
            : tsr_mesh_dist(mesh) != TSR_MESH_PARTITIONED
                ? TSR_RAISE(TSR_ERR_ARG, "tsr_halo_create_mesh: set '%s': the mesh is not "
                            "partitioned (tsr_mesh_partition)", s->name)
            : !s->global_id && s->size > 0
                ? TSR_RAISE(TSR_ERR_ARG, "tsr_halo_create_mesh: set '%s' has no global_id", s->name)
                : TSR_SUCCESS;
  TSR_CALL(tsr_error_agree(comm, err));
  TSR_CALL(build(comm, s, out));
  return TSR_SUCCESS;
}
