/* halo.c: the halo object: setup, transports, buffers and the split-phase
 * forward and reverse exchange (pack and unpack: halo_packing.c; CUDA IPC:
 * halo_ipc.c; its pieces for CUDA graphs: halo_graph.c). */
#include "config.h"
#include "tessera/halo.h"
#include "tessera/error.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif
#ifdef TSR_HAVE_CUDA
#include "tessera/cuda.h"
#endif

#include "halo_internal.h"

/* ------------------------------------------------------------ setup */

static int lists_copy(side_t *sd, int nneigh, const int *counts, const tsr_idx_t *idx,
                      tsr_idx_t nlocal, const int *ranks, const char *what) {
  sd->off = malloc((size_t)(nneigh + 1) * sizeof *sd->off);
  TSR_CHECK(sd->off, TSR_ERR_ALLOC, "halo: cannot allocate %d offsets", nneigh + 1);
  sd->off[0] = 0;
  for (int k = 0; k < nneigh; k++) {
    TSR_CHECK(counts[k] >= 0, TSR_ERR_ARG, "halo: %s count %d for rank %d is negative", what,
              counts[k], ranks[k]);
    sd->off[k + 1] = sd->off[k] + counts[k];
  }
  tsr_idx_t n = sd->off[nneigh];
  sd->idx = malloc((size_t)TSR_MAX(n, 1) * sizeof *sd->idx);
  TSR_CHECK(sd->idx, TSR_ERR_ALLOC, "halo: cannot allocate %lld %s indices", (long long)n, what);
  for (tsr_idx_t j = 0; j < n; j++) {
    TSR_CHECK(idx[j] >= 0 && idx[j] < nlocal, TSR_ERR_RANGE,
              "halo: %s index %lld at position %lld is outside the local array [0, %lld)", what,
              (long long)idx[j], (long long)j, (long long)nlocal);
    sd->idx[j] = idx[j];
  }
  return TSR_SUCCESS;
}

/* Every pair of ranks must agree: what a sends to b is what b receives from
 * a. Checked with one all-to-all of counts, so a mismatch is an error on
 * every rank instead of a hang. */
static int check_pairs(tsr_halo_t *h, int size, int me) {
  int *mine = calloc((size_t)size * 2, sizeof *mine);
  TSR_CHECK(mine, TSR_ERR_ALLOC, "halo: cannot allocate %d counts", size * 2);
  int *theirs = mine + size;
  int err = TSR_SUCCESS;
  for (int k = 0; k < h->nneigh; k++)
    mine[h->ranks[k]] = (int)(h->s.off[k + 1] - h->s.off[k]);
  if (MPI_Alltoall(mine, 1, MPI_INT, theirs, 1, MPI_INT, h->comm) != MPI_SUCCESS) {
    free(mine);
    return TSR_RAISE(TSR_ERR_MPI, "halo: MPI_Alltoall of message counts failed");
  }
  int *expect = calloc((size_t)size, sizeof *expect);
  if (!expect) {
    free(mine);
    return TSR_RAISE(TSR_ERR_ALLOC, "halo: cannot allocate %d counts", size);
  }
  for (int k = 0; k < h->nneigh; k++) expect[h->ranks[k]] = (int)(h->r.off[k + 1] - h->r.off[k]);
  for (int q = 0; q < size && !err; q++)
    if (theirs[q] != expect[q])
      err = TSR_RAISE(TSR_ERR_ARG,
                      "halo: rank %d sends %d elements to rank %d, which expects to receive %d "
                      "from it",
                      q, theirs[q], me, expect[q]);
  free(expect);
  free(mine);
  return err;
}

static int create_local(MPI_Comm comm, int nneigh, const int *ranks, tsr_idx_t nlocal,
                        const int *send_counts, const tsr_idx_t *send_idx,
                        const int *recv_counts, const tsr_idx_t *recv_idx, tsr_halo_t *h) {
  int size, me;
  TSR_CALL_MPI(MPI_Comm_size(comm, &size));
  TSR_CALL_MPI(MPI_Comm_rank(comm, &me));
  TSR_CHECK(nneigh >= 0 && nneigh <= size, TSR_ERR_ARG,
            "halo: %d neighbours listed, the communicator has %d ranks", nneigh, size);
  TSR_CHECK(nneigh == 0 || (ranks && send_counts && recv_counts), TSR_ERR_ARG,
            "halo: NULL neighbour arrays");
  h->ranks = malloc((size_t)TSR_MAX(nneigh, 1) * sizeof *h->ranks);
  h->req = malloc((size_t)TSR_MAX(2 * nneigh, 1) * sizeof *h->req);
  TSR_CHECK(h->ranks && h->req, TSR_ERR_ALLOC, "halo: cannot allocate %d neighbours", nneigh);
  h->nneigh = nneigh;
  for (int k = 0; k < nneigh; k++) {
    TSR_CHECK(ranks[k] >= 0 && ranks[k] < size, TSR_ERR_ARG,
              "halo: neighbour rank %d is outside the communicator of %d ranks", ranks[k], size);
    for (int l = 0; l < k; l++)
      TSR_CHECK(ranks[l] != ranks[k], TSR_ERR_ARG,
                "halo: neighbour rank %d is listed twice; merge its lists", ranks[k]);
    h->ranks[k] = ranks[k];
  }
  TSR_CALL(lists_copy(&h->s, nneigh, send_counts, send_idx, nlocal, ranks, "send"));
  TSR_CALL(lists_copy(&h->r, nneigh, recv_counts, recv_idx, nlocal, ranks, "receive"));
  return TSR_SUCCESS;
}

