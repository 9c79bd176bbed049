/* tessera/halo.h: halo exchange, set up once, run split-phase (like PETSc's
 * PetscSF).
 *
 * A halo is a list of neighbour ranks and, per neighbour, the local indices
 * of the elements this rank SENDS to it (owned elements the neighbour reads)
 * and of the elements it RECEIVES from it (this rank's halo copies of the
 * neighbour's elements). Element j of the send list to rank r lands in
 * element j of r's receive list from this rank. Indices count elements of
 * `dim` contiguous components: element i is data[i*dim .. i*dim+dim-1].
 *
 *   tsr_halo_begin(h, dev, u, 1, TSR_DOUBLE);   pack, post Irecv/Isend
 *   ... interior work that does not read halo cells ...
 *   tsr_halo_end(h, dev, u, 1, TSR_DOUBLE);     wait, unpack
 *
 * On a CUDA device, `data` is device memory: packing and unpacking run as
 * kernels (lib/src/cuda/halo_pack.cu); the messages go through pinned host
 * buffers (host-staged, always works) or, when the MPI library reports CUDA
 * support and the caller asked for it (tsr_halo_set_cuda_aware), straight
 * from device buffers. One exchange per halo may be in flight at a time.
 *
 * Reverse mode (tsr_halo_reverse_begin/end) sends the halo entries back to
 * their owners and ADDS them there (indirect increments on owner-compute
 * meshes); an owned element sent to several neighbours receives the sum of
 * all their contributions.
 */
#ifndef TESSERA_HALO_H
#define TESSERA_HALO_H

#include <mpi.h>
#include "tessera/common.h"
#include "tessera/device.h"
#include "tessera/part.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tsr_halo tsr_halo_t;

/* Collective over comm (the communicator is duplicated). ranks[nneigh]:
 * distinct neighbour ranks (this rank itself allowed: a local copy through
 * MPI). send_counts[k] / recv_counts[k] entries for ranks[k], the index
 * lists concatenated in neighbour order in send_idx / recv_idx, every index
 * in [0, nlocal) (nlocal: elements of the local array). The counts are
 * checked against the neighbours' (each pair must agree), so a mismatch is
 * an error on every rank, not a hang. */
int tsr_halo_create(MPI_Comm comm, int nneigh, const int *ranks, tsr_idx_t nlocal,
                    const int *send_counts, const tsr_idx_t *send_idx, const int *recv_counts,
                    const tsr_idx_t *recv_idx, tsr_halo_t **out);

/* Halo of a regular-grid decomposition for local arrays described by box
 * (row-major, x fastest): the halo cells in x and y, corners included, for
 * every z plane z0 .. z0+nz-1. Collective. */
int tsr_halo_create_regular(const tsr_grid_part_t *part, const tsr_grid_box_t *box,
                            tsr_halo_t **out);

/* Halo of set `set` of a PARTITIONED mesh (tsr_mesh_partition): every
 * exec and non-exec halo row [owned, size) receives from the rank that owns
 * it; owners are found by global_id. Collective. Exchange a dat with
 * tsr_halo_exchange(h, dev, dat->data, dat->dim, dat->type). */
int tsr_halo_create_mesh(MPI_Comm comm, const tsr_mesh_t *mesh, int set, tsr_halo_t **out);

/* The same exchange as h for a dat held as nplanes planes of `stride`
 * elements (SoA: component c of element i at data[c*stride + i]): element i
 * of h becomes elements c*stride + i, c = 0 .. nplanes-1, and one message
 * per neighbour carries every plane. nplanes = 1 gives a copy of h (a second
 * exchange of the same pattern in flight at once). Every index of h must be
 * below stride. The transport asked for on h (CUDA-aware MPI, CUDA IPC)
 * carries over. Collective over h's communicator. */
int tsr_halo_create_planes(const tsr_halo_t *h, int nplanes, tsr_idx_t stride, tsr_halo_t **out);

int tsr_halo_destroy(tsr_halo_t **h); /* sets *h = NULL */

/* Make ready, ahead of the run, what exchanges of elements of up to
 * elem_bytes bytes (dim values of one type, or the arrays of
 * tsr_halo_begin_arrays together) on dev need: on a CUDA device the index
 * lists and message buffers there, with CUDA IPC the neighbours' buffers
 * mapped, with NCCL the communicator made, so that the first begin does none
 * of it (a program times its
 * exchanges without the setup). Collective over the halo's ranks (every rank
 * calls it with the same elem_bytes); errors agreed (IPC refused: as at
 * begin, TSR_ERR_UNSUPPORTED on every rank and the halo host-staged).
 * Optional: begin does the same at the first exchange that needs it. On the
 * CPU it does nothing. */
