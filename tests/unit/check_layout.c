/* check_layout: every layout is injective into [0, size) with size minimal,
 * rows are aligned, the padding is minimal (brute force), the Z-curve kind
 * follows code order, placements address the same logical element, and
 * tsr_layout_transform round-trips. The Noarr paper's kinds (C, RC, CR, RR, CC)
 * follow an independently enumerated order (dense bijections for extents
 * that are not multiples of the tile), and the transform round-trips
 * between every pair of kinds in 2-D, 3-D and 4-D. */
#include "config.h"

#include <unistd.h> /* tsr_check.h uses getpid() */

#include "tsr_check.h"
#include "tessera/layout.h"
#include "tessera/zorder.h"

/* check's ck_assert_* records a mark point (a write to a pipe) per call;
 * these fail the same way but cost nothing when they hold, for the loops
 * over every element. */

static const int64_t SIZES[] = {1, 7, 33, 100, 128};
#define NSIZES (sizeof SIZES / sizeof *SIZES)
static const int64_t ZSIZES[] = {1, 2, 5};
#define NZSIZES (sizeof ZSIZES / sizeof *ZSIZES)

/* A layout with its Z-curve table (if any) attached, host memory. */
static tsr_layout_t attach(tsr_layout_t L, int64_t **tab) {
  *tab = NULL;
  if (L.kind != TSR_LAYOUT_ZCURVE) return L;
  *tab = malloc((size_t)tsr_layout_table_len(&L) * sizeof **tab);
  ck_assert_ptr_nonnull(*tab);
  ck_tsr(tsr_layout_table_build(&L, *tab));
  return tsr_layout_with_table(L, *tab);
}

/* The per-kind inline function of L's kind (what kernels call). */
static int64_t kind_cell(const tsr_layout_t *L, int64_t x, int64_t y, int64_t z) {
  switch (L->kind) {
  case TSR_LAYOUT_ROWMAJOR: return tsr_layout_rm_cell(L, x, y, z);
  case TSR_LAYOUT_ZCURVE: return tsr_layout_zc_cell(L, x, y, z);
  case TSR_LAYOUT_COLMAJOR: return tsr_layout_cm_cell(L, x, y, z);
  case TSR_LAYOUT_RC: return tsr_layout_rc_cell(L, x, y, z);
  case TSR_LAYOUT_CR: return tsr_layout_cr_cell(L, x, y, z);
  case TSR_LAYOUT_RR: return tsr_layout_rr_cell(L, x, y, z);
  case TSR_LAYOUT_CC: return tsr_layout_cc_cell(L, x, y, z);
  default: ck_abort_msg("kind %d", L->kind); return -1;
  }
}

/* Injective into [0, size), size minimal (max offset + 1, or the last AoSoA
 * block), every offset equal to the per-kind inline functions, and the
 * first inner cell of every row aligned as documented. */
static void check_map(const tsr_layout_t *L) {
  char desc[512];
  ck_tsr(tsr_layout_describe(L, desc, sizeof desc));
  const int64_t size = tsr_layout_size(L);
  unsigned char *seen = calloc((size_t)size, 1);
  ck_assert_ptr_nonnull(seen);
  int64_t maxo = -1, count = 0;
  const int64_t A = L->align;
  /* all fields of an aligned row start are aligned for SoA and for AoSoA with B | A */
  int aligned_fields = L->fields == TSR_SOA || (L->fields == TSR_AOSOA && A % L->block == 0)
                           ? L->nf
                           : 1;
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++)
      for (int64_t x = 0; x < L->d[0]; x++) {
        int64_t c = kind_cell(L, x, y, z);
        for (int f = 0; f < L->nf; f++) {
          int64_t o = tsr_layout_offset(L, x, y, z, f);
          int64_t inl = L->fields == TSR_SOA   ? tsr_layout_soa(L, c, f)
                        : L->fields == TSR_AOS ? tsr_layout_aos(L, c, f)
                                               : tsr_layout_aosoa(L, c, f);
          REQUIRE(o == inl, "%s: (%lld,%lld,%lld,%d) generic %lld, inline %lld", desc,
                        (long long)x, (long long)y, (long long)z, f, (long long)o, (long long)inl);
          if (L->fields == TSR_SOA && L->kind == TSR_LAYOUT_ROWMAJOR)
            REQ_EQ(o, tsr_layout_rm_offset(L, x, y, z, f));
          if (L->fields == TSR_SOA && L->kind == TSR_LAYOUT_ZCURVE)
            REQ_EQ(o, tsr_layout_zc_offset(L, x, y, z, f));
          REQUIRE(o >= 0 && o < size, "%s: offset %lld outside [0,%lld)", desc,
                        (long long)o, (long long)size);
          REQUIRE(!seen[o], "%s: offset %lld used twice (cell %lld,%lld,%lld f %d)", desc,
                        (long long)o, (long long)x, (long long)y, (long long)z, f);
          seen[o] = 1;
          count++;
          if (o > maxo) maxo = o;
          if (L->kind == TSR_LAYOUT_ROWMAJOR && x == L->halo[0] && f < aligned_fields)
            REQUIRE(o % A == 0, "%s: row (y=%lld,z=%lld) field %d starts at %lld", desc,
                          (long long)y, (long long)z, f, (long long)o);
          if (L->kind == TSR_LAYOUT_COLMAJOR && y == L->halo[1] && f < aligned_fields)
            REQUIRE(o % A == 0, "%s: column (x=%lld,z=%lld) field %d starts at %lld", desc,
                          (long long)x, (long long)z, f, (long long)o);
        }
      }
  REQ_EQ(count, L->d[0] * L->d[1] * L->d[2] * L->nf);
  if (L->fields == TSR_AOSOA)
    REQUIRE(size - (maxo + 1) < (int64_t)L->block * L->nf, "%s: max %lld", desc,
                  (long long)maxo);
  else
    REQUIRE(size == maxo + 1, "%s: max offset %lld", desc, (long long)maxo);
  /* dense layouts (A = 1, no AoSoA tail) are bijections */
  if (A == 1 && (L->fields != TSR_AOSOA || L->ncell % L->block == 0))
    REQ_EQ(count, size);
  /* Z-curve and tiled: planes (ranks 0.. of each z) start on multiples of A, SoA fields too */
  if (L->kind != TSR_LAYOUT_ROWMAJOR && L->kind != TSR_LAYOUT_COLMAJOR) {
    if (L->d[2] > 1) REQ_EQ(L->sz % A, 0);
    if (L->fields == TSR_SOA) REQ_EQ(L->sf % A, 0);
  }
  free(seen);
}

