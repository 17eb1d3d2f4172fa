#include "core/real_run_session.hpp"

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

using namespace ws;
using namespace std::chrono_literals;

namespace {

std::atomic<int> g_started{0};

// Each job takes k milliseconds (cancellable), so tests control the duration through the shape.
kernels::JobResult timed_fake(const kernels::JobRequest& req, kernels::JobControl& control) {
  ++g_started;
  kernels::JobResult r;
  r.kernel = req.kernel;
  r.shape = req.shape;
  r.threads = req.threads;
  r.device = req.kernel == "cublas" ? kernels::Device::gpu : kernels::Device::cpu;
  for (int i = 0; i < req.shape.k; ++i) {
    if (control.cancelled()) {
      r.cancelled = true;
      return r;
    }
    std::this_thread::sleep_for(1ms);
  }
  r.ms_median = req.kernel == "cublas" ? 1.0 : 50.0;
  r.gflops = 1;
  r.verified = true;
  return r;
}

bool pump_until(app::RealRunSession& s, double& now, std::function<bool()> pred) {
  for (int i = 0; i < 5000; ++i) {
    s.update(now);
    if (pred()) return true;
    std::this_thread::sleep_for(1ms);
    now += 0.001;
  }
  return false;
}

}  // namespace

TEST(RealRunSession, RunsBothSidesAndKeepsTheirResults) {
  app::RealRunSession s(&timed_fake);
  s.controls().shape = {8, 8, 5};
  s.controls().threads = 2;
  int seen = 0;
  s.on_result = [&](const kernels::JobResult&) { ++seen; };
  s.run_now();
  double now = 0;
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_result() && s.gpu_result(); }));
  EXPECT_EQ(s.cpu_result()->kernel, "cpu-parallel");
  EXPECT_EQ(s.cpu_result()->threads, 2);
  EXPECT_EQ(s.gpu_result()->kernel, "cublas");
  EXPECT_EQ(seen, 2);
}

TEST(RealRunSession, SliderDragsBecomeOneRunAfterTheDebounce) {
  app::RealRunSession s(&timed_fake);
  s.controls().shape = {8, 8, 2};
  g_started = 0;
  double now = 0;
  for (int step = 0; step < 10; ++step) {  // ten edits, 50 ms apart: a drag
    s.controls().shape.m = 8 + step;
    s.note_controls_edited(now);
    now += 0.05;
    s.update(now);
  }
  EXPECT_EQ(g_started.load(), 0) << "a run started while the slider was still moving";
  now += app::RealRunSession::kDebounceSeconds;
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_result() && s.gpu_result(); }));
  EXPECT_EQ(g_started.load(), 2);
  EXPECT_EQ(s.cpu_result()->shape.m, 17);
}

TEST(RealRunSession, EditingCancelsTheRunningCpuJob) {
  app::RealRunSession s(&timed_fake);
  s.controls().shape = {8, 8, 20000};  // 20 s
  s.run_now();
  double now = 0;
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_job_running(); }));
  const auto t0 = std::chrono::steady_clock::now();
  s.controls().shape.k = 3;
  s.note_controls_edited(now);
  while (s.cpu_job_running() && std::chrono::steady_clock::now() - t0 < 2s) std::this_thread::sleep_for(1ms);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 100ms);
  EXPECT_FALSE(s.cpu_result().has_value()) << "a cancelled run must not show as a result";
}

namespace {

std::atomic<int> g_speed_started{0};

// A cpu-naive job that takes shape.k milliseconds and reports a measured 2 GFLOP/s: five times the
// built-in 0.4, so a test can tell which speed an estimate used.
kernels::JobResult naive_at_2_gflops(const kernels::JobRequest& req, kernels::JobControl& control) {
  ++g_speed_started;
  kernels::JobResult r;
  r.kernel = req.kernel;
  r.shape = req.shape;
  r.threads = kernels::threads_for_job(req);
  r.device = kernels::Device::cpu;
  for (int i = 0; i < req.shape.k; ++i) {
    if (control.cancelled()) {
      r.cancelled = true;
      return r;
    }
    std::this_thread::sleep_for(1ms);
  }
  r.repeats = req.repeats;
  r.gflops = 2.0;
  r.ms_median = req.shape.flops() / (r.gflops * 1e6);
  r.verified = true;
  return r;
}

// 2·4096·4096·20 = 0.671 GFLOP: 1.68 s a run at the built-in 0.4 GFLOP/s, so no warm-up; 10
// repeats make 16.8 s, above the 10 s that asks first. The fake itself takes 20 ms.
void long_naive_controls(app::RealRunSession& s) {
  s.controls().cpu_kernel = "cpu-naive";
  s.controls().gpu_kernel.clear();
  s.controls().threads = 1;
  s.controls().shape = {4096, 4096, 20};
  s.controls().repeats = 10;
}

}  // namespace

