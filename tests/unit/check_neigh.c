/* check_neigh: neighbour tables against brute-force coordinate arithmetic,
 * for every storage order, depth, table form and small odd/even sizes. */
#include <stdint.h>
#include "tsr_check.h"

/* The relation numbering, written out here from docs/NEIGH.md (not taken
 * from neigh.h), so the header's table is checked against the document. */
static const int REL[24][2] = {
    {-1, 0},  {1, 0},  {0, -1},  {0, 1},                                         /* d=1 */
    {-1, -1}, {1, -1}, {-1, 1},  {1, 1},  {-2, 0}, {2, 0}, {0, -2}, {0, 2},       /* d=2 */
    {-1, -2}, {1, -2}, {-2, -1}, {2, -1}, {-2, 1}, {2, 1}, {-1, 2}, {1, 2},       /* d=3 */
    {-3, 0},  {3, 0},  {0, -3},  {0, 3}};

/* check's ck_assert records its location on every call (a write per call in
 * fork mode), so loops over cells test first and abort only on failure. */
#define EXPECT(cond, ...)                        \
  do {                                           \
    if (!(cond)) ck_abort_msg(__VA_ARGS__);      \
  } while (0)
#define EXPECT_EQ(a, b, what)                                                     \
  do {                                                                            \
    long long ex__a = (long long)(a), ex__b = (long long)(b);                     \
    if (ex__a != ex__b) ck_abort_msg("%s: %s == %lld, expected %s == %lld", what, \
                                     #a, ex__a, #b, ex__b);                       \
  } while (0)

static const int64_t SIZES[][2] = {{1, 1}, {7, 5}, {13, 11}, {33, 17}, {32, 32}, {2, 9}};
#define NSIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

enum { ORD_ROW, ORD_ZORDER, ORD_ZORDER_W2, ORD_RANDOM, NORDERS };
static const char *const ORD_NAME[NORDERS] = {"row-major", "z-order", "z-order w=2", "random"};

static void make_order(int kind, int64_t nx, int64_t ny, int64_t *order) {
  switch (kind) {
    case ORD_ROW: ck_tsr(tsr_neigh_order_rowmajor(nx, ny, order)); break;
    case ORD_ZORDER: ck_tsr(tsr_zorder_plane_order(nx, ny, 0, order)); break;
    case ORD_ZORDER_W2: ck_tsr(tsr_zorder_plane_order(nx, ny, 2, order)); break;
    default: ck_tsr(tsr_neigh_order_random(nx, ny, 12345 + (uint64_t)(nx * 131 + ny), order));
  }
}

static int iabs(int a) { return a < 0 ? -a : a; }

/* Storage index of the plane cell (x+dx, y+dy), or -1 outside the grid. */
static int64_t brute(const int64_t *order, int64_t nx, int64_t ny, int64_t x, int64_t y, int dx,
                     int dy) {
  int64_t x2 = x + dx, y2 = y + dy;
  if (x2 < 0 || x2 >= nx || y2 < 0 || y2 >= ny) return -1;
  return order[x2 + nx * y2];
}

/* Distinct rows of a table (sort and count), independent of the library. */
static int g_nrel;
static int cmp_row(const void *a, const void *b) {
  const int32_t *p = a, *q = b;
  for (int r = 0; r < g_nrel; r++)
    if (p[r] != q[r]) return p[r] < q[r] ? -1 : 1;
  return 0;
}
static int64_t distinct_rows(const tsr_neigh_view_t *v) {
  int32_t *rows = malloc((size_t)v->n * (size_t)v->nrel * sizeof *rows);
  ck_assert_ptr_nonnull(rows);
  for (int64_t k = 0; k < v->n; k++)
    for (int r = 0; r < v->nrel; r++) rows[k * v->nrel + r] = v->tab[r * v->n + k];
  g_nrel = v->nrel;
  qsort(rows, (size_t)v->n, (size_t)v->nrel * sizeof *rows, cmp_row);
  int64_t count = 1;
  for (int64_t k = 1; k < v->n; k++)
    if (cmp_row(rows + (k - 1) * v->nrel, rows + k * v->nrel) != 0) count++;
  free(rows);
  return count;
}

/* Row-major prototypes: a cell's row is fixed by how far (up to l) it is
 * from each border, so count the distinct (min(x,l), min(nx-1-x,l)) in x
 * times those in y (times the z classes for FULL3D_Z). */
static int64_t border_classes(int64_t n, int l) {
  int seen[8][8] = {{0}};
  int64_t count = 0;
  for (int64_t x = 0; x < n; x++) {
    int a = (int)TSR_MIN(x, l), b = (int)TSR_MIN(n - 1 - x, l);
    if (!seen[a][b]) count++;
    seen[a][b] = 1;
  }
  return count;
}

/* ------------------------------------------------------------ relations */

START_TEST(test_relations) {
  ck_assert_int_eq(TSR_NB_COUNT_, 24);
  ck_assert_int_eq(tsr_neigh_rel_count(1), 4);
  ck_assert_int_eq(tsr_neigh_rel_count(2), 12);
  ck_assert_int_eq(tsr_neigh_rel_count(3), 24);
  ck_assert_int_eq(TSR_NB_XM1, 0);
  ck_assert_int_eq(TSR_NB_YP1, 3);
  ck_assert_int_eq(TSR_NB_XP1YP1, 7);
  ck_assert_int_eq(TSR_NB_YP2, 11);
  ck_assert_int_eq(TSR_NB_YP3, 23);
  for (int r = 0; r < 24; r++) {
    ck_assert_int_eq(tsr_neigh_rel_dx(r), REL[r][0]);
    ck_assert_int_eq(tsr_neigh_rel_dy(r), REL[r][1]);
    ck_assert_int_eq(tsr_neigh_rel_find(REL[r][0], REL[r][1]), r);
    for (int q = 0; q < r; q++) ck_assert_str_ne(tsr_neigh_rel_name(q), tsr_neigh_rel_name(r));
  }
  ck_assert_str_eq(tsr_neigh_rel_name(TSR_NB_XP1YM2), "XP1YM2");
  ck_assert_str_eq(tsr_neigh_rel_name(24), "?");
  ck_assert_int_eq(tsr_neigh_rel_find(0, 0), -1);
  ck_assert_int_eq(tsr_neigh_rel_find(4, 0), -1);
  ck_assert_int_eq(tsr_neigh_rel_find(2, 2), -1);
  /* depth l = exactly the displacements at Manhattan distance 1..l, in
   * ascending shells */
  for (int l = 1; l <= TSR_NEIGH_MAX_DEPTH; l++) {
    int m = tsr_neigh_rel_count(l), want = 0;
    for (int dy = -l; dy <= l; dy++)
      for (int dx = -l; dx <= l; dx++) {
        int d = iabs(dx) + iabs(dy);
        if (d < 1 || d > l) continue;
        want++;
        int r = tsr_neigh_rel_find(dx, dy);
        ck_assert_msg(r >= 0 && r < m, "(%d,%d) is rel %d, not within depth %d", dx, dy, r, l);
      }
    ck_assert_int_eq(want, m);
  }
  for (int r = 1; r < 24; r++)
    ck_assert_int_le(iabs(REL[r - 1][0]) + iabs(REL[r - 1][1]), iabs(REL[r][0]) + iabs(REL[r][1]));
}
END_TEST

/* --------------------------------------------------------------- orders */

START_TEST(test_orders) {
  enum { NX = 32, NY = 32, P = NX * NY };
  int64_t a[P], b[P], c[P];
  ck_tsr(tsr_neigh_order_rowmajor(NX, NY, a));
  for (int k = 0; k < P; k++) EXPECT_EQ(a[k], k, "row-major");
  ck_tsr(tsr_neigh_order_random(NX, NY, 7, a));
  ck_tsr(tsr_neigh_order_random(NX, NY, 7, b));
  ck_tsr(tsr_neigh_order_random(NX, NY, 8, c));
  int seen[P] = {0}, fixed = 0, same_ab = 1, same_ac = 1;
  for (int k = 0; k < P; k++) {
    EXPECT(a[k] >= 0 && a[k] < P, "random order[%d] = %lld out of range", k, (long long)a[k]);
    EXPECT(!seen[a[k]], "random order repeats %lld", (long long)a[k]);
    seen[a[k]] = 1;
    fixed += a[k] == k;
    same_ab &= a[k] == b[k];
    same_ac &= a[k] == c[k];
  }
  ck_assert_msg(same_ab, "same seed gave different permutations");
  ck_assert_msg(!same_ac, "different seeds gave the same permutation");
  ck_assert_int_lt(fixed, 10); /* about 1 expected for a uniform permutation */
  ck_tsr(tsr_neigh_order_check(NX, NY, a));
  /* uniformity, roughly: a uniform permutation has a fixed point with
   * probability 1 - 1/e ~ 0.63 (a cyclic one, e.g. Sattolo's, never) */
  int with_fixed = 0;
  for (uint64_t seed = 1; seed <= 40; seed++) {
    ck_tsr(tsr_neigh_order_random(NX, NY, seed, c));
    int f = 0;
    for (int k = 0; k < P; k++) f |= c[k] == k;
    with_fixed += f;
  }
  ck_assert_int_ge(with_fixed, 15); /* mean 25.3, sd 3.0 */
  ck_assert_int_le(with_fixed, 35);
  /* a single cell: the only permutation */
  int64_t one = 5;
  ck_tsr(tsr_neigh_order_random(1, 1, 3, &one));
  ck_assert_int_eq(one, 0);

  /* non-permutations are refused with the position named */
  b[17] = P;
  ck_tsr_fails(tsr_neigh_order_check(NX, NY, b), TSR_ERR_ARG);
  b[17] = b[18];
  ck_assert_int_eq(tsr_neigh_order_check(NX, NY, b), TSR_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "order[18]"));
  tsr_error_clear();
  b[17] = -1;
  ck_tsr_fails(tsr_neigh_order_check(NX, NY, b), TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_order_rowmajor(0, NY, a), TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_order_random(NX, -1, 1, a), TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_order_rowmajor(70000, 70000, NULL), TSR_ERR_ARG);
}
END_TEST

