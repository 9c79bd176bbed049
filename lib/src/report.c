/* report.c: timing statistics, the measured bandwidth ceiling, and the
 * result table / CSV printed by every app. */
#include "config.h"
#include "tessera/report.h"
#include "tessera/error.h"

#include <math.h>
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

static int tsr__ceiling_cpu(double *bw) {
  const size_t bytes = (size_t)256 << 20;
  char *a = aligned_alloc(4096, bytes), *b = aligned_alloc(4096, bytes);
  if (!a || !b) {
    free(a);
    free(b);
    return TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate 2 x 256 MiB to measure the copy bandwidth");
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
      if (lo < hi) memcpy(b + lo, a + lo, hi - lo);
    }
    t[r] = tsr_wtime() - t0;
  }
  tsr_stats_t st = tsr_stats(t, NREP);
  *bw = 2.0 * (double)bytes / st.median;
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
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaMemset(a, 1, bytes);
  cudaMemset(b, 2, bytes);
  for (int r = 0; r < 3; r++) cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  for (int r = 0; r < NREP; r++) {
    float ms = 0;
    cudaEventRecord(e0, 0);
    cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0);
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    cudaEventElapsedTime(&ms, e0, e1);
    t[r] = 1e-3 * ms;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaError_t err = cudaGetLastError();
  tsr_device_free(dev, &a);
  tsr_device_free(dev, &b);
  TSR_CHECK(err == cudaSuccess, TSR_ERR_CUDA, "measuring the copy bandwidth: %s",
            cudaGetErrorString(err));
  tsr_stats_t st = tsr_stats(t, NREP);
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

int tsr_report_failures(const tsr_report_t *r) {
  int f = 0;
  for (int i = 0; i < r->n; i++) f += r->rows[i].verify == TSR_VERIFY_FAIL;
  return f;
}

static double tsr__gbs(const tsr_result_t *x) {
  return (x->bytes > 0 && x->time.median > 0) ? x->bytes / x->time.median * 1e-9 : 0;
}
static double tsr__pct(const tsr_result_t *x) {
  return (x->bytes > 0 && x->ceiling > 0 && x->time.median > 0)
             ? 100.0 * (x->bytes / x->ceiling) / x->time.median
             : 0;
}

void tsr_report_print(const tsr_report_t *r, MPI_Comm comm, FILE *f) {
  int rank = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(comm, &rank);
  if (rank != 0 || r->n == 0) return;
  size_t wv = 7, wd = 6;
  for (int i = 0; i < r->n; i++) {
    if (strlen(r->rows[i].variant) > wv) wv = strlen(r->rows[i].variant);
    if (strlen(r->rows[i].device) > wd) wd = strlen(r->rows[i].device);
  }
  fprintf(f, "%-10s %-*s %-*s %5s %11s %11s %9s %7s  %s\n", "app", (int)wv, "variant", (int)wd,
          "device", "ranks", "median[us]", "min[us]", "GB/s", "%floor", "verify");
  for (int i = 0; i < r->n; i++) {
    const tsr_result_t *x = &r->rows[i];
    char gbs[16] = "-", pct[16] = "-";
    if (x->bytes > 0) snprintf(gbs, sizeof gbs, "%.1f", tsr__gbs(x));
    if (tsr__pct(x) > 0) snprintf(pct, sizeof pct, "%.1f", tsr__pct(x));
    fprintf(f, "%-10s %-*s %-*s %5d %11.1f %11.1f %9s %7s  %s%s%s%s%s\n", x->app, (int)wv,
            x->variant, (int)wd, x->device, x->ranks, 1e6 * x->time.median, 1e6 * x->time.min,
            gbs, pct, tsr_verify_name(x->verify), x->figure[0] ? "  " : "", x->figure,
            x->note[0] ? "  " : "", x->note);
  }
  fflush(f);
}

static void tsr__csv_field(FILE *f, const char *s) {
  if (strpbrk(s, ",\"\n")) {
    fputc('"', f);
    for (; *s; s++) {
      if (*s == '"') fputc('"', f);
      fputc(*s, f);
    }
    fputc('"', f);
  } else {
    fputs(s, f);
  }
}

int tsr_report_write_csv(const tsr_report_t *r, MPI_Comm comm, const char *path) {
  int rank = 0, init = 0, rc = TSR_SUCCESS;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(comm, &rank);
  if (rank == 0) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
      rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot create the CSV file", path);
    } else {
      fprintf(f, "app,variant,device,precision,nx,ny,nz,ranks,runs,median_us,min_us,max_us,"
                 "mean_us,bytes,gbs,ceiling_gbs,pct_floor,figure,verify\n");
      for (int i = 0; i < r->n; i++) {
        const tsr_result_t *x = &r->rows[i];
        tsr__csv_field(f, x->app);
        fputc(',', f);
        tsr__csv_field(f, x->variant);
        fputc(',', f);
        tsr__csv_field(f, x->device);
        fprintf(f, ",%s,%lld,%lld,%lld,%d,%d,%.3f,%.3f,%.3f,%.3f,%.0f,%.3f,%.3f,%.2f,",
                x->precision, (long long)x->size[0], (long long)x->size[1],
                (long long)x->size[2], x->ranks, x->time.n, 1e6 * x->time.median,
                1e6 * x->time.min, 1e6 * x->time.max, 1e6 * x->time.mean, x->bytes, tsr__gbs(x),
                x->ceiling * 1e-9, tsr__pct(x));
        tsr__csv_field(f, x->figure);
        fprintf(f, ",%s\n", tsr_verify_name(x->verify));
      }
      if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        rc = TSR_RAISE(TSR_ERR_IO, "%s: cannot write the CSV file", path);
      }
    }
  }
  if (init) rc = tsr_error_agree(comm, rc);
  return rc;
}

int tsr_report_destroy(tsr_report_t **r) {
  if (!r || !*r) return TSR_SUCCESS;
  free((*r)->rows);
  free(*r);
  *r = NULL;
  return TSR_SUCCESS;
}
