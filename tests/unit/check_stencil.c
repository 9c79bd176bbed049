/* tests/unit/check_stencil.c: the stencil kernels on the CPU.
 * - the reference (the original's multi-pass formulation) against brute
 *   force from the definitions (laplap, hdiff; double, |err| <= 1e-12 *
 *   scale) on odd sizes;
 * - every CPU variant against the reference: regular fused; unstructured in
 *   row-major, z-curve and random order, depth 2 (no-chase) and depth 1
 *   (chase), tables compressed and not, naive / idxvar / kloop; fastwaves in
 *   SoA, AoS and AoSoA; double and float; sizes 13x11x5 and 37x29x3
 *   (fastwaves needs Z >= 6: 13x11x7, 37x29x8). The arithmetic is the same
 *   bits by construction, so the whole output array (updated region AND the
 *   untouched halo) must equal the reference's byte for byte;
 * - the subset neighbour tables (tsr_neigh_create_subset) against brute force;
 * - domains too small for the halo are refused with the halo in the message. */
#include "config.h"
#include <check.h>
#include <math.h>
#include "tsr_check.h"
#include "kernels/stencil/stencil_problem.h"

static double get(const stencil_problem_t *P, const void *a, int64_t x, int64_t y, int64_t z) {
  int64_t e = tsr_layout_rm_cell(&P->L, x, y, z);
  return P->prec == STENCIL_FLOAT ? ((const float *)a)[e] : ((const double *)a)[e];
}

static double bf_lap(const stencil_problem_t *P, int64_t x, int64_t y, int64_t z) {
  const void *a = P->in;
  return 4 * get(P, a, x, y, z) - get(P, a, x - 1, y, z) - get(P, a, x + 1, y, z) -
         get(P, a, x, y - 1, z) - get(P, a, x, y + 1, z);
}

/* Brute force from the definitions in docs/STENCIL.md. */
static double bf_point(const stencil_problem_t *P, int64_t x, int64_t y, int64_t z) {
  if (P->kind == STENCIL_LAPLAP)
    return 4 * bf_lap(P, x, y, z) - bf_lap(P, x - 1, y, z) - bf_lap(P, x + 1, y, z) -
           bf_lap(P, x, y - 1, z) - bf_lap(P, x, y + 1, z);
  double fl[2][2]; /* [x or y][at i-1, at i] */
  for (int d = 0; d < 2; d++)
    for (int s = 0; s < 2; s++) {
      int64_t xi = x - (d == 0 && s == 0), yi = y - (d == 1 && s == 0);
      int64_t xn = xi + (d == 0), yn = yi + (d == 1);
      double f = bf_lap(P, xn, yn, z) - bf_lap(P, xi, yi, z);
      if (f * (get(P, P->in, xn, yn, z) - get(P, P->in, xi, yi, z)) > 0) f = 0;
      fl[d][s] = f;
    }
  return get(P, P->in, x, y, z) -
         get(P, P->coeff, x, y, z) * (fl[0][1] - fl[0][0] + fl[1][1] - fl[1][0]);
}

static void *dupbuf(const void *a, size_t bytes) {
  void *b = malloc(bytes);
  ck_assert(b);
  memcpy(b, a, bytes);
  return b;
}

/* One (stencil, precision, size, placement): the reference, brute force,
 * and every CPU variant. */
