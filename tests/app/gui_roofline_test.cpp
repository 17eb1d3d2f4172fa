// The roofline panel in the real window: its points and roofs are drawn where --print-state says,
// at the coordinates the maths gives for their figures, in the colour of their source; a lesson
// step shows it through `panels`; and at 1280×720 with 2× text no label leaves the panel.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/window_run.hpp"

namespace {

const std::string out_dir = TEST_OUT_DIR;

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

// A bench file as `warpscope bench --json` writes it on a GPU server; test data, not a measurement.
std::string server_json() {
  nlohmann::json j;
  j["cpu"] = {{"name", "Server CPU"}, {"cores", 64}, {"simd", "avx512"}};
  j["gpu"] = {{"api", "cuda"}, {"name", "Test GPU"}, {"cc", "9.0"}, {"sm_count", 132}, {"memory_bytes", 1}};
  j["host"] = "roof-host";
  j["date"] = "2026-11-30T10:11:12Z";
  j["warpscope_version"] = "0.1.0";
  auto result = [&](const char* kernel, const char* device, int size, double gflops) {
    const double flops = 2.0 * size * size * size;
    return nlohmann::json{{"kernel", kernel}, {"device", device}, {"m", size}, {"n", size}, {"k", size},
                          {"threads", 0}, {"repeats", 3}, {"ms_median", flops / (gflops * 1e6)},
                          {"ms_min", flops / (gflops * 1e6)}, {"gflops", gflops}, {"transfer_ms", 0.1},
                          {"verified", true}, {"max_rel_error", 1e-7}, {"checked_elements", size * size},
                          {"skipped", nullptr}, {"detail", ""}, {"api", "cuda"}, {"device_name", "Test GPU"},
                          {"software_renderer", false}};
  };
  j["results"] = {result("cublas", "gpu", 4096, 40000), result("cuda-naive", "gpu", 1024, 2000)};
  return j.dump(2);
}

using ws::test_support::WindowRun;

WindowRun render(const std::string& name, const std::string& args) {
  return ws::test_support::run_window(name, "--frames 4 --print-state " + args, {.home = out_dir + "/home-" + name});
}

// The test's own log-log mapping, written apart from the app's.
double expected_x(const nlohmann::json& roof, double intensity) {
  const auto& plot = roof["plot"];
  const double lo = roof["axes"]["x_decades"][0], hi = roof["axes"]["x_decades"][1];
  return plot[0].get<double>() + plot[2].get<double>() * (std::log10(intensity) - lo) / (hi - lo);
}
double expected_y(const nlohmann::json& roof, double gflops) {
  const auto& plot = roof["plot"];
  const double lo = roof["axes"]["y_decades"][0], hi = roof["axes"]["y_decades"][1];
  return plot[1].get<double>() + plot[3].get<double>() * (1 - (std::log10(gflops) - lo) / (hi - lo));
}

// The marker colours of the dark theme (gui/theme.cpp): measured here, elsewhere, simulated.
struct Rgb {
  int r, g, b;
};
Rgb source_colour(const std::string& source) {
  if (source == "measured here") return {140, 204, 255};
  if (source == "measured elsewhere") return {217, 158, 255};
  return {255, 204, 102};
}

// Whether a pixel of `c` lies within `radius` pixels of (x, y).
bool colour_near(const WindowRun& run, double x, double y, Rgb c, int radius) {
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const int px = static_cast<int>(std::lround(x)) + dx, py = static_cast<int>(std::lround(y)) + dy;
      if (px < 0 || py < 0 || px >= run.w || py >= run.h) continue;
      const unsigned char* p = run.at(px, py);
      if (std::abs(p[0] - c.r) + std::abs(p[1] - c.g) + std::abs(p[2] - c.b) < 40) return true;
    }
  return false;
}