int tsr_halo_create(MPI_Comm comm, int nneigh, const int *ranks, tsr_idx_t nlocal,
                    const int *send_counts, const tsr_idx_t *send_idx, const int *recv_counts,
                    const tsr_idx_t *recv_idx, tsr_halo_t **out) {
  TSR_CHECK(out, TSR_ERR_ARG, "tsr_halo_create: out is NULL");
  *out = NULL;
  tsr_halo_t *h = calloc(1, sizeof *h);
  int err = h ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "halo: cannot allocate the object");
  if (h) {
    h->d_id = -1;
    h->ipc_dev = -1;
    h->put_limit = TSR_HALO_PUT_LIMIT;
    h->comm = MPI_COMM_NULL;
    if (MPI_Comm_dup(comm, &h->comm) != MPI_SUCCESS)
      err = TSR_RAISE(TSR_ERR_MPI, "halo: MPI_Comm_dup failed");
  }
  if (!err)
    err = create_local(comm, nneigh, ranks, nlocal, send_counts, send_idx, recv_counts,
                       recv_idx, h);
  err = tsr_error_agree(comm, err);
  if (!err) {
    int size, me;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &me);
    err = tsr_error_agree(comm, check_pairs(h, size, me));
  }
  if (err) {
    tsr_halo_destroy(&h);
    return tsr_error_trace(err, __FILE__, __LINE__, __func__);
  }
  *out = h;
  return TSR_SUCCESS;
}

int tsr_halo_create_planes(const tsr_halo_t *h, int nplanes, tsr_idx_t stride, tsr_halo_t **out) {
  TSR_CHECK(h && out, TSR_ERR_ARG, "tsr_halo_create_planes: NULL halo or out");
  *out = NULL;
  const int nn = h->nneigh;
  const tsr_idx_t ns = h->s.off[nn], nr = h->r.off[nn];
  int err = nplanes >= 1 && stride >= 1 ? TSR_SUCCESS
            : TSR_RAISE(TSR_ERR_ARG, "halo planes: %d planes of %lld elements, expected >= 1 of each",
                        nplanes, (long long)stride);
  int *cnt = NULL;
  tsr_idx_t *idx = NULL;
  if (!err) {
    cnt = malloc(sizeof(int) * (size_t)(2 * nn + 1));
    idx = malloc(sizeof(tsr_idx_t) * (size_t)((ns + nr) * nplanes + 1));
    if (!cnt || !idx) err = TSR_RAISE(TSR_ERR_ALLOC, "halo planes: no memory for %lld indices",
                                      (long long)((ns + nr) * nplanes));
  }
  for (int side = 0; side < 2 && !err; side++) {
    const side_t *sd = side ? &h->r : &h->s;
    tsr_idx_t *o = idx + (side ? ns * nplanes : 0);
    for (int k = 0; k < nn && !err; k++) {
      tsr_idx_t n = sd->off[k + 1] - sd->off[k];
      if (n * nplanes > INT_MAX) {
        err = TSR_RAISE(TSR_ERR_UNSUPPORTED, "halo planes: %lld elements for rank %d exceed an int",
                        (long long)(n * nplanes), h->ranks[k]);
        break;
      }
      cnt[side * nn + k] = (int)(n * nplanes);
      for (int c = 0; c < nplanes && !err; c++)
        for (tsr_idx_t j = sd->off[k]; j < sd->off[k + 1]; j++) {
          if (sd->idx[j] >= stride) {
            err = TSR_RAISE(TSR_ERR_RANGE, "halo planes: index %lld is not below the plane "
                            "stride %lld", (long long)sd->idx[j], (long long)stride);
            break;
          }
          *o++ = c * stride + sd->idx[j];
        }
    }
  }
  err = tsr_error_agree(h->comm, err);
  if (!err)
    err = tsr_halo_create(h->comm, nn, h->ranks, stride * nplanes, cnt, idx, cnt + nn,
                          idx + ns * nplanes, out);
  if (!err) { /* the transport asked for on h carries over */
    (*out)->cuda_aware = h->cuda_aware;
    (*out)->ipc = h->ipc;
    (*out)->put_limit = h->put_limit;
    (*out)->nccl = h->nccl;
    (*out)->stream = h->stream;
  }
  free(cnt);
  free(idx);
  TSR_CALL(err);
  return TSR_SUCCESS;
}

static void side_free(side_t *sd) {
  free(sd->off);
  free(sd->idx);
#ifdef TSR_HAVE_CUDA
  if (sd->d_idx) cudaFree(sd->d_idx);
  if (sd->d_nb) cudaFree(sd->d_nb);
  if (sd->dbuf) cudaFree(sd->dbuf);
  if (sd->hbuf && sd->hpinned) {
    cudaFreeHost(sd->hbuf);
    sd->hbuf = NULL;
  }
#endif
  free(sd->hbuf);
  memset(sd, 0, sizeof *sd);
}

