/* tests/stencil_tb_case.h: one temporal-blocking case for the CPU and CUDA
 * tests: random inputs on a regular domain, N steps as passes of tb.steps
 * (the rest in one shorter pass) on dev (stencil_tb_cpu or stencil_tb_cuda),
 * against N single steps of cpu/regular on the host; the whole arrays
 * (halo included: never written) must be the same bits. */
#ifndef TSR_TESTS_STENCIL_TB_CASE_H
#define TSR_TESTS_STENCIL_TB_CASE_H

#include "tsr_check.h"
#include "kernels/stencil/stencil_problem.h"
#include "kernels/stencil/stencil_tb.h"

static void tb_case(const tsr_device_t *dev, int kind, int prec, const int64_t size[3], int nsteps,
                    stencil_tb_t tb, uint64_t seed) {
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, prec, size, TSR_SOA, &P));
  stencil_problem_fill(&P, seed, NULL);
  const stencil_grid_t g = stencil_problem_grid(&P);
  const size_t bytes = (size_t)P.L.size * stencil_problem_esize(&P);
  /* the reference: single steps on the host, ping-pong */
  void *h[2] = {malloc(bytes), malloc(bytes)}, *got = malloc(bytes);
  ck_assert(h[0] && h[1] && got);
  memcpy(h[0], P.in, bytes), memcpy(h[1], P.in, bytes);
  for (int it = 0; it < nsteps; it++) {
    const stencil_fields_t f = stencil_problem_fields(&P, h[it % 2], P.coeff, h[(it + 1) % 2], 0);
    ck_tsr(stencil_cpu_run(kind, STENCIL_CPU_REGULAR, &g, &f));
  }
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
    const int n = TSR_MIN(tb.steps, nsteps - it);
    const stencil_fields_t f = stencil_problem_fields(&P, d[src], dc, d[1 - src], 0);
    if (cuda) ck_tsr(stencil_tb_cuda(kind, &g, &f, tb, n, NULL, NULL));
    else ck_tsr(stencil_tb_cpu(kind, &g, &f, tb, n, NULL));
    it += n, src = 1 - src;
  }
  ck_tsr(tsr_device_sync(dev));
  ck_tsr(tsr_device_download(dev, got, d[src], bytes));
  const char *ref = h[nsteps % 2];
  const size_t es = stencil_problem_esize(&P);
  for (size_t e = 0; e < bytes / es; e++)
    if (memcmp((const char *)got + e * es, ref + e * es, es))
      ck_abort_msg("%s %s %lldx%lldx%lld, %d steps, tb steps %d rows %d xpt %d warps %d (%d passes): "
                   "element %zu differs (%.17g, expected %.17g)", stencil_name(kind),
                   prec ? "float" : "double", (long long)size[0], (long long)size[1], (long long)size[2],
                   nsteps, tb.steps, tb.rows, tb.xpt, tb.warps, passes, e,
                   prec ? (double)((const float *)got)[e] : ((const double *)got)[e],
                   prec ? (double)((const float *)ref)[e] : ((const double *)ref)[e]);
  for (int k = 0; k < 2; k++) ck_tsr(tsr_device_free(dev, &d[k]));
  ck_tsr(tsr_device_free(dev, &dc));
  free(h[0]), free(h[1]), free(got);
  stencil_problem_destroy(&P);
}

/* The sweep both tests run: laplap and hdiff (loop index i: kind i / 2,
 * precision i % 2), odd and even sizes (one smaller than a tile, one of
 * several tiles and strips with partial last ones, one level), steps per
 * pass 1 .. 4, 1 and 2 points per lane, strips of 1, 5 and 32 rows, 1 and 3
 * warps per block, step counts that are and are not multiples of the pass. */
static void tb_sweep(const tsr_device_t *dev, int i) {
  static const int64_t sizes[4][3] = {{37, 29, 3}, {150, 71, 2}, {9, 9, 1}, {64, 40, 2}};
  static const int nsteps[3] = {1, 5, 6};
  const int kind = i / 2 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = i % 2;
  int ncase = 0;
  for (int sz = 0; sz < 4; sz++)
    for (int k = 1; k <= STENCIL_TB_MAXSTEPS; k++)
      for (int xpt = 1; xpt <= 2; xpt++)
        for (int ns = 0; ns < 3; ns++) {
          const int rows = ns == 0 ? 5 : ns == 1 ? 32 : 1 + (sz + k) % 7;
          const stencil_tb_t tb = {k, rows, xpt, 1 + 2 * ((k + xpt) % 2)};
          tb_case(dev, kind, prec, sizes[sz], nsteps[ns], tb, 100 + (uint64_t)ncase++);
        }
}

#endif
