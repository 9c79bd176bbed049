/* lib/src/xfer.c: the chunked all-to-all, transfers between distributions
 * set up from global ids, and the streamed gather on a root
 * (tessera/xfer.h). The set-up requests travel as the partitioner's
 * all-to-all rounds (part_internal.h). */
#include "config.h"
#include "tessera/xfer.h"
#include "tessera/error.h"
#include "tessera/fault.h"
#include "part_internal.h"

#include <stdlib.h>
#include <string.h>

#define TSR__XFER_TAG 7302
#define TSR__XFER_MSG ((int64_t)1 << 30) /* largest message, bytes (MPI counts are int) */

/* ------------------------------------------------------------ all-to-all */

int tsr_alltoallv(MPI_Comm comm, const void *sbuf, const int64_t *scount, const int64_t *sdispl,
                  void *rbuf, const int64_t *rcount, const int64_t *rdispl, size_t es) {
  int P, me;
  TSR_CALL_MPI(MPI_Comm_size(comm, &P));
  TSR_CALL_MPI(MPI_Comm_rank(comm, &me));
  int64_t nmsg = 0;
  for (int q = 0; q < P; q++)
    if (q != me)
      nmsg += TSR_CEIL_DIV(scount[q] * (int64_t)es, TSR__XFER_MSG) +
              TSR_CEIL_DIV(rcount[q] * (int64_t)es, TSR__XFER_MSG);
  MPI_Request *req = tsr_malloc(sizeof *req * (size_t)(nmsg + 1));
  /* agreed before any message is posted: a rank that cannot allocate its
     requests would otherwise leave the others waiting for its messages */
  int rc = tsr_error_agree(comm, req ? TSR_SUCCESS
                                     : TSR_RAISE(TSR_ERR_ALLOC,
                                                 "all-to-all: cannot allocate %lld requests",
                                                 (long long)nmsg));
  int64_t k = 0;
  for (int j = 1; j < P && !rc; j++) { /* receives first, from me-1, me-2, ... */
    const int q = (me - j + P) % P;
    char *lo = (char *)rbuf + (size_t)rdispl[q] * es;
    const int64_t bytes = rcount[q] * (int64_t)es;
    for (int64_t o = 0; o < bytes && !rc; o += TSR__XFER_MSG)
      if (MPI_Irecv(lo + o, (int)TSR_MIN(TSR__XFER_MSG, bytes - o), MPI_BYTE, q, TSR__XFER_TAG,
                    comm, &req[k++]) != MPI_SUCCESS)
        rc = TSR_RAISE(TSR_ERR_MPI, "all-to-all: MPI_Irecv from rank %d failed", q);
  }
  for (int j = 1; j < P && !rc; j++) { /* sends to me+1, me+2, ... */
    const int q = (me + j) % P;
    const char *lo = (const char *)sbuf + (size_t)sdispl[q] * es;
    const int64_t bytes = scount[q] * (int64_t)es;
    for (int64_t o = 0; o < bytes && !rc; o += TSR__XFER_MSG)
      if (MPI_Isend(lo + o, (int)TSR_MIN(TSR__XFER_MSG, bytes - o), MPI_BYTE, q, TSR__XFER_TAG,
                    comm, &req[k++]) != MPI_SUCCESS)
        rc = TSR_RAISE(TSR_ERR_MPI, "all-to-all: MPI_Isend to rank %d failed", q);
  }
  if (!rc && scount[me])
    memcpy((char *)rbuf + (size_t)rdispl[me] * es, (const char *)sbuf + (size_t)sdispl[me] * es,
           (size_t)scount[me] * es);
  if (k && MPI_Waitall((int)k, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS && !rc)
    rc = TSR_RAISE(TSR_ERR_MPI, "all-to-all: MPI_Waitall failed");
  free(req);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ transfers */

struct tsr_xfer {
  MPI_Comm comm;
  int size;
  int64_t *scount, *sdispl, *rcount, *rdispl; /* [size] elements per rank */
  tsr_idx_t *sidx;  /* [sdispl[size-1] + scount[size-1]] source elements, by destination */
  tsr_idx_t *ridx;  /* target elements, by source rank */
  tsr_idx_t ns, nr;
};

static int tsr__xfer_lists(tsr_xfer_t *x, tsr_idx_t nhave, const int64_t *have_gid,
                           tsr_idx_t nwant, const int64_t *want_gid, const int *want_rank) {
  const int P = x->size;
  int me;
  TSR_CALL_MPI(MPI_Comm_rank(x->comm, &me));
  for (tsr_idx_t j = 0; j < nwant; j++)
    TSR_CHECK(want_rank[j] >= -1 && want_rank[j] < P, TSR_ERR_ARG,
              "tsr_xfer_create: element %lld wants id %lld from rank %d of %d", (long long)j,
              (long long)want_gid[j], want_rank[j], P);
  /* the requests: every wanted id to the rank that holds it, in target order */
  tsr__msg_t q, qr;
  TSR_CALL(tsr__msg_init(&q, P));
  for (tsr_idx_t j = 0; j < nwant; j++)
    if (want_rank[j] >= 0) tsr__msg_count(&q, want_rank[j], 1);
  int rc = tsr__msg_alloc(&q);
  for (tsr_idx_t j = 0; !rc && j < nwant; j++)
    if (want_rank[j] >= 0) tsr__msg_put(&q, want_rank[j], want_gid[j]);
  rc = tsr_error_agree(x->comm, rc);
  if (!rc) rc = tsr__msg_send(x->comm, &q, &qr);
  rc = tsr_error_agree(x->comm, rc);
  if (rc) {
    tsr__msg_free(&q);
    TSR_CALL(rc);
  }
  x->ns = tsr__msg_total(&qr);
  x->nr = tsr__msg_total(&q);
  x->sidx = malloc((size_t)(x->ns + 1) * sizeof *x->sidx);
  x->ridx = malloc((size_t)(x->nr + 1) * sizeof *x->ridx);
  int *fill = calloc((size_t)P, sizeof *fill);
  tsr__lookup_t look;
  memset(&look, 0, sizeof look);
  if (!x->sidx || !x->ridx || !fill)
    rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_xfer_create: cannot allocate lists of %lld + %lld elements",
                   (long long)x->ns, (long long)x->nr);
  if (!rc) rc = tsr__lookup_build(&look, have_gid, nhave);
  for (int r = 0; !rc && r < P; r++) {
    x->scount[r] = qr.cnt[r], x->sdispl[r] = qr.off[r];
    x->rcount[r] = q.cnt[r], x->rdispl[r] = q.off[r];
    for (int k = 0; !rc && k < qr.cnt[r]; k++) {
      const int64_t g = qr.buf[qr.off[r] + k];
      const tsr_idx_t i = tsr__lookup_find(&look, g);
      if (i < 0)
        rc = TSR_RAISE(TSR_ERR_RANGE, "tsr_xfer_create: rank %d wants id %lld from rank %d, "
                       "which does not hold it", r, (long long)g, me);
      else
        x->sidx[qr.off[r] + k] = i;
    }
  }
  for (tsr_idx_t j = 0; !rc && j < nwant; j++) /* target slots in request order */
    if (want_rank[j] >= 0) x->ridx[q.off[want_rank[j]] + fill[want_rank[j]]++] = j;
  tsr__lookup_free(&look);
  free(fill);
  tsr__msg_free(&q);
  tsr__msg_free(&qr);
  TSR_CALL(tsr_error_agree(x->comm, rc));
  return TSR_SUCCESS;
}

int tsr_xfer_create(MPI_Comm comm, tsr_idx_t nhave, const int64_t *have_gid, tsr_idx_t nwant,
                    const int64_t *want_gid, const int *want_rank, tsr_xfer_t **out) {
  *out = NULL;
  tsr_xfer_t *x = calloc(1, sizeof *x);
  int rc = x ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "tsr_xfer_create: no memory");
  if (!rc && MPI_Comm_dup(comm, &x->comm) != MPI_SUCCESS) {
    x->comm = MPI_COMM_NULL;
    rc = TSR_RAISE(TSR_ERR_MPI, "tsr_xfer_create: MPI_Comm_dup failed");
  }
  if (!rc) {
    MPI_Comm_size(x->comm, &x->size);
    x->scount = calloc((size_t)x->size * 4, sizeof *x->scount);
    if (!x->scount) rc = TSR_RAISE(TSR_ERR_ALLOC, "tsr_xfer_create: no memory for %d ranks", x->size);
  }
  if (!rc) {
    x->sdispl = x->scount + x->size;
    x->rcount = x->sdispl + x->size;
    x->rdispl = x->rcount + x->size;
  }
  rc = tsr_error_agree(comm, rc);
  if (!rc) rc = tsr__xfer_lists(x, nhave, have_gid, nwant, want_gid, want_rank);
  if (rc) {
    tsr_xfer_destroy(&x);
    TSR_CALL(rc);
  }
  *out = x;
  return TSR_SUCCESS;
}

