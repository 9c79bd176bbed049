/* tessera/node.h: the ranks that share a node, and how many OpenMP threads
 * each of them runs.
 *
 * The node is MPI_COMM_TYPE_SHARED: the ranks of a communicator that can
 * share memory. GPUs are handed out by node-local rank (tsr_device_select),
 * memory checks divide a node's memory by its rank count, and the OpenMP
 * default divides a node's cores among its ranks.
 */
#ifndef TESSERA_NODE_H
#define TESSERA_NODE_H

#include <stddef.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This rank's node: *rank its node-local rank and *size the number of ranks
 * of comm on the node (either may be NULL). If node is not NULL it receives
 * the node communicator, which the caller frees with MPI_Comm_free.
 * Collective over comm. Before MPI_Init (or after MPI_Finalize): rank 0 of
 * 1 and MPI_COMM_NULL. */
int tsr_node_split(MPI_Comm comm, MPI_Comm *node, int *rank, int *size);

/* The default OpenMP threads of this rank. With OMP_NUM_THREADS set, its
 * value stands (OpenMP applies it). Otherwise every core of this process's
 * affinity mask (sched_getaffinity) is divided among the ranks of the node
 * whose masks hold it, and this rank runs max(1, its share) threads
 * (omp_set_num_threads): unbound ranks split the node's cores evenly, ranks
 * bound to their own cores use them all. *threads receives the count and
 * why (nwhy bytes, may be NULL) one line saying where it came from.
 * Collective over comm. Without OpenMP in the build: 1 thread. */
int tsr_node_omp_threads(MPI_Comm comm, int *threads, char *why, size_t nwhy);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_NODE_H */
