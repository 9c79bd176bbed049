/* apps/layoutbench/lb_stencil.c: the constant-versus-run-time extents
 * experiment (Smelko et al., ICA3PP 2022, section 3, Figures 4 and 5).
 *
 * Each build of kernels/layout/stencil.c (runtime, cindex, cloops; gcc and
 * clang) runs --iterations sweeps (100 by default), ping-ponging between two
 * arrays, on one thread; a sample is the wall time of all of them, and
 * --stencil-runs samples give the statistics. Verification: the final field
 * must equal, bit for bit, that of a reference written here with plain
 * index arithmetic (same additions in the same order, so the same floats). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apps/layoutbench/layoutbench.h"

typedef struct {
  stencil_sweep_fn sweep;
  stencil_info_fn info;
  stencil_shape_fn shape;
} build_t;

static const build_t builds[2][3] = {
    {{stencil_sweep_gcc_runtime, stencil_info_gcc_runtime, stencil_shape_gcc_runtime},
     {stencil_sweep_gcc_cindex, stencil_info_gcc_cindex, stencil_shape_gcc_cindex},
     {stencil_sweep_gcc_cloops, stencil_info_gcc_cloops, stencil_shape_gcc_cloops}},
#ifdef LB_HAVE_CLANG
    {{stencil_sweep_clang_runtime, stencil_info_clang_runtime, stencil_shape_clang_runtime},
     {stencil_sweep_clang_cindex, stencil_info_clang_cindex, stencil_shape_clang_cindex},
     {stencil_sweep_clang_cloops, stencil_info_clang_cloops, stencil_shape_clang_cloops}},
#else
    {{NULL, NULL, NULL}, {NULL, NULL, NULL}, {NULL, NULL, NULL}},
#endif
};

/* The reference sweep: u[(z*ny + y)*nx + x], written out by hand. */
static void reference_sweep(int64_t nx, int64_t ny, int64_t nz, const float *in, float *out) {
  const int64_t sy = nx, sz = nx * ny;
  for (int64_t z = 1; z < nz - 1; z++)
    for (int64_t y = 1; y < ny - 1; y++)
      for (int64_t x = 1; x < nx - 1; x++) {
        const int64_t i = z * sz + y * sy + x;
        float sum = in[i];
        sum += in[i + 1];
        sum += in[i - 1];
        sum += in[i + sy];
        sum += in[i - sy];
        sum += in[i + sz];
        sum += in[i - sz];
        out[i] = sum / 7;
      }
}

/* One sample: iters sweeps ping-ponging a <-> b, from init (copied untimed). */
typedef struct {
  const build_t *bu;
  const tsr_layout_t *L;
  const float *init;
  float *a, *b;
  size_t bytes;
  int iters;
} lb_sweeps_t;

static int lb_sweeps_reset(void *ctx, const tsr_run_sample_t *s) {
  const lb_sweeps_t *j = ctx;
  (void)s;
  memcpy(j->a, j->init, j->bytes);
  memcpy(j->b, j->init, j->bytes); /* faces are never written: both keep init's */
  return TSR_SUCCESS;
}

static int lb_sweeps(void *ctx, tsr_run_sample_t *s) {
  const lb_sweeps_t *j = ctx;
  (void)s;
  for (int it = 0; it < j->iters; it++)
    TSR_CALL(it % 2 == 0 ? j->bu->sweep(j->L, j->a, j->b) : j->bu->sweep(j->L, j->b, j->a));
  return TSR_SUCCESS;
}

