/* apps/layoutbench/lb_matmul.c: the matmul, cuBLAS and transform
 * experiments of tsr-layoutbench (Smelko et al., ICA3PP 2022, Figures 2 and 3).
 *
 * Per size N: A and B are random N x N float matrices (|a| in [0.5, 1.5),
 * random signs) made row-major on the host; the reference rows of C are
 * computed in double on plain arrays (matmul_reference_row). Per device,
 * each input layout needed is made once (host tsr_layout_transform from R,
 * then uploaded: the inputs are "already transformed", as in the paper), and
 * each combination is timed, then verified: C is downloaded, transformed
 * back to R on the host, and every checked element must satisfy
 * |c - ref| <= 2 K u sum_k |a||b| (u = 2^-24), a bound for any summation
 * order in float. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/layoutbench/layoutbench.h"

typedef struct {
  int64_t n;
  float *a, *b;         /* row-major N x N inputs */
  int64_t *rows;        /* checked rows, ascending */
  int nrows;
  double *ref, *bound;  /* [nrows][n] */
  float *hc, *hr;       /* download buffer (largest layout), C back in dense R */
  size_t hc_elems;
} host_t;

typedef struct {
  tsr_device_t dev;
  tsr_layout_t L[MATMUL_NKINDS]; /* N x N matrix layout of each kind */
  tsr_layout_t R;                /* dense row-major (the host arrays' layout) */
  float *A[MATMUL_NKINDS], *B[MATMUL_NKINDS], *C, *T; /* device arrays; T: transform target */
  size_t max_elems;
  double peak;                   /* GFLOP/s, 0 if unknown */
} devset_t;

/* What lb_time times. */
typedef struct {
  int what;
  devset_t *D;
  int ia, ib, ic;
  int64_t n;
  const tsr_layout_t *from, *to;
  const float *src;
  float *dst;
} job_t;

static int job_run(void *p) {
  job_t *j = p;
  devset_t *D = j->D;
  switch (j->what) {
  case LB_MATMUL:
    if (D->dev.kind == TSR_DEV_CPU)
      return matmul_cpu(D->L[j->ia], D->A[j->ia], D->L[j->ib], D->B[j->ib], D->L[j->ic], D->C);
    return matmul_cuda(D->L[j->ia], D->A[j->ia], D->L[j->ib], D->B[j->ib], D->L[j->ic], D->C);
  case LB_CUBLAS: return matmul_cublas_cuda(j->n, j->n, j->n, D->A[0], D->B[0], D->C);
  default: return tsr_layout_transform_device(&D->dev, j->from, j->src, j->to, j->dst, sizeof(float));
  }
}

static int kind_index(int kind) {
  for (int i = 0; i < MATMUL_NKINDS; i++)
    if (matmul_kinds[i] == kind) return i;
  return -1;
}

static uint64_t mix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static void host_free(host_t *H) {
  free(H->a);
  free(H->b);
  free(H->rows);
  free(H->ref);
  free(H->bound);
  free(H->hc);
  free(H->hr);
  memset(H, 0, sizeof *H);
}

static int host_setup(const lb_t *B, int64_t n, host_t *H) {
  memset(H, 0, sizeof *H);
  H->n = n;
  size_t nn = (size_t)n * (size_t)n;
  H->a = malloc(nn * sizeof(float));
  H->b = malloc(nn * sizeof(float));
  H->hr = malloc(nn * sizeof(float));
  H->nrows = n <= B->verify_full ? (int)n : (int)TSR_MIN((int64_t)B->verify_rows, n);
  H->rows = malloc((size_t)H->nrows * sizeof *H->rows);
  H->ref = malloc((size_t)H->nrows * (size_t)n * sizeof(double));
  H->bound = malloc((size_t)H->nrows * (size_t)n * sizeof(double));
  if (!H->a || !H->b || !H->hr || !H->rows || !H->ref || !H->bound) {
    host_free(H);
    return TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the host matrices for N = %lld", (long long)n);
  }
  uint64_t s = 0x5eed0004ULL + (uint64_t)n;
  for (size_t i = 0; i < nn; i++) {
    uint64_t r = mix(&s);
    float v = 0.5f + (float)(r >> 40) * (1.0f / 16777216.0f);
    H->a[i] = (r & 1) ? -v : v;
    r = mix(&s);
    v = 0.5f + (float)(r >> 40) * (1.0f / 16777216.0f);
    H->b[i] = (r & 1) ? -v : v;
  }
  if (H->nrows == n) {
    for (int64_t i = 0; i < n; i++) H->rows[i] = i;
  } else { /* evenly spread rows with a random offset, first and last included */
    for (int r = 0; r < H->nrows; r++)
      H->rows[r] = r == 0 ? 0 : r == H->nrows - 1 ? n - 1
                                : (int64_t)r * (n / H->nrows) + (int64_t)(mix(&s) % (uint64_t)(n / H->nrows));
  }
#pragma omp parallel for schedule(dynamic)
  for (int r = 0; r < H->nrows; r++)
    matmul_reference_row(n, n, H->rows[r], H->a, H->b, H->ref + (size_t)r * n,
                         H->bound + (size_t)r * n);
  return TSR_SUCCESS;
}

