/* device.c: device selection, memory, copies and timers for CPU and CUDA. */
#include "config.h"
#include "tessera/device.h"
#include "tessera/fault.h"
#include "tessera/error.h"
#include "tessera/node.h"
#include "tessera/provenance.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef TSR_HAVE_CUDA
#include "tessera/cuda.h"
#endif

#define TSR__HOST_ALIGN 256

double tsr_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#ifdef TSR_HAVE_CUDA
int tsr__error_cuda(int cuerr, const char *expr, const char *file, int line,
                    const char *func) {
  return tsr_error_raise(TSR_ERR_CUDA, file, line, func, "%s failed: %s (%s)", expr,
                         cudaGetErrorString((cudaError_t)cuerr),
                         cudaGetErrorName((cudaError_t)cuerr));
}
#endif

int tsr_device_cuda_built(void) {
#ifdef TSR_HAVE_CUDA
  return 1;
#else
  return 0;
#endif
}

int tsr_device_cuda_count(void) {
#ifdef TSR_HAVE_CUDA
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError(); /* clear the sticky "no device" error */
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

int tsr_device_l2_persist_max(const tsr_device_t *dev, size_t *setaside, size_t *window) {
  TSR_CHECK(dev && setaside && window, TSR_ERR_ARG, "tsr_device_l2_persist_max: NULL argument");
  *setaside = 0, *window = 0;
#ifdef TSR_HAVE_CUDA
  if (dev->kind != TSR_DEV_CUDA) return 0;
  int p = 0, w = 0;
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&p, cudaDevAttrMaxPersistingL2CacheSize, dev->id));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&w, cudaDevAttrMaxAccessPolicyWindowSize, dev->id));
  *setaside = p > 0 ? (size_t)p : 0, *window = w > 0 ? (size_t)w : 0;
#endif
  return 0;
}

tsr_devkind_t tsr_device_default_kind(void) {
  return tsr_device_cuda_count() > 0 ? TSR_DEV_CUDA : TSR_DEV_CPU;
}

