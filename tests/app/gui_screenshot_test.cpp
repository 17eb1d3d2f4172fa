// Renders the real window under Xvfb (scripts/test runs ctest inside xvfb-run) and checks
// regions of the PNG it writes, not whole-image hashes: measured values differ run to run.
#include <cstdlib>
#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "../support/window_run.hpp"

namespace {

using Image = ws::test_support::WindowRun;

// Pixels in a rectangle within `tolerance` of a colour.
int count_colour(const Image& img, int x0, int y0, int x1, int y1, int r, int g, int b, int tolerance) {
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const auto* p = img.at(x, y);
      if (std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance) ++n;
    }
  return n;
}

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

}  // namespace

TEST(GuiScreenshot, WindowRendersTheMeasuredTimerPanel) {
  if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  const Image img = ws::test_support::run_window("smoke", "--frames 5 --window 1280x720 --size 64 --wait-results");
  ASSERT_EQ(img.exit_code, 0) << img.output;
  ASSERT_EQ(img.w, 1280);
  ASSERT_EQ(img.h, 720);

  // Not blank: many distinct colours across the frame.
  std::set<std::uint32_t> colours;
  for (int y = 0; y < img.h; y += 3)
    for (int x = 0; x < img.w; x += 3) {
      const auto* p = img.at(x, y);
      colours.insert(p[0] << 16 | p[1] << 8 | p[2]);
    }
  EXPECT_GT(colours.size(), 50u);

  // The left panel carries the "Measured on this machine" label in the measured colour
  // (140, 204, 255 in the dark theme) and the kernels' history lines in their own colours.
  const int left = 460;
  EXPECT_GT(count_colour(img, 0, 0, left, 80, 140, 204, 255, 12), 20) << "no measured label in the timer panel";
  EXPECT_GT(count_colour(img, 0, 0, left, img.h, 102, 230, 102, 20), 3) << "no verified 'ok' in the results table";
}