int tsr_halo_destroy(tsr_halo_t **hp) {
  if (!hp || !*hp) return TSR_SUCCESS;
  tsr_halo_t *h = *hp;
#ifdef TSR_HAVE_CUDA
  if (h->comm != MPI_COMM_NULL && (h->ipx[0].buf || h->ipx[1].buf)) tsr__halo_ipc_release(h, 0);
#endif
#ifdef TSR_HAVE_NCCL
  tsr__halo_nccl_release(h);
#endif
  side_free(&h->s);
  side_free(&h->r);
  free(h->ranks);
  free(h->req);
  if (h->comm != MPI_COMM_NULL) MPI_Comm_free(&h->comm);
  free(h);
  *hp = NULL;
  return TSR_SUCCESS;
}

int tsr_halo_nneigh(const tsr_halo_t *h) { return h ? h->nneigh : 0; }

int tsr_halo_set_stream(tsr_halo_t *h, void *stream) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_set_stream: halo is NULL");
  TSR_CHECK(h->state == 0, TSR_ERR_ARG, "tsr_halo_set_stream: an exchange is in flight");
  h->stream = stream;
  return TSR_SUCCESS;
}
tsr_idx_t tsr_halo_send_count(const tsr_halo_t *h) { return h ? h->s.off[h->nneigh] : 0; }
tsr_idx_t tsr_halo_recv_count(const tsr_halo_t *h) { return h ? h->r.off[h->nneigh] : 0; }
const tsr_idx_t *tsr_halo_send_list(const tsr_halo_t *h) { return h ? h->s.idx : NULL; }

int tsr_halo_cuda_aware_available(void) {
#if defined(MPIX_CUDA_AWARE_SUPPORT)
  return MPIX_Query_cuda_support() ? 1 : 0;
#else
  return 0;
#endif
}

int tsr_halo_transport_parse(const char *name, tsr_halo_transport_t *out) {
  TSR_CHECK(name && out, TSR_ERR_ARG, "tsr_halo_transport_parse: NULL argument");
  if (!strcmp(name, "staged")) *out = TSR_HALO_STAGED;
  else if (!strcmp(name, "ipc")) *out = TSR_HALO_IPC;
  else if (!strcmp(name, "aware")) *out = TSR_HALO_AWARE;
  else if (!strcmp(name, "nccl")) *out = TSR_HALO_NCCL;
  else if (!strcmp(name, "auto"))
    *out = tsr_halo_cuda_aware_available() ? TSR_HALO_AWARE : TSR_HALO_STAGED;
  else
    return TSR_RAISE(TSR_ERR_ARG, "--halo: '%s', expected staged, ipc, aware, nccl or auto", name);
  TSR_CHECK(*out != TSR_HALO_AWARE || tsr_halo_cuda_aware_available(), TSR_ERR_UNSUPPORTED,
            "--halo aware: this MPI library does not report CUDA support "
            "(MPIX_Query_cuda_support); use staged, ipc (one node), nccl or auto");
  TSR_CHECK(*out != TSR_HALO_NCCL || tsr_halo_nccl_available(), TSR_ERR_UNSUPPORTED,
            "--halo nccl: Tessera was built without NCCL (configure found no nccl.h and "
            "libnccl.so in the CUDA installation; --with-nccl=DIR); use staged, ipc or auto");
  return TSR_SUCCESS;
}

const char *tsr_halo_transport_name(tsr_halo_transport_t t) {
  return t == TSR_HALO_IPC     ? "ipc"
         : t == TSR_HALO_AWARE ? "aware"
         : t == TSR_HALO_NCCL  ? "nccl"
                               : "staged";
}

int tsr_halo_set_transport(tsr_halo_t *h, tsr_halo_transport_t t) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_set_transport: halo is NULL");
  TSR_CALL(tsr_halo_set_cuda_aware(h, t == TSR_HALO_AWARE));
  if (t == TSR_HALO_IPC || h->ipc) TSR_CALL(tsr_halo_set_ipc(h, t == TSR_HALO_IPC));
  if (t == TSR_HALO_NCCL || h->nccl) TSR_CALL(tsr_halo_set_nccl(h, t == TSR_HALO_NCCL));
  return TSR_SUCCESS;
}

int tsr_halo_set_cuda_aware(tsr_halo_t *h, int on) {
  TSR_CHECK(h, TSR_ERR_ARG, "tsr_halo_set_cuda_aware: halo is NULL");
  TSR_CHECK(!on || tsr_halo_cuda_aware_available(), TSR_ERR_UNSUPPORTED,
            "CUDA-aware MPI was asked for, but this MPI library does not report CUDA support "
            "(MPIX_Query_cuda_support); use host-staged exchange");
  h->cuda_aware = on ? 1 : 0;
  return TSR_SUCCESS;
}

int tsr_halo_uses_cuda_aware(const tsr_halo_t *h) { return h ? h->cuda_aware : 0; }

