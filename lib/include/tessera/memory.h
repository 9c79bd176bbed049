/* tessera/memory.h: a run's memory estimate against what each rank has,
 * checked before anything large is allocated.
 *
 * Host memory available to a rank is the node's MemAvailable
 * (/proc/meminfo; the physical memory where that is missing) divided by the
 * ranks on the node; device memory is the GPU's free memory (cudaMemGetInfo,
 * CUDA builds). The environment variable TSR_MEMORY_LIMIT (bytes, or with a
 * K, M, G or T suffix) caps the host memory per rank, to keep headroom or to
 * test the refusal. */
#ifndef TESSERA_MEMORY_H
#define TESSERA_MEMORY_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of host memory this rank may use (see above). Collective over comm
 * (splits it by node). */
int tsr_memory_host_available(MPI_Comm comm, double *bytes);

/* Refuse a run that does not fit: host and dev are this rank's estimates in
 * bytes (dev 0: no device memory). When some rank's estimate exceeds what it
 * has, every rank returns TSR_ERR_ALLOC with one message naming `what`, the
 * memory needed per rank, the memory available, and how many ranks would
 * fit the run if its memory splits evenly over the ranks. Collective. */
int tsr_memory_check(MPI_Comm comm, const char *what, double host, double dev);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_MEMORY_H */
