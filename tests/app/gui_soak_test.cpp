// A short soak of random input on every test run (scripts/test adds 90 s on the release and the
// ASan build). Its own program so that ctest can run it alone: it fails on a frame over 1 s, which
// other tests beside it on a 2-core runner could cause.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"

namespace {

const std::string bin = WARPSCOPE_BIN;
const std::string out_dir = TEST_OUT_DIR;

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

}  // namespace

// Seed 3 once drew a new simulation where the old one had been freed, and the chip view, keyed on
// that address, kept the old layout until export_lane_states threw and the window aborted.
TEST(GuiReliability, ShortSoakOfRandomInputEndsCleanWithItsFigures) {
  if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  const std::string home = out_dir + "/soak-home";
  const auto r = run_command("HOME=" + home + " XDG_CONFIG_HOME=" + home + "/.config " + bin + " --soak 8 --seed 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto start = r.output.rfind("{\"actions\"");  // the report's first key (nlohmann sorts keys)
  ASSERT_NE(start, std::string::npos) << r.output;
  const auto report = nlohmann::json::parse(r.output.substr(start, r.output.find('\n', start) - start), nullptr, false);
  ASSERT_TRUE(report.is_object()) << r.output;
  EXPECT_TRUE(report["ok"].get<bool>()) << report.dump();
  EXPECT_TRUE(report["errors"].empty()) << report.dump();
  // It did something: a loaded 2-core runner has drawn 76 frames and 49 actions in the 8 s.
  EXPECT_GT(report["actions"].get<int>(), 20) << report.dump();
  EXPECT_GT(report["frames"].get<int>(), 20);
  EXPECT_EQ(report["seed"], 3);
  EXPECT_GT(report["peak_rss_mib"].get<double>(), 0.0);
  EXPECT_GE(report["peak_rss_mib"].get<double>(), report["final_rss_mib"].get<double>());
  EXPECT_FALSE(report["slowest_frames"].empty());
  // The soak must not leave a settings file or a screenshot behind.
  EXPECT_FALSE(std::filesystem::exists(home + "/.config/warpscope/settings.toml"));
  EXPECT_FALSE(std::filesystem::exists(home + "/Pictures"));
}
