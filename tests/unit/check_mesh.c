/* check_mesh: building a mesh, inverse maps against brute force, permutation
 * round trips and relation-preserving renumbering, validation. */
#include <unistd.h>
#include "tsr_check.h"

/* 2x2 quads on a 3x3 node grid:
 *   6-7-8
 *   |2|3|
 *   3-4-5
 *   |0|1|
 *   0-1-2            */
static int32_t quad_map[4 * 4] = {0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7};

/* A random map n_from x dim into [0, n_to). */
static int32_t *random_map(unsigned long long *st, tsr_idx_t n_from, int dim, tsr_idx_t n_to) {
  int32_t *m = malloc((size_t)(n_from * dim) * sizeof *m);
  for (tsr_idx_t k = 0; k < n_from * dim; k++)
    m[k] = (int32_t)tsr_test_rand(st, 0, (double)n_to);
  return m;
}

/* Random permutation of [0, n) (Fisher-Yates). */
static tsr_idx_t *random_perm(unsigned long long *st, tsr_idx_t n) {
  tsr_idx_t *p = malloc((size_t)n * sizeof *p);
  for (tsr_idx_t i = 0; i < n; i++) p[i] = i;
  for (tsr_idx_t i = n - 1; i > 0; i--) {
    tsr_idx_t j = (tsr_idx_t)tsr_test_rand(st, 0, (double)(i + 1));
    tsr_idx_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
  return p;
}

/* Compare the CSR to a brute-force scan: for each target, the list of
 * (elem, corner) with map[elem][corner] == target in scan order. */
static void check_inverse(const tsr_map_t *m, tsr_idx_t nfrom, tsr_idx_t nto, const tsr_csr_t *c) {
  ck_assert_int_eq(c->n, nto);
  ck_assert_int_eq(c->offsets[0], 0);
  ck_assert_int_eq(c->offsets[nto], nfrom * m->dim);
  for (tsr_idx_t t = 0; t < nto; t++) {
    tsr_idx_t at = c->offsets[t];
    for (tsr_idx_t e = 0; e < nfrom; e++)
      for (int k = 0; k < m->dim; k++)
        if (m->data[e * m->dim + k] == t) {
          ck_assert_int_lt(at, c->offsets[t + 1]);
          ck_assert_int_eq(c->elem[at], e);
          ck_assert_int_eq(c->corner[at], k);
          at++;
        }
    ck_assert_int_eq(at, c->offsets[t + 1]);
  }
  /* every (elem, corner) exactly once */
  unsigned char *seen = calloc((size_t)(nfrom * m->dim), 1);
  for (tsr_idx_t i = 0; i < c->offsets[nto]; i++) {
    tsr_idx_t k = (tsr_idx_t)c->elem[i] * m->dim + c->corner[i];
    ck_assert_int_eq(seen[k], 0);
    seen[k] = 1;
  }
  free(seen);
}

START_TEST(test_build_and_find) {
  tsr_mesh_t *m = NULL;
  ck_tsr(tsr_mesh_create(&m));
  int nodes, cells, pcell, px, gam;
  ck_tsr(tsr_mesh_add_set(m, "nodes", 9, &nodes));
  ck_tsr(tsr_mesh_add_set(m, "cells", 4, &cells));
  ck_tsr(tsr_mesh_add_map(m, "pcell", cells, nodes, 4, quad_map, TSR_COPY, &pcell));
  double *x = malloc(9 * 2 * sizeof *x);
  for (int i = 0; i < 9; i++) x[2 * i] = i % 3, x[2 * i + 1] = i / 3;
  ck_tsr(tsr_mesh_add_dat(m, "p_x", nodes, 2, TSR_DOUBLE, x, TSR_ADOPT, &px));
  double g = 1.4;
  ck_tsr(tsr_mesh_add_const(m, "gam", 1, &g, &gam));
  ck_assert_int_eq(tsr_mesh_find_set(m, "cells"), cells);
  ck_assert_int_eq(tsr_mesh_find_set(m, "edges"), -1);
  ck_assert_int_eq(tsr_mesh_find_map(m, "pcell"), pcell);
  ck_assert_int_eq(tsr_mesh_find_dat(m, "p_x"), px);
  ck_assert_int_eq(tsr_mesh_find_const(m, "gam"), gam);
  ck_assert_int_eq(tsr_mesh_nsets(m), 2);
  ck_assert_ptr_null(tsr_mesh_set(m, 2));
  ck_assert_ptr_null(tsr_mesh_map(m, -1));
  const tsr_map_t *mp = tsr_mesh_map(m, pcell);
  ck_assert_ptr_ne(mp->data, quad_map); /* copied */
  ck_assert_int_eq(mp->data[15], 7);
  ck_assert_ptr_eq(tsr_mesh_dat(m, px)->data, x); /* adopted */
  ck_assert_double_eq(tsr_mesh_const(m, gam)->data[0], 1.4);
  const tsr_set_t *s = tsr_mesh_set(m, nodes);
  ck_assert_int_eq(s->size, 9);
  ck_assert_int_eq(s->global_size, 9);
  ck_assert_int_eq(s->owned, 9);
  ck_assert_ptr_null(s->global_id);
  ck_tsr(tsr_mesh_validate(m));
  /* duplicates and bad arguments are refused */
  ck_tsr_fails(tsr_mesh_add_set(m, "nodes", 3, NULL), TSR_ERR_ARG);
  ck_tsr_fails(tsr_mesh_add_map(m, "bad", cells, 7, 4, NULL, TSR_COPY, NULL), TSR_ERR_ARG);
  ck_tsr_fails(tsr_mesh_add_dat(m, "d0", nodes, 0, TSR_DOUBLE, NULL, TSR_COPY, NULL), TSR_ERR_ARG);
  ck_tsr_fails(tsr_mesh_add_set(m, "", 3, NULL), TSR_ERR_ARG);
  /* an index out of range is found and named */
  tsr_mesh_map(m, pcell)->data[6] = 9;
  ck_tsr_fails(tsr_mesh_validate(m), TSR_ERR_RANGE);
  tsr_mesh_map(m, pcell)->data[6] = 5;
  ck_tsr(tsr_mesh_destroy(&m));
  ck_assert_ptr_null(m);
  ck_tsr(tsr_mesh_destroy(&m)); /* NULL is fine */
}
END_TEST

START_TEST(test_block_sets) {
  /* block rows: cover [0, n) without gaps, sizes differ by at most one */
  for (tsr_idx_t n = 0; n < 40; n += 7)
    for (int p = 1; p <= 5; p++) {
      tsr_idx_t next = 0;
      for (int r = 0; r < p; r++) {
        tsr_idx_t first, count;
        tsr_mesh_block_rows(n, p, r, &first, &count);
        ck_assert_int_eq(first, next);
        ck_assert(count == n / p || count == n / p + 1);
        next += count;
      }
      ck_assert_int_eq(next, n);
    }
  tsr_mesh_t *m = NULL;
  ck_tsr(tsr_mesh_create(&m));
  ck_tsr(tsr_mesh_set_dist(m, TSR_MESH_BLOCK));
  int nodes, cells;
  ck_tsr(tsr_mesh_add_set_block(m, "nodes", 9, 0, 5, &nodes));
  ck_tsr(tsr_mesh_add_set_block(m, "cells", 4, 2, 2, &cells));
  ck_tsr_fails(tsr_mesh_add_set_block(m, "x", 4, 3, 2, NULL), TSR_ERR_ARG);
  /* rows 2, 3 of the quads: global node indices up to 8 are fine here */
  ck_tsr(tsr_mesh_add_map(m, "pcell", cells, nodes, 4, quad_map + 8, TSR_COPY, NULL));
  ck_tsr(tsr_mesh_validate(m));
  tsr_idx_t perm[2] = {1, 0};
  ck_tsr_fails(tsr_mesh_permute(m, cells, perm), TSR_ERR_UNSUPPORTED);
  /* as a serial mesh the same targets are out of range */
  ck_tsr(tsr_mesh_set_dist(m, TSR_MESH_SERIAL));
  ck_tsr_fails(tsr_mesh_validate(m), TSR_ERR_RANGE);
  ck_tsr(tsr_mesh_destroy(&m));
}
END_TEST

START_TEST(test_inverse_small) {
  tsr_map_t m = {.name = "pcell", .from = 0, .to = 1, .dim = 4, .data = quad_map};
  tsr_csr_t c;
  ck_tsr(tsr_map_inverse(&m, 4, 9, &c));
  check_inverse(&m, 4, 9, &c);
  /* by hand: node 4 is in all four cells, at corners 2, 3, 1, 0 */
  ck_assert_int_eq(c.offsets[4], 1 + 2 + 1 + 2);
  ck_assert_int_eq(c.offsets[5] - c.offsets[4], 4);
  int32_t ce[4] = {0, 1, 2, 3}, cc[4] = {2, 3, 1, 0};
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(c.elem[c.offsets[4] + i], ce[i]);
    ck_assert_int_eq(c.corner[c.offsets[4] + i], cc[i]);
  }
  /* node 8 only in cell 3 at corner 2 */
  ck_assert_int_eq(c.offsets[9] - c.offsets[8], 1);
  ck_assert_int_eq(c.elem[c.offsets[8]], 3);
  ck_assert_int_eq(c.corner[c.offsets[8]], 2);
  tsr_csr_free(&c);
  ck_assert_ptr_null(c.offsets);
  ck_tsr_fails(tsr_map_inverse(&m, 4, 8, &c), TSR_ERR_RANGE);
}
END_TEST

