/* kernels/layout/matmul_cpu.c: the CPU loops of the layout-agnostic matmul
 * (kernels/layout/matmul.h), its checks, and the independent reference. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "kernels/layout/matmul.h"
#include "tessera/error.h"

static int matmul_kind_ok(int k) {
  for (int i = 0; i < MATMUL_NKINDS; i++)
    if (matmul_kinds[i] == k) return 1;
  return 0;
}

static int check_one(const char *who, const char *name, const tsr_layout_t *L, const void *p) {
  TSR_CHECK(L && p, TSR_ERR_ARG, "%s: matrix %s: NULL layout or array", who, name);
  TSR_CALL(tsr_layout_check(L));
  TSR_CHECK(matmul_kind_ok(L->kind), TSR_ERR_ARG,
            "%s: matrix %s is %s; the matmul runs over R, C, RC, CR, RR and CC", who, name,
            tsr_layout_kind_name(L->kind));
  TSR_CHECK(L->n[2] == 1 && L->nf == 1 && L->halo[0] == 0 && L->halo[1] == 0 && L->halo[2] == 0,
            TSR_ERR_ARG,
            "%s: matrix %s must be 2-D (z = 1), one field, no halo; got z=%lld, %d fields, "
            "halo %lldx%lldx%lld", who, name, (long long)L->n[2], L->nf, (long long)L->halo[0],
            (long long)L->halo[1], (long long)L->halo[2]);
  return TSR_SUCCESS;
}

int matmul_check(const char *who, const tsr_layout_t *LA, const void *A, const tsr_layout_t *LB,
                 const void *B, const tsr_layout_t *LC, const void *C) {
  TSR_CALL(check_one(who, "A", LA, A));
  TSR_CALL(check_one(who, "B", LB, B));
  TSR_CALL(check_one(who, "C", LC, C));
  TSR_CHECK(LA->n[0] == LB->n[1] && LC->n[1] == LA->n[1] && LC->n[0] == LB->n[0], TSR_ERR_ARG,
            "%s: shapes do not match: A is %lldx%lld, B %lldx%lld, C %lldx%lld (rows x columns; "
            "need A: M x K, B: K x N, C: M x N)", who, (long long)LA->n[1], (long long)LA->n[0],
            (long long)LB->n[1], (long long)LB->n[0], (long long)LC->n[1], (long long)LC->n[0]);
  TSR_CHECK(C != A && C != B, TSR_ERR_ARG, "%s: C must not alias A or B", who);
  return TSR_SUCCESS;
}

/* The loop nest, once. KA and KB are constants at every call site below
 * (always inlined), so matmul_load folds to one layout's arithmetic. */
static inline __attribute__((always_inline)) void body(int KA, int KB, const tsr_layout_t *LA,
                                                       const float *A, const tsr_layout_t *LB,
                                                       const float *B, const tsr_layout_t *LC,
                                                       float *C) {
  const int64_t M = LA->n[1], K = LA->n[0], N = LB->n[0];
  const int64_t nbi = TSR_CEIL_DIV(M, MATMUL_T), nbj = TSR_CEIL_DIV(N, MATMUL_T);
#pragma omp parallel for schedule(static)
  for (int64_t t = 0; t < nbi * nbj; t++) {
    const tsr_layout_t S = MATMUL_SHARED_LAYOUT;
    float As[MATMUL_T * MATMUL_T], Bs[MATMUL_T * MATMUL_T], acc[MATMUL_T * MATMUL_T];
    const int64_t i0 = t / nbj * MATMUL_T, j0 = t % nbj * MATMUL_T;
    memset(acc, 0, sizeof acc);
    for (int64_t kt = 0; kt < K; kt += MATMUL_T) {
      for (int ty = 0; ty < MATMUL_T; ty++)
        for (int tx = 0; tx < MATMUL_T; tx++) {
          As[matmul_at(TSR_LAYOUT_ROWMAJOR, &S, ty, tx)] = matmul_load(KA, LA, A, i0 + ty, kt + tx);
          Bs[matmul_at(TSR_LAYOUT_ROWMAJOR, &S, ty, tx)] = matmul_load(KB, LB, B, kt + ty, j0 + tx);
        }
      for (int ty = 0; ty < MATMUL_T; ty++)
        for (int tx = 0; tx < MATMUL_T; tx++)
          acc[ty * MATMUL_T + tx] = matmul_tile_dot(&S, As, Bs, ty, tx, acc[ty * MATMUL_T + tx]);
    }
    for (int ty = 0; ty < MATMUL_T && i0 + ty < M; ty++)
      for (int tx = 0; tx < MATMUL_T && j0 + tx < N; tx++)
        C[tsr_layout_cell(LC, j0 + tx, i0 + ty, 0)] = acc[ty * MATMUL_T + tx];
  }
}

/* One case per (A kind, B kind): 36 specialisations of body(). */
#define R_ TSR_LAYOUT_ROWMAJOR
#define C_ TSR_LAYOUT_COLMAJOR
#define RC_ TSR_LAYOUT_RC
#define CR_ TSR_LAYOUT_CR
#define RR_ TSR_LAYOUT_RR
#define CC_ TSR_LAYOUT_CC
#define CASE(ka, kb)                                                                            \
  case (ka) * TSR_LAYOUT_NKINDS + (kb): body(ka, kb, &LA, A, &LB, B, &LC, C); break;
#define CASES_B(ka) CASE(ka, R_) CASE(ka, C_) CASE(ka, RC_) CASE(ka, CR_) CASE(ka, RR_) CASE(ka, CC_)

int matmul_cpu(tsr_layout_t LA, const float *A, tsr_layout_t LB, const float *B, tsr_layout_t LC,
               float *C) {
  TSR_CALL(matmul_check("matmul_cpu", &LA, A, &LB, B, &LC, C));
  switch (LA.kind * TSR_LAYOUT_NKINDS + LB.kind) {
    CASES_B(R_)
    CASES_B(C_)
    CASES_B(RC_)
    CASES_B(CR_)
    CASES_B(RR_)
    CASES_B(CC_)
  default:
    return TSR_RAISE(TSR_ERR_ARG, "matmul_cpu: no specialisation for %s x %s",
                     tsr_layout_kind_short(LA.kind), tsr_layout_kind_short(LB.kind));
  }
  return TSR_SUCCESS;
}

void matmul_reference_row(int64_t N, int64_t K, int64_t row, const float *a, const float *b,
                          double *c, double *bound) {
  for (int64_t j = 0; j < N; j++) c[j] = bound[j] = 0.0;
  for (int64_t k = 0; k < K; k++) {
    const double aik = a[row * K + k];
    const float *bk = b + k * N;
    for (int64_t j = 0; j < N; j++) {
      c[j] += aik * bk[j];
      bound[j] += fabs(aik) * fabs((double)bk[j]);
    }
  }
}

#ifndef TSR_HAVE_CUDA
int matmul_cuda(tsr_layout_t LA, const float *A, tsr_layout_t LB, const float *B, tsr_layout_t LC,
                float *C) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "matmul_cuda: Tessera was built without CUDA");
}
int matmul_cublas_cuda(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "matmul_cublas_cuda: Tessera was built without CUDA");
}
int matmul_cublas_release(void) { return TSR_SUCCESS; }
int matmul_cuda_peak_gflops(double *gflops, char *what, size_t n) {
  return TSR_RAISE(TSR_ERR_NOCUDA, "matmul_cuda_peak_gflops: Tessera was built without CUDA");
}
#endif
