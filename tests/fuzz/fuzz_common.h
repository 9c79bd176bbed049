/* tests/fuzz/fuzz_common.h: what every libFuzzer harness of an HDF5 reader
 * shares. The input bytes are written to a temporary file (one per process,
 * rewritten for each input) that the reader under test opens like any user
 * file, on MPI_COMM_SELF (MPI is initialised once, as a singleton). Host
 * memory a reader may ask for is capped (TSR_MEMORY_LIMIT, 256 MiB) so that
 * a header claiming a huge size must be refused, not allocated. */
#ifndef TSR_FUZZ_COMMON_H
#define TSR_FUZZ_COMMON_H

#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tessera.h"

static char fuzz_path[256];

static void fuzz_init(void) {
  static int done = 0;
  if (done) return;
  done = 1;
  setenv("TSR_MEMORY_LIMIT", "256M", 1);
  int init = 0;
  MPI_Initialized(&init);
  if (!init) MPI_Init(NULL, NULL);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  const char *tmp = getenv("TMPDIR");
  snprintf(fuzz_path, sizeof fuzz_path, "%s/tsr-fuzz-%ld.h5", tmp && *tmp ? tmp : "/tmp",
           (long)getpid());
}

/* The input as a file; 0 on success. */
static int fuzz_file(const uint8_t *data, size_t size) {
  fuzz_init();
  FILE *f = fopen(fuzz_path, "wb");
  if (!f) return 1;
  size_t w = size ? fwrite(data, 1, size, f) : 0;
  fclose(f);
  return w != size;
}

/* The mesh table of contents (tsr_mesh_toc) of the input, whatever the
 * file holds: the mesh harnesses' first reader. */
static inline void fuzz_mesh_toc(void) {
  tsr_file_t *f = NULL;
  if (tsr_file_open(MPI_COMM_SELF, fuzz_path, &f) != 0) return;
  tsr_mesh_toc_t toc;
  memset(&toc, 0, sizeof toc);
  if (tsr_mesh_toc(f, &toc) == 0) tsr_mesh_toc_free(&toc);
  tsr_file_close(&f);
}

/* After each input: the error record is cleared (readers report, the
 * harness does not care which message). */
static void fuzz_done(void) { tsr_error_clear(); }

#endif