static void run_case(int kind, int prec, int64_t X, int64_t Y, int64_t Z, int placement) {
  stencil_problem_t P;
  const int64_t size[3] = {X, Y, Z};
  ck_tsr(stencil_problem_create(kind, prec, size, placement, &P));
  stencil_problem_fill(&P, 42 + (uint64_t)kind, NULL);
  const size_t es = stencil_problem_esize(&P);
  const int fw = kind == STENCIL_FASTWAVES;
  const void *in = fw ? P.uv : P.in, *cst = fw ? P.cst : P.coeff;
  const size_t bytes = (size_t)stencil_problem_elems(&P, 0) * es;
  const tsr_layout_t *Lio = fw ? &P.Luv : &P.L, *Lcst = fw ? &P.Lc : &P.L;
  stencil_grid_t g = stencil_problem_grid(&P);

  void *ref = dupbuf(in, bytes);
  stencil_fields_t fr = stencil_problem_fields(&P, in, cst, ref, 0);
  ck_tsr(stencil_cpu_ref(kind, &g, &fr));

  if (!fw && prec == STENCIL_DOUBLE) {
    double worst = 0, scale = 1;
    for (int64_t z = g.lo[2]; z < g.hi[2]; z++)
      for (int64_t y = g.lo[1]; y < g.hi[1]; y++)
        for (int64_t x = g.lo[0]; x < g.hi[0]; x++) {
          double r = get(&P, ref, x, y, z), b = bf_point(&P, x, y, z);
          worst = fmax(worst, fabs(r - b));
          scale = fmax(scale, fabs(b));
        }
    ck_assert_msg(worst <= 1e-12 * scale, "%s %lldx%lldx%lld: reference vs brute force %.3e",
                  stencil_name(kind), (long long)X, (long long)Y, (long long)Z, worst);
  }

  /* regular fused */
  void *out = dupbuf(in, bytes);
  stencil_fields_t f = stencil_problem_fields(&P, in, cst, out, 0);
  ck_tsr(stencil_cpu_run(kind, STENCIL_CPU_REGULAR, &g, &f));
  if (memcmp(out, ref, bytes) != 0) {
    double e, m;
    stencil_compare(&g, Lio, prec, out, ref, &e, &m);
    ck_abort_msg("%s %s regular: differs from the reference (max err %.3e of %.3e)",
                 stencil_name(kind), prec ? "float" : "double", e, m);
  }

  /* unstructured: every order x depth x compression x strategy */
  static const int orders[3] = {STENCIL_ORDER_ROWMAJOR, STENCIL_ORDER_ZCURVE, STENCIL_ORDER_RANDOM};
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
        const tsr_layout_t *Uio = fw ? &U.Luv : &U.L, *Ucst = fw ? &U.Lc : &U.L;
        const size_t ub = (size_t)Uio->size * es;
        void *uin = calloc(1, ub), *ucst = cst ? calloc(1, (size_t)Ucst->size * es) : NULL;
        void *uout = calloc(1, ub), *back = malloc(bytes);
        ck_assert(uin && uout && back && (!cst || ucst));
        stencil_ugrid_scatter(&U, Lio, in, Uio, uin, es);
        if (cst) stencil_ugrid_scatter(&U, Lcst, cst, Ucst, ucst, es);
        stencil_grid_t ug;
        ck_tsr(stencil_ugrid_grid(&U, &P, 0, 0, U.nown, &ug));
        for (int st = STENCIL_CPU_NAIVE; st <= STENCIL_CPU_KLOOP; st++) {
          memcpy(uout, uin, ub);
          stencil_fields_t fu = stencil_problem_fields(&P, uin, ucst, uout, 0);
          if (fw) fu.Lc = U.Lc, fu.Luv = U.Luv;
          ck_tsr(stencil_cpu_run(kind, st, &ug, &fu));
          memset(back, 0xff, bytes);
          memcpy(back, in, bytes);
          stencil_ugrid_gather(&U, Uio, uout, Lio, back, es, U.np);
          if (memcmp(back, ref, bytes) != 0) {
            double e, m;
            stencil_compare(&g, Lio, prec, back, ref, &e, &m);
            ck_abort_msg("%s %s %lldx%lldx%lld unstr order %d depth %d comp %d strategy %d: "
                         "differs from the reference (max err %.3e of %.3e)",
                         stencil_name(kind), prec ? "float" : "double", (long long)X,
                         (long long)Y, (long long)Z, o, depth, comp, st, e, m);
          }
          ran++;
        }
        free(uin), free(ucst), free(uout), free(back);
        stencil_ugrid_destroy(&U);
      }
  ck_assert_int_ge(ran, 3 * 2 * 3); /* at least the uncompressed ones */
  free(ref);
  free(out);
  stencil_problem_destroy(&P);
}

