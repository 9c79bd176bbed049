/* tests/cuda/check_stencil_cuda.c: every CUDA variant of tsr-stencil against
 * the CPU reference on random data (skips without a GPU). test_variants: laplap, hdiff
 * and fastwaves (SoA, AoS, AoSoA), double and float, an odd (37x29x8) and an
 * even (32x24x8) domain; unstructured grids in row-major, z-curve and random
 * order, compressed or not, chasing or not; thread shapes 32x1x4, 64x2x1,
 * 32x1x1, 8x1x4 (warp broadcast with 8 columns sharing), 16x2x1 (fits every
 * variant on both sizes, block z 1 for the z-loops) and 32x16x2 (1024
 * threads, kpt 1: more than the unbounded z-loop kernels' registers allow, so the
 * launch-bounded z-loop must take it; the others kpt 3, sliced and tile-kloop
 * the last slice is partial). Every variant must run for at least one shape;
 * the 1024-thread shape must run (not be skipped) for the sliced and tile
 * variants on the odd size; any skip must be a note, never an error.
 * 2 iterations (ping-pong). Tolerance |err| <= tol * max(1, max|ref|)
 * (double 1e-12, float 1e-5), though the kernels' unfused arithmetic gives
 * the reference's bits. Every variant must have run at least once.
 * test_window (sweep_window below): the load-lean variants, error exactly 0.
 * test_default_odd: every CUDA variant with the default options on odd
 * sizes, error exactly 0 (below). */
#include "config.h"
#include <check.h>
#include "tsr_check.h"
#include "apps/stencil/stencil_app.h"

#define NSHAPES 6
static const stencil_launch_t shapes[NSHAPES] = {{32, 1, 4, 3, 0}, {64, 2, 1, 3, 0}, {32, 1, 1, 3, 0},
                                                 {8, 1, 4, 3, 0},  {16, 2, 1, 3, 0}, {32, 16, 2, 1, 0}};

static void sweep(int kind, int prec, int placement, const int64_t size[3]) {
  stencil_state_t S;
  ck_tsr(stencil_state_init(&S, MPI_COMM_SELF, kind, prec, placement, size, 11, NULL, 0));
  ck_tsr(stencil_state_reference(&S, 2));
  for (int id = 0; id < STENCIL_NVARIANTS; id++) {
    if (stencil_variants[id].device != TSR_DEV_CUDA) continue;
    if ((id == STENCIL_V_CUDA_REG_TILE || id == STENCIL_V_CUDA_REG_TILE_KLOOP ||
         id == STENCIL_V_CUDA_UN_PATCH || id == STENCIL_V_CUDA_UN_JWIN ||
         id == STENCIL_V_CUDA_UN_JWIN_PLAN || id == STENCIL_V_CUDA_UN_JWIN_PROTO ||
         id == STENCIL_V_CUDA_REG_TBLOCK || id == STENCIL_V_CUDA_UN_TBLOCK) &&
        kind == STENCIL_FASTWAVES)
      continue;
    if (id == STENCIL_V_CUDA_REG_JWIN || id == STENCIL_V_CUDA_REG_JWIN_SHFL)
      continue; /* test_window: every --jpt, sizes the warp shapes fit */
    const int big_must_run = size[0] % 2 && (id == STENCIL_V_CUDA_REG_SLICED || id == STENCIL_V_CUDA_UN_SLICED ||
                                             id == STENCIL_V_CUDA_REG_TILE || id == STENCIL_V_CUDA_REG_TILE_KLOOP);
    const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
    int ran = 0;
    for (int u = 0; u < (unstr ? 12 : 1); u++)
      for (int t = 0; t < NSHAPES; t++) {
        stencil_run_t r;
        memset(&r, 0, sizeof r);
        r.id = id;
        r.u.order = u % 3, r.u.zw = 2, r.u.comp = (u / 3) % 2;
        r.u.depth = kind == STENCIL_FASTWAVES ? 1 : 1 + (u / 6) % 2;
        r.shape = shapes[t];
        r.iterations = 2, r.runs = 1, r.warmup = 0, r.verify = 1, r.quiet = 1;
        ck_tsr(stencil_run_variant(&S, &r));
        if (r.skipped && big_must_run && t == NSHAPES - 1)
          ck_abort_msg("%s: %s skipped the 1024-thread block: %s", stencil_name(kind),
                       stencil_variants[id].name, r.note);
        if (!r.skipped) {
          ran++;
          ck_assert_msg(r.verdict == TSR_VERIFY_PASS,
                        "%s %s %lldx%lldx%lld %s order %d comp %d depth %d block %dx%dx%d: %s",
                        stencil_name(kind), prec ? "float" : "double", (long long)size[0],
                        (long long)size[1], (long long)size[2], stencil_variants[id].name,
                        r.u.order, r.u.comp, r.u.depth, r.shape.bx, r.shape.by, r.shape.bz, r.note);
        }
        free(r.result);
      }
    ck_assert_msg(ran > 0, "%s: %s never ran", stencil_name(kind), stencil_variants[id].name);
  }
  stencil_state_free(&S);
}

