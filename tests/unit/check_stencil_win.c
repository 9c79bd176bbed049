/* tests/unit/check_stencil_win.c: the load-lean strategies' arithmetic on
 * the CPU (stencil_win.inc through stencil__win_cpu / stencil__patch_cpu,
 * the same column and phase functions the CUDA kernels run) and their
 * launch planning.
 * - j-window: laplap and hdiff, double and float, sizes 13x11x5, 37x29x3,
 *   64x64x8 and 20x45x2, rows per thread 1, 2, 3, 4, 5, 8, 16 (most do not
 *   divide the rows: partial top strips), on the whole inner region and on
 *   a sub-box (as the MPI interior): the whole output array must equal the
 *   reference byte for byte (the updated cells; everything else untouched).
 * - patch: unstructured grids in row-major, z-curve and random order, depth
 *   1 and 2, compressed or not, blocks of 1, 5, 32, 64 and 256 slots: byte-
 *   equal to the reference after gathering; on the z-curve both paths
 *   (staged in shared memory and read through the tables) must be taken.
 * - planning: blocks and strips, a block larger than the strips, slots or
 *   chains cut to them and block z 1 for patch-kloop and the chain plans
 *   (with a note), the warp rule of jwindow-shfl a skip with a note, --jpt
 *   outside 2, 4, 8, 16 an error, wrong stencil or grid kind unsupported,
 *   patch smem. */
#include "config.h"
#include <check.h>
#include "tsr_check.h"
#include "kernels/stencil/stencil_problem.h"

static void *dup_bytes(const void *a, size_t bytes) {
  void *b = malloc(bytes);
  ck_assert(b);
  memcpy(b, a, bytes);
  return b;
}

static const int64_t sizes[4][3] = {{13, 11, 5}, {37, 29, 3}, {64, 64, 8}, {20, 45, 2}};

START_TEST(test_jwindow) {
  const int kind = _i / 8 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = (_i / 4) % 2, sz = _i % 4;
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, prec, sizes[sz], TSR_SOA, &P));
  stencil_problem_fill(&P, 5 + (uint64_t)_i, NULL);
  const size_t bytes = (size_t)stencil_problem_elems(&P, 0) * stencil_problem_esize(&P);
  const stencil_grid_t g = stencil_problem_grid(&P);
  void *ref = dup_bytes(P.in, bytes);
  stencil_fields_t fr = stencil_problem_fields(&P, P.in, P.coeff, ref, 0);
  ck_tsr(stencil_cpu_ref(kind, &g, &fr));
  static const int jpts[7] = {1, 2, 3, 4, 5, 8, 16};
  for (int k = 0; k < 7; k++) {
    void *out = dup_bytes(P.in, bytes);
    stencil_fields_t f = stencil_problem_fields(&P, P.in, P.coeff, out, 0);
    ck_tsr(stencil__win_cpu(kind, &g, &f, jpts[k]));
    ck_assert_msg(memcmp(out, ref, bytes) == 0, "%s %s %lldx%lldx%lld jwindow %d: differs from the reference",
                  stencil_name(kind), prec ? "float" : "double", (long long)sizes[sz][0],
                  (long long)sizes[sz][1], (long long)sizes[sz][2], jpts[k]);
    /* a sub-box: lo + (1, 3), hi - (2, 1): those cells as the reference,
       all others still the input */
    stencil_grid_t b = g;
    b.lo[0] += 1, b.lo[1] += 3, b.hi[0] -= 2, b.hi[1] -= 1;
    memcpy(out, P.in, bytes);
    ck_tsr(stencil__win_cpu(kind, &b, &f, jpts[k]));
    const size_t es = stencil_problem_esize(&P);
    for (int64_t z = 0; z < P.size[2]; z++)
      for (int64_t y = 0; y < P.size[1]; y++)
        for (int64_t x = 0; x < P.size[0]; x++) {
          const int64_t e = tsr_layout_rm_cell(&P.L, x, y, z);
          const int inside = x >= b.lo[0] && x < b.hi[0] && y >= b.lo[1] && y < b.hi[1] &&
                             z >= b.lo[2] && z < b.hi[2];
          const char *want = (const char *)(inside ? ref : P.in) + (size_t)e * es;
          ck_assert_msg(memcmp((const char *)out + (size_t)e * es, want, es) == 0,
                        "%s jwindow %d sub-box: cell (%lld,%lld,%lld) %s", stencil_name(kind),
                        jpts[k], (long long)x, (long long)y, (long long)z,
                        inside ? "differs from the reference" : "was written");
        }
    free(out);
  }
  free(ref);
  stencil_problem_destroy(&P);
}
END_TEST