static const int64_t sizes13[2][3] = {{13, 11, 5}, {37, 29, 3}};
static const int64_t sizes3[2][3] = {{13, 11, 7}, {37, 29, 8}};

START_TEST(test_laplap_hdiff) {
  const int kind = _i / 4, prec = (_i / 2) % 2, sz = _i % 2;
  run_case(kind, prec, sizes13[sz][0], sizes13[sz][1], sizes13[sz][2], TSR_SOA);
}
END_TEST

START_TEST(test_fastwaves) {
  const int placement = _i / 4, prec = (_i / 2) % 2, sz = _i % 2;
  run_case(STENCIL_FASTWAVES, prec, sizes3[sz][0], sizes3[sz][1], sizes3[sz][2], placement);
}
END_TEST

START_TEST(test_subset_tables) {
  /* an L-shaped subset of a 9x7 plane in a scrambled slot order */
  const int64_t nx = 9, ny = 7;
  int64_t cells[63], n = 0;
  for (int64_t k = 0; k < nx * ny; k++) {
    int64_t c = (k * 17) % (nx * ny), x = c % nx, y = c / nx;
    if (x < 5 || y < 3) cells[n++] = c;
  }
  tsr_neigh_t *nb = NULL;
  ck_tsr(tsr_neigh_create_subset(nx, ny, 4, n, cells, 2, TSR_NEIGH_ZREGULAR, &nb));
  tsr_neigh_view_t v;
  ck_tsr(tsr_neigh_view(nb, TSR_NEIGH_HOST, &v));
  ck_assert_int_eq(v.n, n);
  int bad = 0;
  for (int64_t s = 0; s < n; s++)
    for (int r = 0; r < v.m; r++) {
      int64_t x2 = cells[s] % nx + tsr_neigh_rel_dx(r), y2 = cells[s] / nx + tsr_neigh_rel_dy(r);
      int64_t want = -1;
      for (int64_t t = 0; t < n; t++)
        if (x2 >= 0 && x2 < nx && y2 >= 0 && y2 < ny && cells[t] == x2 + nx * y2) want = t;
      int32_t off = v.tab[r * v.n + s];
      if (want < 0 ? off != 0 : off != want - s) bad++;
    }
  ck_assert_int_eq(bad, 0);
  tsr_neigh_destroy(&nb);
  int64_t twice[2] = {3, 3};
  ck_tsr_fails(tsr_neigh_create_subset(nx, ny, 1, 2, twice, 1, TSR_NEIGH_ZREGULAR, &nb),
               TSR_ERR_ARG);
}
END_TEST

START_TEST(test_too_small) {
  stencil_problem_t P;
  const int64_t s1[3] = {4, 20, 5}, s2[3] = {20, 20, 5};
  int rc = stencil_problem_create(STENCIL_LAPLAP, STENCIL_DOUBLE, s1, TSR_SOA, &P);
  ck_assert_int_eq(rc, TSR_ERR_ARG);
  ck_assert_msg(strstr(tsr_error_message(), "halo 2,2,0") != NULL, "%s", tsr_error_message());
  tsr_error_clear();
  ck_tsr_fails(stencil_problem_create(STENCIL_FASTWAVES, STENCIL_DOUBLE, s2, TSR_SOA, &P),
               TSR_ERR_ARG);
  ck_tsr_fails(stencil_problem_create(STENCIL_LAPLAP, STENCIL_DOUBLE, s2, TSR_AOS, &P),
               TSR_ERR_ARG);
}
END_TEST

/* Host-side launch planning (no GPU needed): the shared-tile shapes and
 * their shared memory, and stencil_cuda_fits against kernel attributes such
 * as the H100 reported (a z-loop kernel of 128 registers runs at most 512
 * threads: 128x1x8 must be a skip with a note naming the registers). */
