/* halo_ipc.c: the halo's CUDA IPC transport (tsr_halo_set_ipc): each rank
 * maps its neighbours' device receive buffers once and copies its messages
 * into them device to device; MPI carries a zero-byte "ready" per neighbour
 * (lib/include/tessera/halo.h says how buffers alternate and fail). */
#include "config.h"
#include "halo_internal.h"
#include "tessera/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef TSR_HAVE_CUDA
#include "tessera/cuda.h"
#endif

#ifdef TSR_HAVE_CUDA
/* Unmap the neighbours' buffers and free this rank's (after a barrier, so
   that no neighbour still has them mapped). Collective over h->comm: the
   barrier is taken when this rank holds anything, or always (callers where
   some ranks may hold nothing, e.g. after a failed setup). */
void tsr__halo_ipc_release(tsr_halo_t *h, int always) {
  int me;
  MPI_Comm_rank(h->comm, &me);
  int any = 0;
  for (int d = 0; d < 2; d++) {
    if (h->ipx[d].rem)
      for (int k = 0; k < h->nneigh; k++) {
        int j = 0; /* mapped once per rank */
        while (j < k && (h->ranks[j] != h->ranks[k] || !h->ipx[d].rem[j])) j++;
        if (j == k && h->ipx[d].rem[k] && h->ranks[k] != me) cudaIpcCloseMemHandle(h->ipx[d].rem[k]);
      }
    any |= h->ipx[d].buf != NULL || h->ipx[d].rem != NULL;
  }
  if (any || always) MPI_Barrier(h->comm);
  if (h->ipc_stream) cudaStreamDestroy(h->ipc_stream);
  if (h->ipc_packed) cudaEventDestroy(h->ipc_packed);
  if (h->ipc_copied) cudaEventDestroy(h->ipc_copied);
  for (int i = 0; i < 2 + TSR_HALO_GRAPH_SLOTS; i++) {
    if (h->ipc_gput[i]) cudaEventDestroy(h->ipc_gput[i]);
    h->ipc_gput[i] = NULL;
  }
  if (h->gate) cudaFreeHost(h->gate);
  h->ipc_stream = NULL;
  h->ipc_packed = h->ipc_copied = NULL;
  h->gate = h->d_gate = NULL;
  for (int d = 0; d < 2; d++) {
    if (h->ipx[d].buf) cudaFree(h->ipx[d].buf);
    free(h->ipx[d].rem);
    free(h->ipx[d].roff);
    free(h->ipx[d].rhalf);
    memset(&h->ipx[d], 0, sizeof h->ipx[d]);
  }
  h->ipc_es = 0;
  h->ipc_dev = -1;
}

/* Neighbour k takes part in IPC exchanges when messages go either way
   (both ranks see the same counts, so they agree; a rank listed with
   nothing to exchange is left out, as the staged path leaves out empty
   messages). Active pairs exchange a "ready" both ways every time: it
   tells the receiver its data are in, and the sender that its last
   unpack is done. */
static int ipc_active(const tsr_halo_t *h, int k) {
  return h->s.off[k + 1] > h->s.off[k] || h->r.off[k + 1] > h->r.off[k];
}

/* What a rank tells neighbour k: its receive buffers' handles and where k's
   messages land in them. */
typedef struct {
  cudaIpcMemHandle_t hd[2];
  unsigned long long off[2], half[2];
} ipc_msg_t;

/* Local part of the mapping: buffers, handles, exchange with the neighbours,
   open theirs. */