static tsr_layout_t placed(tsr_layout_t L, int p) {
  switch (p) {
  case 0: return L;                                           /* one field */
  case 1: return tsr_layout_with_fields(L, 2, TSR_SOA);
  case 2: return tsr_layout_with_fields(L, 3, TSR_AOS);
  default: return tsr_layout_with_fields(L, 2, TSR_AOSOA);    /* B = 32 */
  }
}

START_TEST(test_rowmajor_maps) {
  static const int64_t halos[][3] = {{0, 0, 0}, {1, 1, 1}, {3, 1, 2}};
  static const int64_t aligns[] = {1, 32};
  for (size_t i = 0; i < NSIZES; i++)
    for (size_t j = 0; j < NSIZES; j++)
      for (size_t k = 0; k < NZSIZES; k++)
        for (size_t h = 0; h < 3; h++)
          for (size_t a = 0; a < 2; a++)
            for (int p = 0; p < 4; p++) {
              /* keep the largest cases to a few placements */
              if (SIZES[i] * SIZES[j] * ZSIZES[k] > 20000 && (h + a + (size_t)p) % 3) continue;
              tsr_layout_t L = tsr_layout_rowmajor(SIZES[i], SIZES[j], ZSIZES[k]);
              L = tsr_layout_with_halo(L, halos[h][0], halos[h][1], halos[h][2]);
              L = placed(tsr_layout_with_align(L, aligns[a]), p);
              ck_tsr(tsr_layout_check(&L));
              check_map(&L);
            }
}
END_TEST

START_TEST(test_zcurve_maps) {
  static const int ws[] = {0, 2, 5};
  for (size_t i = 0; i < NSIZES; i++)
    for (size_t j = 0; j < NSIZES; j++)
      for (size_t k = 0; k < NZSIZES; k++)
        for (size_t w = 0; w < 3; w++)
          for (int p = 0; p < 4; p += 3) {
            if (SIZES[i] * SIZES[j] * ZSIZES[k] > 20000 && (w + (size_t)p) % 2) continue;
            tsr_layout_t L = tsr_layout_zcurve(SIZES[i], SIZES[j], ZSIZES[k], ws[w]);
            L = placed(tsr_layout_with_halo(L, (int64_t)w, 1, 1), p);
            int64_t *tab;
            L = attach(L, &tab);
            ck_tsr(tsr_layout_check(&L));
            check_map(&L);
            free(tab);
          }
}
END_TEST

/* The Noarr paper's definition, checked directly: rows aligned and injective. */
static int padding_ok(const int64_t d[3], int64_t hx, int64_t A, int64_t a, int64_t sy,
                      int64_t sz, unsigned char *mark, int64_t nmark) {
  for (int64_t z = 0; z < d[2]; z++)
    for (int64_t y = 0; y < d[1]; y++)
      if ((hx + a + y * sy + z * sz) % A != 0) return 0;
  int64_t top = a + (d[2] - 1) * sz + (d[1] - 1) * sy + d[0];
  REQUIRE(top <= nmark, "scratch too small: %lld", (long long)top);
  memset(mark, 0, (size_t)top);
  for (int64_t z = 0; z < d[2]; z++)
    for (int64_t y = 0; y < d[1]; y++)
      for (int64_t x = 0; x < d[0]; x++) {
        int64_t i = x + a + y * sy + z * sz;
        if (mark[i]) return 0;
        mark[i] = 1;
      }
  return 1;
}

START_TEST(test_padding_minimal) {
  /* Among ALL (a', sy', sz') whose last cell lies below ours, none satisfies
   * alignment + injectivity: the layout's ncell is the smallest possible. */
  static const int64_t ns[] = {1, 2, 3, 5};
  static const int64_t hs[] = {0, 1, 3};
  /* (A = 1 needs no padding: test_rowmajor_maps proves it a bijection) */
  static const int64_t As[] = {2, 4, 8};
  unsigned char *mark = malloc(1 << 16);
  int64_t tried = 0;
  for (size_t ia = 0; ia < 3; ia++)
    for (size_t ih = 0; ih < 3; ih++)
      for (size_t ix = 0; ix < 4; ix++)
        for (size_t iy = 0; iy < 4; iy++)
          for (size_t iz = 0; iz < 4; iz++) {
            int64_t A = As[ia], h = hs[ih];
            tsr_layout_t L = tsr_layout_with_halo(tsr_layout_rowmajor(ns[ix], ns[iy], ns[iz]), h,
                                                  (h + 1) % 3, h / 2);
            L = tsr_layout_with_align(L, A);
            const int64_t *d = L.d;
            ck_assert(padding_ok(d, L.halo[0], A, L.base, L.sy, L.sz, mark, 1 << 16));
            int64_t top = L.ncell; /* a + (dz-1)sz + (dy-1)sy + dx */
            REQ_EQ(top, L.base + (d[2] - 1) * L.sz + (d[1] - 1) * L.sy + d[0]);
            /* strides that matter range over 1.. (a stride of a single row or
             * plane is irrelevant: fix it to 1) */
            int64_t symax = d[1] > 1 ? (top - d[0]) / (d[1] - 1) : 1;
            int64_t szmax = d[2] > 1 ? (top - d[0]) / (d[2] - 1) : 1;
            for (int64_t a = 0; a < top; a++)
              for (int64_t sy = 1; sy <= symax; sy++)
                for (int64_t sz = 1; sz <= szmax; sz++) {
                  int64_t t = a + (d[2] - 1) * sz + (d[1] - 1) * sy + d[0];
                  if (t >= top) break;
                  tried++;
                  REQUIRE(!padding_ok(d, L.halo[0], A, a, sy, sz, mark, 1 << 16),
                                "d=%lldx%lldx%lld h=%lld A=%lld: (a,sy,sz)=(%lld,%lld,%lld) "
                                "beats (%lld,%lld,%lld)",
                                (long long)d[0], (long long)d[1], (long long)d[2],
                                (long long)L.halo[0], (long long)A, (long long)a, (long long)sy,
                                (long long)sz, (long long)L.base, (long long)L.sy,
                                (long long)L.sz);
                }
          }
  ck_assert_int_gt(tried, 1000);
  free(mark);
}
END_TEST