START_TEST(test_launch_plan) {
  stencil_problem_t P;
  const int64_t size[3] = {37, 29, 8};
  ck_tsr(stencil_problem_create(STENCIL_LAPLAP, STENCIL_DOUBLE, size, TSR_SOA, &P));
  const stencil_grid_t g = stencil_problem_grid(&P); /* 33 x 25 x 8 updated */
  stencil_cfg_t cfg;
  char note[256];
  /* tile-kloop 32x8x1, kpt 3: 2x1x3 blocks, smem 2*36*12 + 34*10 doubles */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_TILE_KLOOP, &g,
                                    (stencil_launch_t){32, 8, 1, 3, 0}, 8, &cfg, note, sizeof note), 0);
  ck_assert(cfg.grid[0] == 2 && cfg.grid[1] == 4 && cfg.grid[2] == 3 && cfg.kpt == 3);
  ck_assert_uint_eq(cfg.smem, (2 * 36 * 12 + 34 * 10) * 8);
  /* shared (TILE): one level per thread layer */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_HDIFF, STENCIL_CU_TILE, &g,
                                    (stencil_launch_t){16, 2, 4, 8, 0}, 4, &cfg, note, sizeof note), 0);
  ck_assert(cfg.kpt == 1 && cfg.grid[2] == 2 && cfg.smem == (2 * 20 * 6 + 18 * 4) * 4 * 4);
  /* a 4x1 tile needs 8x5 loads for 4 threads: more than 8 each -> skip */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_TILE, &g,
                                    (stencil_launch_t){4, 1, 1, 8, 0}, 8, &cfg, note, sizeof note), 1);
  ck_assert_msg(strstr(note, "loads per thread") != NULL, "%s", note);
  /* tiles are for laplap/hdiff on regular grids */
  ck_tsr_fails(stencil_cuda_cfg(STENCIL_FASTWAVES, STENCIL_CU_TILE_KLOOP, &g,
                                (stencil_launch_t){32, 1, 1, 8, 0}, 8, &cfg, note, sizeof note),
               TSR_ERR_UNSUPPORTED);
  /* registers: 128x1x8 = 1024 threads on a kernel that runs 512 */
  ck_assert_int_eq(stencil_cuda_cfg(STENCIL_LAPLAP, STENCIL_CU_IDXVAR_KLOOP_SLICED, &g,
                                    (stencil_launch_t){32, 4, 8, 1, 0}, 8, &cfg, note, sizeof note), 0);
  stencil_kattr_t a = {512, 128, 0, 48 * 1024};
  ck_assert_int_eq(stencil_cuda_fits(&cfg, &a, "idxvar-kloop-sliced", note, sizeof note), 1);
  ck_assert_msg(strstr(note, "128 registers") && strstr(note, "at most 512 threads"), "%s", note);
  a.max_threads = 1024;
  ck_assert_int_eq(stencil_cuda_fits(&cfg, &a, "idxvar-kloop-sliced", note, sizeof note), 0);
  /* shared memory above the device's limit */
  cfg.smem = 100000;
  ck_assert_int_eq(stencil_cuda_fits(&cfg, &a, "shared", note, sizeof note), 1);
  ck_assert_msg(strstr(note, "shared memory") != NULL, "%s", note);
  a.smem_max = 227 * 1024;
  ck_assert_int_eq(stencil_cuda_fits(&cfg, &a, "shared", note, sizeof note), 0);
  stencil_problem_destroy(&P);
}
END_TEST

static Suite *make(void) {
  Suite *s = suite_create("stencil");
  TCase *t = tcase_create("cpu");
  tcase_set_timeout(t, 120);
  tcase_add_loop_test(t, test_laplap_hdiff, 0, 8);
  tcase_add_loop_test(t, test_fastwaves, 0, 12);
  tcase_add_test(t, test_subset_tables);
  tcase_add_test(t, test_too_small);
  tcase_add_test(t, test_launch_plan);
  suite_add_tcase(s, t);
  return s;
}

int main(void) { return tsr_test_run(make()); }
