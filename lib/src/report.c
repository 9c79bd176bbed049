/* report.c: timing statistics, the measured bandwidth ceiling, and the
 * result table / CSV printed by every app. */
#include "config.h"
#include "tessera/report.h"
#include "tessera/error.h"
#include "tessera/run.h"
#include "tessera/io.h"
#include "tessera/provenance.h"

#include <stdarg.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef TSR_HAVE_CUDA
#include "tessera/cuda.h"
#endif

static int tsr__cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

tsr_stats_t tsr_stats(double *s, int n) {
  tsr_stats_t st = {0, 0, 0, 0, 0};
  if (n <= 0) return st;
  qsort(s, (size_t)n, sizeof *s, tsr__cmp_double);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += s[i];
  st.n = n;
  st.min = s[0];
  st.max = s[n - 1];
  st.mean = sum / n;
  st.median = (n % 2) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  return st;
}

const char *tsr_verify_name(tsr_verify_t v) {
  switch (v) {
  case TSR_VERIFY_PASS: return "PASS";
  case TSR_VERIFY_FAIL: return "FAIL";
  case TSR_VERIFY_SKIPPED: return "not verified";
  default: return "-";
  }
}

/* ---------------------------------------------------------------- ceiling */

static double tsr__ceiling_cache[2];

/* The copy bandwidth of this process's threads: two buffers of twice the
 * machine's last-level caches (tsr_cpu_llc_bytes, so that a copy's 4x
 * footprint streams through memory), at least 64 MiB and at most 256 MiB each (256 MiB where the
 * caches are unknown); each timed repetition copies 256 MiB, back and
 * forth between them, so that a repetition lasts as long as one copy of
 * two 256 MiB buffers would and is as little disturbed by the scheduler. */
static int tsr__ceiling_cpu(double *bw) {
  const size_t lo_b = (size_t)64 << 20, hi_b = (size_t)256 << 20, llc = (size_t)tsr_cpu_llc_bytes();
  size_t bytes = llc ? 2 * llc : hi_b;
  bytes = bytes < lo_b ? lo_b : bytes > hi_b ? hi_b : (bytes + 4095) & ~(size_t)4095;
  const int passes = (int)((hi_b + bytes - 1) / bytes);
  char *a = aligned_alloc(4096, bytes), *b = aligned_alloc(4096, bytes);
  if (!a || !b) {
    free(a);
    free(b);
    return TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate 2 x %zu MiB to measure the copy bandwidth",
                     bytes >> 20);
  }
  memset(a, 1, bytes);
  memset(b, 2, bytes);
  enum { NREP = 7 };
  double t[NREP];
  for (int r = 0; r < NREP; r++) {
    double t0 = tsr_wtime();
#pragma omp parallel
    {
      int nt = 1, id = 0;
#ifdef _OPENMP
      nt = omp_get_num_threads();
      id = omp_get_thread_num();
#endif
      size_t chunk = (bytes / (size_t)nt + 63) & ~(size_t)63;
      size_t lo = (size_t)id * chunk, hi = lo + chunk > bytes ? bytes : lo + chunk;
      for (int p = 0; p < passes && lo < hi; p++) /* each thread its own chunk: no barrier */
        if (p % 2) memcpy(a + lo, b + lo, hi - lo);
        else memcpy(b + lo, a + lo, hi - lo);
    }
    t[r] = tsr_wtime() - t0;
  }
  tsr_stats_t st = tsr_stats(t, NREP);
  *bw = 2.0 * (double)bytes * passes / st.median;
  free(a);
  free(b);
  return TSR_SUCCESS;
}

