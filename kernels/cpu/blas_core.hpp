// Whether OpenBLAS runs the kernel this CPU deserves. Debian 12's OpenBLAS 0.3.21 names recent
// Intel CPUs (Sapphire/Emerald Rapids) "Prescott" and runs an SSE3 sgemm on them; with
// OPENBLAS_CORETYPE set before the library initialises it runs SkylakeX instead.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cpu/cpu_features.hpp"

namespace ws::kernels::cpu {

// The OpenBLAS core (an OPENBLAS_CORETYPE value) for the best instruction set `f` can run:
// "SkylakeX" with AVX-512, "Zen" or "Haswell" with AVX2+FMA, "SandyBridge" with AVX only;
// nullopt below that (every core OpenBLAS might pick is as good).
std::optional<std::string> openblas_core_for(const CpuFeatures& f);

// 1 SSE, 2 AVX, 3 AVX2+FMA, 4 AVX-512 for the core names openblas_get_corename() reports
// (case-insensitive); nullopt for a name not in the table, which is then left alone.
std::optional<int> openblas_core_level(std::string_view core);

struct BlasCoreDecision {
  std::optional<std::string> set_coretype;  // the value to set; nullopt: leave OpenBLAS as it is
  std::string why;                          // one sentence, for logs and tests
};

// Pure: the CPU's features, the core OpenBLAS reported without help, and the user's
// OPENBLAS_CORETYPE (nullopt when unset). A value the user set is never overridden; a reported
// core is corrected only when it is known and older than what the CPU runs.
BlasCoreDecision decide_openblas_core(const CpuFeatures& f, std::string_view reported_core,
                                      const std::optional<std::string>& user_coretype);

// The environment variable that records, in the re-executed process, which core OpenBLAS had
// detected before warpscope set OPENBLAS_CORETYPE.
inline constexpr const char* kDetectedCoreVariable = "WARPSCOPE_OPENBLAS_DETECTED_CORE";

}  // namespace ws::kernels::cpu