int tsr_halo_prepare(tsr_halo_t *h, const tsr_device_t *dev, size_t elem_bytes);

/* Forward exchange: owners' values into halo copies. */
int tsr_halo_begin(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim, tsr_dtype_t t);
int tsr_halo_end(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim, tsr_dtype_t t);
/* begin + end. */
int tsr_halo_exchange(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim,
                      tsr_dtype_t t);

/* Reverse: halo copies added into their owners (halo copies unchanged). */
int tsr_halo_reverse_begin(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim,
                           tsr_dtype_t t);
int tsr_halo_reverse_end(tsr_halo_t *h, const tsr_device_t *dev, void *data, int dim,
                         tsr_dtype_t t);
/* Forward exchange of narr arrays (1 .. TSR_HALO_MAX_ARRAYS) of one type
 * through the same lists in one message per neighbour: array a holds
 * dims[a] values per element (data[a][i * dims[a] + c]); a message element
 * carries the element's values of every array in turn. One pack, one
 * transfer and one unpack instead of narr of each. end gets the same
 * arrays, dims and type. */
int tsr_halo_begin_arrays(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                          const int *dims, tsr_dtype_t t);
int tsr_halo_end_arrays(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t);

/* 1 when the MPI library reports CUDA-aware support at run time
 * (OpenMPI's MPIX_Query_cuda_support), else 0. */
int tsr_halo_cuda_aware_available(void);
/* Ask for device buffers to go to MPI directly on CUDA devices. on=1 fails
 * with TSR_ERR_UNSUPPORTED when the library is not CUDA-aware. */
int tsr_halo_set_cuda_aware(tsr_halo_t *h, int on);
/* 1 when exchanges on CUDA devices skip the host staging. */
int tsr_halo_uses_cuda_aware(const tsr_halo_t *h);

/* Ask for CUDA IPC on CUDA devices (collective: every rank of the halo
 * asks): each rank maps its neighbours' device receive buffers
 * (cudaIpcOpenMemHandle) and writes its messages into them device to device
 * (begin returns at once; the caller's kernels on the default stream run
 * beside the writes; end waits for them): an exchange of at most the put
 * limit's bytes out (tsr_halo_set_put_limit) by one kernel that packs
 * straight into the neighbours' buffers, a larger one packed here and
 * copied by the copy engines, on a stream of its own; MPI carries
 * only a zero-byte "ready" per neighbour, and receive buffers
 * alternate between two halves so that a copy never lands in a half its
 * receiver may still be unpacking. The mapping is made at the first CUDA
 * exchange (again when the element size grows); when any rank cannot map a
 * neighbour's buffer (ranks on other nodes, no peer access) that exchange
 * fails on every rank with TSR_ERR_UNSUPPORTED and the halo goes back to the
 * host-staged path. With IPC on, tsr_halo_destroy is collective. */
int tsr_halo_set_ipc(tsr_halo_t *h, int on);
/* 1 when CUDA IPC was asked for and has not failed. */
int tsr_halo_uses_ipc(const tsr_halo_t *h);
/* The most bytes an IPC exchange sends (all neighbours) with the put kernel
 * (default TSR_HALO_PUT_LIMIT; 0: always pack and copy). The put saves a
 * launch and a copy per neighbour; its stores take SMs from the kernels
 * running beside it, where the copy engines take none, so large messages
 * go by copies. Not collective (each rank's own sends). */
#define TSR_HALO_PUT_LIMIT ((size_t)256 << 10)
int tsr_halo_set_put_limit(tsr_halo_t *h, size_t bytes);