static const int64_t sizes[2][3] = {{37, 29, 8}, {32, 24, 8}};

/* The load-lean variants (jwindow, jwindow-shfl with every compiled --jpt;
 * patch-kloop with kpt 1, 3 and all levels; the unstructured jwindow and
 * jwindow-plan and jwindow-proto with every --jpt and kpt 1 and 3; the unstructured ones on
 * every order, compression and chasing) on laplap or hdiff in one
 * precision, sizes 13x11x5, 37x29x3, 64x64x8 and 70x45x6 (updated rows 7,
 * 25, 60, 41: partial top strips for every jpt; 70: a last warp with 2 of
 * 32 lanes inside), shapes 32x1x1, 32x2x2, 64x1x1, 8x1x4, 32x4x1 and for
 * patch-kloop 32x1x1, 64x2x1, 256x1x1, 16x2x1. Random inputs, 2
 * iterations; the error must be exactly 0 (the reference's bits). Each
 * variant must run at least once per jpt (kpt); jwindow-shfl must run with
 * the partial warp (64x1x1 at 70x45x6); jwindow-proto must run both its
 * paths (the prototype's rectangle and the listed chains through the plan)
 * in some launch (stencil_cuda_uplan_split). */
#define NWIN 6
static void sweep_window(int kind, int prec) {
  static const int64_t wsizes[4][3] = {{13, 11, 5}, {37, 29, 3}, {64, 64, 8}, {70, 45, 6}};
  static const stencil_launch_t wshapes[5] = {{32, 1, 1, 1, 0}, {32, 2, 2, 1, 0}, {64, 1, 1, 1, 0},
                                              {8, 1, 4, 1, 0}, {32, 4, 1, 1, 0}};
  static const stencil_launch_t pshapes[4] = {{32, 1, 1, 1, 0}, {64, 2, 1, 1, 0}, {256, 1, 1, 1, 0},
                                              {16, 2, 1, 1, 0}};
  static const int ids[NWIN] = {STENCIL_V_CUDA_REG_JWIN, STENCIL_V_CUDA_REG_JWIN_SHFL, STENCIL_V_CUDA_UN_PATCH,
                                STENCIL_V_CUDA_UN_JWIN, STENCIL_V_CUDA_UN_JWIN_PLAN,
                                STENCIL_V_CUDA_UN_JWIN_PROTO};
  static const int jpts[4] = {2, 4, 8, 16}, kpts[3] = {1, 3, 64};
  int ran[NWIN][4] = {{0}}, partial_warp = 0, proto_both = 0, proto_only = 0;
  for (int sz = 0; sz < 4; sz++) {
    stencil_state_t S;
    ck_tsr(stencil_state_init(&S, MPI_COMM_SELF, kind, prec, TSR_SOA, wsizes[sz], 3 + sz, NULL, 0));
    ck_tsr(stencil_state_reference(&S, 2));
    for (int v = 0; v < NWIN; v++) {
      const int patch = ids[v] == STENCIL_V_CUDA_UN_PATCH;
      const int unstr = stencil_variant_grid(ids[v]) == STENCIL_GRID_UNSTR;
      for (int u = 0; u < (unstr ? 12 : 1); u++)
        for (int q = 0; q < (patch ? 3 : 4); q++)
          for (int t = 0; t < (patch ? 4 : 5); t++) {
            stencil_run_t r;
                memset(&r, 0, sizeof r);
            r.id = ids[v];
            r.u.order = u % 3, r.u.zw = 2, r.u.comp = (u / 3) % 2, r.u.depth = 1 + (u / 6) % 2;
            r.shape = patch ? pshapes[t] : wshapes[t];
            if (patch) r.shape.kpt = kpts[q];
            else r.shape.jpt = jpts[q];
            if (unstr && !patch) r.shape.kpt = (t + u) % 2 ? 3 : 1;
            r.iterations = 2, r.runs = 1, r.warmup = 0, r.verify = 1, r.quiet = 1;
            ck_tsr(stencil_run_variant(&S, &r));
            if (!r.skipped) {
              ran[v][q]++;
              if (ids[v] == STENCIL_V_CUDA_REG_JWIN_SHFL && sz == 3 && t == 2) partial_warp++;
              if (ids[v] == STENCIL_V_CUDA_UN_JWIN_PROTO) {
                int64_t split[2];
                ck_tsr(stencil_cuda_uplan_split(kind, split));
                proto_both += split[0] > 0 && split[1] > 0;
                proto_only += split[0] > 0 && split[1] == 0;
              }
              ck_assert_msg(r.verdict == TSR_VERIFY_PASS && r.maxerr == 0,
                            "%s %s %lldx%lldx%lld %s jpt %d kpt %d order %d comp %d depth %d block "
                            "%dx%dx%d: max error %.3e (%s)",
                            stencil_name(kind), prec ? "float" : "double", (long long)wsizes[sz][0],
                            (long long)wsizes[sz][1], (long long)wsizes[sz][2],
                            stencil_variants[r.id].name, r.shape.jpt, r.shape.kpt, r.u.order,
                            r.u.comp, r.u.depth, r.shape.bx, r.shape.by, r.shape.bz, r.maxerr, r.note);
            }
            free(r.result);
          }
    }
    stencil_state_free(&S);
  }
  for (int v = 0; v < NWIN; v++)
    for (int q = 0; q < (v == 2 ? 3 : 4); q++)
      ck_assert_msg(ran[v][q] > 0, "%s: %s never ran with %s %d", stencil_name(kind),
                    stencil_variants[ids[v]].name, v == 2 ? "kpt" : "jpt", v == 2 ? kpts[q] : jpts[q]);
  ck_assert_msg(partial_warp > 0, "jwindow-shfl did not run 64x1x1 at 70x45x6");
  /* jwindow-proto: on row-major storage the 32-column warp tiles clear of
     the boundary columns match the plan's prototype (70x45x6: columns 32 ..
     63 of 66), so some launches ran both kernels; none ran the prototype
     kernel alone (every size has boundary tiles) */
  ck_assert_msg(proto_both > 0 && proto_only == 0,
                "jwindow-proto: %d launches through the prototype and the plan, %d through "
                "the prototype alone",
                proto_both, proto_only);
}

