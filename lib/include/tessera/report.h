/* tessera/report.h: timing statistics, the bandwidth ceiling the suite
 * measures itself, and the result table/CSV every app prints.
 *
 * Each kernel declares the minimum bytes it must move (read + written). The
 * ceiling is the bandwidth of a large device-to-device copy on the GPU
 * (cudaMemcpy, bytes read + written) or a large parallel memcpy on the CPU.
 * "% of floor" = (bytes / ceiling) / measured time × 100: 100 % means the
 * kernel ran as fast as merely copying its minimum traffic.
 *
 * CSV columns (docs/CSV.md): app,variant,device,precision,nx,ny,nz,ranks,
 * runs,median_us,min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,
 * figure,verify
 */
#ifndef TESSERA_REPORT_H
#define TESSERA_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "tessera/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int n;
  double median, min, max, mean; /* seconds */
} tsr_stats_t;

/* Statistics of n samples (the array is sorted in place). */
tsr_stats_t tsr_stats(double *samples, int n);

/* The device's copy bandwidth in bytes/s (read + written), measured once per
 * process and device kind and cached. */
int tsr_bandwidth_ceiling(const tsr_device_t *dev, double *bytes_per_s);

typedef enum { TSR_VERIFY_PASS, TSR_VERIFY_FAIL, TSR_VERIFY_SKIPPED, TSR_VERIFY_NA } tsr_verify_t;

typedef struct {
  char app[32];
  char variant[96];
  char device[256];
  char precision[8];      /* "double", "float", "-" */
  int64_t size[3];        /* problem size (app-defined, e.g. domain NXxNYxNZ) */
  int ranks;
  tsr_stats_t time;       /* seconds per run (max over ranks) */
  double bytes;           /* minimum bytes moved per run (all ranks), 0 if not meaningful */
  double ceiling;         /* bytes/s of the device ceiling, 0 if unknown */
  char figure[64];        /* app figure of merit, e.g. "rms=1.06e-04" or "" */
  tsr_verify_t verify;
  char note[96];          /* e.g. "skipped: block 256x1x1 larger than domain" */
} tsr_result_t;

typedef struct tsr_report tsr_report_t;

int tsr_report_create(tsr_report_t **out);
int tsr_report_add(tsr_report_t *r, const tsr_result_t *row);
/* Human table (rank 0 prints; call on all ranks). */
void tsr_report_print(const tsr_report_t *r, MPI_Comm comm, FILE *f);
/* CSV (header + one row per result); rank 0 writes PATH.tmp then renames. */
int tsr_report_write_csv(const tsr_report_t *r, MPI_Comm comm, const char *path);
/* Number of rows that failed verification. */
int tsr_report_failures(const tsr_report_t *r);
int tsr_report_destroy(tsr_report_t **r);

const char *tsr_verify_name(tsr_verify_t v);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_REPORT_H */
