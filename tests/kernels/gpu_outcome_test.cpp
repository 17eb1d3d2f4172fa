// A GPU run that failed after the kernel started is a failure with its error, never a "wrong
// result" with 0 checked elements; a refusal before it is a skip; a finished run is timed.

#include <gtest/gtest.h>

#include "gpu_outcome.hpp"

namespace ws::kernels {
namespace {

TEST(GpuOutcome, ALaunchFailureIsAFailureWithItsError) {
  GpuOutcome out;
  out.error = "CUDA error in cudaEventSynchronize: cudaErrorIllegalAddress (an illegal memory access)";
  out.before_kernel = false;
  JobResult r;
  EXPECT_FALSE(take_gpu_outcome(std::move(out), r));
  ASSERT_TRUE(r.failed.has_value());
  EXPECT_NE(r.failed->find("cudaErrorIllegalAddress"), std::string::npos);
  EXPECT_FALSE(r.skipped.has_value());
  EXPECT_FALSE(r.verified);
}

TEST(GpuOutcome, ARefusalIsASkip) {
  GpuOutcome out;
  out.error = "CUDA error in cudaMalloc: cudaErrorMemoryAllocation (out of memory)";
  out.before_kernel = true;
  JobResult r;
  EXPECT_FALSE(take_gpu_outcome(std::move(out), r));
  ASSERT_TRUE(r.skipped.has_value());
  EXPECT_FALSE(r.failed.has_value());
}

TEST(GpuOutcome, AFinishedRunIsTimed) {
  GpuOutcome out;
  out.kernel_ms = {4.0, 2.0, 3.0};
  out.transfer_ms = 1.5;
  JobResult r;
  r.shape = Shape{1000, 1000, 1000};
  EXPECT_TRUE(take_gpu_outcome(std::move(out), r));
  EXPECT_EQ(r.repeats, 3);
  EXPECT_DOUBLE_EQ(r.ms_median, 3.0);
  EXPECT_DOUBLE_EQ(r.ms_min, 2.0);
  EXPECT_DOUBLE_EQ(r.gflops, 2e9 / 3e6);
  ASSERT_TRUE(r.transfer_ms.has_value());
  EXPECT_DOUBLE_EQ(*r.transfer_ms, 1.5);
  EXPECT_FALSE(r.failed.has_value());
}

TEST(GpuOutcome, ACancelIsACancel) {
  GpuOutcome out;
  out.cancelled = true;
  JobResult r;
  EXPECT_FALSE(take_gpu_outcome(std::move(out), r));
  EXPECT_TRUE(r.cancelled);
  EXPECT_FALSE(r.failed.has_value());
}

}  // namespace
}  // namespace ws::kernels
