/* kernels/layout/matmul.h: the layout-agnostic tiled matrix multiplication
 * of the Noarr paper (ICA3PP 2022, Listing 1), C = A * B in float, written once against
 * the layout API and run for every combination of matrix layouts.
 *
 * Matrices are tsr_layout_t values with x = column and y = row (z = 1, one
 * field, no halo): A is M x K (n = {K, M, 1}), B is K x N (n = {N, K, 1}),
 * C is M x N (n = {N, M, 1}); kinds R, C, RC, CR, RR, CC (any tile size,
 * any alignment). Element (row, col) lives at
 *     tsr_layout_cell_as(kind, &L, col, row, 0).
 *
 * The algorithm (CPU and CUDA alike): C is cut into MATMUL_T x MATMUL_T
 * output tiles; for each output tile, for each step kt of MATMUL_T along K,
 * a tile of A (rows of the output tile, columns kt..) and a tile of B (rows
 * kt.., columns of the output tile) are copied into two small tiles ("shared
 * memory": __shared__ on the GPU, a local array on the CPU) whose layout is
 * one more tsr_layout_t, MATMUL_SHARED_LAYOUT (a constant T x T row-major
 * layout: the paper's tile_s); then every output element adds the dot product
 * of its tile row of A and tile column of B, in k order. Elements outside
 * the matrices load as 0, so any M, N, K work.
 *
 * The input kinds are compile-time constants in each specialisation
 * (matmul_load is called with a constant kind, so tsr_layout_cell_as folds
 * to one layout's arithmetic): 6 x 6 specialisations on each device. The
 * output kind is resolved at run time (tsr_layout_cell: one branch per
 * output element, outside the K loop).
 *
 * CUDA: one thread per output element, MATMUL_T x MATMUL_T threads per
 * block, as in the paper. The launchers are asynchronous on the default
 * stream; in a build without CUDA they answer TSR_ERR_NOCUDA.
 */
#ifndef TSR_KERNELS_LAYOUT_MATMUL_H
#define TSR_KERNELS_LAYOUT_MATMUL_H

#include <stdint.h>
#include "tessera/common.h"
#include "tessera/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Side of the output and shared-memory tiles (threads per block side). */
#define MATMUL_T 16
/* The shared-memory tiles' layout: row-major T x T, a compile-time constant. */
#define MATMUL_SHARED_LAYOUT TSR_LAYOUT_DENSE_CONST(MATMUL_T, MATMUL_T, 1)

/* The six kinds the matmul runs over, in the paper's order. */
#define MATMUL_NKINDS 6
static const int matmul_kinds[MATMUL_NKINDS] = {TSR_LAYOUT_ROWMAJOR, TSR_LAYOUT_COLMAJOR,
                                                TSR_LAYOUT_RC,       TSR_LAYOUT_CR,
                                                TSR_LAYOUT_RR,       TSR_LAYOUT_CC};

/* Cell of matrix element (row, col) in layout L of kind K. */
static inline TSR_HD int64_t matmul_at(int K, const tsr_layout_t *L, int64_t row, int64_t col) {
  return tsr_layout_cell_as(K, L, col, row, 0);
}

/* M(row, col), or 0 outside the matrix (rows n[1], columns n[0]). */
static inline TSR_HD float matmul_load(int K, const tsr_layout_t *L, const float *M, int64_t row,
                                       int64_t col) {
  return row < L->n[1] && col < L->n[0] ? M[matmul_at(K, L, row, col)] : 0.0f;
}

/* acc + sum over k < T of As(ty, k) * Bs(k, tx): the shared tiles in
 * layout S (MATMUL_SHARED_LAYOUT), k in order. */
static inline TSR_HD float matmul_tile_dot(const tsr_layout_t *S, const float *As, const float *Bs,
                                           int ty, int tx, float acc) {
  for (int k = 0; k < MATMUL_T; k++)
    acc += As[matmul_at(TSR_LAYOUT_ROWMAJOR, S, ty, k)] *
           Bs[matmul_at(TSR_LAYOUT_ROWMAJOR, S, k, tx)];
  return acc;
}

/* 0 if LA, LB, LC are valid single-field, halo-free 2-D (z = 1) layouts of
 * the six kinds with consistent shapes (A: M x K, B: K x N, C: M x N) and
 * the arrays are non-NULL; else TSR_ERR_ARG saying what is wrong. */
int matmul_check(const char *who, const tsr_layout_t *LA, const void *A, const tsr_layout_t *LB,
                 const void *B, const tsr_layout_t *LC, const void *C);

/* C = A * B through the layouts: host arrays (OpenMP over output tiles). */
int matmul_cpu(tsr_layout_t LA, const float *A, tsr_layout_t LB, const float *B, tsr_layout_t LC,
               float *C);
/* The same on the GPU: device arrays, one thread per output element. */
int matmul_cuda(tsr_layout_t LA, const float *A, tsr_layout_t LB, const float *B, tsr_layout_t LC,
                float *C);

/* cuBLAS SGEMM of dense row-major matrices (R x R = R, leading dimensions
 * K, N, N): the reference the tiled kernel is measured against. The cuBLAS
 * handle is created on first use; matmul_cublas_release frees it. */
int matmul_cublas_cuda(int64_t M, int64_t N, int64_t K, const float *A, const float *B, float *C);
int matmul_cublas_release(void);

/* Peak FP32 rate of the current GPU in GFLOP/s (FMA = 2 flops): SMs x FP32
 * lanes per SM (by compute capability) x 2 x the maximum clock. *what gets a
 * one-line derivation. TSR_ERR_NOCUDA without CUDA. */
int matmul_cuda_peak_gflops(double *gflops, char *what, size_t n);

/* Independent reference on plain row-major arrays (a[i*K + k], b[k*N + j]),
 * not through the layout API: c[j] = sum_k a[row*K + k] * b[k*N + j] in
 * double for one row of C, and bound[j] = sum_k |a| |b| (for the error
 * bound |c - ref| <= 2 K u bound[j], u = 2^-24, of any summation order). */
void matmul_reference_row(int64_t N, int64_t K, int64_t row, const float *a, const float *b,
                          double *c, double *bound);

#ifdef __cplusplus
}
#endif
#endif /* TSR_KERNELS_LAYOUT_MATMUL_H */
