// The register-blocked inner kernels of cpu-parallel, their packed-panel layout and the run-time
// choice between them: AVX-512 14x32 (microkernel_avx512.cpp), AVX2 6x16 (microkernel_avx2.cpp)
// and the portable 6x16 (parallel.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cpu/cpu_features.hpp"
#include "cpu/narrow_b.hpp"

namespace ws::kernels::cpu {

// Computes the mr_max x nr_max product of a packed A micro-panel (kc steps of mr_max values) and a
// packed B micro-panel (kc steps of nr_max values), then writes its top-left mr x nr corner into
// C (row stride ldc): C = tile when !accumulate (C may hold NaN poison), C += tile otherwise.
using MicroKernel = void (*)(int kc, const float* a, const float* b, float* c, long ldc, int mr,
                             int nr, bool accumulate);

// The portable and AVX2 tiles: 6x16 is 12 ymm accumulators (6 rows x two 8-wide vectors) plus
// two for the B row and one for the broadcast A value, 15 of the 16 ymm registers.
inline constexpr int kMR = 6;
inline constexpr int kNR = 16;
// The AVX-512 tile: 14x32 is 28 zmm accumulators + 2 for B + 1 broadcast = 31 of 32 registers,
// 28 independent FMAs per depth step, enough to cover 4-cycle latency on two FMA ports.
inline constexpr int kMR512 = 14;
inline constexpr int kNR512 = 32;

void microkernel_portable(int kc, const float* a, const float* b, float* c, long ldc, int mr,
                          int nr, bool accumulate);
// Only call when can_run_avx2_fma(this_cpu_features()).
void microkernel_avx2(int kc, const float* a, const float* b, float* c, long ldc, int mr, int nr,
                      bool accumulate);
// Only call when can_run_avx512(this_cpu_features()).
void microkernel_avx512(int kc, const float* a, const float* b, float* c, long ldc, int mr, int nr,
                        bool accumulate);

enum class MicroKernelId { avx512, avx2, portable };

// Where a kernel's row broadcasts also take a wide B, by column blocks: AVX-512's blocks of 6
// rows x 4 vectors for any A where B stays in cache (docs/PERFORMANCE.md, "Row broadcasts for
// any A"); AVX2's 3 x 3 lose to its micro-kernel there (1024^3: 36 GFLOP/s against 105) but win
// where packing costs more than it saves: products up to 64^3 and A of a few rows against a B
// that fits in L2 ("AVX2's row broadcasts for small products").
enum class WideBroadcasts { never, small_products, in_cache };

struct MicroKernelSpec {
  MicroKernelId id;
  const char* name;  // for `detail`: "AVX-512 14x32 micro-kernel", ...
  const char* isa;   // the instruction set alone, for the row orders' `detail`: "AVX-512", ...
  const char* key;   // for WARPSCOPE_CPU_MICROKERNEL: "avx512", "avx2", "portable"
  int mr, nr;
  MicroKernel run;
  // The same instruction set's kernels for a B of few columns (narrow_b.hpp); broadcasts take at
  // most `broadcast_columns` columns.
  NarrowB row_dots, row_broadcasts;
  int width;  // floats in one vector
  int broadcast_columns;  // the widest B row broadcasts take: narrow_b_detail::broadcast_vectors()
  // What the sum across a vector's lanes that ends each cell of row dots costs, in vector FMAs:
  // fitted to measurements (docs/PERFORMANCE.md, "Few columns of B: dots or broadcasts").
  int cell_sum_cost;
  int broadcast_rows;  // rows of the widest row-broadcast block: narrow_b_detail::block_rows()
  int narrower_broadcast_rows;  // rows of a row-broadcast block one vector narrower
  // Where row broadcasts over column blocks of B beat this micro-kernel (parallel.cpp,
  // wide_broadcasts_pay).
  WideBroadcasts wide_broadcasts;
};

const MicroKernelSpec& microkernel_spec(MicroKernelId id);
// The fastest kernel `f` can run. Pure: tests feed every feature combination.
MicroKernelId choose_microkernel(const CpuFeatures& f);
bool cpu_can_run(MicroKernelId id, const CpuFeatures& f);
std::optional<MicroKernelId> microkernel_by_key(std::string_view key);

// What cpu-parallel uses on this CPU: choose_microkernel(), unless WARPSCOPE_CPU_MICROKERNEL names
// one (to compare kernels on one machine, or to test each). The variable is read when first
// asked, and again only after reread_microkernel_variable().
const MicroKernelSpec& active_microkernel();
// For a test that has just set or unset the variable: read it again. Not while a run is going.
void reread_microkernel_variable();
// Why cpu-parallel refuses to run: the variable names an unknown kernel or one this CPU cannot
// run (then active_microkernel() falls back to the chosen one, for sizes and labels only).
std::optional<std::string> microkernel_refusal();
// What a run uses: active_microkernel(), or std::runtime_error with microkernel_refusal()'s
// reason.
const MicroKernelSpec& runnable_microkernel();

}  // namespace ws::kernels::cpu
