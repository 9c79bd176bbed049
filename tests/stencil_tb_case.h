/* tests/stencil_tb_case.h: one temporal-blocking case for the CPU and CUDA
 * tests: random inputs on a regular domain, N steps as passes of at most
 * tb.steps (stencil_tb_next: as even as they can be) on dev (stencil_tb_cpu
 * or stencil_tb_cuda), against N single steps of cpu/regular on the host;
 * the whole arrays (halo included: never written) must be the same bits. The unstructured
 * case: the same domain stored as an X-Y-unstructured grid (row-major,
 * z-curve or random slot order, tables of depth 1 or 2, compressed or
 * not), the passes through its slot map, the updated slots gathered back
 * against the same single steps, the other slots unchanged. */
#ifndef TSR_TESTS_STENCIL_TB_CASE_H
#define TSR_TESTS_STENCIL_TB_CASE_H

#include "tsr_check.h"
#include "kernels/stencil/stencil_problem.h"
#include "kernels/stencil/stencil_tb.h"

/* The reference: N single steps of cpu/regular on the host from P's
 * input, ping-pong in h (allocated here); returns the state after them. */
static const void *tb_reference(const stencil_problem_t *P, int kind, int nsteps, void *h[2]) {
  const stencil_grid_t g = stencil_problem_grid(P);
  const size_t bytes = (size_t)P->L.size * stencil_problem_esize(P);
  h[0] = malloc(bytes), h[1] = malloc(bytes);
  ck_assert(h[0] && h[1]);
  memcpy(h[0], P->in, bytes), memcpy(h[1], P->in, bytes);
  for (int it = 0; it < nsteps; it++) {
    const stencil_fields_t f = stencil_problem_fields(P, h[it % 2], P->coeff, h[(it + 1) % 2], 0);
    ck_tsr(stencil_cpu_run(kind, STENCIL_CPU_REGULAR, &g, &f));
  }
  return h[nsteps % 2];
}

/* Index of the first of n elements of es bytes where a and b differ, or n. */
static size_t tb_first_diff(const void *a, const void *b, size_t n, size_t es) {
  for (size_t e = 0; e < n; e++)
    if (memcmp((const char *)a + e * es, (const char *)b + e * es, es)) return e;
  return n;
}

/* An element of a double or float array, as a double (for messages). */
static double tb_elem(const void *a, int prec, size_t e) {
  return prec ? (double)((const float *)a)[e] : ((const double *)a)[e];
}

static void tb_case(const tsr_device_t *dev, int kind, int prec, const int64_t size[3], int nsteps,
                    stencil_tb_t tb, uint64_t seed) {
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, prec, size, TSR_SOA, &P));
  stencil_problem_fill(&P, seed, NULL);
  const stencil_grid_t g = stencil_problem_grid(&P);
  const size_t bytes = (size_t)P.L.size * stencil_problem_esize(&P);
  void *h[2], *got = malloc(bytes);
  ck_assert(got);
  const void *ref = tb_reference(&P, kind, nsteps, h);
  /* the passes on dev */
  void *d[2] = {NULL, NULL}, *dc = NULL;
  const int cuda = dev->kind == TSR_DEV_CUDA;
  for (int k = 0; k < 2; k++) {
    ck_tsr(tsr_device_malloc(dev, bytes, &d[k]));
    ck_tsr(tsr_device_upload(dev, d[k], P.in, bytes));
  }
  ck_tsr(tsr_device_malloc(dev, bytes, &dc));
  ck_tsr(tsr_device_upload(dev, dc, P.coeff ? P.coeff : P.in, bytes));
  int src = 0, passes = 0;
  for (int it = 0; it < nsteps; passes++) {
    const int n = stencil_tb_next(nsteps - it, tb.steps);
    const stencil_fields_t f = stencil_problem_fields(&P, d[src], dc, d[1 - src], 0);
    if (cuda) ck_tsr(stencil_tb_cuda(kind, &g, NULL, &f, tb, n, NULL, NULL));
    else ck_tsr(stencil_tb_cpu(kind, &g, NULL, &f, tb, n, NULL));
    it += n, src = 1 - src;
  }
  ck_tsr(tsr_device_sync(dev));
  ck_tsr(tsr_device_download(dev, got, d[src], bytes));
  const size_t es = stencil_problem_esize(&P), e = tb_first_diff(got, ref, bytes / es, es);
  if (e < bytes / es)
    ck_abort_msg("%s %s %lldx%lldx%lld, %d steps, tb steps %d rows %d xpt %d warps %d (%d passes): "
                 "element %zu differs (%.17g, expected %.17g)", stencil_name(kind),
                 prec ? "float" : "double", (long long)size[0], (long long)size[1], (long long)size[2],
                 nsteps, tb.steps, tb.rows, tb.xpt, tb.warps, passes, e, tb_elem(got, prec, e),
                 tb_elem(ref, prec, e));
  for (int k = 0; k < 2; k++) ck_tsr(tsr_device_free(dev, &d[k]));
  ck_tsr(tsr_device_free(dev, &dc));
  free(h[0]), free(h[1]), free(got);
  stencil_problem_destroy(&P);
}

