/* check_sparse: the compact sparse grid of fastsg (kernels/sparse): counts,
 * the position <-> (level, index) bijections, hierarchization exactness,
 * interpolation, convergence, and every CPU variant against the plain one. */
#include "config.h"
#include <math.h>
#include <unistd.h>
#include "tsr_check.h"
#include "kernels/sparse/sg_kernels.h"

/* Cheap assertion for inner loops: check is only called on failure (each
 * ck_assert records its location through a system call). */
#define REQUIRE_EQ(a, b)                                                                    \
  REQUIRE((a) == (b), "%s == %lld, expected %s == %lld", #a, (long long)(a), #b, (long long)(b))

/* Brute-force number of points: count level vectors by odometer. */
static int64_t brute_count(int D, int n) {
  int l[FASTSG_MAX_DIM] = {0};
  int64_t N = 0;
  for (;;) {
    int g = 0;
    for (int t = 0; t < D; t++) g += l[t];
    if (g <= n - 1) N += (int64_t)1 << g;
    int t = 0;
    while (t < D && ++l[t] > n - 1) l[t++] = 0;
    if (t == D) break;
  }
  return N;
}

START_TEST(test_counts) {
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(2, 3, &G));
  REQUIRE_EQ(G.npoints, 17);
  ck_tsr(fastsg_grid_init(10, 11, &G));
  REQUIRE_EQ(G.npoints, 127574017);
  REQUIRE_EQ(G.nblocks, 184756); /* C(20, 10) */
  REQUIRE(fastsg_grid_count(10, 11) == 127574017.0, "count");
  for (int D = 1; D <= 5; D++)
    for (int n = 1; n <= 8; n++) {
      ck_tsr(fastsg_grid_init(D, n, &G));
      REQUIRE_EQ(G.npoints, brute_count(D, n));
    }
  ck_tsr(fastsg_grid_init(1, 20, &G));
  REQUIRE_EQ(G.npoints, (1 << 20) - 1);
  ck_tsr_fails(fastsg_grid_init(0, 3, &G), TSR_ERR_ARG);
  ck_tsr_fails(fastsg_grid_init(FASTSG_MAX_DIM + 1, 3, &G), TSR_ERR_ARG);
  ck_tsr_fails(fastsg_grid_init(3, 0, &G), TSR_ERR_ARG);
  ck_tsr_fails(fastsg_grid_init(3, FASTSG_MAX_LEVEL + 1, &G), TSR_ERR_ARG);
  ck_tsr_fails(fastsg_grid_init(32, 30, &G), TSR_ERR_ARG); /* ~1e24 points */
}
END_TEST

/* Every position of every grid up to D = 5, n = 8 maps to a valid (l, i)
 * and back; positions are ordered by group, then block; the incremental
 * block walk (next) visits the blocks in rank order. */
START_TEST(test_bijection_all) {
  for (int D = 1; D <= 5; D++)
    for (int n = 1; n <= 8; n++) {
      fastsg_grid_t G;
      ck_tsr(fastsg_grid_init(D, n, &G));
      int lastg = 0;
      for (int64_t p = 0; p < G.npoints; p++) {
        int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM], sum = 0;
        int g = fastsg_idx2l(&G, p, l);
        fastsg_idx2i(&G, p, g, l, i);
        for (int t = 0; t < D; t++) {
          REQUIRE(l[t] >= 0 && i[t] >= 0 && i[t] < (1 << l[t]), "l[t] >= 0 && i[t] >= 0 && i[t] < (1 << l[t])");
          sum += l[t];
        }
        REQUIRE_EQ(sum, g);
        REQUIRE(g >= lastg, "groups out of order");
        lastg = g;
        REQUIRE_EQ(fastsg_agp2idx(&G, l, i), p);
      }
      for (int g = 0; g < n; g++) {
        int l[FASTSG_MAX_DIM], u[FASTSG_MAX_DIM];
        fastsg_block_first(D, g, l);
        int64_t r = 0;
        do {
          REQUIRE_EQ(fastsg_block_rank(D, l), r);
          fastsg_block_unrank(D, g, r, u);
          for (int t = 0; t < D; t++) REQUIRE_EQ(u[t], l[t]);
          r++;
        } while (fastsg_block_next(D, l));
        REQUIRE_EQ(r, fastsg_group_blocks(D, g));
      }
    }
}
END_TEST

