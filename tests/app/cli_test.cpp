#include <algorithm>
#include <cstdlib>

#include <gtest/gtest.h>

#include "../support/run_binary.hpp"

namespace {
const std::string bin = WARPSCOPE_BIN;
}

TEST(Cli, VersionAndHelp) {
  auto v = run_command(bin + " --version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.output.find("warpscope"), std::string::npos);
  auto h = run_command(bin + " --help");
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.output.find("bench"), std::string::npos);
  EXPECT_NE(h.output.find("--screenshot"), std::string::npos);
}

TEST(Cli, UnknownOptionIsExitCode2) {
  auto r = run_command(bin + " --no-such-option");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no-such-option"), std::string::npos);
}

TEST(Cli, BadWindowSizeIsExitCode2) {
  auto r = run_command(bin + " --window 12 --screenshot /tmp/never.png");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("WxH"), std::string::npos);
}

TEST(Cli, NoDisplayIsAOneLineErrorAndExitCode1) {
#if WARPSCOPE_WITH_GUI_BUILD
  auto r = run_command("env -u DISPLAY -u WAYLAND_DISPLAY " + bin + " --no-run");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find("no display"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("xvfb-run"), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
#else
  GTEST_SKIP() << "built without the window";
#endif
}

// `warpscope bench --json > results.json` on a full disk: said, and not exit 0, so a script
// does not go on with a cut file.
TEST(Cli, OutputThatCannotBeWrittenIsSaidAndExitCode1) {
  auto r = run_command("( " + bin + " presets --json > /dev/full )");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("warpscope: could not write"), std::string::npos) << r.output;
  auto ok = run_command("( " + bin + " presets --json > /dev/null )");
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_EQ(ok.output, "");
}