START_TEST(test_create_args) {
  tsr_neigh_t *nb = (tsr_neigh_t *)&nb; /* must be reset to NULL on failure */
  ck_tsr_fails(tsr_neigh_create(0, 4, 1, NULL, 1, TSR_NEIGH_ZREGULAR, &nb), TSR_ERR_ARG);
  ck_assert_ptr_null(nb);
  ck_tsr_fails(tsr_neigh_create(4, 4, 0, NULL, 1, TSR_NEIGH_ZREGULAR, &nb), TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_create(4, 4, 1, NULL, 0, TSR_NEIGH_ZREGULAR, &nb), TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_create(4, 4, 1, NULL, TSR_NEIGH_MAX_DEPTH + 1, TSR_NEIGH_ZREGULAR, &nb),
               TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_create(4, 4, 1, NULL, 1, (tsr_neigh_form_t)7, &nb), TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_create(1 << 16, 1 << 16, 1, NULL, 1, TSR_NEIGH_ZREGULAR, &nb),
               TSR_ERR_ARG);
  ck_tsr_fails(tsr_neigh_create(1 << 15, 1 << 15, INT64_MAX / 2, NULL, 1, TSR_NEIGH_FULL3D, &nb),
               TSR_ERR_ARG);
  int64_t bad[4] = {0, 1, 1, 3};
  ck_tsr_fails(tsr_neigh_create(2, 2, 1, bad, 1, TSR_NEIGH_ZREGULAR, &nb), TSR_ERR_ARG);
  ck_assert_ptr_null(nb);
  ck_tsr(tsr_neigh_destroy(&nb)); /* NULL is fine */
  ck_tsr(tsr_neigh_create(2, 2, 1, NULL, 1, TSR_NEIGH_ZREGULAR, &nb));
  tsr_neigh_view_t v;
  tsr_neigh_cview_t cv;
  tsr_neigh_stats_t st;
  ck_tsr_fails(tsr_neigh_view(nb, TSR_NEIGH_DEVICE, &v), TSR_ERR_ARG); /* not uploaded */
  ck_tsr_fails(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &cv), TSR_ERR_ARG); /* not compressed */
  ck_tsr_fails(tsr_neigh_stats(nb, &st), TSR_ERR_ARG);
  ck_tsr(tsr_neigh_destroy(&nb));
  ck_assert_ptr_null(nb);
}
END_TEST

