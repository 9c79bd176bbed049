/* kernels/lulesh/lulesh_cuda_fma.cu: the node-force assemblies without
 * temporaries (lulesh_cuda_asm.cu) and the fused monotonic Q + EOS kernel
 * (lulesh_cuda_fused.cu) built a second time with FMA contraction (nvcc
 * --fmad=true: kernels/lulesh/local.mk), for lulesh_cuda_opts_t.fma. The
 * arithmetic is lulesh.h's with a * b + c contracted where nvcc chooses: not
 * the CPU's roundings (tests/cuda/check_lulesh_cuda.c states the tolerance). */
#define LULESH_CUDA_FMA 1
#include "kernels/lulesh/lulesh_cuda_asm.cu"
#include "kernels/lulesh/lulesh_cuda_fused.cu"
