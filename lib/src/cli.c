/* cli.c: the shared command-line parser (common flags + a program's table). */
#include "config.h"
#include "tessera/cli.h"
#include "tessera/error.h"
#include "tessera/node.h"
#include "tessera/io.h"
#include "tessera/provenance.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void tsr_cli_init(tsr_cli_t *cli, const char *prog, const char *summary) {
  memset(cli, 0, sizeof *cli);
  cli->prog = prog;
  cli->summary = summary;
  cli->options = TSR_CLI_ALL;
  cli->device = "auto";
  cli->iterations = 1;
  cli->runs = 20;
  cli->warmup = 2;
  cli->verify = 1;
}

int tsr_parse_size3(const char *s, int64_t out[3]) {
  TSR_CHECK(s && *s, TSR_ERR_ARG, "empty size: expected NXxNYxNZ");
  int64_t v[3] = {1, 1, 1};
  const char *p = s;
  for (int d = 0; d < 3; d++) {
    char *end;
    errno = 0;
    long long x = strtoll(p, &end, 10);
    TSR_CHECK(end != p && errno == 0 && x > 0, TSR_ERR_ARG,
              "bad size '%s': expected positive integers NXxNYxNZ", s);
    v[d] = x;
    if (*end == '\0') break;
    TSR_CHECK((*end == 'x' || *end == 'X') && d < 2, TSR_ERR_ARG,
              "bad size '%s': expected NXxNYxNZ", s);
    p = end + 1;
  }
  memcpy(out, v, sizeof v);
  return TSR_SUCCESS;
}

static int tsr__parse_long(const char *flag, const char *s, long long lo, long long hi,
                           long long *out) {
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  TSR_CHECK(*s && *end == '\0' && errno == 0, TSR_ERR_ARG,
            "option --%s: '%s' is not an integer", flag, s);
  TSR_CHECK(x >= lo && x <= hi, TSR_ERR_ARG, "option --%s: %lld is out of range [%lld, %lld]",
            flag, x, lo, hi);
  *out = x;
  return TSR_SUCCESS;
}

/* The common options, expressed as a table over the cli struct; returns how
 * many of them the program takes (cli->options). */
enum { TSR__NCOMMON = 15 };
static const unsigned tsr__common_bit[TSR__NCOMMON] = {
    TSR_CLI_INPUT, TSR_CLI_OUTPUT, TSR_CLI_VARIANTS, TSR_CLI_VARIANTS, TSR_CLI_DEVICE,
    TSR_CLI_ITERATIONS, TSR_CLI_RUNS, TSR_CLI_RUNS, TSR_CLI_CSV, TSR_CLI_VERIFY, TSR_CLI_QUIET,
    TSR_CLI_CHECKPOINT, TSR_CLI_CHECKPOINT, TSR_CLI_CHECKPOINT, TSR_CLI_VARIANTS};
static int tsr__common(tsr_cli_t *c, tsr_opt_t t[TSR__NCOMMON]) {
  tsr_opt_t tab[TSR__NCOMMON] = {
      {"input", 'i', TSR_OPT_STRING, &c->input, "FILE.h5", "read the input from an HDF5 file"},
      {"output", 'o', TSR_OPT_STRING, &c->output, "FILE.h5", "write results to an HDF5 file (+ .xmf)"},
      {"variant", 0, TSR_OPT_LIST, &c->variants, "LIST",
       "variants to run: names, shell patterns, 'all', or 'auto' (the fastest in a short trial, "
       "cached; see --list-variants)"},
      {"list-variants", 0, TSR_OPT_FLAG, &c->list_variants, NULL, "list the variants and exit"},
      {"device", 0, TSR_OPT_STRING, &c->device, "KIND", "auto (GPU if present), cpu or cuda"},
      {"iterations", 0, TSR_OPT_INT, &c->iterations, "N", "time steps / iterations per run"},
      {"runs", 0, TSR_OPT_INT, &c->runs, "N", "timed runs (statistics over them)"},
      {"warmup", 0, TSR_OPT_INT, &c->warmup, "N", "untimed runs before timing"},
      {"csv", 0, TSR_OPT_STRING, &c->csv, "FILE", "write one CSV row per variant (docs/CSV.md)"},
      {"verify", 0, TSR_OPT_FLAG, &c->verify, NULL,
       "verify every variant against the reference (default; --no-verify to skip)"},
      {"quiet", 'q', TSR_OPT_FLAG, &c->quiet, NULL,
       c->options & TSR_CLI_VARIANTS ? "print only the result table and errors"
                                     : "print only errors"},
      {"checkpoint-every", 0, TSR_OPT_INT, &c->checkpoint_every, "N",
       "write a checkpoint after every N iterations (atomically; docs/FORMAT.md)"},
      {"checkpoint", 0, TSR_OPT_STRING, &c->checkpoint, "FILE",
       "the checkpoint's file (default PROG.ckpt.h5)"},
      {"restart", 0, TSR_OPT_STRING, &c->restart, "FILE",
       "resume from a checkpoint (any rank count; the same problem and options)"},
      {"retune", 0, TSR_OPT_FLAG, &c->retune, NULL,
       "with --variant auto: time the candidates again instead of taking the cached choice"},
  };
  int n = 0;
  for (int i = 0; i < TSR__NCOMMON; i++)
    if (c->options & tsr__common_bit[i]) t[n++] = tab[i];
  return n;
}

