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
// The same with a given micro-kernel (microkernel.hpp); throws when this CPU cannot run it.
enum class MicroKernelId;
bool parallel_with(MicroKernelId kernel, const Gemm& g, int threads, const RunControl& control);
// The micro-kernel the run-time dispatch picked and the blocking derived for it, for `detail`.
std::string parallel_microkernel_name();
std::size_t parallel_workspace_bytes(const Gemm& g, int threads);

bool blas_available();
std::string blas_core_name();  // openblas_get_corename(), or "none"
bool blas(const Gemm& g, int threads, const RunControl& control);

}  // namespace ws::kernels::cpu