/* ------------------------------------------------------------ the tables */

/* Every entry of the Z-regular table against the brute-force neighbour, and
 * the lookup helper at every level. */
static void check_zregular(const tsr_neigh_view_t *v, const int64_t *order, int l, int64_t nz,
                           const char *what) {
  const int64_t nx = v->nx, ny = v->ny, plane = nx * ny;
  ck_assert_int_eq(v->n, plane);
  ck_assert_int_eq(v->plane, plane);
  ck_assert_int_eq(v->nrel, v->m);
  ck_assert_int_eq(v->m, 2 * l * (l + 1));
  for (int64_t y = 0; y < ny; y++)
    for (int64_t x = 0; x < nx; x++) {
      const int64_t s = order[x + nx * y];
      for (int r = 0; r < v->m; r++) {
        const int64_t nbr = brute(order, nx, ny, x, y, REL[r][0], REL[r][1]);
        const int32_t off = v->tab[r * plane + s];
        EXPECT(off == (nbr < 0 ? 0 : nbr - s), "%s: cell (%lld,%lld) rel %s: offset %d, "
                      "expected %lld", what, (long long)x, (long long)y, tsr_neigh_rel_name(r),
                      off, nbr < 0 ? 0LL : (long long)(nbr - s));
        for (int64_t z = 0; z < nz; z++) {
          const int64_t i = s + z * plane;
          EXPECT_EQ(tsr_neigh_get(v->tab, v->n, r, i), nbr < 0 ? i : nbr + z * plane, what);
          EXPECT_EQ(tsr_neigh_view_nb(v, r, i), nbr < 0 ? i : nbr + z * plane, what);
        }
      }
    }
}