START_TEST(test_known_padding) {
  /* 32^3 inner cells, halo 2: a = 30 so that x = 2 lands on 32; rows of 36
   * padded to 64; planes of 36 rows, 36*64 = 2304 = 72*32 cells. */
  tsr_layout_t L = tsr_layout_with_halo(tsr_layout_rowmajor(32, 32, 32), 2, 2, 2);
  REQ_EQ(L.base, 30);
  REQ_EQ(L.sy, 64);
  REQ_EQ(L.sz, 2304);
  REQ_EQ(tsr_layout_rm_cell(&L, 2, 0, 0), 32);
  REQ_EQ(L.ncell, 30 + 35 * 2304 + 35 * 64 + 36);
  char s[512];
  ck_tsr(tsr_layout_describe(&L, s, sizeof s));
  REQUIRE(strstr(s, "rowmajor x=36(32+2*2)") && strstr(s, "pad a=30 b=28 c=1008") &&
                    strstr(s, "f=1 soa"),
                "describe: %s", s);
  /* dense: align 1 is plain C order */
  tsr_layout_t D = tsr_layout_with_align(tsr_layout_rowmajor(5, 4, 3), 1);
  for (int64_t z = 0; z < 3; z++)
    for (int64_t y = 0; y < 4; y++)
      for (int64_t x = 0; x < 5; x++) REQ_EQ(tsr_layout_rm_cell(&D, x, y, z), x + 5 * (y + 4 * z));
  REQ_EQ(tsr_layout_size(&D), 60);
  /* SoA fields start aligned */
  tsr_layout_t F = tsr_layout_with_fields(tsr_layout_rowmajor(7, 3, 2), 4, TSR_SOA);
  REQ_EQ(F.sf % 32, 0);
  ck_assert_int_ge(F.sf, F.ncell);
  ck_assert_int_lt(F.sf - F.ncell, 32);
}
END_TEST

START_TEST(test_zcurve_code_order) {
  /* Within a plane, the storage order of the Z-curve layout is the order of
   * the stretched codes, and consecutive x runs of 2^w are contiguous. */
  for (int w = 0; w <= 5; w += 5) {
    tsr_layout_t L = tsr_layout_with_align(tsr_layout_zcurve(37, 20, 3, w), 8);
    L = tsr_layout_with_halo(L, 2, 1, 1);
    int64_t *tab;
    L = attach(L, &tab);
    const int64_t n = L.d[0] * L.d[1];
    for (int64_t z = 0; z < L.d[2]; z++) {
      int64_t *by_cell = malloc((size_t)n * sizeof *by_cell);
      for (int64_t y = 0; y < L.d[1]; y++)
        for (int64_t x = 0; x < L.d[0]; x++)
          by_cell[tsr_layout_zc_cell(&L, x, y, z) - z * L.sz] = x + L.d[0] * y;
      for (int64_t r = 1; r < n; r++) {
        int64_t c0 = by_cell[r - 1], c1 = by_cell[r];
        uint64_t k0 = tsr_zorder_code((uint32_t)(c0 % L.d[0]), (uint32_t)(c0 / L.d[0]), w);
        uint64_t k1 = tsr_zorder_code((uint32_t)(c1 % L.d[0]), (uint32_t)(c1 / L.d[0]), w);
        REQ_ULT(k0, k1);
      }
      free(by_cell);
    }
    REQ_EQ(L.sz, 904); /* 41 * 22 = 902 cells, rounded up to 8 */
    free(tab);
  }
}
END_TEST

/* Value of logical cell q (halo-relative) and field f: random but fixed. */
static double value(int64_t qx, int64_t qy, int64_t qz, int f) {
  unsigned long long s = (unsigned long long)((qx + 10) + 1000 * ((qy + 10) + 1000 * (qz + 10))) *
                             16 + (unsigned long long)f;
  return tsr_test_rand(&s, 1.0, 2.0);
}

static void fill(const tsr_layout_t *L, double *u) {
  for (int64_t i = 0; i < L->size; i++) u[i] = -1.0; /* padding sentinel */
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++)
      for (int64_t x = 0; x < L->d[0]; x++)
        for (int f = 0; f < L->nf; f++)
          u[tsr_layout_offset(L, x, y, z, f)] =
              value(x - L->halo[0], y - L->halo[1], z - L->halo[2], f);
}

/* u (layout L, filled with fill) holds value() in the logical range common
 * with S, and the sentinel `other` everywhere else. */