START_TEST(test_patch) {
  const int kind = _i / 4 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = (_i / 2) % 2, sz = _i % 2;
  const int64_t *size = sizes[sz + 1];
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, prec, size, TSR_SOA, &P));
  stencil_problem_fill(&P, 17 + (uint64_t)_i, NULL);
  const size_t es = stencil_problem_esize(&P);
  const size_t bytes = (size_t)stencil_problem_elems(&P, 0) * es;
  const stencil_grid_t g = stencil_problem_grid(&P);
  void *ref = dup_bytes(P.in, bytes);
  stencil_fields_t fr = stencil_problem_fields(&P, P.in, P.coeff, ref, 0);
  ck_tsr(stencil_cpu_ref(kind, &g, &fr));
  static const int orders[3] = {STENCIL_ORDER_ROWMAJOR, STENCIL_ORDER_ZCURVE, STENCIL_ORDER_RANDOM};
  static const int patches[5] = {1, 5, 32, 64, 256};
  int ran = 0;
  for (int o = 0; o < 3; o++)
    for (int depth = 1; depth <= 2; depth++)
      for (int comp = 0; comp <= 1; comp++) {
        stencil_ugrid_t U;
        int rc = stencil_ugrid_create(&P, orders[o], 2, 7, depth, comp, &U);
        if (rc == TSR_ERR_UNSUPPORTED) { /* dictionary too large: a skip */
          tsr_error_clear();
          continue;
        }
        ck_tsr(rc);
        void *uin = calloc(1, (size_t)U.L.size * es), *ucst = calloc(1, (size_t)U.L.size * es);
        void *uout = calloc(1, (size_t)U.L.size * es), *back = malloc(bytes);
        ck_assert(uin && ucst && uout && back);
        stencil_ugrid_scatter(&U, &P.L, P.in, &U.L, uin, es);
        if (P.coeff) stencil_ugrid_scatter(&U, &P.L, P.coeff, &U.L, ucst, es);
        stencil_grid_t ug;
        ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &ug));
        for (int k = 0; k < 5; k++) {
          memcpy(uout, uin, (size_t)U.L.size * es);
          stencil_fields_t fu = stencil_problem_fields(&P, uin, ucst, uout, 0);
          ck_tsr(stencil__patch_cpu(kind, &ug, &fu, patches[k]));
          memcpy(back, P.in, bytes);
          stencil_ugrid_gather(&U, &U.L, uout, &P.L, back, es, U.np);
          ck_assert_msg(memcmp(back, ref, bytes) == 0,
                        "%s %s %lldx%lldx%lld patch %d order %d depth %d comp %d: differs from the "
                        "reference", stencil_name(kind), prec ? "float" : "double", (long long)size[0],
                        (long long)size[1], (long long)size[2], patches[k], o, depth, comp);
          ran++;
        }
        if (orders[o] == STENCIL_ORDER_ZCURVE) { /* both paths of a 32-slot patch are taken */
          int64_t staged = 0, outside = 0;
          for (int64_t s = ug.lo[0]; s < ug.hi[0]; s++)
            for (int p = 1; p <= 4; p++) {
              const int64_t nb = s + stencil_unstr_off13(&ug, s, p);
              if ((nb - ug.lo[0]) / 32 == (s - ug.lo[0]) / 32 && nb < ug.hi[0]) staged++;
              else outside++;
            }
          ck_assert_msg(staged > outside && outside > 0, "z-curve patch of 32: %lld staged, %lld outside",
                        (long long)staged, (long long)outside);
        }
        free(uin), free(ucst), free(uout), free(back);
        stencil_ugrid_destroy(&U);
      }
  ck_assert_int_ge(ran, 3 * 2 * 5); /* at least the uncompressed ones */
  free(ref);
  stencil_problem_destroy(&P);
}
END_TEST

/* The unstructured jwindow's chains on the host (stencil__uwin_cpu: the
 * kernel's walk and column function): every order, depth, compression,
 * odd sizes, J dividing the rows or not; bits equal to the reference. */
