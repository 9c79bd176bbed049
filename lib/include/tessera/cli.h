/* tessera/cli.h: the command line every Tessera program shares.
 *
 * Common flags: --help, --version, --list-variants, --variant NAME[,NAME…]
 * (or "all", or shell patterns such as 'cuda/…'), -i/--input FILE.h5,
 * -o/--output FILE.h5, --csv FILE, --iterations N, --runs N, --warmup N,
 * --device auto|cpu|cuda, --verify/--no-verify, --quiet, and in programs that
 * checkpoint (TSR_CLI_CHECKPOINT) --checkpoint-every N, --checkpoint FILE,
 * --restart FILE (tessera/checkpoint.h). A program takes
 * only those it honours (tsr_cli_t.options) and adds its own through a
 * table of tsr_opt_t; --help lists exactly what it accepts.
 */
#ifndef TESSERA_CLI_H
#define TESSERA_CLI_H

#include <stdint.h>
#include <stdio.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  TSR_OPT_FLAG,   /* int, set to 1 (a "--no-NAME" form sets 0) */
  TSR_OPT_INT,    /* int */
  TSR_OPT_LONG,   /* int64_t */
  TSR_OPT_DOUBLE, /* double */
  TSR_OPT_STRING, /* const char * (points into argv) */
  TSR_OPT_SIZE3,  /* int64_t[3], written NXxNYxNZ (or NXxNY, NX: missing = 1) */
  TSR_OPT_LIST    /* const char * (points into argv); several uses append with ','
                     into a buffer the parser owns */
} tsr_optkind_t;

typedef struct {
  const char *name;    /* long name without "--" */
  char shortname;      /* 0 for none */
  tsr_optkind_t kind;
  void *target;        /* where the value goes; its current value is the default */
  const char *metavar; /* "N", "FILE", … (NULL for flags) */
  const char *help;    /* one line */
} tsr_opt_t;

/* Which common options a program takes (tsr_cli_t.options). A program
 * clears the bits of the options it does not implement: they are then
 * neither shown by --help nor accepted ("unknown option", exit status 1).
 * A program without variants clears TSR_CLI_VARIANTS, so --list-variants is
 * unknown to it. --help and --version are always there. */
enum {
  TSR_CLI_INPUT = 1 << 0,      /* -i/--input */
  TSR_CLI_OUTPUT = 1 << 1,     /* -o/--output */
  TSR_CLI_VARIANTS = 1 << 2,   /* --variant, --list-variants */
  TSR_CLI_DEVICE = 1 << 3,     /* --device */
  TSR_CLI_ITERATIONS = 1 << 4, /* --iterations */
  TSR_CLI_RUNS = 1 << 5,       /* --runs, --warmup */
  TSR_CLI_CSV = 1 << 6,        /* --csv */
  TSR_CLI_VERIFY = 1 << 7,     /* --verify/--no-verify */
  TSR_CLI_QUIET = 1 << 8,      /* -q/--quiet */
  TSR_CLI_ALL = (1 << 9) - 1,
  /* not in TSR_CLI_ALL: a program that checkpoints adds it */
  TSR_CLI_CHECKPOINT = 1 << 9  /* --checkpoint-every, --checkpoint, --restart */
};

typedef struct {
  const char *prog;      /* program name, e.g. "tsr-laplap" */
  unsigned options;      /* TSR_CLI_* bits of the common options taken (default all) */
  int single_rank;       /* 1: runs on one rank; --help says so and tsr_cli_parse
                            refuses more (default 0) */
  const char *summary;   /* one line shown by --help */
  const char *args;      /* positional arguments for --help's usage line
                            ("FILE.h5"), or NULL */
  const char *input;     /* -i FILE.h5 or NULL */
  const char *output;    /* -o FILE.h5 or NULL */
  const char *csv;       /* --csv FILE or NULL */
  const char *variants;  /* --variant list; NULL = the program's default */
  const char *device;    /* --device: "auto" (default), "cpu", "cuda" */
  int iterations;        /* --iterations (default set by the program) */
  int runs;              /* --runs: timed repetitions (default 20) */
  int warmup;            /* --warmup: untimed repetitions first (default 2) */
  int verify;            /* 1 unless --no-verify */
  int quiet;             /* --quiet */
  int checkpoint_every;  /* --checkpoint-every N: a checkpoint every N iterations (0: none) */
  const char *checkpoint; /* --checkpoint FILE (default PROG.ckpt.h5 in the working
                             directory, set by tsr_cli_parse when checkpointing) */
  const char *restart;   /* --restart FILE or NULL (tessera/checkpoint.h) */
  char checkpoint_default[80];
  int list_variants;     /* --list-variants was given */
  int retune;            /* --retune: --variant auto times the candidates again */
  int variant_auto;      /* 1: the program implements --variant auto (tsr_auto_choose); else
                            the selection refuses it (default 0) */
  int exit_now;          /* --help or --version was handled: exit 0 */
  int omp_threads;       /* OpenMP threads of this rank (tsr_node_omp_threads) */
  char omp_why[96];      /* where that count came from */
  char command_line[2048]; /* argv joined, for provenance */
} tsr_cli_t;

/* Defaults for prog (all common options; iterations = 1, runs = 20,
 * warmup = 2, verify = 1). */
void tsr_cli_init(tsr_cli_t *cli, const char *prog, const char *summary);

/* Parse argv. Collective over comm (every rank passes the same argv). Bad
 * flags and values raise TSR_ERR_ARG with a message naming the flag, agreed
 * over comm (tsr_error_agree: reported once). --help and --version print
 * (on rank 0 of comm) and set exit_now; the version line is
 * "PROG (Tessera) VERSION [git describe]". A single_rank program on more
 * than one rank is refused. Then sets this rank's OpenMP threads
 * (tsr_node_omp_threads: the cores it owns, unless OMP_NUM_THREADS is set)
 * and, for a program that runs on a device (TSR_CLI_DEVICE) without
 * --quiet or --list-variants, rank 0 prints that choice on one line.
 * Positional arguments are not accepted unless npos is non-NULL, in which
 * case they are returned in pos[0..*npos) (at most maxpos). */
int tsr_cli_parse(tsr_cli_t *cli, int argc, char **argv, const tsr_opt_t *opts, int nopts,
                  MPI_Comm comm, const char **pos, int maxpos, int *npos);

/* Parse "NXxNYxNZ" (missing trailing extents are 1); all > 0. */
int tsr_parse_size3(const char *s, int64_t out[3]);

/* Print the usage text for the program's options. */
void tsr_cli_usage(const tsr_cli_t *cli, const tsr_opt_t *opts, int nopts, FILE *f);

#ifdef __cplusplus
}
#endif
#endif /* TESSERA_CLI_H */