/* D = 10, n = 14: 5.75e9 points, positions beyond 2^32. */
START_TEST(test_bijection_d10_n14) {
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(10, 14, &G));
  REQUIRE_EQ(G.npoints, 5750358017LL);
  unsigned long long s = 12345;
  int64_t fixed[] = {0, 1, (1LL << 31) - 1, 1LL << 31, (1LL << 32) + 7, G.npoints - 1,
                     G.gstart[13], G.gstart[13] - 1};
  for (int k = 0; k < 2000; k++) {
    int64_t p = k < 8 ? fixed[k] : (int64_t)tsr_test_rand(&s, 0, (double)G.npoints);
    int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
    int g = fastsg_idx2l(&G, p, l);
    fastsg_idx2i(&G, p, g, l, i);
    REQUIRE_EQ(fastsg_agp2idx(&G, l, i), p);
    /* and the other way: a random point (l, i) */
    int rl[FASTSG_MAX_DIM], ri[FASTSG_MAX_DIM], left = (int)tsr_test_rand(&s, 0, 14);
    for (int t = 0; t < 10; t++) {
      rl[t] = t == 9 ? left : (int)tsr_test_rand(&s, 0, left + 1);
      left -= rl[t];
      ri[t] = (int)tsr_test_rand(&s, 0, (double)(1 << rl[t]));
    }
    int64_t q = fastsg_agp2idx(&G, rl, ri);
    REQUIRE(q >= 0 && q < G.npoints, "q >= 0 && q < G.npoints");
    g = fastsg_idx2l(&G, q, l);
    fastsg_idx2i(&G, q, g, l, i);
    for (int t = 0; t < 10; t++) {
      REQUIRE_EQ(l[t], rl[t]);
      REQUIRE_EQ(i[t], ri[t]);
    }
  }
  REQUIRE_EQ(fastsg_agp2idx(&G, (int[10]){0, 0, 0, 0, 0, 0, 0, 0, 0, 13},
                                  (int[10]){0, 0, 0, 0, 0, 0, 0, 0, 0, 8191}),
                   G.gstart[13] + 8191);
  REQUIRE_EQ(fastsg_agp2idx(&G, (int[10]){13, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                  (int[10]){8191, 0, 0, 0, 0, 0, 0, 0, 0, 0}),
                   G.npoints - 1);
}
END_TEST

/* ---------------------------------------------------------------- helpers */

static double f_bump(const double *x, int D) {
  double v = 1;
  for (int t = 0; t < D; t++) v *= 4 * x[t] * (1 - x[t]);
  return v;
}

/* Sample f_bump at the grid points (in double, stored in prec). */
static void *sample(const fastsg_grid_t *G, tsr_dtype_t prec) {
  void *a = malloc((size_t)G->npoints * tsr_dtype_size(prec));
  for (int64_t p = 0; p < G->npoints; p++) {
    int l[FASTSG_MAX_DIM], i[FASTSG_MAX_DIM];
    double x[FASTSG_MAX_DIM];
    int g = fastsg_idx2l(G, p, l);
    fastsg_idx2i(G, p, g, l, i);
    for (int t = 0; t < G->dim; t++) x[t] = fastsg_coord1d(l[t], i[t]);
    double v = f_bump(x, G->dim);
    if (prec == TSR_FLOAT) ((float *)a)[p] = (float)v;
    else ((double *)a)[p] = v;
  }
  return a;
}

static int hierarchize(int variant, const fastsg_grid_t *G, tsr_dtype_t prec, void *a) {
  static int (*const fn[])(const fastsg_kernel_args_t *) = {
#define FASTSG_VARIANT(dev, kernel, name, help) fastsg_##kernel##_##name##_##dev,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
  };
  uint32_t *par = NULL;
  if (variant == FASTSG_V_cpu_hier_inv4) {
    par = malloc(fastsg_par1d_count(G->level) * sizeof *par);
    fastsg_par1d_fill(G->level, par);
  }
  fastsg_kernel_args_t A = {.grid = G, .prec = prec, .coef = a, .b0 = 0, .b1 = G->nblocks,
                            .par1d = par};
  int rc = 0;
  for (int t = 0; t < G->dim && !rc; t++) {
    A.t = t;
    rc = fn[variant](&A);
  }
  free(par);
  return rc;
}