/* The 3-D forms repeat the plane at every level; FULL3D_Z adds -z, +z. */
static void check_full3d(const tsr_neigh_view_t *v3, const tsr_neigh_view_t *vz, int zrel,
                         const char *what) {
  const int64_t plane = vz->plane, nz = v3->nz;
  ck_assert_int_eq(v3->n, plane * nz);
  ck_assert_int_eq(v3->m, vz->m);
  ck_assert_int_eq(v3->nrel, zrel ? vz->m + 2 : vz->m);
  for (int64_t z = 0; z < nz; z++)
    for (int64_t k = 0; k < plane; k++) {
      const int64_t i = k + z * plane;
      for (int r = 0; r < vz->m; r++)
        EXPECT(v3->tab[r * v3->n + i] == vz->tab[r * plane + k],
                      "%s: level %lld row %lld rel %s differs from the Z-regular table", what,
                      (long long)z, (long long)k, tsr_neigh_rel_name(r));
      if (!zrel) continue;
      EXPECT_EQ(tsr_neigh_get(v3->tab, v3->n, v3->m, i), z > 0 ? i - plane : i, what);
      EXPECT_EQ(tsr_neigh_get(v3->tab, v3->n, v3->m + 1, i), z < nz - 1 ? i + plane : i, what);
    }
}

/* Compress with room to spare; every lookup agrees with the plain table and
 * the prototype count is the independently counted number of distinct rows. */
static int check_compressed(tsr_neigh_t *nb, const tsr_neigh_view_t *v, int64_t nz,
                            int64_t want_proto, const char *what) {
  tsr_neigh_stats_t st, st2;
  ck_tsr(tsr_neigh_compress(nb, SIZE_MAX, &st));
  ck_tsr(tsr_neigh_stats(nb, &st2));
  ck_assert_mem_eq(&st, &st2, sizeof st);
  tsr_neigh_cview_t cv;
  ck_tsr(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &cv));
  ck_assert_int_eq(cv.nproto, st.nproto);
  ck_assert_int_eq(cv.n, v->n);
  ck_assert_int_eq(cv.nrel, v->nrel);
  ck_assert_int_eq(st.nproto, distinct_rows(v));
  if (want_proto > 0)
    ck_assert_msg(st.nproto == want_proto, "%s: %d prototypes, expected %lld", what, st.nproto,
                  (long long)want_proto);
  ck_assert_int_eq(st.rows, v->n);
  ck_assert_int_eq(st.table_bytes, (size_t)(4 * v->n * v->nrel));
  ck_assert_int_eq(st.index_bytes, (size_t)(2 * v->n));
  ck_assert_int_eq(st.dict_bytes, (size_t)(4 * st.nproto * v->nrel));
  ck_assert_int_eq(st.saved_bytes, 4 * v->n * v->nrel - 2 * v->n - 4 * st.nproto * v->nrel);
  for (int64_t i = 0; i < v->plane * nz; i++) {
    EXPECT(cv.proto[i % cv.n] < cv.nproto, "%s: prototype index out of range", what);
    for (int r = 0; r < v->nrel; r++)
      EXPECT(tsr_neigh_cview_nb(&cv, r, i) == tsr_neigh_view_nb(v, r, i),
                    "%s: compressed and plain tables differ at cell %lld rel %d", what,
                    (long long)i, r);
  }
  return st.nproto;
}

