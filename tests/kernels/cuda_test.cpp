// The GPU kernels: verified on awkward shapes where a device exists; elsewhere they must say
// exactly why they cannot run, and run_job must report that reason as `skipped`.

#include <gtest/gtest.h>

#include <string>

#include "verify.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels {
namespace {

class CudaKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaKernel, RunsAndVerifiesOrSaysWhyNot) {
  const std::string kernel = GetParam();
  ASSERT_NE(find_kernel(kernel), nullptr);
  EXPECT_EQ(find_kernel(kernel)->device, Device::gpu);
  if (const auto why = unavailable_reason(kernel)) {
    EXPECT_FALSE(why->empty());
    JobRequest req;
    req.kernel = kernel;
    req.shape = Shape{64, 64, 64};
    JobControl control;
    const JobResult r = run_job(req, control);
    ASSERT_TRUE(r.skipped.has_value());
    EXPECT_EQ(*r.skipped, *why);
    EXPECT_FALSE(r.verified);
    GTEST_SKIP() << "skipped: no CUDA device (" << *why << ")";
  }
  for (const Shape s : {Shape{1, 1, 1}, Shape{17, 33, 65}, Shape{1000, 777, 333}, Shape{31, 1, 1025},
                        Shape{512, 512, 512}}) {
    JobRequest req;
    req.kernel = kernel;
    req.shape = s;
    req.repeats = 2;
    JobControl control;
    const JobResult r = run_job(req, control);
    ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
    EXPECT_TRUE(r.verified) << kernel << " " << s.m << "x" << s.n << "x" << s.k << ": "
                            << r.max_rel_error << " " << r.detail;
    EXPECT_LE(r.max_rel_error, verification_tolerance(s.k));
    ASSERT_TRUE(r.transfer_ms.has_value());
    EXPECT_GT(*r.transfer_ms, 0.0);
    EXPECT_GT(r.ms_median, 0.0);
    EXPECT_EQ(r.threads, 0);
    EXPECT_EQ(r.repeats, 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, CudaKernel, ::testing::Values("cuda-naive", "cuda-tiled", "cublas"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (auto& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

TEST(CudaStatus, StatusAgreesWithAvailability) {
  const auto why = unavailable_reason("cuda-naive");
  EXPECT_EQ(gpu_info().has_value(), !why.has_value());
  EXPECT_FALSE(gpu_status().empty());
  if (why) {
    EXPECT_EQ(gpu_status(), *why);
  }
#ifndef WARPSCOPE_HAVE_CUDA
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(*why, "built without the CUDA toolkit");
#else
  if (why) {
    // The exact CUDA error name is part of the reason, e.g. cudaErrorInsufficientDriver.
    EXPECT_NE(why->find("cudaError"), std::string::npos) << *why;
  }
#endif
}

}  // namespace
}  // namespace ws::kernels