static void expect(const tsr_layout_t *L, const double *u, const tsr_layout_t *S, double other) {
  int64_t covered = 0;
  int nf = TSR_MIN(L->nf, S->nf);
  for (int64_t z = 0; z < L->d[2]; z++)
    for (int64_t y = 0; y < L->d[1]; y++)
      for (int64_t x = 0; x < L->d[0]; x++) {
        int64_t q[3] = {x - L->halo[0], y - L->halo[1], z - L->halo[2]};
        int in = 1;
        for (int i = 0; i < 3; i++) in &= q[i] >= -S->halo[i] && q[i] < S->n[i] + S->halo[i];
        for (int f = 0; f < L->nf; f++) {
          double v = u[tsr_layout_offset(L, x, y, z, f)];
          if (in && f < nf) {
            REQ_DEQ(v, value(q[0], q[1], q[2], f));
            covered++;
          } else {
            REQ_DEQ(v, other);
          }
        }
      }
  ck_assert_int_gt(covered, 0);
}

START_TEST(test_placements_same_element) {
  /* Write through one layout, transform, read through another: the same
   * logical element for every pair of kinds and placements. */
  tsr_layout_t base[2] = {tsr_layout_rowmajor(13, 6, 3), tsr_layout_zcurve(13, 6, 3, 2)};
  tsr_layout_t all[8];
  int64_t *tabs[8];
  int m = 0;
  for (int k = 0; k < 2; k++) {
    tsr_layout_t L = tsr_layout_with_halo(base[k], 1, 2, 1);
    all[m] = attach(tsr_layout_with_fields(L, 3, TSR_SOA), &tabs[m]); m++;
    all[m] = attach(tsr_layout_with_fields(L, 3, TSR_AOS), &tabs[m]); m++;
    all[m] = attach(tsr_layout_with_fields(L, 3, TSR_AOSOA), &tabs[m]); m++;
    all[m] = attach(tsr_layout_with_block(tsr_layout_with_fields(L, 3, TSR_AOSOA), 4), &tabs[m]); m++;
  }
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) {
      double *a = malloc(tsr_layout_bytes(&all[i], 8)), *b = malloc(tsr_layout_bytes(&all[j], 8));
      double *c = malloc(tsr_layout_bytes(&all[i], 8));
      fill(&all[i], a);
      for (int64_t e = 0; e < all[j].size; e++) b[e] = -3.0;
      ck_tsr(tsr_layout_transform(&all[i], a, &all[j], b, sizeof(double)));
      expect(&all[j], b, &all[i], -3.0);
      /* and back: identical to the original, padding included */
      for (int64_t e = 0; e < all[i].size; e++) c[e] = -1.0;
      ck_tsr(tsr_layout_transform(&all[j], b, &all[i], c, sizeof(double)));
      REQ_MEM(a, c, tsr_layout_bytes(&all[i], 8));
      free(a);
      free(b);
      free(c);
    }
  for (int i = 0; i < m; i++) free(tabs[i]);
}
END_TEST

START_TEST(test_transform_halos_and_sizes) {
  /* Different halos, extents, alignments and field counts: only the common
   * logical range moves, and element sizes 4, 8 and 12 bytes work. */
  tsr_layout_t s = tsr_layout_with_fields(
      tsr_layout_with_halo(tsr_layout_rowmajor(9, 8, 4), 2, 2, 1), 2, TSR_AOS);
  tsr_layout_t t = tsr_layout_with_fields(
      tsr_layout_with_align(tsr_layout_with_halo(tsr_layout_zcurve(11, 7, 4, 1), 0, 3, 0), 4), 3,
      TSR_SOA);
  int64_t *tab;
  t = attach(t, &tab);
  double *a = malloc(tsr_layout_bytes(&s, 8)), *b = malloc(tsr_layout_bytes(&t, 8));
  fill(&s, a);
  for (int64_t e = 0; e < t.size; e++) b[e] = -5.0;
  ck_tsr(tsr_layout_transform(&s, a, &t, b, 8));
  expect(&t, b, &s, -5.0);
  /* 4-byte and 12-byte elements: random bytes, compared exactly */
  for (size_t es = 4; es <= 12; es += 8) {
    unsigned char *x = malloc(tsr_layout_bytes(&s, es)), *y = calloc(1, tsr_layout_bytes(&t, es));
    unsigned long long st = 99;
    for (size_t e = 0; e < tsr_layout_bytes(&s, es); e++)
      x[e] = (unsigned char)(1 + 254 * tsr_test_rand(&st, 0, 1)); /* never 0 */
    ck_tsr(tsr_layout_transform(&s, x, &t, y, es));
    int64_t moved = 0;
    for (int64_t z = 0; z < t.d[2]; z++)
      for (int64_t yy = 0; yy < t.d[1]; yy++)
        for (int64_t xx = 0; xx < t.d[0]; xx++)
          for (int f = 0; f < t.nf; f++) {
            /* same logical cell in s: coordinate - t.halo + s.halo */
            int64_t od = tsr_layout_offset(&t, xx, yy, z, f);
            int64_t os = tsr_layout_offset(&s, xx - t.halo[0] + s.halo[0],
                                           yy - t.halo[1] + s.halo[1], z - t.halo[2] + s.halo[2], f);
            REQUIRE(od >= 0, "offset of a cell of t is %lld", (long long)od);
            if (os < 0) { /* not in s (or field 2): untouched zeros */
              for (size_t k = 0; k < es; k++) REQ_EQ(y[od * (int64_t)es + (int64_t)k], 0);
            } else {
              REQ_MEM(y + od * (int64_t)es, x + os * (int64_t)es, es);
              moved++;
            }
          }
    /* common logical range: x 0..10 (t has no x halo; s reaches 9+2), y -2..9 (s halo 2 <
     * t halo 3), z 0..3 (t has no z halo); 2 fields */
    REQ_EQ(moved, 11 * 12 * 4 * 2);
    free(x);
    free(y);
  }
  free(a);
  free(b);
  free(tab);
}
END_TEST

