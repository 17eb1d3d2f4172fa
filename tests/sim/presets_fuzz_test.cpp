// Robustness of what sim reads and computes from outside input: thousands of randomly broken
// preset files never crash the parser and always either give a preset that keeps the parser's
// promises or an error naming the file, never both; random launches never crash the occupancy
// calculator. Fixed seeds, so a failure can be replayed.
#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "../support/mutate.hpp"

#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"

using namespace ws::sim;

namespace {

constexpr std::string_view kTokens[] = {
    "[", "]", "[[", "]]", "=", "\"", "\"\"\"", "'", "{", "}", ",", "\n", "#", ".", "\\", "\\u", "-", "+", "inf",
    "nan", "-inf", "1e400", "99999999999999999999", "-2147483649", "2147483648", "0", "-1", "true", "1979-05-27",
    "[model]\n", "[model.x]\n", "\t", "\r", std::string_view("\0", 1), "\xff", "\xed\xa0\x80", "\"9.0\"", "\"9\"",
    "\"x.y\"", "\"99999999999.0\"", "sm_count = ", "clock_mhz = ", "fma_latency = ", "compute_capability = ",
    "[tensor]\n", "[tensor.bf16]\n", "tensor = ", "cores_per_sm = ", "flops_per_clock_per_core = ",
};

std::vector<std::string> files_in(const std::string& sub) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(presets_dir() + "/" + sub))
    if (e.path().extension() == ".toml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Either a preset or an error, never both: a returned preset must keep what the parser checks,
// a thrown error must name the file.
template <class P>
bool parses(P (*parse)(std::string_view, const std::string&), const std::string& text, P& out) {
  try {
    out = parse(text, "fuzz.toml");
    return true;
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("fuzz.toml", 0), 0u) << what;
    EXPECT_GT(what.size(), std::string("fuzz.toml: ").size()) << "an error that says nothing";
    return false;
  }
}

}  // namespace

TEST(PresetFuzz, BrokenGpuPresetsNeverCrash) {
  const auto files = files_in("gpus");
  ASSERT_GE(files.size(), 5u);
  std::vector<std::string> sources;
  for (const auto& f : files) sources.push_back(slurp(f));
  std::mt19937 rng(20250117u);
  int accepted = 0;
  constexpr int kCases = 20000;
  for (int i = 0; i < kCases; ++i) {
    SCOPED_TRACE(i);
    const std::string text = ws::test_support::mutate(sources[static_cast<std::size_t>(i) % sources.size()], rng, kTokens, true);
    GpuPreset p;
    if (parses(&parse_gpu_preset, text, p)) {
      ++accepted;
      ASSERT_FALSE(p.id.empty() && p.name.empty() && p.source.empty()) << "a preset without its required strings";
      ASSERT_GT(p.sm_count, 0);
      ASSERT_GT(p.fp32_lanes_per_sm, 0);
      ASSERT_GT(p.schedulers_per_sm, 0);
      ASSERT_GT(p.clock_mhz, 0);
      ASSERT_GT(p.memory_bandwidth_gbs, 0);
      ASSERT_GE(p.latency.fma, 1);
      ASSERT_GE(p.latency.dram, 0);
      ASSERT_TRUE(std::isfinite(p.peak_gflops())) << p.peak_gflops();
      ASSERT_TRUE(std::isfinite(p.dram_bytes_per_cycle()));
      // Tensor cores: either none, or a count, a clock and a figure to show, all finite.
      if (p.has_tensor_cores()) {
        ASSERT_GT(p.tensor.generation, 0);
        ASSERT_GT(p.tensor.clock_mhz, 0);
        ASSERT_FALSE(p.tensor.source.empty());
        ASSERT_NE(p.tensor_headline(), nullptr);
        for (const TensorFormat* f : {&p.tensor.fp16, &p.tensor.bf16, &p.tensor.tf32}) {
          ASSERT_TRUE(std::isfinite(p.tensor_peak_gflops(*f)));
          if (f->supported()) {
            ASSERT_GT(p.tensor_peak_gflops(*f), 0);
            ASSERT_FALSE(f->source.empty());
          }
        }
      } else {
        ASSERT_EQ(p.tensor_headline(), nullptr);
      }
      (void)p.cc_string();
    }
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  // Both outcomes must be exercised, or the mutations are too weak or too strong.
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, kCases);
}

