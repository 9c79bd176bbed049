/* tessera/run.h: how every program chooses, runs, skips and times its
 * variants.
 *
 *   tsr_run_select     --variant / --device -> the variants to run, and which
 *                      of them were asked for by name (they must run)
 *   tsr_variant_unavailable  the one skip rule of the build and the machine:
 *                      "built without CUDA", "no CUDA device"
 *   tsr_result_init / tsr_result_notrun  a result row, or a row that says
 *                      "not run: <why>" (no times; kept out of the CSV)
 *   tsr_run            warm-up runs, timed runs, the per-sample maximum over
 *                      the ranks, statistics, progress lines on rank 0
 *   tsr_auto_choose    --variant auto: a short timed trial of the candidates
 *                      (or the winner cached for this app, problem, device
 *                      and build), rank 0 deciding for all
 *   tsr_report_finish  (report.h) table, CSV, figure-of-merit line, exit rule
 *
 * The exit rule: a variant asked for by name (not by a pattern or "all"),
 * or any CUDA variant under --device cuda, that does not run is an error;
 * variants chosen by a pattern or "all" that this build or machine cannot
 * run are skipped and said once; a run in which nothing ran is an error
 * ("nothing ran: ...").
 */
#ifndef TESSERA_RUN_H
#define TESSERA_RUN_H

#include <stddef.h>
#include <mpi.h>
#include "tessera/cli.h"
#include "tessera/device.h"
#include "tessera/report.h"
#include "tessera/variant.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ selection */

typedef struct {
  int n;                   /* variants selected */
  int *index;              /* [n] indices into the table, in table order */
  unsigned char *required; /* [n] 1: named in --variant, or CUDA under --device cuda */
  char spec[256];          /* the --variant list used (the default when none was given) */
  int autotune;            /* --variant auto: the candidates of tsr_auto_choose (the device's
                              default list, none required) */
} tsr_selection_t;

/* Why variant v cannot run in this build or on this machine ("built without
 * CUDA", "no CUDA device"), or NULL when it can. */
const char *tsr_variant_unavailable(const tsr_variant_t *v);

/* The variants to run: cli->variants, else by cli->device (--variant auto:
 * the device's default list, marked sel->autotune; TSR_ERR_ARG unless
 * cli->variant_auto) (cpu: cpu_default,
 * cuda: cuda_default, auto: cuda_default when this build has CUDA and a GPU
 * is visible, else cpu_default). Raises TSR_ERR_ARG for an unknown name,
 * and, before any work is done, "nothing ran: ..." when none of the
 * selected variants can run here, or "<name> not run: <why> (asked for by
 * ...)" when a required one cannot. Not collective (agree on the result). */
int tsr_run_select(const tsr_cli_t *cli, const tsr_variant_t *table, int n,
                   const char *cpu_default, const char *cuda_default, tsr_selection_t *sel);
/* The two halves of tsr_run_select, for a program that checks its own
 * arguments between them: the selection (errors: unknown names), then the
 * early skip and exit rule (frees sel on an error). */
int tsr_selection_pick(const tsr_cli_t *cli, const tsr_variant_t *table, int n,
                       const char *cpu_default, const char *cuda_default, tsr_selection_t *sel);
int tsr_selection_check(tsr_selection_t *sel, const tsr_variant_t *table, const tsr_cli_t *cli);
void tsr_selection_free(tsr_selection_t *sel);
/* 1 when table index i is selected; *required receives its flag. */
int tsr_selection_has(const tsr_selection_t *sel, int i, int *required);

/* ------------------------------------------------------------ rows */

/* A fresh row: app, the variant's name, the device (dev's name, or what
 * the variant would run on when dev is NULL), ranks of MPI_COMM_WORLD,
 * verify "-". required: the selection's flag. */
void tsr_result_init(tsr_result_t *row, const char *app, const tsr_variant_t *v,
                     const tsr_device_t *dev, int required);