/* ------------------------------------------------------------ buffers */

static int host_buf(side_t *sd, size_t bytes, int pinned) {
  if (sd->hbuf && sd->hcap >= bytes && (sd->hpinned || !pinned)) return TSR_SUCCESS;
#ifdef TSR_HAVE_CUDA
  if (sd->hpinned) cudaFreeHost(sd->hbuf);
  else
#endif
    free(sd->hbuf);
  sd->hbuf = NULL;
  sd->hcap = 0;
  sd->hpinned = 0;
  size_t cap = TSR_MAX(bytes, (size_t)64);
#ifdef TSR_HAVE_CUDA
  if (pinned) {
    /* into a local: a failed call (or a success that a TSR_FAULT turns into
       a failure) leaves no pinned pointer in hbuf with hpinned 0, which
       side_free would pass to free() */
    void *p = NULL;
    cudaError_t e = tsr_cuda_fault(cudaMallocHost(&p, cap));
    if (e != cudaSuccess) {
      if (p) cudaFreeHost(p);
      return tsr__error_cuda((int)e, "cudaMallocHost(&sd->hbuf, cap)", __FILE__, __LINE__,
                             __func__);
    }
    sd->hbuf = p;
    sd->hpinned = 1;
  }
#endif
  if (!sd->hbuf) sd->hbuf = malloc(cap);
  TSR_CHECK(sd->hbuf, TSR_ERR_ALLOC, "halo: cannot allocate a %zu-byte message buffer", cap);
  sd->hcap = cap;
  return TSR_SUCCESS;
}

#ifdef TSR_HAVE_CUDA
/* Index lists and message buffers on the exchange's device. */
static int device_side(tsr_halo_t *h, side_t *sd, int nneigh, size_t bytes) {
  if (!sd->d_idx) { /* kept only when uploaded: a later exchange must not use a stale list */
    size_t ib = (size_t)TSR_MAX(sd->off[nneigh], 1) * sizeof(tsr_idx_t);
    tsr_idx_t *d = NULL;
    cudaError_t e = tsr_cuda_fault(cudaMalloc((void **)&d, ib));
    if (e == cudaSuccess) e = tsr_cuda_fault(cudaMemcpy(d, sd->idx, ib, cudaMemcpyHostToDevice));
    if (e != cudaSuccess) {
      if (d) cudaFree(d);
      return tsr__error_cuda((int)e, "cudaMalloc + cudaMemcpy(sd->d_idx, sd->idx, ib)", __FILE__, __LINE__,
                             __func__);
    }
    sd->d_idx = d;
  }
  if (!sd->d_nb && h->ipc) { /* the IPC put's neighbour of each entry */
    const tsr_idx_t n = sd->off[nneigh];
    int *nb = malloc(sizeof(int) * (size_t)TSR_MAX(n, 1));
    TSR_CHECK(nb, TSR_ERR_ALLOC, "halo: no memory for the neighbour list");
    for (int k = 0; k < nneigh; k++)
      for (tsr_idx_t j = sd->off[k]; j < sd->off[k + 1]; j++) nb[j] = k;
    cudaError_t e = tsr_cuda_fault(cudaMalloc((void **)&sd->d_nb, sizeof(int) * (size_t)TSR_MAX(n, 1)));
    if (e == cudaSuccess)
      e = tsr_cuda_fault(cudaMemcpy(sd->d_nb, nb, sizeof(int) * (size_t)TSR_MAX(n, 1), cudaMemcpyHostToDevice));
    free(nb);
    if (e != cudaSuccess) {
      if (sd->d_nb) cudaFree(sd->d_nb);
      sd->d_nb = NULL;
      return TSR_RAISE(TSR_ERR_CUDA, "halo: cannot put the neighbour list on the device (%s)",
                       cudaGetErrorString(e));
    }
  }
  if (sd->dcap < bytes) {
    if (sd->dbuf) TSR_CALL_CUDA(cudaFree(sd->dbuf));
    sd->dbuf = NULL;
    sd->dcap = 0;
    TSR_CALL_CUDA(cudaMalloc(&sd->dbuf, TSR_MAX(bytes, (size_t)64)));
    sd->dcap = TSR_MAX(bytes, (size_t)64);
  }
  (void)h;
  return TSR_SUCCESS;
}

static int device_prepare(tsr_halo_t *h, const tsr_device_t *dev, size_t es) {
  if (h->d_id != dev->id) { /* index copies belong to another GPU: redo */
    if (h->s.d_idx) cudaFree(h->s.d_idx);
    if (h->r.d_idx) cudaFree(h->r.d_idx);
    if (h->s.d_nb) cudaFree(h->s.d_nb);
    if (h->r.d_nb) cudaFree(h->r.d_nb);
    if (h->s.dbuf) cudaFree(h->s.dbuf);
    if (h->r.dbuf) cudaFree(h->r.dbuf);
    h->s.d_idx = h->r.d_idx = NULL;
    h->s.d_nb = h->r.d_nb = NULL;
    h->s.dbuf = h->r.dbuf = NULL;
    h->s.dcap = h->r.dcap = 0;
    h->d_id = dev->id;
  }
  TSR_CALL(device_side(h, &h->s, h->nneigh, (size_t)h->s.off[h->nneigh] * es));
  TSR_CALL(device_side(h, &h->r, h->nneigh, (size_t)h->r.off[h->nneigh] * es));
  return TSR_SUCCESS;
}
#endif