/* A forward CUDA IPC exchange of arrays (as tsr_halo_begin_arrays) in four
 * pieces, so that its device work can sit in a CUDA graph beside the
 * caller's kernels while the host does only the handshake:
 *   post   (host)   this exchange's "ready" receives posted; in flight;
 *   put    (device) the put kernel writes this rank's messages into the
 *                   neighbours' receive halves `parity`, then records the
 *                   halo's event of that parity, or of the slot set by
 *                   tsr_halo_graph_slot (an external event node when the
 *                   stream is capturing);
 *   wait   (host)   waits for the event of its exchange's parity (or the
 *                   slot's), tells the neighbours, waits for theirs: the
 *                   data in this rank's half `parity` is in (a put of the
 *                   other parity may already be queued);
 *   unpack (device) from this rank's half `parity` into the arrays.
 * parity alternates from exchange to exchange (0 for a halo's first, and
 * after any tsr_halo_begin / _end pair it continues their count): post
 * refuses (TSR_ERR_ARG) the wrong one; put and unpack take it as given, so
 * a graph captured for each parity replays. In order: post, put, wait,
 * unpack (put may also come before post); the next exchange's post after
 * this one's wait, and its put too, or launched before that wait behind a
 * gate of this exchange's parity (tsr_halo_graph_gate). Needs IPC on and
 * made ready (tsr_halo_prepare for the arrays' element bytes) and an
 * exchange that goes by the put kernel (the put limit, at most 32
 * neighbours): else TSR_ERR_UNSUPPORTED, on every rank alike when the
 * ranks agree on prepare. stream: a cudaStream_t (NULL: the default
 * stream). */
/* TSR_SUCCESS where the pieces serve these arrays on this rank, else the
 * reason (TSR_ERR_UNSUPPORTED); nothing posted or launched. */
int tsr_halo_graph_check(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                         const int *dims, tsr_dtype_t t);
int tsr_halo_graph_post(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t, int parity);
int tsr_halo_graph_put(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                       const int *dims, tsr_dtype_t t, int parity, void *stream);
int tsr_halo_graph_wait(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t);
int tsr_halo_graph_unpack(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                          const int *dims, tsr_dtype_t t, int parity, void *stream);
/* A gate on the device for the work after it on stream (capturable): one
 * thread waits until the host's wait of an exchange of this parity has
 * returned (the data in this rank's half `parity` is in), then closes the
 * gate again. With it a graph that unpacks exchange k may be launched
 * before the host's wait of k: the launch leaves the critical path. Once a
 * halo has a gate, every post shuts its parity's and every wait opens it.
 * A caller that stops between the launch of gated work and the wait that
 * opens it (an error) calls tsr_halo_graph_open, which opens both, so the
 * device never waits for ever. */
int tsr_halo_graph_gate(tsr_halo_t *h, const tsr_device_t *dev, int narr, void *const *data,
                        const int *dims, tsr_dtype_t t, int parity, void *stream);
void tsr_halo_graph_open(tsr_halo_t *h);
/* Which event the next puts record and the next wait waits for: -1 (the
 * default) the parity's, else slot 0 .. TSR_HALO_GRAPH_SLOTS - 1 of the
 * halo's own. A graph that holds several puts of one parity (several
 * stages, or two graphs replayed in turn) captures each with a slot of its
 * own, so that the host's wait of exchange k waits for the put of k and not
 * for a later one queued in the same launch; the caller sets the slot of
 * k's put before each wait. */
#define TSR_HALO_GRAPH_SLOTS 8
int tsr_halo_graph_slot(tsr_halo_t *h, int slot);

/* Ask for NCCL on CUDA devices (collective: every rank of the halo asks;
 * TSR_ERR_UNSUPPORTED in a build without NCCL): the messages go device to
 * device by ncclSend / ncclRecv on the halo's stream, grouped per exchange,
 * so neither begin nor end waits for the device: the exchange is ordered
 * on the stream like a kernel (NVLink inside a node, the network across
 * nodes). The NCCL communicator is made at the first CUDA exchange
 * or by tsr_halo_prepare (collective; ncclCommInitRank over the halo's
 * ranks, errors agreed) and shared by every halo on a congruent communicator
 * and the same device; it lives until MPI_Finalize (an initialisation costs
 * far more than an exchange, and programs make halos per run).
 * NCCL takes one GPU per rank: where two ranks share one, that exchange
 * fails on every rank with TSR_ERR_UNSUPPORTED naming them. */
int tsr_halo_set_nccl(tsr_halo_t *h, int on);
int tsr_halo_uses_nccl(const tsr_halo_t *h);
/* 1 when this build has the NCCL transport. */
int tsr_halo_nccl_available(void);

/* The transport of exchanges on CUDA devices, as the programs' --halo
 * option names it: staged (pinned host buffers; works everywhere), ipc
 * (device to device by CUDA IPC; every neighbour on this node), aware
 * (device buffers handed to a CUDA-aware MPI; across nodes), nccl (NCCL's
 * point-to-point on the halo's stream; on a node and across nodes). */
