// Why each kernel is faster, as the model must show it at a size where every H100 SM has blocks
// (1024^3): each step of the ladder takes fewer cycles than the one before; regblock loads far
// less from shared memory per FFMA than tiled; the tensor model is at least 3x faster than
// regblock and never above the preset's dense BF16 peak (nor regblock above the FP32 peak).
#include <cstdio>

#include <gtest/gtest.h>

#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace {

using namespace ws::sim;

Summary run(Kernel kernel) {
  SimConfig cfg;
  cfg.kernel = kernel;
  cfg.shape = {1024, 1024, 1024};
  cfg.checkpoints = false;
  cfg.cpu_cores = 1;
  return Simulation(find_gpu("h100"), find_cpu("i7-3960x"), cfg).summary();
}

TEST(KernelLadder, EachStepIsFasterOnH100At1024) {
  const GpuPreset& h100 = find_gpu("h100");
  const Summary naive = run(Kernel::naive), tiled = run(Kernel::tiled), regblock = run(Kernel::regblock),
                tensor = run(Kernel::tensor);
  for (const auto& [name, s] : {std::pair{"naive", naive}, {"tiled", tiled}, {"regblock", regblock}, {"tensor", tensor}})
    std::printf("h100 1024^3 %-8s %8lld cycles %9.0f GFLOP/s, %llu LDS, %llu FFMA, %llu MMA\n", name,
                static_cast<long long>(s.cycles), s.gflops, static_cast<unsigned long long>(s.shared_loads),
                static_cast<unsigned long long>(s.fmas), static_cast<unsigned long long>(s.mmas));
  EXPECT_LT(tensor.cycles, regblock.cycles);
  EXPECT_LT(regblock.cycles, tiled.cycles);
  EXPECT_LT(tiled.cycles, naive.cycles);

  // Register blocking: each shared operand feeds TM or TN FFMAs, against one in tiled.
  const double regblock_lds_per_ffma = static_cast<double>(regblock.shared_loads) / regblock.fmas;
  const double tiled_lds_per_ffma = static_cast<double>(tiled.shared_loads) / tiled.fmas;
  EXPECT_LT(regblock_lds_per_ffma * 5, tiled_lds_per_ffma);
  EXPECT_EQ(regblock.fmas, tiled.fmas);  // the same multiply-adds, 32 lanes per FFMA

  // Tensor cores: at least 3x regblock, within the datasheet's dense BF16 peak.
  EXPECT_GE(static_cast<double>(regblock.cycles), 3.0 * tensor.cycles);
  EXPECT_LE(tensor.gflops, h100.tensor_peak_gflops(h100.tensor.bf16));
  EXPECT_LE(regblock.gflops, h100.peak_gflops());
  EXPECT_EQ(tensor.fmas, 0u);
}

}  // namespace
