/* abort_tmp: opens PATH for writing on every rank, then the last rank alone
 * fails and calls tsr_abort (MPI_Abort when there are several ranks; the
 * others wait in a barrier), as an app's TSR_CALL_ABORT does. outputs.sh
 * checks that no PATH.tmp-XXXXXX is left behind. */
#include <stdio.h>
#include <mpi.h>
#include "tessera.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2) {
    fprintf(stderr, "usage: abort_tmp PATH.h5\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  tsr_error_set_progname("abort_tmp");
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tsr_file_t *f = NULL;
  TSR_CALL_ABORT(MPI_COMM_WORLD, tsr_file_create(MPI_COMM_WORLD, argv[1], &f));
  if (rank == size - 1)
    TSR_CALL_ABORT(MPI_COMM_WORLD, TSR_RAISE(TSR_ERR_ALLOC, "rank %d: out of memory (simulated)", rank));
  MPI_Barrier(MPI_COMM_WORLD); /* not left: the failing rank aborts the job */
  tsr_file_close(&f);
  MPI_Finalize();
  return 0;
}