START_TEST(test_named_dims_and_errors) {
  tsr_layout_t L = tsr_layout_with_fields(
      tsr_layout_with_halo(tsr_layout_rowmajor(10, 20, 30), 1, 2, 3), 4, TSR_SOA);
  REQ_EQ(tsr_layout_extent(&L, 'x'), 12);
  REQ_EQ(tsr_layout_extent(&L, 'y'), 24);
  REQ_EQ(tsr_layout_extent(&L, 'z'), 36);
  REQ_EQ(tsr_layout_extent(&L, 'f'), 4);
  REQ_EQ(tsr_layout_inner(&L, 'z'), 30);
  REQ_EQ(tsr_layout_halo(&L, 'y'), 2);
  REQ_EQ(tsr_layout_extent(&L, 'q'), -1);
  REQ_EQ(tsr_layout_table_len(&L), 0);
  /* out of range -> -1 */
  REQ_EQ(tsr_layout_offset(&L, 12, 0, 0, 0), -1);
  REQ_EQ(tsr_layout_offset(&L, 0, -1, 0, 0), -1);
  REQ_EQ(tsr_layout_offset(&L, 0, 0, 0, 4), -1);
  ck_assert_int_ge(tsr_layout_offset(&L, 11, 23, 35, 3), 0);
  /* bad builder arguments: the first one is reported, later calls keep it */
  tsr_layout_t B = tsr_layout_with_align(tsr_layout_with_halo(L, -1, 0, 0), 0);
  ck_tsr_fails(tsr_layout_check(&B), TSR_ERR_ARG);
  ck_tsr_fails(tsr_layout_check(&B), TSR_ERR_ARG);
  REQ_EQ(tsr_layout_check(&B), TSR_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "with_halo"));
  tsr_error_clear();
  REQ_EQ(tsr_layout_offset(&B, 0, 0, 0, 0), -1);
  tsr_layout_t bad[] = {tsr_layout_rowmajor(0, 1, 1),
                        tsr_layout_zcurve(4, 4, 4, 32),
                        tsr_layout_with_align(L, 0),
                        tsr_layout_with_fields(L, 0, TSR_SOA),
                        tsr_layout_with_fields(L, 2, (tsr_fields_t)7),
                        tsr_layout_with_block(L, 24),
                        tsr_layout_rowmajor((int64_t)1 << 31, (int64_t)1 << 31, 4),
                        /* d[0] * d[1] beyond int64_t: refused, not overflowed */
                        tsr_layout_rowmajor((int64_t)1 << 32, (int64_t)1 << 32, 1),
                        tsr_layout_rowmajor((int64_t)1 << 40, (int64_t)1 << 40, 1)};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) ck_tsr_fails(tsr_layout_check(&bad[i]), TSR_ERR_ARG);
  tsr_layout_t K = L;
  K.kind = 9;
  ck_tsr_fails(tsr_layout_check(&K), TSR_ERR_UNSUPPORTED);
  /* Z-curve without a table */
  tsr_layout_t Z = tsr_layout_zcurve(4, 4, 2, 1);
  REQ_EQ(tsr_layout_offset(&Z, 0, 0, 0, 0), -1);
  double u[64] = {0}, v[64] = {0};
  ck_tsr_fails(tsr_layout_transform(&Z, u, &L, v, 8), TSR_ERR_ARG);
  ck_tsr_fails(tsr_layout_transform(&L, NULL, &L, v, 8), TSR_ERR_ARG);
  ck_tsr_fails(tsr_layout_table_build(&L, (int64_t *)u), TSR_ERR_ARG); /* rowmajor has none */
  /* a halo change drops the table */
  int64_t *tab;
  Z = attach(Z, &tab);
  ck_assert_ptr_nonnull(Z.ztab);
  ck_assert_ptr_null(tsr_layout_with_halo(Z, 1, 1, 1).ztab);
  free(tab);
}
END_TEST

START_TEST(test_alloc_and_tables_cpu) {
  tsr_device_t dev;
  memset(&dev, 0, sizeof dev);
  dev.kind = TSR_DEV_CPU;
  dev.id = -1;
  tsr_layout_t L = tsr_layout_with_fields(
      tsr_layout_with_halo(tsr_layout_zcurve(19, 10, 3, 3), 2, 2, 1), 2, TSR_AOSOA);
  int64_t *tab = NULL;
  ck_tsr(tsr_layout_table_create(&dev, &L, &tab));
  ck_assert_ptr_nonnull(tab);
  int64_t *ref = malloc((size_t)tsr_layout_table_len(&L) * sizeof *ref);
  ck_tsr(tsr_zorder_plane_order(23, 14, 3, ref));
  REQ_EQ(tsr_layout_table_len(&L), 23 * 14);
  REQ_MEM(tab, ref, (size_t)tsr_layout_table_len(&L) * sizeof *ref);
  L = tsr_layout_with_table(L, tab);
  double *u = NULL;
  ck_tsr(tsr_layout_alloc(&dev, &L, sizeof(double), (void **)&u));
  REQ_EQ((uintptr_t)u % 64, 0);
  for (int64_t i = 0; i < L.size; i++) REQ_DEQ(u[i], 0.0);
  ck_tsr(tsr_device_free(&dev, (void **)&u));
  ck_tsr(tsr_layout_table_destroy(&dev, &tab));
  ck_assert_ptr_null(tab);
  /* row-major needs no table */
  tsr_layout_t R = tsr_layout_rowmajor(3, 3, 3);
  ck_tsr(tsr_layout_table_create(&dev, &R, &tab));
  ck_assert_ptr_null(tab);
  free(ref);
}
END_TEST

