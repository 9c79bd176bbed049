/* halo_graph.c: the pieces of a forward CUDA IPC exchange for CUDA graphs
 * (tessera/halo.h, tsr_halo_graph_*): post and wait on the host, put,
 * gate and unpack on a stream, so that the device work can sit in a graph
 * beside the caller's kernels. The transport itself is halo_ipc.c's. */
#include "config.h"
#include "tessera/halo.h"
#include "tessera/error.h"

#include <stdlib.h>
#ifdef TSR_HAVE_CUDA
#include "tessera/cuda.h"
#endif

#include "halo_internal.h"

#ifdef TSR_HAVE_CUDA
/* The arrays of a piece, and whether this halo can run them by the graph
 * pieces; parity (-1: none taken) 0 or 1. es: the exchange's element size. */
static int piece(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                 const int *dims, tsr_dtype_t t, int parity, const char *what, tsr__hd_t *D,
                 size_t *es) {
  TSR_CALL(tsr__halo_arrays(narr, data, dims, D));
  TSR_CALL(tsr__halo_check_call(h, dev, D, t));
  *es = (size_t)D->sum * tsr_dtype_size(t);
  TSR_CHECK(dev->kind == TSR_DEV_CUDA && h->ipc && !h->nccl, TSR_ERR_UNSUPPORTED,
            "halo graph pieces: CUDA IPC only");
  TSR_CHECK(h->ipc_es >= *es && h->ipc_dev == dev->id && h->d_id == dev->id, TSR_ERR_UNSUPPORTED,
            "halo graph pieces: the halo is not made ready for %zu-byte elements on device %d "
            "(tsr_halo_prepare)", *es, dev->id);
  TSR_CHECK(h->nneigh <= TSR__HALO_PUT_MAX && (size_t)h->s.off[h->nneigh] * *es <= h->put_limit,
            TSR_ERR_UNSUPPORTED,
            "halo graph pieces: %lld bytes to %d neighbours go by copies, not by the put kernel",
            (long long)h->s.off[h->nneigh] * (long long)*es, h->nneigh);
  TSR_CHECK(parity == -1 || parity == 0 || parity == 1, TSR_ERR_ARG, "halo graph %s: parity %d",
            what, parity);
  return TSR_SUCCESS;
}
#endif

int tsr_halo_graph_check(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                         const int *dims, tsr_dtype_t t) {
#ifdef TSR_HAVE_CUDA
  tsr__hd_t D;
  size_t es;
  TSR_CALL(piece(h, dev, narr, data, dims, t, -1, "check", &D, &es));
  return TSR_SUCCESS;
#else
  (void)h, (void)dev, (void)narr, (void)data, (void)dims, (void)t;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

int tsr_halo_graph_post(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t, int parity) {
#ifdef TSR_HAVE_CUDA
  tsr__hd_t D;
  size_t es;
  TSR_CALL(piece(h, dev, narr, data, dims, t, -1, "post", &D, &es));
  TSR_CHECK(h->state == 0, TSR_ERR_ARG, "halo graph post: an exchange is already in flight");
  TSR_CHECK(parity == (int)(h->ipx[0].n & 1), TSR_ERR_ARG,
            "halo graph post: parity %d, this exchange's is %d", parity, (int)(h->ipx[0].n & 1));
  TSR_CALL(tsr__halo_ipc_post_ready(h, 1));
  tsr__halo_in_flight(h, 1, dev, &D, t);
  __atomic_store_n(&h->gate[parity], 0u, __ATOMIC_SEQ_CST); /* its gate shut until its wait */
  return TSR_SUCCESS;
#else
  (void)h, (void)dev, (void)narr, (void)data, (void)dims, (void)t, (void)parity;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

int tsr_halo_graph_put(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                       const int *dims, tsr_dtype_t t, int parity, void *stream) {
#ifdef TSR_HAVE_CUDA
  tsr__hd_t D;
  size_t es;
  TSR_CALL(piece(h, dev, narr, data, dims, t, parity, "put", &D, &es));
  TSR_CALL(tsr__halo_ipc_put(h, 1, parity, &h->s, &D, t, es, stream, 1));
  return TSR_SUCCESS;
#else
  (void)h, (void)dev, (void)narr, (void)data, (void)dims, (void)t, (void)parity, (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

int tsr_halo_graph_wait(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t) {
#ifdef TSR_HAVE_CUDA
  tsr__hd_t D;
  size_t es;
  TSR_CALL(piece(h, dev, narr, data, dims, t, -1, "wait", &D, &es));
  TSR_CHECK(h->state == 1 && tsr__halo_same_arrays(h, &D) && h->type == t && h->kind == dev->kind,
            TSR_ERR_ARG, "halo graph wait: no exchange of these arrays was posted");
  h->state = 0;
  const int par = (int)(h->ipx[0].n & 1);
  TSR_CALL(tsr__halo_ipc_ready(h, 1, tsr__halo_gput(h, par)));
  h->seq = tsr__halo_posted();
  TSR_CALL(tsr__wait_all(2 * h->nneigh, h->req, h->seq));
  (void)tsr__halo_ipc_received(h, 1); /* the next exchange's turn */
  __atomic_store_n(&h->gate[par], 1u, __ATOMIC_SEQ_CST); /* the device's gate opens */
  return TSR_SUCCESS;
#else
  (void)h, (void)dev, (void)narr, (void)data, (void)dims, (void)t;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

int tsr_halo_graph_unpack(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                          const int *dims, tsr_dtype_t t, int parity, void *stream) {
#ifdef TSR_HAVE_CUDA
  tsr__hd_t D;
  size_t es;
  TSR_CALL(piece(h, dev, narr, data, dims, t, parity, "unpack", &D, &es));
  const char *buf = h->ipx[0].buf + (size_t)parity * h->ipx[0].half;
  TSR_CALL(tsr__halo_unpack_cuda_hd(h->r.off[h->nneigh], h->r.d_idx, &D, t, buf, 0, stream));
  return TSR_SUCCESS;
#else
  (void)h, (void)dev, (void)narr, (void)data, (void)dims, (void)t, (void)parity, (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

int tsr_halo_graph_gate(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t, int parity, void *stream) {
#ifdef TSR_HAVE_CUDA
  tsr__hd_t D;
  size_t es;
  TSR_CALL(piece(h, dev, narr, data, dims, t, parity, "gate", &D, &es));
  TSR_CALL(tsr__halo_gate_cuda(h->d_gate + parity, stream));
  return TSR_SUCCESS;
#else
  (void)h, (void)dev, (void)narr, (void)data, (void)dims, (void)t, (void)parity, (void)stream;
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

int tsr_halo_graph_slot(tsr_halo_t *h, int slot) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_graph_slot: halo is NULL");
  TSR_CHECK(slot >= -1 && slot < TSR_HALO_GRAPH_SLOTS, TSR_ERR_ARG,
            "halo graph slot %d (expected -1 .. %d)", slot, TSR_HALO_GRAPH_SLOTS - 1);
#ifdef TSR_HAVE_CUDA
  h->gslot = slot;
  return TSR_SUCCESS;
#else
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo graph pieces: Tessera was built without CUDA");
#endif
}

void tsr_halo_graph_open(tsr_halo_t *h) {
#ifdef TSR_HAVE_CUDA
  if (h && h->gate) {
    __atomic_store_n(&h->gate[0], 1u, __ATOMIC_SEQ_CST);
    __atomic_store_n(&h->gate[1], 1u, __ATOMIC_SEQ_CST);
  }
#else
  (void)h;
#endif
}
