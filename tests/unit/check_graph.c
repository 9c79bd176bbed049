/* check_graph: the X-Y plane graph, graphs from degree lists, and the METIS
 * k-way partition every library caller uses (parts in range, none empty,
 * within METIS's default imbalance, the same parts for the same seed, one
 * error wording). */
#include <unistd.h> /* getpid, used by tsr_check.h */
#include "tsr_check.h"

START_TEST(test_plane) {
  tsr_graph_t g;
  ck_tsr(tsr_graph_plane(5, 3, &g));
  ck_assert_int_eq(g.n, 15);
  ck_assert_int_eq(g.off[15], 2 * (4 * 3 + 5 * 2)); /* each edge twice */
  for (tsr_idx_t y = 0; y < 3; y++)
    for (tsr_idx_t x = 0; x < 5; x++) {
      const tsr_idx_t v = x + 5 * y;
      int32_t want[4];
      int k = 0;
      if (x > 0) want[k++] = (int32_t)(v - 1);
      if (x < 4) want[k++] = (int32_t)(v + 1);
      if (y > 0) want[k++] = (int32_t)(v - 5);
      if (y < 2) want[k++] = (int32_t)(v + 5);
      REQ_EQ(g.off[v + 1] - g.off[v], k);
      for (int j = 0; j < k; j++) REQ_EQ(g.adj[g.off[v] + j], want[j]);
    }
  tsr_graph_free(&g);
  ck_assert_ptr_null(g.off);
  ck_tsr_fails(tsr_graph_plane(0, 3, &g), TSR_ERR_ARG);
}
END_TEST

START_TEST(test_csr) {
  const int deg[4] = {1, 2, 2, 1};
  const int64_t adj[6] = {1, 0, 2, 1, 3, 2}; /* a path 0-1-2-3 */
  tsr_graph_t g;
  ck_tsr(tsr_graph_from_csr(4, deg, adj, &g));
  ck_assert_int_eq(g.off[4], 6);
  for (int j = 0; j < 6; j++) REQ_EQ(g.adj[j], adj[j]);
  tsr_graph_free(&g);
  const int64_t bad[6] = {1, 0, 2, 1, 4, 2};
  ck_tsr_fails(tsr_graph_from_csr(4, deg, bad, &g), TSR_ERR_RANGE);
}
END_TEST

START_TEST(test_partition) {
  tsr_graph_t g;
  ck_tsr(tsr_graph_plane(31, 20, &g));
  const tsr_idx_t n = g.n;
  int *p = malloc(sizeof(int) * (size_t)n), *q = malloc(sizeof(int) * (size_t)n);
  for (int np = 1; np <= 7; np++) {
    ck_tsr(tsr_graph_partition(&g, np, 7, 0, "the test plane", p));
    ck_tsr(tsr_graph_partition(&g, np, 7, 0, "the test plane", q));
    ck_assert(memcmp(p, q, sizeof(int) * (size_t)n) == 0);
    int cnt[8] = {0};
    for (tsr_idx_t v = 0; v < n; v++) {
      REQUIRE(p[v] >= 0 && p[v] < np, "part %d of vertex %lld, %d parts", p[v], (long long)v, np);
      cnt[p[v]]++;
    }
    for (int k = 0; k < np; k++) /* METIS's default tolerance is 1.03 */
      ck_assert_msg(cnt[k] > 0 && cnt[k] <= 1.03 * (double)n / np + 1, "%d parts: part %d has %d",
                    np, k, cnt[k]);
  }
  /* an explicit tolerance is honoured (with METIS's rounding) */
  ck_tsr(tsr_graph_partition(&g, 4, 1, 1.2, "the test plane", p));
  int cnt[4] = {0};
  for (tsr_idx_t v = 0; v < n; v++) cnt[p[v]]++;
  for (int k = 0; k < 4; k++) ck_assert(cnt[k] > 0 && cnt[k] <= 1.2 * (double)n / 4 + 2);
  ck_tsr_fails(tsr_graph_partition(&g, 0, 7, 0, "the test plane", p), TSR_ERR_ARG);
  ck_tsr_fails(tsr_graph_partition(&g, 2, 7, 0.5, "the test plane", p), TSR_ERR_ARG);
  free(p);
  free(q);
  tsr_graph_free(&g);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("graph");
  TCase *t = tcase_create("core");
  tcase_add_test(t, test_plane);
  tcase_add_test(t, test_csr);
  tcase_add_test(t, test_partition);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return tsr_test_run(suite()); }