static void tsr__usage_table(const tsr_opt_t *t, int n, FILE *f) {
  for (int i = 0; i < n; i++) {
    char left[64];
    if (t[i].shortname)
      snprintf(left, sizeof left, "-%c, --%s%s%s", t[i].shortname, t[i].name,
               t[i].metavar ? " " : "", t[i].metavar ? t[i].metavar : "");
    else
      snprintf(left, sizeof left, "    --%s%s%s", t[i].name, t[i].metavar ? " " : "",
               t[i].metavar ? t[i].metavar : "");
    fprintf(f, "  %-28s %s%s\n", left, strlen(left) < 28 ? "" : " ", t[i].help ? t[i].help : "");
  }
}

void tsr_cli_usage(const tsr_cli_t *cli, const tsr_opt_t *opts, int nopts, FILE *f) {
  tsr_cli_t copy = *cli;
  tsr_opt_t common[TSR__NCOMMON];
  int ncommon = tsr__common(&copy, common);
  fprintf(f, "Usage: %s [OPTIONS]%s%s\n%s\n", cli->prog, cli->args ? " " : "",
          cli->args ? cli->args : "", cli->summary ? cli->summary : "");
  if (cli->single_rank) fprintf(f, "Runs on one rank: refuses to start on more.\n");
  fprintf(f, "\n");
  if (nopts > 0) {
    fprintf(f, "Options of %s:\n", cli->prog);
    tsr__usage_table(opts, nopts, f);
    fprintf(f, "\n");
  }
  fprintf(f, "Common options:\n");
  tsr__usage_table(common, ncommon, f);
  fprintf(f, "  %-28s %s\n  %-28s %s\n", "-h, --help", "show this help",
          "    --version", "print the version");
  fprintf(f, "\nErrors print one line; set TSR_TRACE=1 for the call trace.\n");
}

static const tsr_opt_t *tsr__find(const tsr_opt_t *a, int na, const tsr_opt_t *b, int nb,
                                  const char *name, size_t len, char shortname, int *negated) {
  *negated = 0;
  for (int pass = 0; pass < 2; pass++) {
    const tsr_opt_t *t = pass ? b : a;
    int n = pass ? nb : na;
    for (int i = 0; i < n; i++) {
      if (shortname) {
        if (t[i].shortname == shortname) return &t[i];
        continue;
      }
      if (strlen(t[i].name) == len && strncmp(t[i].name, name, len) == 0) return &t[i];
      if (t[i].kind == TSR_OPT_FLAG && len == strlen(t[i].name) + 3 &&
          strncmp(name, "no-", 3) == 0 && strncmp(name + 3, t[i].name, len - 3) == 0) {
        *negated = 1;
        return &t[i];
      }
    }
  }
  return NULL;
}

/* Storage for repeated list options (--variant a --variant b). */
#define TSR__LISTBUF 4096
static char tsr__listbuf[8][TSR__LISTBUF];
static const void *tsr__listowner[8];

