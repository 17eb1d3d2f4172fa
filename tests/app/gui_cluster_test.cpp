// The cluster view in the real window (--cluster, View > Cluster): what --print-state reports is
// what the cluster model computes for the same configuration, the line is built from those
// figures in the chosen language, and every GPU is drawn as a chip and a timeline row.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/window_run.hpp"
#include "warpscope/sim/cluster.hpp"
#include "warpscope/sim/presets.hpp"

namespace {

const std::string out_dir = TEST_OUT_DIR;

// The figures as the view rounds them, written apart from the app's formatting.
std::string rounded(const char* pattern, double a, double b = 0, double c = 0) {
  char text[256];
  std::snprintf(text, sizeof text, pattern, a, b, c);
  return text;
}

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

ws::test_support::WindowRun render(const std::string& name, const std::string& args) {
  // --size 64: the cluster view has its own sizes; the chip's simulation, which a screenshot
  // waits for, only needs to be short.
  return ws::test_support::run_window(name, "--frames 4 --print-state --no-run --window 1600x900 --size 64 " + args,
                                      {.home = out_dir + "/home-" + name});
}

// The view's default: data parallelism over 8 GPUs, batch = width = 4096, hidden 16384, 2 layers.
ws::sim::ClusterResult expected(const std::string& preset) {
  ws::sim::ClusterConfig c;
  c.gpus = 8;
  c.strategy = ws::sim::Strategy::data;
  c.mlp = {4096, 4096, 16384, 2};
  return ws::sim::simulate_cluster(ws::sim::find_gpu(preset), c);
}

TEST(GuiCluster, ShowsTheModelsFigures) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  const auto run = render("cluster", "--cluster --preset a100-80gb");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto& c = run.state["cluster"];
  ASSERT_TRUE(c["shown"].get<bool>()) << c.dump();
  const auto want = expected("a100-80gb");
  EXPECT_EQ(c["preset"], "a100-80gb");
  EXPECT_NEAR(c["speedup"].get<double>(), want.speedup, 1e-12 * want.speedup);
  EXPECT_NEAR(c["efficiency"].get<double>(), want.efficiency, 1e-12);
  EXPECT_NEAR(c["collective_fraction"].get<double>(), want.collective_fraction, 1e-12);
  EXPECT_EQ(c["scaling_line"], rounded("8 GPUs: %.1f× faster, %.0f %% efficiency; %.0f %% of the time in "
                                       "collectives (simulated)",
                                       want.speedup, 100 * want.efficiency, 100 * want.collective_fraction));
  EXPECT_EQ(c["chips_drawn"], 8);
  EXPECT_EQ(c["gantt_rows_drawn"], 8);
  EXPECT_EQ(c["intervals_drawn"].get<std::size_t>(), want.activities.size());
  EXPECT_GT(run.w, 0);
}

TEST(GuiCluster, KoreanLineAndHiddenByDefault) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  const auto ko = render("cluster-ko", "--cluster --lang ko");
  ASSERT_EQ(ko.exit_code, 0) << ko.output;
  const std::string line = ko.state["cluster"]["scaling_line"];
  const auto want = expected("h100");
  EXPECT_EQ(line.rfind(rounded("GPU 8개: %.1f배 빠름", want.speedup), 0), 0u) << line;
  const auto plain = render("cluster-off", "");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_FALSE(plain.state["cluster"]["shown"].get<bool>());
}

}  // namespace

// The last lesson step is about the scaling curve ("each doubling helps less") and quotes the
// share of the time the all-reduce takes at 64 GPUs. Both are drawn at every projector size: at
// 1280x720 with 2x text the curve once took the rows' place (a third of the panel's width, the rest
// empty) and its axis numbers overlapped, every doubling numbered in 20 px at 25 px text. Now the
// rows stay beside it as one block (thinner than a pixel each) and the numbers thin out to fit.
TEST(GuiCluster, TheScalingStepAlwaysShowsItsCurve) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  struct Case {
    const char* name;
    const char* lang;
    const char* window;
  };
  for (const Case& c : {Case{"curve-1080", "en", "--window 1920x1080"}, Case{"curve-1080-2x", "en", "--window 1920x1080 --ui-scale 2"},
                        Case{"curve-720-2x", "en", "--window 1280x720 --ui-scale 2"},
                        Case{"curve-720-2x-ko", "ko", "--window 1280x720 --ui-scale 2"}}) {
    SCOPED_TRACE(c.name);
    const std::string step = std::string("--lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons/gpu-story.") + c.lang +
                             ".toml --step 28 ";
    const auto run = ws::test_support::run_window(c.name, "--frames 4 --print-state --no-run --no-wait " + step + c.window,
                                                  {.home = out_dir + "/home-" + c.name});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto& cluster = run.state["cluster"];
    EXPECT_EQ(cluster["gpus"], 64);
    EXPECT_EQ(cluster["curve_points_drawn"], 7) << "1 to 64 GPUs, doubling";
    EXPECT_EQ(cluster["gantt_rows_drawn"], 64) << "the all-reduce's share is read off the rows";
    EXPECT_GE(cluster["curve_labels"].get<int>(), 8) << "at least 1, 8 and 64 on each axis";
    EXPECT_GE(cluster["curve_label_gap_px"].get<double>(), 0.0) << "neighbouring axis numbers never touch";
    EXPECT_GE(cluster["curve_plot_px"][1].get<double>(), 100.0);
    EXPECT_EQ(run.state["clipped_text"]["count"], 0) << run.state["clipped_text"].dump();
  }
}

// The pipeline step's bubble is read off its eight rows. At 1280x720 with 2x text the rows got
// 5 px each: the space under them kept ~24 px (the window's padding, one more item spacing) that
// nothing is drawn in. They now take everything but the axis, the legend and the real split's line.
TEST(GuiCluster, ThePipelineRowsTakeTheRoomLeftUnderThem) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  for (const char* lang : {"en", "ko"}) {
    const std::string step = std::string("--lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons/gpu-story.") + lang +
                             ".toml --step 26 --window 1280x720 --ui-scale 2";
    const auto run = ws::test_support::run_window(std::string("pipeline-720-2x-") + lang,
                                                  "--frames 4 --print-state --no-run --no-wait " + step,
                                                  {.home = out_dir + "/home-pipeline-" + lang});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto& cluster = run.state["cluster"];
    EXPECT_EQ(cluster["gantt_rows_drawn"], 8) << lang;
    EXPECT_GE(cluster["gantt_row_px"].get<double>(), 6.0) << lang << ": 5 px before";
    EXPECT_EQ(run.state["clipped_text"]["count"], 0) << run.state["clipped_text"].dump();
  }
}

// At 1920x1080 the eight rows of the data-parallel step were a line each (20 px) and left half the
// panel empty; the bars, and the copies' thin strips in them, are what the back of the room reads.
TEST(GuiCluster, EightRowsUseTheRoomOfA1080LineProjector) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  const std::string step = "--lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons/gpu-story.en.toml --step 24 --window 1920x1080";
  const auto run = ws::test_support::run_window("data-1080", "--frames 4 --print-state --no-run --no-wait " + step,
                                                {.home = out_dir + "/home-data-1080"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto& cluster = run.state["cluster"];
  EXPECT_EQ(cluster["gantt_rows_drawn"], 8);
  EXPECT_GE(cluster["gantt_row_px"].get<double>(), 34.0) << "two lines of text a row at least";
  EXPECT_EQ(run.state["clipped_text"]["count"], 0) << run.state["clipped_text"].dump();
}