static int evaluate(int variant, const fastsg_grid_t *G, tsr_dtype_t prec, const void *a,
                    int64_t npts, const void *x, void *r) {
  static int (*const fn[])(const fastsg_kernel_args_t *) = {
#define FASTSG_VARIANT(dev, kernel, name, help) fastsg_##kernel##_##name##_##dev,
#include "kernels/sparse/variants.def"
#undef FASTSG_VARIANT
  };
  fastsg_xlayout_t lay = fastsg_eval_layout(variant);
  size_t es = tsr_dtype_size(prec);
  void *xt = malloc((size_t)fastsg_x_count(lay, npts, G->dim) * es);
  uint8_t *btab = malloc((size_t)G->nblocks * 2 * G->dim);
  fastsg_x_relayout(lay, prec, npts, G->dim, x, xt);
  fastsg_btab_fill(G, btab);
  fastsg_kernel_args_t A = {.grid = G, .prec = prec, .coef = (void *)a, .npts = npts, .x = xt,
                            .r = r, .btab = btab};
  int rc = fn[variant](&A);
  free(xt);
  free(btab);
  return rc;
}

/* Random points in [0,1]^D (some coordinates exactly 0 or 1). */
static void *rand_points(int64_t npts, int D, tsr_dtype_t prec, unsigned long long seed) {
  void *x = malloc((size_t)(npts * D) * tsr_dtype_size(prec));
  for (int64_t e = 0; e < npts * D; e++) {
    double v = tsr_test_rand(&seed, 0, 1);
    if (e % 37 == 5) v = 1.0;
    if (e % 41 == 7) v = 0.0;
    if (prec == TSR_FLOAT) ((float *)x)[e] = (float)v;
    else ((double *)x)[e] = v;
  }
  return x;
}

static double get(const void *a, tsr_dtype_t prec, int64_t k) {
  return prec == TSR_FLOAT ? (double)((const float *)a)[k] : ((const double *)a)[k];
}

/* ---------------------------------------------------------------- step 2 */

/* For f = prod 4 x (1 - x) every coefficient is exactly 4^(-|l|_1). */
START_TEST(test_exact_coefficients) {
  struct { int D, n; tsr_dtype_t prec; } cases[] = {
      {1, 16, TSR_DOUBLE}, {2, 12, TSR_DOUBLE}, {3, 8, TSR_DOUBLE}, {5, 5, TSR_DOUBLE},
      {1, 12, TSR_FLOAT},  {2, 8, TSR_FLOAT},   {3, 6, TSR_FLOAT},  {4, 5, TSR_FLOAT}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    fastsg_grid_t G;
    ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
    for (int v = FASTSG_V_cpu_hier_plain; v <= FASTSG_V_cpu_hier_ichg1; v++) {
      void *a = sample(&G, cases[c].prec);
      ck_tsr(hierarchize(v, &G, cases[c].prec, a));
      for (int64_t p = 0; p < G.npoints; p++) {
        int g = fastsg_pos_group(&G, p);
        REQUIRE(get(a, cases[c].prec, p) == ldexp(1.0, -2 * g),
                      "D=%d n=%d %s variant %d: coefficient %lld = %.17g, expected 4^-%d",
                      cases[c].D, cases[c].n, tsr_dtype_name(cases[c].prec), v, (long long)p,
                      get(a, cases[c].prec, p), g);
      }
      free(a);
    }
  }
}
END_TEST

/* SG++'s tutorial: regular level-3 grid in 2-D (17 points), f = prod 4x(1-x),
 * interpolant at (0.52, 0.73) = 0.7696. */
START_TEST(test_sgpp_value) {
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(2, 3, &G));
  for (int v = FASTSG_V_cpu_eval_plain; v <= FASTSG_V_cpu_eval_vec1; v++) {
    double *a = sample(&G, TSR_DOUBLE), x[2] = {0.52, 0.73}, r = 0;
    ck_tsr(hierarchize(FASTSG_V_cpu_hier_plain, &G, TSR_DOUBLE, a));
    ck_tsr(evaluate(v, &G, TSR_DOUBLE, a, 1, x, &r));
    REQUIRE(fabs(r - 0.7696) < 5e-5, "variant %d: u(0.52, 0.73) = %.6f", v, r);
    free(a);
  }
}
END_TEST

