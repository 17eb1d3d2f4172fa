#include "core/job_runner.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "warpscope/sim/simulation.hpp"

using namespace ws;
using namespace std::chrono_literals;

namespace {

// A fake kernel that "works" for `shape.m` milliseconds, polling cancellation each millisecond,
// so the runner's behaviour can be tested without real arithmetic.
kernels::JobResult fake_run(const kernels::JobRequest& req, kernels::JobControl& control) {
  kernels::JobResult r;
  r.kernel = req.kernel;
  r.shape = req.shape;
  r.device = req.kernel.rfind("cuda", 0) == 0 || req.kernel == "cublas" ? kernels::Device::gpu : kernels::Device::cpu;
  for (int i = 0; i < req.shape.m; ++i) {
    if (control.cancelled()) {
      r.cancelled = true;
      return r;
    }
    control.progress = double(i) / req.shape.m;
    std::this_thread::sleep_for(1ms);
  }
  r.ms_median = req.shape.m;
  r.verified = true;
  return r;
}

kernels::JobRequest job(const char* kernel, int ms) {
  kernels::JobRequest r;
  r.kernel = kernel;
  r.shape = {ms, 1, 1};
  return r;
}

template <class Pred>
bool wait_for(Pred pred, std::chrono::milliseconds limit = 5s) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

}  // namespace

TEST(JobRunner, RunsABatchInOrder) {
  app::JobRunner runner(&fake_run);
  const auto batch = runner.submit({job("cpu-naive", 5), job("cublas", 3)});
  std::vector<app::FinishedJob> done;
  ASSERT_TRUE(wait_for([&] {
    for (auto& f : runner.take_finished()) done.push_back(f);
    return done.size() == 2;
  }));
  EXPECT_EQ(done[0].result.kernel, "cpu-naive");
  EXPECT_EQ(done[1].result.kernel, "cublas");
  EXPECT_EQ(done[0].batch, batch);
  EXPECT_FALSE(done[0].result.cancelled);
  EXPECT_DOUBLE_EQ(done[0].result.ms_median, 5);
}

// A finished job whose result nobody has taken yet is still reported: the session stays busy
// until it has the result (a headless --wait-results run once stopped one frame too early).
TEST(JobRunner, AFinishedResultNotYetTakenIsCounted) {
  app::JobRunner runner(&fake_run);
  runner.submit({job("cpu-naive", 2)});
  ASSERT_TRUE(wait_for([&] { return runner.status().untaken == 1; }));
  EXPECT_FALSE(runner.status().busy);
  EXPECT_EQ(runner.status().queued, 0);
  EXPECT_EQ(runner.take_finished().size(), 1u);
  EXPECT_EQ(runner.status().untaken, 0);
}

TEST(JobRunner, NewBatchCancelsTheRunningJobQuickly) {
  app::JobRunner runner(&fake_run);
  runner.submit({job("cpu-naive", 10000)});
  ASSERT_TRUE(wait_for([&] { return runner.cpu_job_running(); }));
  const auto t0 = std::chrono::steady_clock::now();
  const auto second = runner.submit({job("cpu-parallel", 1)});
  std::vector<app::FinishedJob> done;
  ASSERT_TRUE(wait_for([&] {
    for (auto& f : runner.take_finished()) done.push_back(f);
    return !done.empty();
  }));
  const auto latency = std::chrono::steady_clock::now() - t0;
  EXPECT_TRUE(done[0].result.cancelled);
  EXPECT_LT(latency, 100ms);
  ASSERT_TRUE(wait_for([&] {
    for (auto& f : runner.take_finished()) done.push_back(f);
    return done.size() == 2;
  }));
  EXPECT_EQ(done[1].batch, second);
  EXPECT_FALSE(done[1].result.cancelled);
}

TEST(JobRunner, CancelAllDropsQueuedWork) {
  app::JobRunner runner(&fake_run);
  runner.submit({job("cpu-naive", 10000), job("cpu-blas", 1), job("cublas", 1)});
  ASSERT_TRUE(wait_for([&] { return runner.status().busy; }));
  runner.cancel_all();
  ASSERT_TRUE(wait_for([&] { return !runner.status().busy; }));
  std::this_thread::sleep_for(20ms);
  const auto done = runner.take_finished();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_TRUE(done[0].result.cancelled);
  EXPECT_EQ(runner.status().queued, 0);
}

TEST(JobRunner, ReportsProgressOfTheRunningJob) {
  app::JobRunner runner(&fake_run);
  runner.submit({job("cpu-naive", 400)});
  ASSERT_TRUE(wait_for([&] { return runner.status().progress > 0.1; }));
  const auto s = runner.status();
  EXPECT_TRUE(s.busy);
  EXPECT_EQ(s.kernel, "cpu-naive");
  EXPECT_LT(s.progress, 1.0);
}

TEST(JobRunner, DestructorStopsALongJob) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    app::JobRunner runner(&fake_run);
    runner.submit({job("cpu-naive", 100000)});
    wait_for([&] { return runner.status().busy; });
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

namespace {
std::atomic<int> held_during_job{-1};  // what the last fake job saw: 1 held, 0 not
kernels::JobResult run_noting_the_hold(const kernels::JobRequest& req, kernels::JobControl& control) {
  held_during_job = sim::background_runs_held() ? 1 : 0;
  return fake_run(req, control);
}
}  // namespace

// The simulation's background runs wait exactly while a kernel is timed on the CPU cores (a
// thread waiting for a simulation no longer lets it run beside the timing), not while a GPU
// kernel runs, and never after.
TEST(JobRunner, HoldsTheSimulationWhileACpuKernelIsTimed) {
  app::JobRunner runner(&run_noting_the_hold);
  EXPECT_FALSE(sim::background_runs_held());
  runner.submit({job("cpu-naive", 5)});
  ASSERT_TRUE(wait_for([&] { return !runner.status().busy && runner.status().untaken == 1; }));
  EXPECT_EQ(held_during_job.load(), 1);
  EXPECT_FALSE(sim::background_runs_held());
  runner.take_finished();
  runner.submit({job("cublas", 5)});
  ASSERT_TRUE(wait_for([&] { return !runner.status().busy && runner.status().untaken == 1; }));
  EXPECT_EQ(held_during_job.load(), 0);
  EXPECT_FALSE(sim::background_runs_held());
}
