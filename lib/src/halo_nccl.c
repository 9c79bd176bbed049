/* halo_nccl.c: the halo's NCCL transport (tsr_halo_set_nccl): each exchange's
 * messages as one group of ncclSend / ncclRecv on the halo's stream, between
 * the device buffers of the pack and the unpack. The communicators are made
 * once per set of ranks and device, shared by the halos over congruent MPI
 * communicators (a program's halos are dups of one communicator) and kept
 * until MPI_Finalize. */
#include "config.h"
#include "halo_internal.h"
#include "tessera/error.h"

#include <stdlib.h>
#include <string.h>

#ifdef TSR_HAVE_NCCL
#include <nccl.h>
#include "tessera/cuda.h"

typedef struct nc_entry {
  MPI_Comm comm; /* a dup of the first halo's communicator */
  int dev;
  ncclComm_t nc;
  int refs;
  struct nc_entry *next;
} nc_entry_t;

static nc_entry_t *nc_list; /* the communicators alive in this process */

static nc_entry_t *nc_find(MPI_Comm comm, int dev) {
  for (nc_entry_t *e = nc_list; e; e = e->next) {
    int r = MPI_UNEQUAL;
    if (e->dev == dev && MPI_Comm_compare(e->comm, comm, &r) == MPI_SUCCESS &&
        (r == MPI_IDENT || r == MPI_CONGRUENT))
      return e;
  }
  return NULL;
}

/* The communicators go at MPI_Finalize: MPI deletes MPI_COMM_SELF's
   attributes first thing there, while MPI and CUDA still work. */
static int nc_finalize(MPI_Comm self, int key, void *val, void *extra) {
  (void)self, (void)key, (void)val, (void)extra;
  while (nc_list) {
    nc_entry_t *e = nc_list;
    nc_list = e->next;
    ncclCommDestroy(e->nc);
    MPI_Comm_free(&e->comm);
    free(e);
  }
  return MPI_SUCCESS;
}

static int nc_finalize_hook(void) {
  static int key = MPI_KEYVAL_INVALID;
  if (key != MPI_KEYVAL_INVALID) return TSR_SUCCESS;
  TSR_CALL_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, nc_finalize, &key, NULL));
  TSR_CALL_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL));
  return TSR_SUCCESS;
}

/* A new communicator over comm's ranks on dev (collective over comm). */
static int nc_create(MPI_Comm comm, int dev, nc_entry_t **out) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  ncclUniqueId id;
  memset(&id, 0, sizeof id);
  int err = TSR_SUCCESS;
  if (rank == 0) {
    ncclResult_t r = ncclGetUniqueId(&id);
    if (r != ncclSuccess)
      err = TSR_RAISE(TSR_ERR_UNSUPPORTED, "halo NCCL: ncclGetUniqueId failed (%s)",
                      ncclGetErrorString(r));
  }
  err = tsr_error_agree(comm, err);
  if (err) return tsr_error_trace(err, __FILE__, __LINE__, __func__);
  TSR_CALL_MPI(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm));
  nc_entry_t *e = calloc(1, sizeof *e);
  if (!e) err = TSR_RAISE(TSR_ERR_ALLOC, "halo NCCL: no memory");
  if (!err && MPI_Comm_dup(comm, &e->comm) != MPI_SUCCESS) {
    e->comm = MPI_COMM_NULL;
    err = TSR_RAISE(TSR_ERR_MPI, "halo NCCL: MPI_Comm_dup failed");
  }
  /* every rank enters the initialisation (it is collective) unless the
     local steps failed, which the agreement below reports everywhere */
  err = tsr_error_agree(comm, err);
  if (!err) {
    ncclResult_t r = ncclCommInitRank(&e->nc, size, id, rank);
    if (r != ncclSuccess) {
      e->nc = NULL;
      err = TSR_RAISE(TSR_ERR_UNSUPPORTED, "halo NCCL: ncclCommInitRank of rank %d of %d on device "
                      "%d failed (%s)", rank, size, dev, ncclGetErrorString(r));
    }
  }
  err = tsr_error_agree(comm, err);
  if (err) {
    if (e) {
      if (e->nc) ncclCommDestroy(e->nc);
      if (e->comm != MPI_COMM_NULL) MPI_Comm_free(&e->comm);
      free(e);
    }
    return tsr_error_trace(err, __FILE__, __LINE__, __func__);
  }
  e->dev = dev;
  e->next = nc_list;
  nc_list = e;
  *out = e;
  TSR_CALL(nc_finalize_hook());
  return TSR_SUCCESS;
}

/* NCCL takes one GPU per rank: ranks of comm that share one are refused
   (TSR_ERR_UNSUPPORTED on every rank, naming two of them). Collective. */