int tsr_device_select(MPI_Comm comm, tsr_devkind_t want, tsr_device_t *out) {
  TSR_CHECK(out, TSR_ERR_ARG, "tsr_device_select: out is NULL");
  memset(out, 0, sizeof *out);
  if (want == TSR_DEV_CPU) {
    out->kind = TSR_DEV_CPU;
    out->id = -1;
    tsr_cpu_device_name(out->name, sizeof out->name);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  /* collective (the node split); a CUDA call that fails on one rank is
     agreed here, before any rank goes on to the next collective */
  int local = 0;
  TSR_CALL(tsr_node_split(comm, NULL, &local, NULL));
  const int n = tsr_device_cuda_count();
  int rc = n > 0 ? TSR_SUCCESS
                 : TSR_RAISE(TSR_ERR_NODEVICE, "a CUDA variant was asked for but no CUDA device is visible");
  struct cudaDeviceProp prop;
  if (!rc) {
    out->kind = TSR_DEV_CUDA;
    out->id = local % n;
    if (tsr_cuda_fault(cudaSetDevice(out->id)) != cudaSuccess)
      rc = TSR_RAISE(TSR_ERR_CUDA, "cudaSetDevice(%d): %s", out->id, cudaGetErrorString(cudaGetLastError()));
  }
  if (!rc && tsr_cuda_fault(cudaGetDeviceProperties(&prop, out->id)) != cudaSuccess)
    rc = TSR_RAISE(TSR_ERR_CUDA, "cudaGetDeviceProperties(%d): %s", out->id,
                   cudaGetErrorString(cudaGetLastError()));
  TSR_CALL(tsr_error_agree(comm, rc));
  snprintf(out->name, sizeof out->name, "%s", prop.name);
  return TSR_SUCCESS;
#else
  (void)comm;
  return TSR_RAISE(TSR_ERR_NOCUDA, "a CUDA variant was asked for but Tessera was built without CUDA (configure --with-cuda)");
#endif
}

int tsr_device_malloc(const tsr_device_t *dev, size_t bytes, void **p) {
  TSR_CHECK(dev && p, TSR_ERR_ARG, "tsr_device_malloc: NULL argument");
  *p = NULL;
  if (bytes == 0) bytes = 1;
  TSR_CHECK(!tsr_fault(TSR_FAULT_ALLOC), TSR_ERR_ALLOC,
            "cannot allocate %zu bytes on %s (TSR_FAULT)", bytes, dev->name);
  if (dev->kind == TSR_DEV_CPU) {
    size_t rounded = (bytes + TSR__HOST_ALIGN - 1) / TSR__HOST_ALIGN * TSR__HOST_ALIGN;
    *p = aligned_alloc(TSR__HOST_ALIGN, rounded);
    TSR_CHECK(*p, TSR_ERR_ALLOC, "cannot allocate %zu bytes of host memory", bytes);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  cudaError_t e = cudaMalloc(p, bytes);
  if (e != cudaSuccess) {
    *p = NULL;
    return TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %zu bytes on GPU %d: %s", bytes, dev->id,
                     cudaGetErrorString(e));
  }
  return TSR_SUCCESS;
#else
  return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
}

int tsr_device_free(const tsr_device_t *dev, void **p) {
  TSR_CHECK(dev && p, TSR_ERR_ARG, "tsr_device_free: NULL argument");
  if (!*p) return TSR_SUCCESS;
  if (dev->kind == TSR_DEV_CPU) {
    free(*p);
  } else {
#ifdef TSR_HAVE_CUDA
    TSR_CALL_CUDA(cudaFree(*p));
#else
    return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
  }
  *p = NULL;
  return TSR_SUCCESS;
}

int tsr_device_memset(const tsr_device_t *dev, void *p, int value, size_t bytes) {
  if (dev->kind == TSR_DEV_CPU) {
    memset(p, value, bytes);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  TSR_CALL_CUDA(cudaMemset(p, value, bytes));
  return TSR_SUCCESS;
#else
  return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
}

static int tsr__copy(const tsr_device_t *dev, void *dst, const void *src, size_t bytes, int dir) {
  if (bytes == 0) return TSR_SUCCESS;
  if (dev->kind == TSR_DEV_CPU) {
    memcpy(dst, src, bytes);
    return TSR_SUCCESS;
  }
#ifdef TSR_HAVE_CUDA
  static const enum cudaMemcpyKind kinds[3] = {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost,
                                               cudaMemcpyDeviceToDevice};
  TSR_CALL_CUDA(cudaMemcpy(dst, src, bytes, kinds[dir]));
  return TSR_SUCCESS;
#else
  (void)dir;
  return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
}

int tsr_device_upload(const tsr_device_t *dev, void *dst, const void *src, size_t bytes) {
  return tsr__copy(dev, dst, src, bytes, 0);
}
int tsr_device_download(const tsr_device_t *dev, void *dst, const void *src, size_t bytes) {
  return tsr__copy(dev, dst, src, bytes, 1);
}
int tsr_device_copy(const tsr_device_t *dev, void *dst, const void *src, size_t bytes) {
  return tsr__copy(dev, dst, src, bytes, 2);
}

int tsr_device_sync(const tsr_device_t *dev) {
  if (dev->kind == TSR_DEV_CPU) return TSR_SUCCESS;
#ifdef TSR_HAVE_CUDA
  TSR_CALL_CUDA(cudaDeviceSynchronize());
  TSR_CALL_CUDA(cudaGetLastError());
  return TSR_SUCCESS;
#else
  return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
}

struct tsr_timer {
  tsr_device_t dev;
  double t0;
#ifdef TSR_HAVE_CUDA
  cudaEvent_t start, stop;
#endif
};

int tsr_timer_create(const tsr_device_t *dev, tsr_timer_t **out) {
  TSR_CHECK(dev && out, TSR_ERR_ARG, "tsr_timer_create: NULL argument");
  tsr_timer_t *t = calloc(1, sizeof *t);
  TSR_CHECK(t, TSR_ERR_ALLOC, "cannot allocate a timer");
  t->dev = *dev;
#ifdef TSR_HAVE_CUDA
  if (dev->kind == TSR_DEV_CUDA) {
    if (tsr_cuda_fault(cudaEventCreate(&t->start)) != cudaSuccess ||
        tsr_cuda_fault(cudaEventCreate(&t->stop)) != cudaSuccess) {
      if (t->start) cudaEventDestroy(t->start); /* created, or reported failed by a TSR_FAULT */
      if (t->stop) cudaEventDestroy(t->stop);
      free(t);
      return TSR_RAISE(TSR_ERR_CUDA, "cudaEventCreate failed");
    }
  }
#endif
  *out = t;
  return TSR_SUCCESS;
}

int tsr_timer_start(tsr_timer_t *t) {
#ifdef TSR_HAVE_CUDA
  if (t->dev.kind == TSR_DEV_CUDA) {
    TSR_CALL_CUDA(cudaEventRecord(t->start, 0));
    return TSR_SUCCESS;
  }
#endif
  t->t0 = tsr_wtime();
  return TSR_SUCCESS;
}

int tsr_timer_stop(tsr_timer_t *t, double *seconds) {
#ifdef TSR_HAVE_CUDA
  if (t->dev.kind == TSR_DEV_CUDA) {
    float ms = 0;
    TSR_CALL_CUDA(cudaEventRecord(t->stop, 0));
    TSR_CALL_CUDA(cudaEventSynchronize(t->stop));
    TSR_CALL_CUDA(cudaEventElapsedTime(&ms, t->start, t->stop));
    *seconds = 1e-3 * ms;
    return TSR_SUCCESS;
  }
#endif
  *seconds = tsr_wtime() - t->t0;
  return TSR_SUCCESS;
}

int tsr_timer_destroy(tsr_timer_t **t) {
  if (!t || !*t) return TSR_SUCCESS;
#ifdef TSR_HAVE_CUDA
  if ((*t)->dev.kind == TSR_DEV_CUDA) {
    cudaEventDestroy((*t)->start);
    cudaEventDestroy((*t)->stop);
  }
#endif
  free(*t);
  *t = NULL;
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ queues */

struct tsr_queue {
  tsr_devkind_t kind;
#ifdef TSR_HAVE_CUDA
  cudaStream_t stream;
  cudaEvent_t ev_default, ev_queue; /* the last marks on each side */
#endif
};

int tsr_queue_create(const tsr_device_t *dev, tsr_queue_t **out) {
  TSR_CHECK(dev && out, TSR_ERR_ARG, "tsr_queue_create: NULL argument");
  tsr_queue_t *q = calloc(1, sizeof *q);
  TSR_CHECK(q, TSR_ERR_ALLOC, "cannot allocate a queue");
  q->kind = dev->kind;
#ifdef TSR_HAVE_CUDA
  if (dev->kind == TSR_DEV_CUDA) {
    /* the highest priority: the exchange's small kernels (pack, unpack,
       boundary strips) are dispatched ahead of the interior kernel's pending
       blocks instead of at its tail, which would serialise them after it */
    int least = 0, greatest = 0;
    cudaError_t e = tsr_cuda_fault(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    if (e == cudaSuccess)
      e = tsr_cuda_fault(cudaStreamCreateWithPriority(&q->stream, cudaStreamNonBlocking, greatest));
    if (e == cudaSuccess) e = tsr_cuda_fault(cudaEventCreateWithFlags(&q->ev_default, cudaEventDisableTiming));
    if (e == cudaSuccess) e = tsr_cuda_fault(cudaEventCreateWithFlags(&q->ev_queue, cudaEventDisableTiming));
    if (e != cudaSuccess) {
      tsr_queue_destroy(&q);
      return TSR_RAISE(TSR_ERR_CUDA, "cannot create a CUDA stream and its events: %s",
                       cudaGetErrorString(e));
    }
  }
#else
  TSR_CHECK(dev->kind == TSR_DEV_CPU, TSR_ERR_NOCUDA, "queue on a CUDA device: built without CUDA");
#endif
  *out = q;
  return TSR_SUCCESS;
}

void *tsr_queue_stream(const tsr_queue_t *q) {
#ifdef TSR_HAVE_CUDA
  return q && q->kind == TSR_DEV_CUDA ? (void *)q->stream : NULL;
#else
  (void)q;
  return NULL;
#endif
}

int tsr_queue_wait_default(tsr_queue_t *q) {
  TSR_CHECK(q, TSR_ERR_ARG, "tsr_queue_wait_default: queue is NULL");
#ifdef TSR_HAVE_CUDA
  if (q->kind == TSR_DEV_CUDA) {
    TSR_CALL_CUDA(cudaEventRecord(q->ev_default, 0));
    TSR_CALL_CUDA(cudaStreamWaitEvent(q->stream, q->ev_default, 0));
  }
#endif
  return TSR_SUCCESS;
}

int tsr_queue_join_default(tsr_queue_t *q) {
  TSR_CHECK(q, TSR_ERR_ARG, "tsr_queue_join_default: queue is NULL");
#ifdef TSR_HAVE_CUDA
  if (q->kind == TSR_DEV_CUDA) {
    TSR_CALL_CUDA(cudaEventRecord(q->ev_queue, q->stream));
    TSR_CALL_CUDA(cudaStreamWaitEvent(0, q->ev_queue, 0));
  }
#endif
  return TSR_SUCCESS;
}

int tsr_queue_destroy(tsr_queue_t **q) {
  if (!q || !*q) return TSR_SUCCESS;
#ifdef TSR_HAVE_CUDA
  if ((*q)->kind == TSR_DEV_CUDA) {
    if ((*q)->stream) cudaStreamSynchronize((*q)->stream);
    if ((*q)->ev_default) cudaEventDestroy((*q)->ev_default);
    if ((*q)->ev_queue) cudaEventDestroy((*q)->ev_queue);
    if ((*q)->stream) cudaStreamDestroy((*q)->stream);
  }
#endif
  free(*q);
  *q = NULL;
  return TSR_SUCCESS;
}
