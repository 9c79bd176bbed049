/* tessera/xfer.h: moving data between ranks outside the halo exchange.
 *
 * - tsr_alltoallv: a personalised all-to-all of elements of any size, with
 *   64-bit counts (large segments go as several messages of at most 2^30
 *   bytes; a rank's segment to itself is a memcpy).
 * - tsr_xfer_t: a transfer between two distributions of one index space,
 *   set up once from global ids and run as often as needed: element j of a
 *   rank's target array receives the element whose global id is
 *   want_gid[j] from the source array of rank want_rank[j], where that rank
 *   holds it (have_gid). Scatters (one rank has everything), gathers (one
 *   rank wants everything) and redistributions (from one partition to
 *   another) are all transfers; elements are opaque bytes, so a record of
 *   several fields or levels moves as one element.
 * - tsr_gather_each: every rank's bytes, in rank order, handed to a
 *   function on the root in pieces of bounded size (checksums, streaming
 *   writers), so the root never holds more than one piece.
 * Errors are agreed on every rank (nothing hangs).
 */
#ifndef TESSERA_XFER_H
#define TESSERA_XFER_H

#include <mpi.h>
#include "tessera/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective. Segment q of sbuf (scount[q] elements of es bytes from
 * element sdispl[q]) goes to rank q, which receives it at element
 * rdispl[p] of rbuf (rcount[p] elements, as agreed by the caller). */
int tsr_alltoallv(MPI_Comm comm, const void *sbuf, const int64_t *scount, const int64_t *sdispl,
                  void *rbuf, const int64_t *rcount, const int64_t *rdispl, size_t es);

typedef struct tsr_xfer tsr_xfer_t;

/* Collective (comm is duplicated). have_gid[nhave]: the global id of each
 * element of this rank's source array (distinct). want_gid[nwant],
 * want_rank[nwant]: the id each target element takes and the rank whose
 * source holds it (any rank, this one included; -1: element j is not
 * written). A wanted id its rank does not hold is an error on every rank,
 * naming both ranks and the id. */
int tsr_xfer_create(MPI_Comm comm, tsr_idx_t nhave, const int64_t *have_gid, tsr_idx_t nwant,
                    const int64_t *want_gid, const int *want_rank, tsr_xfer_t **out);
/* Collective: dst[j] = the wanted source element, es bytes each (the same
 * es on every rank). src and dst are host arrays and may not overlap. */
int tsr_xfer_run(const tsr_xfer_t *x, const void *src, void *dst, size_t es);
int tsr_xfer_destroy(tsr_xfer_t **x); /* sets *x = NULL */
/* Elements this rank sends / receives (writes) per run. */
tsr_idx_t tsr_xfer_send_count(const tsr_xfer_t *x);
tsr_idx_t tsr_xfer_recv_count(const tsr_xfer_t *x);

/* Collective: rank root calls fn(ctx, r, piece, bytes) for the bytes of
 * every rank r in turn (r = 0, 1, ...), each rank's `bytes` in pieces of at
 * most `piece` bytes (>= 1), in order; other ranks pass their bytes and
 * fn = NULL. An error fn returns on the root stops the gather on every
 * rank. */
typedef int (*tsr_gather_fn)(void *ctx, int rank, const void *data, size_t bytes);
int tsr_gather_each(MPI_Comm comm, int root, const void *data, size_t bytes, size_t piece,
                    tsr_gather_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_XFER_H */