/* Mark row as not run: note "not run: <why>", no times, no CSV row. */
void tsr_result_notrun(tsr_result_t *row, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ------------------------------------------------------------ harness */

typedef enum {
  TSR_TIME_DEVICE,  /* tsr_timer on the device: CUDA events on a GPU, wall clock on the CPU */
  TSR_TIME_WALL,    /* host wall clock around run(), the device synchronised before the stop */
  TSR_TIME_REPORTED /* run() measures itself and sets sample->seconds */
} tsr_timing_t;

#define TSR_RUN_MAXEXTRA 4

typedef struct {
  int warmup;                         /* 1 during the warm-up runs */
  int k;                              /* 0-based run number (warm-up and timed counted apart) */
  double seconds;                     /* TSR_TIME_REPORTED: set by run() */
  double extra[TSR_RUN_MAXEXTRA];     /* other per-run times run() measures (seconds) */
} tsr_run_sample_t;

typedef struct {
  const char *prog;        /* progress lines: "<prog>: <label>: run 3/20, 12.4 s" */
  const char *label;
  MPI_Comm comm;           /* all ranks call tsr_run; a sample is the slowest rank's */
  const tsr_device_t *dev; /* synchronised after reset() and (WALL) after run() */
  tsr_timing_t timing;
  int warmup, runs;        /* untimed runs first, then timed runs */
  double max_seconds;      /* > 0: stop once the timed samples add up to this, */
  int min_runs;            /*   after at least min_runs timed runs */
  double per;              /* samples are divided by this (e.g. steps per run); 0 = 1 */
  int barrier;             /* MPI_Barrier before every run's start */
  int quiet;               /* no progress lines */
  int nextra;              /* extra[] entries run() fills */
  int (*reset)(void *ctx, const tsr_run_sample_t *s); /* untimed, before each run; may be NULL */
  int (*run)(void *ctx, tsr_run_sample_t *s);         /* the timed work */
  void *ctx;
} tsr_run_t;

typedef struct {
  tsr_stats_t time;                   /* seconds per run (/ per), max over ranks per sample */
  tsr_stats_t extra[TSR_RUN_MAXEXTRA];
} tsr_run_result_t;

/* Run spec's warm-up and timed runs (collective over spec->comm): per run
 * reset(), device sync, barrier, start, run(), stop; errors are agreed
 * after every run, so a failing rank never hangs the others. Progress
 * lines on rank 0 once a variant's runs have taken TSR_RUN_PROGRESS_S. */
#define TSR_RUN_PROGRESS_S 5.0
int tsr_run(const tsr_run_t *spec, tsr_run_result_t *out);

/* ------------------------------------------------------------ --variant auto */

/* One choice among candidates. A candidate is a name ("variant" or
 * "variant config", no tab or newline); the program runs candidate c as a
 * short trial through trial() (collective; *seconds < 0: it did not run,
 * e.g. a shape the device cannot take). */
typedef struct {
  const char *prog;          /* "tsr-stencil": the report line and the cache key */
  const char *problem;       /* what the choice depends on beyond the device: the input's shape,
                                precision, iterations ("laplap 512x512x64 double 10 steps") */
  const char *device;        /* the device's name */
  int ncand;
  const char *const *names;  /* [ncand] */
  int (*trial)(void *ctx, int cand, double *seconds);
  void *ctx;
  int retune;                /* 1: time the candidates even when the cache has a choice */
  int quiet;                 /* no report line */
} tsr_auto_t;

typedef struct {
  int winner;                /* index into names */
  int cached;                /* 1: taken from the cache, no trial */
  int tried;                 /* candidates that ran in the trial */
  double seconds;            /* the winner's trial time (from the cache when cached) */
  char note[160];            /* for the row's note: "auto: best of 12 in a trial" */
  char path[512];            /* the cache file ("" when there is none) */
} tsr_auto_result_t;

/* The cache file: $XDG_CACHE_HOME/tessera/variant-auto.tsv, else
 * $HOME/.cache/tessera/variant-auto.tsv; TSR_ERR_IO when neither is set. */
int tsr_auto_cache_path(char *buf, size_t n);

/* Choose (collective over comm; every rank passes the same candidates):
 * rank 0 looks the key (prog, problem, device, this build) up in the cache
 * unless a->retune; a cached name that is one of the candidates is the
 * choice. Otherwise every candidate runs its trial, the fastest that ran
 * wins and rank 0 stores it (the file is rewritten through a temporary and
 * renamed; failing to store is a warning). A cache file with a line that is
 * not KEY<TAB>NAME<TAB>SECONDS is ignored with a warning on stderr (and
 * rewritten). Rank 0's choice is broadcast. Prints one line on rank 0
 * unless a->quiet. TSR_ERR_UNSUPPORTED when no candidate ran. */
int tsr_auto_choose(const tsr_auto_t *a, MPI_Comm comm, tsr_auto_result_t *out);

/* --variant auto for a program that runs a candidate by adding its row to a
 * report: run(ctx, c, cli, rep) runs candidate c as cli says and adds one
 * row (a not-run row when it cannot run). The trial runs each candidate
 * with at most 3 timed runs and 1 warm-up (fewer when cli asks for fewer),
 * no verification, quiet, into a scratch
 * report (its row's median time decides); the winner then runs with cli
 * into rep, its row's note prefixed with the choice. Collective. */
typedef int (*tsr_auto_run_fn)(void *ctx, int cand, const tsr_cli_t *cli, tsr_report_t *rep);
int tsr_auto_run(const tsr_cli_t *cli, MPI_Comm comm, const char *problem, const char *device, int ncand,
                 const char *const *names, tsr_auto_run_fn run, void *ctx, tsr_report_t *rep);

/* The bytes of the last-level CPU cache(s) of this node (sum over the
 * distinct L3 or, without one, L2 caches), 0 when unknown. */
double tsr_cpu_llc_bytes(void);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_RUN_H */