TEST(GuiRoofline, PointsAndRoofsAreDrawnWhereTheStateSays) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  std::ofstream(out_dir + "/roof-server.json") << server_json();
  const auto run = render("roofline", "--roofline --window 1600x900 --size 64 --cpu-kernel cpu-naive --wait-results "
                                      "--preset h100 --measured " + out_dir + "/roof-server.json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_TRUE(run.state.is_object()) << run.output;
  const auto& roof = run.state["roofline"];
  ASSERT_TRUE(roof["shown"].get<bool>()) << roof.dump();

  // Every point where the mapping puts it, with the intensity its basis gives.
  int here = 0, elsewhere = 0, simulated = 0;
  for (const auto& p : roof["points"]) {
    const double intensity = p["intensity"], gflops = p["gflops"];
    EXPECT_NEAR(p["px"][0].get<double>(), expected_x(roof, intensity), 0.5) << p.dump();
    EXPECT_NEAR(p["px"][1].get<double>(), expected_y(roof, gflops), 0.5) << p.dump();
    const double m = p["size"][0], n = p["size"][1], k = p["size"][2];
    const std::string source = p["source"];
    if (source == "simulated") {
      ++simulated;
      EXPECT_EQ(p["intensity_basis"], "the model's DRAM bytes");
      EXPECT_NE(p["where"].get<std::string>().find("simulated on H100"), std::string::npos);
    } else {
      EXPECT_NEAR(intensity, 2 * m * n * k / (4 * (m * k + k * n + m * n)), 1e-9 * intensity);
      EXPECT_EQ(p["intensity_basis"], "minimum traffic");
      source == "measured here" ? ++here : ++elsewhere;
    }
    if (p["kernel"] == "cublas") {
      EXPECT_EQ(source, "measured elsewhere");
      EXPECT_NEAR(intensity, 4096.0 / 6, 1e-6);
      EXPECT_DOUBLE_EQ(gflops, 40000);
      EXPECT_NE(p["where"].get<std::string>().find("roof-host, 2026-11-30"), std::string::npos) << p["where"];
    }
  }
  EXPECT_GE(here, 1) << "the cpu-naive run of this window";
  EXPECT_EQ(elsewhere, 2);
  EXPECT_EQ(simulated, 1);

  // In the picture: the marker's colour at the pixel the state names (a point another covers is skipped).
  const auto& pts = roof["points"];
  for (std::size_t i = 0; i < pts.size(); ++i) {
    bool covered = false;
    for (std::size_t j = i + 1; j < pts.size(); ++j)
      covered |= std::hypot(pts[j]["px"][0].get<double>() - pts[i]["px"][0].get<double>(),
                            pts[j]["px"][1].get<double>() - pts[i]["px"][1].get<double>()) < 30;
    if (covered) continue;
    EXPECT_TRUE(colour_near(run, pts[i]["px"][0], pts[i]["px"][1], source_colour(pts[i]["source"]), 2)) << pts[i].dump();
  }

  // The roofs: H100's preset figures and this CPU's, each line where its data puts it.
  bool fp32 = false, tensor = false, hbm = false, cpu_dram = false;
  for (const auto& r : roof["roofs"]) {
    const auto& d = r["data"];
    EXPECT_NEAR(r["px"][0].get<double>(), expected_x(roof, d[0]), 0.5) << r.dump();
    EXPECT_NEAR(r["px"][1].get<double>(), expected_y(roof, d[1]), 0.5) << r.dump();
    EXPECT_NEAR(r["px"][2].get<double>(), expected_x(roof, d[2]), 0.5) << r.dump();
    EXPECT_NEAR(r["px"][3].get<double>(), expected_y(roof, d[3]), 0.5) << r.dump();
    const std::string label = r["label"];
    if (label == "H100 FP32 66.9 TFLOP/s") {
      fp32 = true;
      EXPECT_NEAR(r["value"].get<double>(), 132 * 128 * 2 * 1980e-3, 1e-6);
      EXPECT_NEAR(d[0].get<double>(), r["value"].get<double>() / 3350, 1e-9);  // starts at the ridge
    }
    if (label == "H100 BF16 tensor 989 TFLOP/s") tensor = true;
    if (label == "H100 DRAM 3.35 TB/s") {
      hbm = true;
      EXPECT_NEAR(d[1].get<double>() / d[0].get<double>(), 3350, 1e-6);  // slope = bandwidth
    }
    if (r["machine"] == "cpu" && r["kind"] == "memory") {
      cpu_dram = true;
      EXPECT_TRUE(r["assumed"].get<bool>());
      EXPECT_NE(label.find("(assumed)"), std::string::npos);
      bool said = false;
      for (const auto& n : roof["notes"]) said |= n.get<std::string>().find("not measured") != std::string::npos;
      EXPECT_TRUE(said) << roof["notes"].dump();
    }
  }
  EXPECT_TRUE(fp32 && tensor && hbm && cpu_dram) << roof["roofs"].dump();
  // The GPU's FP32 roof is drawn in the roof colour (the preset's, dark theme) half way along it.
  for (const auto& r : roof["roofs"])
    if (r["label"] == "H100 FP32 66.9 TFLOP/s") {
      const double x = (r["px"][0].get<double>() + r["px"][2].get<double>()) / 2, y = r["px"][1];
      bool found = false;
      for (int dx = -40; dx <= 40 && !found; dx += 4) found = colour_near(run, x + dx, y, {255, 204, 102}, 1);
      EXPECT_TRUE(found);
    }
}

