/* check_sparse_walk: the block walk of kernels/sparse/sg_walk.h (the "walk"
 * evaluation variants): it visits every block of every group in storage
 * order (level vector = fastsg_block_unrank of a running rank, position =
 * fastsg_block_pos); each point's product equals the D hats of sg.h (to
 * rounding: only the order of the product differs) and its local index is
 * exactly fastsg_local of the cells; the staging windows partition the
 * staged groups into maximal runs of whole blocks; and cpu/eval/walk agrees
 * with cpu/eval/plain on random non-zero coefficients at random points, at
 * x = 0, x = 1 (the clamped cell) and on cell boundaries. */
#include "config.h"
#include <math.h>
#include "tsr_check.h"
#include "kernels/sparse/sg_kernels.h"
#include "kernels/sparse/sg_walk.h"
#include "sparse_eval_case.h"

static void walk_check(int D, int n) {
  fastsg_grid_t G;
  ck_tsr(fastsg_grid_init(D, n, &G));
  enum { M = 24 };
  double x[M * FASTSG_MAX_DIM];
  float xf[M * FASTSG_MAX_DIM];
  sg_test_points(x, (int64_t)M * D, n, 1000 + 17 * D + n);
  for (int e = 0; e < M * D; e++) xf[e] = (float)x[e];
  fastsg_walkpt_d_t q[M];
  fastsg_walkpt_outer_d_t qo[M];
  fastsg_walkpt_f_t qf[M];
  fastsg_walkpt_outer_f_t qfo[M];
  for (int k = 0; k < M; k++) {
    fastsg_walkpt_set_d(&q[k], &qo[k], x + k * D, D);
    fastsg_walkpt_set_f(&qf[k], &qfo[k], xf + k * D, D);
  }
  int64_t visited = 0;
  for (int g = 0; g < n; g++) {
    fastsg_walk_t w;
    fastsg_walk_outer_t wo;
    int ch = fastsg_walk_first(&w, &wo, &G, g);
    int64_t rank = 0;
    do {
      int l[FASTSG_MAX_DIM], lu[FASTSG_MAX_DIM], c[FASTSG_MAX_DIM];
      REQUIRE(rank < fastsg_group_blocks(D, g), "D=%d n=%d g=%d: more than %lld blocks", D, n, g,
              (long long)fastsg_group_blocks(D, g));
      fastsg_walk_levels(&w, l);
      fastsg_block_unrank(D, g, rank, lu);
      for (int t = 0; t < D; t++)
        REQUIRE(l[t] == lu[t], "D=%d g=%d rank %lld: l[%d] = %d, unrank says %d", D, g,
                (long long)rank, t, l[t], lu[t]);
      REQ_EQ(fastsg_block_rank(D, l), rank);
      REQ_EQ(w.pos, fastsg_block_pos(&G, g, rank));
      for (int k = 0; k < M; k++) {
        fastsg_walkpt_update_d(&w, &q[k], ch);
        fastsg_walkpt_update_f(&w, &qf[k], ch);
        double p = 1;
        float pf = 1;
        int cf[FASTSG_MAX_DIM];
        for (int t = 0; t < D; t++) {
          const double xs = x[k * D + t] * (double)(1 << l[t]);
          const float xsf = xf[k * D + t] * (float)(1 << l[t]);
          c[t] = fastsg_cell(xs, l[t]);
          cf[t] = fastsg_cell(xsf, l[t]);
          p *= fastsg_hat_d(xs, c[t]);
          pf *= fastsg_hat_f(xsf, cf[t]);
        }
        REQ_EQ(q[k].idx, fastsg_local(D, l, c));
        REQ_EQ(qf[k].idx, fastsg_local(D, l, cf));
        REQUIRE(q[k].idx >= 0 && q[k].idx < ((int64_t)1 << g), "index %d outside the block",
                (int)q[k].idx);
        REQUIRE(fabs(q[k].p - p) <= 4 * D * 1.2e-16 * p,
                "D=%d g=%d rank %lld point %d: product %.17g, hats give %.17g", D, g,
                (long long)rank, k, q[k].p, p);
        REQUIRE(fabsf(qf[k].p - pf) <= 4 * D * 6e-8f * pf,
                "D=%d g=%d rank %lld point %d: float product %.9g, hats give %.9g", D, g,
                (long long)rank, k, qf[k].p, pf);
      }
      rank++;
    } while ((ch = fastsg_walk_next(&w)) != FASTSG_WALK_END);
    REQ_EQ(rank, fastsg_group_blocks(D, g));
    visited += rank;
  }
  REQ_EQ(visited, G.nblocks);
}

