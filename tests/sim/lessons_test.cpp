// The lessons the app teaches must come out of the model, not out of constants.
#include <gtest/gtest.h>

#include "warpscope/sim/simulation.hpp"

namespace {

using namespace ws::sim;

Summary run(const char* gpu, Kernel k, int n, int block = 0, int regs = 32) {
  SimConfig c;
  c.kernel = k;
  c.shape = {n, n, n};
  c.block = block;
  c.regs_per_thread = regs;
  c.checkpoints = false;
  c.cpu_cores = 1;
  return Simulation(find_gpu(gpu), find_cpu("i7-3960x"), c).summary();
}

TEST(SimLessons, TiledBeatsNaiveFrom256Up) {
  struct Case {
    const char* gpu;
    int n;
  };
  for (const Case& c : {Case{"h100", 256}, Case{"h100", 512}, Case{"gtx580", 256}, Case{"a100-80gb", 256},
                        Case{"c1060", 256}}) {
    const auto naive = run(c.gpu, Kernel::naive, c.n);
    const auto tiled = run(c.gpu, Kernel::tiled, c.n);
    EXPECT_LT(tiled.cycles, naive.cycles) << c.gpu << " N=" << c.n;
  }
}

TEST(SimLessons, NewerGpusAreFaster) {
  for (Kernel k : {Kernel::naive, Kernel::tiled}) {
    const double h100 = run("h100", k, 256).time_ms;
    const double v100 = run("v100", k, 256).time_ms;
    const double gtx580 = run("gtx580", k, 256).time_ms;
    EXPECT_LT(h100, v100) << to_string(k);
    EXPECT_LT(v100, gtx580) << to_string(k);
  }
}

TEST(SimLessons, RegisterHungryLaunchHidesLatencyWorse) {
  // 16x16 blocks on A100: 32 registers allow 8 blocks (64 warps), 128 registers only 2 (16 warps).
  for (Kernel k : {Kernel::naive, Kernel::tiled}) {
    const auto lean = run("a100-80gb", k, 256, 16, 32);
    const auto fat = run("a100-80gb", k, 256, 16, 128);
    EXPECT_EQ(lean.occupancy.active_warps_per_sm, 64);
    EXPECT_EQ(fat.occupancy.active_warps_per_sm, 16);
    EXPECT_EQ(fat.occupancy.limiters, std::vector<std::string>{"registers"});
    EXPECT_LT(fat.achieved_occupancy, lean.achieved_occupancy);
    EXPECT_GT(fat.cycles, 1.15 * lean.cycles) << to_string(k);
  }
}

TEST(SimLessons, ComputeBoundDoublingNCostsAboutEightTimes) {
  // Enough blocks to fill the GTX 580's 16 SMs for many waves.
  const auto small = run("gtx580", Kernel::tiled, 256);
  const auto big = run("gtx580", Kernel::tiled, 512);
  const double ratio = static_cast<double>(big.cycles) / small.cycles;
  EXPECT_GT(ratio, 7.0);
  EXPECT_LT(ratio, 9.5);
  EXPECT_GT(big.waves, 10);
}

TEST(SimLessons, SummaryIsConsistent) {
  const auto s = run("h100", Kernel::tiled, 256);
  EXPECT_NEAR(s.time_ms, s.cycles / 1980e3, 1e-12);
  EXPECT_NEAR(s.gflops, 2.0 * 256 * 256 * 256 / (s.time_ms * 1e6), 1e-6);
  EXPECT_LT(s.gflops, find_gpu("h100").peak_gflops());
  EXPECT_GT(s.achieved_occupancy, 0.0);
  EXPECT_LE(s.achieved_occupancy, 1.0);
  EXPECT_GT(s.issue_slot_use, 0.0);
  EXPECT_LE(s.issue_slot_use, 1.0);
  // Compulsory traffic at least: A and B read once, C written once.
  EXPECT_GE(s.dram_bytes, 3ull * 256 * 256 * 4);
  EXPECT_EQ(s.blocks, 64);
}

}  // namespace