static void dev_free(devset_t *D) {
  for (int k = 0; k < MATMUL_NKINDS; k++) {
    if (D->A[k]) tsr_device_free(&D->dev, (void **)&D->A[k]);
    if (D->B[k]) tsr_device_free(&D->dev, (void **)&D->B[k]);
  }
  if (D->C) tsr_device_free(&D->dev, (void **)&D->C);
  if (D->T) tsr_device_free(&D->dev, (void **)&D->T);
}

static int dev_setup(const lb_t *B, tsr_devkind_t kind, int64_t n, devset_t *D) {
  memset(D, 0, sizeof *D);
  TSR_CALL(tsr_device_select(MPI_COMM_WORLD, kind, &D->dev));
  D->R = tsr_layout_with_align(tsr_layout_rowmajor(n, n, 1), 1);
  D->max_elems = 0;
  for (int k = 0; k < MATMUL_NKINDS; k++) {
    tsr_layout_t L = tsr_layout_of_kind(matmul_kinds[k], n, n, 1);
    L = tsr_layout_with_tile(tsr_layout_with_align(L, B->align), B->tile, B->tile);
    TSR_CALL(tsr_layout_check(&L));
    D->L[k] = L;
    if ((size_t)L.size > D->max_elems) D->max_elems = (size_t)L.size;
  }
  TSR_CALL(tsr_device_malloc(&D->dev, D->max_elems * sizeof(float), (void **)&D->C));
  TSR_CALL(tsr_device_malloc(&D->dev, D->max_elems * sizeof(float), (void **)&D->T));
  if (kind == TSR_DEV_CUDA && matmul_cuda_peak_gflops(&D->peak, NULL, 0)) {
    tsr_error_clear();
    D->peak = 0;
  }
  return TSR_SUCCESS;
}

/* The inputs in kind index k on the device (made on first use). */
static int dev_inputs(devset_t *D, host_t *H, int k) {
  if (D->A[k]) return TSR_SUCCESS;
  const tsr_layout_t *L = &D->L[k];
  size_t bytes = tsr_layout_bytes(L, sizeof(float));
  float *tmp = calloc((size_t)L->size, sizeof(float));
  TSR_CHECK(tmp, TSR_ERR_ALLOC, "cannot allocate %zu bytes", bytes);
  int rc = tsr_device_malloc(&D->dev, bytes, (void **)&D->A[k]);
  if (!rc) rc = tsr_device_malloc(&D->dev, bytes, (void **)&D->B[k]);
  if (!rc) rc = tsr_layout_transform(&D->R, H->a, L, tmp, sizeof(float));
  if (!rc) rc = tsr_device_upload(&D->dev, D->A[k], tmp, bytes);
  if (!rc) rc = tsr_layout_transform(&D->R, H->b, L, tmp, sizeof(float));
  if (!rc) rc = tsr_device_upload(&D->dev, D->B[k], tmp, bytes);
  free(tmp);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : TSR_SUCCESS;
}

/* C (device, layout LC) against the reference rows: *bad wrong elements,
 * *worst the largest |c - ref| / bound. */