/* ------------------------------------------------ the paper's matrix kinds */
static const int SEED_KINDS[] = {TSR_LAYOUT_COLMAJOR, TSR_LAYOUT_RC, TSR_LAYOUT_CR, TSR_LAYOUT_RR,
                                 TSR_LAYOUT_CC};
#define NSEED (sizeof SEED_KINDS / sizeof *SEED_KINDS)

/* Cell index with the kind as a literal constant: the folded form kernels get. */
static int64_t const_kind_cell(const tsr_layout_t *L, int64_t x, int64_t y, int64_t z) {
  switch (L->kind) {
  case TSR_LAYOUT_ROWMAJOR: return tsr_layout_cell_as(TSR_LAYOUT_ROWMAJOR, L, x, y, z);
  case TSR_LAYOUT_ZCURVE: return tsr_layout_cell_as(TSR_LAYOUT_ZCURVE, L, x, y, z);
  case TSR_LAYOUT_COLMAJOR: return tsr_layout_cell_as(TSR_LAYOUT_COLMAJOR, L, x, y, z);
  case TSR_LAYOUT_RC: return tsr_layout_cell_as(TSR_LAYOUT_RC, L, x, y, z);
  case TSR_LAYOUT_CR: return tsr_layout_cell_as(TSR_LAYOUT_CR, L, x, y, z);
  case TSR_LAYOUT_RR: return tsr_layout_cell_as(TSR_LAYOUT_RR, L, x, y, z);
  default: return tsr_layout_cell_as(TSR_LAYOUT_CC, L, x, y, z);
  }
}

/* The order a dense (A = 1) layout of a paper kind must follow, by
 * enumeration: visit the cells in the documented order (z planes; tiles in
 * their order; cells inside a tile in theirs) and number them 0, 1, ...
 * ord[(z*d1 + y)*d0 + x] receives the number. */
static void enumerate(const tsr_layout_t *L, int64_t *ord) {
  const int64_t d0 = L->d[0], d1 = L->d[1], d2 = L->d[2];
  int64_t k = 0;
  int inner_c = L->kind == TSR_LAYOUT_CR || L->kind == TSR_LAYOUT_CC;
  int tiles_c = L->kind == TSR_LAYOUT_RC || L->kind == TSR_LAYOUT_CC;
  int64_t tx = L->tile[0], ty = L->tile[1];
  if (L->kind == TSR_LAYOUT_COLMAJOR) { /* one tile covering the plane, C inside */
    inner_c = 1;
    tx = d0;
    ty = d1;
  }
  const int64_t ntx = (d0 + tx - 1) / tx, nty = (d1 + ty - 1) / ty;
  for (int64_t z = 0; z < d2; z++)
    for (int64_t t = 0; t < ntx * nty; t++) {
      int64_t X = tiles_c ? t / nty : t % ntx, Y = tiles_c ? t % nty : t / ntx;
      int64_t x0 = X * tx, x1 = TSR_MIN(d0, x0 + tx), y0 = Y * ty, y1 = TSR_MIN(d1, y0 + ty);
      for (int64_t i = 0; i < (x1 - x0) * (y1 - y0); i++) {
        int64_t x = inner_c ? x0 + i / (y1 - y0) : x0 + i % (x1 - x0);
        int64_t y = inner_c ? y0 + i % (y1 - y0) : y0 + i / (x1 - x0);
        ord[(z * d1 + y) * d0 + x] = k++;
      }
    }
}

START_TEST(test_seed_kinds_order) {
  /* Dense C, RC, CR, RR, CC are bijections onto [0, d0*d1*d2) in exactly the
   * enumerated order, for extents that are not multiples of the tile; the
   * generic offset, the per-kind function and the constant-kind switch agree. */
  static const int64_t dx[] = {1, 5, 16, 17, 35}, dy[] = {1, 3, 16, 31}, dz[] = {1, 3};
  static const int tiles[][2] = {{16, 16}, {4, 8}, {1, 2}, {32, 1}};
  int64_t *ord = malloc(35 * 31 * 3 * sizeof *ord);
  for (size_t kk = 0; kk < NSEED; kk++)
    for (size_t i = 0; i < 5; i++)
      for (size_t j = 0; j < 4; j++)
        for (size_t k = 0; k < 2; k++)
          for (size_t t = 0; t < 4; t++)
            for (int64_t h = 0; h < 2; h++) {
              if (SEED_KINDS[kk] == TSR_LAYOUT_COLMAJOR && t > 0) continue;
              /* extents d = n + 2h */
              if (dx[i] <= 2 * h || dy[j] <= 2 * h || dz[k] <= 2 * h) continue;
              tsr_layout_t L = tsr_layout_of_kind(SEED_KINDS[kk], dx[i] - 2 * h, dy[j] - 2 * h,
                                                  dz[k] - 2 * h);
              L = tsr_layout_with_align(tsr_layout_with_halo(L, h, h, h), 1);
              L = tsr_layout_with_tile(L, tiles[t][0], tiles[t][1]);
              ck_tsr(tsr_layout_check(&L));
              char desc[512];
              ck_tsr(tsr_layout_describe(&L, desc, sizeof desc));
              REQUIRE(L.size == dx[i] * dy[j] * dz[k], "%s: size %lld", desc, (long long)L.size);
              enumerate(&L, ord);
              for (int64_t z = 0; z < dz[k]; z++)
                for (int64_t y = 0; y < dy[j]; y++)
                  for (int64_t x = 0; x < dx[i]; x++) {
                    int64_t want = ord[(z * dy[j] + y) * dx[i] + x];
                    int64_t o = tsr_layout_offset(&L, x, y, z, 0);
                    REQUIRE(o == want, "%s: (%lld,%lld,%lld) at %lld, enumeration says %lld",
                            desc, (long long)x, (long long)y, (long long)z, (long long)o,
                            (long long)want);
                    REQ_EQ(kind_cell(&L, x, y, z), want);
                    REQ_EQ(const_kind_cell(&L, x, y, z), want);
                    REQ_EQ(tsr_layout_cell(&L, x, y, z), want);
                  }
            }
  free(ord);
}
END_TEST

