#include "cuda/launch_plan.hpp"

#include <algorithm>
#include <cmath>

#include "cuda/tile_layout.hpp"

namespace ws::kernels::cuda {

namespace {

unsigned blocks_for(int extent, int tile) { return static_cast<unsigned>((extent + tile - 1) / tile); }

LaunchPlan tiled_plan(int m, int n, int tile_m, int tile_n, int tile_k, Dim3 block) {
  LaunchPlan p;
  p.grid = {blocks_for(n, tile_n), blocks_for(m, tile_m), 1};
  p.block = block;
  p.tile_m = tile_m, p.tile_n = tile_n, p.tile_k = tile_k;
  p.edge_tiles = m % tile_m != 0 || n % tile_n != 0;
  return p;
}

void choose_vector_loads(LaunchPlan& p, int n, int k, int width, const char* what) {
  p.vector_loads = k % width == 0 && n % width == 0;
  if (!p.vector_loads) {
    const int bad = k % width != 0 ? k : n;
    p.note = std::string("scalar loads: ") + (k % width != 0 ? "k = " : "n = ") + std::to_string(bad) +
             " is not a multiple of " + std::to_string(width) + " (" + what + ")";
  } else {
    p.note = std::string("vector loads (") + what + ")";
  }
}

}  // namespace

const char* to_string(Kernel k) {
  switch (k) {
    case Kernel::naive: return "cuda-naive";
    case Kernel::tiled: return "cuda-tiled";
    case Kernel::regblock: return "cuda-regblock";
    case Kernel::warptiled: return "cuda-warptiled";
    case Kernel::tensor: return "cuda-tensor";
    case Kernel::cublas: return "cublas";
    case Kernel::cublas_tf32: return "cublas-tf32";
    case Kernel::cublas_bf16: return "cublas-bf16";
  }
  return "?";
}

std::optional<Kernel> parse_kernel(std::string_view name) {
  for (const Kernel k : kAllKernels)
    if (name == to_string(k)) return k;
  return std::nullopt;
}

bool is_cublas(Kernel k) { return k == Kernel::cublas || k == Kernel::cublas_tf32 || k == Kernel::cublas_bf16; }

bool reads_bf16(Kernel k) { return k == Kernel::tensor || k == Kernel::cublas_bf16; }

int min_compute_capability(Kernel k) { return reads_bf16(k) || k == Kernel::cublas_tf32 ? 80 : 75; }

int dynamic_shared_bytes(Kernel k) { return k == Kernel::tensor ? TensorLayout::kSharedBytes : 0; }

LaunchPlan plan_launch(Kernel kernel, int m, int n, int k) {
  switch (kernel) {
    case Kernel::naive: {
      // threadIdx.x runs along a row of C: a warp reads 16 consecutive B values (coalesced).
      LaunchPlan p = tiled_plan(m, n, 16, 16, 1, {16, 16, 1});
      return p;
    }
    case Kernel::tiled:
      return tiled_plan(m, n, 32, 32, 32, {32, 32, 1});
    case Kernel::regblock: {
      using L = RegblockLayout;
      LaunchPlan p = tiled_plan(m, n, L::kBM, L::kBN, L::kBK, {L::kThreadsX, L::kThreadsY, 1});
      choose_vector_loads(p, n, k, 4, "float4");
      return p;
    }
    case Kernel::warptiled: {
      using L = WarptiledLayout;
      LaunchPlan p = tiled_plan(m, n, L::kBM, L::kBN, L::kBK, {L::kThreads, 1, 1});
      choose_vector_loads(p, n, k, 4, "float4");
      return p;
    }
    case Kernel::tensor: {
      using L = TensorLayout;
      LaunchPlan p = tiled_plan(m, n, L::kBM, L::kBN, L::kBK, {L::kThreads, 1, 1});
      choose_vector_loads(p, n, k, 8, "8 bf16 per 16-byte load");
      return p;
    }
    case Kernel::cublas:
    case Kernel::cublas_tf32:
    case Kernel::cublas_bf16: break;
  }
  LaunchPlan p;
  p.grid = {0, 0, 0};
  p.block = {0, 0, 0};
  return p;
}

int rows_per_band(int m, int n, int k, double expected_gflops, double target_ms) {
  if (m <= kBandRowMultiple || expected_gflops <= 0 || target_ms <= 0) return m;
  const double ms_per_row = 2.0 * n * k / (expected_gflops * 1e6);
  if (ms_per_row * m <= 2.0 * target_ms) return m;  // short enough whole: no banding, no extra launches
  const int rows = static_cast<int>(std::floor(target_ms / ms_per_row / kBandRowMultiple)) * kBandRowMultiple;
  return std::clamp(rows, kBandRowMultiple, m);
}

}  // namespace ws::kernels::cuda