START_TEST(test_uwin) {
  static const int64_t sizes[3][3] = {{23, 19, 7}, {37, 30, 6}, {100, 90, 3}}; /* inner rows 15, 26, 86 */
  const int kind = _i % 2 ? STENCIL_HDIFF : STENCIL_LAPLAP, prec = (_i / 2) % 2;
  const int64_t *size = sizes[_i / 4];
  stencil_problem_t P;
  ck_tsr(stencil_problem_create(kind, prec, size, TSR_SOA, &P));
  stencil_problem_fill(&P, 29 + (uint64_t)_i, NULL);
  const size_t es = stencil_problem_esize(&P);
  const size_t bytes = (size_t)stencil_problem_elems(&P, 0) * es;
  const stencil_grid_t g = stencil_problem_grid(&P);
  void *ref = dup_bytes(P.in, bytes);
  stencil_fields_t fr = stencil_problem_fields(&P, P.in, P.coeff, ref, 0);
  ck_tsr(stencil_cpu_ref(kind, &g, &fr));
  static const int orders[3] = {STENCIL_ORDER_ROWMAJOR, STENCIL_ORDER_ZCURVE, STENCIL_ORDER_RANDOM};
  static const int jpts[5] = {1, 2, 4, 8, 16};
  int ran = 0;
  for (int o = 0; o < 3; o++)
    for (int depth = 1; depth <= 2; depth++)
      for (int comp = 0; comp <= 1; comp++) {
        stencil_ugrid_t U;
        int rc = stencil_ugrid_create(&P, orders[o], 4, 7, depth, comp, &U);
        if (rc == TSR_ERR_UNSUPPORTED) {
          tsr_error_clear();
          continue;
        }
        ck_tsr(rc);
        ck_assert_msg(U.col && U.ncol == g.hi[0] - g.lo[0] && U.nrow == g.hi[1] - g.lo[1],
                      "column order %lld x %lld", (long long)U.ncol, (long long)U.nrow);
        void *uin = calloc(1, (size_t)U.L.size * es), *ucst = calloc(1, (size_t)U.L.size * es);
        void *uout = calloc(1, (size_t)U.L.size * es), *back = malloc(bytes);
        ck_assert(uin && ucst && uout && back);
        stencil_ugrid_scatter(&U, &P.L, P.in, &U.L, uin, es);
        if (P.coeff) stencil_ugrid_scatter(&U, &P.L, P.coeff, &U.L, ucst, es);
        stencil_grid_t ug;
        ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &ug));
        for (int k = 0; k < 5; k++) {
          memcpy(uout, uin, (size_t)U.L.size * es);
          stencil_fields_t fu = stencil_problem_fields(&P, uin, ucst, uout, 0);
          ck_tsr(stencil__uwin_cpu(kind, &ug, &fu, jpts[k]));
          memcpy(back, P.in, bytes);
          stencil_ugrid_gather(&U, &U.L, uout, &P.L, back, es, U.np);
          ck_assert_msg(memcmp(back, ref, bytes) == 0,
                        "%s %s uwin jpt %d order %d depth %d comp %d: differs from the reference",
                        stencil_name(kind), prec ? "float" : "double", jpts[k], o, depth, comp);
          ran++;
          /* the compressed plan: chains of matching warp tiles through the prototype */
          int64_t nproto = -1;
          memcpy(uout, uin, (size_t)U.L.size * es);
          ck_tsr(stencil__uwinp_cpu(kind, &ug, &fu, jpts[k], &nproto));
          memcpy(back, P.in, bytes);
          stencil_ugrid_gather(&U, &U.L, uout, &P.L, back, es, U.np);
          ck_assert_msg(memcmp(back, ref, bytes) == 0,
                        "%s %s uwinp jpt %d order %d depth %d comp %d: differs from the reference",
                        stencil_name(kind), prec ? "float" : "double", jpts[k], o, depth, comp);
          /* 100x90 row-major: the 32-column warp tiles between the boundary columns
             match (a third of the chains), the others do not: both paths ran */
          if (size[0] == 100 && o == 0)
            ck_assert_msg(nproto > 0 && nproto < U.ncol * ((U.nrow + jpts[k] - 1) / jpts[k]),
                          "uwinp jpt %d: %lld chains through the prototype", jpts[k], (long long)nproto);
        }
        /* a grid of part of the slots has no column order: the variant refuses */
        stencil_grid_t part;
        ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown - 1, &part));
        ck_assert(part.col == NULL);
        stencil_fields_t fu = stencil_problem_fields(&P, uin, ucst, uout, 0);
        ck_tsr_fails(stencil__uwin_cpu(kind, &part, &fu, 4), TSR_ERR_UNSUPPORTED);
        stencil_cfg_t cfg;
        char note[256];
        ck_tsr_fails(stencil_cuda_cfg(kind, STENCIL_CU_JWIN, &part, (stencil_launch_t){32, 1, 1, 8, 8}, 8,
                                      &cfg, note, sizeof note),
                     TSR_ERR_UNSUPPORTED);
        /* chains: ncol x ceil(nrow / 8), 32-thread blocks, kpt 2 */
        ck_assert_int_eq(stencil_cuda_cfg(kind, STENCIL_CU_JWIN, &ug, (stencil_launch_t){32, 1, 1, 2, 8}, 8,
                                          &cfg, note, sizeof note), 0);
        const int64_t nch = ug.ncol * ((ug.nrow + 7) / 8);
        ck_assert(cfg.grid[0] == (unsigned)((nch + 31) / 32) && cfg.grid[2] == (unsigned)((ug.hi[2] - ug.lo[2] + 1) / 2));
        free(uin), free(ucst), free(uout), free(back);
        stencil_ugrid_destroy(&U);
      }
  ck_assert_int_ge(ran, 3 * 2 * 5);
  free(ref);
  stencil_problem_destroy(&P);
}
END_TEST

