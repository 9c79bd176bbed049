/* run.c: choosing the variants to run, the skip rule, result rows and the
 * run harness (warm-up, timed runs, statistics, progress). */
#include "config.h"
#include "tessera/run.h"
#include "tessera/provenance.h"
#include "tessera/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ selection */

const char *tsr_variant_unavailable(const tsr_variant_t *v) {
  if (v->device != TSR_DEV_CUDA) return NULL;
  if (!tsr_device_cuda_built()) return "built without CUDA";
  if (tsr_device_cuda_count() == 0) return "no CUDA device";
  return NULL;
}

/* 1 when token names table entry i exactly (not by "all" or a pattern). */

int tsr_selection_pick(const tsr_cli_t *cli, const tsr_variant_t *table, int n,
                       const char *cpu_default, const char *cuda_default, tsr_selection_t *sel) {
  memset(sel, 0, sizeof *sel);
  const char *dev = cli->device ? cli->device : "auto";
  const int want_cuda = strcmp(dev, "cuda") == 0;
  const char *spec = cli->variants;
  const int autotune = spec && strcmp(spec, "auto") == 0; /* the default list, tried */
  TSR_CHECK(!spec || autotune || !tsr_variant_named(spec, "auto"), TSR_ERR_ARG,
            "--variant auto chooses among the default variants: give it alone, not with '%s'", spec);
  TSR_CHECK(!autotune || cli->variant_auto, TSR_ERR_ARG,
            "--variant auto: %s does not choose its variants by a trial yet; give --variant all or names",
            cli->prog ? cli->prog : "this program");
  if (autotune) spec = NULL;
  if (!spec)
    spec = want_cuda ? cuda_default
           : strcmp(dev, "cpu") == 0 ? cpu_default
           : tsr_device_default_kind() == TSR_DEV_CUDA ? cuda_default : cpu_default;
  snprintf(sel->spec, sizeof sel->spec, "%s", spec);
  sel->index = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  sel->required = calloc((size_t)(n > 0 ? n : 1), 1);
  if (!sel->index || !sel->required) {
    tsr_selection_free(sel);
    return TSR_RAISE(TSR_ERR_ALLOC, "out of memory");
  }
  int rc = tsr_variant_select(table, n, spec, sel->index, &sel->n);
  if (rc) {
    tsr_selection_free(sel);
    return tsr_error_trace(rc, __FILE__, __LINE__, __func__);
  }
  sel->autotune = autotune;
  for (int k = 0; k < sel->n && !autotune; k++) {
    const tsr_variant_t *v = &table[sel->index[k]];
    sel->required[k] = (cli->variants && tsr_variant_named(cli->variants, v->name)) ||
                       (want_cuda && v->device == TSR_DEV_CUDA);
  }
  return TSR_SUCCESS;
}

int tsr_selection_check(tsr_selection_t *sel, const tsr_variant_t *table, const tsr_cli_t *cli) {
  int can = 0, first_missing = -1;
  const char *why = NULL, *why_missing = NULL;
  for (int k = 0; k < sel->n; k++) {
    const char *w = tsr_variant_unavailable(&table[sel->index[k]]);
    if (!w) can++;
    else if (!why) why = w;
    if (w && sel->required[k] && first_missing < 0) first_missing = k, why_missing = w;
  }
  const char *missing = first_missing >= 0 ? table[sel->index[first_missing]].name : NULL;
  const int by_name = missing && cli->variants && tsr_variant_named(cli->variants, missing);
  const int nsel = sel->n; /* on an error the selection is freed; its spec stays for the message */
  if ((nsel > 0 && can == 0 && !by_name) || missing) tsr_selection_free(sel);
  if (nsel > 0 && can == 0 && !by_name)
    return TSR_RAISE(TSR_ERR_UNSUPPORTED, "nothing ran: %s (%d variant%s: %s)", why, nsel,
                     nsel == 1 ? "" : "s", sel->spec);
  if (missing)
    return TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s not run: %s (asked for by %s)", missing, why_missing,
                     by_name ? "name" : "--device cuda");
  return TSR_SUCCESS;
}

