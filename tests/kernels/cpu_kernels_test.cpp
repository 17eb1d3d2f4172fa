// Every CPU kernel on awkward shapes, through run_job (which poisons C with NaN before each run
// and verifies against fp64), plus the micro-kernels and thread splits of cpu-parallel directly.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/cpu_kernels.hpp"
#include "cpu/microkernel.hpp"
#include "verify.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::kernels {
namespace {

std::vector<float> random_matrix(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (auto& x : v) x = dist(rng);
  return v;
}

using ShapeCase = std::tuple<std::string, Shape>;

class CpuKernelShapes : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(CpuKernelShapes, RunJobVerifiesAgainstFp64) {
  const auto& [kernel, shape] = GetParam();
  if (auto why = unavailable_reason(kernel)) GTEST_SKIP() << "skipped: " << *why;
  JobRequest req;
  req.kernel = kernel;
  req.shape = shape;
  req.threads = 2;
  req.repeats = 1;
  JobControl control;
  const JobResult r = run_job(req, control);
  ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
  EXPECT_FALSE(r.cancelled);
  EXPECT_TRUE(r.verified) << "max_rel_error " << r.max_rel_error << " " << r.detail;
  EXPECT_LE(r.max_rel_error, verification_tolerance(shape.k));
  EXPECT_EQ(r.repeats, 1);
  EXPECT_GT(r.ms_median, 0.0);
  EXPECT_GT(r.gflops, 0.0);
  EXPECT_FALSE(r.transfer_ms.has_value());
  EXPECT_EQ(r.device, Device::cpu);
  EXPECT_GE(r.threads, 1);
  const std::size_t elements = static_cast<std::size_t>(shape.m) * shape.n;
  EXPECT_EQ(r.checked_elements, verifies_every_element(shape) ? elements : kSampleSize);
  EXPECT_DOUBLE_EQ(control.progress.load(), 1.0);
}

const Shape kShapes[] = {{1, 1, 1},     {17, 33, 65},   {1000, 777, 333}, {5, 300, 7},
                         {300, 5, 513}, {6, 16, 256},   {7, 17, 257},     {3, 4200, 40},
                         {64, 64, 64},  {129, 2, 1}};

std::string case_name(const ::testing::TestParamInfo<ShapeCase>& info) {
  const std::string& kernel = std::get<0>(info.param);
  const Shape& s = std::get<1>(info.param);
  std::string name = kernel + "_" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
  for (auto& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllCpu, CpuKernelShapes,
                         ::testing::Combine(::testing::Values("cpu-naive", "cpu-parallel", "cpu-blas"),
                                            ::testing::ValuesIn(kShapes)),
                         case_name);

// Thread counts that do not divide the work evenly, and more threads than cores.
TEST(CpuParallel, AnyThreadCountGivesTheSameCorrectResult) {
  const Shape s{203, 317, 301};  // 64 351 elements: verified in full
  const auto a = random_matrix(static_cast<std::size_t>(s.m) * s.k, 1);
  const auto b = random_matrix(static_cast<std::size_t>(s.k) * s.n, 2);
  for (int threads : {1, 2, 3, 5, 8}) {
    std::vector<float> c(static_cast<std::size_t>(s.m) * s.n, std::numeric_limits<float>::quiet_NaN());
    const cpu::Gemm g{s.m, s.n, s.k, a.data(), b.data(), c.data()};
    ASSERT_TRUE(cpu::parallel(g, threads, RunControl{}));
    const Verification v = verify(a.data(), b.data(), c.data(), s, 7);
    EXPECT_TRUE(v.ok) << threads << " threads: max_rel_error " << v.max_rel_error << ", non-finite " << v.non_finite;
    EXPECT_TRUE(v.full);
  }
}

TEST(CpuParallel, TallThinMatrix) {
  const Shape s{997, 3, 70};
  const cpu::Gemm g{s.m, s.n, s.k, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_threads_for(g, 2), 1);  // 997*3*70 multiply-adds: too little to split
  const Shape big{4000, 20, 300};
  const cpu::Gemm gb{big.m, big.n, big.k, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_threads_for(gb, 2), 2);
  const auto a = random_matrix(static_cast<std::size_t>(big.m) * big.k, 3);
  const auto b = random_matrix(static_cast<std::size_t>(big.k) * big.n, 4);
  std::vector<float> c(static_cast<std::size_t>(big.m) * big.n, std::numeric_limits<float>::quiet_NaN());
  ASSERT_TRUE(cpu::parallel({big.m, big.n, big.k, a.data(), b.data(), c.data()}, 2, RunControl{}));
  const Verification v = verify(a.data(), b.data(), c.data(), big, 9);
  EXPECT_TRUE(v.ok) << v.max_rel_error;
  EXPECT_EQ(v.non_finite, 0u);
}

TEST(CpuParallel, SmallProblemsUseOneThread) {
  const cpu::Gemm g{1, 1, 1, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_threads_for(g, 8), 1);
}

// The AVX2 and the portable micro-kernel must agree on full and edge tiles, overwrite and add.
TEST(CpuMicroKernel, Avx2MatchesPortable) {
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) GTEST_SKIP() << "no AVX2+FMA here";
  const int kc = 37;
  const auto a = random_matrix(static_cast<std::size_t>(kc) * cpu::kMR, 5);
  std::vector<float> b(static_cast<std::size_t>(kc) * cpu::kNR);
  {
    const auto r = random_matrix(b.size(), 6);
    b = r;
  }
  alignas(64) static float bp[37 * 16];
  std::copy(b.begin(), b.end(), bp);
  for (int mr : {6, 1, 5}) {
    for (int nr : {16, 1, 9}) {
      for (bool accumulate : {false, true}) {
        const long ldc = 20;
        std::vector<float> c1(cpu::kMR * ldc, accumulate ? 0.5f : std::numeric_limits<float>::quiet_NaN());
        std::vector<float> c2 = c1;
        cpu::microkernel_portable(kc, a.data(), bp, c1.data(), ldc, mr, nr, accumulate);
        cpu::microkernel_avx2(kc, a.data(), bp, c2.data(), ldc, mr, nr, accumulate);
        for (int i = 0; i < cpu::kMR; ++i) {
          for (int j = 0; j < ldc; ++j) {
            const float x = c1[i * ldc + j], y = c2[i * ldc + j];
            if (i < mr && j < nr) {
              ASSERT_TRUE(std::isfinite(x) && std::isfinite(y));
              EXPECT_NEAR(x, y, 1e-5f) << mr << "x" << nr << " at " << i << "," << j;
            } else {
              // Outside the edge tile C is untouched (NaN or 0.5 stays as it was).
              EXPECT_TRUE((std::isnan(x) && std::isnan(y)) || (x == 0.5f && y == 0.5f));
            }
          }
        }
      }
    }
  }
}

TEST(CpuNaive, ComputesTheTextbookSum) {
  // 2x3 times 3x2 with exact small integers: no rounding, so the result is exact.
  const float a[] = {1, 2, 3, 4, 5, 6};
  const float b[] = {7, 8, 9, 10, 11, 12};
  float c[4];
  std::fill(std::begin(c), std::end(c), std::numeric_limits<float>::quiet_NaN());
  ASSERT_TRUE(cpu::naive({2, 2, 3, a, b, c}, RunControl{}));
  EXPECT_EQ(c[0], 58.0f);
  EXPECT_EQ(c[1], 64.0f);
  EXPECT_EQ(c[2], 139.0f);
  EXPECT_EQ(c[3], 154.0f);
}

TEST(RunJob, RejectsUnknownKernelsAndBadShapes) {
  JobControl control;
  JobRequest req;
  req.kernel = "nope";
  EXPECT_TRUE(run_job(req, control).skipped.has_value());
  req.kernel = "cpu-naive";
  req.shape = Shape{0, 4, 4};
  EXPECT_TRUE(run_job(req, control).skipped.has_value());
  req.shape = Shape{4, 4, 16385};
  EXPECT_TRUE(run_job(req, control).skipped.has_value());
}

TEST(RunJob, SameSeedSameResultDifferentSeedDifferentInputs) {
  JobRequest req;
  req.kernel = "cpu-parallel";
  req.shape = Shape{50, 60, 70};
  req.repeats = 2;
  JobControl c1, c2;
  const JobResult r1 = run_job(req, c1);
  const JobResult r2 = run_job(req, c2);
  EXPECT_TRUE(r1.verified && r2.verified);
  EXPECT_DOUBLE_EQ(r1.max_rel_error, r2.max_rel_error);
  EXPECT_EQ(r1.repeats, 2);
  EXPECT_LE(r1.ms_min, r1.ms_median);
}

// Progress stays in [0, 1], never goes back, and ends at 1 across warm-up plus repeats.
TEST(RunJob, ProgressIsMonotonicWithinZeroAndOne) {
  JobRequest req;
  req.kernel = "cpu-naive";
  req.shape = Shape{300, 300, 300};
  req.repeats = 3;
  JobControl control;
  std::atomic<bool> done{false};
  std::vector<double> seen;
  std::thread watcher([&] {
    while (!done.load()) {
      seen.push_back(control.progress.load());
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const JobResult r = run_job(req, control);
  done = true;
  watcher.join();
  EXPECT_TRUE(r.verified);
  ASSERT_FALSE(seen.empty());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    EXPECT_GE(seen[i], 0.0);
    EXPECT_LE(seen[i], 1.0);
    if (i > 0) {
      EXPECT_GE(seen[i], seen[i - 1]);
    }
  }
  EXPECT_DOUBLE_EQ(control.progress.load(), 1.0);
}

}  // namespace
}  // namespace ws::kernels