/* jwindow-proto's split (stencil_uproto_rect, _affine, _split): the
 * largest rectangle of matching chains, the others as a list; the affine
 * row-0 slots; no rectangle when they are not. */
START_TEST(test_proto_rect) {
  uint8_t m[3 * 70];
  memset(m, 1, sizeof m);
  m[0] = m[1] = 0;    /* strip 0, columns 0 and 1 */
  m[70] = 0;          /* strip 1, column 0 */
  m[2 * 70 + 69] = 0; /* strip 2, column 69 */
  int32_t list[3 * 70];
  int64_t r[4], nl = -1;
  /* columns 2 .. 68 x 3 strips (201 chains) beats 68 x 2 */
  ck_tsr(stencil_uproto_rect(m, 70, 3, r, list, &nl));
  ck_assert(r[0] == 2 && r[1] == 69 && r[2] == 0 && r[3] == 3);
  static const int32_t el[9] = {0, 1, 69, 70, 71, 139, 140, 141, 209};
  ck_assert_int_eq(nl, 9);
  for (int i = 0; i < 9; i++) ck_assert_int_eq(list[i], el[i]);
  /* nothing matches: an empty rectangle, every chain listed */
  memset(m, 0, sizeof m);
  ck_tsr(stencil_uproto_rect(m, 70, 3, r, list, &nl));
  ck_assert(r[0] == r[1] && nl == 3 * 70 && list[3 * 70 - 1] == 3 * 70 - 1);
  /* row-0 slots of 2-row strips: 1000 + 3 c + 500 s is affine; one off is not */
  int32_t col[6 * 70];
  for (int row = 0; row < 6; row++)
    for (int c = 0; c < 70; c++) col[row * 70 + c] = 1000 + 3 * c + 250 * row;
  const int64_t rr[4] = {2, 69, 0, 3};
  int64_t aff[3];
  ck_assert_int_eq(stencil_uproto_affine(col, 70, 2, rr, aff), 1);
  ck_assert(aff[0] == 1000 && aff[1] == 3 && aff[2] == 500);
  col[4 * 70 + 68] += 1; /* strip 2, column 68 */
  ck_assert_int_eq(stencil_uproto_affine(col, 70, 2, rr, aff), 0);
  col[4 * 70 + 68] -= 1, col[4 * 70 + 69] += 1; /* column 69: outside */
  ck_assert_int_eq(stencil_uproto_affine(col, 70, 2, rr, aff), 1);
  const int64_t re[4] = {5, 5, 0, 3};
  ck_assert_int_eq(stencil_uproto_affine(col, 70, 2, re, aff), 0);
  /* the split: the rectangle when affine, else none and every chain listed */
  memset(m, 1, sizeof m);
  m[0] = 0;
  col[4 * 70 + 69] -= 1; /* all affine again */
  ck_tsr(stencil_uproto_split(m, col, 70, 3, 2, r, aff, list, &nl));
  ck_assert(r[3] - r[2] == 3 && r[1] - r[0] == 69 && nl == 3 && aff[1] == 3 && aff[2] == 500);
  col[2 * 70 + 5] += 1; /* strip 1, column 5: inside */
  ck_tsr(stencil_uproto_split(m, col, 70, 3, 2, r, aff, list, &nl));
  ck_assert(r[0] == r[1] && nl == 3 * 70 && list[0] == 0 && list[3 * 70 - 1] == 3 * 70 - 1);
}
END_TEST

