/* check_reorder: graphs of maps, GPS (Scotch) and RCM renumbering,
 * bandwidth and profile, METIS blocks, data points by blocks, segment-
 * restricted permutations, and two-level colouring plans, each against
 * brute force on small meshes with shuffled numbering. */
#include <unistd.h> /* getpid, used by tsr_check.h */
#include <math.h>
#include "tsr_check.h"

/* A grid of nx*ny cells; "edges" join horizontally and vertically adjacent
 * cells (like Airfoil's pecell). Cells and edges are numbered at random
 * (seeded) so that the natural order has no locality. Returns the map
 * [nedge][2] (malloc'd) and *nedge. */
static int32_t *grid_edges(int nx, int ny, unsigned long long seed, tsr_idx_t *nedge) {
  tsr_idx_t nc = (tsr_idx_t)nx * ny, ne = (tsr_idx_t)(nx - 1) * ny + (tsr_idx_t)nx * (ny - 1);
  int32_t *cell = malloc(sizeof(int32_t) * nc), *map = malloc(sizeof(int32_t) * 2 * ne);
  tsr_idx_t *eord = malloc(sizeof(tsr_idx_t) * ne);
  for (tsr_idx_t i = 0; i < nc; i++) cell[i] = (int32_t)i;
  for (tsr_idx_t i = 0; i < ne; i++) eord[i] = i;
  for (tsr_idx_t i = nc - 1; i > 0; i--) { /* Fisher-Yates */
    tsr_idx_t j = (tsr_idx_t)tsr_test_rand(&seed, 0, (double)(i + 1));
    int32_t t = cell[i]; cell[i] = cell[j]; cell[j] = t;
  }
  for (tsr_idx_t i = ne - 1; i > 0; i--) {
    tsr_idx_t j = (tsr_idx_t)tsr_test_rand(&seed, 0, (double)(i + 1));
    tsr_idx_t t = eord[i]; eord[i] = eord[j]; eord[j] = t;
  }
  tsr_idx_t e = 0;
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) {
      if (x + 1 < nx) map[2 * eord[e]] = cell[y * nx + x], map[2 * eord[e] + 1] = cell[y * nx + x + 1], e++;
      if (y + 1 < ny) map[2 * eord[e]] = cell[y * nx + x], map[2 * eord[e] + 1] = cell[(y + 1) * nx + x], e++;
    }
  free(cell);
  free(eord);
  *nedge = ne;
  return map;
}

/* dense adjacency of the graph a map induces, by brute force */
static unsigned char *brute_adj(const int32_t *map, tsr_idx_t nrows, int dim, tsr_idx_t nt,
                                tsr_graph_kind_t kind) {
  tsr_idx_t n = kind == TSR_GRAPH_TARGETS ? nt : nrows;
  unsigned char *a = calloc((size_t)(n * n), 1);
  if (kind == TSR_GRAPH_TARGETS) {
    for (tsr_idx_t r = 0; r < nrows; r++)
      for (int i = 0; i < dim; i++)
        for (int j = 0; j < dim; j++) {
          int32_t u = map[r * dim + i], v = map[r * dim + j];
          if (u >= 0 && v >= 0 && u != v) a[u * n + v] = 1;
        }
  } else {
    for (tsr_idx_t r = 0; r < nrows; r++)
      for (tsr_idx_t s = 0; s < nrows; s++)
        for (int i = 0; i < dim && r != s; i++)
          for (int j = 0; j < dim; j++)
            if (map[r * dim + i] >= 0 && map[r * dim + i] == map[s * dim + j]) a[r * n + s] = 1;
  }
  return a;
}