#ifdef TSR_HAVE_CUDA
static int tsr__ceiling_cuda(const tsr_device_t *dev, double *bw) {
  size_t freeb = 0, total = 0;
  TSR_CALL_CUDA(cudaMemGetInfo(&freeb, &total));
  size_t bytes = (size_t)1 << 30;
  while (bytes > ((size_t)16 << 20) && 2 * bytes > freeb / 2) bytes /= 2;
  void *a = NULL, *b = NULL;
  TSR_CALL(tsr_device_malloc(dev, bytes, &a));
  int rc = tsr_device_malloc(dev, bytes, &b);
  if (rc) {
    tsr_device_free(dev, &a);
    return rc;
  }
  enum { NREP = 20 };
  double t[NREP];
  cudaEvent_t e0 = NULL, e1 = NULL;
  /* every call checked: the first failure is the one reported, and the
     events and buffers go back whatever happened */
  cudaError_t err = cudaEventCreate(&e0);
  if (err == cudaSuccess) err = cudaEventCreate(&e1);
  if (err == cudaSuccess) err = cudaMemset(a, 1, bytes);
  if (err == cudaSuccess) err = cudaMemset(b, 2, bytes);
  for (int r = 0; r < 3 && err == cudaSuccess; r++) err = cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  for (int r = 0; r < NREP && err == cudaSuccess; r++) {
    float ms = 0;
    err = cudaEventRecord(e0, 0);
    if (err == cudaSuccess) err = cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0);
    if (err == cudaSuccess) err = cudaEventRecord(e1, 0);
    if (err == cudaSuccess) err = cudaEventSynchronize(e1);
    if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, e0, e1);
    t[r] = 1e-3 * ms;
  }
  if (e0) cudaEventDestroy(e0);
  if (e1) cudaEventDestroy(e1);
  if (err != cudaSuccess) (void)cudaGetLastError(); /* reported below, not left for the next call */
  tsr_device_free(dev, &a);
  tsr_device_free(dev, &b);
  TSR_CHECK(err == cudaSuccess, TSR_ERR_CUDA, "measuring the copy bandwidth: %s",
            cudaGetErrorString(err));
  tsr_stats_t st = tsr_stats(t, NREP);
  TSR_CHECK(st.median > 0, TSR_ERR_CUDA, "measuring the copy bandwidth: the copies took no time");
  *bw = 2.0 * (double)bytes / st.median;
  return TSR_SUCCESS;
}
#endif

int tsr_bandwidth_ceiling(const tsr_device_t *dev, double *bw) {
  int k = dev->kind == TSR_DEV_CUDA ? 1 : 0;
  if (tsr__ceiling_cache[k] > 0) {
    *bw = tsr__ceiling_cache[k];
    return TSR_SUCCESS;
  }
  if (k == 0) {
    TSR_CALL(tsr__ceiling_cpu(bw));
  } else {
#ifdef TSR_HAVE_CUDA
    TSR_CALL(tsr__ceiling_cuda(dev, bw));
#else
    return TSR_RAISE(TSR_ERR_NOCUDA, "built without CUDA");
#endif
  }
  tsr__ceiling_cache[k] = *bw;
  return TSR_SUCCESS;
}

/* ---------------------------------------------------------------- report */

struct tsr_report {
  int n, cap;
  tsr_result_t *rows;
  char extra_header[512];
};

int tsr_report_create(tsr_report_t **out) {
  *out = calloc(1, sizeof **out);
  TSR_CHECK(*out, TSR_ERR_ALLOC, "out of memory");
  return TSR_SUCCESS;
}

int tsr_report_add(tsr_report_t *r, const tsr_result_t *row) {
  if (r->n == r->cap) {
    int cap = r->cap ? 2 * r->cap : 16;
    tsr_result_t *p = realloc(r->rows, (size_t)cap * sizeof *p);
    TSR_CHECK(p, TSR_ERR_ALLOC, "out of memory");
    r->rows = p;
    r->cap = cap;
  }
  r->rows[r->n++] = *row;
  return TSR_SUCCESS;
}

int tsr_report_set_extra_columns(tsr_report_t *r, const char *header) {
  TSR_CHECK(strlen(header) < sizeof r->extra_header, TSR_ERR_ARG, "CSV header too long");
  snprintf(r->extra_header, sizeof r->extra_header, "%s", header);
  return TSR_SUCCESS;
}

int tsr_report_failures(const tsr_report_t *r) {
  int f = 0;
  for (int i = 0; i < r->n; i++) f += !r->rows[i].notrun && r->rows[i].verify == TSR_VERIFY_FAIL;
  return f;
}

int tsr_report_ran(const tsr_report_t *r) {
  int k = 0;
  for (int i = 0; i < r->n; i++) k += !r->rows[i].notrun;
  return k;
}

int tsr_report_nrows(const tsr_report_t *r) { return r->n; }

tsr_result_t *tsr_report_row(tsr_report_t *r, int i) {
  if (i < 0) i += r->n;
  return i >= 0 && i < r->n ? &r->rows[i] : NULL;
}