TEST(RealRunSession, AShortBatchStartsWithoutAsking) {
  app::RealRunSession s(&naive_at_2_gflops);
  long_naive_controls(s);
  s.controls().repeats = 1;  // 1.68 s
  g_speed_started = 0;
  s.run_now();
  EXPECT_FALSE(s.pending_confirmation(lesson::Language::en));
  double now = 0;
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_result().has_value(); }));
  EXPECT_EQ(g_speed_started.load(), 1);
}

TEST(RealRunSession, ALongBatchWaitsForConfirmationAndRunsAfterIt) {
  app::RealRunSession s(&naive_at_2_gflops);
  long_naive_controls(s);
  g_speed_started = 0;
  s.run_now();
  ASSERT_EQ(s.pending_confirmation(lesson::Language::en), "cpu-naive at 4096×4096×20: about 16.8 s");
  EXPECT_NE(s.pending_basis(lesson::Language::en).find("a rough built-in speed"), std::string::npos)
      << s.pending_basis(lesson::Language::en);
  EXPECT_NE(s.pending_basis(lesson::Language::ko).find("내장된 대략의 속도"), std::string::npos)
      << s.pending_basis(lesson::Language::ko);
  double now = 0;
  for (int i = 0; i < 50; ++i, now += 0.01) {  // half a second of frames: nothing may start
    s.update(now);
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_EQ(g_speed_started.load(), 0);
  EXPECT_FALSE(s.status().busy);
  s.confirm();
  EXPECT_FALSE(s.pending_confirmation(lesson::Language::en));
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_result().has_value(); }));
  EXPECT_EQ(g_speed_started.load(), 1);
  EXPECT_EQ(s.cpu_result()->shape, (kernels::Shape{4096, 4096, 20}));
}

TEST(RealRunSession, CancelDropsARunWaitingForConfirmation) {
  app::RealRunSession s(&naive_at_2_gflops);
  long_naive_controls(s);
  g_speed_started = 0;
  s.run_now();
  ASSERT_TRUE(s.pending_confirmation(lesson::Language::en));
  s.cancel();
  EXPECT_FALSE(s.pending_confirmation(lesson::Language::en));
  s.confirm();  // nothing left to confirm
  double now = 0;
  for (int i = 0; i < 20; ++i, now += 0.05) s.update(now);
  EXPECT_EQ(g_speed_started.load(), 0);
}

TEST(RealRunSession, AnEditEstimatesAgain) {
  app::RealRunSession s(&naive_at_2_gflops);
  long_naive_controls(s);
  g_speed_started = 0;
  s.run_now();
  ASSERT_TRUE(s.pending_confirmation(lesson::Language::en));
  double now = 0;
  s.controls().repeats = 20;  // 33.6 s
  s.note_controls_edited(now);
  EXPECT_FALSE(s.pending_confirmation(lesson::Language::en)) << "the question was about other controls";
  now += app::RealRunSession::kDebounceSeconds;
  s.update(now);
  EXPECT_EQ(s.pending_confirmation(lesson::Language::en), "cpu-naive at 4096×4096×20: about 33.6 s");
  EXPECT_EQ(g_speed_started.load(), 0);
  s.controls().repeats = 5;  // 8.39 s: under 10 s, starts after the debounce without asking
  s.note_controls_edited(now);
  now += app::RealRunSession::kDebounceSeconds;
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_result().has_value(); }));
  EXPECT_FALSE(s.pending_confirmation(lesson::Language::en));
  EXPECT_EQ(g_speed_started.load(), 1);
}

TEST(RealRunSession, ASpeedMeasuredEarlierDecidesInsteadOfTheBuiltInOne) {
  app::RealRunSession s(&naive_at_2_gflops);
  long_naive_controls(s);
  s.controls().repeats = 1;  // short either way: runs and measures 2 GFLOP/s
  g_speed_started = 0;
  s.run_now();
  double now = 0;
  ASSERT_TRUE(pump_until(s, now, [&] { return s.cpu_result().has_value(); }));
  // 10 repeats: 16.8 s at the built-in speed would ask; at the measured 2 GFLOP/s it is 3.36 s.
  s.controls().repeats = 10;
  const auto estimate = s.estimate();
  ASSERT_EQ(estimate.jobs.size(), 1u);
  EXPECT_TRUE(estimate.jobs[0].measured);
  EXPECT_NEAR(estimate.seconds, 3.355, 0.001);
  s.run_now();
  EXPECT_FALSE(s.pending_confirmation(lesson::Language::en));
  ASSERT_TRUE(pump_until(s, now, [&] { return g_speed_started.load() == 2 && s.cpu_result().has_value(); }));
}
