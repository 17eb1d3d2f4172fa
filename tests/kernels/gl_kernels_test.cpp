// The OpenGL compute kernels through run_job on awkward shapes, the backend's own checks
// (poisoned cells, size refusals, an unavailable context provider) and its device facts.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "gl/gl_backend.hpp"
#include "gl_test_support.hpp"
#include "verify.hpp"
#include "warpscope/kernels/gl_context.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::kernels {
namespace {

[[maybe_unused]] auto* const no_window_system = ::testing::AddGlobalTestEnvironment(new testing::NoWindowSystem);

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return s;
}

class GlKernel : public testing::GlTest, public ::testing::WithParamInterface<std::string> {};

TEST_P(GlKernel, VerifiesOnAwkwardShapes) {
  const std::string kernel = GetParam();
  const auto facts = gl::device_facts();
  ASSERT_TRUE(facts.has_value());
  // 17x33x65 and 127x1x300: nothing a multiple of a tile; 33x36x7: k below any tile depth, and
  // for gl-regblock rows of B aligned for vec4 while rows of A are not (127x1x300 the reverse);
  // 520x516x512: several workgroups each way with partial ones at the edges, the vec4 path.
  for (const Shape s : {Shape{1, 1, 1}, Shape{17, 33, 65}, Shape{127, 1, 300}, Shape{33, 36, 7}, Shape{520, 516, 512}}) {
    SCOPED_TRACE(kernel + " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
    JobRequest req;
    req.kernel = kernel;
    req.shape = s;
    req.repeats = 1;
    JobControl control;
    const JobResult r = run_job(req, control);
    ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
    EXPECT_FALSE(r.cancelled);
    EXPECT_TRUE(r.verified) << r.max_rel_error << " " << r.detail;
    EXPECT_LE(r.max_rel_error, verification_tolerance(s.k));
    EXPECT_EQ(r.checked_elements, verifies_every_element(s) ? static_cast<std::size_t>(s.m) * s.n : kSampleSize);
    EXPECT_EQ(r.device, Device::gpu);
    EXPECT_EQ(r.api, "opengl");
    EXPECT_EQ(r.device_name, facts->renderer);
    EXPECT_FALSE(r.device_name.empty());
    EXPECT_EQ(r.software_renderer, facts->software);
    if (lower(facts->renderer).find("llvmpipe") != std::string::npos) {
      EXPECT_TRUE(r.software_renderer);
    }
    EXPECT_NE(r.detail.find("timed by "), std::string::npos) << r.detail;
    if (facts->software) {
      EXPECT_NE(r.detail.find("glFinish + steady clock"), std::string::npos) << r.detail;
    }
    ASSERT_TRUE(r.transfer_ms.has_value());
    EXPECT_GT(*r.transfer_ms, 0.0);
    EXPECT_GT(r.ms_median, 0.0);
    EXPECT_EQ(r.repeats, 1);
    EXPECT_EQ(r.threads, 0);
    EXPECT_DOUBLE_EQ(control.progress.load(), 1.0);
  }
}

INSTANTIATE_TEST_SUITE_P(Gl, GlKernel, ::testing::Values("gl-naive", "gl-tiled", "gl-regblock"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

class GlBackend : public testing::GlTest {};

struct Inputs {
  Shape s;
  std::vector<float> a, b, c;
};

Inputs inputs(Shape s) {
  Inputs in{s, {}, {}, {}};
  in.a.resize(static_cast<std::size_t>(s.m) * s.k);
  in.b.resize(static_cast<std::size_t>(s.k) * s.n);
  in.c.assign(static_cast<std::size_t>(s.m) * s.n, 0.0f);
  // Exact in fp32, never zero, different in every cell.
  for (std::size_t i = 0; i < in.a.size(); ++i) in.a[i] = static_cast<float>(static_cast<int>(i % 17) - 8) / 16.0f + 1.0f / 64;
  for (std::size_t i = 0; i < in.b.size(); ++i) in.b[i] = static_cast<float>(static_cast<int>(i % 13) - 6) / 8.0f + 1.0f / 32;
  return in;
}

gl::Run make_run(gl::Kernel kernel, Inputs& in, JobControl& control) {
  gl::Run run;
  run.kernel = kernel;
  run.m = in.s.m, run.n = in.s.n, run.k = in.s.k;
  run.a = in.a.data(), run.b = in.b.data(), run.c = in.c.data();
  run.warmups = 1;
  run.repeats = 2;
  run.control = RunControl{&control.cancel, &control.progress};
  return run;
}

// The device clears C to NaN before every run: rows a kernel never writes cannot pass, even
// though the host buffer started out as zeros and the previous run had written them.
TEST_F(GlBackend, CellsLeftUndispatchedFailVerification) {
  for (const gl::Kernel kernel : {gl::Kernel::naive, gl::Kernel::tiled, gl::Kernel::regblock}) {
    const Shape s{70, 52, 40};
    Inputs in = inputs(s);
    JobControl control;
    gl::Run run = make_run(kernel, in, control);

    const gl::Outcome whole = gl::run(run);
    ASSERT_TRUE(whole.error.empty()) << whole.error;
    EXPECT_TRUE(verify(in.a.data(), in.b.data(), in.c.data(), s, 1).ok);
    EXPECT_EQ(whole.kernel_ms.size(), 2u);
    EXPECT_DOUBLE_EQ(control.progress.load(), 1.0);

    run.test_skip_rows = 3;
    const gl::Outcome partial = gl::run(run);
    ASSERT_TRUE(partial.error.empty()) << partial.error;
    const Verification v = verify(in.a.data(), in.b.data(), in.c.data(), s, 1);
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.non_finite, 3u * s.n);
    for (int row = 0; row < s.m; ++row)
      EXPECT_EQ(std::isnan(in.c[static_cast<std::size_t>(row) * s.n + 7]), row >= s.m - 3) << "row " << row;
  }
}

TEST_F(GlBackend, DeviceFactsDescribeTheContext) {
  const auto facts = gl::device_facts();
  ASSERT_TRUE(facts.has_value());
  EXPECT_FALSE(facts->renderer.empty());
  EXPECT_FALSE(facts->vendor.empty());
  EXPECT_FALSE(facts->context.empty());
  EXPECT_NE(facts->context.find("EGL"), std::string::npos) << facts->context;
  // The spec's minimum is 16 MiB; a driver that reports less cannot be real.
  EXPECT_GE(facts->max_storage_block_bytes, 16u << 20);
  const std::string r = lower(facts->renderer);
  const bool software_name = r.find("llvmpipe") != std::string::npos || r.find("softpipe") != std::string::npos ||
                             r.find("swiftshader") != std::string::npos || r.find("lavapipe") != std::string::npos ||
                             r.find("software") != std::string::npos;
  EXPECT_EQ(facts->software, software_name);
  EXPECT_EQ(gl::unavailable_reason(), std::nullopt);
}

TEST_F(GlBackend, MatricesBeyondTheStorageBlockLimitAreRefused) {
  const auto facts = gl::device_facts();
  ASSERT_TRUE(facts.has_value());
  const std::uint64_t limit = facts->max_storage_block_bytes;
  // C of m x 16384 floats with m just large enough to exceed the limit; k = 1 keeps A and B small.
  const std::uint64_t row_bytes = 16384u * 4u;
  const std::uint64_t rows = limit / row_bytes + 1;
  if (rows > 16384) GTEST_SKIP() << "this driver's storage blocks (" << limit << " bytes) hold any allowed matrix";
  JobRequest req;
  req.kernel = "gl-regblock";
  req.shape = Shape{static_cast<int>(rows), 16384, 1};
  JobControl control;
  const JobResult r = run_job(req, control);
  ASSERT_TRUE(r.skipped.has_value());
  EXPECT_NE(r.skipped->find("GL_MAX_SHADER_STORAGE_BLOCK_SIZE"), std::string::npos) << *r.skipped;
  EXPECT_FALSE(r.verified);
  // On llvmpipe (128 MiB) the brief's 8192^2 case is refused as well.
  if (limit < 8192ull * 8192 * 4) {
    req.shape = Shape{8192, 8192, 1};
    const JobResult big = run_job(req, control);
    ASSERT_TRUE(big.skipped.has_value());
    EXPECT_NE(big.skipped->find("GL_MAX_SHADER_STORAGE_BLOCK_SIZE"), std::string::npos) << *big.skipped;
  }
}

TEST_F(GlBackend, AProviderThatCannotGiveAContextIsReported) {
  int acquired = 0, released = 0;
  set_gl_context_provider(GlContextProvider{[&] { ++acquired; return false; }, [&] { ++released; }, "test window (broken)"});
  const auto why = gl::unavailable_reason();
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("test window (broken)"), std::string::npos) << *why;
  EXPECT_FALSE(gl::device_facts().has_value());
  EXPECT_EQ(unavailable_reason("gl-naive"), why);
  JobRequest req;
  req.kernel = "gl-naive";
  req.shape = Shape{8, 8, 8};
  JobControl control;
  const JobResult r = run_job(req, control);
  ASSERT_TRUE(r.skipped.has_value());
  EXPECT_EQ(*r.skipped, *why);
  // The probe is cached: asked once, not on every question.
  EXPECT_EQ(acquired, 1);
  EXPECT_EQ(released, 0);  // acquire failed, so there is nothing to release

  set_gl_context_provider(std::nullopt);
  EXPECT_EQ(gl::unavailable_reason(), std::nullopt);
  const JobResult back = run_job(req, control);
  EXPECT_FALSE(back.skipped.has_value());
  EXPECT_TRUE(back.verified);
}

// GL work from several threads is serialised by the backend, each job with the context current
// on its own thread only while it runs.
TEST_F(GlBackend, JobsFromTwoThreadsBothVerify) {
  JobResult results[2];
  std::thread workers[2];
  const char* kernels[2] = {"gl-regblock", "gl-naive"};
  for (int i = 0; i < 2; ++i)
    workers[i] = std::thread([&, i] {
      JobRequest req;
      req.kernel = kernels[i];
      req.shape = Shape{96, 80, 72};
      req.repeats = 3;
      JobControl control;
      results[i] = run_job(req, control);
    });
  for (auto& w : workers) w.join();
  for (const JobResult& r : results) {
    EXPECT_FALSE(r.skipped.has_value()) << r.kernel << ": " << r.skipped.value_or("");
    EXPECT_TRUE(r.verified) << r.kernel << ": " << r.detail;
  }
}

}  // namespace
}  // namespace ws::kernels