int tsr_xfer_run(const tsr_xfer_t *x, const void *src, void *dst, size_t es) {
  char *sbuf = malloc((size_t)(x->ns + 1) * es), *rbuf = malloc((size_t)(x->nr + 1) * es);
  int rc = sbuf && rbuf ? TSR_SUCCESS
                        : TSR_RAISE(TSR_ERR_ALLOC, "transfer: cannot allocate %.3g MiB of buffers",
                                    (double)(x->ns + x->nr) * (double)es / 1048576.0);
  rc = tsr_error_agree(x->comm, rc);
  if (!rc) {
    for (tsr_idx_t k = 0; k < x->ns; k++)
      memcpy(sbuf + (size_t)k * es, (const char *)src + (size_t)x->sidx[k] * es, es);
    rc = tsr_alltoallv(x->comm, sbuf, x->scount, x->sdispl, rbuf, x->rcount, x->rdispl, es);
    rc = tsr_error_agree(x->comm, rc);
  }
  if (!rc)
    for (tsr_idx_t k = 0; k < x->nr; k++)
      memcpy((char *)dst + (size_t)x->ridx[k] * es, rbuf + (size_t)k * es, es);
  free(sbuf);
  free(rbuf);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int tsr_xfer_destroy(tsr_xfer_t **px) {
  if (!px || !*px) return TSR_SUCCESS;
  tsr_xfer_t *x = *px;
  if (x->comm != MPI_COMM_NULL && x->comm) MPI_Comm_free(&x->comm);
  free(x->scount);
  free(x->sidx);
  free(x->ridx);
  free(x);
  *px = NULL;
  return TSR_SUCCESS;
}

tsr_idx_t tsr_xfer_send_count(const tsr_xfer_t *x) { return x->ns; }
tsr_idx_t tsr_xfer_recv_count(const tsr_xfer_t *x) { return x->nr; }

/* ------------------------------------------------------------ gather */

int tsr_gather_each(MPI_Comm comm, int root, const void *data, size_t bytes, size_t piece,
                    tsr_gather_fn fn, void *ctx) {
  int P, me;
  TSR_CALL_MPI(MPI_Comm_size(comm, &P));
  TSR_CALL_MPI(MPI_Comm_rank(comm, &me));
  TSR_CHECK(piece >= 1 && root >= 0 && root < P, TSR_ERR_ARG,
            "tsr_gather_each: root %d of %d ranks, pieces of %zu bytes", root, P, piece);
  if (piece > (size_t)TSR__XFER_MSG) piece = (size_t)TSR__XFER_MSG;
  uint64_t mine = bytes, *all = me == root ? malloc(sizeof *all * (size_t)P) : NULL;
  char *tmp = me == root ? malloc(piece) : NULL;
  int rc = me != root || (all && tmp)
               ? TSR_SUCCESS
               : TSR_RAISE(TSR_ERR_ALLOC, "gather: cannot allocate a piece of %zu bytes", piece);
  rc = tsr_error_agree(comm, rc);
  if (!rc && MPI_Gather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, root, comm) != MPI_SUCCESS)
    rc = TSR_RAISE(TSR_ERR_MPI, "gather: MPI_Gather of the sizes failed");
  rc = tsr_error_agree(comm, rc);
  int frc = TSR_SUCCESS; /* fn's error: the root still drains every message */
  for (int r = 0; !rc && r < P; r++) {
    if (me != root && me != r) continue;
    const uint64_t n = me == root ? all[r] : mine;
    for (uint64_t o = 0; o < n && !rc; o += piece) {
      const int cnt = (int)TSR_MIN((uint64_t)piece, n - o);
      const char *p = (const char *)data + o;
      if (me == root && r != root) {
        if (MPI_Recv(tmp, cnt, MPI_BYTE, r, TSR__XFER_TAG, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
          rc = TSR_RAISE(TSR_ERR_MPI, "gather: MPI_Recv from rank %d failed", r);
        p = tmp;
      } else if (me != root) {
        if (MPI_Send(p, cnt, MPI_BYTE, root, TSR__XFER_TAG, comm) != MPI_SUCCESS)
          rc = TSR_RAISE(TSR_ERR_MPI, "gather: MPI_Send to rank %d failed", root);
      }
      if (!rc && me == root && !frc) frc = fn(ctx, r, p, (size_t)cnt);
    }
  }
  free(all);
  free(tmp);
  TSR_CALL(tsr_error_agree(comm, rc ? rc : frc));
  return TSR_SUCCESS;
}
