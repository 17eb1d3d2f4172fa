// cuda-warptiled: warp-level tiling. A block of 8 warps computes a 128x128 tile of C; each warp
// owns a 64x32 piece and its lanes sweep it in 2x2 steps of 32x16, 4x4 cells each (64 accumulators
// per thread). Arranging the lanes by warp keeps each warp's shared-memory reads to a few
// broadcast float4 and gives the scheduler independent work per warp (siboehm's kernel 10 design).
// Layout in WarptiledLayout (tile_layout.hpp); float4 global loads when k and n are multiples of 4.

#include "cuda/device_kernels.cuh"
#include "cuda/tile_layout.hpp"

namespace ws::kernels::cuda {

namespace {

using W = WarptiledLayout;

template <bool kVec>
__global__ void __launch_bounds__(W::kThreads)
    warptiled_kernel(int m, int n, int k, const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c) {
  __shared__ __align__(16) float as[W::kBK][W::kBM];  // transposed, as in cuda-regblock
  __shared__ __align__(16) float bs[W::kBK][W::kBN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * W::kBM, col0 = blockIdx.x * W::kBN;
  constexpr int kRows = W::kIterM * W::kTM, kCols = W::kIterN * W::kTN;
  float acc[kRows][kCols] = {};

  for (int t = 0; t < k; t += W::kBK) {
    if constexpr (kVec) {
#pragma unroll
      for (int l = 0; l < W::kLoadsA; ++l) {
        const int r = W::a_row4(tid, l), p = W::a_col4(tid, l);
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (row0 + r < m && t + p < k) v = *reinterpret_cast<const float4*>(a + static_cast<long>(row0 + r) * k + t + p);
        as[p + 0][r] = v.x;
        as[p + 1][r] = v.y;
        as[p + 2][r] = v.z;
        as[p + 3][r] = v.w;
      }
#pragma unroll
      for (int l = 0; l < W::kLoadsB; ++l) {
        const int r = W::b_row4(tid, l), col = W::b_col4(tid, l);
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (t + r < k && col0 + col < n) v = *reinterpret_cast<const float4*>(b + static_cast<long>(t + r) * n + col0 + col);
        *reinterpret_cast<float4*>(&bs[r][col]) = v;
      }
    } else {
#pragma unroll
      for (int e = 0; e < W::kBM * W::kBK / W::kThreads; ++e) {
        const int idx = tid + e * W::kThreads;
        const int r = idx / W::kBK, p = idx % W::kBK;
        as[p][r] = (row0 + r < m && t + p < k) ? a[static_cast<long>(row0 + r) * k + t + p] : 0.0f;
      }
#pragma unroll
      for (int e = 0; e < W::kBK * W::kBN / W::kThreads; ++e) {
        const int idx = tid + e * W::kThreads;
        const int r = idx / W::kBN, col = idx % W::kBN;
        bs[r][col] = (t + r < k && col0 + col < n) ? b[static_cast<long>(t + r) * n + col0 + col] : 0.0f;
      }
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < W::kBK; ++p) {
      float ar[kRows], br[kCols];
#pragma unroll
      for (int im = 0; im < W::kIterM; ++im) {
        const float4 v = *reinterpret_cast<const float4*>(&as[p][W::tile_row(tid, im, 0)]);
        ar[im * W::kTM + 0] = v.x;
        ar[im * W::kTM + 1] = v.y;
        ar[im * W::kTM + 2] = v.z;
        ar[im * W::kTM + 3] = v.w;
      }
#pragma unroll
      for (int in = 0; in < W::kIterN; ++in) {
        const float4 v = *reinterpret_cast<const float4*>(&bs[p][W::tile_col(tid, in, 0)]);
        br[in * W::kTN + 0] = v.x;
        br[in * W::kTN + 1] = v.y;
        br[in * W::kTN + 2] = v.z;
        br[in * W::kTN + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < kRows; ++i)
#pragma unroll
        for (int j = 0; j < kCols; ++j) acc[i][j] += ar[i] * br[j];
    }
    __syncthreads();
  }

#pragma unroll
  for (int im = 0; im < W::kIterM; ++im)
#pragma unroll
    for (int i = 0; i < W::kTM; ++i) {
      const int row = row0 + W::tile_row(tid, im, i);
      if (row >= m) continue;
#pragma unroll
      for (int in = 0; in < W::kIterN; ++in) {
        const int col = col0 + W::tile_col(tid, in, 0);
        const float* cell = &acc[im * W::kTM + i][in * W::kTN];
        float* out = c + static_cast<long>(row) * n + col;
        if (kVec && col + W::kTN <= n) {
          *reinterpret_cast<float4*>(out) = make_float4(cell[0], cell[1], cell[2], cell[3]);
        } else {
#pragma unroll
          for (int j = 0; j < W::kTN; ++j)
            if (col + j < n) out[j] = cell[j];
        }
      }
    }
}

}  // namespace

void launch_warptiled(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const float* a, const float* b,
                      float* c) {
  const dim3 grid(p.grid.x, p.grid.y), block(p.block.x);
  if (p.vector_loads)
    warptiled_kernel<true><<<grid, block, 0, s>>>(m, n, k, a, b, c);
  else
    warptiled_kernel<false><<<grid, block, 0, s>>>(m, n, k, a, b, c);
}

cudaError_t warptiled_attributes(bool vector_loads, cudaFuncAttributes* out) {
  return vector_loads ? cudaFuncGetAttributes(out, warptiled_kernel<true>)
                      : cudaFuncGetAttributes(out, warptiled_kernel<false>);
}

}  // namespace ws::kernels::cuda