static double tsr__gbs(const tsr_result_t *x) {
  return (x->bytes > 0 && x->time.median > 0) ? x->bytes / x->time.median * 1e-9 : 0;
}
static double tsr__pct(const tsr_result_t *x) {
  return (x->bytes > 0 && x->ceiling > 0 && x->time.median > 0)
             ? 100.0 * (x->bytes / x->ceiling) / x->time.median
             : 0;
}
/* A CPU row whose working set fits in the last-level cache: no DRAM floor. */
static int tsr__in_cache(const tsr_result_t *x) {
  if (x->notrun || x->kind != TSR_DEV_CPU || x->footprint <= 0 || tsr__pct(x) <= 0) return 0;
  const double llc = tsr_cpu_llc_bytes();
  return llc > 0 && x->footprint <= llc;
}

static int tsr__rank0(MPI_Comm comm) {
  int rank = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(comm, &rank);
  return rank == 0;
}

/* "not run: <why>" of a row, without the prefix. */
static const char *tsr__why(const tsr_result_t *x) {
  return strncmp(x->note, "not run: ", 9) == 0 ? x->note + 9 : x->note;
}

/* The not-run summary: "not run: 3 of 4 rows: built without CUDA (3)". */
static void tsr__notrun_summary(const tsr_report_t *r, char *buf, size_t n) {
  int nn = 0, shown = 0, more = 0;
  for (int i = 0; i < r->n; i++) nn += r->rows[i].notrun;
  size_t k = (size_t)snprintf(buf, n, "not run: %d of %d row%s:", nn, r->n, r->n == 1 ? "" : "s");
  for (int i = 0; i < r->n && k < n; i++) {
    if (!r->rows[i].notrun) continue;
    const char *why = tsr__why(&r->rows[i]);
    int seen = 0, count = 0;
    for (int j = 0; j < r->n; j++)
      if (r->rows[j].notrun && strcmp(tsr__why(&r->rows[j]), why) == 0) {
        if (j < i) seen = 1;
        count++;
      }
    if (seen) continue;
    if (shown == 4) {
      more++;
      continue;
    }
    k += (size_t)snprintf(buf + k, n - k, "%s %s (%d)", shown ? ";" : "", why, count);
    shown++;
  }
  if (more && k < n)
    snprintf(buf + k, n - k, "; %d more reason%s in the table", more, more == 1 ? "" : "s");
}

void tsr_report_print(const tsr_report_t *r, MPI_Comm comm, FILE *f) {
  if (!tsr__rank0(comm) || r->n == 0) return;
  size_t wv = 7, wd = 6, wc = 0;
  int cached = 0, notrun = 0, prec = 0; /* prec: a precision column when rows differ in it */
  for (int i = 0; i < r->n; i++) {
    const tsr_result_t *x = &r->rows[i];
    prec |= strcmp(x->precision, r->rows[0].precision) != 0;
    if (strlen(x->variant) > wv) wv = strlen(x->variant);
    if (strlen(x->device) > wd) wd = strlen(x->device);
    if (strlen(x->config) > wc) wc = strlen(x->config);
    cached |= tsr__in_cache(x);
    notrun += x->notrun;
  }
  if (wc > 0 && wc < 6) wc = 6;
  fprintf(f, "%-10s %-*s %-*s%s%s%-*s %5s %11s %11s %9s %7s  %s\n", "app", (int)wv, "variant",
          (int)wc, wc ? "config" : "", wc ? " " : "", prec ? "precision " : "", (int)wd, "device",
          "ranks", "median[us]", "min[us]", "GB/s", "%floor", "verify");
  for (int i = 0; i < r->n; i++) {
    const tsr_result_t *x = &r->rows[i];
    char med[24] = "-", mn[24] = "-", gbs[16] = "-", pct[16] = "-";
    if (!x->notrun) {
      snprintf(med, sizeof med, "%.1f", 1e6 * x->time.median);
      snprintf(mn, sizeof mn, "%.1f", 1e6 * x->time.min);
      if (x->bytes > 0) snprintf(gbs, sizeof gbs, "%.1f", tsr__gbs(x));
      if (tsr__in_cache(x)) snprintf(pct, sizeof pct, "-*");
      else if (tsr__pct(x) > 0) snprintf(pct, sizeof pct, "%.1f", tsr__pct(x));
    }
    char pr[16] = "";
    if (prec) snprintf(pr, sizeof pr, "%-9s ", x->precision);
    fprintf(f, "%-10s %-*s %-*s%s%s%-*s %5d %11s %11s %9s %7s  %s%s%s%s%s\n", x->app, (int)wv,
            x->variant, (int)wc, x->config, wc ? " " : "", pr, (int)wd, x->device, x->ranks, med, mn,
            gbs, pct, x->notrun ? "-" : tsr_verify_name(x->verify), x->figure[0] ? "  " : "",
            x->figure, x->note[0] ? "  " : "", x->note);
  }
  if (cached)
    fprintf(f, "* the CPU working set fits in the last-level cache (%.0f MiB): no DRAM floor\n",
            tsr_cpu_llc_bytes() / 1048576.0);
  if (notrun) {
    char line[1024];
    tsr__notrun_summary(r, line, sizeof line);
    fprintf(f, "%s\n", line);
  }
  fflush(f);
}

