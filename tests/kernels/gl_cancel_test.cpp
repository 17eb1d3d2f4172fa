// Cancelling a GL job of many seconds must return within 100 ms: the backend dispatches C in
// chunks of ~30 ms and checks the flag between them and while waiting on each chunk's fence.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "cancel_latency.hpp"
#include "gl_test_support.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::kernels {
namespace {

[[maybe_unused]] auto* const no_window_system = ::testing::AddGlobalTestEnvironment(new testing::NoWindowSystem);

class GlCancel : public testing::GlTest {};

// gl-naive 2048^3 is 17 GFLOP: tens of seconds on llvmpipe, a few milliseconds per chunk on a GPU.
TEST_F(GlCancel, NaiveStopsWithin100Milliseconds) {
  JobRequest req;
  req.kernel = "gl-naive";
  req.shape = Shape{2048, 2048, 2048};
  req.repeats = 3;
  // Past the first chunk, and long enough for the chunk size to adapt and two to be in flight.
  expect_median_below(cancel_latencies_ms(req, std::chrono::milliseconds(150)), 100.0, "GL");
}

}  // namespace
}  // namespace ws::kernels
