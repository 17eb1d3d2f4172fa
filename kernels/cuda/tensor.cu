// cuda-tensor: tensor cores through the m16n8k16 BF16 MMA instruction (mma.sync, cc >= 8.0), FP32
// accumulation. Each block computes 128 x 128 of C with 4 warps of 64 x 64 (TensorLayout in
// tile_layout.hpp). A and B move from global to shared memory 32 deep per step through a ring of
// 4 stages: asynchronous 16-byte copies (cp.async) when k and n are multiples of 8, so the copies
// for later steps run while this step's MMAs do; plain loads otherwise. ldmatrix reads the MMA's
// operand fragments from shared memory (transposed for B, which is stored k-major). Copies past an
// edge of A or B fill zeros, and each lane stores only the cells of C inside it, so any M, N, K work.
// This is the Ampere-style kernel; Hopper's wgmma and TMA, which cuBLAS uses on an H100/H200, go
// further (docs/PERFORMANCE.md has the measured gap).

#include <cuda_bf16.h>

#include "cuda/device_kernels.cuh"
#include "cuda/tile_layout.hpp"

namespace ws::kernels::cuda {

namespace {

using T = TensorLayout;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared without passing through registers; `inside` false copies nothing and
// fills zeros (src-size 0), so `src` is never read then.
__device__ __forceinline__ void copy16_async(void* dst, const void* src, bool inside) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)), "l"(src),
               "r"(inside ? 16 : 0));
}
__device__ __forceinline__ void commit_copies() { asm volatile("cp.async.commit_group;\n" ::); }
// Waits until at most `kPending` committed groups of this thread's copies are still in flight.
template <int kPending>
__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

// Four 8x8 bf16 matrices, one 16-byte row address per lane (lanes 8i..8i+7 address matrix i).
__device__ __forceinline__ void load_matrices(unsigned (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row)));
}
__device__ __forceinline__ void load_matrices_transposed(unsigned (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(shared_address(row)));
}