/* ------------------------------------------------------------ exchange */

int tsr__halo_check_call(tsr_halo_t *h, const tsr_device_t *dev, const tsr__hd_t *D, tsr_dtype_t t) {
  TSR_CHECK(h && dev, TSR_ERR_ARG, "halo exchange: NULL halo or device");
  TSR_CHECK(D->n >= 1 && D->n <= TSR_HALO_MAX_ARRAYS, TSR_ERR_ARG,
            "halo exchange: %d arrays, expected 1 .. %d", D->n, TSR_HALO_MAX_ARRAYS);
  for (int a = 0; a < D->n; a++) {
    TSR_CHECK(D->dim[a] > 0, TSR_ERR_ARG, "halo exchange: dim = %d, must be positive", D->dim[a]);
    TSR_CHECK(D->p[a] || (h->s.off[h->nneigh] == 0 && h->r.off[h->nneigh] == 0), TSR_ERR_ARG,
              "halo exchange: data is NULL");
  }
  TSR_CHECK(t >= TSR_INT32 && t <= TSR_DOUBLE, TSR_ERR_ARG, "halo exchange: unknown type %d",
            (int)t);
#ifndef TSR_HAVE_CUDA
  TSR_CHECK(dev->kind == TSR_DEV_CPU, TSR_ERR_NOCUDA,
            "halo exchange on a CUDA device: Tessera was built without CUDA");
#endif
  return TSR_SUCCESS;
}

/* Record the exchange now in flight (end checks that it gets the same). */
void tsr__halo_in_flight(tsr_halo_t *h, int state, const tsr_device_t *dev, const tsr__hd_t *D,
                      tsr_dtype_t t) {
  h->state = state;
  h->hd = *D;
  h->type = t;
  h->kind = dev->kind;
}

/* Whether D is the exchange in flight. */
int tsr__halo_same_arrays(const tsr_halo_t *h, const tsr__hd_t *D) {
  if (h->hd.n != D->n) return 0;
  for (int a = 0; a < D->n; a++)
    if (h->hd.p[a] != D->p[a] || h->hd.dim[a] != D->dim[a]) return 0;
  return 1;
}

/* Pack `out`, post receives into `in` and sends from `out`. */
static int start(tsr_halo_t *h, int state, const tsr_device_t *dev, const tsr__hd_t *D,
                 tsr_dtype_t t) {
  TSR_CALL(tsr__halo_check_call(h, dev, D, t));
  TSR_CHECK(h->state == 0, TSR_ERR_ARG,
            "halo: a %s exchange is already in flight; call its end first",
            h->state == 1 ? "forward" : "reverse");
  side_t *out = state == 1 ? &h->s : &h->r, *in = state == 1 ? &h->r : &h->s;
  size_t es = (size_t)D->sum * tsr_dtype_size(t);
  tsr_idx_t nout = out->off[h->nneigh], nin = in->off[h->nneigh];
  int cuda = dev->kind == TSR_DEV_CUDA, direct = cuda && h->cuda_aware;
#ifdef TSR_HAVE_NCCL
  if (cuda && h->nccl) { /* all on the stream: nothing here waits for the device */
    TSR_CALL(tsr__halo_nccl_setup(h, dev));
    TSR_CALL(device_prepare(h, dev, es));
    TSR_CALL(tsr__halo_pack_cuda_hd(nout, out->d_idx, D, t, out->dbuf, h->stream));
    TSR_CALL(tsr__halo_nccl_post(h, out, in, es));
    h->seq = tsr__halo_posted();
    tsr__halo_in_flight(h, state, dev, D, t);
    return TSR_SUCCESS;
  }
#endif
#ifdef TSR_HAVE_CUDA
  if (cuda && h->ipc) {
    TSR_CALL(tsr__halo_ipc_setup(h, dev, es));
    TSR_CALL(device_prepare(h, dev, es));
    const int put = h->nneigh <= TSR__HALO_PUT_MAX && (size_t)nout * es <= h->put_limit;
    if (!put) TSR_CALL(tsr__halo_pack_cuda_hd(nout, out->d_idx, D, t, out->dbuf, h->stream));
    TSR_CALL(tsr__halo_ipc_post(h, state, out, D, t, es, put));
    tsr__halo_in_flight(h, state, dev, D, t);
    return TSR_SUCCESS;
  }
#endif
  char *sbuf, *rbuf;
  if (!direct) {
    TSR_CALL(host_buf(out, (size_t)nout * es, cuda));
    TSR_CALL(host_buf(in, (size_t)nin * es, cuda));
  }
  if (!cuda) {
    tsr__halo_pack_host_hd(nout, out->idx, D, tsr_dtype_size(t), out->hbuf);
    sbuf = out->hbuf;
    rbuf = in->hbuf;
  } else {
#ifdef TSR_HAVE_CUDA
    TSR_CALL(device_prepare(h, dev, es));
    TSR_CALL(tsr__halo_pack_cuda_hd(nout, out->d_idx, D, t, out->dbuf, h->stream));
    if (direct) {
      /* packed before MPI reads it */
      if (h->stream) TSR_CALL_CUDA(cudaStreamSynchronize((cudaStream_t)h->stream));
      else TSR_CALL_CUDA(cudaDeviceSynchronize());
      sbuf = out->dbuf;
      rbuf = in->dbuf;
    } else if (h->stream) {
      cudaStream_t sm = (cudaStream_t)h->stream;
      TSR_CALL_CUDA(cudaMemcpyAsync(out->hbuf, out->dbuf, (size_t)nout * es,
                                    cudaMemcpyDeviceToHost, sm));
      TSR_CALL_CUDA(cudaStreamSynchronize(sm));
      sbuf = out->hbuf;
      rbuf = in->hbuf;
    } else {
      TSR_CALL_CUDA(cudaMemcpy(out->hbuf, out->dbuf, (size_t)nout * es, cudaMemcpyDeviceToHost));
      sbuf = out->hbuf;
      rbuf = in->hbuf;
    }
#else
    return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
  }
  int nreq = 0;
  for (int k = 0; k < h->nneigh; k++) {
    size_t n = (size_t)(in->off[k + 1] - in->off[k]) * es;
    if (n == 0) continue;
    TSR_CHECK(n <= INT_MAX, TSR_ERR_UNSUPPORTED, "halo: a %zu-byte message exceeds MPI's int count", n);
    TSR_CALL_MPI(MPI_Irecv(rbuf + (size_t)in->off[k] * es, (int)n, MPI_BYTE, h->ranks[k],
                           TSR__HALO_TAG + state, h->comm, &h->req[nreq++]));
  }
  for (int k = 0; k < h->nneigh; k++) {
    size_t n = (size_t)(out->off[k + 1] - out->off[k]) * es;
    if (n == 0) continue;
    TSR_CHECK(n <= INT_MAX, TSR_ERR_UNSUPPORTED, "halo: a %zu-byte message exceeds MPI's int count", n);
    TSR_CALL_MPI(MPI_Isend(sbuf + (size_t)out->off[k] * es, (int)n, MPI_BYTE, h->ranks[k],
                           TSR__HALO_TAG + state, h->comm, &h->req[nreq++]));
  }
  for (int k = nreq; k < 2 * h->nneigh; k++) h->req[k] = MPI_REQUEST_NULL;
  h->seq = tsr__halo_posted(); /* this rank's messages are out */
  tsr__halo_in_flight(h, state, dev, D, t);
  return TSR_SUCCESS;
}