int lb_stencil_run(lb_t *B, const tsr_variant_t *table, const int *sel, int n) {
  int want[6], any = 0;
  const char *name[6];
  for (int i = 0; i < 6; i++) want[i] = 0;
  for (int i = 0; i < n; i++)
    if (LB_WHAT(table[sel[i]].id) == LB_STENCIL) {
      int a = LB_ARG(table[sel[i]].id);
      want[a] = any = 1;
      name[a] = table[sel[i]].name;
    }
  if (!any) return TSR_SUCCESS;
  const int64_t nx = B->stencil[0], ny = B->stencil[1], nz = B->stencil[2];
  const tsr_layout_t L = tsr_layout_with_align(tsr_layout_rowmajor(nx, ny, nz), 1);
  TSR_CALL(tsr_layout_check(&L));
  const size_t cells = (size_t)L.size, bytes = cells * sizeof(float);
  const int iters = B->cli.iterations;
  tsr_device_t dev;
  TSR_CALL(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &dev));
  float *init = malloc(bytes), *a = malloc(bytes), *b = malloc(bytes), *ref = NULL;
  int rc = init && a && b ? TSR_SUCCESS
                          : TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate 3 x %zu bytes for the stencil", bytes);
  if (!rc) {
    uint64_t s = 0x57e9c11ULL;
    for (size_t i = 0; i < cells; i++) {
      uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      init[i] = 1.0f + (float)((z ^ (z >> 31)) >> 40) * (1.0f / 16777216.0f);
    }
  }
  if (!rc && B->cli.verify) { /* the reference result of iters sweeps */
    float *r2 = malloc(bytes);
    ref = malloc(bytes);
    if (!r2 || !ref) rc = TSR_RAISE(TSR_ERR_ALLOC, "cannot allocate the stencil reference");
    if (!rc) {
      memcpy(ref, init, bytes);
      memcpy(r2, init, bytes);
      for (int it = 0; it < iters; it++) {
        if (it % 2 == 0) reference_sweep(nx, ny, nz, ref, r2);
        else reference_sweep(nx, ny, nz, r2, ref);
      }
      if (iters % 2) memcpy(ref, r2, bytes);
    }
    free(r2);
  }
  double base[2] = {0, 0};
  for (int v = 0; v < 6 && !rc; v++) {
    if (!want[v]) continue;
    const int cc = v / 3, bd = v % 3;
    const build_t *bu = &builds[cc][bd];
    if (!bu->sweep) {
      rc = lb_skip(B, name[v], 0, "built without clang (configure found none)");
      continue;
    }
    int64_t shape[3];
    bu->shape(shape);
    if (bd > 0 && (shape[0] != nx || shape[1] != ny || shape[2] != nz)) {
      char why[96];
      snprintf(why, sizeof why, "compiled for %lldx%lldx%lld, not this grid", (long long)shape[0],
               (long long)shape[1], (long long)shape[2]);
      rc = lb_skip(B, name[v], 0, why);
      continue;
    }
    tsr_result_t row = lb_row(B, name[v], &dev, "float");
    row.size[0] = nx;
    row.size[1] = ny;
    row.size[2] = nz;
    lb_sweeps_t job = {bu, &L, init, a, b, bytes, iters};
    tsr_run_t sp = {.prog = "tsr-layoutbench", .label = name[v], .comm = MPI_COMM_SELF,
                    .dev = &dev, .timing = TSR_TIME_WALL, .runs = B->stencil_runs,
                    .quiet = B->cli.quiet, .reset = lb_sweeps_reset, .run = lb_sweeps, .ctx = &job};
    tsr_run_result_t res;
    rc = tsr_run(&sp, &res);
    if (!rc) {
      row.time = res.time;
      row.footprint = 2.0 * (double)bytes;
      row.bytes = 8.0 * (double)(nx - 2) * (double)(ny - 2) * (double)(nz - 2) * iters;
      if (bd == 0) base[cc] = row.time.median;
      if (base[cc] > 0)
        snprintf(row.figure, sizeof row.figure, "s/%dit=%.4f speedup=%.3f", iters,
                 row.time.median, base[cc] / row.time.median);
      else
        snprintf(row.figure, sizeof row.figure, "s/%dit=%.4f", iters, row.time.median);
      snprintf(row.note, sizeof row.note, "1 thread; %s", bu->info());
      row.verify = TSR_VERIFY_SKIPPED;
      if (ref) {
        const float *got = iters % 2 ? b : a;
        int same = memcmp(got, ref, bytes) == 0;
        row.verify = same ? TSR_VERIFY_PASS : TSR_VERIFY_FAIL;
        if (!same) snprintf(row.note, sizeof row.note, "differs from the reference stencil");
      }
      rc = tsr_report_add(B->rep, &row);
    }
  }
  free(init);
  free(a);
  free(b);
  free(ref);
  return rc ? tsr_error_trace(rc, __FILE__, __LINE__, __func__) : TSR_SUCCESS;
}