typedef enum {
  TSR_HALO_STAGED = 0,
  TSR_HALO_IPC = 1,
  TSR_HALO_AWARE = 2,
  TSR_HALO_NCCL = 3
} tsr_halo_transport_t;
/* Parse --halo's value: "staged", "ipc", "aware", "nccl", or "auto": aware
 * when the MPI library reports CUDA support (MPIX_Query_cuda_support), else
 * staged. An unknown name, "aware" without CUDA-aware MPI or "nccl" in a
 * build without NCCL: TSR_ERR_ARG / TSR_ERR_UNSUPPORTED naming the option.
 * Local (the same on every rank). */
int tsr_halo_transport_parse(const char *name, tsr_halo_transport_t *out);
const char *tsr_halo_transport_name(tsr_halo_transport_t t);
/* Ask h for transport t (tsr_halo_set_ipc / tsr_halo_set_cuda_aware /
 * tsr_halo_set_nccl; the others off). */
int tsr_halo_set_transport(tsr_halo_t *h, tsr_halo_transport_t t);

/* Queue the device work of this halo's exchanges (pack, unpack, the staged
 * path's device-host copies, the IPC copies) on `stream` (a cudaStream_t,
 * e.g. tsr_queue_stream's) instead of the default stream, so that begin/end
 * run beside the caller's kernels on the default stream: the caller orders
 * the two (tsr_queue_wait_default, tsr_queue_join_default). NULL: the default
 * stream (the initial state). Ignored on the CPU. */
int tsr_halo_set_stream(tsr_halo_t *h, void *stream);

/* Sizes: neighbours, and elements sent / received per exchange. */
int tsr_halo_nneigh(const tsr_halo_t *h);
tsr_idx_t tsr_halo_send_count(const tsr_halo_t *h);
tsr_idx_t tsr_halo_recv_count(const tsr_halo_t *h);
/* The send lists, neighbour after neighbour (host; tsr_halo_send_count
 * entries; an element sent to several neighbours is listed for each): the
 * rows other ranks read, for schedules that compute them first. NULL when
 * h is NULL. */
const tsr_idx_t *tsr_halo_send_list(const tsr_halo_t *h);

/* Building blocks (used by begin/end, exposed for tests and custom
 * schedules). idx[n] and both arrays live on dev.
 * pack:   buf[j*dim + c] = data[idx[j]*dim + c]
 * unpack: data[idx[j]*dim + c] = buf[j*dim + c]   (add: +=, atomically
 *         where idx repeats; add needs a numeric type, any of tsr_dtype_t) */
int tsr_halo_pack(const tsr_device_t *dev, tsr_idx_t n, const tsr_idx_t *idx, int dim,
                  tsr_dtype_t t, const void *data, void *buf);
int tsr_halo_unpack(const tsr_device_t *dev, tsr_idx_t n, const tsr_idx_t *idx, int dim,
                    tsr_dtype_t t, const void *buf, void *data, int add);
/* The same on `stream` (a cudaStream_t, e.g. tsr_queue_stream's; NULL: the
 * default stream), asynchronous like the others; on the CPU, as above. */
int tsr_halo_pack_on(const tsr_device_t *dev, void *stream, tsr_idx_t n, const tsr_idx_t *idx,
                     int dim, tsr_dtype_t t, const void *data, void *buf);
int tsr_halo_unpack_on(const tsr_device_t *dev, void *stream, tsr_idx_t n, const tsr_idx_t *idx,
                       int dim, tsr_dtype_t t, const void *buf, void *data, int add);
/* Several arrays of one element per index (dim 1) through the same index
 * list in one pass (one kernel launch on a GPU instead of one per array):
 * narr arrays, 1 <= narr <= TSR_HALO_MAX_ARRAYS; array a's part of buf
 * starts at element a * stride (stride >= n).
 * pack:   buf[a*stride + j] = data[a][idx[j]]
 * unpack: data[a][idx[j]] = buf[a*stride + j]   (add: +=, as above) */
#define TSR_HALO_MAX_ARRAYS 4
int tsr_halo_pack_arrays_on(const tsr_device_t *dev, void *stream, tsr_idx_t n,
                            const tsr_idx_t *idx, tsr_dtype_t t, int narr,
                            const void *const *data, void *buf, tsr_idx_t stride);
int tsr_halo_unpack_arrays_on(const tsr_device_t *dev, void *stream, tsr_idx_t n,
                              const tsr_idx_t *idx, tsr_dtype_t t, int narr, const void *buf,
                              tsr_idx_t stride, void *const *data, int add);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_HALO_H */