int tsr_run_select(const tsr_cli_t *cli, const tsr_variant_t *table, int n,
                   const char *cpu_default, const char *cuda_default, tsr_selection_t *sel) {
  TSR_CALL(tsr_selection_pick(cli, table, n, cpu_default, cuda_default, sel));
  TSR_CALL(tsr_selection_check(sel, table, cli));
  return TSR_SUCCESS;
}

void tsr_selection_free(tsr_selection_t *sel) {
  free(sel->index);
  free(sel->required);
  sel->index = NULL;
  sel->required = NULL;
  sel->n = 0;
}

int tsr_selection_has(const tsr_selection_t *sel, int i, int *required) {
  for (int k = 0; k < sel->n; k++)
    if (sel->index[k] == i) {
      if (required) *required = sel->required[k];
      return 1;
    }
  return 0;
}

/* ------------------------------------------------------------ --variant auto */

int tsr_auto_cache_path(char *buf, size_t n) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int k;
  if (xdg && *xdg) k = snprintf(buf, n, "%s/tessera/variant-auto.tsv", xdg);
  else if (home && *home) k = snprintf(buf, n, "%s/.cache/tessera/variant-auto.tsv", home);
  else return TSR_RAISE(TSR_ERR_IO, "--variant auto: neither XDG_CACHE_HOME nor HOME is set: no cache");
  TSR_CHECK(k > 0 && (size_t)k < n, TSR_ERR_IO, "--variant auto: the cache path is too long");
  return TSR_SUCCESS;
}

/* The key of a choice: prog | problem | device | build, tabs and newlines
 * made spaces. */
static void tsr__auto_key(const tsr_auto_t *a, char *key, size_t n) {
  tsr_build_t b;
  tsr_build_info(&b);
  snprintf(key, n, "%s | %s | %s | %s %s%s", a->prog, a->problem ? a->problem : "",
           a->device ? a->device : "", b.version, b.commit,
           tsr_device_cuda_built() ? " cuda" : "");
  for (char *p = key; *p; p++)
    if (*p == '\t' || *p == '\n' || *p == '\r') *p = ' ';
}

/* The cache's lines (key, name, seconds). */
typedef struct {
  char **line;
  int n, cap;
  int corrupt; /* a line that is not KEY<TAB>NAME<TAB>SECONDS */
} tsr__auto_cache_t;

static void tsr__auto_cache_free(tsr__auto_cache_t *c) {
  for (int i = 0; i < c->n; i++) free(c->line[i]);
  free(c->line);
  memset(c, 0, sizeof *c);
}

/* Whether s is KEY<TAB>NAME<TAB>SECONDS; name and seconds out. */
static int tsr__auto_parse(const char *s, const char **name, size_t *namelen, double *sec) {
  const char *t1 = strchr(s, '\t');
  if (!t1 || t1 == s) return 0;
  const char *t2 = strchr(t1 + 1, '\t');
  if (!t2 || t2 == t1 + 1 || strchr(t2 + 1, '\t')) return 0;
  char *end;
  const double v = strtod(t2 + 1, &end);
  if (end == t2 + 1 || *end || !(v >= 0)) return 0;
  *name = t1 + 1, *namelen = (size_t)(t2 - t1 - 1), *sec = v;
  return 1;
}

/* Read the cache (a missing file is empty; a corrupt one: c->corrupt and
 * no lines). */
static void tsr__auto_cache_read(const char *path, tsr__auto_cache_t *c) {
  memset(c, 0, sizeof *c);
  FILE *f = fopen(path, "r");
  if (!f) return;
  char buf[2048];
  int lineno = 0;
  while (fgets(buf, sizeof buf, f)) {
    lineno++;
    size_t len = strlen(buf);
    const int whole = len > 0 && buf[len - 1] == '\n';
    if (whole) buf[--len] = 0;
    const char *name;
    size_t nl;
    double sec;
    if ((!whole && !feof(f)) || !tsr__auto_parse(buf, &name, &nl, &sec)) {
      c->corrupt = lineno;
      break;
    }
    if (c->n == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 16;
      char **nlines = realloc(c->line, sizeof(char *) * (size_t)c->cap);
      if (!nlines) break;
      c->line = nlines;
    }
    if (!(c->line[c->n] = strdup(buf))) break;
    c->n++;
  }
  fclose(f);
  if (c->corrupt) {
    const int at = c->corrupt;
    tsr__auto_cache_free(c);
    c->corrupt = at;
  }
}