START_TEST(test_window) {
  sweep_window(_i / 2 ? STENCIL_HDIFF : STENCIL_LAPLAP, _i % 2);
}
END_TEST

/* Every CUDA variant with tsr-stencil's default options (--threads 128x1x8,
 * --kpt 8, --jpt 8: a block larger than the region runs cut to it) on the
 * odd sizes 37x29x9, 33x17x5 and 41x23x11 (fastwaves: 37x29x9 and
 * 41x23x11; 33x17x5 is too small for its z halo), double and float;
 * unstructured grids in row-major, z-curve and random order, compressed or
 * not, chasing or not (fastwaves: always chased); fastwaves in SoA, AoS
 * and AoSoA. 2 iterations. Every variant must run and give the reference's
 * bits (max error exactly 0) and a result (what -o writes); the only skip
 * allowed is a laplap/hdiff strategy on fastwaves, with the note saying so. */
static const int64_t odd_sizes[3][3] = {{37, 29, 9}, {33, 17, 5}, {41, 23, 11}};

static int st_only13(int id) {
  return id == STENCIL_V_CUDA_REG_TILE || id == STENCIL_V_CUDA_REG_TILE_KLOOP || id == STENCIL_V_CUDA_REG_JWIN ||
         id == STENCIL_V_CUDA_REG_JWIN_SHFL || id == STENCIL_V_CUDA_UN_PATCH || id == STENCIL_V_CUDA_UN_JWIN ||
         id == STENCIL_V_CUDA_UN_JWIN_PLAN || id == STENCIL_V_CUDA_UN_JWIN_PROTO || id == STENCIL_V_CUDA_REG_TBLOCK ||
         id == STENCIL_V_CUDA_UN_TBLOCK;
}