// 1280×720 at 1.5× text and 1920×1080 at 2× (at 1280×720 with 2× text and a caption the panel has
// under 230 px left for its plot and says it is too small rather than draw it illegibly).
TEST(GuiRoofline, ALessonStepShowsItAloneAndNothingLeavesThePanelWithLargeText) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  const std::string lesson = out_dir + "/roofline-lesson.toml";
  std::ofstream(lesson) << "title = \"Roofline\"\n[[step]]\ntitle = \"Roofs\"\ncaption = \"Where a kernel sits\"\n"
                           "gpu_preset = \"h100\"\nm = 64\nn = 64\nk = 64\npanels = [\"roofline\", \"timers\", \"caption\"]\n";
  const std::string scale15 = "Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,wait:3";  // 1.15³ = 1.52
  const std::string scale2 = "Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,wait:3";  // 1.15⁵ = 2.01
  for (const auto& [window, keys, scale] : {std::tuple{"1280x720", scale15, 1.5}, std::tuple{"1920x1080", scale2, 2.0}}) {
    const auto run = render(std::string("roofline-lesson-") + window,
                            std::string("--no-run --window ") + window + " --lesson " + lesson + " --keys " + keys);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto& roof = run.state["roofline"];
    ASSERT_TRUE(roof["shown"].get<bool>()) << window;
    EXPECT_NEAR(run.state["ui_scale"].get<double>(), scale, 0.05);
    // The chip is not shown in this step; the roofline has room to be read.
    EXPECT_EQ(run.state["regions"]["chip"][2].get<double>(), 0);
    EXPECT_GT(roof["plot"][2].get<double>(), 300) << window;
    EXPECT_GT(roof["plot"][3].get<double>(), 150) << window;
    const auto& region = roof["region"];
    const double x0 = region[0], y0 = region[1], x1 = x0 + region[2].get<double>(), y1 = y0 + region[3].get<double>();
    ASSERT_FALSE(roof["labels"].empty());
    for (const auto& l : roof["labels"]) {
      const auto& b = l["box"];
      EXPECT_GE(b[0].get<double>(), x0 - 1) << window << " " << l.dump();
      EXPECT_GE(b[1].get<double>(), y0 - 1) << window << " " << l.dump();
      EXPECT_LE(b[2].get<double>(), x1 + 1) << window << " " << l.dump();
      EXPECT_LE(b[3].get<double>(), y1 + 1) << window << " " << l.dump();
    }
    // The simulated kernel is there once the launch is simulated (screenshots wait for it).
    bool simulated = false;
    for (const auto& p : roof["points"]) simulated |= p["source"] == "simulated";
    EXPECT_TRUE(simulated) << roof["points"].dump();
  }
}

TEST(GuiRoofline, HiddenUntilAskedForAndToggledByRInTheSimulationsPlace) {
  if (!have_display()) GTEST_SKIP() << "no DISPLAY (run under xvfb-run)";
  const auto off = render("roofline-off", "--no-run --window 1280x720 --size 64");
  ASSERT_EQ(off.exit_code, 0) << off.output;
  EXPECT_FALSE(off.state["roofline"]["shown"].get<bool>());
  const auto on = render("roofline-key", "--no-run --window 1280x720 --size 64 --keys R,wait:2");
  ASSERT_EQ(on.exit_code, 0) << on.output;
  EXPECT_TRUE(on.state["roofline"]["shown"].get<bool>());
  // In the simulated GPU's place, full size: R again brings the chip back.
  EXPECT_EQ(on.state["regions"]["chip"][2].get<double>(), 0);
  EXPECT_GT(on.state["roofline"]["plot"][3].get<double>(), 300);
  // 1280×720 at 2× text, no caption: the plot is drawn and no label leaves the panel.
  const auto big = render("roofline-key-2x", "--no-run --window 1280x720 --size 64 --keys "
                                             "Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,Ctrl+Equal,R,wait:3");
  ASSERT_EQ(big.exit_code, 0) << big.output;
  const auto& r2 = big.state["roofline"];
  ASSERT_TRUE(r2["shown"].get<bool>());
  EXPECT_GT(r2["plot"][3].get<double>(), 150);
  const double bx0 = r2["region"][0], by0 = r2["region"][1];
  const double bx1 = bx0 + r2["region"][2].get<double>(), by1 = by0 + r2["region"][3].get<double>();
  for (const auto& l : r2["labels"]) {
    EXPECT_GE(l["box"][0].get<double>(), bx0 - 1) << l.dump();
    EXPECT_GE(l["box"][1].get<double>(), by0 - 1) << l.dump();
    EXPECT_LE(l["box"][2].get<double>(), bx1 + 1) << l.dump();
    EXPECT_LE(l["box"][3].get<double>(), by1 + 1) << l.dump();
  }
  const auto back = render("roofline-key-twice", "--no-run --window 1280x720 --size 64 --keys R,wait:2,R,wait:2");
  ASSERT_EQ(back.exit_code, 0) << back.output;
  EXPECT_FALSE(back.state["roofline"]["shown"].get<bool>());
  EXPECT_GT(back.state["regions"]["chip"][2].get<double>(), 0);
}

}  // namespace
