// The regblock kernel model (sim/src/kernels/regblock.cpp): the lanes' C against the fp64
// reference at sizes that are not multiples of its 64x64x16 tiles, its speed and shared-memory
// traffic against tiled, its occupancy against the calculator, and its parameters against the
// real gl-regblock shader's.
#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "warpscope/sim/matrices.hpp"
#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/regblock.hpp"
#include "warpscope/sim/simulation.hpp"

namespace {

using namespace ws::sim;

SimConfig config(Kernel kernel, int m, int n, int k) {
  SimConfig cfg;
  cfg.kernel = kernel;
  cfg.shape = {m, n, k};
  cfg.checkpoints = false;
  cfg.cpu_cores = 1;
  return cfg;
}

TEST(Regblock, ParsesAndNamesItself) {
  EXPECT_EQ(parse_kernel("regblock"), Kernel::regblock);
  EXPECT_STREQ(to_string(Kernel::regblock), "regblock");
}

TEST(Regblock, MatchesTheFp64ReferenceAtOddSizes) {
  struct Case {
    const char* gpu;
    int m, n, k;
  };
  for (const Case c : {Case{"h100", 100, 70, 50}, Case{"h100", 64, 64, 64}, Case{"h100", 130, 130, 130},
                       Case{"gtx580", 100, 70, 50}, Case{"gtx580", 64, 64, 64}, Case{"gtx580", 130, 130, 130},
                       Case{"h100", 1, 1, 1}, Case{"h100", 65, 3, 17}}) {
    SCOPED_TRACE(std::string(c.gpu) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                 std::to_string(c.k));
    const SimConfig cfg = config(Kernel::regblock, c.m, c.n, c.k);
    Simulation s(find_gpu(c.gpu), find_cpu("i7-3960x"), cfg);
    EXPECT_EQ(s.block_dim(), kRegblock.threads_x);
    EXPECT_EQ(s.grid_x(), (c.n + kRegblock.bn - 1) / kRegblock.bn);
    EXPECT_EQ(s.grid_y(), (c.m + kRegblock.bm - 1) / kRegblock.bm);
    // Fermi allows 63 registers a thread: ptxas would spill the 64th.
    EXPECT_EQ(s.config().regs_per_thread, std::string(c.gpu) == "gtx580" ? 63 : kRegblock.regs);
    const Inputs in = make_inputs(c.m, c.n, c.k, cfg.seed);
    const Verification v = verify(s.c_values(), reference_gemm(in), c.k);
    EXPECT_TRUE(v.ok) << v.bad_cells << " bad cells, max rel error " << v.max_rel_error;
    // Each cell is one fp32 FMA chain in k order: exactly the chain a fresh sum gives.
    long long exact = 0;
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        float acc = 0;
        for (int p = 0; p < c.k; ++p)
          acc = __builtin_fmaf(in.a[static_cast<std::size_t>(i) * c.k + p], in.b[static_cast<std::size_t>(p) * c.n + j], acc);
        exact += acc == s.c_values()[static_cast<std::size_t>(i) * c.n + j];
      }
    EXPECT_EQ(exact, static_cast<long long>(c.m) * c.n);
    for (const auto f : s.c_finish_cycle()) EXPECT_LT(f, INT64_MAX);
  }
}

TEST(Regblock, AnyOtherBlockSideIsRefused) {
  SimConfig cfg = config(Kernel::regblock, 64, 64, 64);
  cfg.block = 32;
  EXPECT_THROW(Simulation(find_gpu("h100"), find_cpu("i7-3960x"), cfg), std::invalid_argument);
  cfg.block = 16;
  EXPECT_NO_THROW(Simulation(find_gpu("h100"), find_cpu("i7-3960x"), cfg));
}

