// cuda-tiled: each block stages a 32x32 tile of A and of B in shared memory, so every value loaded
// from global memory is used 32 times instead of once. Out-of-range cells load as zeros, so shapes
// that are not multiples of the tile need no special path in the inner loop.

#include "cuda/device_kernels.cuh"

namespace ws::kernels::cuda {

namespace {

constexpr int kTile = 32;

// 1024 threads per block: without the bound, ptxas may give the kernel more than 64 registers
// and the launch would fail with cudaErrorLaunchOutOfResources.
__global__ void __launch_bounds__(kTile * kTile)
    tiled_kernel(int m, int n, int k, const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    as[ty][tx] = (row < m && t + tx < k) ? a[static_cast<long>(row) * k + t + tx] : 0.0f;
    bs[ty][tx] = (t + ty < k && col < n) ? b[static_cast<long>(t + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kTile; ++p) sum += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<long>(row) * n + col] = sum;
}

}  // namespace

void launch_tiled(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b, float* c) {
  tiled_kernel<<<dim3(p.grid.x, p.grid.y), dim3(p.block.x, p.block.y), 0, s>>>(m, n, k, a, b, c);
}

cudaError_t tiled_attributes(cudaFuncAttributes* out) { return cudaFuncGetAttributes(out, tiled_kernel); }

}  // namespace ws::kernels::cuda