/* Chasing: for a stored relation r = a + b (a, b relations of tab1),
 * chase(a, b) equals the stored neighbour wherever the chase finds one, and
 * finds one wherever r exists and the intermediate cell lies in the box
 * between the cell and its r-neighbour (then it is inside the grid). */
static void check_chase(const tsr_neigh_view_t *v1, const tsr_neigh_view_t *v,
                        const tsr_neigh_cview_t *cv, int64_t nz, const char *what) {
  const int64_t total = v->plane * nz;
  for (int r = 0; r < v->m; r++)
    for (int a = 0; a < v1->m; a++)
      for (int b = 0; b < v1->m; b++) {
        if (REL[a][0] + REL[b][0] != REL[r][0] || REL[a][1] + REL[b][1] != REL[r][1]) continue;
        const int inbox = REL[a][0] * (REL[r][0] - REL[a][0]) >= 0 &&
                          REL[a][1] * (REL[r][1] - REL[a][1]) >= 0;
        for (int64_t i = 0; i < total; i++) {
          const int64_t c = tsr_neigh_view_chase(v1, a, b, i);
          const int64_t g = tsr_neigh_view_nb(v, r, i);
          const int stored = v->tab[r * v->n + i % v->n] != 0;
          if (c >= 0)
            EXPECT(stored && c == g, "%s: %s then %s from %lld gives %lld, stored %s "
                          "is %lld", what, tsr_neigh_rel_name(a), tsr_neigh_rel_name(b),
                          (long long)i, (long long)c, tsr_neigh_rel_name(r),
                          stored ? (long long)g : -1LL);
          else if (inbox)
            EXPECT(!stored, "%s: %s exists at %lld but %s then %s does not", what,
                          tsr_neigh_rel_name(r), (long long)i, tsr_neigh_rel_name(a),
                          tsr_neigh_rel_name(b));
          if (cv) EXPECT_EQ(tsr_neigh_cview_chase(cv, a, b, i), tsr_neigh_view_chase(v, a, b, i), what);
        }
      }
}

