/* tessera/report.h: timing statistics, the bandwidth ceiling the suite
 * measures itself, and the result table/CSV every app prints.
 *
 * Each kernel declares the minimum bytes it must move (read + written). The
 * ceiling is the bandwidth of a large device-to-device copy on the GPU
 * (cudaMemcpy, bytes read + written) or a large parallel memcpy on the CPU.
 * "% of floor" = (bytes / ceiling) / measured time × 100: 100 % means the
 * kernel ran as fast as merely copying its minimum traffic.
 *
 * On a CPU, a problem whose working set (tsr_result_t.footprint) fits in the
 * last-level cache has no DRAM floor: "%floor" shows "-*" with a footnote.
 *
 * CSV columns (docs/CSV.md): the common ones, TSR_CSV_COLUMNS, the same
 * for every program (who and where: app, variant, the release and commit,
 * date, host, device, ranks; then the problem, the times and the verdict;
 * then the library and compiler versions), then the app's own columns
 * (tsr_report_set_extra_columns). Rows that did not run are in the table
 * only.
 */
#ifndef TESSERA_REPORT_H
#define TESSERA_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "tessera/device.h"
#include "tessera/cli.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TSR_CSV_COLUMNS                                                                   \
  "app,variant,version,commit,date,host,device,ranks,precision,nx,ny,nz,runs,median_us,"   \
  "min_us,max_us,mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify,config,note,mpi,"   \
  "hdf5,cuda,compiler"

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
  char variant[96];       /* the name --variant and --list-variants use */
  char config[128];       /* configuration beyond the name ("threads=128x1x8 jpt=8"), or "" */
  char device[256];
  tsr_devkind_t kind;     /* where it runs (or would have run) */
  char precision[8];      /* "double", "float", "-" */
  int64_t size[3];        /* problem size (app-defined, e.g. domain NXxNYxNZ) */
  int ranks;
  tsr_stats_t time;       /* seconds per run (max over ranks) */
  double bytes;           /* minimum bytes moved per run (all ranks), 0 if not meaningful */
  double ceiling;         /* bytes/s of the device ceiling, 0 if unknown */
  double footprint;       /* bytes the run touches (working set, all ranks); 0: unknown */
  char figure[128];       /* app figure of merit, e.g. "rms=1.06e-04" or "" */
  char fom_name[24];      /* the FOM line's metric (e.g. "pts_per_s"); "": GB/s from bytes */
  char fom_unit[16];
  double fom;
  tsr_verify_t verify;
  char note[256];         /* e.g. "max err 0.00e+00", "not run: built without CUDA" */
  int notrun;             /* 1: did not run (tsr_result_notrun): no times, no CSV row */
  int required;           /* 1: asked for by name (tsr_selection_t.required) */
  char extra[512];        /* the app's CSV columns for this row, already CSV (tsr_csv_field) */
} tsr_result_t;

typedef struct tsr_report tsr_report_t;

int tsr_report_create(tsr_report_t **out);
int tsr_report_add(tsr_report_t *r, const tsr_result_t *row);
/* Human table (rank 0 prints; call on all ranks). */
void tsr_report_print(const tsr_report_t *r, MPI_Comm comm, FILE *f);
/* CSV (header + one row per result); rank 0 writes PATH.tmp then renames. */
int tsr_report_write_csv(const tsr_report_t *r, MPI_Comm comm, const char *path);
/* Number of rows that failed verification / that ran. */
int tsr_report_failures(const tsr_report_t *r);
int tsr_report_ran(const tsr_report_t *r);
/* Rows added so far, and row i (i < 0: counted from the last), or NULL. */
int tsr_report_nrows(const tsr_report_t *r);
tsr_result_t *tsr_report_row(tsr_report_t *r, int i);
/* The app's own CSV columns after the common ones ("name,blocks_x,..."). */
int tsr_report_set_extra_columns(tsr_report_t *r, const char *header);
/* Append s to the CSV line buf (size n) as one field, quoted if needed,
 * after a comma unless buf is empty. */
void tsr_csv_field(char *buf, size_t n, const char *s);

/* The end of every program (collective): on rank 0 the table with its
 * footnotes (the not-run summary, the cache note), then the figure-of-merit
 * line
 *   FOM <prog>: variant=<name> [config="..."] time_s=<median> <metric>=<value> <unit> verify=<v>
 * of the best row that ran and did not fail; --csv; then the exit rule:
 * "nothing ran: ..." when no row ran (nothing else printed), an error when
 * a required row did not run, TSR_ERR_VERIFY when a row FAILED. */
int tsr_report_finish(tsr_report_t *r, const tsr_cli_t *cli, MPI_Comm comm);
int tsr_report_destroy(tsr_report_t **r);

const char *tsr_verify_name(tsr_verify_t v);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_REPORT_H */