static int nc_distinct_devices(MPI_Comm comm, int dev) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  struct cudaDeviceProp prop;
  char mine[16];
  memset(mine, 0, sizeof mine);
  if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) memcpy(mine, prop.uuid.bytes, 16);
  else (void)cudaGetLastError();
  char *all = malloc((size_t)size * 16);
  int err = all ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "halo NCCL: no memory");
  err = tsr_error_agree(comm, err);
  if (err) {
    free(all);
    return tsr_error_trace(err, __FILE__, __LINE__, __func__);
  }
  if (MPI_Allgather(mine, 16, MPI_BYTE, all, 16, MPI_BYTE, comm) != MPI_SUCCESS) {
    free(all);
    return TSR_RAISE(TSR_ERR_MPI, "halo NCCL: MPI_Allgather of the devices failed");
  }
  int a = -1, b = -1; /* the same on every rank */
  for (int i = 0; i < size && a < 0; i++)
    for (int j = i + 1; j < size; j++)
      if (!memcmp(all + 16 * (size_t)i, all + 16 * (size_t)j, 16)) {
        a = i, b = j;
        break;
      }
  free(all);
  TSR_CHECK(a < 0, TSR_ERR_UNSUPPORTED,
            "halo NCCL: ranks %d and %d use the same GPU (NCCL needs one GPU per rank); use the "
            "ipc or staged exchange", a, b);
  return TSR_SUCCESS;
}

int tsr__halo_nccl_setup(tsr_halo_t *h, const tsr_device_t *dev) {
  nc_entry_t *e = h->nccl_comm;
  if (e && e->dev == dev->id) return TSR_SUCCESS;
  if (e) tsr__halo_nccl_release(h);
  /* take a communicator every rank has, else every rank makes a new one */
  e = nc_find(h->comm, dev->id);
  int have = e != NULL, all = 0;
  TSR_CALL_MPI(MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, h->comm));
  if (!all) {
    TSR_CALL(nc_distinct_devices(h->comm, dev->id));
    TSR_CALL(nc_create(h->comm, dev->id, &e));
  }
  e->refs++;
  h->nccl_comm = e;
  return TSR_SUCCESS;
}

void tsr__halo_nccl_release(tsr_halo_t *h) {
  nc_entry_t *e = h->nccl_comm;
  h->nccl_comm = NULL;
  if (e) e->refs--; /* kept for the next halo: destroyed at MPI_Finalize */
}

int tsr__halo_nccl_post(tsr_halo_t *h, const side_t *out, const side_t *in, size_t es) {
  const nc_entry_t *e = h->nccl_comm;
  TSR_CHECK(e, TSR_ERR_INTERNAL, "halo NCCL: no communicator");
  cudaStream_t sm = (cudaStream_t)h->stream;
  ncclResult_t r = ncclGroupStart();
  /* the j-th message between two ranks pairs the j-th entries of their
     lists that name each other (NCCL matches a peer's operations in order) */
  for (int k = 0; r == ncclSuccess && k < h->nneigh; k++) {
    size_t n = (size_t)(in->off[k + 1] - in->off[k]) * es;
    if (n > 0) r = ncclRecv((char *)in->dbuf + (size_t)in->off[k] * es, n, ncclUint8, h->ranks[k], e->nc, sm);
  }
  for (int k = 0; r == ncclSuccess && k < h->nneigh; k++) {
    size_t n = (size_t)(out->off[k + 1] - out->off[k]) * es;
    if (n > 0) r = ncclSend((const char *)out->dbuf + (size_t)out->off[k] * es, n, ncclUint8, h->ranks[k], e->nc, sm);
  }
  ncclResult_t r2 = ncclGroupEnd();
  if (r == ncclSuccess) r = r2;
  TSR_CHECK(r == ncclSuccess, TSR_ERR_CUDA, "halo NCCL: the exchange's sends and receives failed (%s)",
            ncclGetErrorString(r));
  return TSR_SUCCESS;
}
#endif

int tsr_halo_nccl_available(void) {
#ifdef TSR_HAVE_NCCL
  return 1;
#else
  return 0;
#endif
}

int tsr_halo_set_nccl(tsr_halo_t *h, int on) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_set_nccl: halo is NULL");
  TSR_CHECK(h->state == 0, TSR_ERR_ARG, "tsr_halo_set_nccl: an exchange is in flight");
  TSR_CHECK(!on || tsr_halo_nccl_available(), TSR_ERR_UNSUPPORTED,
            "halo NCCL: Tessera was built without NCCL (configure found no nccl.h and "
            "libnccl.so in the CUDA installation)");
#ifdef TSR_HAVE_NCCL
  if (!on && h->nccl_comm) tsr__halo_nccl_release(h);
#endif
  h->nccl = on ? 1 : 0;
  return TSR_SUCCESS;
}

int tsr_halo_uses_nccl(const tsr_halo_t *h) { return h ? h->nccl : 0; }