START_TEST(test_seed_kinds_maps) {
  /* Padded and multi-field versions: injective into a minimal [0, size),
   * column starts (C) and planes (tiled) aligned, per-kind = generic. */
  static const int64_t halos[][3] = {{0, 0, 0}, {1, 2, 1}};
  for (size_t kk = 0; kk < NSEED; kk++)
    for (size_t i = 0; i < NSIZES; i++)
      for (size_t j = 0; j < NSIZES; j++)
        for (size_t k = 0; k < NZSIZES; k++)
          for (size_t h = 0; h < 2; h++)
            for (int p = 0; p < 4; p++) {
              if (SIZES[i] * SIZES[j] * ZSIZES[k] > 5000 && (h + (size_t)p) % 4) continue;
              tsr_layout_t L = tsr_layout_of_kind(SEED_KINDS[kk], SIZES[i], SIZES[j], ZSIZES[k]);
              L = tsr_layout_with_halo(L, halos[h][0], halos[h][1], halos[h][2]);
              if (p == 2) L = tsr_layout_with_tile(L, 8, 4);
              L = placed(L, p);
              ck_tsr(tsr_layout_check(&L));
              check_map(&L);
            }
}
END_TEST

START_TEST(test_transform_every_pair) {
  /* 2-D, 3-D and 4-D (fields) arrays: every ordered pair of the seven kinds,
   * different halos, tiles and placements; the copy lands on the same
   * logical element, and transforming back restores the source exactly. */
  static const int64_t ext[3][3] = {{19, 11, 1}, {13, 6, 3}, {10, 9, 2}};
  for (int dim = 0; dim < 3; dim++)
    for (int ki = 0; ki < TSR_LAYOUT_NKINDS; ki++)
      for (int kj = 0; kj < TSR_LAYOUT_NKINDS; kj++) {
        tsr_layout_t S = tsr_layout_of_kind(ki, ext[dim][0], ext[dim][1], ext[dim][2]);
        tsr_layout_t D = tsr_layout_of_kind(kj, ext[dim][0], ext[dim][1], ext[dim][2]);
        S = tsr_layout_with_tile(tsr_layout_with_halo(S, 1, 0, 0), 4, 8);
        D = tsr_layout_with_align(tsr_layout_with_halo(D, 0, 2, dim == 1), 4);
        if (dim == 2) {
          S = tsr_layout_with_fields(S, 3, TSR_AOS);
          D = tsr_layout_with_block(tsr_layout_with_fields(D, 3, TSR_AOSOA), 8);
        }
        int64_t *ts, *td;
        S = attach(S, &ts);
        D = attach(D, &td);
        double *a = malloc(tsr_layout_bytes(&S, 8)), *b = malloc(tsr_layout_bytes(&D, 8));
        double *c = malloc(tsr_layout_bytes(&S, 8));
        fill(&S, a);
        for (int64_t e = 0; e < D.size; e++) b[e] = -7.0;
        ck_tsr(tsr_layout_transform(&S, a, &D, b, sizeof(double)));
        expect(&D, b, &S, -7.0);
        /* back into a copy of a whose common part was wiped: all restored */
        memcpy(c, a, tsr_layout_bytes(&S, 8));
        for (int64_t z = 0; z < D.d[2]; z++)
          for (int64_t y = 0; y < D.d[1]; y++)
            for (int64_t x = 0; x < D.d[0]; x++)
              for (int f = 0; f < D.nf; f++) {
                int64_t o = tsr_layout_offset(&S, x - D.halo[0] + S.halo[0],
                                              y - D.halo[1] + S.halo[1], z - D.halo[2] + S.halo[2], f);
                if (o >= 0) c[o] = 0.0;
              }
        ck_tsr(tsr_layout_transform(&D, b, &S, c, sizeof(double)));
        REQUIRE(memcmp(a, c, tsr_layout_bytes(&S, 8)) == 0, "%dD %s -> %s -> back differs",
                dim + 2, tsr_layout_kind_short(ki), tsr_layout_kind_short(kj));
        free(a);
        free(b);
        free(c);
        free(ts);
        free(td);
      }
}
END_TEST

/* A constant layout in static storage, as the stencil experiment uses it. */
static const tsr_layout_t CONST_L = TSR_LAYOUT_DENSE_CONST(7, 5, 3);

START_TEST(test_dense_const) {
  tsr_layout_t B = tsr_layout_with_align(tsr_layout_rowmajor(7, 5, 3), 1);
  ck_tsr(tsr_layout_check(&CONST_L));
  REQ_EQ(CONST_L.kind, B.kind);
  REQ_EQ(CONST_L.fields, B.fields);
  REQ_EQ(CONST_L.nf, B.nf);
  REQ_EQ(CONST_L.block, B.block);
  REQ_EQ(CONST_L.lblock, B.lblock);
  REQ_EQ(CONST_L.zbits, B.zbits);
  REQ_EQ(CONST_L.err, B.err);
  for (int i = 0; i < 3; i++) {
    REQ_EQ(CONST_L.n[i], B.n[i]);
    REQ_EQ(CONST_L.halo[i], B.halo[i]);
    REQ_EQ(CONST_L.d[i], B.d[i]);
  }
  REQ_EQ(CONST_L.align, B.align);
  REQ_EQ(CONST_L.base, B.base);
  REQ_EQ(CONST_L.sx, B.sx);
  REQ_EQ(CONST_L.sy, B.sy);
  REQ_EQ(CONST_L.sz, B.sz);
  REQ_EQ(CONST_L.ncell, B.ncell);
  REQ_EQ(CONST_L.sf, B.sf);
  REQ_EQ(CONST_L.size, B.size);
  ck_assert_ptr_null(CONST_L.ztab);
  for (int i = 0; i < 2; i++) {
    REQ_EQ(CONST_L.tile[i], B.tile[i]);
    REQ_EQ(CONST_L.ltile[i], B.ltile[i]);
  }
  for (int64_t z = 0; z < 3; z++)
    for (int64_t y = 0; y < 5; y++)
      for (int64_t x = 0; x < 7; x++) REQ_EQ(tsr_layout_rm_cell(&CONST_L, x, y, z), (z * 5 + y) * 7 + x);
}
END_TEST