static int tsr__set(const tsr_opt_t *o, const char *val) {
  long long x;
  switch (o->kind) {
  case TSR_OPT_FLAG: *(int *)o->target = 1; break;
  case TSR_OPT_INT:
    TSR_CALL(tsr__parse_long(o->name, val, INT_MIN, INT_MAX, &x));
    *(int *)o->target = (int)x;
    break;
  case TSR_OPT_LONG:
    TSR_CALL(tsr__parse_long(o->name, val, INT64_MIN, INT64_MAX, &x));
    *(int64_t *)o->target = (int64_t)x;
    break;
  case TSR_OPT_DOUBLE: {
    char *end;
    errno = 0;
    double d = strtod(val, &end);
    TSR_CHECK(*val && *end == '\0' && errno == 0, TSR_ERR_ARG,
              "option --%s: '%s' is not a number", o->name, val);
    *(double *)o->target = d;
    break;
  }
  case TSR_OPT_STRING: *(const char **)o->target = val; break;
  case TSR_OPT_SIZE3: {
    if (tsr_parse_size3(val, (int64_t *)o->target) != 0) {
      char why[512];
      snprintf(why, sizeof why, "%s", tsr_error_message());
      return TSR_RAISE(TSR_ERR_ARG, "option --%s: %s", o->name, why);
    }
    break;
  }
  case TSR_OPT_LIST: {
    const char **t = (const char **)o->target;
    int slot = -1;
    for (int i = 0; i < 8; i++)
      if (tsr__listowner[i] == o->target || (!tsr__listowner[i] && slot < 0)) {
        slot = i;
        if (tsr__listowner[i] == o->target) break;
      }
    TSR_CHECK(slot >= 0, TSR_ERR_ARG, "too many list options");
    char *buf = tsr__listbuf[slot];
    if (tsr__listowner[slot] != o->target || *t != buf) { /* first use: replace default */
      tsr__listowner[slot] = o->target;
      buf[0] = '\0';
    }
    size_t used = strlen(buf);
    TSR_CHECK(used + strlen(val) + 2 < TSR__LISTBUF, TSR_ERR_ARG, "option --%s: list too long",
              o->name);
    if (used) strcat(buf, ",");
    strcat(buf, val);
    *t = buf;
    break;
  }
  }
  return TSR_SUCCESS;
}

static int tsr__parse(tsr_cli_t *cli, int argc, char **argv, const tsr_opt_t *opts, int nopts,
                      int rank, const char **pos, int maxpos, int *npos) {
  /* command line for provenance */
  size_t used = 0;
  cli->command_line[0] = '\0';
  for (int i = 0; i < argc && used + 2 < sizeof cli->command_line; i++) {
    int w = snprintf(cli->command_line + used, sizeof cli->command_line - used, "%s%s",
                     i ? " " : "", argv[i]);
    if (w < 0) break;
    used += (size_t)w;
  }
  tsr_opt_t common[TSR__NCOMMON];
  int ncommon = tsr__common(cli, common);
  if (npos) *npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      if (rank == 0) tsr_cli_usage(cli, opts, nopts, stdout);
      cli->exit_now = 1;
      return TSR_SUCCESS;
    }
    if (strcmp(a, "--version") == 0) { /* the one version format */
      tsr_build_t b;
      tsr_build_info(&b);
      if (rank == 0) printf("%s (Tessera) %s [%s]\n", cli->prog, b.version, b.commit);
      cli->exit_now = 1;
      return TSR_SUCCESS;
    }
    if (a[0] != '-' || a[1] == '\0') {
      TSR_CHECK(npos && *npos < maxpos, TSR_ERR_ARG, "unexpected argument '%s' (see %s --help)", a,
                cli->prog);
      pos[(*npos)++] = a;
      continue;
    }
    const tsr_opt_t *o;
    const char *val = NULL;
    int neg;
    if (a[1] == '-') {
      const char *name = a + 2, *eq = strchr(name, '=');
      size_t len = eq ? (size_t)(eq - name) : strlen(name);
      o = tsr__find(opts, nopts, common, ncommon, name, len, 0, &neg);
      TSR_CHECK(o, TSR_ERR_ARG, "unknown option '%.*s' (see %s --help)", (int)(len + 2), a,
                cli->prog);
      if (eq) val = eq + 1;
    } else {
      TSR_CHECK(a[2] == '\0', TSR_ERR_ARG, "unknown option '%s' (see %s --help)", a, cli->prog);
      o = tsr__find(opts, nopts, common, ncommon, NULL, 0, a[1], &neg);
      TSR_CHECK(o, TSR_ERR_ARG, "unknown option '%s' (see %s --help)", a, cli->prog);
    }
    if (o->kind == TSR_OPT_FLAG) {
      TSR_CHECK(!val, TSR_ERR_ARG, "option --%s takes no value", o->name);
      *(int *)o->target = neg ? 0 : 1;
      continue;
    }
    if (!val) {
      TSR_CHECK(i + 1 < argc, TSR_ERR_ARG, "option --%s needs a value (%s)", o->name,
                o->metavar ? o->metavar : "VALUE");
      val = argv[++i];
    }
    TSR_CALL(tsr__set(o, val));
  }
  TSR_CHECK(cli->iterations >= 1, TSR_ERR_ARG, "option --iterations: must be >= 1, got %d",
            cli->iterations);
  TSR_CHECK(cli->runs >= 1, TSR_ERR_ARG, "option --runs: must be >= 1, got %d", cli->runs);
  TSR_CHECK(cli->warmup >= 0, TSR_ERR_ARG, "option --warmup: must be >= 0, got %d", cli->warmup);
  TSR_CHECK(strcmp(cli->device, "auto") == 0 || strcmp(cli->device, "cpu") == 0 ||
                strcmp(cli->device, "cuda") == 0,
            TSR_ERR_ARG, "option --device: expected auto, cpu or cuda, got '%s'", cli->device);
  TSR_CHECK(cli->checkpoint_every >= 0, TSR_ERR_ARG,
            "option --checkpoint-every: must be >= 0, got %d", cli->checkpoint_every);
  TSR_CHECK(!cli->checkpoint || cli->checkpoint_every > 0, TSR_ERR_ARG,
            "option --checkpoint %s: needs --checkpoint-every N", cli->checkpoint);
  if (cli->checkpoint_every > 0 && !cli->checkpoint) { /* the default name */
    snprintf(cli->checkpoint_default, sizeof cli->checkpoint_default, "%s.ckpt.h5", cli->prog);
    cli->checkpoint = cli->checkpoint_default;
  }
  return TSR_SUCCESS;
}

