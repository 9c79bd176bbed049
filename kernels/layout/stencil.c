/* kernels/layout/stencil.c: one sweep of the 7-point stencil
 * (kernels/layout/stencil.h), ONE source for three builds:
 *   -DSTENCIL_BUILD=runtime|cindex|cloops  -DSTENCIL_CC=gcc|clang
 *   -DSTENCIL_NX=.. -DSTENCIL_NY=.. -DSTENCIL_NZ=..  (the constant shape)
 * The three differ only in where the layout (offsets) and the loop bounds
 * come from; the loop nest and stencil_cell() are the same text. */
#include "config.h"

#include <stdio.h>

#include "kernels/layout/stencil.h"
#include "tessera/error.h"

#if !defined(STENCIL_BUILD) || !defined(STENCIL_CC)
#error "compile with -DSTENCIL_BUILD=runtime|cindex|cloops -DSTENCIL_CC=gcc|clang"
#endif
#ifndef STENCIL_NX
#define STENCIL_NX 32
#endif
#ifndef STENCIL_NY
#define STENCIL_NY 32
#endif
#ifndef STENCIL_NZ
#define STENCIL_NZ 1048576
#endif

#define runtime 0
#define cindex 1
#define cloops 2
#if STENCIL_BUILD == runtime
#define BUILD_ID 0
#elif STENCIL_BUILD == cindex
#define BUILD_ID 1
#elif STENCIL_BUILD == cloops
#define BUILD_ID 2
#else
#error "STENCIL_BUILD must be runtime, cindex or cloops"
#endif
#undef runtime
#undef cindex
#undef cloops

#define PASTE3(a, b, c, d) a##_##b##_##c##_##d
#define NAME(what, cc, build) PASTE3(stencil, what, cc, build)
#define SWEEP NAME(sweep, STENCIL_CC, STENCIL_BUILD)
#define INFO NAME(info, STENCIL_CC, STENCIL_BUILD)
#define SHAPE NAME(shape, STENCIL_CC, STENCIL_BUILD)

#if BUILD_ID != 0
/* The constant layout: extents and strides known to the compiler. */
static const tsr_layout_t CONST_LAYOUT = TSR_LAYOUT_DENSE_CONST(STENCIL_NX, STENCIL_NY, STENCIL_NZ);
#endif

#if BUILD_ID == 0
#define OFFSETS L          /* the caller's run-time layout */
#else
#define OFFSETS (&CONST_LAYOUT)
#endif
#if BUILD_ID == 2
#define BOUNDS (&CONST_LAYOUT) /* loop bounds: constants */
#else
#define BOUNDS L               /* loop bounds: run-time */
#endif

int SWEEP(const tsr_layout_t *L, const float *in, float *out) {
  TSR_CHECK(L && in && out && in != out, TSR_ERR_ARG, "stencil sweep: NULL or aliased arrays");
  TSR_CALL(tsr_layout_check(L));
  TSR_CHECK(L->kind == TSR_LAYOUT_ROWMAJOR && L->nf == 1 && L->align == 1 && L->halo[0] == 0 &&
                L->halo[1] == 0 && L->halo[2] == 0,
            TSR_ERR_ARG, "stencil sweep: needs a dense row-major layout without halo "
            "(tsr_layout_with_align(tsr_layout_rowmajor(..), 1))");
  TSR_CHECK(BUILD_ID == 0 || (L->d[0] == STENCIL_NX && L->d[1] == STENCIL_NY &&
                              L->d[2] == STENCIL_NZ),
            TSR_ERR_ARG, "stencil sweep: this build has constant extents %dx%dx%d, the grid is "
            "%lldx%lldx%lld (rebuild with STENCIL_SHAPE, or use the runtime build)",
            STENCIL_NX, STENCIL_NY, STENCIL_NZ, (long long)L->d[0], (long long)L->d[1],
            (long long)L->d[2]);
  const tsr_layout_t *B = BOUNDS;
  for (int64_t z = 1; z < B->d[2] - 1; z++)
    for (int64_t y = 1; y < B->d[1] - 1; y++)
      for (int64_t x = 1; x < B->d[0] - 1; x++) stencil_cell(OFFSETS, in, out, x, y, z);
  return TSR_SUCCESS;
}

const char *INFO(void) {
  static char buf[160];
#if defined(__clang__)
  const char *who = "clang";
#elif defined(__GNUC__)
  const char *who = "gcc";
#else
  const char *who = "cc";
#endif
  snprintf(buf, sizeof buf, "%s %s; constant shape %dx%dx%d", who, __VERSION__, STENCIL_NX,
           STENCIL_NY, STENCIL_NZ);
  return buf;
}

void SHAPE(int64_t d[3]) {
  d[0] = BUILD_ID ? STENCIL_NX : 0;
  d[1] = BUILD_ID ? STENCIL_NY : 0;
  d[2] = BUILD_ID ? STENCIL_NZ : 0;
}