START_TEST(test_graph_from_map) {
  unsigned long long seed = 11;
  for (int kind = 0; kind < 2; kind++)
    for (int dim = 1; dim <= 4; dim++) {
      tsr_idx_t nrows = 40, nt = 25;
      int32_t *map = malloc(sizeof(int32_t) * nrows * dim);
      for (tsr_idx_t k = 0; k < nrows * dim; k++) /* some -1 entries, as in halo rows */
        map[k] = tsr_test_rand(&seed, 0, 1) < 0.1 ? -1 : (int32_t)tsr_test_rand(&seed, 0, (double)nt);
      tsr_graph_t g;
      ck_tsr(tsr_graph_from_map(map, 0, nrows, dim, nt, (tsr_graph_kind_t)kind, &g));
      unsigned char *a = brute_adj(map, nrows, dim, nt, (tsr_graph_kind_t)kind);
      ck_assert_int_eq(g.n, kind == TSR_GRAPH_TARGETS ? nt : nrows);
      int bad = 0;
      for (tsr_idx_t v = 0; v < g.n; v++) {
        tsr_idx_t cnt = 0;
        for (tsr_idx_t u = 0; u < g.n; u++) cnt += a[v * g.n + u];
        if (cnt != g.off[v + 1] - g.off[v]) bad++;
        for (tsr_idx_t j = g.off[v]; j < g.off[v + 1]; j++)
          if (!a[v * g.n + g.adj[j]] || (j > g.off[v] && g.adj[j] <= g.adj[j - 1])) bad++;
      }
      ck_assert_msg(bad == 0, "kind %d dim %d: %d adjacency mismatches", kind, dim, bad);
      free(a);
      free(map);
      tsr_graph_free(&g);
    }
  int32_t bad[2] = {0, 7};
  tsr_graph_t g;
  ck_tsr_fails(tsr_graph_from_map(bad, 0, 1, 2, 5, TSR_GRAPH_TARGETS, &g), TSR_ERR_RANGE);
}
END_TEST

/* bandwidth and profile by brute force over the dense matrix */
static void brute_bw(const tsr_graph_t *g, const tsr_idx_t *perm, tsr_idx_t *bw, tsr_idx_t *pr) {
  *bw = 0, *pr = 0;
  for (tsr_idx_t v = 0; v < g->n; v++) {
    tsr_idx_t lo = perm[v];
    for (tsr_idx_t u = 0; u < g->n; u++) {
      int adj = 0;
      for (tsr_idx_t j = g->off[v]; j < g->off[v + 1]; j++) adj |= g->adj[j] == u;
      if (!adj) continue;
      tsr_idx_t d = llabs((long long)(perm[u] - perm[v]));
      if (d > *bw) *bw = d;
      if (perm[u] < lo) lo = perm[u];
    }
    *pr += perm[v] - lo;
  }
}

START_TEST(test_gps_rcm) {
  const int nx = 24, ny = 9; /* bandwidth of the best row ordering: 9 */
  tsr_idx_t ne, nc = nx * ny;
  int32_t *map = grid_edges(nx, ny, 5, &ne);
  tsr_graph_t g;
  ck_tsr(tsr_graph_from_map(map, 0, ne, 2, nc, TSR_GRAPH_TARGETS, &g));
  tsr_idx_t *id = malloc(sizeof(tsr_idx_t) * nc), *gps = malloc(sizeof(tsr_idx_t) * nc),
            *rcm = malloc(sizeof(tsr_idx_t) * nc);
  for (tsr_idx_t i = 0; i < nc; i++) id[i] = i;
  ck_tsr(tsr_reorder_gps(&g, gps));
  ck_tsr(tsr_reorder_rcm(&g, rcm));
  ck_assert(tsr_perm_check(gps, nc) && tsr_perm_check(rcm, nc));
  tsr_idx_t b0, p0, b1, p1, b2, p2, bb, pb;
  tsr_graph_bandwidth(&g, NULL, &b0, &p0);
  brute_bw(&g, id, &bb, &pb);
  ck_assert(b0 == bb && p0 == pb);
  tsr_graph_bandwidth(&g, gps, &b1, &p1);
  brute_bw(&g, gps, &bb, &pb);
  ck_assert(b1 == bb && p1 == pb);
  tsr_graph_bandwidth(&g, rcm, &b2, &p2);
  brute_bw(&g, rcm, &bb, &pb);
  ck_assert(b2 == bb && p2 == pb);
  /* shuffled: bandwidth near nc; both orderings come close to the grid's
   * short side (9); allow a factor 2 */
  ck_assert_msg(b0 > 100, "shuffled bandwidth %lld", (long long)b0);
  ck_assert_msg(b1 <= 2 * ny && b2 <= 2 * ny, "GPS bandwidth %lld, RCM %lld (grid %dx%d)",
                (long long)b1, (long long)b2, nx, ny);
  ck_assert(p1 < p0 / 4 && p2 < p0 / 4);
  /* two components and an isolated vertex: RCM numbers all of them */
  int32_t two[8] = {0, 1, 1, 2, 4, 5, 5, 6};
  tsr_graph_t h;
  ck_tsr(tsr_graph_from_map(two, 0, 4, 2, 7, TSR_GRAPH_TARGETS, &h));
  tsr_idx_t ph[7];
  ck_tsr(tsr_reorder_rcm(&h, ph));
  ck_assert(tsr_perm_check(ph, 7));
  ck_tsr(tsr_reorder_gps(&h, ph));
  ck_assert(tsr_perm_check(ph, 7));
  tsr_graph_free(&h);
  tsr_graph_free(&g);
  free(map);
  free(id);
  free(gps);
  free(rcm);
}
END_TEST

