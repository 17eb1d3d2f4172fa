// The tensor kernel model (sim/src/kernels/tensor.cpp): its lanes' C against the fp64 product of
// the BF16-rounded inputs and against a fresh FP32 chain, bit for bit; its refusal on GPUs without
// BF16 tensor cores; its MMA fragments as the inspector shows them; the instructions it issues;
// and its warps on the tensor core.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "warpscope/sim/matrices.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace {

using namespace ws::sim;

SimConfig config(int m, int n, int k) {
  SimConfig cfg;
  cfg.kernel = Kernel::tensor;
  cfg.shape = {m, n, k};
  cfg.checkpoints = false;
  cfg.cpu_cores = 1;
  return cfg;
}

TEST(Tensor, ParsesAndNamesItself) {
  EXPECT_EQ(parse_kernel("tensor"), Kernel::tensor);
  EXPECT_STREQ(to_string(Kernel::tensor), "tensor");
  EXPECT_TRUE(uses_tensor_cores(Kernel::tensor));
  for (Kernel k : {Kernel::naive, Kernel::tiled, Kernel::regblock}) EXPECT_FALSE(uses_tensor_cores(k));
}

TEST(Tensor, RoundsToBf16ToNearestEven) {
  EXPECT_EQ(round_to_bf16(1.0f), 1.0f);
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-8f), 1.0f);                     // a tie: to the even significand
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-7f + 0x1p-8f), 1.0f + 0x1p-6f);  // a tie the other way
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-8f + 0x1p-20f), 1.0f + 0x1p-7f);
  EXPECT_EQ(round_to_bf16(1.0f + 0x1p-9f), 1.0f);
  EXPECT_EQ(round_to_bf16(-3.0f), -3.0f);
}

TEST(Tensor, LanesComputeBf16ProductsWithFp32Sums) {
  struct Case {
    const char* gpu;
    int m, n, k;
  };
  for (const Case c : {Case{"h100", 100, 70, 50}, Case{"h100", 64, 64, 64}, Case{"a100-80gb", 130, 130, 130},
                       Case{"rtx4090", 65, 3, 17}, Case{"b200", 1, 1, 1}, Case{"h200", 17, 200, 33}}) {
    SCOPED_TRACE(std::string(c.gpu) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                 std::to_string(c.k));
    const SimConfig cfg = config(c.m, c.n, c.k);
    Simulation s(find_gpu(c.gpu), find_cpu("i7-3960x"), cfg);
    EXPECT_EQ(s.block_dim(), 16);
    EXPECT_EQ(s.grid_x(), (c.n + 63) / 64);
    EXPECT_EQ(s.grid_y(), (c.m + 63) / 64);
    const Inputs in = rounded_to_bf16(make_inputs(c.m, c.n, c.k, cfg.seed));
    const Verification v = verify(s.c_values(), reference_gemm(in), c.k);
    EXPECT_TRUE(v.ok) << v.bad_cells << " bad cells, max rel error " << v.max_rel_error;
    // Products of BF16 values are exact in FP32: each cell is the FP32 sum of them in k order.
    long long exact = 0;
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        float acc = 0;
        for (int p = 0; p < c.k; ++p)
          acc += in.a[static_cast<std::size_t>(i) * c.k + p] * in.b[static_cast<std::size_t>(p) * c.n + j];
        exact += acc == s.c_values()[static_cast<std::size_t>(i) * c.n + j];
      }
    EXPECT_EQ(exact, static_cast<long long>(c.m) * c.n);
    for (const auto f : s.c_finish_cycle()) EXPECT_LT(f, INT64_MAX);
  }
}

TEST(Tensor, Bf16RoundingIsVisibleAgainstTheFp32Inputs) {
  // The inputs are odd multiples of 2^-24: BF16 keeps 8 bits of them, an error far past what FP32
  // accumulation explains. Checked against the unrounded inputs, the tensor model's C must fail.
  const SimConfig cfg = config(128, 128, 128);
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), cfg);
  const Inputs in = make_inputs(128, 128, 128, cfg.seed);
  EXPECT_FALSE(verify(s.c_values(), reference_gemm(in), 128).ok);
  EXPECT_TRUE(verify(s.c_values(), reference_gemm(rounded_to_bf16(in)), 128).ok);
}

