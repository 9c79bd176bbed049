/* lib/src/halo_internal.h: the halo object's fields, shared by halo.c (setup,
 * exchange, the regular-grid builder) and halo_ipc.c (the CUDA IPC transport).
 * Not installed. */
#ifndef TSR_LIB_HALO_INTERNAL_H
#define TSR_LIB_HALO_INTERNAL_H

#include "tessera/halo.h"
#ifdef TSR_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TSR__HALO_TAG 7301

/* One direction's view of the lists: what a rank packs and sends (out) or
 * receives and unpacks (in). Forward: out = send lists, in = recv lists;
 * reverse: the other way round. */
typedef struct {
  tsr_idx_t *off;   /* [nneigh+1] offsets into idx */
  tsr_idx_t *idx;   /* host index list */
  tsr_idx_t *d_idx; /* device copy (CUDA) or NULL */
  int *d_nb;        /* device: the neighbour (0 .. nneigh-1) of each entry */
  void *hbuf;       /* host message buffer */
  size_t hcap;
  int hpinned;
  void *dbuf;       /* device message buffer */
  size_t dcap;
} side_t;

/* The arrays of one exchange: n (1 .. TSR_HALO_MAX_ARRAYS) arrays of the
   same type, array a with dim[a] values per element; a message element
   holds every array's values in turn (sum of the dims). */
typedef struct {
  int n;
  void *p[TSR_HALO_MAX_ARRAYS];
  int dim[TSR_HALO_MAX_ARRAYS];
  int sum;
} tsr__hd_t;

struct tsr_halo {
  MPI_Comm comm;
  int nneigh;
  int *ranks;
  side_t s, r;      /* send lists, recv lists */
  int d_id;         /* device holding the d_idx copies; -1 none */
  MPI_Request *req; /* [2*nneigh] */
  int cuda_aware;
  void *stream;     /* cudaStream_t of the packing, unpacking and copies; NULL:
                       the default stream (tsr_halo_set_stream) */
  /* the exchange in flight */
  int state;        /* 0 idle, 1 forward, 2 reverse */
  tsr__hd_t hd;     /* its arrays */
  tsr_dtype_t type;
  tsr_devkind_t kind;
  long long seq;    /* its number in this process's exchanges (tsr__halo_posted) */
  /* CUDA IPC (tsr_halo_set_ipc): [0] the forward receives (r lists), [1]
     the reverse receives (s lists). buf: two halves of half bytes; rem[k]:
     neighbour k's buffer mapped here, roff[k]: where this rank's message
     lands in each half (elements: times the exchange's element size),
     rhalf[k]: its half size (bytes); n: exchanges done (the half in use is
     n & 1). es: the largest element size the buffers hold. */
  int nccl;         /* tsr_halo_set_nccl */
  void *nccl_comm;  /* the shared NCCL communicator's entry (halo_nccl.c), or NULL */
  int ipc;
  size_t put_limit; /* tsr_halo_set_put_limit */
  size_t ipc_es;
  int ipc_dev;
#ifdef TSR_HAVE_CUDA
  cudaStream_t ipc_stream; /* the device copies, beside the caller's work */
  cudaEvent_t ipc_packed, ipc_copied;
  cudaEvent_t ipc_gput[2 + TSR_HALO_GRAPH_SLOTS]; /* the graph pieces' puts: by parity, */
  int gslot;                                     /* or slot gslot (tsr_halo_graph_slot) */
  unsigned int *gate;      /* the graph pieces' gates [2] (host memory, mapped; */
  unsigned int *d_gate;    /* made with the mappings), the device's address    */
#endif
  struct {
    char *buf;
    size_t half;
    char **rem;
    size_t *roff, *rhalf;
    unsigned long n;
  } ipx[2];
};

/* The IPC put (halo_pack.cu): per neighbour, the byte address in its mapped
   receive buffer where entry 0 of this rank's list would land (entry j of
   the list, value c, at base[nb[j]] + (j * sum + c) * size). Exchanges with
   more neighbours or more bytes out than h->put_limit pack and copy. */
#define TSR__HALO_PUT_MAX 32
typedef struct {
  unsigned long long base[TSR__HALO_PUT_MAX];
} tsr__halo_put_t;

/* halo_packing.c: the exchange's arrays D packed into buf / unpacked from it
   through idx[n] (several arrays: copies only, add ignored); on the device,
   asynchronous on stream. */
void tsr__halo_pack_host_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, size_t esz,
                            void *buf);
void tsr__halo_unpack_host_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D,
                              tsr_dtype_t t, const void *buf, int add);
#ifdef TSR_HAVE_CUDA
int tsr__halo_pack_cuda_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, tsr_dtype_t t,
                           void *buf, void *stream);
int tsr__halo_unpack_cuda_hd(tsr_idx_t n, const tsr_idx_t *idx, const tsr__hd_t *D, tsr_dtype_t t,
                             const void *buf, int add, void *stream);

/* cuda/halo_pack.cu */
int tsr__halo_pack_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dim, int elsize,
                        const void *data, void *buf, void *stream);
int tsr__halo_unpack_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dim, int dtype,
                          const void *buf, void *data, int add, void *stream);