/* distinct targets of rows [r0, r1) of map through order (NULL: identity) */
static tsr_idx_t distinct(const int32_t *map, int dim, const int32_t *order, tsr_idx_t r0,
                          tsr_idx_t r1, tsr_idx_t nt) {
  unsigned char *s = calloc((size_t)nt, 1);
  tsr_idx_t n = 0;
  for (tsr_idx_t i = r0; i < r1; i++)
    for (int k = 0; k < dim; k++) {
      int32_t t = map[(order ? order[i] : i) * dim + k];
      if (t >= 0 && !s[t]) s[t] = 1, n++;
    }
  free(s);
  return n;
}

START_TEST(test_blocks) {
  const int nx = 40, ny = 30, S = 64;
  tsr_idx_t ne, nc = nx * ny;
  int32_t *map = grid_edges(nx, ny, 7, &ne);
  tsr_graph_t g;
  ck_tsr(tsr_graph_from_map(map, 0, ne, 2, nc, TSR_GRAPH_ROWS, &g));
  tsr_idx_t *perm = malloc(sizeof(tsr_idx_t) * ne), nb, *off;
  ck_tsr(tsr_reorder_blocks(&g, S, 1.001, 0, perm, &nb, &off));
  ck_assert(tsr_perm_check(perm, ne));
  ck_assert_int_eq(off[0], 0);
  ck_assert_int_eq(off[nb], ne);
  ck_assert_int_ge(nb, TSR_CEIL_DIV(ne, S));
  for (tsr_idx_t b = 0; b < nb; b++)
    if (!(off[b + 1] > off[b] && off[b + 1] - off[b] <= S))
      ck_abort_msg("block %lld has %lld elements (max %d)", (long long)b,
                   (long long)(off[b + 1] - off[b]), S);
  /* the reordered map: rows by new number */
  int32_t *pm = malloc(sizeof(int32_t) * 2 * ne);
  for (tsr_idx_t e = 0; e < ne; e++) pm[2 * perm[e]] = map[2 * e], pm[2 * perm[e] + 1] = map[2 * e + 1];
  /* data reuse: the partition's blocks stage far fewer cells than uniform
   * blocks of the shuffled numbering (brute-force counts) */
  tsr_idx_t staged_part = 0, staged_unif = 0;
  for (tsr_idx_t b = 0; b < nb; b++) staged_part += distinct(pm, 2, NULL, off[b], off[b + 1], nc);
  for (tsr_idx_t r = 0; r < ne; r += S) staged_unif += distinct(map, 2, NULL, r, TSR_MIN(r + S, ne), nc);
  ck_assert_msg(staged_part * 2 < staged_unif, "staged cells: partition %lld, uniform %lld",
                (long long)staged_part, (long long)staged_unif);
  /* data points by blocks: keys (number of blocks, their list) never decrease */
  tsr_idx_t *cp = malloc(sizeof(tsr_idx_t) * nc);
  ck_tsr(tsr_reorder_points_by_blocks(pm, 2, nb, off, nc, cp));
  ck_assert(tsr_perm_check(cp, nc));
  tsr_idx_t *inv = malloc(sizeof(tsr_idx_t) * nc);
  for (tsr_idx_t c = 0; c < nc; c++) inv[cp[c]] = c;
  int32_t (*lists)[8] = calloc((size_t)nc, sizeof *lists);
  int *cnt = calloc((size_t)nc, sizeof(int));
  for (tsr_idx_t b = 0; b < nb; b++) /* brute force: blocks of each cell */
    for (tsr_idx_t r = off[b]; r < off[b + 1]; r++)
      for (int k = 0; k < 2; k++) {
        int32_t c = pm[2 * r + k];
        if (cnt[c] == 0 || lists[c][cnt[c] - 1] != b) lists[c][cnt[c]++] = (int32_t)b;
      }
  int bad = 0;
  for (tsr_idx_t i = 1; i < nc; i++) {
    tsr_idx_t a = inv[i - 1], c = inv[i];
    if (cnt[a] > cnt[c]) bad++;
    else if (cnt[a] == cnt[c] && memcmp(lists[a], lists[c], sizeof(int32_t) * cnt[a]) > 0) {
      int lt = 0;
      for (int j = 0; j < cnt[a]; j++)
        if (lists[a][j] != lists[c][j]) {
          lt = lists[a][j] < lists[c][j];
          break;
        }
      if (!lt) bad++;
    }
  }
  ck_assert_msg(bad == 0, "%d data points out of (count, blocks) order", bad);
  free(lists);
  free(cnt);
  free(inv);
  free(cp);
  free(pm);
  free(off);
  free(perm);
  free(map);
  tsr_graph_free(&g);
  tsr_idx_t nb2, *off2;
  ck_tsr_fails(tsr_reorder_blocks(&g, 0, 1.001, 0, NULL, &nb2, &off2), TSR_ERR_ARG);
}
END_TEST

