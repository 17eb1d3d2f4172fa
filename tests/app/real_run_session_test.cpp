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