void tsr_csv_field(char *buf, size_t n, const char *s) {
  size_t k = strlen(buf);
  if (k > 0 && k + 1 < n) buf[k++] = ',';
  int q = strpbrk(s, ",\"\n") != NULL;
  if (q && k + 1 < n) buf[k++] = '"';
  for (; *s && k + 2 < n; s++) {
    if (*s == '"') buf[k++] = '"';
    buf[k++] = *s;
  }
  if (q && k + 1 < n) buf[k++] = '"';
  buf[k < n ? k : n - 1] = 0;
}

static void tsr__csv_put(FILE *f, const char *s) {
  char b[1024] = "";
  tsr_csv_field(b, sizeof b, s);
  fputs(b, f);
}

int tsr_report_write_csv(const tsr_report_t *r, MPI_Comm comm, const char *path) {
  int init = 0, rc = TSR_SUCCESS;
  MPI_Initialized(&init);
  if (tsr__rank0(comm)) {
    char tmp[4096];
    int fd = tsr_tmp_create(path, tmp, sizeof tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
      if (fd >= 0) close(fd), unlink(tmp), tsr_tmp_forget(tmp);
      rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot create the CSV file", path);
    } else {
      /* the provenance columns, the same in every row */
      tsr_build_t b;
      char date[32], host[256], prov[1024] = "", libs[1024] = "";
      tsr_build_info(&b);
      tsr_utc_now(date, sizeof date);
      tsr_host_name(host, sizeof host);
      tsr_csv_field(prov, sizeof prov, b.version);
      tsr_csv_field(prov, sizeof prov, b.commit);
      tsr_csv_field(prov, sizeof prov, date);
      tsr_csv_field(prov, sizeof prov, host);
      tsr_csv_field(libs, sizeof libs, b.mpi);
      tsr_csv_field(libs, sizeof libs, b.hdf5);
      tsr_csv_field(libs, sizeof libs, b.cuda);
      tsr_csv_field(libs, sizeof libs, b.compiler);
      fprintf(f, "%s%s%s\n", TSR_CSV_COLUMNS, r->extra_header[0] ? "," : "", r->extra_header);
      for (int i = 0; i < r->n; i++) {
        const tsr_result_t *x = &r->rows[i];
        if (x->notrun) continue;
        tsr__csv_put(f, x->app);
        fputc(',', f);
        tsr__csv_put(f, x->variant);
        fprintf(f, ",%s,", prov);
        tsr__csv_put(f, x->device);
        char pct[32] = "";
        if (!tsr__in_cache(x)) snprintf(pct, sizeof pct, "%.2f", tsr__pct(x));
        fprintf(f, ",%d,%s,%lld,%lld,%lld,%d,%.3f,%.3f,%.3f,%.3f,%.0f,%.3f,%.3f,%s,",
                x->ranks, x->precision, (long long)x->size[0], (long long)x->size[1],
                (long long)x->size[2], x->time.n, 1e6 * x->time.median,
                1e6 * x->time.min, 1e6 * x->time.max, 1e6 * x->time.mean, x->bytes, tsr__gbs(x),
                x->ceiling * 1e-9, pct);
        tsr__csv_put(f, x->figure);
        fprintf(f, ",%s,", tsr_verify_name(x->verify));
        tsr__csv_put(f, x->config);
        fputc(',', f);
        tsr__csv_put(f, x->note);
        fprintf(f, ",%s", libs);
        if (r->extra_header[0]) fprintf(f, ",%s", x->extra);
        fputc('\n', f);
      }
      if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot write the CSV file", path);
      }
      tsr_tmp_forget(tmp);
    }
  }
  if (init) rc = tsr_error_agree(comm, rc);
  return rc;
}

