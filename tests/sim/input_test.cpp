// Bad input to the simulator library: compute capabilities the occupancy tables do not list are
// refused (never answered from a neighbour), and preset paths that name a FIFO, a device, a
// directory or an oversized file are refused before they are read.
#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "../lesson/input_deadline.hpp"
#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"

namespace fs = std::filesystem;
using namespace ws::sim;
using namespace std::chrono_literals;

namespace {

std::string invalid_argument_message(int major, int minor) {
  try {
    (void)cc_limits(major, minor);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

std::string load_error(const std::string& path) {
  try {
    (void)load_gpu_preset(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no exception)";
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class PresetInput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("warpscope-preset-input-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

const std::string kH100 = presets_dir() + "/gpus/h100.toml";

}  // namespace

TEST(OccupancyInput, UnlistedCapabilitiesAreRefusedWithTheSupportedList) {
  const std::string list = supported_ccs_text();
  EXPECT_EQ(list.rfind("1.3, 2.0, 2.1, 3.0, ", 0), 0u) << list;
  EXPECT_NE(list.find(", 8.6, "), std::string::npos) << list;
  EXPECT_NE(list.find(", 12.1"), std::string::npos) << list;
  // 1.0-1.2 had G80 register rules the table does not model; 8.5 and 4.0 never existed; the
  // rest is nonsense that must not overflow on the way to the error.
  for (const auto& [major, minor] : std::vector<std::pair<int, int>>{
           {1, 0}, {1, 1}, {1, 2}, {8, 5}, {9, 1}, {4, 0}, {0, 0}, {13, 0}, {8, -1}, {-8, 6}, {INT_MAX, INT_MAX},
           {INT_MIN, 0}}) {
    EXPECT_EQ(invalid_argument_message(major, minor),
              "unknown compute capability " + std::to_string(major) + "." + std::to_string(minor) +
                  "; supported: " + list);
  }
}

TEST(OccupancyInput, EverySupportedCapabilityHasItsOwnLimits) {
  ASSERT_GE(supported_ccs().size(), 20u);
  for (const auto& [major, minor] : supported_ccs()) {
    SCOPED_TRACE(std::to_string(major) + "." + std::to_string(minor));
    const CcLimits l = cc_limits(major, minor);
    EXPECT_EQ(l.major, major);
    EXPECT_EQ(l.minor, minor);
    EXPECT_GT(l.max_warps_per_sm(), 0);
    EXPECT_GT(l.regs_per_sm, 0);
    EXPECT_GT(l.smem_per_sm, 0);
  }
  // Every GPU a lesson or the window can pick must be answerable.
  for (const auto& g : gpu_presets()) EXPECT_NO_THROW((void)cc_limits(g.cc_major, g.cc_minor)) << g.id;
}

TEST(OccupancyInput, ExtremeLaunchesAreRefusedWithoutOverflow) {
  // The CLI's own upper bounds: 2^20 threads x 100000 registers overflowed int (caught by UBSan)
  // and could come out as a positive number of blocks.
  for (const auto& [major, minor] : supported_ccs()) {
    SCOPED_TRACE(std::to_string(major) + "." + std::to_string(minor));
    const CcLimits l = cc_limits(major, minor);
    for (const OccupancyInput in : {OccupancyInput{1 << 20, 100000, 1 << 30}, OccupancyInput{INT_MAX, INT_MAX, INT_MAX},
                                    OccupancyInput{32, INT_MAX, 0}, OccupancyInput{32, 0, INT_MAX}}) {
      const OccupancyResult r = compute_occupancy(l, in);
      EXPECT_EQ(r.active_blocks_per_sm, 0);
      EXPECT_EQ(r.occupancy, 0.0);
      EXPECT_FALSE(r.reason.empty());
      EXPECT_GE(r.allocated_regs_per_block, 0);
      EXPECT_GE(r.allocated_smem_per_block, 0);
    }
  }
  const OccupancyResult r = compute_occupancy(cc_limits(8, 6), {32, 0, INT_MAX});
  EXPECT_EQ(r.reason, "the block needs 2147484672 bytes of shared memory (with rounding and driver reserve), "
                      "more than the 101376 a block may have");
}

TEST_F(PresetInput, TextAndFileGiveTheSamePreset) {
  const GpuPreset from_file = load_gpu_preset(kH100);
  const GpuPreset from_text = parse_gpu_preset(slurp(kH100), kH100);
  EXPECT_EQ(from_text.id, "h100");
  EXPECT_EQ(from_text.sm_count, from_file.sm_count);
  EXPECT_EQ(from_text.latency.dram, from_file.latency.dram);
  EXPECT_EQ(from_text.source, from_file.source);
}

TEST_F(PresetInput, AFifoIsRefusedNotWaitedOn) {
  const fs::path p = dir_ / "gpu.toml";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  ASSERT_TRUE(ws::test::returns_within(5s, [&] { (void)load_error(p.string()); })) << "loading a FIFO blocked";
  EXPECT_EQ(load_error(p.string()), p.string() + ": is not a regular file, not a preset file");
}

TEST_F(PresetInput, DevicesAndDirectoriesAreRefused) {
  ASSERT_TRUE(ws::test::returns_within(5s, [] { (void)load_error("/dev/urandom"); }));
  EXPECT_EQ(load_error("/dev/urandom"), "/dev/urandom: is not a regular file, not a preset file");
  EXPECT_EQ(load_error(dir_.string()), dir_.string() + ": is not a regular file, not a preset file");
  EXPECT_EQ(load_error((dir_ / "missing.toml").string()),
            (dir_ / "missing.toml").string() + ": cannot open the preset file (No such file or directory)");
}

TEST_F(PresetInput, AFileOverTheLimitIsRefused) {
  // A valid preset padded with a comment: only the size can be the reason.
  std::string text = slurp(kH100);
  ASSERT_FALSE(text.empty());
  text += "#" + std::string(kMaxPresetBytes - text.size() - 2, 'x') + "\n";
  const fs::path at_limit = dir_ / "at-limit.toml";
  std::ofstream(at_limit, std::ios::binary) << text;
  EXPECT_EQ(load_gpu_preset(at_limit.string()).id, "h100");
  const fs::path over = dir_ / "over.toml";
  std::ofstream(over, std::ios::binary) << text << "\n";
  EXPECT_EQ(load_error(over.string()), over.string() + ": is too large for a preset file (" +
                                           std::to_string(kMaxPresetBytes + 1) + " bytes; the limit is 1 MiB)");
}

TEST_F(PresetInput, ParseErrorsNameTheLine) {
  try {
    (void)parse_gpu_preset("id = \"x\"\nname = \n", "bad.toml");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("bad.toml:2:", 0), 0u) << e.what();
  }
}

TEST_F(PresetInput, NumbersThatWouldBreakTheModelAreRefused) {
  // Found by PresetFuzz: `clock_mhz = nan` passed `clock_mhz <= 0` and gave a NaN peak.
  const std::string h100 = slurp(kH100);
  auto with = [&](const std::string& key, const std::string& value) {
    std::string t = h100;
    const auto at = t.find("\n" + key + " = ");
    EXPECT_NE(at, std::string::npos) << key;
    const auto end = t.find('\n', at + 1);
    t.replace(at + 1, end - at - 1, key + " = " + value);
    return t;
  };
  auto error_of = [](const std::string& text) -> std::string {
    try {
      (void)parse_gpu_preset(text, "p.toml");
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(accepted)";
  };
  EXPECT_EQ(error_of(with("clock_mhz", "nan")), "p.toml: counts (1..4096), clock and bandwidth must be positive finite numbers");
  EXPECT_EQ(error_of(with("memory_bandwidth_gbs", "inf")), "p.toml: counts (1..4096), clock and bandwidth must be positive finite numbers");
  EXPECT_EQ(error_of(with("sm_count", "100000000")), "p.toml: counts (1..4096), clock and bandwidth must be positive finite numbers");
  EXPECT_EQ(error_of(with("memory_gb", "-nan")),
            "p.toml: sizes and bandwidths must be finite and not negative, cycles per wavefront at least 1");
  EXPECT_EQ(error_of(with("fma_latency", "-4")), "p.toml: latencies must be 0..1000000 cycles");
  EXPECT_EQ(error_of(with("dram_latency", "2000000000")), "p.toml: latencies must be 0..1000000 cycles");
  EXPECT_EQ(error_of(with("fma_latency", "0")), "p.toml: fma_latency must be at least 1 cycle");
  EXPECT_EQ(error_of(h100), "(accepted)");
}
