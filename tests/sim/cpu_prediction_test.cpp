// predict_cpu_naive: the CPU model's speed for the naive loop, on presets written out here so the
// figures do not move when a preset file or this machine changes.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "warpscope/sim/cpu_prediction.hpp"

namespace {

using ws::sim::CpuPreset;
using ws::sim::predict_cpu_naive;

CpuPreset core(int cores = 4) {
  CpuPreset p;
  p.id = "test-cpu";
  p.name = "test CPU";
  p.cores = cores;
  p.threads = cores;
  p.base_clock_ghz = p.boost_clock_ghz = 3.0;
  p.fp32_lanes = 8;
  p.fma_units = 2;
  p.l1d_kb = 32;
  p.l2_kb = 1024;
  p.l3_mb = 32;
  p.fma_latency = 3;
  p.l1_latency = 5;
  p.l2_latency = 14;
  p.l3_latency = 50;
  p.dram_latency = 250;
  p.miss_overlap = 8;
  return p;
}

TEST(SimCpuPrediction, ChainBoundWhenBComesFromL2) {
  // 256³: B is 256 KB, in L2; its loads overlap the add chain, so a step costs the add latency.
  const auto p = predict_cpu_naive(core(), 256, 256, 256);
  EXPECT_NEAR(p.cycles_per_step, 3.0, 0.05);
  EXPECT_NEAR(p.gflops, 2.0 / 3.0 * 3.0, 0.05);
  EXPECT_GT(p.steps_simulated, 0);
}

TEST(SimCpuPrediction, SpeedFollowsTheClockAndTheChain) {
  auto fast = core();
  fast.base_clock_ghz = 4.5;
  EXPECT_NEAR(predict_cpu_naive(fast, 256, 256, 256).gflops / predict_cpu_naive(core(), 256, 256, 256).gflops, 1.5,
              0.01);
  auto slow_add = core();
  slow_add.fma_latency = 6;
  EXPECT_NEAR(predict_cpu_naive(slow_add, 256, 256, 256).gflops / predict_cpu_naive(core(), 256, 256, 256).gflops,
              0.5, 0.02);
}

TEST(SimCpuPrediction, MoreCoresProportionallyMore) {
  const double one = predict_cpu_naive(core(4), 256, 256, 256, 1).gflops;
  const double two = predict_cpu_naive(core(4), 256, 256, 256, 2).gflops;
  const double four = predict_cpu_naive(core(4), 256, 256, 256, 4).gflops;
  EXPECT_NEAR(two / one, 2.0, 0.1);
  EXPECT_NEAR(four / one, 4.0, 0.2);
  // No more cores than the preset has.
  EXPECT_DOUBLE_EQ(predict_cpu_naive(core(4), 256, 256, 256, 16).gflops, four);
}

TEST(SimCpuPrediction, StridedBIsMemoryBoundAt1024) {
  // 1024³: B's rows are 4 KB apart, so a column of B falls into 2048/64 = 32 of the 8-way L2's
  // sets: 256 lines for a 1024-line walk. Every B load goes to L3 and the memory side limits.
  const auto p = predict_cpu_naive(core(), 1024, 1024, 1024);
  EXPECT_GT(p.l3_hit_rate, 0.45);  // of all loads: the other half are A's, from L1
  EXPECT_GT(p.l1_hit_rate, 0.45);
  EXPECT_NEAR(p.cycles_per_step, (50.0 - 5.0) / 8.0, 0.5);
  EXPECT_LT(p.gflops, predict_cpu_naive(core(), 512, 512, 512).gflops);
  // More misses in flight help exactly there.
  auto more_mlp = core();
  more_mlp.miss_overlap = 16;
  EXPECT_GT(predict_cpu_naive(more_mlp, 1024, 1024, 1024).gflops, 1.5 * p.gflops);
}

TEST(SimCpuPrediction, BiggerL2IsFasterWhenBsColumnsDoNotFit) {
  // With 16 ways x 4096 sets (4 MB) the 1024-line column fits in L2; 1 MB thrashes to L3.
  auto big = core();
  big.l2_kb = 4096;
  const auto small_l2 = predict_cpu_naive(core(), 1024, 1024, 1024);
  const auto big_l2 = predict_cpu_naive(big, 1024, 1024, 1024);
  EXPECT_GT(big_l2.l2_hit_rate, small_l2.l2_hit_rate);
  EXPECT_GT(big_l2.gflops, 1.3 * small_l2.gflops);
}

TEST(SimCpuPrediction, SlowerMemoryOnlyHurtsWhereItIsUsed) {
  auto far_l3 = core();
  far_l3.l3_latency = 120;
  EXPECT_NEAR(predict_cpu_naive(far_l3, 256, 256, 256).gflops, predict_cpu_naive(core(), 256, 256, 256).gflops, 0.02);
  EXPECT_LT(predict_cpu_naive(far_l3, 1024, 1024, 1024).gflops,
            0.6 * predict_cpu_naive(core(), 1024, 1024, 1024).gflops);
}

TEST(SimCpuPrediction, DeterministicFastAndChecked) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto a = predict_cpu_naive(core(), 1024, 1024, 1024);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto b = predict_cpu_naive(core(), 1024, 1024, 1024);
  EXPECT_EQ(a.gflops, b.gflops);
  EXPECT_EQ(a.steps_simulated, b.steps_simulated);
  EXPECT_LT(ms, 2000);  // milliseconds in a release build; generous for sanitizers and a busy machine
  // Odd shapes and tiny ones work; nonsense is refused.
  EXPECT_GT(predict_cpu_naive(core(), 7, 3, 5).gflops, 0);
  EXPECT_GT(predict_cpu_naive(core(), 1000, 777, 333).gflops, 0);
  EXPECT_THROW(predict_cpu_naive(core(), 0, 8, 8), std::invalid_argument);
  EXPECT_THROW(predict_cpu_naive(core(), 8, 8, 8, 0), std::invalid_argument);
}

}  // namespace