/* The interpolant reproduces f at every grid point, and equals a brute-force
 * sum over all points of coefficient times basis function. */
START_TEST(test_interpolates) {
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(3, 5, &G));
  double *a = sample(&G, TSR_DOUBLE), *f = sample(&G, TSR_DOUBLE);
  ck_tsr(hierarchize(FASTSG_V_cpu_hier_plain, &G, TSR_DOUBLE, a));
  int64_t N = G.npoints;
  double *x = malloc((size_t)(N + 50) * 3 * sizeof *x), *r = malloc((size_t)(N + 50) * sizeof *r);
  for (int64_t p = 0; p < N; p++) {
    int l[3], i[3];
    int g = fastsg_idx2l(&G, p, l);
    fastsg_idx2i(&G, p, g, l, i);
    for (int t = 0; t < 3; t++) x[p * 3 + t] = fastsg_coord1d(l[t], i[t]);
  }
  double *xr = rand_points(50, 3, TSR_DOUBLE, 99);
  memcpy(x + N * 3, xr, 150 * sizeof *x);
  ck_tsr(evaluate(FASTSG_V_cpu_eval_plain, &G, TSR_DOUBLE, a, N + 50, x, r));
  for (int64_t p = 0; p < N; p++)
    REQUIRE(fabs(r[p] - f[p]) < 1e-14, "u(x_%lld) = %.17g, f = %.17g", (long long)p, r[p],
                  f[p]);
  for (int64_t k = N; k < N + 50; k++) {
    double u = 0;
    for (int64_t p = 0; p < N; p++) {
      int l[3], i[3];
      int g = fastsg_idx2l(&G, p, l);
      fastsg_idx2i(&G, p, g, l, i);
      double phi = 1;
      for (int t = 0; t < 3; t++)
        phi *= fmax(0.0, 1 - fabs(ldexp(x[k * 3 + t], l[t] + 1) - (2 * i[t] + 1)));
      u += a[p] * phi;
    }
    REQUIRE(fabs(u - r[k]) < 1e-14, "point %lld: %.17g vs brute force %.17g", (long long)k,
                  r[k], u);
  }
  free(a); free(f); free(x); free(r); free(xr);
}
END_TEST

START_TEST(test_roundtrip) {
  struct { int D, n; tsr_dtype_t prec; double tol; } cases[] = {
      {3, 6, TSR_DOUBLE, 1e-13}, {4, 5, TSR_DOUBLE, 1e-13}, {1, 10, TSR_DOUBLE, 1e-13},
      {3, 6, TSR_FLOAT, 2e-5}};
  for (size_t c = 0; c < 4; c++) {
    fastsg_grid_t G;
    ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
    size_t es = tsr_dtype_size(cases[c].prec);
    void *a = rand_points(G.npoints, 1, cases[c].prec, 7 + c), *b = malloc(G.npoints * es);
    memcpy(b, a, G.npoints * es);
    ck_tsr(hierarchize(FASTSG_V_cpu_hier_plain, &G, cases[c].prec, b));
    double moved = 0;
    for (int64_t p = 0; p < G.npoints; p++)
      moved = fmax(moved, fabs(get(a, cases[c].prec, p) - get(b, cases[c].prec, p)));
    REQUIRE(moved > 0.1, "moved > 0.1"); /* hierarchization changed the values */
    ck_tsr(fastsg_dehier_cpu(&G, cases[c].prec, b));
    for (int64_t p = 0; p < G.npoints; p++)
      REQUIRE(fabs(get(a, cases[c].prec, p) - get(b, cases[c].prec, p)) <= cases[c].tol,
                    "case %zu point %lld: %.9g -> %.9g", c, (long long)p,
                    get(a, cases[c].prec, p), get(b, cases[c].prec, p));
    free(a);
    free(b);
  }
}
END_TEST

