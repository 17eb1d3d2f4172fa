// cuda-naive: one thread per element of C, operands straight from global memory. threadIdx.x runs
// along a row of C so a warp reads consecutive elements of B (coalesced) and one broadcast of A.

#include "cuda/device_kernels.cuh"

namespace ws::kernels::cuda {

namespace {

__global__ void naive_kernel(int m, int n, int k, const float* __restrict__ a, const float* __restrict__ b,
                             float* __restrict__ c) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<long>(row) * k + p] * b[static_cast<long>(p) * n + col];
  c[static_cast<long>(row) * n + col] = sum;
}

}  // namespace

void launch_naive(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b, float* c) {
  naive_kernel<<<dim3(p.grid.x, p.grid.y), dim3(p.block.x, p.block.y), 0, s>>>(m, n, k, a, b, c);
}

cudaError_t naive_attributes(cudaFuncAttributes* out) { return cudaFuncGetAttributes(out, naive_kernel); }

}  // namespace ws::kernels::cuda
