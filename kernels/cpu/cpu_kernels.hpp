// The CPU matrix multiplies behind the cpu-* kernel names. All take row-major operands and
// overwrite C (they never read it: the job runner poisons C with NaN before every run).
#pragma once

#include <cstddef>
#include <string>

#include "run_control.hpp"

namespace ws::kernels::cpu {

struct Gemm {
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;  // m x k
  const float* b = nullptr;  // k x n
  float* c = nullptr;        // m x n
};

// Each returns false when it stopped because of cancellation (C is then incomplete).
bool naive(const Gemm& g, const RunControl& control);

// `threads` >= 1. Returns how many threads it would really use for this shape (small problems
// are not worth splitting), so the result can report it.
int parallel_threads_for(const Gemm& g, int threads);
// Throws std::runtime_error when WARPSCOPE_CPU_MICROKERNEL asks for a kernel it cannot run.
bool parallel(const Gemm& g, int threads, const RunControl& control);
// cpu-parallel's two loop orders (parallel.cpp). shared_b: threads pack B for the whole depth
// into one shared panel and take (row block, column chunk) units. short_a, where A is short and B
// too large to stay in L3 (a layer's batch against its weights): A packed once for the whole
// depth and shared, each thread packing its own column chunks of B a depth block at a time.
// row_dots and row_broadcasts, where B has a few columns (a matrix times a vector): no packing, A
// read where it lies, threads take rows; each cell of C a dot product of a row of A with a column
// of B (for a long depth), or each element of A times a row of B (narrow_b.hpp). Row broadcasts
// also take a wide B, by column blocks (threads take rows and column blocks), where the kernel's
// broadcast blocks pay for it and B fits in cache (parallel.cpp).
enum class LoopOrder { automatic, shared_b, short_a, row_dots, row_broadcasts };
// What `parallel` takes for this shape on this CPU.
LoopOrder parallel_loop_order(const Gemm& g);
// Where that is row broadcasts of a wide B: the rows and columns of C each block of sums covers
// (AVX-512: 6 x 64, or 8 x 48 where that leaves fuller last blocks; parallel.cpp).
struct BroadcastBlock {
  int rows, columns;
};
BroadcastBlock parallel_broadcast_block(const Gemm& g);
// The same with a given micro-kernel (microkernel.hpp) and loop order; throws when this CPU cannot
// run the kernel.
enum class MicroKernelId;
bool parallel_with(MicroKernelId kernel, const Gemm& g, int threads, const RunControl& control,
                   LoopOrder order = LoopOrder::automatic);
// What cpu-parallel runs for this shape on this CPU, for `detail`: the micro-kernel the run-time
// dispatch picked and the blocking derived for it, with kShortANote where short_a runs; or, where
// row_dots or row_broadcasts runs, that order in place of the micro-kernel it does not use
// ("AVX-512 row dots: " + kNarrowBNote, or kWideBroadcastNote for a wide B).
std::string parallel_detail(const Gemm& g);
inline constexpr const char* kShortANote = "A packed once, B packed by column chunks";
inline constexpr const char* kNarrowBNote = "few columns of B, A read in place, no packing";
inline constexpr const char* kWideBroadcastNote = "A and B read in place, B by column blocks, no packing";
std::size_t parallel_workspace_bytes(const Gemm& g, int threads);

bool blas_available();
std::string blas_core_name();  // openblas_get_corename(), or "none"
bool blas(const Gemm& g, int threads, const RunControl& control);

}  // namespace ws::kernels::cpu