static int verify_c(devset_t *D, host_t *H, const tsr_layout_t *LC, long *bad, double *worst) {
  if (H->hc_elems < (size_t)LC->size) {
    free(H->hc);
    H->hc = malloc((size_t)LC->size * sizeof(float));
    TSR_CHECK(H->hc, TSR_ERR_ALLOC, "cannot allocate the download buffer");
    H->hc_elems = (size_t)LC->size;
  }
  TSR_CALL(tsr_device_sync(&D->dev));
  TSR_CALL(tsr_device_download(&D->dev, H->hc, D->C, tsr_layout_bytes(LC, sizeof(float))));
  TSR_CALL(tsr_layout_transform(LC, H->hc, &D->R, H->hr, sizeof(float)));
  const int64_t n = H->n;
  const double u = ldexp(1.0, -24);
  long nbad = 0;
  double w = 0;
  for (int r = 0; r < H->nrows; r++) {
    const float *c = H->hr + (size_t)H->rows[r] * n;
    const double *ref = H->ref + (size_t)r * n, *bd = H->bound + (size_t)r * n;
    for (int64_t j = 0; j < n; j++) {
      double err = fabs((double)c[j] - ref[j]), tol = 2.0 * (double)n * u * bd[j];
      if (!(err <= tol)) nbad++; /* NaN fails too */
      if (tol > 0 && err / tol > w) w = err / tol;
    }
  }
  *bad = nbad;
  *worst = w;
  return TSR_SUCCESS;
}

static void mm_figure(tsr_result_t *row, int64_t n, double base, double peak) {
  double t = row->time.median, n3 = (double)n * n * n, gf = 2.0 * n3 / t * 1e-9;
  char pk[24] = "";
  if (peak > 0) snprintf(pk, sizeof pk, " peak=%.1f%%", 100.0 * gf / peak);
  snprintf(row->fom_name, sizeof row->fom_name, "flop_rate");
  snprintf(row->fom_unit, sizeof row->fom_unit, "GF/s");
  row->fom = gf;
  snprintf(row->figure, sizeof row->figure, "ps/N3=%.4g speedup=%.3f GF/s=%.1f%s", t / n3 * 1e12,
           base > 0 ? base / t : 0.0, gf, pk);
}

/* Time and verify one matmul (what LB_MATMUL with kind indices, or
 * LB_CUBLAS); returns the median through *median. */
static int run_mm(lb_t *B, devset_t *D, host_t *H, const char *name, int what, int ia, int ib,
                  int ic, double base, double *median) {
  const int64_t n = H->n;
  job_t j = {what, D, ia, ib, ic, n, NULL, NULL, NULL, NULL};
  if (what == LB_MATMUL) {
    TSR_CALL(dev_inputs(D, H, ia));
    TSR_CALL(dev_inputs(D, H, ib));
  } else {
    TSR_CALL(dev_inputs(D, H, 0));
  }
  tsr_result_t row = lb_row(B, name, &D->dev, "float");
  row.size[0] = row.size[1] = row.size[2] = n;
  int cpu = D->dev.kind == TSR_DEV_CPU;
  TSR_CALL(lb_time(B, name, &D->dev, cpu ? TSR_MIN(B->cli.warmup, 1) : B->cli.warmup,
                   cpu ? B->cpu_runs : B->cli.runs, job_run, &j, &row.time));
  *median = row.time.median;
  if (B->cli.verify) {
    long bad = 0;
    double worst = 0;
    TSR_CALL(verify_c(D, H, what == LB_MATMUL ? &D->L[ic] : &D->R, &bad, &worst));
    row.verify = bad ? TSR_VERIFY_FAIL : TSR_VERIFY_PASS;
    snprintf(row.note, sizeof row.note, "%s%d rows checked, max err/bound %.2g",
             bad ? "FAIL: " : "", H->nrows, worst);
    if (bad)
      snprintf(row.note, sizeof row.note, "%ld of %lld checked elements beyond the bound", bad,
               (long long)H->nrows * n);
  } else {
    row.verify = TSR_VERIFY_SKIPPED;
  }
  mm_figure(&row, n, base > 0 ? base : row.time.median, D->peak);
  TSR_CALL(tsr_report_add(B->rep, &row));
  return TSR_SUCCESS;
}

/* One transform S -> D of an N x N matrix, timed (and verified bitwise
 * against the host transform). */