// d += a (16x16, row-major fragment) * b (16x8, column-major fragment).
__device__ __forceinline__ void mma_16x8x16(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Starts filling stage `stage` with A's rows [row0, row0 + kBM) and B's columns [col0, col0 + kBN)
// of step `t` (k from t to t + kBK).
template <bool kAsync>
__device__ __forceinline__ void fill_stage(__nv_bfloat16* as, __nv_bfloat16* bs, int tid, int m, int n, int k,
                                           int row0, int col0, int t, const __nv_bfloat16* __restrict__ a,
                                           const __nv_bfloat16* __restrict__ b) {
  if constexpr (kAsync) {
#pragma unroll
    for (int l = 0; l < T::kBM * T::kBK / 8 / T::kThreads; ++l) {
      const int v = tid + l * T::kThreads, r = v / (T::kBK / 8), p = (v % (T::kBK / 8)) * 8;
      const bool inside = row0 + r < m && t + p < k;  // a vector is wholly inside or outside (k % 8 == 0)
      copy16_async(as + r * T::kLdA + p, inside ? a + static_cast<long>(row0 + r) * k + t + p : a, inside);
    }
#pragma unroll
    for (int l = 0; l < T::kBK * T::kBN / 8 / T::kThreads; ++l) {
      const int v = tid + l * T::kThreads, r = v / (T::kBN / 8), col = (v % (T::kBN / 8)) * 8;
      const bool inside = t + r < k && col0 + col < n;
      copy16_async(bs + r * T::kLdB + col, inside ? b + static_cast<long>(t + r) * n + col0 + col : b, inside);
    }
  } else {
    const __nv_bfloat16 zero = __ushort_as_bfloat16(0);
#pragma unroll 4
    for (int e = 0; e < T::kBM * T::kBK / T::kThreads; ++e) {
      const int idx = tid + e * T::kThreads, r = idx / T::kBK, p = idx % T::kBK;
      as[r * T::kLdA + p] = (row0 + r < m && t + p < k) ? a[static_cast<long>(row0 + r) * k + t + p] : zero;
    }
#pragma unroll 4
    for (int e = 0; e < T::kBK * T::kBN / T::kThreads; ++e) {
      const int idx = tid + e * T::kThreads, r = idx / T::kBN, col = idx % T::kBN;
      bs[r * T::kLdB + col] = (t + r < k && col0 + col < n) ? b[static_cast<long>(t + r) * n + col0 + col] : zero;
    }
  }
}
#endif

template <bool kAsync>
__global__ void __launch_bounds__(T::kThreads)
    tensor_kernel(int m, int n, int k, const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                  float* __restrict__ c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ __align__(128) unsigned char stages[];
  __nv_bfloat16* const as0 = reinterpret_cast<__nv_bfloat16*>(stages);
  __nv_bfloat16* const bs0 = as0 + T::kStages * T::kStageA;
  const int tid = threadIdx.x, lane = tid % 32;
  const int row0 = blockIdx.y * T::kBM, col0 = blockIdx.x * T::kBN;
  const int steps = (k + T::kBK - 1) / T::kBK;

  float acc[T::kTilesM][T::kTilesN][4] = {};

  // Prologue: the first kStages - 1 steps in flight. Every step commits a group, empty or not, so
  // that "all but kStages - 2 groups done" always means "this step's stage has arrived".
#pragma unroll
  for (int s = 0; s < T::kStages - 1; ++s) {
    if (s < steps)
      fill_stage<kAsync>(as0 + s * T::kStageA, bs0 + s * T::kStageB, tid, m, n, k, row0, col0, s * T::kBK, a, b);
    commit_copies();
  }

  // The row each lane addresses for ldmatrix: A's 16x16 fragment as matrices (rows 0-7 | 8-15) x
  // (k 0-7 | 8-15); B's 16(k) x 16(n) as (k 0-7 | 8-15) x (n 0-7 | 8-15), two n8 fragments.
  const int a_lane = (T::warp_y(tid) * T::kWM + lane % 16) * T::kLdA + (lane / 16) * 8;
  const int b_lane = (lane % 8 + ((lane / 8) % 2) * 8) * T::kLdB + T::warp_x(tid) * T::kWN + (lane / 16) * 8;

  for (int step = 0; step < steps; ++step) {
    wait_copies<T::kStages - 2>();
    __syncthreads();  // this step's stage is visible to all; the stage refilled below is no longer read
    if (const int next = step + T::kStages - 1; next < steps) {
      const int s = next % T::kStages;
      fill_stage<kAsync>(as0 + s * T::kStageA, bs0 + s * T::kStageB, tid, m, n, k, row0, col0, next * T::kBK, a, b);
    }
    commit_copies();

    const __nv_bfloat16* as = as0 + (step % T::kStages) * T::kStageA + a_lane;
    const __nv_bfloat16* bs = bs0 + (step % T::kStages) * T::kStageB + b_lane;
#pragma unroll
    for (int kk = 0; kk < T::kBK; kk += T::kMmaK) {
      unsigned fa[T::kTilesM][4], fb[T::kTilesN / 2][4];
#pragma unroll
      for (int i = 0; i < T::kTilesM; ++i) load_matrices(fa[i], as + i * T::kMmaM * T::kLdA + kk);
#pragma unroll
      for (int j = 0; j < T::kTilesN / 2; ++j) load_matrices_transposed(fb[j], bs + kk * T::kLdB + j * 2 * T::kMmaN);
#pragma unroll
      for (int i = 0; i < T::kTilesM; ++i)
#pragma unroll
        for (int j = 0; j < T::kTilesN; ++j) mma_16x8x16(acc[i][j], fa[i], fb[j / 2][(j % 2) * 2], fb[j / 2][(j % 2) * 2 + 1]);
    }
  }
  wait_copies<0>();

  // Lane (g, t) of a fragment holds rows g and g + 8, columns 2t and 2t + 1.
  const int g = lane / 4, t2 = (lane % 4) * 2;
#pragma unroll
  for (int i = 0; i < T::kTilesM; ++i)
#pragma unroll
    for (int j = 0; j < T::kTilesN; ++j) {
      const int col = col0 + T::warp_x(tid) * T::kWN + j * T::kMmaN + t2;
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = row0 + T::warp_y(tid) * T::kWM + i * T::kMmaM + g + h * 8;
        if (row >= m) continue;
        float* out = c + static_cast<long>(row) * n + col;
        if (kAsync && col + 1 < n) {  // n % 8 == 0: the pair is 8-byte aligned
          *reinterpret_cast<float2*>(out) = make_float2(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
        } else {
          if (col < n) out[0] = acc[i][j][2 * h];
          if (col + 1 < n) out[1] = acc[i][j][2 * h + 1];
        }
      }
    }
#else
  // Never launched: the host refuses cuda-tensor below cc 8.0 (min_compute_capability).
  (void)m, (void)n, (void)k, (void)a, (void)b, (void)c;
#endif
}

template <bool kAsync>
void launch(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const __nv_bfloat16* a, const __nv_bfloat16* b,
            float* c) {
  // Above 48 KiB a block must ask; the answer is checked by the launch's own error (launch_checked).
  if (cudaFuncSetAttribute(tensor_kernel<kAsync>, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSharedBytes) !=
      cudaSuccess)
    return;
  tensor_kernel<kAsync><<<dim3(p.grid.x, p.grid.y), dim3(p.block.x), T::kSharedBytes, s>>>(m, n, k, a, b, c);
}

}  // namespace

void launch_tensor(const LaunchPlan& p, cudaStream_t s, int m, int n, int k, const __nv_bfloat16* a,
                   const __nv_bfloat16* b, float* c) {
  if (p.vector_loads)
    launch<true>(p, s, m, n, k, a, b, c);
  else
    launch<false>(p, s, m, n, k, a, b, c);
}

cudaError_t tensor_attributes(bool vector_loads, cudaFuncAttributes* out) {
  return vector_loads ? cudaFuncGetAttributes(out, tensor_kernel<true>) : cudaFuncGetAttributes(out, tensor_kernel<false>);
}

}  // namespace ws::kernels::cuda
