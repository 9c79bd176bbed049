/* run.c: choosing the variants to run, the skip rule, result rows and the
 * run harness (warm-up, timed runs, statistics, progress). */
#include "config.h"
#include "tessera/run.h"
#include "tessera/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ selection */

const char *tsr_variant_unavailable(const tsr_variant_t *v) {
  if (v->device != TSR_DEV_CUDA) return NULL;
  if (!tsr_device_cuda_built()) return "built without CUDA";
  if (tsr_device_cuda_count() == 0) return "no CUDA device";
  return NULL;
}

/* 1 when token names table entry i exactly (not by "all" or a pattern). */
static int tsr__named(const char *spec, const char *name) {
  const char *p = spec;
  size_t n = strlen(name);
  while (*p) {
    while (*p == ' ' || *p == ',') p++;
    size_t k = strcspn(p, ",");
    size_t e = k;
    while (e > 0 && p[e - 1] == ' ') e--;
    if (e == n && strncmp(p, name, n) == 0) return 1;
    p += k;
  }
  return 0;
}

int tsr_selection_pick(const tsr_cli_t *cli, const tsr_variant_t *table, int n,
                       const char *cpu_default, const char *cuda_default, tsr_selection_t *sel) {
  memset(sel, 0, sizeof *sel);
  const char *dev = cli->device ? cli->device : "auto";
  const int want_cuda = strcmp(dev, "cuda") == 0;
  const char *spec = cli->variants;
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
  for (int k = 0; k < sel->n; k++) {
    const tsr_variant_t *v = &table[sel->index[k]];
    sel->required[k] = (cli->variants && tsr__named(cli->variants, v->name)) ||
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
  const int by_name = missing && cli->variants && tsr__named(cli->variants, missing);
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