START_TEST(test_walk_order) {
  for (int D = 1; D <= 6; D++)
    for (int n = 1; n <= 7; n++) walk_check(D, n);
  walk_check(10, 5);
  walk_check(13, 3);
}
END_TEST

/* Windows of capacity S: contiguous from 0, each ending on a block boundary,
 * at most S long, and maximal (the next block would not fit). */
START_TEST(test_windows) {
  struct { int D, n; } cases[] = {{1, 9}, {2, 8}, {3, 6}, {5, 5}, {10, 4}};
  const int64_t caps[] = {1, 2, 3, 7, 64, 1000, 1 << 20};
  for (int c = 0; c < 5; c++)
    for (int s = 0; s < 7; s++) {
      fastsg_grid_t G;
      ck_tsr(fastsg_grid_init(cases[c].D, cases[c].n, &G));
      const int64_t S = caps[s];
      const int gmax = fastsg_window_gmax(&G, S);
      REQUIRE(gmax >= 0 && ((int64_t)1 << gmax) <= S &&
                  (gmax == G.level - 1 || ((int64_t)2 << gmax) > S),
              "S=%lld: gmax %d", (long long)S, gmax);
      const int64_t lim = G.gstart[gmax + 1];
      /* block boundaries of the staged groups, in order */
      int64_t nb = G.bstart[gmax + 1], k = 0, start = 0;
      int64_t *bnd = malloc(sizeof(int64_t) * (size_t)(nb + 1));
      for (int g = 0; g <= gmax; g++)
        for (int64_t r = 0; r < fastsg_group_blocks(G.dim, g); r++)
          bnd[k++] = fastsg_block_pos(&G, g, r);
      bnd[nb] = lim;
      k = 0; /* bnd[k] = start */
      while (start < lim) {
        const int64_t end = fastsg_window_end(&G, start, S, gmax);
        REQUIRE(end > start && end - start <= S && end <= lim,
                "D=%d n=%d S=%lld: window [%lld, %lld)", G.dim, G.level, (long long)S,
                (long long)start, (long long)end);
        while (bnd[k] < end) k++;
        REQUIRE(bnd[k] == end, "window end %lld is not a block boundary", (long long)end);
        REQUIRE(end == lim || bnd[k + 1] - start > S, "window [%lld, %lld) could take one more block",
                (long long)start, (long long)end);
        start = end;
      }
      REQ_EQ(fastsg_window_end(&G, lim, S, gmax), lim); /* nothing left */
      free(bnd);
    }
}
END_TEST

START_TEST(test_walk_cpu) {
  struct { int D, n; int64_t m; } cases[] = {{1, 1, 5},  {1, 10, 200}, {2, 1, 7},  {2, 8, 300},
                                             {3, 6, 101}, {4, 5, 129},  {5, 4, 77}, {6, 5, 64},
                                             {10, 4, 50}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    for (int pr = 0; pr < 2; pr++) {
      const tsr_dtype_t prec = pr ? TSR_FLOAT : TSR_DOUBLE;
      const double tol = pr ? 2e-5 : 1e-12;
      sg_test_case_t t;
      sg_test_case_init(&t, cases[c].D, cases[c].n, cases[c].m, prec, 77 + c, 99 + c);
      const int64_t m = t.m;
      void *r = malloc(t.es * (size_t)m);
      memset(r, 0xff, t.es * (size_t)m);
      fastsg_kernel_args_t A = {.grid = &t.G, .prec = prec, .coef = t.a, .npts = m, .x = t.x, .r = r};
      ck_tsr(fastsg_eval_walk_cpu(&A));
      for (int64_t k = 0; k < m; k++) {
        const double e = sg_test_get(t.ref, prec, k), o = sg_test_get(r, prec, k);
        REQUIRE(fabs(e - o) <= tol * (1 + fabs(e)), "D=%d n=%d %s point %lld: walk %.17g, plain %.17g",
                t.G.dim, t.G.level, tsr_dtype_name(prec), (long long)k, o, e);
      }
      free(r);
      sg_test_case_free(&t);
    }
}
END_TEST

static Suite *walk_suite(void) {
  Suite *s = suite_create("sparse_walk");
  TCase *tc = tcase_create("walk");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_walk_order);
  tcase_add_test(tc, test_windows);
  tcase_add_test(tc, test_walk_cpu);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(walk_suite()); }