/* Max error at random points falls like h^2 log(1/h)^(D-1), h = 2^-n:
 * err(n) / (4^-n n^(D-1)) stays within a factor 3 over n = 4..10 and each
 * level gains at least a factor 2.5. */
START_TEST(test_convergence) {
  const int D = 2, npts = 4000;
  double *x = rand_points(npts, D, TSR_DOUBLE, 2024), *r = malloc(npts * sizeof *r);
  double cmin = INFINITY, cmax = 0, prev = INFINITY;
  for (int n = 4; n <= 10; n++) {
    fastsg_grid_t G;
    ck_tsr(fastsg_grid_init(D, n, &G));
    double *a = sample(&G, TSR_DOUBLE);
    ck_tsr(hierarchize(FASTSG_V_cpu_hier_inv3, &G, TSR_DOUBLE, a));
    ck_tsr(evaluate(FASTSG_V_cpu_eval_sred1, &G, TSR_DOUBLE, a, npts, x, r));
    double err = 0;
    for (int k = 0; k < npts; k++) err = fmax(err, fabs(r[k] - f_bump(x + k * D, D)));
    double c = err / (ldexp(1.0, -2 * n) * pow(n, D - 1));
    cmin = fmin(cmin, c);
    cmax = fmax(cmax, c);
    REQUIRE(err < prev / 2.5, "n=%d: error %.3g did not fall enough from %.3g", n, err, prev);
    prev = err;
    free(a);
  }
  REQUIRE(cmax / cmin < 3, "err / (h^2 log(1/h)^(D-1)) ranges over [%g, %g]", cmin, cmax);
  free(x);
  free(r);
}
END_TEST

/* ---------------------------------------------------------------- step 3 */

/* Every hierarchization variant equals the plain one bit for bit, also
 * when the sweep is split into block ranges (as MPI ranks do). */
START_TEST(test_hier_variants) {
  struct { int D, n; } cases[] = {{1, 9}, {2, 8}, {3, 7}, {5, 5}, {7, 4}};
  for (size_t c = 0; c < 5; c++)
    for (int pr = 0; pr < 2; pr++) {
      tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
      size_t es = tsr_dtype_size(prec);
      fastsg_grid_t G;
      ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
      void *ref = rand_points(G.npoints, 1, prec, 100 + c), *b = malloc(G.npoints * es);
      void *orig = malloc(G.npoints * es);
      memcpy(orig, ref, G.npoints * es);
      ck_tsr(hierarchize(FASTSG_V_cpu_hier_plain, &G, prec, ref));
      for (int v = FASTSG_V_cpu_hier_inv1; v <= FASTSG_V_cpu_hier_ichg1; v++) {
        memcpy(b, orig, G.npoints * es);
        ck_tsr(hierarchize(v, &G, prec, b));
        REQUIRE(memcmp(b, ref, G.npoints * es) == 0, "D=%d n=%d %s: variant %d differs",
                      cases[c].D, cases[c].n, tsr_dtype_name(prec), v);
      }
      free(ref);
      free(b);
      free(orig);
    }
}
END_TEST

