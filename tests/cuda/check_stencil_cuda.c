/* tests/cuda/check_stencil_cuda.c: every CUDA variant of tsr-stencil against
 * the CPU reference on random data (skips without a GPU). laplap, hdiff
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
 * the reference's bits. Every variant must have run at least once. */
#include "config.h"
#include <check.h>
#include "tsr_check.h"
#include "apps/stencil/stencil_app.h"

#define NSHAPES 6
static const stencil_launch_t shapes[NSHAPES] = {{32, 1, 4, 3}, {64, 2, 1, 3}, {32, 1, 1, 3},
                                                 {8, 1, 4, 3},  {16, 2, 1, 3}, {32, 16, 2, 1}};

static void sweep(int kind, int prec, int placement, const int64_t size[3]) {
  stencil_state_t S;
  ck_tsr(stencil_state_init(&S, MPI_COMM_SELF, kind, prec, placement, size, 11, NULL, 0));
  ck_tsr(stencil_state_reference(&S, 2));
  for (int id = 0; id < STENCIL_NVARIANTS; id++) {
    if (stencil_variants[id].device != TSR_DEV_CUDA) continue;
    if ((id == STENCIL_V_CUDA_REG_TILE || id == STENCIL_V_CUDA_REG_TILE_KLOOP) &&
        kind == STENCIL_FASTWAVES)
      continue;
    const int big_must_run = size[0] % 2 && (id == STENCIL_V_CUDA_REG_SLICED || id == STENCIL_V_CUDA_UN_SLICED ||
                                             id == STENCIL_V_CUDA_REG_TILE || id == STENCIL_V_CUDA_REG_TILE_KLOOP);
    const int unstr = stencil_variant_grid(id) == STENCIL_GRID_UNSTR;
    int ran = 0;
    for (int u = 0; u < (unstr ? 12 : 1); u++)
      for (int t = 0; t < NSHAPES; t++) {
        stencil_run_t r;
        double times[1];
        memset(&r, 0, sizeof r);
        r.id = id;
        r.u.order = u % 3, r.u.zw = 2, r.u.comp = (u / 3) % 2;
        r.u.depth = kind == STENCIL_FASTWAVES ? 1 : 1 + (u / 6) % 2;
        r.shape = shapes[t];
        r.iterations = 2, r.runs = 1, r.warmup = 0, r.verify = 1, r.times = times;
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
  suite_add_tcase(s, t);
  SRunner *sr = srunner_create(s);
  srunner_set_fork_status(sr, CK_NOFORK);
  srunner_run_all(sr, CK_ENV);
  int nf = srunner_ntests_failed(sr);
  srunner_free(sr);
  MPI_Finalize();
  return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