static int run_transform(lb_t *B, devset_t *D, host_t *H, const char *name, int from, int to,
                         double *median, int add_row) {
  const int kf = kind_index(from), kt = kind_index(to);
  TSR_CALL(dev_inputs(D, H, kf));
  job_t j = {LB_TRANSFORM, D, 0, 0, 0, H->n, &D->L[kf], &D->L[kt], D->A[kf], D->T};
  tsr_result_t row = lb_row(B, name, &D->dev, "float");
  row.size[0] = row.size[1] = H->n;
  row.size[2] = 1;
  TSR_CALL(lb_time(B, name[0] ? name : "transform", &D->dev, B->cli.warmup, B->cli.runs, job_run,
                   &j, &row.time));
  *median = row.time.median;
  if (!add_row) return TSR_SUCCESS;
  row.bytes = 2.0 * (double)H->n * (double)H->n * sizeof(float);
  row.footprint = (double)(tsr_layout_bytes(&D->L[kf], sizeof(float)) +
                           tsr_layout_bytes(&D->L[kt], sizeof(float)));
  TSR_CALL(tsr_bandwidth_ceiling(&D->dev, &row.ceiling));
  row.verify = TSR_VERIFY_SKIPPED;
  if (B->cli.verify) { /* back to R on the host must give A exactly */
    size_t bytes = tsr_layout_bytes(&D->L[kt], sizeof(float));
    float *got = malloc(bytes);
    TSR_CHECK(got, TSR_ERR_ALLOC, "cannot allocate %zu bytes", bytes);
    int rc = tsr_device_sync(&D->dev);
    if (!rc) rc = tsr_device_download(&D->dev, got, D->T, bytes);
    if (!rc) rc = tsr_layout_transform(&D->L[kt], got, &D->R, H->hr, sizeof(float));
    free(got);
    TSR_CALL(rc);
    int same = memcmp(H->hr, H->a, (size_t)H->n * (size_t)H->n * sizeof(float)) == 0;
    row.verify = same ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
    if (!same) snprintf(row.note, sizeof row.note, "the transformed matrix differs from A");
  }
  snprintf(row.figure, sizeof row.figure, "ps/N2=%.4g",
           row.time.median / ((double)H->n * H->n) * 1e12);
  TSR_CALL(tsr_report_add(B->rep, &row));
  return TSR_SUCCESS;
}

/* Selected variants of one device; mm[k] lists matmul combination indices. */
typedef struct {
  int nmm, mm[MATMUL_NKINDS * MATMUL_NKINDS * MATMUL_NKINDS];
  int cublas;
  int ntr, tr[2 * MATMUL_NKINDS];
  const char *trname[2 * MATMUL_NKINDS];
  const char *mmname[MATMUL_NKINDS * MATMUL_NKINDS * MATMUL_NKINDS];
  const char *cublasname;
} picks_t;