START_TEST(test_restrict) {
  unsigned long long seed = 3;
  const tsr_idx_t n = 50;
  tsr_idx_t seg[4] = {0, 12, 12, 50}, perm[50], orig[50];
  for (tsr_idx_t i = 0; i < n; i++) perm[i] = i;
  for (tsr_idx_t i = n - 1; i > 0; i--) {
    tsr_idx_t j = (tsr_idx_t)tsr_test_rand(&seed, 0, (double)(i + 1)), t = perm[i];
    perm[i] = perm[j], perm[j] = t;
  }
  memcpy(orig, perm, sizeof perm);
  ck_tsr(tsr_perm_restrict(perm, 3, seg));
  ck_assert(tsr_perm_check(perm, n));
  for (int s = 0; s < 3; s++)
    for (tsr_idx_t i = seg[s]; i < seg[s + 1]; i++) {
      ck_assert(perm[i] >= seg[s] && perm[i] < seg[s + 1]);
      for (tsr_idx_t j = seg[s]; j < seg[s + 1]; j++)
        if ((orig[i] < orig[j]) != (perm[i] < perm[j])) ck_abort_msg("order changed in segment %d", s);
    }
  perm[0] = perm[1];
  ck_tsr_fails(tsr_perm_restrict(perm, 3, seg), TSR_ERR_ARG);
}
END_TEST