START_TEST(test_default_odd) {
  const int kind = _i / 6, prec = (_i / 3) % 2, sz = _i % 3;
  if (kind == STENCIL_FASTWAVES && sz == 1) return;
  const int64_t *size = odd_sizes[sz];
  int ran = 0, fw_skips = 0;
  for (int pl = TSR_SOA; pl <= (kind == STENCIL_FASTWAVES ? TSR_AOSOA : TSR_SOA); pl++) {
    stencil_state_t S;
    ck_tsr(stencil_state_init(&S, MPI_COMM_SELF, kind, prec, pl, size, 23 + (uint64_t)_i, NULL, 0));
    ck_tsr(stencil_state_reference(&S, 2));
    for (int id = 0; id < STENCIL_NVARIANTS; id++) {
      if (stencil_variants[id].device != TSR_DEV_CUDA) continue;
      const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
      for (int u = 0; u < (unstr ? (kind == STENCIL_FASTWAVES ? 6 : 12) : 1); u++) {
        stencil_run_t r;
        memset(&r, 0, sizeof r);
        r.id = id;
        r.u.order = u % 3, r.u.zw = 4, r.u.comp = (u / 3) % 2, r.u.depth = 1 + u / 6;
        r.shape = (stencil_launch_t){128, 1, 8, 8, 8};
        r.iterations = 2, r.runs = 1, r.warmup = 0, r.verify = 1;
        ck_tsr(stencil_run_variant(&S, &r));
        if (r.skipped) {
          ck_assert_msg(kind == STENCIL_FASTWAVES && st_only13(id) && strstr(r.note, "is for laplap and hdiff"),
                        "%s %s %lldx%lldx%lld placement %d %s order %d comp %d depth %d: skipped: %s",
                        stencil_name(kind), prec ? "float" : "double", (long long)size[0], (long long)size[1],
                        (long long)size[2], pl, stencil_variants[id].name, r.u.order, r.u.comp, r.u.depth,
                        r.note);
          fw_skips++;
          continue;
        }
        ck_assert_msg(r.verdict == TSR_VERIFY_PASS && r.maxerr == 0 && r.result,
                      "%s %s %lldx%lldx%lld placement %d %s order %d comp %d depth %d block %dx%dx%d: "
                      "max error %.3e (%s)",
                      stencil_name(kind), prec ? "float" : "double", (long long)size[0], (long long)size[1],
                      (long long)size[2], pl, stencil_variants[id].name, r.u.order, r.u.comp, r.u.depth,
                      r.shape.bx, r.shape.by, r.shape.bz, r.maxerr, r.note);
        free(r.result);
        ran++;
      }
    }
    stencil_state_free(&S);
  }
  /* laplap/hdiff: 11 regular + 12 unstructured x 12; fastwaves: (6 + 7 x 6) x 3 placements */
  ck_assert_int_eq(ran, kind == STENCIL_FASTWAVES ? 3 * (6 + 7 * 6) : 11 + 12 * 12);
  ck_assert_int_eq(fw_skips, kind == STENCIL_FASTWAVES ? 3 * (5 + 5 * 6) : 0);
}
END_TEST

START_TEST(test_variants) {
  const int kind = _i / 4, prec = (_i / 2) % 2, sz = _i % 2;
  if (kind == STENCIL_FASTWAVES)
    for (int p = TSR_SOA; p <= TSR_AOSOA; p++) sweep(kind, prec, p, sizes[sz]);
  else
    sweep(kind, prec, TSR_SOA, sizes[sz]);
}
END_TEST

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (!tsr_test_have_gpu()) {
    MPI_Finalize();
    return tsr_test_skip_all("no CUDA device");
  }
  Suite *s = suite_create("stencil_cuda");
  TCase *t = tcase_create("variants");
  tcase_set_timeout(t, 300);
  tcase_add_loop_test(t, test_variants, 0, 12);
  tcase_add_loop_test(t, test_window, 0, 4);
  tcase_add_loop_test(t, test_default_odd, 0, 18);
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