static int ipc_setup_local(tsr_halo_t *h, const tsr_device_t *dev, size_t es) {
  const int nn = h->nneigh;
  int me;
  MPI_Comm_rank(h->comm, &me);
  const side_t *in[2] = {&h->r, &h->s};
  ipc_msg_t *mine = calloc((size_t)TSR_MAX(nn, 1), sizeof *mine);
  ipc_msg_t *theirs = calloc((size_t)TSR_MAX(nn, 1), sizeof *theirs);
  int err = mine && theirs ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "halo IPC: no memory");
  if (!err &&
      (tsr_cuda_fault(cudaStreamCreateWithFlags(&h->ipc_stream, cudaStreamNonBlocking)) != cudaSuccess ||
       tsr_cuda_fault(cudaEventCreateWithFlags(&h->ipc_packed, cudaEventDisableTiming)) != cudaSuccess ||
       tsr_cuda_fault(cudaEventCreateWithFlags(&h->ipc_copied, cudaEventDisableTiming)) != cudaSuccess))
    err = TSR_RAISE(TSR_ERR_CUDA, "halo IPC: cannot create the copy stream or its events");
  for (int i = 0; i < 2 + TSR_HALO_GRAPH_SLOTS && !err; i++)
    if (tsr_cuda_fault(cudaEventCreateWithFlags(&h->ipc_gput[i], cudaEventDisableTiming)) != cudaSuccess)
      err = TSR_RAISE(TSR_ERR_CUDA, "halo IPC: cannot create the graph pieces' events");
  h->gslot = -1;
  /* the graph pieces' gates (tsr_halo_graph_gate): mapped host memory, made
     here because a capturing stream forbids the allocation */
  void *g = NULL, *dg = NULL;
  if (!err && (tsr_cuda_fault(cudaHostAlloc(&g, 2 * sizeof(unsigned int), cudaHostAllocMapped)) != cudaSuccess ||
               tsr_cuda_fault(cudaHostGetDevicePointer(&dg, g, 0)) != cudaSuccess)) {
    if (g) cudaFreeHost(g);
    g = dg = NULL;
    err = TSR_RAISE(TSR_ERR_CUDA, "halo IPC: cannot allocate mapped host memory for the gates");
  }
  if (g) {
    h->gate = g, h->d_gate = dg;
    h->gate[0] = h->gate[1] = 0;
  }
  for (int d = 0; d < 2 && !err; d++) {
    h->ipx[d].half = TSR_MAX((size_t)in[d]->off[nn] * es, (size_t)256);
    h->ipx[d].rem = calloc((size_t)TSR_MAX(nn, 1), sizeof(char *));
    h->ipx[d].roff = calloc((size_t)TSR_MAX(nn, 1), sizeof(size_t));
    h->ipx[d].rhalf = calloc((size_t)TSR_MAX(nn, 1), sizeof(size_t));
    if (!h->ipx[d].rem || !h->ipx[d].roff || !h->ipx[d].rhalf) {
      err = TSR_RAISE(TSR_ERR_ALLOC, "halo IPC: no memory");
      break;
    }
    if (tsr_cuda_fault(cudaMalloc((void **)&h->ipx[d].buf, 2 * h->ipx[d].half)) != cudaSuccess) {
      if (h->ipx[d].buf) cudaFree(h->ipx[d].buf); /* a success that a TSR_FAULT reported failed */
      h->ipx[d].buf = NULL;
      err = TSR_RAISE(TSR_ERR_CUDA, "halo IPC: cannot allocate %zu bytes on the device",
                      2 * h->ipx[d].half);
      break;
    }
    cudaIpcMemHandle_t hd;
    if (tsr_cuda_fault(cudaIpcGetMemHandle(&hd, h->ipx[d].buf)) != cudaSuccess) {
      err = TSR_RAISE(TSR_ERR_UNSUPPORTED, "halo IPC: cudaIpcGetMemHandle failed on device %d",
                      dev->id);
      break;
    }
    for (int k = 0; k < nn; k++) {
      mine[k].hd[d] = hd;
      mine[k].off[d] = (unsigned long long)in[d]->off[k];
      mine[k].half[d] = h->ipx[d].half;
    }
  }
  (void)cudaGetLastError();
  /* every rank takes part in the handshake, failed or not (no hang); the
     j-th message between two ranks pairs the j-th entries of their lists
     that name each other, as the exchange's own messages do */
  if (mine && theirs) {
    MPI_Request *rq = h->req; /* [2 nn], idle between exchanges */
    for (int k = 0; k < nn; k++) {
      rq[k] = rq[nn + k] = MPI_REQUEST_NULL;
      if (!ipc_active(h, k)) continue;
      MPI_Irecv(&theirs[k], (int)sizeof(ipc_msg_t), MPI_BYTE, h->ranks[k], TSR__HALO_TAG + 20,
                h->comm, &rq[k]);
      MPI_Isend(&mine[k], (int)sizeof(ipc_msg_t), MPI_BYTE, h->ranks[k], TSR__HALO_TAG + 20,
                h->comm, &rq[nn + k]);
    }
    if (MPI_Waitall(2 * nn, rq, MPI_STATUSES_IGNORE) != MPI_SUCCESS && !err)
      err = TSR_RAISE(TSR_ERR_MPI, "halo IPC: the handle exchange with the neighbours failed");
  }
  for (int d = 0; d < 2 && !err; d++)
    for (int k = 0; k < nn && !err; k++) {
      if (!ipc_active(h, k)) continue;
      h->ipx[d].roff[k] = (size_t)theirs[k].off[d];
      h->ipx[d].rhalf[k] = (size_t)theirs[k].half[d];
      if (h->ranks[k] == me) {
        h->ipx[d].rem[k] = h->ipx[d].buf;
        continue;
      }
      int j = 0; /* a rank named twice (periodic sides): its buffer is mapped once */
      while (j < k && (h->ranks[j] != h->ranks[k] || !h->ipx[d].rem[j])) j++;
      if (j < k) {
        h->ipx[d].rem[k] = h->ipx[d].rem[j];
        continue;
      }
      void *p = NULL;
      cudaError_t ce =
          tsr_cuda_fault(cudaIpcOpenMemHandle(&p, theirs[k].hd[d], cudaIpcMemLazyEnablePeerAccess));
      if (ce != cudaSuccess) {
        (void)cudaGetLastError();
        err = TSR_RAISE(TSR_ERR_UNSUPPORTED,
                        "halo IPC: cannot map the receive buffer of rank %d on device %d (%s): "
                        "use the host-staged exchange", h->ranks[k], dev->id, cudaGetErrorString(ce));
      } else {
        h->ipx[d].rem[k] = p;
      }
    }
  free(mine);
  free(theirs);
  return err;
}