/* mkdir -p of the directory of path. */
static int tsr__auto_mkdirs(const char *path) {
  char d[512];
  snprintf(d, sizeof d, "%s", path);
  char *slash = strrchr(d, '/');
  if (!slash) return 0;
  *slash = 0;
  for (char *p = d + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(d, 0777) && errno != EEXIST) return -1;
      *p = '/';
    }
  return mkdir(d, 0777) && errno != EEXIST ? -1 : 0;
}

/* Store key -> name (rank 0): the other keys kept, written to a temporary
 * beside the file and renamed over it. 0, or -1 with errno. */
static int tsr__auto_store(const char *path, const char *key, const char *name, double sec) {
  tsr__auto_cache_t c;
  tsr__auto_cache_read(path, &c);
  if (tsr__auto_mkdirs(path)) return tsr__auto_cache_free(&c), -1;
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
  const int fd = mkstemp(tmp);
  if (fd < 0) return tsr__auto_cache_free(&c), -1;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    unlink(tmp);
    return tsr__auto_cache_free(&c), -1;
  }
  const size_t kl = strlen(key);
  for (int i = 0; i < c.n; i++)
    if (!(strncmp(c.line[i], key, kl) == 0 && c.line[i][kl] == '\t')) fprintf(f, "%s\n", c.line[i]);
  fprintf(f, "%s\t%s\t%.6e\n", key, name, sec);
  tsr__auto_cache_free(&c);
  const int bad = ferror(f) | fclose(f);
  if (bad || rename(tmp, path)) {
    const int e = errno;
    unlink(tmp);
    errno = e;
    return -1;
  }
  return 0;
}

/* Rank 0: the cached candidate of key, or -1. */
static int tsr__auto_lookup(const tsr_auto_t *a, const char *path, const char *key, double *sec) {
  tsr__auto_cache_t c;
  tsr__auto_cache_read(path, &c);
  if (c.corrupt)
    fprintf(stderr, "%s: warning: the cache %s: line %d is not KEY<TAB>VARIANT<TAB>SECONDS: ignored "
            "(it is rewritten after the trial)\n", a->prog, path, c.corrupt);
  int found = -1;
  const size_t kl = strlen(key);
  for (int i = 0; i < c.n && found < 0; i++) {
    if (strncmp(c.line[i], key, kl) || c.line[i][kl] != '\t') continue;
    const char *name;
    size_t nl;
    if (!tsr__auto_parse(c.line[i], &name, &nl, sec)) continue;
    for (int k = 0; k < a->ncand; k++)
      if (strlen(a->names[k]) == nl && strncmp(a->names[k], name, nl) == 0) found = k;
  }
  tsr__auto_cache_free(&c);
  return found;
}

