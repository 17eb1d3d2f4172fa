// The verifier must accept a right answer and catch a wrong one: one bad element, a NaN left in C
// (also where a sample would not look), and an answer that is off by a dropped term.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "verify.hpp"

namespace ws::kernels {
namespace {

struct Problem {
  Shape s;
  std::vector<float> a, b, c;
};

// C computed in fp64 and rounded once: as right as fp32 can hold.
Problem exact_problem(Shape s, unsigned seed) {
  Problem p{s, {}, {}, {}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  p.a.resize(static_cast<std::size_t>(s.m) * s.k);
  p.b.resize(static_cast<std::size_t>(s.k) * s.n);
  for (auto& x : p.a) x = dist(rng);
  for (auto& x : p.b) x = dist(rng);
  p.c.resize(static_cast<std::size_t>(s.m) * s.n);
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      double sum = 0;
      for (int q = 0; q < s.k; ++q) sum += static_cast<double>(p.a[i * s.k + q]) * p.b[q * s.n + j];
      p.c[i * s.n + j] = static_cast<float>(sum);
    }
  return p;
}

TEST(Verify, AcceptsACorrectResult) {
  const Problem p = exact_problem({17, 33, 65}, 1);
  const Verification v = verify(p.a.data(), p.b.data(), p.c.data(), p.s, 1);
  EXPECT_TRUE(v.ok);
  EXPECT_TRUE(v.full);
  EXPECT_EQ(v.checked, 17u * 33u);
  EXPECT_EQ(v.non_finite, 0u);
  EXPECT_LT(v.max_rel_error, 1e-7);  // only the final fp32 rounding
}

TEST(Verify, CatchesOneWrongElement) {
  Problem p = exact_problem({17, 33, 65}, 2);
  p.c[5 * 33 + 7] += 0.01f;
  const Verification v = verify(p.a.data(), p.b.data(), p.c.data(), p.s, 2);
  EXPECT_FALSE(v.ok);
  EXPECT_GT(v.max_rel_error, v.tolerance);
}

TEST(Verify, CatchesADroppedTerm) {
  Problem p = exact_problem({8, 8, 500}, 3);
  // Element (2, 3) without its last term a[2][499] * b[499][3].
  p.c[2 * 8 + 3] -= p.a[2 * 500 + 499] * p.b[499 * 8 + 3];
  const Verification v = verify(p.a.data(), p.b.data(), p.c.data(), p.s, 3);
  EXPECT_FALSE(v.ok) << v.max_rel_error << " vs " << v.tolerance;
}

TEST(Verify, CatchesANaN) {
  Problem p = exact_problem({17, 33, 65}, 4);
  p.c[100] = std::numeric_limits<float>::quiet_NaN();
  const Verification v = verify(p.a.data(), p.b.data(), p.c.data(), p.s, 4);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.non_finite, 1u);
}

TEST(Verify, CatchesANaNOutsideTheSample) {
  const Shape s{300, 300, 2};  // 90 000 elements: sampled, not checked in full
  ASSERT_FALSE(verifies_every_element(s));
  Problem p = exact_problem(s, 5);
  EXPECT_TRUE(verify(p.a.data(), p.b.data(), p.c.data(), s, 5).ok);
  p.c[123 * 300 + 201] = std::numeric_limits<float>::quiet_NaN();
  const Verification v = verify(p.a.data(), p.b.data(), p.c.data(), s, 5);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.checked, kSampleSize);
  EXPECT_EQ(v.non_finite, 1u);
}

TEST(Verify, SampleCoversTheCorners) {
  const Shape s{300, 300, 2};
  Problem p = exact_problem(s, 6);
  p.c[300 * 300 - 1] *= 1.5f;  // bottom-right corner, where an edge-tile bug would show
  EXPECT_FALSE(verify(p.a.data(), p.b.data(), p.c.data(), s, 6).ok);
}

TEST(Verify, ToleranceScalesWithKAndStaysSharp) {
  EXPECT_LT(verification_tolerance(1), 1e-6);
  EXPECT_LT(verification_tolerance(1), verification_tolerance(100));
  EXPECT_LE(verification_tolerance(16384), 1e-4);
  EXPECT_GE(verification_tolerance(16384), verification_tolerance(1000));
}

}  // namespace
}  // namespace ws::kernels
