// The launchers of the CUDA ladder, one kernel per .cu file. Each launches its kernel for rows
// [0, m) of the pointers it is given (a band of C is a pointer offset) on `stream`, with the
// plan's grid and block; the caller reads the launch's error.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "cuda/launch_plan.hpp"

namespace ws::kernels::cuda {

void launch_naive(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b, float* c);
void launch_tiled(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b, float* c);
void launch_regblock(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b,
                     float* c);
void launch_warptiled(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b,
                      float* c);
void launch_tensor(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const __nv_bfloat16* a,
                   const __nv_bfloat16* b, float* c);

// cudaFuncGetAttributes of the function `p` would launch (registers, shared memory, max threads).
cudaError_t naive_attributes(cudaFuncAttributes* out);
cudaError_t tiled_attributes(cudaFuncAttributes* out);
cudaError_t regblock_attributes(bool vector_loads, cudaFuncAttributes* out);
cudaError_t warptiled_attributes(bool vector_loads, cudaFuncAttributes* out);
cudaError_t tensor_attributes(bool vector_loads, cudaFuncAttributes* out);

}  // namespace ws::kernels::cuda