int tsr_auto_choose(const tsr_auto_t *a, MPI_Comm comm, tsr_auto_result_t *out) {
  memset(out, 0, sizeof *out);
  out->winner = -1;
  TSR_CHECK(a->ncand > 0, TSR_ERR_ARG, "--variant auto: no candidate variants");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  char key[1024];
  tsr__auto_key(a, key, sizeof key);
  int have_path = 0;
  if (rank == 0) {
    have_path = tsr_auto_cache_path(out->path, sizeof out->path) == TSR_SUCCESS;
    if (!have_path) {
      fprintf(stderr, "%s: warning: %s\n", a->prog, tsr_error_message());
      tsr_error_clear();
      out->path[0] = 0;
    }
  }
  /* rank 0: the cached choice */
  double d[2] = {-1, 0}; /* winner, seconds */
  if (rank == 0 && have_path && !a->retune) d[0] = tsr__auto_lookup(a, out->path, key, &d[1]);
  TSR_CALL_MPI(MPI_Bcast(d, 2, MPI_DOUBLE, 0, comm));
  if (d[0] >= 0) {
    out->winner = (int)d[0], out->cached = 1, out->seconds = d[1];
    snprintf(out->note, sizeof out->note, "auto: cached choice");
  } else { /* the trial: every candidate, the fastest wins (rank 0's times decide) */
    int best = -1;
    double bsec = 0;
    for (int k = 0; k < a->ncand; k++) {
      double sec = -1;
      TSR_CALL(a->trial(a->ctx, k, &sec));
      if (sec < 0) continue;
      out->tried++;
      if (best < 0 || sec < bsec) best = k, bsec = sec;
    }
    d[0] = best, d[1] = bsec;
    TSR_CALL_MPI(MPI_Bcast(d, 2, MPI_DOUBLE, 0, comm));
    TSR_CHECK(d[0] >= 0, TSR_ERR_UNSUPPORTED, "--variant auto: none of the %d candidates ran", a->ncand);
    out->winner = (int)d[0], out->seconds = d[1];
    snprintf(out->note, sizeof out->note, "auto: best of %d in a trial", out->tried);
    if (rank == 0 && have_path && tsr__auto_store(out->path, key, a->names[out->winner], out->seconds))
      fprintf(stderr, "%s: warning: cannot store the choice in %s: %s\n", a->prog, out->path,
              strerror(errno));
  }
  if (rank == 0 && !a->quiet) {
    if (out->cached)
      printf("%s: --variant auto: %s (cached in %s: %.4g us in its trial; --retune to time again)\n",
             a->prog, a->names[out->winner], out->path, out->seconds * 1e6);
    else
      printf("%s: --variant auto: %s: %.4g us, the fastest of %d candidate%s in a trial%s%s\n", a->prog,
             a->names[out->winner], out->seconds * 1e6, out->tried, out->tried == 1 ? "" : "s",
             out->path[0] ? "; stored in " : "", out->path);
  }
  return TSR_SUCCESS;
}

typedef struct {
  const tsr_cli_t *cli;
  tsr_auto_run_fn run;
  void *ctx;
} tsr__auto_rows_t;

static int tsr__auto_row_trial(void *ctx, int c, double *sec) {
  const tsr__auto_rows_t *X = ctx;
  tsr_cli_t t = *X->cli;
  t.runs = t.runs < 3 ? t.runs : 3, t.warmup = t.warmup < 1 ? t.warmup : 1, t.verify = 0, t.quiet = 1;
  tsr_report_t *scratch = NULL;
  TSR_CALL(tsr_report_create(&scratch));
  int rc = X->run(X->ctx, c, &t, scratch);
  const tsr_result_t *row = rc ? NULL : tsr_report_row(scratch, -1);
  *sec = row && !row->notrun && row->time.n > 0 ? row->time.median : -1;
  tsr_report_destroy(&scratch);
  TSR_CALL(rc);
  return TSR_SUCCESS;
}

int tsr_auto_run(const tsr_cli_t *cli, MPI_Comm comm, const char *problem, const char *device, int ncand,
                 const char *const *names, tsr_auto_run_fn run, void *ctx, tsr_report_t *rep) {
  tsr__auto_rows_t X = {cli, run, ctx};
  const tsr_auto_t a = {cli->prog, problem, device, ncand, names, tsr__auto_row_trial, &X, cli->retune,
                        cli->quiet};
  tsr_auto_result_t res;
  TSR_CALL(tsr_auto_choose(&a, comm, &res));
  const int n0 = tsr_report_nrows(rep);
  TSR_CALL(run(ctx, res.winner, cli, rep));
  tsr_result_t *row = tsr_report_nrows(rep) > n0 ? tsr_report_row(rep, -1) : NULL;
  if (row && !row->notrun) {
    char buf[2 * sizeof row->note];
    snprintf(buf, sizeof buf, "%s%s%s", res.note, row->note[0] ? "; " : "", row->note);
    snprintf(row->note, sizeof row->note, "%.*s", (int)sizeof row->note - 1, buf);
  }
  return TSR_SUCCESS;
}