START_TEST(test_inverse_random) {
  unsigned long long st = 12345;
  for (int trial = 0; trial < 5; trial++) {
    tsr_idx_t nfrom = 50 + 37 * trial, nto = 20 + 11 * trial;
    int dim = 1 + trial % 4;
    int32_t *d = random_map(&st, nfrom, dim, nto);
    tsr_map_t m = {.name = "r", .from = 0, .to = 1, .dim = dim, .data = d};
    tsr_csr_t c;
    ck_tsr(tsr_map_inverse(&m, nfrom, nto, &c));
    check_inverse(&m, nfrom, nto, &c);
    tsr_csr_free(&c);
    free(d);
  }
}
END_TEST

/* A random mesh: nodes with a 3-component double dat and an int dat, cells
 * with a 4-node map, edges with 2-cell map, a node->node self map. */
typedef struct {
  tsr_mesh_t *m;
  int nodes, cells, edges, pcell, pecell, pnn, xd, idd, qd;
} rmesh_t;

static void make_random(rmesh_t *r, unsigned long long *st, tsr_idx_t nn, tsr_idx_t nc,
                        tsr_idx_t ne) {
  ck_tsr(tsr_mesh_create(&r->m));
  ck_tsr(tsr_mesh_add_set(r->m, "nodes", nn, &r->nodes));
  ck_tsr(tsr_mesh_add_set(r->m, "cells", nc, &r->cells));
  ck_tsr(tsr_mesh_add_set(r->m, "edges", ne, &r->edges));
  ck_tsr(tsr_mesh_add_map(r->m, "pcell", r->cells, r->nodes, 4, random_map(st, nc, 4, nn),
                          TSR_ADOPT, &r->pcell));
  ck_tsr(tsr_mesh_add_map(r->m, "pecell", r->edges, r->cells, 2, random_map(st, ne, 2, nc),
                          TSR_ADOPT, &r->pecell));
  ck_tsr(tsr_mesh_add_map(r->m, "pnn", r->nodes, r->nodes, 3, random_map(st, nn, 3, nn),
                          TSR_ADOPT, &r->pnn));
  ck_tsr(tsr_mesh_add_dat(r->m, "x", r->nodes, 3, TSR_DOUBLE, NULL, TSR_COPY, &r->xd));
  ck_tsr(tsr_mesh_add_dat(r->m, "id", r->nodes, 1, TSR_INT64, NULL, TSR_COPY, &r->idd));
  ck_tsr(tsr_mesh_add_dat(r->m, "q", r->cells, 2, TSR_FLOAT, NULL, TSR_COPY, &r->qd));
  double *x = tsr_mesh_dat(r->m, r->xd)->data;
  int64_t *id = tsr_mesh_dat(r->m, r->idd)->data;
  float *q = tsr_mesh_dat(r->m, r->qd)->data;
  for (tsr_idx_t i = 0; i < nn; i++) {
    for (int k = 0; k < 3; k++) x[3 * i + k] = tsr_test_rand(st, -1, 1);
    id[i] = 1000 + i;
  }
  for (tsr_idx_t i = 0; i < 2 * nc; i++) q[i] = (float)tsr_test_rand(st, 1, 2);
}

