// The GPU and CPU models: the simulated C is the real product, state queries are consistent,
// runs are deterministic, seeking lands on the same state as a fresh run, huge requests are refused.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "warpscope/sim/matrices.hpp"
#include "warpscope/sim/simulation.hpp"

namespace {

using namespace ws::sim;

SimConfig config(Kernel k, int m, int n, int kk, int block = 0) {
  SimConfig c;
  c.kernel = k;
  c.shape = {m, n, kk};
  c.block = block;
  return c;
}

void expect_product(const Simulation& s) {
  const auto& cfg = s.config();
  const Inputs in = make_inputs(cfg.shape.m, cfg.shape.n, cfg.shape.k, cfg.seed);
  const Verification v = verify(s.c_values(), reference_gemm(in), cfg.shape.k);
  EXPECT_TRUE(v.ok) << to_string(cfg.kernel) << " " << cfg.shape.m << "x" << cfg.shape.n << "x" << cfg.shape.k
                    << " block " << cfg.block << ": " << v.bad_cells << " bad cells, max rel error " << v.max_rel_error;
  EXPECT_GT(v.max_abs_error, -1.0);
}

TEST(SimModel, SimulatedProductEqualsReferenceOnAwkwardShapes) {
  struct Case {
    const char* gpu;
    int m, n, k, block;
  };
  for (Kernel kern : {Kernel::naive, Kernel::tiled})
    for (const Case& c : {Case{"h100", 17, 33, 65, 0}, Case{"h100", 100, 60, 70, 0}, Case{"v100", 100, 60, 70, 16},
                          Case{"c1060", 17, 33, 65, 0}, Case{"gtx580", 45, 19, 37, 8}, Case{"k80", 33, 65, 17, 12},
                          Case{"rtx4090", 1, 1, 1, 0}, Case{"a100-80gb", 64, 64, 64, 20}}) {
      Simulation s(find_gpu(c.gpu), find_cpu("i7-3960x"), config(kern, c.m, c.n, c.k, c.block));
      expect_product(s);
      EXPECT_TRUE(s.gpu_done() == false || s.total_cycles() == 0);
      s.run_until(s.total_cycles());
      EXPECT_TRUE(s.gpu_done());
      EXPECT_EQ(s.c_done_count(), static_cast<long long>(c.m) * c.n);
      for (int i = 0; i < c.m; ++i)
        for (int j = 0; j < c.n; ++j) ASSERT_TRUE(s.c_done(i, j));
      for (int owner : s.c_done_by_sm()) {
        EXPECT_GE(owner, 0);
        EXPECT_LT(owner, s.sm_count());
      }
    }
}

TEST(SimModel, FinishedCellsMatchTheirFinishCycle) {
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), config(Kernel::tiled, 70, 90, 50));
  const std::int64_t mid = s.total_cycles() / 2;
  s.seek(mid);
  long long done = 0;
  for (int i = 0; i < 70; ++i)
    for (int j = 0; j < 90; ++j) done += s.c_done(i, j);
  EXPECT_EQ(done, s.c_done_count());
}

// A lane's partial sum is exactly the fp32 FMA chain over the products it has done.
TEST(SimModel, LanePartialSumsAreRealArithmetic) {
  for (Kernel kern : {Kernel::naive, Kernel::tiled}) {
    Simulation s(find_gpu("v100"), find_cpu("i7-3960x"), config(kern, 50, 70, 90));
    const Inputs in = make_inputs(50, 70, 90, s.config().seed);
    int checked = 0;
    for (std::int64_t c = s.total_cycles() / 5; c < s.total_cycles(); c += s.total_cycles() / 5) {
      s.seek(c);
      for (int sm = 0; sm < s.sm_count(); ++sm)
        for (int slot = 0; slot < s.warp_slots_per_sm(); ++slot)
          for (int lane = 0; lane < 32; lane += 7) {
            const LaneInfo li = s.lane_info(sm, slot, lane);
            if (!li.active) continue;
            ASSERT_EQ(li.row, li.block_y * s.block_dim() + li.thread_y);
            ASSERT_EQ(li.col, li.block_x * s.block_dim() + li.thread_x);
            ASSERT_LE(li.k_done, li.k_total);
            float acc = 0;
            for (int k = 0; k < li.k_done; ++k)
              acc = std::fma(in.a[static_cast<std::size_t>(li.row) * 90 + k], in.b[static_cast<std::size_t>(k) * 70 + li.col], acc);
            ASSERT_EQ(acc, li.partial_sum) << to_string(kern) << " row " << li.row << " col " << li.col << " k " << li.k_done;
            ++checked;
          }
    }
    EXPECT_GT(checked, 20) << to_string(kern);
  }
}

