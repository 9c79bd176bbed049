/* kernels/layout/matmul_cuda.cu: the layout-agnostic tiled matmul on the
 * GPU (Noarr paper, Listing 1): one thread per output element, two
 * MATMUL_T x MATMUL_T tiles in shared memory whose layout is
 * MATMUL_SHARED_LAYOUT, the input kinds as template parameters (so the
 * layout arithmetic folds), the output kind at run time. Also the cuBLAS
 * SGEMM reference and the FP32 peak of the GPU. */
#include "config.h"

#include <cublas_v2.h>
#include <stdio.h>

#include "kernels/layout/matmul.h"
#include "tessera/cuda.h"
#include "tessera/error.h"

namespace {

template <int KA, int KB>
__global__ void __launch_bounds__(MATMUL_T *MATMUL_T)
    matmul_kernel(tsr_layout_t LA, const float *__restrict__ A, tsr_layout_t LB,
                  const float *__restrict__ B, tsr_layout_t LC, float *__restrict__ C) {
  __shared__ float As[MATMUL_T * MATMUL_T];
  __shared__ float Bs[MATMUL_T * MATMUL_T];
  const tsr_layout_t S = MATMUL_SHARED_LAYOUT;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t i = (int64_t)blockIdx.y * MATMUL_T + ty, j = (int64_t)blockIdx.x * MATMUL_T + tx;
  const int64_t K = LA.n[0];
  float acc = 0.0f;
  for (int64_t kt = 0; kt < K; kt += MATMUL_T) {
    As[matmul_at(TSR_LAYOUT_ROWMAJOR, &S, ty, tx)] = matmul_load(KA, &LA, A, i, kt + tx);
    Bs[matmul_at(TSR_LAYOUT_ROWMAJOR, &S, ty, tx)] = matmul_load(KB, &LB, B, kt + ty, j);
    __syncthreads();
    acc = matmul_tile_dot(&S, As, Bs, ty, tx, acc);
    __syncthreads();
  }
  if (i < LC.n[1] && j < LC.n[0]) C[tsr_layout_cell(&LC, j, i, 0)] = acc;
}

template <int KA, int KB>
void launch(dim3 grid, const tsr_layout_t &LA, const float *A, const tsr_layout_t &LB,
            const float *B, const tsr_layout_t &LC, float *C) {
  matmul_kernel<KA, KB><<<grid, dim3(MATMUL_T, MATMUL_T)>>>(LA, A, LB, B, LC, C);
}

cublasHandle_t handle = NULL;

const char *cublas_msg(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_NOT_INITIALIZED: return "not initialized";
  case CUBLAS_STATUS_ALLOC_FAILED: return "allocation failed";
  case CUBLAS_STATUS_INVALID_VALUE: return "invalid value";
  case CUBLAS_STATUS_ARCH_MISMATCH: return "architecture mismatch";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "execution failed";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "internal error";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "not supported";
  default: return "error";
  }
}

} // namespace

#define R_ TSR_LAYOUT_ROWMAJOR
#define C_ TSR_LAYOUT_COLMAJOR
#define RC_ TSR_LAYOUT_RC
#define CR_ TSR_LAYOUT_CR
#define RR_ TSR_LAYOUT_RR
#define CC_ TSR_LAYOUT_CC
#define CASE(ka, kb)                                                                            \
  case (ka) * TSR_LAYOUT_NKINDS + (kb): launch<ka, kb>(grid, LA, A, LB, B, LC, C); break;
#define CASES_B(ka) CASE(ka, R_) CASE(ka, C_) CASE(ka, RC_) CASE(ka, CR_) CASE(ka, RR_) CASE(ka, CC_)