TEST(Tensor, RefusedOnGpusWithoutBf16TensorCores) {
  for (const char* id : {"v100", "gtx580", "c1060", "k80", "p100"}) {
    SCOPED_TRACE(id);
    const GpuPreset& g = find_gpu(id);
    const Estimate e = estimate(g, config(256, 256, 256));
    EXPECT_FALSE(e.ok);
    for (const char* with : {"h100", "a100-80gb", "b200", "h200", "rtx4090"})
      EXPECT_NE(e.reason.find(with), std::string::npos) << e.reason;
    EXPECT_NE(e.reason.find(g.name), std::string::npos) << e.reason;
    EXPECT_THROW(Simulation(g, find_cpu("i7-3960x"), config(64, 64, 64)), SimRefused);
  }
  EXPECT_NE(estimate(find_gpu("v100"), config(64, 64, 64)).reason.find("FP16 only"), std::string::npos);
}

TEST(Tensor, IssuesMmasNotFfmas) {
  const int size = 128;
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), config(size, size, size));
  const Summary sum = s.summary();
  const std::uint64_t warps = (size / 64) * (size / 64) * 8, tiles = size / 32;
  // Per tile: 2 LDG, 2 STS, 2 BAR, 2 ALU and per 16-deep step 3 LDS (ldmatrix) and 4 MMAs; one STG.
  EXPECT_EQ(sum.warp_instructions, warps * (tiles * (8 + 2 * (3 + 4)) + 1));
  EXPECT_EQ(sum.mmas, warps * tiles * 2 * 4);
  EXPECT_EQ(sum.fmas, 0u);
  EXPECT_EQ(sum.shared_loads, warps * tiles * 2 * 3);
  EXPECT_EQ(sum.global_loads, warps * tiles * 2);
  // Every multiply-add of C is in exactly one MMA: 16 x 8 x 16 of them each.
  EXPECT_EQ(sum.mmas * 16 * 8 * 16, static_cast<std::uint64_t>(size) * size * size);
}

SimConfig seekable(int size) {
  SimConfig cfg = config(size, size, size);
  cfg.checkpoints = true;
  return cfg;
}

TEST(Tensor, ALaneHoldsItsPlacesInTheMmaTiles) {
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), seekable(256));
  s.seek(s.total_cycles() / 2);
  // Find a resident warp and read lane 5: group 1, pair 1 of the m16n8 layout.
  for (int slot = 0; slot < s.warp_slots_per_sm(); ++slot) {
    const WarpInfo wi = s.warp_info(0, slot);
    if (wi.block_x < 0 || wi.state == WarpState::done) continue;
    const LaneInfo li = s.lane_info(0, slot, 5);
    ASSERT_EQ(li.accumulators.size(), 16u);
    const int row0 = wi.block_y * 64 + (wi.warp_in_block / 4) * 32, col0 = wi.block_x * 64 + (wi.warp_in_block % 4) * 16;
    // Tile 0: rows 1 and 9, columns 2 and 3; tile 1 is eight columns on; tile 2 sixteen rows down.
    const int want[16][2] = {{1, 2},   {1, 3},   {9, 2},   {9, 3},   {1, 10},  {1, 11},  {9, 10},  {9, 11},
                             {17, 2},  {17, 3},  {25, 2},  {25, 3},  {17, 10}, {17, 11}, {25, 10}, {25, 11}};
    for (int i = 0; i < 16; ++i) {
      EXPECT_EQ(li.accumulators[i].row, row0 + want[i][0]) << i;
      EXPECT_EQ(li.accumulators[i].col, col0 + want[i][1]) << i;
    }
    EXPECT_EQ(li.row, row0 + 1);
    EXPECT_EQ(li.col, col0 + 2);
    return;
  }
  FAIL() << "no resident warp on SM 0 at mid-run";
}

TEST(Tensor, WarpsWaitOnTheTensorCore) {
  // With a full SM's warps sharing four tensor cores, some wait for their MMA's result at some
  // point of the run: the state the animation colours "on the tensor core".
  Simulation s(find_gpu("h100"), find_cpu("i7-3960x"), seekable(512));
  long long on_core = 0, samples = 0;
  for (std::int64_t c = s.total_cycles() / 8; c < s.total_cycles(); c += s.total_cycles() / 8) {
    s.seek(c);
    for (int sm = 0; sm < s.sm_count(); sm += 11)
      for (int slot = 0; slot < s.warp_slots_per_sm(); ++slot) {
        ++samples;
        const WarpInfo wi = s.warp_info(sm, slot);
        if (wi.state != WarpState::on_tensor_core) continue;
        ++on_core;
        EXPECT_EQ(wi.reason, WaitReason::tensor_core);
        EXPECT_NE(wi.describe().find("tensor core"), std::string::npos) << wi.describe();
      }
  }
  EXPECT_GT(on_core, 0) << "of " << samples << " warp samples";
}

}  // namespace