static void tb_ucase(const tsr_device_t *dev, int kind, int prec, const int64_t size[3], int nsteps,
                     stencil_tb_t tb, int order, int depth, int comp, uint64_t seed) {
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, prec, size, TSR_SOA, &P));
  stencil_problem_fill(&P, seed, NULL);
  const size_t es = stencil_problem_esize(&P), bytes = (size_t)P.L.size * es;
  void *h[2], *back = malloc(bytes);
  ck_assert(back);
  memcpy(back, P.in, bytes);
  const void *ref = tb_reference(&P, kind, nsteps, h);
  stencil_ugrid_t U;
  const int rc = stencil_ugrid_create(&P, order, 2, seed, depth, comp, &U);
  if (rc == TSR_ERR_UNSUPPORTED && comp) { /* the dictionary does not fit: not a case */
    tsr_error_clear();
    free(h[0]), free(h[1]), free(back);
    stencil_problem_destroy(&P);
    return;
  }
  ck_tsr(rc);
  const size_t ub = (size_t)U.L.size * es;
  void *uin = calloc(1, ub), *uco = calloc(1, ub), *got = malloc(ub);
  ck_assert(uin && uco && got);
  stencil_ugrid_scatter(&U, &P.L, P.in, &U.L, uin, es);
  stencil_ugrid_scatter(&U, &P.L, P.coeff ? P.coeff : P.in, &U.L, uco, es);
  stencil_grid_t gu;
  ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &gu));
  stencil_tb_umap_t um;
  ck_tsr(stencil_tb_umap_create(&gu, &um));
  /* a grid stored row by row is affine: its inner warps read without the map
     (a z-curve too where the rectangle is no wider than the curve's rows) */
  if (order == STENCIL_ORDER_ROWMAJOR) ck_assert(um.affine);
  if (order != STENCIL_ORDER_ROWMAJOR && size[0] > 16) ck_assert(!um.affine);
  const int cuda = dev->kind == TSR_DEV_CUDA;
  void *d[2] = {NULL, NULL}, *dc = NULL;
  for (int k = 0; k < 2; k++) {
    ck_tsr(tsr_device_malloc(dev, ub, &d[k]));
    ck_tsr(tsr_device_upload(dev, d[k], uin, ub));
  }
  ck_tsr(tsr_device_malloc(dev, ub, &dc));
  ck_tsr(tsr_device_upload(dev, dc, uco, ub));
  ck_tsr(stencil_tb_umap_upload(&um, dev)); /* on the CPU: nothing */
  ck_assert(cuda ? um.dmap != NULL : um.dmap == NULL);
  int src = 0, passes = 0;
  for (int it = 0; it < nsteps; passes++) {
    const int n = stencil_tb_next(nsteps - it, tb.steps);
    const stencil_fields_t f = stencil_problem_fields(&P, d[src], dc, d[1 - src], 0);
    if (cuda) ck_tsr(stencil_tb_cuda(kind, &gu, &um, &f, tb, n, NULL, NULL));
    else ck_tsr(stencil_tb_cpu(kind, &gu, &um, &f, tb, n, NULL));
    it += n, src = 1 - src;
  }
  ck_tsr(tsr_device_sync(dev));
  ck_tsr(tsr_device_download(dev, got, d[src], ub));
  /* the slots never updated keep the input */
  const size_t nrest = (size_t)(U.np - U.nown);
  for (int64_t z = 0; z < U.nz; z++) {
    const size_t o = (size_t)(U.nown + z * U.L.sy) * es, e = tb_first_diff((const char *)got + o,
                                                                           (const char *)uin + o, nrest, es);
    if (e < nrest)
      ck_abort_msg("unstructured %s: slot %lld level %lld (not updated) was written", stencil_name(kind),
                   (long long)(U.nown + (int64_t)e), (long long)z);
  }
  stencil_ugrid_gather(&U, &U.L, got, &P.L, back, es, U.nown);
  const size_t e = tb_first_diff(back, ref, bytes / es, es);
  if (e < bytes / es)
    ck_abort_msg("unstructured %s %s %lldx%lldx%lld (order %d, depth %d, compressed %d), %d steps, tb steps "
                 "%d rows %d xpt %d warps %d (%d passes): element %zu differs (%.17g, expected %.17g)",
                 stencil_name(kind), prec ? "float" : "double", (long long)size[0], (long long)size[1],
                 (long long)size[2], order, depth, comp, nsteps, tb.steps, tb.rows, tb.xpt, tb.warps, passes, e,
                 tb_elem(back, prec, e), tb_elem(ref, prec, e));
  for (int k = 0; k < 2; k++) ck_tsr(tsr_device_free(dev, &d[k]));
  ck_tsr(tsr_device_free(dev, &dc));
  stencil_tb_umap_destroy(&um);
  stencil_ugrid_destroy(&U);
  free(uin), free(uco), free(got), free(h[0]), free(h[1]), free(back);
  stencil_problem_destroy(&P);
}

