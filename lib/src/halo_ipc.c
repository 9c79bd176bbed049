/* halo_ipc.c: the halo's CUDA IPC transport (tsr_halo_set_ipc): each rank
 * maps its neighbours' device receive buffers once and copies its messages
 * into them device to device; MPI carries a zero-byte "ready" per neighbour
 * and interprocess events order the copies and unpacks on the devices, so no
 * host waits for a device (lib/include/tessera/halo.h says how buffers
 * alternate and fail). */
#include "config.h"
#include "halo_internal.h"
#include "tessera/error.h"

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
    for (int p = 0; p < 2; p++)
      for (int k = 0; k < h->nneigh; k++) { /* opened once per rank, as the buffers */
        void **ev[2] = {h->ipx[d].rcop[p], h->ipx[d].runp[p]};
        for (int e = 0; e < 2; e++) {
          if (!ev[e] || !ev[e][k] || h->ranks[k] == me) continue;
          int j = 0;
          while (j < k && (h->ranks[j] != h->ranks[k] || !ev[e][j])) j++;
          if (j == k) cudaEventDestroy((cudaEvent_t)ev[e][k]);
        }
      }
    any |= h->ipx[d].buf != NULL || h->ipx[d].rem != NULL;
  }
  if (any || always) MPI_Barrier(h->comm);
  if (h->ipc_stream) cudaStreamDestroy(h->ipc_stream);
  if (h->ipc_packed) cudaEventDestroy(h->ipc_packed);
  if (h->ipc_copied) cudaEventDestroy(h->ipc_copied);
  h->ipc_stream = NULL;
  h->ipc_packed = h->ipc_copied = NULL;
  for (int d = 0; d < 2; d++) {
    if (h->ipx[d].buf) cudaFree(h->ipx[d].buf);
    free(h->ipx[d].rem);
    free(h->ipx[d].roff);
    free(h->ipx[d].rhalf);
    for (int p = 0; p < 2; p++) {
      if (h->ipx[d].cop[p]) cudaEventDestroy((cudaEvent_t)h->ipx[d].cop[p]);
      if (h->ipx[d].unp[p]) cudaEventDestroy((cudaEvent_t)h->ipx[d].unp[p]);
      free(h->ipx[d].rcop[p]);
      free(h->ipx[d].runp[p]);
    }
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
  cudaIpcEventHandle_t cop[2][2], unp[2][2]; /* [direction][half] */
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
  for (int d = 0; d < 2 && !err; d++) {
    h->ipx[d].half = TSR_MAX((size_t)in[d]->off[nn] * es, (size_t)256);
    h->ipx[d].rem = calloc((size_t)TSR_MAX(nn, 1), sizeof(char *));
    h->ipx[d].roff = calloc((size_t)TSR_MAX(nn, 1), sizeof(size_t));
    h->ipx[d].rhalf = calloc((size_t)TSR_MAX(nn, 1), sizeof(size_t));
    int evok = 1;
    for (int p = 0; p < 2; p++) {
      h->ipx[d].rcop[p] = calloc((size_t)TSR_MAX(nn, 1), sizeof(void *));
      h->ipx[d].runp[p] = calloc((size_t)TSR_MAX(nn, 1), sizeof(void *));
      evok &= h->ipx[d].rcop[p] && h->ipx[d].runp[p];
    }
    if (!h->ipx[d].rem || !h->ipx[d].roff || !h->ipx[d].rhalf || !evok) {
      err = TSR_RAISE(TSR_ERR_ALLOC, "halo IPC: no memory");
      break;
    }
    if (tsr_cuda_fault(cudaMalloc((void **)&h->ipx[d].buf, 2 * h->ipx[d].half)) != cudaSuccess) {
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
    cudaIpcEventHandle_t eh[2][2];
    for (int p = 0; p < 2 && !err; p++)
      for (int e = 0; e < 2 && !err; e++) {
        cudaEvent_t ev = NULL;
        if (tsr_cuda_fault(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming | cudaEventInterprocess)) !=
            cudaSuccess) {
          err = TSR_RAISE(TSR_ERR_CUDA, "halo IPC: cannot create an interprocess event on device %d",
                          dev->id);
          break;
        }
        if (e == 0) h->ipx[d].cop[p] = ev;
        else h->ipx[d].unp[p] = ev;
        if (tsr_cuda_fault(cudaIpcGetEventHandle(&eh[e][p], ev)) != cudaSuccess)
          err = TSR_RAISE(TSR_ERR_UNSUPPORTED, "halo IPC: cudaIpcGetEventHandle failed on device %d",
                          dev->id);
      }
    if (err) break;
    for (int k = 0; k < nn; k++) {
      memcpy(mine[k].cop[d], eh[0], sizeof eh[0]);
      memcpy(mine[k].unp[d], eh[1], sizeof eh[1]);
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
        for (int p = 0; p < 2; p++) {
          h->ipx[d].rcop[p][k] = h->ipx[d].cop[p];
          h->ipx[d].runp[p][k] = h->ipx[d].unp[p];
        }
        continue;
      }
      int j = 0; /* a rank named twice (periodic sides): its buffer is mapped once */
      while (j < k && (h->ranks[j] != h->ranks[k] || !h->ipx[d].rem[j])) j++;
      if (j < k) {
        h->ipx[d].rem[k] = h->ipx[d].rem[j];
        for (int p = 0; p < 2; p++) {
          h->ipx[d].rcop[p][k] = h->ipx[d].rcop[p][j];
          h->ipx[d].runp[p][k] = h->ipx[d].runp[p][j];
        }
        continue;
      }
      for (int p = 0; p < 2 && !err; p++) {
        cudaEvent_t a = NULL, b = NULL;
        cudaError_t ce = tsr_cuda_fault(cudaIpcOpenEventHandle(&a, theirs[k].cop[d][p]));
        if (ce == cudaSuccess) h->ipx[d].rcop[p][k] = a;
        if (ce == cudaSuccess) ce = tsr_cuda_fault(cudaIpcOpenEventHandle(&b, theirs[k].unp[d][p]));
        if (ce == cudaSuccess) h->ipx[d].runp[p][k] = b;
        if (ce != cudaSuccess) {
          (void)cudaGetLastError();
          err = TSR_RAISE(TSR_ERR_UNSUPPORTED,
                          "halo IPC: cannot open the events of rank %d on device %d (%s): "
                          "use the host-staged exchange", h->ranks[k], dev->id, cudaGetErrorString(ce));
        }
      }
      if (err) break;
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
int tsr__halo_ipc_post(tsr_halo_t *h, int state, const side_t *out, size_t es) {
  /* the copies run on the halo's own stream, after the pack, beside whatever
     the caller launches before end; a copy into a neighbour's half waits on
     the device for that neighbour's unpack of the exchange before last, the
     one that read this half (its event was recorded before the neighbour
     told this rank "ready" for the last exchange, which end waited for) */
  const int d = state - 1; /* the receive buffers of this direction */
  const int p = (int)(h->ipx[d].n & 1);
  TSR_CALL_CUDA(cudaEventRecord(h->ipc_packed, (cudaStream_t)h->stream));
  TSR_CALL_CUDA(cudaStreamWaitEvent(h->ipc_stream, h->ipc_packed, 0));
  for (int k = 0; k < h->nneigh; k++) {
    size_t n = (size_t)(out->off[k + 1] - out->off[k]) * es;
    if (n == 0) continue;
    TSR_CALL_CUDA(cudaStreamWaitEvent(h->ipc_stream, (cudaEvent_t)h->ipx[d].runp[p][k], 0));
    TSR_CALL_CUDA(cudaMemcpyAsync(h->ipx[d].rem[k] + (size_t)p * h->ipx[d].rhalf[k] + h->ipx[d].roff[k] * es,
                                  (char *)out->dbuf + (size_t)out->off[k] * es, n,
                                  cudaMemcpyDeviceToDevice, h->ipc_stream));
  }
  TSR_CALL_CUDA(cudaEventRecord((cudaEvent_t)h->ipx[d].cop[p], h->ipc_stream));
  TSR_CALL_CUDA(cudaEventRecord(h->ipc_copied, h->ipc_stream));
  for (int k = 0; k < h->nneigh; k++) {
    h->req[k] = h->req[h->nneigh + k] = MPI_REQUEST_NULL;
    if (ipc_active(h, k))
      TSR_CALL_MPI(MPI_Irecv(NULL, 0, MPI_BYTE, h->ranks[k], TSR__HALO_TAG + 10 + state, h->comm,
                             &h->req[k]));
  }
  return TSR_SUCCESS;
}

int tsr__halo_ipc_ready(tsr_halo_t *h, int state) {
  /* this rank's copies are queued and their event recorded: "ready" to each
     neighbour at once (the neighbour's device waits for the event, its host
     does not) */
  for (int k = 0; k < h->nneigh; k++)
    if (ipc_active(h, k))
      TSR_CALL_MPI(MPI_Isend(NULL, 0, MPI_BYTE, h->ranks[k], TSR__HALO_TAG + 10 + state, h->comm,
                             &h->req[h->nneigh + k]));
  return TSR_SUCCESS;
}

int tsr__halo_ipc_arrived(tsr_halo_t *h, int state, const side_t *in) {
  /* after the "ready"s: the unpack (on h->stream) waits on the device for
     each sender's copies */
  const int d = state - 1, p = (int)(h->ipx[d].n & 1);
  for (int k = 0; k < h->nneigh; k++)
    if (in->off[k + 1] > in->off[k])
      TSR_CALL_CUDA(cudaStreamWaitEvent((cudaStream_t)h->stream, (cudaEvent_t)h->ipx[d].rcop[p][k], 0));
  return TSR_SUCCESS;
}

void *tsr__halo_ipc_received(tsr_halo_t *h, int state) {
  const int d = state - 1;
  const size_t par = (size_t)(h->ipx[d].n & 1);
  return h->ipx[d].buf + par * h->ipx[d].half;
}

int tsr__halo_ipc_unpacked(tsr_halo_t *h, int state) {
  /* the unpack is queued: its event tells the senders when this half is free
     (and the next exchange takes the other half) */
  const int d = state - 1;
  const int p = (int)(h->ipx[d].n++ & 1);
  TSR_CALL_CUDA(cudaEventRecord((cudaEvent_t)h->ipx[d].unp[p], (cudaStream_t)h->stream));
  return TSR_SUCCESS;
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