/* The FOM metric of a row: its own, else GB/s, else runs per second. */
static double tsr__fom(const tsr_result_t *x, const char **name, const char **unit) {
  if (x->fom_name[0]) {
    *name = x->fom_name, *unit = x->fom_unit;
    return x->fom;
  }
  if (x->bytes > 0) {
    *name = "bandwidth", *unit = "GB/s";
    return tsr__gbs(x);
  }
  *name = "rate", *unit = "runs/s";
  return x->time.median > 0 ? 1.0 / x->time.median : 0;
}

static void tsr__fom_line(const tsr_report_t *r, const char *prog, FILE *f) {
  const tsr_result_t *best = NULL;
  const char *bname = NULL, *name, *unit;
  double bval = 0;
  for (int i = 0; i < r->n; i++) { /* the best that did not fail, in the first row's metric */
    const tsr_result_t *x = &r->rows[i];
    if (x->notrun || x->verify == TSR_VERIFY_FAIL) continue;
    double v = tsr__fom(x, &name, &unit);
    if (!bname) bname = name;
    if (strcmp(name, bname) == 0 && (!best || v > bval)) best = x, bval = v;
  }
  for (int i = 0; i < r->n && !best; i++)
    if (!r->rows[i].notrun) best = &r->rows[i];
  if (!best) return;
  double v = tsr__fom(best, &name, &unit);
  fprintf(f, "FOM %s: variant=%s", prog, best->variant);
  if (best->config[0]) fprintf(f, " config=\"%s\"", best->config);
  fprintf(f, " time_s=%.6g %s=%.6g %s verify=%s\n", best->time.median, name, v, unit,
          best->verify == TSR_VERIFY_PASS ? "PASS" : best->verify == TSR_VERIFY_FAIL ? "FAIL"
          : best->verify == TSR_VERIFY_SKIPPED ? "not-verified" : "-");
  fflush(f);
}

static int tsr__finish(tsr_report_t *r, const tsr_cli_t *cli, MPI_Comm comm) {
  const int ran = tsr_report_ran(r);
  if (ran == 0) {
    char line[1024];
    if (r->n == 0) return TSR_RAISE(TSR_ERR_ARG, "nothing ran: no variant selected");
    tsr__notrun_summary(r, line, sizeof line);
    /* "not run: N of N rows: reasons" -> "nothing ran: reasons" */
    const char *why = strchr(line + 9, ':');
    return TSR_RAISE(TSR_ERR_UNSUPPORTED, "nothing ran: %s", why ? why + 2 : line);
  }
  tsr_report_print(r, comm, stdout);
  if (tsr__rank0(comm) && !cli->quiet && cli->omp_threads > 0) {
    int size = 1, init = 0;
    MPI_Initialized(&init);
    if (init) MPI_Comm_size(comm, &size);
    printf("%d rank%s, %d OpenMP thread%s per rank (%s)\n", size, size == 1 ? "" : "s",
           cli->omp_threads, cli->omp_threads == 1 ? "" : "s", cli->omp_why);
  }
  if (tsr__rank0(comm)) tsr__fom_line(r, cli->prog, stdout);
  if (cli->csv) TSR_CALL(tsr_report_write_csv(r, comm, cli->csv));
  const tsr_result_t *miss = NULL;
  int nmiss = 0;
  for (int i = 0; i < r->n; i++)
    if (r->rows[i].notrun && r->rows[i].required) nmiss++, miss = miss ? miss : &r->rows[i];
  if (miss)
    return TSR_RAISE(TSR_ERR_UNSUPPORTED, "%s%s%s%s not run: %s (asked for%s)%s", miss->variant,
                     miss->config[0] ? " (" : "", miss->config, miss->config[0] ? ")" : "",
                     tsr__why(miss),
                     miss->kind == TSR_DEV_CUDA && cli->device && !strcmp(cli->device, "cuda")
                         ? " by --device cuda" : " by name",
                     nmiss > 1 ? ", and more asked for (see the table)" : "");
  const int failures = tsr_report_failures(r);
  TSR_CHECK(failures == 0, TSR_ERR_VERIFY, "%d row%s FAILED verification", failures,
            failures == 1 ? "" : "s");
  return TSR_SUCCESS;
}

int tsr_report_finish(tsr_report_t *r, const tsr_cli_t *cli, MPI_Comm comm) {
  int init = 0, rc = tsr__finish(r, cli, comm);
  MPI_Initialized(&init);
  return init ? tsr_error_agree(comm, rc) : rc;
}

int tsr_report_destroy(tsr_report_t **r) {
  if (!r || !*r) return TSR_SUCCESS;
  free((*r)->rows);
  free(*r);
  *r = NULL;
  return TSR_SUCCESS;
}
