// The generations in order: `tiled` at 2048³ must be slower on every older part than on the next
// one (docs/SIMULATION.md, "Generations in order"), and the wave counts the UI quotes to explain
// why H200 and B200 tie at 1024³ must be what the model really launches.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "warpscope/sim/simulation.hpp"

namespace {

using namespace ws::sim;

SimConfig tiled(int n) {
  SimConfig c;
  c.kernel = Kernel::tiled;
  c.shape = {n, n, n};
  c.block = 0;             // 32, or 16 where 1024 threads cannot launch (C1060)
  c.regs_per_thread = 32;  // the default
  c.checkpoints = false;
  c.cpu_cores = 1;
  return c;
}

// Each Simulation is independent: run them on as many threads as the machine has.
std::vector<Summary> run_all(const std::vector<std::string>& ids, int n) {
  std::vector<Summary> out(ids.size());
  std::vector<std::string> errors(ids.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < ids.size();) {
      try {
        out[i] = Simulation(find_gpu(ids[i]), find_cpu("i7-3960x"), tiled(n)).summary();
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    }
  };
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, ids.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  for (std::size_t i = 0; i < ids.size(); ++i) EXPECT_EQ(errors[i], "") << ids[i];
  return out;
}

int full_waves(const Summary& s) { return static_cast<int>(std::ceil(s.waves - 1e-9)); }

// Oldest first. H100 and H200 share GH100's compute and differ only in memory, which this
// shared-memory-bound kernel barely touches: equal is allowed there, nowhere else.
TEST(SimGenerations, Tiled2048InGenerationOrder) {
  const std::vector<std::string> ids = {"c1060", "c2050", "gtx580", "p100", "v100", "a100-80gb", "h100", "h200", "b200"};
  const std::vector<Summary> s = run_all(ids, 2048);
  for (std::size_t i = 0; i + 1 < ids.size(); ++i) {
    const Summary& older = s[i];
    const Summary& newer = s[i + 1];
    ASSERT_GT(older.time_ms, 0) << ids[i];
    if (ids[i] == "h100" && ids[i + 1] == "h200")
      EXPECT_GE(older.time_ms, newer.time_ms) << ids[i] << " vs " << ids[i + 1];
    else
      EXPECT_GT(older.time_ms, newer.time_ms) << ids[i] << " vs " << ids[i + 1];
  }
  // The same product everywhere (different block sizes give different instruction counts, so only
  // the 32x32 parts are compared).
  for (std::size_t i = 1; i < ids.size(); ++i) EXPECT_EQ(s[i].blocks, 64 * 64) << ids[i];
  EXPECT_EQ(s[0].blocks, 128 * 128) << "c1060 runs 16x16 blocks";
  // At 2048³ B200's 148 SMs need fewer waves than GH100's 132: the order comes from the chip.
  const Summary& h200 = s[7];
  const Summary& b200 = s[8];
  EXPECT_EQ(full_waves(h200), 16);
  EXPECT_EQ(full_waves(b200), 14);
}

// The UI sentence: "at 1024³ H200 and B200 both need 4 waves of 32×32 blocks, so the wave count,
// not the chip, sets the time". Two 1024-thread blocks per SM (2048 threads per SM on both),
// 32×32 = 1024 blocks: 1024 / (132×2) = 3.88 and 1024 / (148×2) = 3.46 waves, both 4 started.
TEST(SimGenerations, H200AndB200NeedTheSameWavesAt1024) {
  const std::vector<std::string> ids = {"h200", "b200"};
  const std::vector<Summary> s = run_all(ids, 1024);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(s[i].blocks, 32 * 32) << ids[i];
    EXPECT_EQ(s[i].occupancy.active_blocks_per_sm, 2) << ids[i];
    EXPECT_EQ(s[i].occupancy.active_warps_per_sm, 64) << ids[i];
    EXPECT_DOUBLE_EQ(s[i].occupancy.occupancy, 1.0) << ids[i];
    EXPECT_EQ(full_waves(s[i]), 4) << ids[i];
  }
  EXPECT_NEAR(s[0].waves, 1024.0 / (132 * 2), 1e-9);
  EXPECT_NEAR(s[1].waves, 1024.0 / (148 * 2), 1e-9);
  // Same waves, same clock, same per-SM resources: the times are within a few percent, so B200's
  // 16 extra SMs buy nothing at this size (which one is ahead is latency detail, not a lesson).
  EXPECT_NEAR(s[1].time_ms / s[0].time_ms, 1.0, 0.05);
}

}  // namespace