START_TEST(test_plan) {
  stencil_problem_t P;
  const int64_t size[3] = {37, 29, 8};
  ck_tsr(stencil_problem_create(STENCIL_HDIFF, STENCIL_DOUBLE, size, TSR_SOA, &P));
  const stencil_grid_t g = stencil_problem_grid(&P); /* 33 x 25 x 8 updated */
  stencil_cfg_t cfg;
  char note[256];
  /* jwindow 32x2x1, 8 rows: 4 strips (the last of 1 row) -> 2x2x8 blocks */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_HDIFF, STENCIL_CU_JWIN, &g,
                                    (stencil_launch_t){32, 2, 1, 8, 8}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.grid[0] == 2 && cfg.grid[1] == 2 && cfg.grid[2] == 8 && cfg.jpt == 8 && cfg.smem == 0);
  /* jpt 0 is the default 8; 4 rows: 7 strips -> 2x4x2 blocks of 32x2x4 */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN_SHFL, &g,
                                    (stencil_launch_t){32, 1, 1, 8, 0}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.jpt == STENCIL_JPT_DEFAULT && cfg.grid[1] == 4);
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN, &g,
                                    (stencil_launch_t){32, 2, 4, 8, 4}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.grid[0] == 2 && cfg.grid[1] == 4 && cfg.grid[2] == 2 && cfg.jpt == 4);
  /* more strips than there are: the block cut to the 4 strips, said in the note */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN, &g,
                                    (stencil_launch_t){16, 8, 1, 8, 8}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.block[0] == 16 && cfg.block[1] == 4 && cfg.block[2] == 1 && cfg.grid[0] == 3 &&
            cfg.grid[1] == 1 && cfg.grid[2] == 8);
  ck_assert_msg(strstr(note, "block 16x8x1 ran as 16x4x1") && strstr(note, "33 x 4 strips"), "%s", note);
  /* a block that fits: as asked, no note */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN, &g,
                                    (stencil_launch_t){32, 4, 8, 8, 8}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.block[0] == 32 && cfg.block[1] == 4 && cfg.block[2] == 8 && note[0] == 0);
  /* the shuffle window: x cut to whole warps over the 33 columns (the last one partial) */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN_SHFL, &g,
                                    (stencil_launch_t){128, 1, 8, 8, 8}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.block[0] == 64 && cfg.block[1] == 1 && cfg.block[2] == 8 && cfg.grid[0] == 1);
  /* shuffles need whole warps along x */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN_SHFL, &g,
                                    (stencil_launch_t){16, 2, 1, 8, 8}, 8, &cfg, note, sizeof note), 1);
  ck_assert_msg(strstr(note, "multiple of 32") != NULL, "%s", note);
  /* rows per thread: compiled 2, 4, 8, 16 */
  ck_tsr_fails(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_JWIN, &g, (stencil_launch_t){32, 1, 1, 8, 5},
                                8, &cfg, note, sizeof note),
               TSR_ERR_ARG);
  ck_tsr_fails(stencil_cuda_shape_valid(STENCIL_CU_JWIN_SHFL, (stencil_launch_t){32, 1, 1, 8, 32}),
               TSR_ERR_ARG);
  ck_tsr(stencil_cuda_shape_valid(STENCIL_CU_IDXVAR, (stencil_launch_t){32, 1, 1, 8, 5})); /* unused */
  /* stencils and grids */
  ck_tsr_fails(stencil_cuda_cfg(STENCIL_FASTWAVES, STENCIL_CU_JWIN, &g, (stencil_launch_t){32, 1, 1, 8, 8},
                                8, &cfg, note, sizeof note),
               TSR_ERR_UNSUPPORTED);
  ck_tsr_fails(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_PATCH, &g, (stencil_launch_t){32, 1, 1, 8, 8},
                                8, &cfg, note, sizeof note),
               TSR_ERR_UNSUPPORTED);
  /* patch-kloop on the z-curve grid: 825 slots, 128-slot blocks, kpt 3 */
  stencil_ugrid_t U;
  ck_tsr(stencil_ugrid_create(&P, STENCIL_ORDER_ZCURVE, 4, 1, 1, 0, &U));
  stencil_grid_t ug;
  ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &ug));
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_HDIFF, STENCIL_CU_PATCH, &ug,
                                    (stencil_launch_t){64, 2, 1, 3, 8}, 4, &cfg, note, sizeof note), 0);
  ck_assert(cfg.grid[0] == 7 && cfg.grid[1] == 1 && cfg.grid[2] == 3 && cfg.kpt == 3 && cfg.jpt == 0);
  ck_assert_uint_eq(cfg.smem, 4 * 128 * 4);
  /* block z > 1: run with block z 1 (a block's slots march up the levels) */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_HDIFF, STENCIL_CU_PATCH, &ug,
                                    (stencil_launch_t){64, 1, 2, 3, 8}, 4, &cfg, note, sizeof note), 0);
  ck_assert(cfg.block[0] == 64 && cfg.block[1] == 1 && cfg.block[2] == 1 && cfg.grid[0] == 13);
  ck_assert_msg(strstr(note, "ran as 64x1x1") && strstr(note, "z 1"), "%s", note);
  /* more slots per block than the 825: cut to them */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_HDIFF, STENCIL_CU_PATCH, &ug,
                                    (stencil_launch_t){1024, 1, 1, 3, 8}, 4, &cfg, note, sizeof note), 0);
  ck_assert(cfg.block[0] == 825 && cfg.block[1] == 1 && cfg.grid[0] == 1 && cfg.smem == 4 * 825 * 4);
  ck_tsr_fails(stencil_cuda_cfg(STENCIL_HDIFF, STENCIL_CU_JWIN_SHFL, &ug, (stencil_launch_t){32, 1, 1, 8, 8},
                                8, &cfg, note, sizeof note),
               TSR_ERR_UNSUPPORTED);
  /* jwindow-plan and jwindow-proto: unstructured laplap/hdiff only; chains as jwindow's (33 columns x 7 strips of 4
     rows = 231 chains), blocks of bx columns and by strips: 32x2 -> 2 x 4 blocks; slices of kpt 2
     levels (4 blocks in z); block z must be 1 */
  for (int pv = 0; pv < 2; pv++) {
    const int sp = pv ? STENCIL_CU_JWIN_PROTO : STENCIL_CU_JWIN_PLAN;
    ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, sp, &ug,
                                      (stencil_launch_t){32, 2, 1, 2, 4}, 8, &cfg, note, sizeof note), 0);
    ck_assert(cfg.grid[0] == 2 && cfg.grid[1] == 4 && cfg.grid[2] == 4 && cfg.kpt == 2 && cfg.jpt == 4 &&
              cfg.smem == 0);
    /* block z 1 and the 33 columns: 128x1x2 runs as 33x1x1 */
    ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, sp, &ug,
                                      (stencil_launch_t){128, 1, 2, 2, 4}, 8, &cfg, note, sizeof note), 0);
    ck_assert(cfg.block[0] == 33 && cfg.block[1] == 1 && cfg.block[2] == 1 && cfg.grid[0] == 1 &&
              cfg.grid[1] == 7 && cfg.grid[2] == 4);
    ck_assert_msg(strstr(note, "z 1") && strstr(note, "33 columns x 7 strips"), "%s", note);
    ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, sp, &ug,
                                      (stencil_launch_t){16, 16, 1, 2, 4}, 8, &cfg, note, sizeof note), 0);
    ck_assert(cfg.block[0] == 16 && cfg.block[1] == 7 && cfg.grid[0] == 3 && cfg.grid[1] == 1);
    ck_tsr_fails(stencil_cuda_cfg(STENCIL_FASTWAVES, sp, &ug,
                                  (stencil_launch_t){32, 1, 1, 8, 8}, 8, &cfg, note, sizeof note),
                 TSR_ERR_UNSUPPORTED);
    ck_tsr_fails(stencil_cuda_cfg(STENCIL_LAPLAP, sp, &g, (stencil_launch_t){32, 1, 1, 8, 8},
                                  8, &cfg, note, sizeof note),
                 TSR_ERR_UNSUPPORTED);
  }
  stencil_ugrid_destroy(&U);
  stencil_problem_destroy(&P);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("stencil_win");
  TCase *t = tcase_create("cpu");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_jwindow, 0, 16);
  tcase_add_loop_test(t, test_patch, 0, 8);
  tcase_add_loop_test(t, test_uwin, 0, 12);
  tcase_add_test(t, test_plan);
  tcase_add_test(t, test_proto_rect);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return tsr_test_run(make()); }
