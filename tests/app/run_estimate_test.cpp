// The wall-time estimate shown before a real run: which speed it uses, run_job's warm-up rule, and
// the words. Expected figures are worked out by hand in the comments from the built-in speeds
// (kernels::expected_gflops: cpu-naive 0.4 GFLOP/s, cpu-parallel 30 per thread).

#include "core/run_estimate.hpp"

#include <gtest/gtest.h>

using namespace ws;

namespace {

kernels::JobRequest request(const std::string& kernel, kernels::Shape shape, int repeats, int threads = 1) {
  kernels::JobRequest r;
  r.kernel = kernel;
  r.shape = shape;
  r.repeats = repeats;
  r.threads = threads;
  return r;
}

kernels::JobResult measured(const std::string& kernel, kernels::Shape shape, int threads, double gflops) {
  kernels::JobResult r;
  r.kernel = kernel;
  r.shape = shape;
  r.threads = threads;
  r.gflops = gflops;
  r.ms_median = shape.flops() / (gflops * 1e6);
  r.verified = true;
  return r;
}

}  // namespace

TEST(RunEstimate, BuiltInSpeedWithoutAnyMeasurement) {
  // 2·4096³ = 137.44 GFLOP at 0.4 GFLOP/s: 343.6 s for one run, so no warm-up.
  const auto e = app::estimate_job(request("cpu-naive", {4096, 4096, 4096}, 1), {});
  ASSERT_TRUE(e);
  EXPECT_FALSE(e->measured);
  EXPECT_DOUBLE_EQ(e->gflops, 0.4);
  EXPECT_EQ(e->threads, 1);
  EXPECT_EQ(e->runs, 1);
  EXPECT_NEAR(e->seconds, 343.597, 0.001);
  EXPECT_EQ(app::estimate_sentence({{*e}, e->seconds}, lesson::Language::en), "cpu-naive at 4096³: about 5.73 min");
}

TEST(RunEstimate, FollowsRunJobsWarmUpRule) {
  // 512³: 0.268 GFLOP, 0.671 s a run at 0.4 GFLOP/s: under a second, so one warm-up + 3 repeats.
  const auto small = request("cpu-naive", {512, 512, 512}, 3);
  EXPECT_EQ(kernels::warmup_runs(small), 1);
  const auto e = app::estimate_job(small, {});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->runs, 4);
  EXPECT_NEAR(e->seconds, 4 * 0.67108864, 1e-9);
  // 1024³: 2.15 GFLOP, 5.4 s a run: no warm-up, as run_job's detail says for such runs.
  const auto big = request("cpu-naive", {1024, 1024, 1024}, 3);
  EXPECT_EQ(kernels::warmup_runs(big), 0);
  EXPECT_EQ(app::estimate_job(big, {})->runs, 3);
}

TEST(RunEstimate, ASpeedMeasuredInThisSessionBeatsTheBuiltInOne) {
  app::MeasuredSpeeds speeds;
  speeds.add(measured("cpu-naive", {1024, 1024, 1024}, 1, 1.6));
  // 2048³ = 17.18 GFLOP: one run is 42.9 s at the built-in 0.4 GFLOP/s, so run_job makes no
  // warm-up (its rule uses the built-in speed); 5 runs at the measured 1.6 GFLOP/s = 53.7 s.
  const auto e = app::estimate_job(request("cpu-naive", {2048, 2048, 2048}, 5), speeds);
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->measured);
  EXPECT_DOUBLE_EQ(e->gflops, 1.6);
  EXPECT_EQ(e->runs, 5);
  EXPECT_NEAR(e->seconds, 53.687, 0.001);
  EXPECT_EQ(app::format_duration(e->seconds), "53.7 s");
  const app::BatchEstimate batch{{*e}, e->seconds};
  EXPECT_EQ(app::estimate_basis(batch, lesson::Language::en),
            "cpu-naive 53.7 s: 1.6 GFLOP/s × 5 runs, the speed measured here");
  EXPECT_EQ(app::estimate_basis(batch, lesson::Language::ko), "cpu-naive 53.7 s: 1.6 GFLOP/s × 5회, 이 컴퓨터에서 측정한 속도");
}