START_TEST(test_plan) {
  unsigned long long seed = 17;
  for (int dim = 1; dim <= 3; dim++) {
    const tsr_idx_t nrows = 300, nt = 90, first = 7;
    int32_t *map = malloc(sizeof(int32_t) * (nrows + first) * dim);
    for (tsr_idx_t k = 0; k < (nrows + first) * dim; k++)
      map[k] = tsr_test_rand(&seed, 0, 1) < 0.05 ? -1 : (int32_t)tsr_test_rand(&seed, 0, (double)nt);
    /* blocks of unequal sizes 1..40 */
    tsr_idx_t off[400], nb = 0;
    off[0] = 0;
    while (off[nb] < nrows) {
      tsr_idx_t s = 1 + (tsr_idx_t)tsr_test_rand(&seed, 0, 40);
      off[nb + 1] = TSR_MIN(off[nb] + s, nrows);
      nb++;
    }
    tsr_plan_t *p = NULL;
    ck_tsr(tsr_plan_create(map, dim, nt, first, nrows, nb, off, &p));
    ck_assert_int_eq(p->nblocks, nb);
    int bad = 0;
    tsr_idx_t acc = 0, staged = 0;
    for (tsr_idx_t b = 0; b < nb; b++) {
      /* the block executes exactly its rows */
      for (tsr_idx_t i = off[b]; i < off[b + 1]; i++)
        if (p->order[i] < first + off[b] || p->order[i] >= first + off[b + 1]) bad++;
      ck_assert_int_eq(distinct(map, dim, p->order, off[b], off[b + 1], nt),
                       p->inc.target_off[b + 1] - p->inc.target_off[b]);
      staged += p->inc.target_off[b + 1] - p->inc.target_off[b];
      for (tsr_idx_t i = off[b]; i < off[b + 1]; i++) {
        if (i > off[b] && p->thread_colour[i] < p->thread_colour[i - 1]) bad++; /* sorted */
        if (p->thread_colour[i] >= p->block_ncolours[b]) bad++;
        for (int k = 0; k < dim; k++) {
          int32_t t = map[p->order[i] * dim + k], l = p->inc.local[i * dim + k];
          if (t >= 0) acc++;
          if (t < 0 ? l != -1 : p->inc.target[p->inc.target_off[b] + l] != t) bad++;
          /* thread colours: no other row of the block with this colour has t */
          for (tsr_idx_t j = off[b]; j < off[b + 1] && t >= 0; j++)
            for (int m = 0; m < dim; m++)
              if (j != i && p->thread_colour[j] == p->thread_colour[i] && map[p->order[j] * dim + m] == t)
                bad++;
        }
      }
    }
    ck_assert_msg(bad == 0, "dim %d: %d plan violations", dim, bad);
    ck_assert_int_eq(acc, p->inc.accesses);
    ck_assert(fabs(p->inc.reuse_mean - (double)acc / (double)staged) < 1e-12);
    /* block colours: no two blocks of one colour share a target */
    for (tsr_idx_t a = 0; a < nb; a++)
      for (tsr_idx_t b = a + 1; b < nb; b++) {
        if (p->block_colour[a] != p->block_colour[b]) continue;
        for (tsr_idx_t i = p->inc.target_off[a]; i < p->inc.target_off[a + 1]; i++)
          for (tsr_idx_t j = p->inc.target_off[b]; j < p->inc.target_off[b + 1]; j++)
            if (p->inc.target[i] == p->inc.target[j]) bad++;
      }
    ck_assert_msg(bad == 0, "dim %d: blocks of one colour share %d targets", dim, bad);
    ck_assert_int_eq(p->bcolour_off[p->nblock_colours], nb);
    /* a second map staged in the same order */
    tsr_plan_stage_t st;
    ck_tsr(tsr_plan_stage(p, map, dim, nt, &st));
    ck_assert(memcmp(st.target, p->inc.target, sizeof(int32_t) * st.target_off[nb]) == 0);
    tsr_plan_stage_free(&st);
    tsr_plan_destroy(&p);
    ck_assert_ptr_null(p);
    free(map);
  }
  tsr_idx_t nb, *off;
  ck_tsr(tsr_plan_uniform_blocks(10, 4, &nb, &off));
  ck_assert(nb == 3 && off[0] == 0 && off[1] == 4 && off[2] == 8 && off[3] == 10);
  tsr_plan_t *p = NULL;
  int32_t m1[3] = {0, 1, 9};
  ck_tsr_fails(tsr_plan_create(m1, 1, 5, 0, 3, 1, (tsr_idx_t[]){0, 3}, &p), TSR_ERR_RANGE);
  ck_tsr_fails(tsr_plan_create(m1, 1, 5, 0, 3, 3, off, &p), TSR_ERR_ARG);
  free(off);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("reorder");
  TCase *t = tcase_create("core");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, test_graph_from_map);
  tcase_add_test(t, test_gps_rcm);
  tcase_add_test(t, test_blocks);
  tcase_add_test(t, test_restrict);
  tcase_add_test(t, test_plan);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return tsr_test_run(suite()); }
