// cuda-tensor: tensor cores through WMMA, BF16 inputs and FP32 accumulation (cc >= 8.0). A block of
// 8 warps computes a 128x128 tile of C from 32-deep bf16 tiles of A and B in shared memory; each
// warp owns 32x64 of C as 2x4 accumulator fragments of 16x16 and issues 8 mma per 16 of k. Edge
// fragments go through a per-warp shared scratch so that any m and n store only inside C. Layout
// in TensorLayout (tile_layout.hpp); 16-byte global loads (8 bf16) when k and n are multiples of 8.

#include <mma.h>

#include "cuda/device_kernels.cuh"
#include "cuda/tile_layout.hpp"

namespace ws::kernels::cuda {

namespace {

using T = TensorLayout;

template <bool kVec>
__global__ void __launch_bounds__(T::kThreads)
    tensor_kernel(int m, int n, int k, const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                  float* __restrict__ c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using namespace nvcuda;
  constexpr int kLdA = T::kBK + T::kPad, kLdB = T::kBN + T::kPad;
  __shared__ __align__(32) __nv_bfloat16 as[T::kBM][kLdA];
  __shared__ __align__(32) __nv_bfloat16 bs[T::kBK][kLdB];
  __shared__ __align__(32) float scratch[T::kThreads / 32][T::kFrag * T::kFrag];
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wy = T::warp_y(tid), wx = T::warp_x(tid);
  const int row0 = blockIdx.y * T::kBM, col0 = blockIdx.x * T::kBN;
  const __nv_bfloat16 zero = __ushort_as_bfloat16(0);

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[T::kFragsM][T::kFragsN];
#pragma unroll
  for (int i = 0; i < T::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < T::kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int t = 0; t < k; t += T::kBK) {
    if constexpr (kVec) {
      // 8 bf16 per uint4; a 16-byte vector is wholly inside or wholly outside A and B.
#pragma unroll
      for (int l = 0; l < T::kBM * T::kBK / 8 / T::kThreads; ++l) {
        const int v = tid + l * T::kThreads;
        const int r = v / (T::kBK / 8), p = (v % (T::kBK / 8)) * 8;
        uint4 val = make_uint4(0, 0, 0, 0);
        if (row0 + r < m && t + p < k) val = *reinterpret_cast<const uint4*>(a + static_cast<long>(row0 + r) * k + t + p);
        *reinterpret_cast<uint4*>(&as[r][p]) = val;
      }
#pragma unroll
      for (int l = 0; l < T::kBK * T::kBN / 8 / T::kThreads; ++l) {
        const int v = tid + l * T::kThreads;
        const int r = v / (T::kBN / 8), col = (v % (T::kBN / 8)) * 8;
        uint4 val = make_uint4(0, 0, 0, 0);
        if (t + r < k && col0 + col < n) val = *reinterpret_cast<const uint4*>(b + static_cast<long>(t + r) * n + col0 + col);
        *reinterpret_cast<uint4*>(&bs[r][col]) = val;
      }
    } else {
#pragma unroll 4
      for (int e = 0; e < T::kBM * T::kBK / T::kThreads; ++e) {
        const int idx = tid + e * T::kThreads;
        const int r = idx / T::kBK, p = idx % T::kBK;
        as[r][p] = (row0 + r < m && t + p < k) ? a[static_cast<long>(row0 + r) * k + t + p] : zero;
      }
#pragma unroll 4
      for (int e = 0; e < T::kBK * T::kBN / T::kThreads; ++e) {
        const int idx = tid + e * T::kThreads;
        const int r = idx / T::kBN, col = idx % T::kBN;
        bs[r][col] = (t + r < k && col0 + col < n) ? b[static_cast<long>(t + r) * n + col0 + col] : zero;
      }
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < T::kBK; kk += T::kFrag) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[T::kFragsM];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[T::kFragsN];
#pragma unroll
      for (int i = 0; i < T::kFragsM; ++i) wmma::load_matrix_sync(fa[i], &as[wy * T::kWM + i * T::kFrag][kk], kLdA);
#pragma unroll
      for (int j = 0; j < T::kFragsN; ++j) wmma::load_matrix_sync(fb[j], &bs[kk][wx * T::kWN + j * T::kFrag], kLdB);
#pragma unroll
      for (int i = 0; i < T::kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < T::kFragsN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < T::kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < T::kFragsN; ++j) {
      wmma::store_matrix_sync(scratch[warp], acc[i][j], T::kFrag, wmma::mem_row_major);
      __syncwarp();
      const int frag_row = row0 + wy * T::kWM + i * T::kFrag, frag_col = col0 + wx * T::kWN + j * T::kFrag;
      for (int e = lane; e < T::kFrag * T::kFrag; e += 32) {
        const int row = frag_row + e / T::kFrag, col = frag_col + e % T::kFrag;
        if (row < m && col < n) c[static_cast<long>(row) * n + col] = scratch[warp][e];
      }
      __syncwarp();
    }
#else
  // Never launched: the host refuses cuda-tensor below cc 8.0 (min_compute_capability).
  (void)m, (void)n, (void)k, (void)a, (void)b, (void)c;
#endif
}

}  // namespace

void launch_tensor(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const __nv_bfloat16* a,
                   const __nv_bfloat16* b, float* c) {
  const dim3 grid(p.grid.x, p.grid.y), block(p.block.x);
  if (p.vector_loads)
    tensor_kernel<true><<<grid, block, 0, s>>>(m, n, k, a, b, c);
  else
    tensor_kernel<false><<<grid, block, 0, s>>>(m, n, k, a, b, c);
}

cudaError_t tensor_attributes(bool vector_loads, cudaFuncAttributes* out) {
  return vector_loads ? cudaFuncGetAttributes(out, tensor_kernel<true>) : cudaFuncGetAttributes(out, tensor_kernel<false>);
}

}  // namespace ws::kernels::cuda