/* The sweep both tests run: laplap and hdiff (loop index i: kind i / 2,
 * precision i % 2), odd and even sizes (one smaller than a tile, one of
 * several tiles and strips with partial last ones, one level), steps per
 * pass 1 .. 4, 1 and 2 points per lane, strips of 1, 5 and 32 rows, 1 and 3
 * warps per block, step counts that are and are not multiples of the pass. */
static const int64_t tb_sizes[4][3] = {{37, 29, 3}, {150, 71, 2}, {9, 9, 1}, {64, 40, 2}};
static const int tb_nsteps[3] = {1, 5, 6};

static void tb_sweep(const tsr_device_t *dev, int i) {
  const int kind = i / 2 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = i % 2;
  int ncase = 0;
  for (int sz = 0; sz < 4; sz++)
    for (int k = 1; k <= STENCIL_TB_MAXSTEPS; k++)
      for (int xpt = 1; xpt <= 2; xpt++)
        for (int ns = 0; ns < 3; ns++) {
          const int rows = ns == 0 ? 5 : ns == 1 ? 32 : 1 + (sz + k) % 7;
          const stencil_tb_t tb = {k, rows, xpt, 1 + 2 * ((k + xpt) % 2)};
          tb_case(dev, kind, prec, tb_sizes[sz], tb_nsteps[ns], tb, 100 + (uint64_t)ncase++);
        }
}

/* The unstructured sweep: the same sizes, the three slot orders, steps
 * per pass 1 .. 4, points per lane, strips, warps, table depth and
 * compression varied with the case. */
static void tb_usweep(const tsr_device_t *dev, int i) {
  const int kind = i / 2 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = i % 2;
  int ncase = 0;
  for (int sz = 0; sz < 4; sz++)
    for (int order = 0; order < 3; order++)
      for (int k = 1; k <= STENCIL_TB_MAXSTEPS; k++, ncase++) {
        const int xpt = 1 + (k + order) % 2, rows = ncase % 3 == 0 ? 5 : ncase % 3 == 1 ? 32 : 1 + sz + k;
        const stencil_tb_t tb = {k, rows, xpt, 1 + 2 * ((k + sz) % 2)};
        tb_ucase(dev, kind, prec, tb_sizes[sz], tb_nsteps[ncase % 3], tb, order, 1 + ncase % 2, (ncase / 2) % 2,
                 300 + (uint64_t)ncase);
      }
}

#endif