extern "C" int matmul_cuda(tsr_layout_t LA, const float *A, tsr_layout_t LB, const float *B,
                           tsr_layout_t LC, float *C) {
  TSR_CALL(matmul_check("matmul_cuda", &LA, A, &LB, B, &LC, C));
  const int64_t gx = TSR_CEIL_DIV(LC.n[0], MATMUL_T), gy = TSR_CEIL_DIV(LC.n[1], MATMUL_T);
  TSR_CHECK(gx < ((int64_t)1 << 31) && gy <= 65535, TSR_ERR_ARG,
            "matmul_cuda: C is %lldx%lld: more than 65535 tile rows (%lld)", (long long)LC.n[1],
            (long long)LC.n[0], (long long)gy);
  dim3 grid((unsigned)gx, (unsigned)gy);
  switch (LA.kind * TSR_LAYOUT_NKINDS + LB.kind) {
    CASES_B(R_)
    CASES_B(C_)
    CASES_B(RC_)
    CASES_B(CR_)
    CASES_B(RR_)
    CASES_B(CC_)
  default:
    return TSR_RAISE(TSR_ERR_ARG, "matmul_cuda: no specialisation for %s x %s",
                     tsr_layout_kind_short(LA.kind), tsr_layout_kind_short(LB.kind));
  }
  TSR_CHECK_LAUNCH("matmul_kernel");
  return TSR_SUCCESS;
}

extern "C" int matmul_cublas_cuda(int64_t M, int64_t N, int64_t K, const float *A, const float *B,
                                  float *C) {
  TSR_CHECK(A && B && C && M > 0 && N > 0 && K > 0, TSR_ERR_ARG,
            "matmul_cublas_cuda: NULL array or empty shape %lldx%lldx%lld", (long long)M,
            (long long)N, (long long)K);
  TSR_CHECK(M < ((int64_t)1 << 31) && N < ((int64_t)1 << 31) && K < ((int64_t)1 << 31),
            TSR_ERR_ARG, "matmul_cublas_cuda: extents must be < 2^31");
  cublasStatus_t s;
  if (!handle) {
    s = cublasCreate(&handle);
    TSR_CHECK(s == CUBLAS_STATUS_SUCCESS, TSR_ERR_CUDA, "cublasCreate: %s", cublas_msg(s));
  }
  /* row-major C = A B is column-major C^T = B^T A^T */
  const float one = 1.0f, zero = 0.0f;
  s = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)N, (int)M, (int)K, &one, B, (int)N, A,
                  (int)K, &zero, C, (int)N);
  TSR_CHECK(s == CUBLAS_STATUS_SUCCESS, TSR_ERR_CUDA, "cublasSgemm (%lldx%lldx%lld): %s",
            (long long)M, (long long)N, (long long)K, cublas_msg(s));
  return TSR_SUCCESS;
}

extern "C" int matmul_cublas_release(void) {
  if (handle) {
    cublasStatus_t s = cublasDestroy(handle);
    handle = NULL;
    TSR_CHECK(s == CUBLAS_STATUS_SUCCESS, TSR_ERR_CUDA, "cublasDestroy: %s", cublas_msg(s));
  }
  return TSR_SUCCESS;
}

extern "C" int matmul_cuda_peak_gflops(double *gflops, char *what, size_t n) {
  TSR_CHECK(gflops, TSR_ERR_ARG, "matmul_cuda_peak_gflops: NULL argument");
  int dev = 0, sms = 0, khz = 0, major = 0, minor = 0;
  TSR_CALL_CUDA(cudaGetDevice(&dev));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  TSR_CALL_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  /* FP32 lanes per SM: 64 on sm_60/70/75/80, 128 on sm_61, sm_86 and later */
  int lanes = (major == 7 || (major == 8 && minor == 0) || (major == 6 && minor == 0)) ? 64 : 128;
  *gflops = (double)sms * lanes * 2.0 * khz * 1e-6;
  if (what && n)
    snprintf(what, n, "%d SMs x %d FP32 lanes x 2 x %.0f MHz (sm_%d%d, max clock)", sms, lanes,
             khz * 1e-3, major, minor);
  return TSR_SUCCESS;
}
