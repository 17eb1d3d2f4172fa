// How each CUDA kernel is launched for an m x n x k product, decided on the host by pure functions
// so that the CPU tests check every grid, block, tile and fallback without a GPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ws::kernels::cuda {

enum class Kernel { naive, tiled, regblock, warptiled, tensor, cublas, cublas_tf32, cublas_bf16 };

const char* to_string(Kernel k);  // the registry name: "cuda-naive", ..., "cublas-bf16"
// The CUDA kernel of a registry name; nullopt for every other kernel (cpu-*, gl-*).
std::optional<Kernel> parse_kernel(std::string_view name);
inline constexpr Kernel kAllKernels[] = {Kernel::naive,  Kernel::tiled,  Kernel::regblock,    Kernel::warptiled,
                                         Kernel::tensor, Kernel::cublas, Kernel::cublas_tf32, Kernel::cublas_bf16};
bool is_cublas(Kernel k);
bool reads_bf16(Kernel k);        // A and B uploaded as bf16 (cuda-tensor, cublas-bf16)
// Oldest compute capability (major * 10 + minor) the kernel runs on: 80 for the BF16 tensor-core
// kernels, 75 (the oldest built) for the rest.
int min_compute_capability(Kernel k);
// Shared memory a block of `k` takes at launch beyond its static arrays (cuda-tensor's stages);
// ptxas and cudaFuncGetAttributes count only the static part.
int dynamic_shared_bytes(Kernel k);

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  bool operator==(const Dim3& o) const { return x == o.x && y == o.y && z == o.z; }  // C++17: nvcc's dialect
};

struct LaunchPlan {
  Dim3 grid, block;
  int tile_m = 1, tile_n = 1, tile_k = 1;  // C tile per block, depth of one shared-memory step
  // Whether A and B are read with 16-byte vector loads (float4, or 8 bf16). Needs k and n to be
  // multiples of the vector width so a row never starts mid-vector; otherwise scalar loads.
  bool vector_loads = false;
  // Whether some blocks hang over the edge of C (m or n not a multiple of the tile): those guard
  // their loads (zeros outside A and B) and stores.
  bool edge_tiles = false;
  std::string note;  // for Outcome detail, e.g. "scalar loads: k = 1025 is not a multiple of 4"
};

// The launch of one kernel for rows [0, m) of C; cuBLAS kernels get a plan with no grid (cuBLAS
// chooses its own) but the same fields for vector loads and edges (none of our concern: empty note).
LaunchPlan plan_launch(Kernel kernel, int m, int n, int k);

// A long run is split into bands of C rows, one launch each, so that a cancel waits for at most
// the two bands in flight (about 2 x target_ms) instead of a whole 16384^3 naive run. Rows per band
// are a multiple of 128 (every kernel's tile height; keeps bands' pointers 16-byte aligned), or m
// when one band is short enough. `expected_gflops` is the speed the estimate assumes.
int rows_per_band(int m, int n, int k, double expected_gflops, double target_ms = 50.0);
inline constexpr int kBandRowMultiple = 128;

}  // namespace ws::kernels::cuda