TEST(SimModel, StateExportsAndWarpInfo) {
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), config(Kernel::tiled, 100, 100, 100));
  const std::size_t n = static_cast<std::size_t>(s.sm_count()) * s.warp_slots_per_sm() * 32;
  EXPECT_EQ(s.warp_slots_per_sm(), 64);  // two 1024-thread blocks
  std::vector<std::uint8_t> lanes(n), warps(n / 32);
  std::vector<int> seen(8, 0);
  for (std::int64_t c = 0; c < s.total_cycles(); c += 97) {
    s.seek(c);
    s.export_lane_states(lanes);
    s.export_warp_states(warps);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_LE(lanes[i], kLaneMasked);
      ++seen[lanes[i]];
      if (lanes[i] != kLaneMasked) {
        ASSERT_EQ(lanes[i], warps[i / 32]);
      }
    }
  }
  EXPECT_GT(seen[static_cast<int>(WarpState::issuing)], 0);
  EXPECT_GT(seen[static_cast<int>(WarpState::waiting_memory)], 0);
  EXPECT_GT(seen[static_cast<int>(WarpState::waiting_barrier)], 0);
  EXPECT_GT(seen[static_cast<int>(WarpState::not_resident)], 0);  // 132 SMs, 16 blocks
  EXPECT_GT(seen[kLaneMasked], 0);                                // 100 is not a multiple of 32
  s.seek(s.total_cycles());
  EXPECT_TRUE(s.gpu_done());
  s.export_warp_states(warps);
  // 16 blocks on 132 SMs: SM 0 ran one block in its first 32 slots and never used the others.
  for (int slot = 0; slot < s.warp_slots_per_sm(); ++slot)
    EXPECT_EQ(warps[slot], static_cast<std::uint8_t>(slot < 32 ? WarpState::done : WarpState::not_resident));
  std::vector<std::uint8_t> small(3);
  EXPECT_THROW(s.export_lane_states(small), std::invalid_argument);

  // Find a warp waiting on global memory and check its description.
  for (std::int64_t c = 1; c < s.total_cycles(); ++c) {
    s.seek(c);
    const WarpInfo w = s.warp_info(0, 0);
    if (w.state == WarpState::waiting_memory && w.reason == WaitReason::global_memory) {
      EXPECT_GE(w.expected, w.waited);
      EXPECT_NE(w.describe().find("global memory"), std::string::npos) << w.describe();
      EXPECT_GE(w.block_x, 0);
      return;
    }
  }
  ADD_FAILURE() << "warp 0 of SM 0 never waited on global memory";
}

TEST(SimModel, Deterministic) {
  const SimConfig cfg = config(Kernel::tiled, 96, 128, 80);
  Simulation a(find_gpu("a100-80gb"), find_cpu("laptop-2025"), cfg);
  Simulation b(find_gpu("a100-80gb"), find_cpu("laptop-2025"), cfg);
  EXPECT_EQ(a.total_cycles(), b.total_cycles());
  EXPECT_EQ(a.summary().warp_instructions, b.summary().warp_instructions);
  EXPECT_EQ(a.summary().dram_bytes, b.summary().dram_bytes);
  for (std::int64_t c = 0; c <= a.total_cycles(); c += 131) {
    a.run_until(c);
    b.run_until(c);
    ASSERT_EQ(a.digest(), b.digest()) << "cycle " << c;
  }
  for (std::size_t i = 0; i < a.c_values().size(); ++i) ASSERT_EQ(a.c_values()[i], b.c_values()[i]);
}