/* ------------------------------------------------------------ rows */

void tsr_result_init(tsr_result_t *row, const char *app, const tsr_variant_t *v,
                     const tsr_device_t *dev, int required) {
  memset(row, 0, sizeof *row);
  snprintf(row->app, sizeof row->app, "%s", app);
  if (v) snprintf(row->variant, sizeof row->variant, "%s", v->name);
  row->kind = dev ? dev->kind : v ? v->device : TSR_DEV_CPU;
  if (dev) {
    snprintf(row->device, sizeof row->device, "%s", dev->name);
  } else if (row->kind == TSR_DEV_CPU) {
    tsr_device_t cpu;
    if (tsr_device_select(MPI_COMM_SELF, TSR_DEV_CPU, &cpu) == 0)
      snprintf(row->device, sizeof row->device, "%s", cpu.name);
  } else {
    snprintf(row->device, sizeof row->device, "cuda");
  }
  snprintf(row->precision, sizeof row->precision, "-");
  int init = 0, size = 1;
  MPI_Initialized(&init);
  if (init) MPI_Comm_size(MPI_COMM_WORLD, &size);
  row->ranks = size;
  row->verify = TSR_VERIFY_NA;
  row->required = required;
}

void tsr_result_notrun(tsr_result_t *row, const char *fmt, ...) {
  char why[sizeof row->note];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  snprintf(row->note, sizeof row->note, "not run: %.*s", (int)(sizeof row->note - 10), why);
  row->notrun = 1;
  row->verify = TSR_VERIFY_NA;
  memset(&row->time, 0, sizeof row->time);
  row->bytes = row->ceiling = row->fom = 0;
  row->figure[0] = 0;
}

/* ------------------------------------------------------------ harness */

int tsr_run(const tsr_run_t *sp, tsr_run_result_t *out) {
  TSR_CHECK(sp && out && sp->run && sp->dev && sp->runs >= 1 && sp->warmup >= 0 &&
                sp->nextra >= 0 && sp->nextra <= TSR_RUN_MAXEXTRA,
            TSR_ERR_ARG, "tsr_run: bad arguments");
  memset(out, 0, sizeof *out);
  int rank = 0;
  MPI_Comm_rank(sp->comm, &rank);
  const int ne = sp->nextra, stride = 1 + ne;
  const double per = sp->per > 0 ? sp->per : 1;
  double *t = malloc(sizeof(double) * (size_t)sp->runs * (size_t)stride);
  double *col = malloc(sizeof(double) * (size_t)sp->runs);
  tsr_timer_t *timer = NULL;
  int rc = t && col ? TSR_SUCCESS : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate %d samples", sp->runs);
  if (!rc && sp->timing == TSR_TIME_DEVICE) rc = tsr_timer_create(sp->dev, &timer);
  rc = tsr_error_agree(sp->comm, rc);
  const double start = tsr_wtime();
  double said = start, spent = 0;
  int printed = 0, done = 0;
  for (int k = 0; !rc && k < sp->warmup + sp->runs; k++) {
    const int timed = k >= sp->warmup;
    if (timed && sp->max_seconds > 0 && done >= (sp->min_runs > 0 ? sp->min_runs : 1) &&
        spent >= sp->max_seconds)
      break; /* spent is the same on every rank (reduced) */
    tsr_run_sample_t s;
    memset(&s, 0, sizeof s);
    s.warmup = !timed;
    s.k = timed ? k - sp->warmup : k;
    if (sp->reset) rc = sp->reset(sp->ctx, &s);
    if (!rc) rc = tsr_device_sync(sp->dev);
    rc = tsr_error_agree(sp->comm, rc);
    if (rc) break;
    if (sp->barrier) MPI_Barrier(sp->comm);
    double t0 = 0;
    if (sp->timing == TSR_TIME_DEVICE) rc = tsr_timer_start(timer);
    else t0 = tsr_wtime();
    if (!rc) rc = sp->run(sp->ctx, &s);
    if (!rc && sp->timing == TSR_TIME_DEVICE) rc = tsr_timer_stop(timer, &s.seconds);
    if (!rc && sp->timing == TSR_TIME_WALL) {
      rc = tsr_device_sync(sp->dev);
      s.seconds = tsr_wtime() - t0;
    }
    rc = tsr_error_agree(sp->comm, rc);
    if (rc) break;
    double v[1 + TSR_RUN_MAXEXTRA];
    v[0] = s.seconds / per;
    for (int e = 0; e < ne; e++) v[1 + e] = s.extra[e];
    if (MPI_Allreduce(MPI_IN_PLACE, v, stride, MPI_DOUBLE, MPI_MAX, sp->comm) != MPI_SUCCESS) {
      rc = TSR_RAISE(TSR_ERR_MPI, "MPI_Allreduce of the run times failed");
      break;
    }
    if (timed) {
      memcpy(t + (size_t)done * stride, v, sizeof(double) * (size_t)stride);
      spent += v[0] * per;
      done++;
    }
    const double now = tsr_wtime();
    const int last = k == sp->warmup + sp->runs - 1;
    if (!sp->quiet && rank == 0 && now - start >= TSR_RUN_PROGRESS_S &&
        (now - said >= TSR_RUN_PROGRESS_S || (last && printed))) {
      printf("%s: %s: %s %d/%d, %.1f s\n", sp->prog ? sp->prog : "tessera",
             sp->label ? sp->label : "", timed ? "run" : "warm-up",
             timed ? done : k + 1, timed ? sp->runs : sp->warmup, now - start);
      fflush(stdout);
      said = now;
      printed = 1;
    }
  }
  if (!rc) {
    for (int e = 0; e < stride; e++) {
      for (int r = 0; r < done; r++) col[r] = t[(size_t)r * stride + e];
      if (e == 0) out->time = tsr_stats(col, done);
      else out->extra[e - 1] = tsr_stats(col, done);
    }
  }
  if (timer) tsr_timer_destroy(&timer);
  free(t);
  free(col);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : TSR_SUCCESS;
}