/* FNV-1a over argv[1..argc) (each argument and its terminating NUL): what
 * the ranks compare before they act on their options. */
static uint64_t tsr__argv_hash(int argc, char **argv) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 1; i < argc; i++)
    for (const unsigned char *p = (const unsigned char *)argv[i];; p++) {
      h = (h ^ *p) * 1099511628211ull;
      if (!*p) break;
    }
  return h;
}

/* Every rank of comm must have been started with the same arguments (the
 * program name aside); otherwise they would take different paths through
 * the collectives. Collective; raises TSR_ERR_ARG naming two ranks that
 * differ. */
static int tsr__argv_agree(MPI_Comm comm, int rank, int size, int argc, char **argv) {
  if (size <= 1) return TSR_SUCCESS;
  uint64_t h[2] = {tsr__argv_hash(argc, argv), 0};
  h[1] = ~h[0];
  TSR_CALL_MPI(MPI_Allreduce(MPI_IN_PLACE, h, 2, MPI_UINT64_T, MPI_MAX, comm));
  const uint64_t mine = tsr__argv_hash(argc, argv);
  if (h[0] == mine && h[1] == ~mine) return TSR_SUCCESS;
  /* the lowest rank whose arguments differ from rank 0's */
  uint64_t h0 = mine;
  TSR_CALL_MPI(MPI_Bcast(&h0, 1, MPI_UINT64_T, 0, comm));
  int mineoff = h0 != mine ? rank : size, first = size;
  TSR_CALL_MPI(MPI_Allreduce(&mineoff, &first, 1, MPI_INT, MPI_MIN, comm));
  (void)rank;
  return TSR_RAISE(TSR_ERR_ARG, "ranks 0 and %d were started with different arguments (every rank "
                   "must get the same options)", first);
}

int tsr_cli_parse(tsr_cli_t *cli, int argc, char **argv, const tsr_opt_t *opts, int nopts,
                  MPI_Comm comm, const char **pos, int maxpos, int *npos) {
  int rank = 0, size = 1, init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) MPI_Comm_rank(comm, &rank), MPI_Comm_size(comm, &size);
  tsr_error_set_progname(cli->prog);
  /* every rank parses the same argv: one agreed error, printed once */
  int rc = tsr__parse(cli, argc, argv, opts, nopts, rank, pos, maxpos, npos);
  /* different arguments on some rank: that error first, before --help or
     --version lets one rank leave alone */
  if (init && !fin) {
    const int rca = tsr__argv_agree(comm, rank, size, argc, argv);
    if (rca) rc = rca, cli->exit_now = 0;
  }
  if (!rc && !cli->exit_now && cli->single_rank && size > 1)
    rc = TSR_RAISE(TSR_ERR_ARG, "%s runs on one rank, not %d: start it without mpirun or with -np 1",
                   cli->prog, size);
  TSR_CALL(tsr_error_agree(comm, rc));
  if (cli->exit_now) return TSR_SUCCESS;
  /* a bad output path is found now, not after the computation */
  if (!cli->list_variants) {
    TSR_CALL(tsr_output_check(comm, "-o", cli->output));
    TSR_CALL(tsr_output_check(comm, "--csv", cli->csv));
    if (cli->checkpoint_every > 0) TSR_CALL(tsr_output_check(comm, "--checkpoint", cli->checkpoint));
  }
  TSR_CALL(tsr_node_omp_threads(comm, &cli->omp_threads, cli->omp_why, sizeof cli->omp_why));
  /* the choice is reported under the result table (tsr_report_finish) */
  return TSR_SUCCESS;
}