START_TEST(test_kind_names_and_errors) {
  for (int k = 0; k < TSR_LAYOUT_NKINDS; k++) {
    int got = -1;
    ck_tsr(tsr_layout_kind_parse(tsr_layout_kind_short(k), &got));
    REQ_EQ(got, k);
    got = -1;
    ck_tsr(tsr_layout_kind_parse(tsr_layout_kind_name(k), &got));
    REQ_EQ(got, k);
  }
  int got;
  ck_tsr_fails(tsr_layout_kind_parse("RZ", &got), TSR_ERR_ARG);
  ck_assert_str_eq(tsr_layout_kind_short(TSR_LAYOUT_COLMAJOR), "C");
  ck_assert_str_eq(tsr_layout_kind_name(TSR_LAYOUT_COLMAJOR), "colmajor");
  ck_assert_str_eq(tsr_layout_kind_name(42), "unknown");
  tsr_layout_t L = tsr_layout_with_tile(tsr_layout_tiled(TSR_LAYOUT_RC, 40, 30, 2), 4, 8);
  ck_tsr(tsr_layout_check(&L));
  char d[256];
  ck_tsr(tsr_layout_describe(&L, d, sizeof d));
  ck_assert_ptr_nonnull(strstr(d, "RC(tile=4x8)"));
  REQ_EQ(tsr_layout_tiled(TSR_LAYOUT_CC, 40, 30, 2).tile[0], TSR_LAYOUT_TILE);
  tsr_layout_t bad[] = {tsr_layout_with_tile(L, 3, 8), tsr_layout_with_tile(L, 4, 0),
                        tsr_layout_with_tile(L, 2048, 1), tsr_layout_tiled(TSR_LAYOUT_ROWMAJOR, 4, 4, 1),
                        tsr_layout_of_kind(TSR_LAYOUT_NKINDS, 4, 4, 1),
                        tsr_layout_colmajor(3, 0, 1), tsr_layout_tiled(TSR_LAYOUT_CR, 0, 3, 1)};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) ck_tsr_fails(tsr_layout_check(&bad[i]), TSR_ERR_ARG);
  REQ_EQ(tsr_layout_check(&bad[0]), TSR_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(tsr_error_message(), "with_tile"));
  tsr_error_clear();
  /* column-major padding, mirrored: columns of d1 = 5 + 2*1 = 7 padded to 8 */
  tsr_layout_t C = tsr_layout_with_align(tsr_layout_with_halo(tsr_layout_colmajor(4, 5, 2), 0, 1, 0), 8);
  REQ_EQ(C.base, 7);
  REQ_EQ(C.sx, 8);
  REQ_EQ(C.sz, 32);
  REQ_EQ(tsr_layout_offset(&C, 0, 1, 0, 0), 8);
  REQ_EQ(tsr_layout_offset(&C, 2, 1, 1, 0), 7 + 1 + 16 + 32);
  /* transform on a CPU device = tsr_layout_transform; NULL device refused */
  tsr_device_t dev;
  memset(&dev, 0, sizeof dev);
  dev.kind = TSR_DEV_CPU;
  float u[64], v[64];
  tsr_layout_t R = tsr_layout_with_align(tsr_layout_rowmajor(8, 8, 1), 1);
  tsr_layout_t T = tsr_layout_with_tile(tsr_layout_tiled(TSR_LAYOUT_CR, 8, 8, 1), 4, 4);
  for (int i = 0; i < 64; i++) u[i] = (float)(i + 1);
  ck_tsr(tsr_layout_transform_device(&dev, &R, u, &T, v, sizeof(float)));
  /* CR with 4x4 tiles: tile (1,0) starts at 16 and is column-major inside */
  REQ_DEQ(v[16], u[4]);
  REQ_DEQ(v[17], u[12]);
  REQ_DEQ(v[20], u[5]);
  ck_tsr_fails(tsr_layout_transform_device(NULL, &R, u, &T, v, 4), TSR_ERR_ARG);
}
END_TEST

static Suite *layout_suite(void) {
  Suite *s = suite_create("layout");
  const struct {
    const char *name;
    const TTest *test;
  } tests[] = {
      {"rowmajor_maps", test_rowmajor_maps},
      {"zcurve_maps", test_zcurve_maps},
      {"padding_minimal", test_padding_minimal},
      {"known_padding", test_known_padding},
      {"zcurve_code_order", test_zcurve_code_order},
      {"placements_same_element", test_placements_same_element},
      {"transform_halos_and_sizes", test_transform_halos_and_sizes},
      {"named_dims_and_errors", test_named_dims_and_errors},
      {"alloc_and_tables_cpu", test_alloc_and_tables_cpu},
      {"seed_kinds_order", test_seed_kinds_order},
      {"seed_kinds_maps", test_seed_kinds_maps},
      {"transform_every_pair", test_transform_every_pair},
      {"dense_const", test_dense_const},
      {"kind_names_and_errors", test_kind_names_and_errors},
  };
  /* one case per test, so CK_RUN_CASE=name runs one */
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++) {
    TCase *tc = tcase_create(tests[i].name);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, tests[i].test);
    suite_add_tcase(s, tc);
  }
  return s;
}

int main(void) { return tsr_test_run(layout_suite()); }
