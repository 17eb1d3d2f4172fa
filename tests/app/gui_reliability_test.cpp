// A lecture is 90 minutes of keys and clicks: the window must survive every sequence of them.
#include <cmath>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_binary.hpp"

namespace {

const std::string bin = WARPSCOPE_BIN;
const std::string out_dir = TEST_OUT_DIR;

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

nlohmann::json state_after_keys(const std::string& name, const std::string& keys) {
  const auto r = run_command(bin + " --screenshot " + out_dir + "/" + name + ".png --frames 2 --window 1280x720 " +
                             "--no-run --print-state --keys " + keys);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto brace = r.output.rfind("\n{");
  return nlohmann::json::parse(r.output.substr(brace == std::string::npos ? 0 : brace + 1), nullptr, false);
}

}  // namespace

// Each theme switch used to scale the already scaled style again: below 1x the sizes shrank until
// ImGui asserted (WindowMinSize < 1) after about twenty presses of T; above 1x they grew.
TEST(GuiReliability, ThemeAndScaleChangesNeverCompoundTheStyle) {
  if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  std::string toggles;
  for (int i = 0; i < 24; ++i) toggles += ",T";
  for (const std::string& scale_key : {"Ctrl+Minus", "Ctrl+Equal"}) {
    const auto state = state_after_keys("theme_scale", scale_key + toggles);
    ASSERT_TRUE(state.is_object());
    const double scale = state["ui_scale"];
    EXPECT_NEAR(scale, scale_key == "Ctrl+Minus" ? 1 / 1.15 : 1.15, 1e-4);
    // ImGui's defaults (8 px padding, 32 px minimum window) scaled once, as ScaleAllSizes floors them.
    EXPECT_EQ(state["style_window_padding"].get<double>(), std::floor(8 * scale)) << scale_key;
    EXPECT_EQ(state["style_window_min_size"].get<double>(), std::floor(32 * scale)) << scale_key;
    EXPECT_EQ(state["theme"], "dark");  // 24 presses: back where it started
  }
}
