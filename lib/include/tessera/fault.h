/* tessera/fault.h: fault injection for testing error paths.
 *
 * The environment variable TSR_FAULT makes chosen fallible steps fail on a
 * chosen rank, so tests can prove that an error one rank meets alone ends the
 * whole job with one agreed message instead of a hang. Its value is one or
 * more specifications separated by commas:
 *
 *   SITE[:rank=R][:after=N][:count=K]
 *
 * SITE is `alloc` (tsr_malloc, tsr_device_malloc), `h5read` (dataset reads
 * of lib's readers) or `cuda` (CUDA runtime calls checked with
 * TSR_CALL_CUDA). R is the MPI_COMM_WORLD rank that fails (default: every
 * rank); the first N calls of that site on that rank succeed (default 0) and
 * the next K fail (default 1). Example: TSR_FAULT=alloc:rank=1:after=3.
 * A malformed value is reported once on stderr and ignored. Without
 * TSR_FAULT, tsr_fault costs one branch. */
#ifndef TESSERA_FAULT_H
#define TESSERA_FAULT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { TSR_FAULT_ALLOC = 0, TSR_FAULT_H5READ, TSR_FAULT_CUDA, TSR_FAULT_NSITES_ } tsr_fault_site_t;

/* 1 when this call of `site` must fail (counts the call), else 0. */
int tsr_fault(tsr_fault_site_t site);
/* malloc(bytes), or NULL when an `alloc` fault fires. */
void *tsr_malloc(size_t bytes);
/* calloc(n, size), or NULL when an `alloc` fault fires or n * size
 * overflows. */
void *tsr_calloc(size_t n, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_FAULT_H */
