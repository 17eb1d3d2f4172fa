// OpenBLAS core check: the pure decision, and the re-exec that applies it before OpenBLAS loads.

#include "cpu/blas_core.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "warpscope/kernels/blas_core.hpp"

#ifdef WARPSCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace ws::kernels::cpu {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool is_amd_like(const CpuFeatures& f) { return f.vendor == "AuthenticAMD" || f.vendor == "HygonGenuine"; }

const char* level_name(int level) {
  switch (level) {
    case 4: return "AVX-512";
    case 3: return "AVX2+FMA";
    case 2: return "AVX";
    default: return "SSE";
  }
}

}  // namespace

std::optional<std::string> openblas_core_for(const CpuFeatures& f) {
  if (can_run_avx512(f)) return "SkylakeX";
  if (can_run_avx2_fma(f)) return is_amd_like(f) ? "Zen" : "Haswell";
  if (f.avx && f.os_saves_ymm) return "SandyBridge";
  return std::nullopt;
}

std::optional<int> openblas_core_level(std::string_view core) {
  // The x86-64 names of OpenBLAS 0.3.21's DYNAMIC_ARCH cores (driver/others/dynamic.c), grouped
  // by the newest instruction set their sgemm kernel uses.
  static const char* const kSse[] = {"prescott", "core2", "penryn", "dunnington", "nehalem", "atom",
                                     "opteron", "opteron_sse3", "barcelona", "bobcat", "nano",
                                     "katmai", "coppermine", "northwood", "banias", "athlon"};
  static const char* const kAvx[] = {"sandybridge", "bulldozer", "piledriver", "steamroller", "excavator"};
  static const char* const kAvx2[] = {"haswell", "zen", "skylake"};
  static const char* const kAvx512[] = {"skylakex", "cooperlake", "sapphirerapids"};
  const std::string name = lower(core);
  for (const char* n : kSse)
    if (name == n) return 1;
  for (const char* n : kAvx)
    if (name == n) return 2;
  for (const char* n : kAvx2)
    if (name == n) return 3;
  for (const char* n : kAvx512)
    if (name == n) return 4;
  return std::nullopt;
}

BlasCoreDecision decide_openblas_core(const CpuFeatures& f, std::string_view reported_core,
                                      const std::optional<std::string>& user_coretype) {
  if (user_coretype && !user_coretype->empty())
    return {std::nullopt, "OPENBLAS_CORETYPE=" + *user_coretype + " was set by the user: left alone"};
  const auto wanted = openblas_core_for(f);
  if (!wanted) return {std::nullopt, "this CPU has no AVX: any OpenBLAS core is as good"};
  const auto reported = openblas_core_level(reported_core);
  if (!reported)
    return {std::nullopt, "OpenBLAS reported \"" + std::string(reported_core) + "\", a core not in the table: left alone"};
  const int cpu_level = *openblas_core_level(*wanted);
  if (*reported >= cpu_level)
    return {std::nullopt, "OpenBLAS's " + std::string(reported_core) + " core uses " + level_name(*reported) +
                              ", all this CPU has"};
  return {wanted, "OpenBLAS detected " + std::string(reported_core) + " (" + level_name(*reported) +
                      ") on a CPU with " + level_name(cpu_level) + ": use " + *wanted};
}

}  // namespace ws::kernels::cpu

namespace ws::kernels {

#ifdef WARPSCOPE_HAVE_OPENBLAS

namespace {

bool same_core(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](unsigned char x, unsigned char y) { return std::tolower(x) == std::tolower(y); });
}

std::string reported_core() {
  const char* name = openblas_get_corename();
  return name != nullptr ? name : "unknown";
}

// "OpenBLAS 0.3.21" from "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64".
std::string openblas_version() {
  const char* config = openblas_get_config();
  if (config == nullptr) return "OpenBLAS";
  const std::string text = config;
  const auto second_space = text.find(' ', text.find(' ') + 1);
  return text.substr(0, second_space);
}

}  // namespace

void use_right_openblas_core(char** argv) {
  if (std::getenv(cpu::kDetectedCoreVariable) != nullptr) return;  // already re-executed once
  const char* user = std::getenv("OPENBLAS_CORETYPE");
  const std::optional<std::string> user_value = user != nullptr ? std::optional<std::string>(user) : std::nullopt;
  const std::string detected = reported_core();
  const cpu::BlasCoreDecision decision = cpu::decide_openblas_core(cpu::this_cpu_features(), detected, user_value);
  if (!decision.set_coretype) return;
  setenv("OPENBLAS_CORETYPE", decision.set_coretype->c_str(), 1);
  setenv(cpu::kDetectedCoreVariable, detected.c_str(), 1);
  execv("/proc/self/exe", argv);
  // exec failed (no /proc, say): carry on with the core OpenBLAS picked, and say nothing was corrected.
  unsetenv("OPENBLAS_CORETYPE");
  unsetenv(cpu::kDetectedCoreVariable);
}

std::string blas_core_detected() {
  const char* detected = std::getenv(cpu::kDetectedCoreVariable);
  return detected != nullptr ? detected : "";
}

BlasCoreState blas_core_state() {
  BlasCoreState state;
  state.core = reported_core();
  state.version = openblas_version();
  state.detected = blas_core_detected();
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  state.coretype = coretype != nullptr ? coretype : "";
  state.coretype_by_user = state.detected.empty() && !state.coretype.empty();
  state.coretype_ignored = !state.detected.empty() && !same_core(state.core, state.coretype);
  const auto wanted = cpu::openblas_core_for(cpu::this_cpu_features());
  const auto running = cpu::openblas_core_level(state.core);
  if (wanted && running) {
    const int cpu_level = cpu::openblas_core_level(*wanted).value_or(0);
    if (*running < cpu_level) {
      state.core_isa = cpu::level_name(*running);
      state.cpu_isa = cpu::level_name(cpu_level);
    }
  }
  return state;
}

#else

void use_right_openblas_core(char**) {}
std::string blas_core_detected() { return ""; }
BlasCoreState blas_core_state() { return {"none", "", "", "", false, false, "", ""}; }

#endif

std::string blas_core_note() {
  const BlasCoreState s = blas_core_state();
  if (!s.detected.empty())
    return s.core + " (" + s.version + (s.coretype_ignored ? " ignored OPENBLAS_CORETYPE=" + s.coretype : " detected " + s.detected) + ")";
  const std::string older = s.core_isa.empty() ? "" : ": " + s.core_isa + " on a CPU with " + s.cpu_isa;
  if (s.coretype_by_user) return s.core + " (OPENBLAS_CORETYPE=" + s.coretype + " set by the user" + older + ")";
  return s.core;
}

}  // namespace ws::kernels
