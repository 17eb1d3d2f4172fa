// The GPU kernels: verified on awkward shapes where a device exists; elsewhere they must say
// exactly why they cannot run, and run_job must report that reason as `skipped`.

#include <gtest/gtest.h>

#include <string>

#include "precision.hpp"
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
  // 200 x 136 x 72: vector loads (n and k multiples of 8) with partial tiles in m and n and a
  // partial last step of 32 in k, the case cp.async's zero fill and the paired stores must get right.
  for (const Shape s : {Shape{1, 1, 1}, Shape{17, 33, 65}, Shape{1000, 777, 333}, Shape{31, 1, 1025},
                        Shape{200, 136, 72}, Shape{512, 512, 512}}) {
    JobRequest req;
    req.kernel = kernel;
    req.shape = s;
    req.repeats = 2;
    JobControl control;
    const JobResult r = run_job(req, control);
    ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
    ASSERT_FALSE(r.failed.has_value()) << *r.failed;
    EXPECT_TRUE(r.verified) << kernel << " " << s.m << "x" << s.n << "x" << s.k << ": "
                            << r.max_rel_error << " " << r.detail;
    const InputFormat format = input_format(kernel);
    EXPECT_LE(r.max_rel_error, format_tolerance(s.k, format));
    EXPECT_EQ(r.input_format, to_string(format));
    // What the reduced format costs is reported, and it is real: above the rounded check's error.
    EXPECT_EQ(r.max_rel_error_vs_fp32.has_value(), format != InputFormat::fp32);
    if (r.max_rel_error_vs_fp32 && s.k >= 64) {
      EXPECT_GT(*r.max_rel_error_vs_fp32, r.max_rel_error);
    }
    ASSERT_TRUE(r.transfer_ms.has_value());
    EXPECT_GT(*r.transfer_ms, 0.0);
    EXPECT_GT(r.ms_median, 0.0);
    EXPECT_EQ(r.threads, 0);
    EXPECT_EQ(r.repeats, 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Gpu, CudaKernel,
                         ::testing::Values("cuda-naive", "cuda-tiled", "cuda-regblock", "cuda-warptiled", "cuda-tensor",
                                           "cublas", "cublas-tf32", "cublas-bf16"),
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
    // The reason names its cause: the CUDA error (cudaErrorInsufficientDriver, ...) or, for a GPU
    // older than the build, the oldest architecture built.
    const bool names_cause = why->find("cudaError") != std::string::npos || why->find("sm_75") != std::string::npos;
    EXPECT_TRUE(names_cause) << *why;
  }
#endif
}

}  // namespace
}  // namespace ws::kernels

namespace ws::kernels {
namespace {

TEST(CudaStatus, EveryCudaKernelIsListedWithAReasonWhenUnavailable) {
  for (const char* name : {"cuda-naive", "cuda-tiled", "cuda-regblock", "cuda-warptiled", "cuda-tensor", "cublas",
                           "cublas-tf32", "cublas-bf16"}) {
    const KernelInfo* info = find_kernel(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->device, Device::gpu);
    EXPECT_FALSE(info->description.empty());
    if (const auto why = unavailable_reason(name)) {
      EXPECT_FALSE(why->empty()) << name;
      // Without a device, every CUDA kernel gives the device's reason, not one of its own.
      if (unavailable_reason("cuda-naive")) {
        EXPECT_EQ(*why, *unavailable_reason("cuda-naive")) << name;
      }
    }
  }
}

TEST(CudaStatus, BigGpuRunsStillGetAWarmUp) {
  // H100-class speeds: a 8192^3 naive run (~0.4 s there) and a 16384^3 cuBLAS run are warmed up,
  // so their timing is not of a cold first launch.
  JobRequest naive;
  naive.kernel = "cuda-naive";
  naive.shape = Shape{8192, 8192, 8192};
  EXPECT_EQ(warmup_runs(naive), 1);
  JobRequest blas;
  blas.kernel = "cublas";
  blas.shape = Shape{16384, 16384, 16384};
  EXPECT_EQ(warmup_runs(blas), 1);
  JobRequest slow;
  slow.kernel = "cuda-naive";
  slow.shape = Shape{16384, 16384, 16384};
  EXPECT_EQ(warmup_runs(slow), 0);  // ~3 s even on an H100: a warm-up would double the wait
}

}  // namespace
}  // namespace ws::kernels