static void check_case(int64_t nx, int64_t ny, int64_t nz, int kind) {
  const int64_t plane = nx * ny;
  int64_t *order = malloc((size_t)plane * sizeof *order);
  ck_assert_ptr_nonnull(order);
  make_order(kind, nx, ny, order);
  tsr_neigh_t *t1 = NULL;
  tsr_neigh_view_t v1;
  ck_tsr(tsr_neigh_create(nx, ny, nz, order, 1, TSR_NEIGH_ZREGULAR, &t1));
  ck_tsr(tsr_neigh_view(t1, TSR_NEIGH_HOST, &v1));
  for (int l = 1; l <= TSR_NEIGH_MAX_DEPTH; l++) {
    char what[160];
    snprintf(what, sizeof what, "%s %lldx%lldx%lld depth %d", ORD_NAME[kind], (long long)nx,
             (long long)ny, (long long)nz, l);
    tsr_neigh_t *tz = NULL, *t3 = NULL, *t3z = NULL;
    tsr_neigh_view_t vz, v3, v3z;
    ck_tsr(tsr_neigh_create(nx, ny, nz, order, l, TSR_NEIGH_ZREGULAR, &tz));
    ck_tsr(tsr_neigh_create(nx, ny, nz, order, l, TSR_NEIGH_FULL3D, &t3));
    ck_tsr(tsr_neigh_create(nx, ny, nz, order, l, TSR_NEIGH_FULL3D_Z, &t3z));
    ck_tsr(tsr_neigh_view(tz, TSR_NEIGH_HOST, &vz));
    ck_tsr(tsr_neigh_view(t3, TSR_NEIGH_HOST, &v3));
    ck_tsr(tsr_neigh_view(t3z, TSR_NEIGH_HOST, &v3z));
    ck_assert_int_eq(vz.depth, l);
    ck_assert_int_eq(vz.form, TSR_NEIGH_ZREGULAR);
    ck_assert_int_eq(v3z.form, TSR_NEIGH_FULL3D_Z);
    check_zregular(&vz, order, l, nz, what);
    check_full3d(&v3, &vz, 0, what);
    check_full3d(&v3z, &vz, 1, what);
    /* depth-1 relations are the first 4 of every depth */
    ck_assert_mem_eq(vz.tab, v1.tab, (size_t)(4 * plane) * sizeof(int32_t));

    /* prototypes: exact for row-major, at least the border classes otherwise */
    const int64_t classes = border_classes(nx, l) * border_classes(ny, l);
    const int64_t zc = TSR_MIN(nz, 3);
    int pz = check_compressed(tz, &vz, nz, kind == ORD_ROW ? classes : 0, what);
    int p3 = check_compressed(t3, &v3, nz, kind == ORD_ROW ? classes : 0, what);
    int p3z = check_compressed(t3z, &v3z, nz, kind == ORD_ROW ? classes * zc : 0, what);
    ck_assert_int_eq(p3, pz);
    ck_assert_int_eq(p3z, pz * zc);
    ck_assert_int_ge(pz, classes);
    ck_assert_int_le(pz, plane);
    /* Morton order of a 2^k x 2^k plane, depth 1: the +x offset depends only
     * on the trailing one bits of x (0..k-1), the -x offset on its trailing
     * zero bits; x = 0 and x = 2^k-1 are the borders: 2k classes in x, the
     * same in y. 32 x 32: 10 * 10. */
    if (kind == ORD_ZORDER && nx == 32 && ny == 32 && l == 1) ck_assert_int_eq(pz, 100);
    if (kind == ORD_ZORDER && nx >= 8 && ny >= 8) ck_assert_int_gt(pz, classes);
    if (kind == ORD_RANDOM && plane >= 100) /* random offsets almost never repeat */
      ck_assert_int_gt(pz, plane * 9 / 10);

    /* chasing through the depth-1 table, and within the table itself */
    tsr_neigh_cview_t cvz;
    ck_tsr(tsr_neigh_cview(tz, TSR_NEIGH_HOST, &cvz));
    if (l >= 2) check_chase(&v1, &vz, NULL, nz, what);
    check_chase(&vz, &vz, &cvz, nz, what);
    check_chase(&v3z, &v3z, NULL, nz, what);
    ck_tsr(tsr_neigh_destroy(&tz));
    ck_tsr(tsr_neigh_destroy(&t3));
    ck_tsr(tsr_neigh_destroy(&t3z));
  }
  ck_tsr(tsr_neigh_destroy(&t1));
  free(order);
}

START_TEST(test_tables) {
  const int64_t nx = SIZES[_i][0], ny = SIZES[_i][1];
  for (int kind = 0; kind < NORDERS; kind++)
    for (int64_t nz = 1; nz <= 3; nz += 2) check_case(nx, ny, nz, kind);
}
END_TEST

/* ---------------------------------------------------------- compression */

