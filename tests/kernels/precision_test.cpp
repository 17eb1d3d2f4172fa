// Reduced-precision inputs: rounding to bf16 and tf32 (nearest, ties to even, bit for bit) and the
// tolerances derived from k and the format.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "precision.hpp"
#include "verify.hpp"

namespace ws::kernels {
namespace {

float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

TEST(Precision, KernelsReadTheirFormats) {
  EXPECT_EQ(input_format("cuda-tensor"), InputFormat::bf16);
  EXPECT_EQ(input_format("cublas-bf16"), InputFormat::bf16);
  EXPECT_EQ(input_format("cublas-tf32"), InputFormat::tf32);
  EXPECT_EQ(input_format("cublas"), InputFormat::fp32);
  EXPECT_EQ(input_format("cuda-warptiled"), InputFormat::fp32);
  EXPECT_STREQ(to_string(InputFormat::bf16), "bf16");
}

TEST(Precision, RoundsToNearestEven) {
  // 1 + 2^-8 is halfway between the bf16 neighbours 1 and 1 + 2^-7: ties go to even (1).
  EXPECT_EQ(round_to(InputFormat::bf16, 1.0f + 0x1p-8f), 1.0f);
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
  EXPECT_EQ(round_to(InputFormat::bf16, 1.0f + 3 * 0x1p-8f), 1.0f + 0x1p-6f);
  // Just above halfway rounds up.
  EXPECT_EQ(round_to(InputFormat::bf16, from_bits(0x3F808001u)), from_bits(0x3F810000u));
  EXPECT_EQ(round_to(InputFormat::tf32, 1.0f + 0x1p-11f), 1.0f);
  EXPECT_EQ(round_to(InputFormat::tf32, 1.0f + 0x1p-11f + 0x1p-20f), 1.0f + 0x1p-10f);
  EXPECT_EQ(round_to(InputFormat::fp32, 1.0f + 0x1p-20f), 1.0f + 0x1p-20f);
  EXPECT_EQ(round_to(InputFormat::bf16, -0.3f), -round_to(InputFormat::bf16, 0.3f));
  EXPECT_TRUE(std::isnan(round_to(InputFormat::bf16, NAN)));
  EXPECT_EQ(bf16_bits(1.0f), 0x3F80u);
  EXPECT_EQ(bf16_bits(-2.0f), 0xC000u);
  // A rounded value has no bits below the format's significand.
  for (float x : {0.1f, -0.7f, 0.123456f, 3.14159f}) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(round_to(InputFormat::bf16, x)) & 0xFFFFu, 0u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(round_to(InputFormat::tf32, x)) & 0x1FFFu, 0u);
    EXPECT_LE(std::fabs(round_to(InputFormat::bf16, x) - x), std::fabs(x) * 0x1p-8f);
    EXPECT_LE(std::fabs(round_to(InputFormat::tf32, x) - x), std::fabs(x) * 0x1p-11f);
  }
}

TEST(Precision, TolerancesFollowKAndTheFormat) {
  constexpr double u = 0x1p-24;
  EXPECT_DOUBLE_EQ(format_tolerance(1, InputFormat::fp32), 4 * u);
  EXPECT_DOUBLE_EQ(format_tolerance(500, InputFormat::fp32), 1000 * u);
  EXPECT_DOUBLE_EQ(format_tolerance(500, InputFormat::bf16), 2000 * u);  // truncating tensor-core adds
  EXPECT_DOUBLE_EQ(format_tolerance(500, InputFormat::tf32), 2000 * u);
  EXPECT_DOUBLE_EQ(format_tolerance(16384, InputFormat::fp32), 1e-4);
  EXPECT_DOUBLE_EQ(format_tolerance(16384, InputFormat::bf16), 2e-4);
  EXPECT_DOUBLE_EQ(format_tolerance(64, InputFormat::fp32), verification_tolerance(64));
}

TEST(Precision, RoundedReferenceIsSharpUnroundedIsNot) {
  // A bf16 product computed exactly (in double) passes against the rounded reference and sits
  // near the bf16 rounding error (~2^-9) against the fp32 inputs' product.
  const Shape s{8, 8, 64};
  std::vector<float> a(s.m * s.k), b(s.k * s.n), ar(a.size()), br(b.size()), c(s.m * s.n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(0.37 * i + 0.1);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(0.71 * i + 0.2);
  round_all(InputFormat::bf16, a.data(), ar.data(), a.size());
  round_all(InputFormat::bf16, b.data(), br.data(), b.size());
  for (int i = 0; i < s.m; ++i)
    for (int j = 0; j < s.n; ++j) {
      double sum = 0;
      for (int q = 0; q < s.k; ++q) sum += double(ar[i * s.k + q]) * br[q * s.n + j];
      c[i * s.n + j] = static_cast<float>(sum);
    }
  const Verification rounded = verify(ar.data(), br.data(), c.data(), s, 1, format_tolerance(s.k, InputFormat::bf16));
  EXPECT_TRUE(rounded.ok) << rounded.max_rel_error;
  const Verification vs_fp32 = verify(a.data(), b.data(), c.data(), s, 1);
  EXPECT_FALSE(vs_fp32.ok);
  EXPECT_GT(vs_fp32.max_rel_error, 1e-4);
  EXPECT_LT(vs_fp32.max_rel_error, 2 * 0x1p-8);
}

}  // namespace
}  // namespace ws::kernels
