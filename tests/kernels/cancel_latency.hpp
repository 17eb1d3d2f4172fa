// How long a running job takes to return after it is cancelled, the same way for every kernel:
// start it on a thread, wait until the kernel itself reports progress (not the input fill), let it
// settle, cancel, and time the return. Each attempt must end cancelled mid-run, not skipped.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "warpscope/kernels/job.hpp"

namespace ws::kernels {

// Sorted latencies in ms, one per attempt.
inline std::vector<double> cancel_latencies_ms(const JobRequest& req, std::chrono::milliseconds settle,
                                               int attempts = 3) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> latencies;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    JobControl control;
    JobResult result;
    Clock::time_point returned;
    std::thread worker([&] {
      result = run_job(req, control);
      returned = Clock::now();
    });
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    while (control.progress.load() <= 0.0 && Clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(settle);
    const auto cancelled_at = Clock::now();
    control.cancel = true;
    worker.join();
    latencies.push_back(std::chrono::duration<double, std::milli>(returned - cancelled_at).count());
    EXPECT_TRUE(result.cancelled) << req.kernel;
    EXPECT_FALSE(result.verified);
    EXPECT_FALSE(result.skipped.has_value()) << result.skipped.value_or("");
    EXPECT_GT(control.progress.load(), 0.0);
    EXPECT_LT(control.progress.load(), 1.0);
  }
  std::sort(latencies.begin(), latencies.end());
  return latencies;
}

// Records and prints the median, and checks it against `limit_ms`.
inline void expect_median_below(const std::vector<double>& latencies, double limit_ms, const char* what) {
  ASSERT_FALSE(latencies.empty());
  const double median = latencies[latencies.size() / 2];
  ::testing::Test::RecordProperty("median_cancel_ms", std::to_string(median));
  std::printf("%s cancel latency: min %.2f ms, median %.2f ms, max %.2f ms\n", what, latencies.front(), median,
              latencies.back());
  EXPECT_LT(median, limit_ms) << "latencies " << latencies.front() << ", " << median << ", " << latencies.back();
}

}  // namespace ws::kernels