TEST(RunEstimate, OnlyTheSameKernelAndThreadCountAndTheNearestSizeCount) {
  app::MeasuredSpeeds speeds;
  speeds.add(measured("cpu-blas", {2048, 2048, 2048}, 2, 90.0));    // other thread count
  speeds.add(measured("cpu-parallel", {2048, 2048, 2048}, 1, 9.0));  // other kernel
  auto wrong = measured("cpu-blas", {2048, 2048, 2048}, 1, 500.0);
  wrong.verified = false;  // a wrong result may have skipped work: its speed means nothing
  speeds.add(wrong);
  EXPECT_FALSE(speeds.gflops("cpu-blas", 1, {2048, 2048, 2048}));
  speeds.add(measured("cpu-blas", {256, 256, 256}, 1, 12.0));
  speeds.add(measured("cpu-blas", {2048, 2048, 2048}, 1, 40.0));
  EXPECT_EQ(speeds.gflops("cpu-blas", 1, {4096, 4096, 4096}), 40.0);
  EXPECT_EQ(speeds.gflops("cpu-blas", 1, {128, 128, 128}), 12.0);
  EXPECT_EQ(speeds.gflops("cpu-blas", 2, {128, 128, 128}), 90.0);
}

TEST(RunEstimate, ABatchIsTheSumOfItsJobs) {
  // cpu-naive 2048³ × 5 runs at 0.4: 214.75 s. cpu-parallel on 2 threads (60 GFLOP/s): 0.286 s a
  // run, so a warm-up + 5 repeats: 1.72 s. Together 216.47 s.
  const auto b = app::estimate_batch(
      {request("cpu-naive", {2048, 2048, 2048}, 5, 2), request("cpu-parallel", {2048, 2048, 2048}, 5, 2)}, {});
  ASSERT_EQ(b.jobs.size(), 2u);
  EXPECT_EQ(b.jobs[1].threads, 2);
  EXPECT_EQ(b.jobs[1].runs, 6);
  EXPECT_NEAR(b.seconds, 216.466, 0.001);
  EXPECT_TRUE(b.long_run());
  EXPECT_EQ(app::estimate_sentence(b, lesson::Language::en), "cpu-naive then cpu-parallel at 2048³: about 3.61 min");
}

TEST(RunEstimate, AJobRunJobWouldRefuseTakesNoTime) {
  EXPECT_FALSE(app::estimate_job(request("no-such-kernel", {64, 64, 64}, 1), {}));
  EXPECT_FALSE(app::estimate_job(request("cpu-naive", {20000, 64, 64}, 1), {}));
  if (kernels::unavailable_reason("cuda-naive")) {
    // 16384³ at 500 GFLOP/s would be 17.6 s, but it cannot run here at all.
    const auto b = app::estimate_batch({request("cuda-naive", {16384, 16384, 16384}, 1)}, {});
    EXPECT_TRUE(b.jobs.empty());
    EXPECT_FALSE(b.long_run());
    EXPECT_EQ(app::estimate_sentence(b, lesson::Language::en), "");
  }
}

TEST(RunEstimate, DurationsInSecondsMinutesAndHoursToThreeFigures) {
  EXPECT_EQ(app::format_duration(0.5), "0.5 s");
  EXPECT_EQ(app::format_duration(12.345), "12.3 s");
  EXPECT_EQ(app::format_duration(16.777), "16.8 s");
  EXPECT_EQ(app::format_duration(59.96), "1 min");  // rounds to 60 s first
  EXPECT_EQ(app::format_duration(343.597), "5.73 min");
  EXPECT_EQ(app::format_duration(3599.9), "1 h");
  EXPECT_EQ(app::format_duration(21990.23), "6.11 h");    // cpu-naive 16384³, one run
  EXPECT_EQ(app::format_duration(439804.65), "122 h");    // ... and 20 repeats
  EXPECT_EQ(app::format_duration(1e7), "2780 h");
  // The 16384³ sentence the issue asked about, as the window and bench print it.
  app::JobEstimate e;
  e.kernel = "cpu-naive";
  e.shape = {16384, 16384, 16384};
  e.seconds = 21990.23;
  EXPECT_EQ(app::estimate_sentence({{e}, e.seconds}, lesson::Language::en), "cpu-naive at 16384³: about 6.11 h");
}
