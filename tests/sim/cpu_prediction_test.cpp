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

// The two limits measured on this machine (l1_fills_per_set, stride_walk_latency; named presets
// leave them at 0). B's rows 4 KB apart put a whole column of B into one L1 set of the 64-set
// L1d; 2 KB apart, into two.
CpuPreset measured(double fills_per_set, double walk_latency) {
  CpuPreset p = core();
  p.l1_fills_per_set = fills_per_set;
  p.stride_walk_latency = walk_latency;
  return p;
}

TEST(SimCpuPrediction, OneL1SetServesTheColumnWalkOneFillAtATime) {
  // 1024³, one fill per set, the walk's latency 14: every B load waits for the previous one's
  // whole latency, so a step costs 14 cycles, not the chain's 3 nor (14 - 5) / 8.
  const auto one = predict_cpu_naive(measured(1, 14), 1024, 1024, 1024);
  EXPECT_NEAR(one.cycles_per_step, 14.0, 0.3);
  EXPECT_NEAR(one.gflops, 2.0 * 3.0 / 14.0, 0.01);
  // Two fills per set halve it; the walk's latency scales it.
  EXPECT_NEAR(predict_cpu_naive(measured(2, 14), 1024, 1024, 1024).cycles_per_step, 7.0, 0.2);
  EXPECT_NEAR(predict_cpu_naive(measured(1, 20), 1024, 1024, 1024).cycles_per_step, 20.0, 0.4);
  // 512³: B's rows 2 KB apart alternate between two sets, each serving every other step.
  EXPECT_NEAR(predict_cpu_naive(measured(1, 14), 512, 512, 512).cycles_per_step, 7.0, 0.3);
  // Rows 4160 bytes apart (N = 1040) spread the column over all 64 sets: the limit is gone and
  // the add chain decides again.
  EXPECT_LT(predict_cpu_naive(measured(1, 14), 1040, 1040, 1040).cycles_per_step, 3.6);
}

TEST(SimCpuPrediction, TwoSetsServeWhatWasMeasuredForTwoSets) {
  // 512³: rows 2 KB apart alternate between two L1 sets. Measured: two sets keep 1.6 misses in
  // flight (not twice one set's 1): a step costs 14 / 1.6 = 8.75 cycles, not 7.
  CpuPreset p = measured(1, 14);
  p.l1_fills_two_sets = 1.6;
  EXPECT_NEAR(predict_cpu_naive(p, 512, 512, 512).cycles_per_step, 14.0 / 1.6, 0.3);
  // It applies to two sets only: the 4 KB rows of 1024³ (one set) keep the one-set figure.
  EXPECT_NEAR(predict_cpu_naive(p, 1024, 1024, 1024).cycles_per_step, 14.0, 0.3);
}

TEST(SimCpuPrediction, StrideWalkLatencyCapsWhereTheCachesWouldSendB) {
  // Without the cap, the model's L2 cannot hold a 4 KB-strided column and B comes from L3 (50):
  // (50 - 5) / 8 a step. The prefetched walk measured at 14 cycles caps it: the chain decides.
  const auto capped = predict_cpu_naive(measured(0, 14), 1024, 1024, 1024);
  EXPECT_NEAR(capped.cycles_per_step, 3.0, 0.1);
  EXPECT_GT(capped.l3_hit_rate, 0.45);  // the line is still counted where the caches had it
  // The cap never makes a load slower than its level: L2 hits at 512³ keep their 14.
  EXPECT_NEAR(predict_cpu_naive(measured(0, 40), 512, 512, 512).gflops,
              predict_cpu_naive(core(), 512, 512, 512).gflops, 0.001);
  // Off (0, every named preset) is the model as it was.
  EXPECT_NEAR(predict_cpu_naive(measured(0, 0), 1024, 1024, 1024).cycles_per_step, (50.0 - 5.0) / 8.0, 0.5);
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