TEST(PresetFuzz, BrokenCpuPresetsNeverCrash) {
  const auto files = files_in("cpus");
  ASSERT_GE(files.size(), 3u);
  std::vector<std::string> sources;
  for (const auto& f : files) sources.push_back(slurp(f));
  std::mt19937 rng(4242u);
  int accepted = 0;
  constexpr int kCases = 15000;
  for (int i = 0; i < kCases; ++i) {
    SCOPED_TRACE(i);
    const std::string text = ws::test_support::mutate(sources[static_cast<std::size_t>(i) % sources.size()], rng, kTokens, true);
    CpuPreset p;
    if (parses(&parse_cpu_preset, text, p)) {
      ++accepted;
      ASSERT_GT(p.cores, 0);
      ASSERT_GT(p.fp32_lanes, 0);
      ASSERT_GT(p.fma_units, 0);
      ASSERT_GT(p.base_clock_ghz, 0);
      ASSERT_GT(p.miss_overlap, 0);
      ASSERT_TRUE(std::isfinite(p.peak_gflops())) << p.peak_gflops();
    }
    if (HasFatalFailure() || HasNonfatalFailure()) return;
  }
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, kCases);
}

TEST(PresetFuzz, RandomBytesAreRefused) {
  std::mt19937 rng(99u);
  for (int i = 0; i < 500; ++i) {
    std::string text(std::uniform_int_distribution<std::size_t>(0, 400)(rng), '\0');
    for (char& c : text) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    GpuPreset g;
    CpuPreset c;
    EXPECT_FALSE(parses(&parse_gpu_preset, text, g));
    EXPECT_FALSE(parses(&parse_cpu_preset, text, c));
    if (HasFailure()) return;
  }
}

TEST(OccupancyFuzz, RandomLaunchesNeverCrash) {
  std::mt19937 rng(31337u);
  const auto& ccs = supported_ccs();
  auto any_int = [&] {
    switch (std::uniform_int_distribution<int>(0, 3)(rng)) {
      case 0: return std::uniform_int_distribution<int>(-4, 4)(rng);
      case 1: return std::uniform_int_distribution<int>(0, 2048)(rng);
      case 2: return std::uniform_int_distribution<int>(0, 1 << 30)(rng);
      default: return std::uniform_int_distribution<int>(INT_MIN, INT_MAX)(rng);
    }
  };
  int refused_cc = 0, ran = 0;
  for (int i = 0; i < 20000; ++i) {
    SCOPED_TRACE(i);
    int major = 0, minor = 0;
    if (i % 4 == 0) {
      major = any_int();
      minor = any_int();
    } else {
      std::tie(major, minor) = ccs[static_cast<std::size_t>(i) % ccs.size()];
    }
    CcLimits l;
    try {
      l = cc_limits(major, minor);
    } catch (const std::invalid_argument& e) {
      ++refused_cc;
      ASSERT_NE(std::string(e.what()).find("unknown compute capability"), std::string::npos);
      continue;
    }
    const OccupancyInput in{any_int(), any_int(), any_int()};
    OccupancyResult r;
    try {
      r = compute_occupancy(l, in);
    } catch (const std::invalid_argument& e) {
      ASSERT_TRUE(in.block_size < 1 || in.regs_per_thread < 0 || in.smem_per_block < 0) << e.what();
      continue;
    }
    ++ran;
    ASSERT_GE(r.active_blocks_per_sm, 0);
    ASSERT_LE(r.active_blocks_per_sm, l.max_blocks_per_sm);
    ASSERT_LE(r.active_warps_per_sm, r.max_warps_per_sm);
    ASSERT_GE(r.occupancy, 0.0);
    ASSERT_LE(r.occupancy, 1.0);
    ASSERT_FALSE(r.limiters.empty());
    ASSERT_EQ(r.active_blocks_per_sm == 0, !r.reason.empty()) << r.reason;
  }
  EXPECT_GT(refused_cc, 0);
  EXPECT_GT(ran, 1000);
}