static int run_device(lb_t *B, tsr_devkind_t kind, const picks_t *P, host_t *H) {
  const int64_t n = H->n;
  const char *dn = kind == TSR_DEV_CUDA ? "cuda" : "cpu";
  const tsr_variant_t probe = {dn, kind, "", 0};
  const char *why = tsr_variant_unavailable(&probe);
  if (why) {
    for (int i = 0; i < P->nmm; i++) TSR_CALL(lb_skip(B, P->mmname[i], n, why));
    if (P->cublas) TSR_CALL(lb_skip(B, P->cublasname, n, why));
    for (int i = 0; i < P->ntr; i++) TSR_CALL(lb_skip(B, P->trname[i], n, why));
    return TSR_SUCCESS;
  }
  int mm_here = P->nmm > 0 && !(kind == TSR_DEV_CPU && n > B->cpu_max_n);
  if (P->nmm > 0 && !mm_here)
    for (int i = 0; i < P->nmm; i++) TSR_CALL(lb_skip(B, P->mmname[i], n, "N > --cpu-max-n"));
  devset_t D;
  TSR_CALL(dev_setup(B, kind, n, &D));
  int rc = TSR_SUCCESS;
  double mmbase = 0; /* R x R = R's median here, for cuBLAS's speed-up */
  if (mm_here) {
    /* the baseline R x R = R first: every speed-up is relative to it */
    double base = 0, t = 0, best = 0;
    int bi = 0;
    for (int i = 0; i < P->nmm && !rc; i++)
      if (P->mm[i] == 0) rc = run_mm(B, &D, H, P->mmname[i], LB_MATMUL, 0, 0, 0, 0, &base);
    if (!rc && base == 0) { /* not selected: time it without a row */
      job_t j = {LB_MATMUL, &D, 0, 0, 0, n, NULL, NULL, NULL, NULL};
      tsr_stats_t st = {0, 0, 0, 0, 0};
      rc = dev_inputs(&D, H, 0);
      if (!rc) rc = lb_time(B, "matmul R x R = R", &D.dev, 1,
                            kind == TSR_DEV_CPU ? B->cpu_runs : B->cli.runs, job_run, &j, &st);
      base = st.median;
    }
    best = mmbase = base;
    for (int i = 0; i < P->nmm && !rc; i++) {
      int c = P->mm[i];
      if (c != 0) rc = run_mm(B, &D, H, P->mmname[i], LB_MATMUL, c / 36, c / 6 % 6, c % 6, base, &t);
      else t = base;
      if (!rc && t < best) {
        best = t;
        bi = c;
      }
    }
    /* the paper's Fig. 3: does transforming R inputs to the best layouts (and C
     * back to R) pay off at this N?  When R x R = R is itself the best, the row
     * says so (no transform), so every N has one payoff row. */
    if (!rc) {
      int ka = bi / 36, kb = bi / 6 % 6, kc = bi % 6;
      double tr = 0, x;
      if (!rc && ka) rc = run_transform(B, &D, H, "", TSR_LAYOUT_ROWMAJOR, matmul_kinds[ka], &x, 0), tr += x;
      if (!rc && kb) rc = run_transform(B, &D, H, "", TSR_LAYOUT_ROWMAJOR, matmul_kinds[kb], &x, 0), tr += x;
      if (!rc && kc) rc = run_transform(B, &D, H, "", matmul_kinds[kc], TSR_LAYOUT_ROWMAJOR, &x, 0), tr += x;
      if (!rc) {
        char best_name[48]; /* the best combination's variant; config says what the row is */
        snprintf(best_name, sizeof best_name, "%s/matmul/%sx%s=%s", dn,
                 tsr_layout_kind_short(matmul_kinds[ka]), tsr_layout_kind_short(matmul_kinds[kb]),
                 tsr_layout_kind_short(matmul_kinds[kc]));
        tsr_result_t row = lb_row(B, best_name, &D.dev, "float");
        snprintf(row.config, sizeof row.config, "best+transform");
        row.size[0] = row.size[1] = row.size[2] = n;
        row.time.n = 1;
        row.time.median = row.time.min = row.time.max = row.time.mean = best + tr;
        snprintf(row.figure, sizeof row.figure, "speedup=%.3f transform=%.1f%% %s",
                 base / (best + tr), 100.0 * tr / (best + tr),
                 bi == 0 ? "baseline-is-best" : best + tr < base ? "pays-off" : "does-not-pay");
        snprintf(row.note, sizeof row.note, "best %.1f us + transforms %.1f us vs R x R = R %.1f us",
                 best * 1e6, tr * 1e6, base * 1e6);
        rc = tsr_report_add(B->rep, &row);
      }
    }
  }
  if (!rc && P->cublas) {
    double t;
    rc = run_mm(B, &D, H, P->cublasname, LB_CUBLAS, 0, 0, 0, mmbase, &t);
  }
  for (int i = 0; i < P->ntr && !rc; i++) {
    double t;
    rc = run_transform(B, &D, H, P->trname[i], P->tr[i] / 8, P->tr[i] % 8, &t, 1);
  }
  dev_free(&D);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : TSR_SUCCESS;
}

int lb_matmul_run(lb_t *B, const tsr_variant_t *table, const int *sel, int n) {
  static picks_t P[2];
  memset(P, 0, sizeof P);
  int any = 0;
  for (int i = 0; i < n; i++) {
    const tsr_variant_t *v = &table[sel[i]];
    picks_t *p = &P[v->device == TSR_DEV_CUDA];
    switch (LB_WHAT(v->id)) {
    case LB_MATMUL: p->mmname[p->nmm] = v->name; p->mm[p->nmm++] = LB_ARG(v->id); any = 1; break;
    case LB_CUBLAS: p->cublasname = v->name; p->cublas = 1; any = 1; break;
    case LB_TRANSFORM: p->trname[p->ntr] = v->name; p->tr[p->ntr++] = LB_ARG(v->id); any = 1; break;
    default: break;
    }
  }
  if (!any) return TSR_SUCCESS;
  for (int s = 0; s < B->nsizes; s++) {
    host_t H;
    int need_host = 0;
    for (int d = 0; d < 2; d++) need_host |= P[d].nmm || P[d].cublas || P[d].ntr;
    if (!need_host) break;
    TSR_CALL(host_setup(B, B->sizes[s], &H));
    if (!B->cli.quiet) {
      printf("N = %lld: reference for %d rows done\n", (long long)H.n, H.nrows);
      fflush(stdout);
    }
    int rc = TSR_SUCCESS;
    for (int d = 0; d < 2 && !rc; d++)
      if (P[d].nmm || P[d].cublas || P[d].ntr)
        rc = run_device(B, d ? TSR_DEV_CUDA : TSR_DEV_CPU, &P[d], &H);
    host_free(&H);
    TSR_CALL(rc);
  }
  return TSR_SUCCESS;
}
