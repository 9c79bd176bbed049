/* tessera/provenance.h: what a result records about where it came from:
 * the release and commit of Tessera, the host, the date, the CPU device's
 * name, and the versions of MPI, HDF5, CUDA and the compiler.
 *
 * HDF5 outputs carry these as root attributes (tsr_file_write_provenance,
 * docs/FORMAT.md), CSV rows as columns (tsr_report_write_csv, docs/CSV.md).
 * The commit is `git describe --tags --always --dirty` of the source when it
 * was built (regenerated on every make, so a commit or an edit after
 * configure shows), or the release tarball's .tarball-version.
 */
#ifndef TESSERA_PROVENANCE_H
#define TESSERA_PROVENANCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  char version[32];   /* the release, "0.1.0"                                   */
  char commit[96];    /* "v0.1.0-12-g3e4f5a6-dirty", "3e4f5a6", or "unknown"      */
  char mpi[128];      /* the MPI library run with: "Open MPI v4.1.4"             */
  char hdf5[32];      /* the HDF5 library run with: "1.10.8"                     */
  char cuda[96];      /* "runtime 12.4, driver 12.6", "runtime 12.4, no driver",
                         or "none (built without CUDA)"                          */
  char compiler[128]; /* host compiler, and nvcc's toolkit in CUDA builds:
                         "gcc 12.2.0", "gcc 12.2.0; nvcc 12.4"                   */
} tsr_build_t;

/* Fills b (local, no communication; MPI need not be initialised). */
void tsr_build_info(tsr_build_t *b);
/* This machine's host name ("unknown" if it has none). */
void tsr_host_name(char *buf, size_t n);
/* The current time, UTC, ISO 8601: "2026-01-31T12:34:56Z". */
void tsr_utc_now(char *buf, size_t n);
/* The CPU device as every output spells it: "CPU (16 threads)" (OpenMP's
 * thread count for a parallel region; "CPU (1 thread)" without OpenMP). */
void tsr_cpu_device_name(char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_PROVENANCE_H */
