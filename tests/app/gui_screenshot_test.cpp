// Renders the real window under Xvfb (scripts/test runs ctest inside xvfb-run) and checks
// regions of the PNG it writes, not whole-image hashes: measured values differ run to run.
#include <cstdlib>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "../support/run_binary.hpp"
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

// F12 in the window: the picture goes to ~/Pictures, two presses in one second keep both, and a
// working directory deleted under the window (no Pictures folder) still gets a picture, in HOME.
TEST(GuiScreenshot, F12KeepsEveryPictureAndNeverEndsTheWindow) {
  if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  namespace fs = std::filesystem;
  const fs::path home = fs::path(TEST_OUT_DIR) / "f12-home";
  fs::remove_all(home);
  fs::create_directories(home / "Pictures");
  const auto run = ws::test_support::run_window("f12", "--frames 2 --window 640x480 --size 32 --no-run --print-state --keys F12,F12,wait:1",
                                                {.home = home.string()});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> pictures;
  for (const auto& e : fs::directory_iterator(home / "Pictures")) pictures.insert(e.path().filename().string());
  EXPECT_EQ(pictures.size(), 2u) << "the second press overwrote the first";
  for (const auto& name : pictures) {
    EXPECT_EQ(name.rfind("warpscope-", 0), 0u) << name;
    EXPECT_GT(fs::file_size(home / "Pictures" / name), 1000u) << name;
  }
  EXPECT_EQ(run.state["last_toast"].get<std::string>().rfind("saved " + (home / "Pictures").string() + "/warpscope-", 0), 0u)
      << run.state["last_toast"];

  const fs::path gone = home / "deleted-cwd";
  fs::remove_all(home / "Pictures");
  fs::create_directories(gone);
  const auto r = run_command("cd " + gone.string() + " && rmdir " + gone.string() + " && HOME=" + home.string() +
                             " XDG_CONFIG_HOME=" + home.string() + "/.config " + WARPSCOPE_BIN + " --screenshot " +
                             (home / "shot.png").string() + " --frames 2 --window 640x480 --size 32 --no-run --keys F12,wait:1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  int in_home = 0;
  for (const auto& e : fs::directory_iterator(home)) in_home += e.path().filename().string().rfind("warpscope-", 0) == 0;
  EXPECT_EQ(in_home, 1);
}