static int finish(tsr_halo_t *h, int state, const tsr_device_t *dev, const tsr__hd_t *D,
                  tsr_dtype_t t) {
  TSR_CALL(tsr__halo_check_call(h, dev, D, t));
  TSR_CHECK(h->state == state, TSR_ERR_ARG, "halo: end of a %s exchange that was not begun",
            state == 1 ? "forward" : "reverse");
  TSR_CHECK(tsr__halo_same_arrays(h, D) && h->type == t && h->kind == dev->kind,
            TSR_ERR_ARG, "halo: end called with other data, dim, type or device than begin");
  h->state = 0;
#ifdef TSR_HAVE_NCCL
  if (dev->kind == TSR_DEV_CUDA && h->nccl) { /* the receives are ordered on the stream */
    side_t *in = state == 1 ? &h->r : &h->s;
    TSR_CALL(tsr__halo_unpack_cuda_hd(in->off[h->nneigh], in->d_idx, D, t, in->dbuf, state == 2, h->stream));
    return TSR_SUCCESS;
  }
#endif
#ifdef TSR_HAVE_CUDA
  if (dev->kind == TSR_DEV_CUDA && h->ipc) {
    TSR_CALL(tsr__halo_ipc_ready(h, state, NULL));
    h->seq = tsr__halo_posted(); /* this rank's copies are done and told */
  }
#endif
  /* ends early when a rank that failed will never send this exchange */
  TSR_CALL(tsr__wait_all(2 * h->nneigh, h->req, h->seq));
  side_t *in = state == 1 ? &h->r : &h->s;
  size_t es = (size_t)D->sum * tsr_dtype_size(t);
  tsr_idx_t nin = in->off[h->nneigh];
  int add = state == 2;
  if (dev->kind == TSR_DEV_CPU) {
    tsr__halo_unpack_host_hd(nin, in->idx, D, t, in->hbuf, add);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  if (h->ipc) {
    TSR_CALL(tsr__halo_unpack_cuda_hd(nin, in->d_idx, D, t, tsr__halo_ipc_received(h, state), add, h->stream));
    return TSR_SUCCESS;
  }
  if (!h->cuda_aware && nin > 0) {
    if (h->stream) /* ordered before the unpack on the same stream; the next
                      exchange's start waits for the stream before MPI writes hbuf */
      TSR_CALL_CUDA(cudaMemcpyAsync(in->dbuf, in->hbuf, (size_t)nin * es, cudaMemcpyHostToDevice,
                                    (cudaStream_t)h->stream));
    else
      TSR_CALL_CUDA(cudaMemcpy(in->dbuf, in->hbuf, (size_t)nin * es, cudaMemcpyHostToDevice));
  }
  TSR_CALL(tsr__halo_unpack_cuda_hd(nin, in->d_idx, D, t, in->dbuf, add, h->stream));
  return TSR_SUCCESS;
#else
  (void)es;
  return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
}

/* One array as an exchange's arrays. */
static tsr__hd_t one(void *data, int dim) {
  tsr__hd_t D;
  memset(&D, 0, sizeof D);
  D.n = 1, D.p[0] = data, D.dim[0] = dim, D.sum = dim;
  return D;
}

int tsr_halo_begin(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim, tsr_dtype_t t) {
  const tsr__hd_t D = one(data, dim);
  TSR_CALL(start(h, 1, dev, &D, t));
  return TSR_SUCCESS;
}
int tsr_halo_end(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim, tsr_dtype_t t) {
  const tsr__hd_t D = one(data, dim);
  TSR_CALL(finish(h, 1, dev, &D, t));
  return TSR_SUCCESS;
}
int tsr_halo_prepare(tsr_halo_t *h, const tsr_device_t *dev, size_t elem_bytes) {
  TSR_CHECK(h && dev, TSR_ERR_ARG, "tsr_halo_prepare: NULL halo or device");
  TSR_CHECK(h->state == 0, TSR_ERR_ARG, "tsr_halo_prepare: an exchange is in flight");
  TSR_CHECK(elem_bytes > 0, TSR_ERR_ARG, "tsr_halo_prepare: elem_bytes is 0");
  if (dev->kind != TSR_DEV_CUDA) return TSR_SUCCESS;
#ifdef TSR_HAVE_CUDA
  /* the device's lists and buffers (local), agreed before the collective part */
  TSR_CALL(tsr_error_agree(h->comm, device_prepare(h, dev, elem_bytes)));
#ifdef TSR_HAVE_NCCL
  if (h->nccl) TSR_CALL(tsr__halo_nccl_setup(h, dev));
#endif
  if (h->ipc && !h->nccl) TSR_CALL(tsr__halo_ipc_setup(h, dev, elem_bytes));
  return TSR_SUCCESS;
#else
  return TSR_RAISE(TSR_ERR_NOCUDA, "halo exchange on a CUDA device: Tessera was built without CUDA");
#endif
}

int tsr_halo_exchange(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim,
                      tsr_dtype_t t) {
  const tsr__hd_t D = one(data, dim);
  TSR_CALL(start(h, 1, dev, &D, t));
  TSR_CALL(finish(h, 1, dev, &D, t));
  return TSR_SUCCESS;
}
int tsr_halo_reverse_begin(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim,
                           tsr_dtype_t t) {
  const tsr__hd_t D = one(data, dim);
  TSR_CALL(start(h, 2, dev, &D, t));
  return TSR_SUCCESS;
}
int tsr_halo_reverse_end(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim,
                         tsr_dtype_t t) {
  const tsr__hd_t D = one(data, dim);
  TSR_CALL(finish(h, 2, dev, &D, t));
  return TSR_SUCCESS;
}

/* Several arrays in one message per neighbour. */
int tsr__halo_arrays(int narr, void *const *data, const int *dims, tsr__hd_t *D) {
  memset(D, 0, sizeof *D);
  TSR_CHECK(narr >= 1 && narr <= TSR_HALO_MAX_ARRAYS && data && dims, TSR_ERR_ARG,
            "halo exchange of arrays: %d arrays (1 .. %d), data and dims needed", narr,
            TSR_HALO_MAX_ARRAYS);
  D->n = narr;
  for (int a = 0; a < narr; a++) {
    TSR_CHECK(dims[a] > 0 && dims[a] <= INT_MAX / TSR_HALO_MAX_ARRAYS, TSR_ERR_ARG,
              "halo exchange of arrays: array %d has dim %d", a, dims[a]);
    D->p[a] = data[a], D->dim[a] = dims[a], D->sum += dims[a];
  }
  return TSR_SUCCESS;
}
int tsr_halo_begin_arrays(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                          const int *dims, tsr_dtype_t t) {
  tsr__hd_t D;
  TSR_CALL(tsr__halo_arrays(narr, data, dims, &D));
  TSR_CALL(start(h, 1, dev, &D, t));
  return TSR_SUCCESS;
}
int tsr_halo_end_arrays(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t) {
  tsr__hd_t D;
  TSR_CALL(tsr__halo_arrays(narr, data, dims, &D));
  TSR_CALL(finish(h, 1, dev, &D, t));
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ regular grids */

/* x (or y) range of the strip exchanged with the neighbour at offset d
 * (-1, 0, 1): sent = my inner cells next to that side, received = my halo
 * cells on that side. */
static void strip(tsr_idx_t x0, tsr_idx_t inner, int h, int d, int recv, tsr_idx_t *lo,
                  tsr_idx_t *hi) {
  if (d == 0) {
    *lo = x0;
    *hi = x0 + inner;
  } else if (d < 0) {
    *lo = recv ? x0 - h : x0;
    *hi = *lo + h;
  } else {
    *lo = recv ? x0 + inner : x0 + inner - h;
    *hi = *lo + h;
  }
}

static tsr_idx_t add_region(const tsr_grid_part_t *p, const tsr_grid_box_t *b, int k, int recv,
                            tsr_idx_t *idx) {
  int dx = k % 3 - 1, dy = k / 3 - 1;
  tsr_idx_t xlo, xhi, ylo, yhi, n = 0;
  strip(b->x0, p->inner[0], p->halo, dx, recv, &xlo, &xhi);
  strip(b->y0, p->inner[1], p->halo, dy, recv, &ylo, &yhi);
  for (tsr_idx_t z = b->z0; z < b->z0 + p->n[2]; z++)
    for (tsr_idx_t y = ylo; y < yhi; y++)
      for (tsr_idx_t x = xlo; x < xhi; x++) {
        if (idx) idx[n] = (z * b->ny + y) * b->nx + x;
        n++;
      }
  return n;
}

static int check_box(const tsr_grid_part_t *p, const tsr_grid_box_t *b) {
  int h = p->halo;
  TSR_CHECK(b->x0 >= h && b->x0 + p->inner[0] + h <= b->nx && b->y0 >= h &&
                b->y0 + p->inner[1] + h <= b->ny && b->z0 >= 0 && b->z0 + p->n[2] <= b->nz,
            TSR_ERR_ARG,
            "regular halo: rank %d's local array %lld x %lld x %lld with the inner box at "
            "(%lld, %lld, %lld) cannot hold its %lld x %lld x %lld inner cells plus a halo of "
            "%d in x and y",
            p->rank, (long long)b->nx, (long long)b->ny, (long long)b->nz, (long long)b->x0,
            (long long)b->y0, (long long)b->z0, (long long)p->inner[0], (long long)p->inner[1],
            (long long)p->n[2], h);
  return TSR_SUCCESS;
}

/* Lists per distinct neighbour rank. Several directions may lead to the
 * same rank (periodic grids with 1 or 2 ranks along an axis, the rank
 * itself included): the sender concatenates its strips in ascending
 * direction index k, the receiver in descending k, because the sender's
 * direction k is the receiver's direction 8-k. */
static int regular_lists(const tsr_grid_part_t *p, const tsr_grid_box_t *b, int *nneigh,
                         int ranks[8], int scount[8], int rcount[8], tsr_idx_t **sidx,
                         tsr_idx_t **ridx) {
  int nn = 0;
  tsr_idx_t ns = 0, nr = 0;
  if (p->halo > 0)
    for (int k = 0; k < 9; k++) {
      int r = p->nbr[k];
      if (k == 4 || r == MPI_PROC_NULL) continue;
      int seen = 0;
      for (int l = 0; l < nn; l++) seen |= ranks[l] == r;
      if (!seen) ranks[nn++] = r;
      ns += add_region(p, b, k, 0, NULL);
      nr += add_region(p, b, k, 1, NULL);
    }
  *nneigh = nn;
  *sidx = malloc((size_t)TSR_MAX(ns, 1) * sizeof **sidx);
  *ridx = malloc((size_t)TSR_MAX(nr, 1) * sizeof **ridx);
  TSR_CHECK(*sidx && *ridx, TSR_ERR_ALLOC, "regular halo: cannot allocate %lld indices",
            (long long)(ns + nr));
  ns = nr = 0;
  for (int l = 0; l < nn; l++) {
    tsr_idx_t s0 = ns, r0 = nr;
    for (int k = 0; k < 9; k++)
      if (k != 4 && p->nbr[k] == ranks[l]) ns += add_region(p, b, k, 0, *sidx + ns);
    for (int k = 8; k >= 0; k--)
      if (k != 4 && p->nbr[k] == ranks[l]) nr += add_region(p, b, k, 1, *ridx + nr);
    TSR_CHECK(ns - s0 <= INT_MAX && nr - r0 <= INT_MAX, TSR_ERR_UNSUPPORTED,
              "regular halo: %lld cells to one neighbour exceed an int count",
              (long long)TSR_MAX(ns - s0, nr - r0));
    scount[l] = (int)(ns - s0);
    rcount[l] = (int)(nr - r0);
  }
  return TSR_SUCCESS;
}

int tsr_halo_create_regular(const tsr_grid_part_t *p, const tsr_grid_box_t *b,
                            tsr_halo_t **out) {
  TSR_CHECK(p && b && out, TSR_ERR_ARG, "tsr_halo_create_regular: NULL argument");
  *out = NULL;
  int nn = 0, ranks[8], sc[8], rc[8];
  tsr_idx_t *sidx = NULL, *ridx = NULL;
  int err = check_box(p, b);
  if (!err) err = regular_lists(p, b, &nn, ranks, sc, rc, &sidx, &ridx);
  err = tsr_error_agree(p->comm, err);
  if (!err)
    err = tsr_halo_create(p->comm, nn, ranks, b->nx * b->ny * b->nz, sc, sidx, rc, ridx, out);
  free(sidx);
  free(ridx);
  TSR_CALL(err);
  return TSR_SUCCESS;
}