int tsr__halo_ipc_setup(tsr_halo_t *h, const tsr_device_t *dev, size_t es) {
  if (h->ipc_es >= es && h->ipc_dev == dev->id) return TSR_SUCCESS;
  tsr__halo_ipc_release(h, 1);
  int err = tsr_error_agree(h->comm, ipc_setup_local(h, dev, es));
  if (err) {
    tsr__halo_ipc_release(h, 1);
    h->ipc = 0;
    return tsr_error_trace(err, __FILE__, __LINE__, __func__);
  }
  h->ipc_es = es;
  h->ipc_dev = dev->id;
  return TSR_SUCCESS;
}
/* The neighbours' "ready" for this exchange, received into h->req[0 ..
   nneigh) (the send slots cleared for tsr__halo_ipc_ready). */
int tsr__halo_ipc_post_ready(tsr_halo_t *h, int state) {
  for (int k = 0; k < h->nneigh; k++) {
    h->req[k] = h->req[h->nneigh + k] = MPI_REQUEST_NULL;
    if (ipc_active(h, k))
      TSR_CALL_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, h->ranks[k], TSR__HALO_TAG + 10 + state, h->comm,
                             &h->req[k]));
  }
  return TSR_SUCCESS;
}

int tsr__halo_ipc_post(tsr_halo_t *h, int state, const side_t *out, const tsr__hd_t *D,
                       tsr_dtype_t t, size_t es, int put) {
  /* the put, or the copies on the IPC stream after the pack, beside whatever
     the caller launches before end (which waits for them and only then tells
     the neighbours) */
  const int d = state - 1; /* the receive buffers of this direction */
  const size_t par = (size_t)(h->ipx[d].n & 1);
  if (put) { /* start decided: at most TSR__HALO_PUT_MAX neighbours, put_limit bytes */
    TSR_CALL(tsr__halo_ipc_put(h, state, (int)par, out, D, t, es, h->stream, 0));
    TSR_CALL(tsr__halo_ipc_post_ready(h, state));
    return TSR_SUCCESS;
  }
  TSR_CALL_CUDA(cudaEventRecord(h->ipc_packed, (cudaStream_t)h->stream));
  TSR_CALL_CUDA(cudaStreamWaitEvent(h->ipc_stream, h->ipc_packed, 0));
  for (int k = 0; k < h->nneigh; k++) {
    size_t n = (size_t)(out->off[k + 1] - out->off[k]) * es;
    if (n == 0) continue;
    TSR_CALL_CUDA(cudaMemcpyAsync(h->ipx[d].rem[k] + par * h->ipx[d].rhalf[k] + h->ipx[d].roff[k] * es,
                                  (char *)out->dbuf + (size_t)out->off[k] * es, n,
                                  cudaMemcpyDeviceToDevice, h->ipc_stream));
  }
  TSR_CALL_CUDA(cudaEventRecord(h->ipc_copied, h->ipc_stream));
  TSR_CALL(tsr__halo_ipc_post_ready(h, state));
  return TSR_SUCCESS;
}

