/* tessera/device.h: one GPU per rank, allocation/copy helpers, event timers,
 * and a CPU path with the same interface.
 *
 * A tsr_device_t names where data lives and kernels run: kind TSR_DEV_CPU
 * (host memory, plain memcpy) or TSR_DEV_CUDA (device `id`). Every function
 * works for both kinds, so drivers are written once. Without CUDA in the
 * build, asking for a CUDA device returns TSR_ERR_NOCUDA ("built without
 * CUDA"); with CUDA but no GPU present, TSR_ERR_NODEVICE.
 */
#ifndef TESSERA_DEVICE_H
#define TESSERA_DEVICE_H

#include <stddef.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TSR_DEV_CPU = 0, TSR_DEV_CUDA = 1 } tsr_devkind_t;

typedef struct {
  tsr_devkind_t kind;
  int id;            /* CUDA ordinal; -1 on the CPU */
  char name[256];    /* "NVIDIA H100 80GB HBM3" or "CPU (16 threads)" */
} tsr_device_t;

/* 1 when the library was built with CUDA. */
int tsr_device_cuda_built(void);
/* Number of visible CUDA devices (0 without CUDA or without a GPU). */
int tsr_device_cuda_count(void);

/* Pick this rank's device. want: TSR_DEV_CPU, or TSR_DEV_CUDA (the GPU
 * numbered node-local-rank mod count, from MPI_Comm_split_type on comm). */
int tsr_device_select(MPI_Comm comm, tsr_devkind_t want, tsr_device_t *out);
/* The device a run should use by default: CUDA when built and present. */
tsr_devkind_t tsr_device_default_kind(void);

/* The largest part of dev's L2 cache that may be set aside for persisting
 * accesses (cudaDevAttrMaxPersistingL2CacheSize) and the largest
 * access-policy window, in bytes; both 0 on the CPU and on GPUs without it. */
int tsr_device_l2_persist_max(const tsr_device_t *dev, size_t *setaside, size_t *window);

/* Memory on dev (device memory for CUDA, aligned host memory for CPU). */
int tsr_device_malloc(const tsr_device_t *dev, size_t bytes, void **p);
int tsr_device_free(const tsr_device_t *dev, void **p); /* sets *p = NULL */
int tsr_device_memset(const tsr_device_t *dev, void *p, int value, size_t bytes);

/* Copies; host pointers are ordinary host memory. For TSR_DEV_CPU all three
 * are memcpy. */
int tsr_device_upload(const tsr_device_t *dev, void *dst, const void *host_src, size_t bytes);
int tsr_device_download(const tsr_device_t *dev, void *host_dst, const void *src, size_t bytes);
int tsr_device_copy(const tsr_device_t *dev, void *dst, const void *src, size_t bytes);

/* Wait for all work queued on dev; checks for asynchronous errors. */
int tsr_device_sync(const tsr_device_t *dev);

/* Timing: events on the CUDA default stream, wall clock on the CPU.
 * tsr_timer_stop waits for the stop event and returns elapsed seconds. */
typedef struct tsr_timer tsr_timer_t;
int tsr_timer_create(const tsr_device_t *dev, tsr_timer_t **out);
int tsr_timer_start(tsr_timer_t *t);
int tsr_timer_stop(tsr_timer_t *t, double *seconds);
int tsr_timer_destroy(tsr_timer_t **t);

/* A second queue of work on dev beside the default stream (a CUDA stream
 * that does not synchronise with the default one, of the highest priority:
 * its kernels' blocks are dispatched before the pending blocks of a large
 * kernel on the default stream), and the two orderings
 * between them, for overlapping an exchange with interior work:
 *   tsr_queue_wait_default(q): work queued on q from now on starts after
 *     everything queued on the default stream so far;
 *   tsr_queue_join_default(q): work queued on the default stream from now on
 *     starts after everything queued on q so far.
 * On the CPU (and in builds without CUDA for a CPU device) a queue is a
 * no-op: work runs in program order. tsr_queue_stream: the cudaStream_t (NULL
 * on the CPU), for launchers and tsr_halo_set_stream. */
typedef struct tsr_queue tsr_queue_t;
int tsr_queue_create(const tsr_device_t *dev, tsr_queue_t **out);
void *tsr_queue_stream(const tsr_queue_t *q);
int tsr_queue_wait_default(tsr_queue_t *q);
int tsr_queue_join_default(tsr_queue_t *q);
int tsr_queue_destroy(tsr_queue_t **q); /* sets *q = NULL; NULL ok */

/* Wall clock in seconds (monotonic). */
double tsr_wtime(void);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_DEVICE_H */