START_TEST(test_capacity) {
  tsr_neigh_t *nb = NULL;
  tsr_neigh_stats_t st;
  tsr_neigh_cview_t cv;
  /* row-major 32x32 depth 1: interior, 4 edges, 4 corners */
  ck_tsr(tsr_neigh_create(32, 32, 4, NULL, 1, TSR_NEIGH_ZREGULAR, &nb));
  ck_assert_int_eq(tsr_neigh_compress(nb, 9 * 4 * 4 - 1, &st), TSR_ERR_UNSUPPORTED);
  ck_assert_int_eq(st.nproto, 9);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "9 prototypes"));
  tsr_error_clear();
  ck_tsr_fails(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &cv), TSR_ERR_ARG); /* left uncompressed */
  ck_tsr(tsr_neigh_compress(nb, 9 * 4 * 4, &st));
  ck_assert_int_eq(st.nproto, 9);
  ck_assert_int_eq(st.dict_bytes, 144);
  ck_assert_int_eq(st.saved_bytes, 4 * 1024 * 4 - 2 * 1024 - 144);
  ck_tsr(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &cv));
  /* the interior prototype is the regular stencil -1, +1, -nx, +nx */
  const int32_t *row = cv.dict + (int64_t)cv.proto[5 + 32 * 7] * cv.nrel;
  ck_assert_int_eq(row[TSR_NB_XM1], -1);
  ck_assert_int_eq(row[TSR_NB_XP1], 1);
  ck_assert_int_eq(row[TSR_NB_YM1], -32);
  ck_assert_int_eq(row[TSR_NB_YP1], 32);
  /* a failed compression keeps the earlier one */
  ck_tsr_fails(tsr_neigh_compress(nb, 16, &st), TSR_ERR_UNSUPPORTED);
  ck_tsr(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &cv));
  ck_assert_int_eq(cv.nproto, 9);
  ck_tsr(tsr_neigh_destroy(&nb));

  /* random order: one prototype per cell, far beyond constant memory */
  int64_t *order = malloc(300 * 300 * sizeof *order);
  ck_assert_ptr_nonnull(order);
  ck_tsr(tsr_neigh_order_random(64, 64, 99, order));
  ck_tsr(tsr_neigh_create(64, 64, 2, order, 2, TSR_NEIGH_ZREGULAR, &nb));
  ck_assert_int_eq(tsr_neigh_compress(nb, TSR_NEIGH_CONST_BYTES, &st), TSR_ERR_UNSUPPORTED);
  ck_assert_int_gt(st.nproto, TSR_NEIGH_CONST_BYTES / (12 * 4));
  ck_assert_int_gt((int64_t)st.dict_bytes, TSR_NEIGH_CONST_BYTES);
  char num[32];
  snprintf(num, sizeof num, "%d prototypes", st.nproto);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), num));
  tsr_error_clear();
  ck_tsr(tsr_neigh_destroy(&nb));
  /* more than a uint16 index can address, whatever the capacity */
  ck_tsr(tsr_neigh_order_random(300, 300, 5, order));
  ck_tsr(tsr_neigh_create(300, 300, 1, order, 1, TSR_NEIGH_ZREGULAR, &nb));
  ck_assert_int_eq(tsr_neigh_compress(nb, SIZE_MAX, &st), TSR_ERR_UNSUPPORTED);
  ck_assert_int_gt(st.nproto, 65536);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "uint16"));
  tsr_error_clear();
  ck_tsr(tsr_neigh_destroy(&nb));
  free(order);
}
END_TEST

/* -------------------------------------------------------- device copies */

static void check_device_copy(const tsr_device_t *dev, tsr_neigh_t *nb) {
  tsr_neigh_view_t h, d;
  tsr_neigh_cview_t ch, cd;
  ck_tsr(tsr_neigh_view(nb, TSR_NEIGH_HOST, &h));
  ck_tsr(tsr_neigh_view(nb, TSR_NEIGH_DEVICE, &d));
  ck_assert_ptr_ne(d.tab, h.tab);
  ck_assert_int_eq(d.n, h.n);
  ck_assert_int_eq(d.nrel, h.nrel);
  size_t tb = (size_t)(h.n * h.nrel) * sizeof(int32_t);
  int32_t *back = malloc(tb);
  ck_assert_ptr_nonnull(back);
  ck_tsr(tsr_device_download(dev, back, d.tab, tb));
  ck_assert_mem_eq(back, h.tab, tb);
  free(back);
  ck_tsr(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &ch));
  ck_tsr(tsr_neigh_cview(nb, TSR_NEIGH_DEVICE, &cd));
  ck_assert_int_eq(cd.nproto, ch.nproto);
  size_t pb = (size_t)h.n * sizeof(uint16_t), db = (size_t)(ch.nproto * ch.nrel) * sizeof(int32_t);
  uint16_t *pback = malloc(pb);
  int32_t *dback = malloc(db);
  ck_assert(pback && dback);
  ck_tsr(tsr_device_download(dev, pback, cd.proto, pb));
  ck_tsr(tsr_device_download(dev, dback, cd.dict, db));
  ck_assert_mem_eq(pback, ch.proto, pb);
  ck_assert_mem_eq(dback, ch.dict, db);
  free(pback);
  free(dback);
}