/* ------------------------------------------------------------ cache */

static double tsr__llc_cache = -1;

/* Sum of the sizes of the distinct caches of one level (sysfs), 0 if none. */
static double tsr__llc_sysfs(int level) {
  double total = 0;
  char seen[64][128];
  int nseen = 0;
  for (int cpu = 0; cpu < 4096; cpu++) {
    int found_cpu = 0;
    for (int idx = 0; idx < 8; idx++) {
      char path[160], buf[128];
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
      FILE *f = fopen(path, "r");
      if (!f) break;
      found_cpu = 1;
      int lv = 0;
      if (fscanf(f, "%d", &lv) != 1) lv = 0;
      fclose(f);
      if (lv != level) continue;
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
               cpu, idx);
      f = fopen(path, "r");
      if (!f || !fgets(buf, sizeof buf, f)) {
        if (f) fclose(f);
        continue;
      }
      fclose(f);
      buf[strcspn(buf, "\n")] = 0;
      int dup = 0;
      for (int s = 0; s < nseen && !dup; s++) dup = strcmp(seen[s], buf) == 0;
      if (dup) continue;
      if (nseen < 64) snprintf(seen[nseen++], sizeof seen[0], "%s", buf);
      snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
      f = fopen(path, "r");
      long kb = 0;
      char unit = 'K';
      if (f && fscanf(f, "%ld%c", &kb, &unit) >= 1)
        total += (double)kb * (unit == 'M' ? 1048576.0 : unit == 'K' ? 1024.0 : 1.0);
      if (f) fclose(f);
    }
    if (!found_cpu) break;
  }
  return total;
}

double tsr_cpu_llc_bytes(void) {
  if (tsr__llc_cache >= 0) return tsr__llc_cache;
  double b = tsr__llc_sysfs(3);
  if (b <= 0) b = tsr__llc_sysfs(2);
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (b <= 0) {
    long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (v > 0) b = (double)v;
  }
#endif
  tsr__llc_cache = b > 0 ? b : 0;
  return tsr__llc_cache;
}
