// cuda-regblock: 2-D register blocking. A 16x16 block computes a 64x64 tile of C; each thread keeps
// a 4x4 block of C in registers and, per k step, reads 4 values of A and 4 of B from shared memory
// (one float4 each) for 16 multiply-adds: 4x the arithmetic per shared load of cuda-tiled. The
// numbers are the simulator's regblock model's (RegblockLayout, tile_layout.hpp). Global loads are
// float4 when k and n are multiples of 4 (LaunchPlan::vector_loads), scalar otherwise.

#include "cuda/device_kernels.cuh"
#include "cuda/tile_layout.hpp"

namespace ws::kernels::cuda {

namespace {

using L = RegblockLayout;

template <bool kVec>
__global__ void __launch_bounds__(L::kThreads)
    regblock_kernel(int m, int n, int k, const float* __restrict__ a, const float* __restrict__ b,
                    float* __restrict__ c) {
  // A is stored transposed so that a thread's kTM rows of one k are one aligned float4.
  __shared__ __align__(16) float as[L::kBK][L::kBM];
  __shared__ __align__(16) float bs[L::kBK][L::kBN];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * L::kThreadsX + tx;
  const int row0 = blockIdx.y * L::kBM, col0 = blockIdx.x * L::kBN;
  float acc[L::kTM][L::kTN] = {};

  for (int t = 0; t < k; t += L::kBK) {
    if constexpr (kVec) {
      static_assert(L::kBM * L::kBK / 4 == L::kThreads && L::kBK * L::kBN / 4 == L::kThreads);
      const int ar = L::a_row4(tid), ac = L::a_col4(tid);
      float4 va = make_float4(0.f, 0.f, 0.f, 0.f);
      if (row0 + ar < m && t + ac < k) va = *reinterpret_cast<const float4*>(a + static_cast<long>(row0 + ar) * k + t + ac);
      as[ac + 0][ar] = va.x;
      as[ac + 1][ar] = va.y;
      as[ac + 2][ar] = va.z;
      as[ac + 3][ar] = va.w;
      const int br = L::b_row4(tid), bc = L::b_col4(tid);
      float4 vb = make_float4(0.f, 0.f, 0.f, 0.f);
      if (t + br < k && col0 + bc < n) vb = *reinterpret_cast<const float4*>(b + static_cast<long>(t + br) * n + col0 + bc);
      *reinterpret_cast<float4*>(&bs[br][bc]) = vb;
    } else {
#pragma unroll
      for (int e = 0; e < L::kBM * L::kBK / L::kThreads; ++e) {
        const int idx = tid + e * L::kThreads;
        const int r = idx / L::kBK, p = idx % L::kBK;
        as[p][r] = (row0 + r < m && t + p < k) ? a[static_cast<long>(row0 + r) * k + t + p] : 0.0f;
      }
#pragma unroll
      for (int e = 0; e < L::kBK * L::kBN / L::kThreads; ++e) {
        const int idx = tid + e * L::kThreads;
        const int r = idx / L::kBN, col = idx % L::kBN;
        bs[r][col] = (t + r < k && col0 + col < n) ? b[static_cast<long>(t + r) * n + col0 + col] : 0.0f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < L::kBK; ++p) {
      const float4 av = *reinterpret_cast<const float4*>(&as[p][ty * L::kTM]);
      const float4 bv = *reinterpret_cast<const float4*>(&bs[p][tx * L::kTN]);
      const float ar[L::kTM] = {av.x, av.y, av.z, av.w};
      const float br[L::kTN] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
      for (int i = 0; i < L::kTM; ++i)
#pragma unroll
        for (int j = 0; j < L::kTN; ++j) acc[i][j] += ar[i] * br[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < L::kTM; ++i) {
    const int row = L::row(blockIdx.y, ty, i);
    if (row >= m) continue;
    const int col = L::col(blockIdx.x, tx, 0);
    float* out = c + static_cast<long>(row) * n + col;
    if (kVec && col + L::kTN <= n) {
      *reinterpret_cast<float4*>(out) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    } else {
#pragma unroll
      for (int j = 0; j < L::kTN; ++j)
        if (col + j < n) out[j] = acc[i][j];
    }
  }
}

}  // namespace

void launch_regblock(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b,
                     float* c) {
  const dim3 grid(p.grid.x, p.grid.y), block(p.block.x, p.block.y);
  if (p.vector_loads)
    regblock_kernel<true><<<grid, block, 0, s>>>(m, n, k, a, b, c);
  else
    regblock_kernel<false><<<grid, block, 0, s>>>(m, n, k, a, b, c);
}

cudaError_t regblock_attributes(bool vector_loads, cudaFuncAttributes* out) {
  return vector_loads ? cudaFuncGetAttributes(out, regblock_kernel<true>) : cudaFuncGetAttributes(out, regblock_kernel<false>);
}

}  // namespace ws::kernels::cuda