int tsr__halo_ipc_put(tsr_halo_t *h, int state, int par, const side_t *out, const tsr__hd_t *D,
                      tsr_dtype_t t, size_t es, void *stream, int external) {
  const int d = state - 1;
  tsr__halo_put_t dst;
  memset(&dst, 0, sizeof dst);
  for (int k = 0; k < h->nneigh; k++)
    if (out->off[k + 1] > out->off[k])
      dst.base[k] = (unsigned long long)(uintptr_t)(h->ipx[d].rem[k] + (size_t)par * h->ipx[d].rhalf[k] +
                                                    h->ipx[d].roff[k] * es) -
                    (unsigned long long)out->off[k] * es;
  TSR_CALL(tsr__halo_put_multi_cuda(out->off[h->nneigh], out->d_idx, out->d_nb, (int)tsr_dtype_size(t),
                                    D->n, (const void *const *)D->p, D->dim, &dst, stream));
  /* external (a graph's piece): a node of the graph when the stream is
     capturing, so that the host's wait waits for that node in every replay */
  enum cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
  if (external) TSR_CALL_CUDA(cudaStreamIsCapturing((cudaStream_t)stream, &cap));
  cudaEvent_t ev = !external ? h->ipc_copied : tsr__halo_gput(h, par);
  if (cap == cudaStreamCaptureStatusActive)
    TSR_CALL_CUDA(cudaEventRecordWithFlags(ev, (cudaStream_t)stream, cudaEventRecordExternal));
  else
    TSR_CALL_CUDA(cudaEventRecord(ev, (cudaStream_t)stream));
  return TSR_SUCCESS;
}

int tsr__halo_ipc_ready(tsr_halo_t *h, int state, cudaEvent_t ev) {
  /* this rank's copies are in the neighbours' buffers: "ready" to each */
  TSR_CALL_CUDA(cudaEventSynchronize(ev ? ev : h->ipc_copied));
  for (int k = 0; k < h->nneigh; k++)
    if (ipc_active(h, k))
      TSR_CALL_MPI(MPI_Isend(NULL, 0, MPI_BYTE, h->ranks[k], TSR__HALO_TAG + 10 + state, h->comm,
                             &h->req[h->nneigh + k]));
  return TSR_SUCCESS;
}

void *tsr__halo_ipc_received(tsr_halo_t *h, int state) {
  const int d = state - 1;
  const size_t par = (size_t)(h->ipx[d].n++ & 1);
  return h->ipx[d].buf + par * h->ipx[d].half;
}
#endif

int tsr_halo_set_ipc(tsr_halo_t *h, int on) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_set_ipc: halo is NULL");
  TSR_CHECK(h->state == 0, TSR_ERR_ARG, "tsr_halo_set_ipc: an exchange is in flight");
#ifdef TSR_HAVE_CUDA
  if (!on && (h->ipx[0].buf || h->ipx[1].buf)) tsr__halo_ipc_release(h, 0);
  h->ipc = on ? 1 : 0;
  return TSR_SUCCESS;
#else
  TSR_CHECK(!on, TSR_ERR_NOCUDA, "halo IPC: Tessera was built without CUDA");
  return TSR_SUCCESS;
#endif
}

int tsr_halo_uses_ipc(const tsr_halo_t *h) { return h ? h->ipc : 0; }

int tsr_halo_set_put_limit(tsr_halo_t *h, size_t bytes) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_set_put_limit: halo is NULL");
  h->put_limit = bytes;
  return TSR_SUCCESS;
}
