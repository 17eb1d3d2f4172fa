// Shared by the GL test executables: where GL is expected (CI with Mesa llvmpipe sets
// WARPSCOPE_EXPECT_GL=1) a missing context is a failure; elsewhere the tests skip with the reason.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>

#include "gl/gl_backend.hpp"

namespace ws::kernels::testing {

// The display-less context must not need a window system: every GL test runs without one.
class NoWindowSystem : public ::testing::Environment {
 public:
  void SetUp() override {
    unsetenv("DISPLAY");
    unsetenv("WAYLAND_DISPLAY");
  }
};

class GlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const auto why = gl::unavailable_reason()) {
      if (std::getenv("WARPSCOPE_EXPECT_GL") != nullptr) FAIL() << "WARPSCOPE_EXPECT_GL is set but: " << *why;
      GTEST_SKIP() << "no OpenGL compute here: " << *why;
    }
  }
};

}  // namespace ws::kernels::testing
