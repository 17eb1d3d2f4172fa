// Which micro-kernel cpu-parallel runs: the fastest this CPU and its OS support, or the one
// WARPSCOPE_CPU_MICROKERNEL names.

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {

namespace {

// The widest row broadcasts' block for a register count: its columns (in vectors) and rows.
constexpr int widest_vectors(int registers) { return narrow_b_detail::broadcast_vectors(registers); }
constexpr int widest_rows(int registers) { return narrow_b_detail::block_rows(registers, widest_vectors(registers)); }
constexpr int narrower_rows(int registers) {
  return narrow_b_detail::block_rows(registers, std::max(1, widest_vectors(registers) - 1));
}

// Each: the micro-kernel, then the same instruction set's narrow-B kernels, its vector width, the
// widest row broadcasts (from its register count), the cost of a cell's final sum in row dots,
// the widest broadcasts' rows and those of one vector fewer, and where they take a wide B too.
const MicroKernelSpec kSpecs[] = {
    {MicroKernelId::avx512, "AVX-512 14x32 micro-kernel", "AVX-512", "avx512", kMR512, kNR512, microkernel_avx512,
     row_dots_avx512, row_broadcasts_avx512, 16, 16 * widest_vectors(32), 12, widest_rows(32), narrower_rows(32), WideBroadcasts::in_cache},
    {MicroKernelId::avx2, "AVX2+FMA 6x16 micro-kernel", "AVX2+FMA", "avx2", kMR, kNR, microkernel_avx2,
     row_dots_avx2, row_broadcasts_avx2, 8, 8 * widest_vectors(16), 4, widest_rows(16), narrower_rows(16), WideBroadcasts::small_products},
    {MicroKernelId::portable, "portable 6x16 micro-kernel", "portable", "portable", kMR, kNR, microkernel_portable,
     row_dots_portable, row_broadcasts_portable, 8, 8 * widest_vectors(8), 4, widest_rows(8), narrower_rows(8), WideBroadcasts::never},
};

const char* kForceVariable = "WARPSCOPE_CPU_MICROKERNEL";

}  // namespace

const MicroKernelSpec& microkernel_spec(MicroKernelId id) {
  for (const auto& spec : kSpecs)
    if (spec.id == id) return spec;
  return kSpecs[2];
}

bool cpu_can_run(MicroKernelId id, const CpuFeatures& f) {
  switch (id) {
    case MicroKernelId::avx512: return can_run_avx512(f);
    case MicroKernelId::avx2: return can_run_avx2_fma(f);
    case MicroKernelId::portable: return true;
  }
  return false;
}

MicroKernelId choose_microkernel(const CpuFeatures& f) {
  if (can_run_avx512(f)) return MicroKernelId::avx512;
  if (can_run_avx2_fma(f)) return MicroKernelId::avx2;
  return MicroKernelId::portable;
}

std::optional<MicroKernelId> microkernel_by_key(std::string_view key) {
  for (const auto& spec : kSpecs)
    if (key == spec.key) return spec.id;
  return std::nullopt;
}

namespace {

// What the variable asks for: the spec it names, or why it cannot be had.
struct Forced {
  const MicroKernelSpec* spec = nullptr;  // null: none asked for, or refused
  std::optional<std::string> refusal;
};

Forced read_forced_microkernel() {
  const char* forced = std::getenv(kForceVariable);
  if (forced == nullptr || *forced == '\0') return {};
  const auto id = microkernel_by_key(forced);
  if (!id)
    return {nullptr, std::string(kForceVariable) + "=" + forced + " names no micro-kernel (avx512, avx2 or portable)"};
  if (!cpu_can_run(*id, this_cpu_features()))
    return {nullptr, std::string(kForceVariable) + "=" + forced + ": the " + microkernel_spec(*id).name +
                         " cannot run on this CPU (" + simd_name(this_cpu_features()) + ")"};
  return {&microkernel_spec(*id), std::nullopt};
}

// What every run uses, settled when first asked. A user sets the variable before the program
// starts; reading it on every run cost about a sixth of a 16^3 run (getenv walks the whole
// environment: docs/PERFORMANCE.md, "The kernel choice read once").
struct Choice {
  Forced forced;
  const MicroKernelSpec* active;  // the forced spec, else the one this CPU runs best
};

Choice make_choice() {
  Forced forced = read_forced_microkernel();
  const MicroKernelSpec* active =
      forced.spec != nullptr ? forced.spec : &microkernel_spec(choose_microkernel(this_cpu_features()));
  return {std::move(forced), active};
}

Choice& choice() {
  static Choice c = make_choice();
  return c;
}

}  // namespace

void reread_microkernel_variable() { choice() = make_choice(); }

std::optional<std::string> microkernel_refusal() { return choice().forced.refusal; }

const MicroKernelSpec& active_microkernel() { return *choice().active; }

const MicroKernelSpec& runnable_microkernel() {
  const Choice& c = choice();
  if (c.forced.refusal) throw std::runtime_error(*c.forced.refusal);
  return *c.active;
}

}  // namespace ws::kernels::cpu
