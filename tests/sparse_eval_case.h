/* tests/sparse_eval_case.h: the inputs of an evaluation test shared by the
 * CPU and CUDA walk tests (check_sparse_walk, check_sparse_cuda_eval): m
 * points in [0,1]^D that include x = 1.0, x = 0 and cell boundaries,
 * random non-zero coefficients of both signs, and cpu/eval/plain's values
 * at the points (the reference). Include after tsr_check.h and
 * kernels/sparse/sg_kernels.h. */
#ifndef TSR_TESTS_SPARSE_EVAL_CASE_H
#define TSR_TESTS_SPARSE_EVAL_CASE_H

#include <math.h>

/* Points in [0,1]^D: every 7th coordinate 1.0, every 11th 0.0, every 5th on
 * a cell boundary k / 2^m (m <= n), the rest uniform. */
static inline void sg_test_points(double *x, int64_t cnt, int n, unsigned long long seed) {
  for (int64_t e = 0; e < cnt; e++) {
    double v = tsr_test_rand(&seed, 0, 1);
    if (e % 7 == 0) v = 1.0;
    else if (e % 11 == 3) v = 0.0;
    else if (e % 5 == 2) {
      int m = (int)(v * (n + 1)) % (n + 1);
      v = floor(tsr_test_rand(&seed, 0, 1) * ((1 << m) + 1)) / (double)(1 << m);
    }
    x[e] = v;
  }
}

static inline double sg_test_get(const void *a, tsr_dtype_t prec, int64_t k) {
  return prec == TSR_FLOAT ? (double)((const float *)a)[k] : ((const double *)a)[k];
}

/* One case's host data (free with sg_test_case_free). */
typedef struct {
  fastsg_grid_t G;
  int64_t m;  /* points */
  size_t es;  /* bytes per value */
  void *x;    /* [m][D] points */
  void *a;    /* [npoints] coefficients */
  void *ref;  /* [m] cpu/eval/plain at the points */
} sg_test_case_t;

/* Grid D, n; m points (seed xseed); coefficients (seed aseed); reference. */
static inline void sg_test_case_init(sg_test_case_t *c, int D, int n, int64_t m, tsr_dtype_t prec,
                                     unsigned long long xseed, unsigned long long aseed) {
  ck_tsr(fastsg_grid_init(D, n, &c->G));
  c->m = m;
  c->es = tsr_dtype_size(prec);
  const int pr = prec == TSR_FLOAT;
  double *xd = malloc(sizeof(double) * (size_t)(m * D));
  c->x = malloc(c->es * (size_t)(m * D));
  c->a = malloc(c->es * (size_t)c->G.npoints);
  c->ref = malloc(c->es * (size_t)m);
  ck_assert(xd && c->x && c->a && c->ref);
  sg_test_points(xd, m * D, n, xseed);
  for (int64_t e = 0; e < m * D; e++) {
    if (pr) ((float *)c->x)[e] = (float)xd[e];
    else ((double *)c->x)[e] = xd[e];
  }
  for (int64_t e = 0; e < c->G.npoints; e++) { /* non-zero, both signs */
    double v = tsr_test_rand(&aseed, 0.1, 1.0) * (e % 3 ? 1 : -1);
    if (pr) ((float *)c->a)[e] = (float)v;
    else ((double *)c->a)[e] = v;
  }
  free(xd);
  fastsg_kernel_args_t A = {.grid = &c->G, .prec = prec, .coef = c->a, .npts = m, .x = c->x,
                            .r = c->ref};
  ck_tsr(fastsg_eval_plain_cpu(&A));
}

static inline void sg_test_case_free(sg_test_case_t *c) {
  free(c->x);
  free(c->a);
  free(c->ref);
}

#endif
