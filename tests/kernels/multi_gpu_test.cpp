// cuda-multi (issue 15 item 5): the column split covers every column once, and a machine with
// fewer than two CUDA GPUs says so plainly instead of running anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "multi_gpu.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels {
namespace {

TEST(MultiGpu, ColumnSharesTileEveryColumnOnceAndDifferByAtMostOne) {
  for (int n : {1, 2, 7, 64, 1000, 4097})
    for (int devices = 1; devices <= 8 && devices <= n; ++devices) {
      int next = 0, smallest = n, largest = 0;
      for (int d = 0; d < devices; ++d) {
        const auto s = cuda::column_share(n, devices, d);
        EXPECT_EQ(s.first, next) << n << " columns, GPU " << d << " of " << devices;
        next += s.count;
        smallest = std::min(smallest, s.count);
        largest = std::max(largest, s.count);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(largest - smallest, 1);
      EXPECT_GE(smallest, 1);
    }
}

TEST(MultiGpu, FewerThanTwoGpusIsSaidPlainly) {
  if (cuda::device_count() >= 2) GTEST_SKIP() << "this machine has " << cuda::device_count() << " CUDA GPUs";
  const std::string expected = "needs 2 CUDA GPUs; this machine has " + std::to_string(cuda::device_count());
  const auto why = unavailable_reason("cuda-multi");
  ASSERT_TRUE(why.has_value());
  EXPECT_EQ(why->rfind(expected, 0), 0u) << *why;
  JobControl control;
  const JobResult r = run_job({"cuda-multi", {256, 256, 256}, 0, 3}, control);
  ASSERT_TRUE(r.skipped.has_value());
  EXPECT_EQ(r.skipped->rfind(expected, 0), 0u) << *r.skipped;
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.ms_median, 0);
}

TEST(MultiGpu, SplitsVerifiedOnSeveralGpus) {
  if (cuda::device_count() < 2) GTEST_SKIP() << "needs 2 CUDA GPUs";
  JobControl control;
  const JobResult r = run_job({"cuda-multi", {1000, 1537, 700}, 0, 3}, control);
  EXPECT_FALSE(r.skipped.has_value()) << r.skipped.value_or("");
  EXPECT_FALSE(r.failed.has_value()) << r.failed.value_or("");
  EXPECT_TRUE(r.verified) << r.max_rel_error;
  EXPECT_GT(r.ms_median, 0);
}

}  // namespace
}  // namespace ws::kernels