START_TEST(test_upload_cpu) {
  tsr_device_t dev;
  ck_tsr(tsr_device_select(MPI_COMM_WORLD, TSR_DEV_CPU, &dev));
  int64_t order[13 * 11];
  ck_tsr(tsr_neigh_order_random(13, 11, 4, order));
  tsr_neigh_t *nb = NULL;
  tsr_neigh_cview_t cv;
  ck_tsr(tsr_neigh_create(13, 11, 3, order, 2, TSR_NEIGH_FULL3D_Z, &nb));
  ck_tsr(tsr_neigh_upload(nb, &dev));
  ck_tsr_fails(tsr_neigh_cview(nb, TSR_NEIGH_DEVICE, &cv), TSR_ERR_ARG); /* not compressed */
  ck_tsr(tsr_neigh_compress(nb, SIZE_MAX, NULL));
  ck_tsr_fails(tsr_neigh_cview(nb, TSR_NEIGH_DEVICE, &cv), TSR_ERR_ARG); /* stale upload */
  ck_tsr(tsr_neigh_upload(nb, &dev));
  check_device_copy(&dev, nb);
  ck_tsr(tsr_neigh_upload(nb, &dev)); /* replacing a copy is fine */
  check_device_copy(&dev, nb);
  ck_tsr(tsr_neigh_destroy(&nb));
  /* reversed row-major: the last new prototype is cell (0,0), whose last
   * relation (+y) exists, so a copy that drops the tail of the dictionary
   * cannot pass for zeros in fresh memory */
  for (int k = 0; k < 13 * 11; k++) order[k] = 13 * 11 - 1 - k;
  ck_tsr(tsr_neigh_create(13, 11, 2, order, 1, TSR_NEIGH_FULL3D, &nb));
  ck_tsr(tsr_neigh_compress(nb, TSR_NEIGH_CONST_BYTES, NULL));
  ck_tsr(tsr_neigh_cview(nb, TSR_NEIGH_HOST, &cv));
  ck_assert_int_eq(cv.nproto, 9);
  ck_assert_int_eq(cv.dict[cv.nproto * cv.nrel - 1], -13);
  ck_tsr(tsr_neigh_upload(nb, &dev));
  check_device_copy(&dev, nb);
  ck_tsr(tsr_neigh_destroy(&nb));
}
END_TEST

/* On a GPU: the copies round-trip. Without one: upload fails cleanly
 * (NOCUDA without CUDA in the build) and leaves no device view behind. */
START_TEST(test_upload_cuda) {
  tsr_device_t dev = {.kind = TSR_DEV_CUDA, .id = 0, .name = "GPU 0"};
  tsr_neigh_t *nb = NULL;
  tsr_neigh_view_t v;
  ck_tsr(tsr_neigh_create(33, 17, 2, NULL, 2, TSR_NEIGH_ZREGULAR, &nb));
  ck_tsr(tsr_neigh_compress(nb, TSR_NEIGH_CONST_BYTES, NULL));
  if (tsr_test_have_gpu()) {
    ck_tsr(tsr_neigh_upload(nb, &dev));
    check_device_copy(&dev, nb);
  } else {
    int rc = tsr_neigh_upload(nb, &dev);
    ck_assert_int_ne(rc, 0);
    if (!tsr_device_cuda_built()) ck_assert_int_eq(rc, TSR_ERR_NOCUDA);
    tsr_error_clear();
    ck_tsr_fails(tsr_neigh_view(nb, TSR_NEIGH_DEVICE, &v), TSR_ERR_ARG);
  }
  ck_tsr(tsr_neigh_destroy(&nb));
}
END_TEST

static Suite *neigh_suite(void) {
  Suite *s = suite_create("neigh");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_relations);
  tcase_add_test(tc, test_orders);
  tcase_add_test(tc, test_create_args);
  tcase_add_loop_test(tc, test_tables, 0, NSIZES);
  tcase_add_test(tc, test_capacity);
  tcase_add_test(tc, test_upload_cpu);
  tcase_add_test(tc, test_upload_cuda);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return tsr_test_run(neigh_suite()); }