// Per tile of k, a regblock warp issues 2 LDG, 5 STS, 2 BAR, 2 per step LDS.128, 16 per step
// FFMA, 2 ALU; then one STG. The summary's count pins that structure, and with it the LDS per FFMA.
TEST(Regblock, IssuesFarFewerSharedLoadsPerFfmaThanTiled) {
  const int size = 128;
  Simulation r(find_gpu("h100"), find_cpu("i7-3960x"), config(Kernel::regblock, size, size, size));
  Simulation t(find_gpu("h100"), find_cpu("i7-3960x"), config(Kernel::tiled, size, size, size));
  const std::uint64_t r_warps = (size / 64) * (size / 64) * 8, t_warps = (size / 32) * (size / 32) * 32;
  const std::uint64_t r_tiles = size / 16, t_tiles = size / 32;
  const std::uint64_t r_lds = r_warps * r_tiles * 16 * 2, r_ffma = r_warps * r_tiles * 16 * 16;
  const std::uint64_t t_lds = t_warps * t_tiles * (32 / 4) * 5, t_ffma = t_warps * t_tiles * 32;
  EXPECT_EQ(r.summary().warp_instructions, r_warps * (r_tiles * (2 + 5 + 2 + 2 + 16 * 2 + 16 * 16) + 1));
  EXPECT_EQ(t.summary().warp_instructions, t_warps * (t_tiles * (4 + 2 + 2 + 8 * 5 + 32) + 1));
  // The engine's own tally by instruction kind agrees.
  EXPECT_EQ(r.summary().shared_loads, r_lds);
  EXPECT_EQ(r.summary().fmas, r_ffma);
  EXPECT_EQ(t.summary().shared_loads, t_lds);
  EXPECT_EQ(t.summary().fmas, t_ffma);
  EXPECT_EQ(r.summary().mmas, 0u);
  // The same FFMAs in all (one per multiply-add of C, 32 lanes each) ...
  EXPECT_EQ(r_ffma, t_ffma);
  // ... with an eighth of an LDS per FFMA against 1.25: ten times fewer.
  EXPECT_EQ(r_lds * 10, t_lds);
}

TEST(Regblock, FasterThanTiledAt1024OnH100) {
  const GpuPreset& h100 = find_gpu("h100");
  SimConfig rc = config(Kernel::regblock, 1024, 1024, 1024), tc = config(Kernel::tiled, 1024, 1024, 1024);
  Simulation r(h100, find_cpu("i7-3960x"), rc);
  Simulation t(h100, find_cpu("i7-3960x"), tc);
  const Summary rs = r.summary(), ts = t.summary();
  std::printf("h100 1024^3: tiled %lld cycles (occupancy %.3f), regblock %lld cycles (occupancy %.3f)\n",
              static_cast<long long>(ts.cycles), ts.occupancy.occupancy, static_cast<long long>(rs.cycles),
              rs.occupancy.occupancy);
  EXPECT_LT(rs.cycles, ts.cycles);
}

TEST(Regblock, OccupancyIsTheCalculatorsWithItsRegisters) {
  for (const char* name : {"h100", "a100-80gb", "v100", "gtx580"}) {
    SCOPED_TRACE(name);
    const GpuPreset& g = find_gpu(name);
    Simulation s(g, find_cpu("i7-3960x"), config(Kernel::regblock, 256, 256, 256));
    const int smem = 4 * (kRegblock.bk * (kRegblock.bm + 4) + kRegblock.bk * kRegblock.bn);
    const OccupancyResult want =
        compute_occupancy(cc_limits(g.cc_major, g.cc_minor),
                          {kRegblock.threads_x * kRegblock.threads_y, s.config().regs_per_thread, smem});
    EXPECT_EQ(s.blocks_per_sm(), want.active_blocks_per_sm);
    EXPECT_EQ(s.summary().occupancy.occupancy, want.occupancy);
  }
  // H100: 64 registers x 256 threads = 16384 of the SM's 65536: 4 blocks, 32 of 64 warps.
  const OccupancyResult h = compute_occupancy(cc_limits(9, 0), {256, 64, 8448});
  EXPECT_EQ(h.active_blocks_per_sm, 4);
  EXPECT_EQ(h.limit_registers, 4);
  EXPECT_DOUBLE_EQ(h.occupancy, 0.5);
  // Given registers override the kernel's.
  SimConfig cfg = config(Kernel::regblock, 128, 128, 128);
  cfg.regs_per_thread = 32;
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
  EXPECT_EQ(s.blocks_per_sm(), 8);
}

TEST(Regblock, ParametersAreTheRealShaders) {
  std::ifstream f(WS_SHADER_DIR "/gemm_regblock.comp");
  ASSERT_TRUE(f) << "cannot read " WS_SHADER_DIR "/gemm_regblock.comp";
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string src = ss.str();
  auto define = [&](const char* name) {
    std::smatch m;
    const std::regex re(std::string("#define ") + name + R"(\s+(\d+)u)");
    return std::regex_search(src, m, re) ? std::stoi(m[1]) : -1;
  };
  EXPECT_EQ(define("BM"), kRegblock.bm);
  EXPECT_EQ(define("BN"), kRegblock.bn);
  EXPECT_EQ(define("BK"), kRegblock.bk);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(src, m, std::regex(R"(local_size_x\s*=\s*(\d+),\s*local_size_y\s*=\s*(\d+))")));
  EXPECT_EQ(std::stoi(m[1]), kRegblock.threads_x);
  EXPECT_EQ(std::stoi(m[2]), kRegblock.threads_y);
  EXPECT_EQ(kRegblock.bn, kRegblock.threads_x * kRegblock.tn);
  EXPECT_EQ(kRegblock.bm, kRegblock.threads_y * kRegblock.tm);
}

}  // namespace
