/* node.c: the node communicator, node-local rank and count, and the default
 * OpenMP threads per rank (the cores a rank owns). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#endif
#include "config.h"
#include "tessera/node.h"
#include "tessera/error.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static int tsr__mpi_running(void) {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

int tsr_node_split(MPI_Comm comm, MPI_Comm *node, int *rank, int *size) {
  if (node) *node = MPI_COMM_NULL;
  if (rank) *rank = 0;
  if (size) *size = 1;
  if (!tsr__mpi_running()) return TSR_SUCCESS;
  MPI_Comm nc;
  TSR_CALL_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nc));
  if (rank) MPI_Comm_rank(nc, rank);
  if (size) MPI_Comm_size(nc, size);
  if (node) *node = nc;
  else MPI_Comm_free(&nc);
  return TSR_SUCCESS;
}

/* The cores of this process's mask, each counted as 1 / (the ranks of the
 * node whose masks hold it); *ncores: the mask's size, *same: 1 when every
 * rank of the node has this mask. */
static int tsr__owned_cores(MPI_Comm comm, double *owned, int *ncores, int *nranks, int *same) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    for (long c = 0; c < n && c < CPU_SETSIZE; c++) CPU_SET((int)c, &mine);
  }
  *ncores = CPU_COUNT(&mine);
  MPI_Comm node = MPI_COMM_NULL;
  int size = 1;
  TSR_CALL(tsr_node_split(comm, &node, NULL, &size));
  *nranks = size;
  cpu_set_t *all = malloc((size_t)size * sizeof *all);
  int rc = all ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %d affinity masks", size);
  if (!rc && node != MPI_COMM_NULL)
    rc = MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, node) ==
                 MPI_SUCCESS
             ? TSR_SUCCESS
             : TSR_RAISE(TSR_ERR_MPI, "MPI_Allgather of the affinity masks failed");
  else if (!rc)
    all[0] = mine;
  if (!rc) {
    double sum = 0;
    *same = 1;
    for (int r = 0; r < size; r++)
      if (!CPU_EQUAL(&all[r], &mine)) *same = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
      if (!CPU_ISSET(c, &mine)) continue;
      int holders = 0;
      for (int r = 0; r < size; r++) holders += CPU_ISSET(c, &all[r]) ? 1 : 0;
      sum += 1.0 / holders;
    }
    *owned = sum;
  }
  free(all);
  if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  return rc;
}

int tsr_node_omp_threads(MPI_Comm comm, int *threads, char *why, size_t nwhy) {
  char scratch[8];
  if (!why || nwhy == 0) why = scratch, nwhy = sizeof scratch;
  const char *env = getenv("OMP_NUM_THREADS");
  if (env && *env) {
#ifdef _OPENMP
    *threads = omp_get_max_threads();
#else
    *threads = 1;
#endif
    snprintf(why, nwhy, "OMP_NUM_THREADS=%s", env);
    /* the node split stays collective whichever way a rank decides */
    return tsr_node_split(comm, NULL, NULL, NULL);
  }
  double owned = 1;
  int ncores = 1, nranks = 1, same = 1;
  TSR_CALL(tsr__owned_cores(comm, &owned, &ncores, &nranks, &same));
  int n = (int)(owned + 1e-9);
  if (n < 1) n = 1;
#ifdef _OPENMP
  omp_set_num_threads(n);
  *threads = n;
  if (same)
    snprintf(why, nwhy, "%d core%s / %d rank%s on this node", ncores, ncores == 1 ? "" : "s",
             nranks, nranks == 1 ? "" : "s");
  else
    snprintf(why, nwhy, "bound to %d core%s, %d rank%s on this node", ncores,
             ncores == 1 ? "" : "s", nranks, nranks == 1 ? "" : "s");
#else
  *threads = 1;
  snprintf(why, nwhy, "built without OpenMP");
#endif
  return TSR_SUCCESS;
}