START_TEST(test_permute_inverse_roundtrip) {
  unsigned long long st = 99;
  rmesh_t a, b;
  make_random(&a, &st, 60, 45, 80);
  st = 99;
  make_random(&b, &st, 60, 45, 80);
  int sets[3] = {a.nodes, a.cells, a.edges};
  for (int s = 0; s < 3; s++) {
    tsr_idx_t n = tsr_mesh_set(a.m, sets[s])->size;
    tsr_idx_t *p = random_perm(&st, n), *inv = malloc((size_t)n * sizeof *inv);
    for (tsr_idx_t i = 0; i < n; i++) inv[p[i]] = i;
    ck_tsr(tsr_mesh_permute(a.m, sets[s], p));
    if (sets[s] == a.nodes) /* the permutation did move data */
      ck_assert(memcmp(tsr_mesh_dat(a.m, a.xd)->data, tsr_mesh_dat(b.m, b.xd)->data,
                       (size_t)n * 3 * sizeof(double)) != 0);
    ck_tsr(tsr_mesh_permute(a.m, sets[s], inv));
    free(p);
    free(inv);
  }
  for (int i = 0; i < tsr_mesh_nmaps(a.m); i++) {
    const tsr_map_t *ma = tsr_mesh_map(a.m, i), *mb = tsr_mesh_map(b.m, i);
    size_t bytes = (size_t)tsr_mesh_set(a.m, ma->from)->size * ma->dim * sizeof(int32_t);
    ck_assert(memcmp(ma->data, mb->data, bytes) == 0);
  }
  for (int i = 0; i < tsr_mesh_ndats(a.m); i++) {
    const tsr_dat_t *da = tsr_mesh_dat(a.m, i), *db = tsr_mesh_dat(b.m, i);
    size_t bytes = (size_t)tsr_mesh_set(a.m, da->set)->size * da->dim * tsr_dtype_size(da->type);
    ck_assert(memcmp(da->data, db->data, bytes) == 0);
  }
  tsr_mesh_destroy(&a.m);
  tsr_mesh_destroy(&b.m);
}
END_TEST

