// The resource line beside a real CUDA kernel: the occupancy calculator's verdict on the kernel's
// registers, shared memory and block, with where the figures come from.

#include <gtest/gtest.h>

#include "core/kernel_resources_text.hpp"

namespace ws::app {
namespace {

kernels::KernelResourceUsage usage(int regs, int smem, int threads, bool from_build) {
  kernels::KernelResourceUsage u;
  u.registers = regs;
  u.shared_bytes = smem;
  u.block_threads = threads;
  u.from_build = from_build;
  u.arch = "sm_90";
  u.cc_major = 9;
  u.cc_minor = 0;
  return u;
}

TEST(KernelResourcesText, RegistersLimitARegblockLikeKernel) {
  // 64 regs x 256 threads = 16384 registers per block: 4 blocks of 65536 per SM, 32 of 64 warps.
  EXPECT_EQ(resource_sentence(usage(64, 8192, 256, true), lesson::Language::en),
            "64 regs, 8 KiB shared, 256 threads: 4 blocks/SM, 50 % occupancy, limited by registers (from the build, sm_90)");
}

TEST(KernelResourcesText, WarptilingTradesOccupancyForRegisters) {
  // cuda-warptiled's sm_90 figures (docs/PERFORMANCE.md): 127 regs round to 4096 per warp.
  EXPECT_EQ(resource_sentence(usage(127, 16384, 256, true), lesson::Language::en),
            "127 regs, 16 KiB shared, 256 threads: 2 blocks/SM, 25 % occupancy, limited by registers (from the build, sm_90)");
}

TEST(KernelResourcesText, TheKoreanPanelSaysItInKorean) {
  EXPECT_EQ(resource_sentence(usage(64, 8192, 256, true), lesson::Language::ko),
            "레지스터 64개, 공유 메모리 8 KiB, 스레드 256개: SM당 블록 4개, 점유율 50 %, 제한 요인: 레지스터 (빌드 기준, sm_90)");
  auto u = usage(80, 8192, 1024, false);
  u.max_threads_per_block = 768;
  EXPECT_EQ(resource_sentence(u, lesson::Language::ko),
            "레지스터 80개, 공유 메모리 8 KiB, 스레드 1024개: 실행 불가, 블록당 스레드 최대 768개 (이 GPU, sm_90)");
}

TEST(KernelResourcesText, SaysWhenFiguresAreThisGpus) {
  const std::string s = resource_sentence(usage(32, 0, 256, false), lesson::Language::en);
  EXPECT_NE(s.find("no shared memory"), std::string::npos) << s;
  EXPECT_NE(s.find("100 % occupancy"), std::string::npos) << s;
  EXPECT_NE(s.find("(this GPU, sm_90)"), std::string::npos) << s;
}

TEST(KernelResourcesText, ABlockTooBigForTheFunctionCannotLaunch) {
  auto u = usage(80, 8192, 1024, false);
  u.max_threads_per_block = 768;
  EXPECT_NE(resource_sentence(u, lesson::Language::en).find("cannot launch, at most 768 threads per block"), std::string::npos);
}

TEST(KernelResourcesText, NoLineForKernelsWithoutFigures) {
  EXPECT_FALSE(resource_line("cpu-naive", kernels::Shape{}, lesson::Language::en).has_value());
  EXPECT_FALSE(resource_line("gl-regblock", kernels::Shape{}, lesson::Language::en).has_value());
  EXPECT_FALSE(resource_line("cublas", kernels::Shape{}, lesson::Language::en).has_value());
#ifdef WARPSCOPE_HAVE_CUDA
  // Without a GPU the build's ptxas figures stand in, labelled as such.
  const auto line = resource_line("cuda-regblock", kernels::Shape{1024, 1024, 1024}, lesson::Language::en);
  ASSERT_TRUE(line.has_value());
  EXPECT_NE(line->find("256 threads"), std::string::npos) << *line;
#endif
}

}  // namespace
}  // namespace ws::app
