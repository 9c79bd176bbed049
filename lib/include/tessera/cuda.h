/* tessera/cuda.h: error checks for CUDA runtime calls and kernel launches.
 * Included by .cu files and by host C files built with CUDA (TSR_HAVE_CUDA). */
#ifndef TESSERA_CUDA_H
#define TESSERA_CUDA_H

#include <cuda_runtime_api.h>
#include "tessera/error.h"
#include "tessera/fault.h"

#ifdef __cplusplus
extern "C" {
#endif
int tsr__error_cuda(int cuerr, const char *expr, const char *file, int line,
                    const char *func);
#ifdef __cplusplus
}
#endif

/* The result of a CUDA runtime call that its caller checks by hand, through
 * the same `cuda` fault site as TSR_CALL_CUDA (a success may become
 * cudaErrorUnknown): if (tsr_cuda_fault(cudaMalloc(...)) != cudaSuccess). */
static inline cudaError_t tsr_cuda_fault(cudaError_t e) {
  return e == cudaSuccess && tsr_fault(TSR_FAULT_CUDA) ? cudaErrorUnknown : e;
}

/* A CUDA runtime call; on failure raises TSR_ERR_CUDA with cudaGetErrorString.
 * A `cuda` fault of TSR_FAULT (tessera/fault.h) turns a success into
 * cudaErrorUnknown after the call. */
#define TSR_CALL_CUDA(expr)                                                  \
  do {                                                                       \
    cudaError_t tsr__c = (expr);                                             \
    if (tsr__c == cudaSuccess && tsr_fault(TSR_FAULT_CUDA))                  \
      tsr__c = cudaErrorUnknown;                                             \
    if (tsr__c != cudaSuccess)                                               \
      return tsr__error_cuda((int)tsr__c, #expr, __FILE__, __LINE__, __func__); \
  } while (0)

/* After a kernel launch: checks the launch (configuration) error; the
 * `cuda` fault site too. */
#define TSR_CHECK_LAUNCH(what)                                               \
  do {                                                                       \
    cudaError_t tsr__c = tsr_cuda_fault(cudaGetLastError());                 \
    if (tsr__c != cudaSuccess)                                               \
      return tsr__error_cuda((int)tsr__c, what, __FILE__, __LINE__, __func__); \
  } while (0)

#endif /* TESSERA_CUDA_H */
