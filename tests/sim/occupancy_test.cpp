// The occupancy calculator against NVIDIA's own (cuda_occupancy.h, where the toolkit is installed)
// over a sweep of launches, and against worked examples with known answers.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "warpscope/sim/occupancy.hpp"

#if __has_include(<cuda_occupancy.h>)
#include <cuda_occupancy.h>
#define WS_HAVE_CUDA_OCCUPANCY 1
#endif

namespace {

using namespace ws::sim;

bool has(const OccupancyResult& r, const std::string& l) {
  for (const auto& x : r.limiters)
    if (x == l) return true;
  return false;
}

TEST(SimOccupancy, DeviceLimitsMatchTheProgrammingGuide) {
  EXPECT_EQ(cc_limits(7, 5).smem_per_sm, 65536);
  EXPECT_EQ(cc_limits(8, 0).smem_per_sm, 167936);
  EXPECT_EQ(cc_limits(8, 6).smem_per_sm, 102400);
  EXPECT_EQ(cc_limits(9, 0).smem_per_sm, 233472);
  EXPECT_EQ(cc_limits(9, 0).smem_per_block_optin, 232448);
  EXPECT_EQ(cc_limits(7, 5).max_warps_per_sm(), 32);
  EXPECT_EQ(cc_limits(8, 6).max_warps_per_sm(), 48);
  EXPECT_EQ(cc_limits(8, 9).max_blocks_per_sm, 24);
  EXPECT_EQ(cc_limits(8, 6).max_blocks_per_sm, 16);
  EXPECT_EQ(cc_limits(2, 0).max_regs_per_thread, 63);
  EXPECT_THROW(cc_limits(4, 0), std::invalid_argument);
}

TEST(SimOccupancy, WorkedExamples) {
  // cc 8.6, 256 threads, 64 regs: 2048 regs per warp, 8 warps per sub-partition -> 4 blocks.
  auto r = compute_occupancy(cc_limits(8, 6), {256, 64, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.active_warps_per_sm, 32);
  EXPECT_EQ(r.max_warps_per_sm, 48);
  EXPECT_NEAR(r.occupancy, 2.0 / 3.0, 1e-9);
  EXPECT_EQ(r.limiters, std::vector<std::string>{"registers"});

  // cc 9.0, 1024 threads, 32 regs: two blocks fill both warps and registers.
  r = compute_occupancy(cc_limits(9, 0), {1024, 32, 8192});
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_TRUE(has(r, "warps"));
  EXPECT_TRUE(has(r, "registers"));
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);

  // cc 8.0, tiny blocks: the 32-block limit.
  r = compute_occupancy(cc_limits(8, 0), {32, 16, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 32);
  EXPECT_EQ(r.limiters, std::vector<std::string>{"blocks"});

  // cc 8.0, 48 KB + 1 KB reserve rounded -> 49 KB per block: 3 fit in 164 KB.
  r = compute_occupancy(cc_limits(8, 0), {128, 32, 48 * 1024});
  EXPECT_EQ(r.active_blocks_per_sm, 3);
  EXPECT_EQ(r.limiters, std::vector<std::string>{"shared_memory"});
}

TEST(SimOccupancy, CannotLaunchSaysWhy) {
  auto r = compute_occupancy(cc_limits(7, 5), {2048, 32, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_NE(r.reason.find("threads"), std::string::npos);
  r = compute_occupancy(cc_limits(9, 0), {1024, 128, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_NE(r.reason.find("registers"), std::string::npos);
  r = compute_occupancy(cc_limits(8, 6), {128, 32, 100 * 1024});
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_NE(r.reason.find("shared memory"), std::string::npos);
  r = compute_occupancy(cc_limits(2, 0), {256, 64, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_NE(r.reason.find("63"), std::string::npos);
  EXPECT_THROW(compute_occupancy(cc_limits(8, 0), {0, 32, 0}), std::invalid_argument);
  EXPECT_THROW(compute_occupancy(cc_limits(8, 0), {32, -1, 0}), std::invalid_argument);
}

TEST(SimOccupancy, OlderGenerationsAreSensible) {
  // GT200: 256 threads x 16 regs = 4096 regs per block -> 4 blocks of 16384; 8 warps each = 32 warps.
  auto r = compute_occupancy(cc_limits(1, 3), {256, 16, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  // Fermi: 1024-thread blocks fit once in 48 warps.
  r = compute_occupancy(cc_limits(2, 0), {1024, 32, 8192});
  EXPECT_EQ(r.active_blocks_per_sm, 1);
  EXPECT_NEAR(r.occupancy, 32.0 / 48.0, 1e-9);
  // Kepler GK210's doubled register file.
  r = compute_occupancy(cc_limits(3, 7), {1024, 64, 0});
  EXPECT_EQ(r.active_blocks_per_sm, 2);
}

#ifdef WS_HAVE_CUDA_OCCUPANCY
cudaOccDeviceProp props_for(const CcLimits& l) {
  cudaOccDeviceProp p;
  p.computeMajor = l.major;
  p.computeMinor = l.minor;
  p.maxThreadsPerBlock = l.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = l.max_threads_per_sm;
  p.regsPerBlock = l.regs_per_block;
  p.regsPerMultiprocessor = l.regs_per_sm;
  p.warpSize = 32;
  p.sharedMemPerBlock = l.smem_per_block;
  p.sharedMemPerMultiprocessor = l.smem_per_sm;
  p.numSms = 1;
  p.sharedMemPerBlockOptin = l.smem_per_block_optin;
  p.reservedSharedMemPerBlock = l.reserved_smem_per_block;
  return p;
}

void sweep(int major, int minor) {
  const CcLimits lim = cc_limits(major, minor);
  const cudaOccDeviceProp prop = props_for(lim);
  cudaOccDeviceState state;
  int checked = 0;
  for (int block : {1, 32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1000, 1024, 1056})
    for (int regs : {0, 1, 16, 24, 32, 33, 40, 48, 56, 64, 72, 80, 96, 128, 168, 200, 255, 256, 257})
      for (int smem : {0, 1, 1024, 4000, 8192, 16384, 32768, 49152, 65536, 99 * 1024, 102400, 163 * 1024,
                       200000, 227 * 1024, 240000}) {
        cudaOccFuncAttributes attr;
        attr.maxThreadsPerBlock = 1024;
        attr.numRegs = regs;
        attr.sharedSizeBytes = 0;
        attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
        attr.maxDynamicSharedSizeBytes = lim.smem_per_block_optin;
        attr.numBlockBarriers = 1;
        cudaOccResult ref{};
        ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&ref, &prop, &attr, &state, block, smem), CUDA_OCC_SUCCESS);
        const OccupancyResult mine = compute_occupancy(lim, {block, regs, smem});
        ASSERT_EQ(mine.active_blocks_per_sm, ref.activeBlocksPerMultiprocessor)
            << "cc " << major << "." << minor << " block " << block << " regs " << regs << " smem " << smem;
        EXPECT_EQ(has(mine, "warps"), (ref.limitingFactors & OCC_LIMIT_WARPS) != 0) << block << "/" << regs << "/" << smem;
        EXPECT_EQ(has(mine, "registers"), (ref.limitingFactors & OCC_LIMIT_REGISTERS) != 0) << block << "/" << regs << "/" << smem;
        EXPECT_EQ(has(mine, "shared_memory"), (ref.limitingFactors & OCC_LIMIT_SHARED_MEMORY) != 0) << block << "/" << regs << "/" << smem;
        EXPECT_EQ(has(mine, "blocks"), (ref.limitingFactors & OCC_LIMIT_BLOCKS) != 0) << block << "/" << regs << "/" << smem;
        ++checked;
      }
  EXPECT_GT(checked, 4000);
}

TEST(SimOccupancy, MatchesCudaOccupancyHeader75) { sweep(7, 5); }
TEST(SimOccupancy, MatchesCudaOccupancyHeader80) { sweep(8, 0); }
TEST(SimOccupancy, MatchesCudaOccupancyHeader86) { sweep(8, 6); }
TEST(SimOccupancy, MatchesCudaOccupancyHeader89) { sweep(8, 9); }
TEST(SimOccupancy, MatchesCudaOccupancyHeader90) { sweep(9, 0); }
TEST(SimOccupancy, MatchesCudaOccupancyHeaderOlderAndNewer) {
  for (auto [ma, mi] : {std::pair{3, 7}, {6, 0}, {6, 1}, {7, 0}, {10, 0}, {12, 0}}) sweep(ma, mi);
}
#else
TEST(SimOccupancy, MatchesCudaOccupancyHeader) { GTEST_SKIP() << "cuda_occupancy.h not installed here"; }
#endif

}  // namespace