START_TEST(test_hier_ranges) {
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(3, 7, &G));
  const int P = 3;
  size_t bytes = G.npoints * sizeof(double);
  double *ref = rand_points(G.npoints, 1, TSR_DOUBLE, 5), *orig = malloc(bytes);
  memcpy(orig, ref, bytes);
  ck_tsr(hierarchize(FASTSG_V_cpu_hier_plain, &G, TSR_DOUBLE, ref));
  int variants[] = {FASTSG_V_cpu_hier_plain, FASTSG_V_cpu_hier_inv3, FASTSG_V_cpu_hier_ichg1};
  for (int k = 0; k < 3; k++) {
    double *cur = malloc(bytes), *part = malloc(bytes);
    memcpy(cur, orig, bytes);
    for (int t = 0; t < G.dim; t++) {
      double *next = malloc(bytes);
      for (int q = 0; q < P; q++) { /* each "rank" sweeps its blocks on its own copy */
        int64_t b0, b1;
        fastsg_block_range(&G, q, P, &b0, &b1);
        REQUIRE(b0 < b1, "b0 < b1");
        memcpy(part, cur, bytes);
        fastsg_kernel_args_t A = {.grid = &G, .prec = TSR_DOUBLE, .coef = part, .t = t,
                                  .b0 = b0, .b1 = b1};
        int (*fn)(const fastsg_kernel_args_t *) =
            k == 0 ? fastsg_hier_plain_cpu : k == 1 ? fastsg_hier_inv3_cpu : fastsg_hier_ichg1_cpu;
        ck_tsr(fn(&A));
        int64_t p0 = fastsg_gblock_pos(&G, b0), p1 = fastsg_gblock_pos(&G, b1);
        memcpy(next + p0, part + p0, (size_t)(p1 - p0) * sizeof(double));
      }
      memcpy(cur, next, bytes);
      free(next);
    }
    REQUIRE(memcmp(cur, ref, bytes) == 0, "split sweep (variant %d) differs", variants[k]);
    /* the ranges one after the other in place on one array (as the CUDA
     * test does): from the highest range down equals the whole sweep; from
     * the lowest up it reads parents already updated, and differs */
    for (int up = 0; up < 2; up++) {
      memcpy(cur, orig, bytes);
      for (int t = 0; t < G.dim; t++)
        for (int s = 0; s < P; s++) {
          int q = up ? s : P - 1 - s;
          fastsg_kernel_args_t A = {.grid = &G, .prec = TSR_DOUBLE, .coef = cur, .t = t};
          fastsg_block_range(&G, q, P, &A.b0, &A.b1);
          int (*fn)(const fastsg_kernel_args_t *) =
              k == 0 ? fastsg_hier_plain_cpu : k == 1 ? fastsg_hier_inv3_cpu : fastsg_hier_ichg1_cpu;
          ck_tsr(fn(&A));
        }
      REQUIRE((memcmp(cur, ref, bytes) == 0) == !up, "in-place ranges %s (variant %d): %s",
              up ? "low to high" : "high to low", variants[k],
              up ? "equal to the whole sweep, expected a difference" : "differ");
    }
    free(cur);
    free(part);
  }
  free(ref);
  free(orig);
}
END_TEST

START_TEST(test_eval_variants) {
  struct { int D, n; int64_t npts; } cases[] = {{1, 8, 100}, {2, 7, 333}, {4, 5, 129}, {9, 3, 40}};
  for (size_t c = 0; c < 4; c++)
    for (int pr = 0; pr < 2; pr++) {
      tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
      double tol = pr ? 2e-5 : 1e-12;
      fastsg_grid_t G;
      ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
      int64_t m = cases[c].npts;
      void *a = rand_points(G.npoints, 1, prec, 300 + c);
      void *x = rand_points(m, G.dim, prec, 400 + c);
      void *ref = malloc(m * 8), *r = malloc(m * 8);
      ck_tsr(evaluate(FASTSG_V_cpu_eval_plain, &G, prec, a, m, x, ref));
      for (int v = FASTSG_V_cpu_eval_sred1; v <= FASTSG_V_cpu_eval_vec1; v++) {
        memset(r, 0xff, m * 8);
        ck_tsr(evaluate(v, &G, prec, a, m, x, r));
        for (int64_t k = 0; k < m; k++) {
          double e = get(ref, prec, k), o = get(r, prec, k);
          REQUIRE(fabs(e - o) <= tol * (1 + fabs(e)), "D=%d %s variant %d point %lld: %.9g vs %.9g",
                        G.dim, tsr_dtype_name(prec), v, (long long)k, o, e);
        }
      }
      free(a); free(x); free(ref); free(r);
    }
}
END_TEST

static Suite *sparse_suite(void) {
  Suite *s = suite_create("sparse");
  TCase *tc = tcase_create("grid");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_counts);
  tcase_add_test(tc, test_bijection_all);
  tcase_add_test(tc, test_bijection_d10_n14);
  suite_add_tcase(s, tc);
  tc = tcase_create("kernels");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_exact_coefficients);
  tcase_add_test(tc, test_sgpp_value);
  tcase_add_test(tc, test_interpolates);
  tcase_add_test(tc, test_roundtrip);
  tcase_add_test(tc, test_convergence);
  tcase_add_test(tc, test_hier_variants);
  tcase_add_test(tc, test_hier_ranges);
  tcase_add_test(tc, test_eval_variants);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(sparse_suite()); }