TEST(SimModel, SeekGivesTheStateOfAFreshRun) {
  SimConfig cfg = config(Kernel::tiled, 128, 128, 128);
  cfg.cpu_cores = 3;
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
  ASSERT_GT(s.checkpoint_count(), 2u);
  const std::int64_t t = s.total_cycles();
  for (std::int64_t target : {t / 2, t / 7, t - 3, std::int64_t{5}, t / 3 + 11, t / 2 + 1, std::int64_t{0}, t}) {
    s.seek(target);
    ASSERT_EQ(s.cycle(), target);
    Simulation fresh(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
    fresh.run_until(target);
    ASSERT_EQ(s.digest(), fresh.digest()) << "cycle " << target;
  }
  // Stepping one cycle at a time lands on the same state as jumping.
  Simulation stepped(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
  for (int i = 0; i < 1500; ++i) stepped.step();
  s.seek(1500);
  EXPECT_EQ(stepped.digest(), s.digest());
}

TEST(SimModel, CpuCoresRunOnTheSameClock) {
  SimConfig cfg = config(Kernel::naive, 64, 64, 64);
  cfg.cpu_cores = 4;
  Simulation s(find_gpu("gtx580"), find_cpu("i7-3960x"), cfg);
  EXPECT_EQ(s.cpu_core_count(), 4);
  EXPECT_NEAR(s.cpu_clock_ratio(), 3300.0 / 1544.0, 1e-9);
  s.seek(s.total_cycles());
  const double p = s.cpu_progress();
  EXPECT_GT(p, 0.0);
  EXPECT_LT(p, 1.0);  // the GPU wins
  const CpuCoreInfo core = s.cpu_core(3);
  EXPECT_GT(core.progress, 0.0);
  EXPECT_EQ(core.cells_assigned, 64 * 64 / 4);
  EXPECT_GT(core.l1_hits, 0u);
  // Run on until the cores finish their share: every cell is then done by the CPU.
  std::int64_t c = s.total_cycles();
  while (s.cpu_cells_done() < 64 * 64 && c < 200'000'000) s.run_until(c *= 2);
  EXPECT_EQ(s.cpu_cells_done(), 64 * 64);
  EXPECT_TRUE(s.cpu_cell_done(63, 63));
  EXPECT_DOUBLE_EQ(s.cpu_progress(), 1.0);
}

TEST(SimModel, CpuSimdCoresFinishSooner) {
  // Over a whole run (not the first cold-cache moments) a SIMD strip of 8 cells per step wins.
  auto cycles_to_finish = [](bool simd) {
    SimConfig cfg = config(Kernel::tiled, 48, 48, 48);
    cfg.cpu_cores = 2;
    cfg.cpu_simd = simd;
    Simulation s(find_gpu("c1060"), find_cpu("i7-3960x"), cfg);
    std::int64_t c = s.total_cycles();
    while (s.cpu_cells_done() < 48 * 48) s.run_until(c *= 2);
    return c;
  };
  EXPECT_LT(cycles_to_finish(true) * 3, cycles_to_finish(false));
}

TEST(SimModel, HugeRequestsAreRefusedUpFront) {
  const auto start = std::chrono::steady_clock::now();
  SimConfig cfg = config(Kernel::naive, 8192, 8192, 8192);
  const Estimate e = estimate(find_gpu("h100"), cfg);
  EXPECT_FALSE(e.ok);
  EXPECT_GT(e.warp_instructions, 1e10);
  try {
    Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
    FAIL() << "not refused";
  } catch (const SimRefused& r) {
    EXPECT_NE(std::string(r.what()).find("warp instructions"), std::string::npos) << r.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  EXPECT_TRUE(estimate(find_gpu("h100"), config(Kernel::tiled, 1024, 1024, 1024)).ok);
}

TEST(SimModel, LaunchesThatCannotRunAreRefusedWithTheReason) {
  SimConfig cfg = config(Kernel::tiled, 64, 64, 64, 32);  // 1024 threads > 512 on cc 1.3
  EXPECT_THROW(Simulation(find_gpu("c1060"), find_cpu("i7-3960x"), cfg), SimRefused);
  cfg.block = 0;  // the default picks 16 there
  Simulation ok(find_gpu("c1060"), find_cpu("i7-3960x"), cfg);
  EXPECT_EQ(ok.block_dim(), 16);
  cfg.block = 32;
  cfg.regs_per_thread = 100;
  try {
    Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
    FAIL();
  } catch (const SimRefused& e) {
    EXPECT_NE(std::string(e.what()).find("registers"), std::string::npos);
  }
  EXPECT_THROW(Simulation(find_gpu("h100"), find_cpu("i7-3960x"), config(Kernel::naive, 0, 4, 4)), std::invalid_argument);
}

TEST(SimModel, SeekIsFastForUiSizes) {
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), config(Kernel::tiled, 256, 256, 256));
  const std::int64_t t = s.total_cycles();
  double worst = 0;
  for (std::int64_t target : {t - 1, t / 3, 1 + t / 2, std::int64_t{7}, t * 9 / 10, t / 4}) {
    const auto start = std::chrono::steady_clock::now();
    s.seek(target);
    worst = std::max(worst, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  RecordProperty("worst_seek_ms", std::to_string(worst));
  std::printf("worst seek at 256^3 on H100: %.1f ms over %zu checkpoints\n", worst, s.checkpoint_count());
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  EXPECT_LT(worst, 50.0);
#endif
}

}  // namespace
