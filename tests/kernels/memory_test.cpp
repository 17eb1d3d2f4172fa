// The up-front memory check refuses what cannot fit, with a message a student can act on.

#include <gtest/gtest.h>

#include "memory.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels {
namespace {

constexpr std::uint64_t kGiB = 1024ull * 1024 * 1024;

TEST(Memory, MatrixBytesOfTheLargestShape) {
  EXPECT_EQ(matrix_bytes({16384, 16384, 16384}), 3 * kGiB);
  EXPECT_EQ(matrix_bytes({1, 1, 1}), 12u);
  EXPECT_EQ(matrix_bytes({2, 3, 4}), (2u * 4 + 4 * 3 + 2 * 3) * 4);
}

TEST(Memory, RefusesTheLargestShapeWhenItCannotFit) {
  const auto refusal = check_memory_fits(matrix_bytes({16384, 16384, 16384}), 2 * kGiB, "host");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(*refusal, "needs 3.0 GiB of host memory, 2.0 GiB available");
}

TEST(Memory, AcceptsWhatFitsWithHeadroom) {
  EXPECT_FALSE(check_memory_fits(3 * kGiB, 24 * kGiB, "host").has_value());
  // Not when it would fill memory to the last byte.
  EXPECT_TRUE(check_memory_fits(3 * kGiB, 3 * kGiB, "GPU").has_value());
}

TEST(Memory, GpuMessageNamesTheGpu) {
  const auto refusal = check_memory_fits(12 * kGiB, 3 * kGiB + kGiB / 10, "GPU");
  ASSERT_TRUE(refusal.has_value());
  EXPECT_EQ(*refusal, "needs 12.0 GiB of GPU memory, 3.1 GiB available");
}

TEST(Memory, HostMemoryIsReadable) {
  EXPECT_GT(available_host_memory_bytes(), 16u * 1024 * 1024);
}

}  // namespace
}  // namespace ws::kernels