START_TEST(test_permute_keeps_relations) {
  unsigned long long st = 7;
  rmesh_t a, b; /* b stays as the reference */
  make_random(&a, &st, 70, 50, 90);
  st = 7;
  make_random(&b, &st, 70, 50, 90);
  tsr_idx_t nn = 70, nc = 50, ne = 90;
  tsr_idx_t *pn = random_perm(&st, nn), *pc = random_perm(&st, nc);
  ck_tsr(tsr_mesh_permute(a.m, a.nodes, pn));
  ck_tsr(tsr_mesh_permute(a.m, a.cells, pc));
  ck_tsr(tsr_mesh_validate(a.m));
  const int32_t *pcell_a = tsr_mesh_map(a.m, a.pcell)->data, *pcell_b = tsr_mesh_map(b.m, b.pcell)->data;
  const int32_t *pec_a = tsr_mesh_map(a.m, a.pecell)->data, *pec_b = tsr_mesh_map(b.m, b.pecell)->data;
  const int32_t *pnn_a = tsr_mesh_map(a.m, a.pnn)->data, *pnn_b = tsr_mesh_map(b.m, b.pnn)->data;
  const double *xa = tsr_mesh_dat(a.m, a.xd)->data, *xb = tsr_mesh_dat(b.m, b.xd)->data;
  const int64_t *ida = tsr_mesh_dat(a.m, a.idd)->data, *idb = tsr_mesh_dat(b.m, b.idd)->data;
  const float *qa = tsr_mesh_dat(a.m, a.qd)->data, *qb = tsr_mesh_dat(b.m, b.qd)->data;
  /* old cell c is new cell pc[c]; its k-th node was n, now pn[n], and the node's
   * data travelled with it */
  for (tsr_idx_t c = 0; c < nc; c++) {
    for (int k = 0; k < 4; k++) {
      int32_t n_old = pcell_b[4 * c + k], n_new = pcell_a[4 * pc[c] + k];
      ck_assert_int_eq(n_new, pn[n_old]);
      for (int d = 0; d < 3; d++) ck_assert(xa[3 * n_new + d] == xb[3 * n_old + d]);
      ck_assert_int_eq(ida[n_new], idb[n_old]);
    }
    for (int d = 0; d < 2; d++) ck_assert(qa[2 * pc[c] + d] == qb[2 * c + d]);
  }
  for (tsr_idx_t e = 0; e < ne; e++) /* edges not permuted: only targets move */
    for (int k = 0; k < 2; k++) ck_assert_int_eq(pec_a[2 * e + k], pc[pec_b[2 * e + k]]);
  for (tsr_idx_t n = 0; n < nn; n++) /* self map: rows and targets */
    for (int k = 0; k < 3; k++) ck_assert_int_eq(pnn_a[3 * pn[n] + k], pn[pnn_b[3 * n + k]]);
  /* not a permutation: refused, nothing changed */
  tsr_idx_t *bad = malloc((size_t)nn * sizeof *bad);
  memcpy(bad, pn, (size_t)nn * sizeof *bad);
  bad[3] = bad[4];
  int32_t before = tsr_mesh_map(a.m, a.pcell)->data[0];
  ck_tsr_fails(tsr_mesh_permute(a.m, a.nodes, bad), TSR_ERR_ARG);
  bad[3] = nn;
  ck_tsr_fails(tsr_mesh_permute(a.m, a.nodes, bad), TSR_ERR_ARG);
  ck_assert_int_eq(tsr_mesh_map(a.m, a.pcell)->data[0], before);
  free(bad);
  free(pn);
  free(pc);
  tsr_mesh_destroy(&a.m);
  tsr_mesh_destroy(&b.m);
}
END_TEST

