// cuda-warptiled: warp-level tiling. A block of 8 warps computes a 128x256 tile of C; each warp
// owns a 64x64 piece and its lanes sweep it in 2x4 steps of 32x16, 4x4 cells each (128 accumulators
// per thread). Arranging the lanes by warp keeps each warp's shared-memory reads to a few
// broadcast float4 and gives the scheduler independent work per warp (siboehm's kernel 10 design).
// Double-buffered: the next step's tiles are loaded from global memory into registers before this
// step's multiply-adds and stored to the other shared buffer after them, so the loads' latency
// hides behind the arithmetic and a step needs one barrier instead of two.
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
  // 2 x (8 + 16) KiB: exactly the 48 KiB a block may declare statically.
  __shared__ __align__(16) float as[2][W::kBK][W::kBM];  // transposed, as in cuda-regblock
  __shared__ __align__(16) float bs[2][W::kBK][W::kBN];
  const int tid = threadIdx.x;
  const int row0 = blockIdx.y * W::kBM, col0 = blockIdx.x * W::kBN;
  constexpr int kRows = W::kIterM * W::kTM, kCols = W::kIterN * W::kTN;
  constexpr int kScalarA = W::kBM * W::kBK / W::kThreads, kScalarB = W::kBK * W::kBN / W::kThreads;
  float acc[kRows][kCols] = {};
  // The next step's tiles in flight: float4 when rows start on a vector, else one value each.
  float4 next_a[kVec ? W::kLoadsA : 1], next_b[kVec ? W::kLoadsB : 1];
  float next_as[kVec ? 1 : kScalarA], next_bs[kVec ? 1 : kScalarB];

  auto load = [&](int t) {
    if constexpr (kVec) {
#pragma unroll
      for (int l = 0; l < W::kLoadsA; ++l) {
        const int r = W::a_row4(tid, l), p = W::a_col4(tid, l);
        next_a[l] = (row0 + r < m && t + p < k) ? *reinterpret_cast<const float4*>(a + static_cast<long>(row0 + r) * k + t + p)
                                                : make_float4(0.f, 0.f, 0.f, 0.f);
      }
#pragma unroll
      for (int l = 0; l < W::kLoadsB; ++l) {
        const int r = W::b_row4(tid, l), col = W::b_col4(tid, l);
        next_b[l] = (t + r < k && col0 + col < n) ? *reinterpret_cast<const float4*>(b + static_cast<long>(t + r) * n + col0 + col)
                                                  : make_float4(0.f, 0.f, 0.f, 0.f);
      }
    } else {
#pragma unroll
      for (int e = 0; e < kScalarA; ++e) {
        const int idx = tid + e * W::kThreads, r = idx / W::kBK, p = idx % W::kBK;
        next_as[e] = (row0 + r < m && t + p < k) ? a[static_cast<long>(row0 + r) * k + t + p] : 0.0f;
      }
#pragma unroll
      for (int e = 0; e < kScalarB; ++e) {
        const int idx = tid + e * W::kThreads, r = idx / W::kBN, col = idx % W::kBN;
        next_bs[e] = (t + r < k && col0 + col < n) ? b[static_cast<long>(t + r) * n + col0 + col] : 0.0f;
      }
    }
  };
  auto store = [&](int buf) {
    if constexpr (kVec) {
#pragma unroll
      for (int l = 0; l < W::kLoadsA; ++l) {
        const int r = W::a_row4(tid, l), p = W::a_col4(tid, l);
        as[buf][p + 0][r] = next_a[l].x;
        as[buf][p + 1][r] = next_a[l].y;
        as[buf][p + 2][r] = next_a[l].z;
        as[buf][p + 3][r] = next_a[l].w;
      }
#pragma unroll
      for (int l = 0; l < W::kLoadsB; ++l)
        *reinterpret_cast<float4*>(&bs[buf][W::b_row4(tid, l)][W::b_col4(tid, l)]) = next_b[l];
    } else {
#pragma unroll
      for (int e = 0; e < kScalarA; ++e) {
        const int idx = tid + e * W::kThreads;
        as[buf][idx % W::kBK][idx / W::kBK] = next_as[e];
      }
#pragma unroll
      for (int e = 0; e < kScalarB; ++e) {
        const int idx = tid + e * W::kThreads;
        bs[buf][idx / W::kBN][idx % W::kBN] = next_bs[e];
      }
    }
  };

  load(0);
  store(0);
  __syncthreads();
  int buf = 0;
  for (int t = 0; t < k; t += W::kBK) {
    const bool more = t + W::kBK < k;
    if (more) load(t + W::kBK);
#pragma unroll
    for (int p = 0; p < W::kBK; ++p) {
      float ar[kRows], br[kCols];
#pragma unroll
      for (int im = 0; im < W::kIterM; ++im) {
        const float4 v = *reinterpret_cast<const float4*>(&as[buf][p][W::tile_row(tid, im, 0)]);
        ar[im * W::kTM + 0] = v.x;
        ar[im * W::kTM + 1] = v.y;
        ar[im * W::kTM + 2] = v.z;
        ar[im * W::kTM + 3] = v.w;
      }
#pragma unroll
      for (int in = 0; in < W::kIterN; ++in) {
        const float4 v = *reinterpret_cast<const float4*>(&bs[buf][p][W::tile_col(tid, in, 0)]);
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
    // The other buffer was last read before the previous barrier: safe to overwrite now.
    if (more) store(buf ^ 1);
    __syncthreads();
    buf ^= 1;
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