int tsr__halo_pack_arrays_cuda(tsr_idx_t n, const tsr_idx_t *idx, int elsize, int narr,
                               const void *const *data, void *buf, tsr_idx_t stride,
                               void *stream);
int tsr__halo_unpack_arrays_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dtype, int narr,
                                 const void *buf, tsr_idx_t stride, void *const *data, int add,
                                 void *stream);
int tsr__halo_pack_multi_cuda(tsr_idx_t n, const tsr_idx_t *idx, int elsize, int narr,
                              const void *const *data, const int *dims, void *buf, void *stream);
int tsr__halo_unpack_multi_cuda(tsr_idx_t n, const tsr_idx_t *idx, int dtype, int narr,
                                const void *buf, void *const *data, const int *dims, void *stream);
int tsr__halo_put_multi_cuda(tsr_idx_t n, const tsr_idx_t *idx, const int *nb, int elsize,
                             int narr, const void *const *data, const int *dims,
                             const tsr__halo_put_t *dst, void *stream);
/* One thread on stream waits until *gate (mapped host memory) is non-zero,
   then sets it to 0 (tsr_halo_graph_gate). */
int tsr__halo_gate_cuda(unsigned int *gate, void *stream);

/* halo.c's argument checks and exchange state, shared with halo_graph.c:
   the arrays of an exchange (D), a call's arguments, the exchange now in
   flight (recorded; whether D is it). */
int tsr__halo_arrays(int narr, void *const *data, const int *dims, tsr__hd_t *D);
int tsr__halo_check_call(tsr_halo_t *h, const tsr_device_t *dev, const tsr__hd_t *D, tsr_dtype_t t);
void tsr__halo_in_flight(tsr_halo_t *h, int state, const tsr_device_t *dev, const tsr__hd_t *D,
                         tsr_dtype_t t);
int tsr__halo_same_arrays(const tsr_halo_t *h, const tsr__hd_t *D);

/* CUDA IPC (halo_ipc.c). Collective over h->comm where noted. */
/* Map the neighbours' receive buffers for element size es on dev (again when
   es grows or the device changes); failures agreed on every rank. Collective. */
int tsr__halo_ipc_setup(tsr_halo_t *h, const tsr_device_t *dev, size_t es);
/* This rank's messages of D into the neighbours' buffers, and the "ready"
   receives posted in h->req[0 .. nneigh): put, one kernel on h->stream packs
   straight into them (at most TSR__HALO_PUT_MAX neighbours); else after the
   caller's pack into out->dbuf on h->stream, a device copy per neighbour. */
int tsr__halo_ipc_post(tsr_halo_t *h, int state, const side_t *out, const tsr__hd_t *D,
                       tsr_dtype_t t, size_t es, int put);
/* The put kernel of D into the neighbours' receive halves par on stream,
   then h->ipc_copied recorded there; external (the graph pieces):
   the event of the graph pieces' put (by parity, or h->gslot's) instead, as
   an external event node when the stream is capturing. */
int tsr__halo_ipc_put(tsr_halo_t *h, int state, int par, const side_t *out, const tsr__hd_t *D,
                      tsr_dtype_t t, size_t es, void *stream, int external);
/* The event of the graph pieces' put of parity par: slot h->gslot's where
   one is set (tsr_halo_graph_slot), else the parity's. */
static inline cudaEvent_t tsr__halo_gput(const tsr_halo_t *h, int par) {
  return h->ipc_gput[h->gslot >= 0 ? 2 + h->gslot : par];
}
/* The neighbours' "ready" receives of this exchange posted (h->req). */
int tsr__halo_ipc_post_ready(tsr_halo_t *h, int state);
/* In end, before the wait: once this rank's copies are done (ev, NULL:
   h->ipc_copied), "ready" sent to each neighbour (h->req[nneigh ..]). */
int tsr__halo_ipc_ready(tsr_halo_t *h, int state, cudaEvent_t ev);
/* After the wait: this exchange's receive half (and the next one's turn). */
void *tsr__halo_ipc_received(tsr_halo_t *h, int state);
/* Unmap and free; the barrier is taken when this rank holds anything, or
   always. Collective. */
void tsr__halo_ipc_release(tsr_halo_t *h, int always);
#endif

/* NCCL (halo_nccl.c; TSR_HAVE_NCCL). setup: the shared communicator for
   h's ranks on dev, made at the first call (collective over h->comm, errors
   agreed). post: this exchange's receives into in->dbuf and sends from
   out->dbuf (packed) as one NCCL group on h->stream. release: drop h's
   reference (the last one destroys the communicator). */
int tsr__halo_nccl_setup(tsr_halo_t *h, const tsr_device_t *dev);
int tsr__halo_nccl_post(tsr_halo_t *h, const side_t *out, const side_t *in, size_t es);
void tsr__halo_nccl_release(tsr_halo_t *h);

/* error.c: failure notices (the protocol is described there). Count one more
   exchange whose outgoing messages this process has posted; returns its
   number. Called once per exchange, in every path, neighbours or not. */
long long tsr__halo_posted(void);
/* MPI_Waitall for the messages of exchange number k that ends with an error
   (TSR_ERR_MPI, the requests withdrawn) when another rank's failure notice
   says it will never post exchange k. */
int tsr__wait_all(int n, MPI_Request *req, long long k);

#ifdef __cplusplus
}
#endif

#endif