START_TEST(test_permute_global_id) {
  tsr_mesh_t *m = NULL;
  ck_tsr(tsr_mesh_create(&m));
  ck_tsr(tsr_mesh_set_dist(m, TSR_MESH_PARTITIONED));
  int s;
  ck_tsr(tsr_mesh_add_set(m, "nodes", 5, &s));
  tsr_set_t *set = tsr_mesh_set(m, s);
  set->global_id = malloc(5 * sizeof(int64_t));
  for (int i = 0; i < 5; i++) set->global_id[i] = 40 + i;
  tsr_idx_t p[5] = {4, 2, 0, 1, 3};
  ck_tsr(tsr_mesh_permute(m, s, p));
  for (int i = 0; i < 5; i++) ck_assert_int_eq(set->global_id[p[i]], 40 + i);
  ck_tsr(tsr_mesh_validate(m));
  set->exec_halo = 1; /* owned + halo no longer adds up */
  ck_tsr_fails(tsr_mesh_validate(m), TSR_ERR_RANGE);
  tsr_mesh_destroy(&m);
}
END_TEST

static Suite *mesh_suite(void) {
  Suite *s = suite_create("mesh");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_build_and_find);
  tcase_add_test(tc, test_block_sets);
  tcase_add_test(tc, test_inverse_small);
  tcase_add_test(tc, test_inverse_random);
  tcase_add_test(tc, test_permute_inverse_roundtrip);
  tcase_add_test(tc, test_permute_keeps_relations);
  tcase_add_test(tc, test_permute_global_id);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(mesh_suite()); }
