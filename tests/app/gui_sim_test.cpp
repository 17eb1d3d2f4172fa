// Headless renders of the simulated chip, CPU cores and output matrix at chosen cycles, checked
// by the colours inside each view's region (the app reports where it drew them).
#include <cstdlib>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"
#include "../support/window_run.hpp"

namespace {

const std::string bin = WARPSCOPE_BIN;

struct Rgb {
  int r, g, b;
};
// The palette of app/core/lane_texels.cpp, as bytes.
constexpr Rgb kIssuing{77, 230, 89}, kWaitMemory{242, 102, 51}, kNotResident{41, 41, 48}, kDone{64, 107, 179};
constexpr Rgb kPending{31, 31, 51}, kOwner0{230, 84, 13}, kOwner1{48, 130, 189};

struct Frame : ws::test_support::WindowRun {
  // Pixels of colour `c` in a region: a fraction [x_from, x_to) of its width, below `skip_top` pixels.
  int count(const nlohmann::json& rect, Rgb c, int tol = 6, float x_from = 0, float x_to = 1, int skip_top = 0) const {
    const int x0 = static_cast<int>(rect[0].get<float>() + rect[2].get<float>() * x_from);
    const int x1 = static_cast<int>(rect[0].get<float>() + rect[2].get<float>() * x_to);
    const int y0 = static_cast<int>(rect[1].get<float>()) + skip_top, y1 = y0 - skip_top + static_cast<int>(rect[3].get<float>());
    int n = 0;
    for (int y = std::max(0, y0); y < std::min(h, y1); ++y)
      for (int x = std::max(0, x0); x < std::min(w, x1); ++x) {
        const unsigned char* p = at(x, y);
        if (std::abs(p[0] - c.r) <= tol && std::abs(p[1] - c.g) <= tol && std::abs(p[2] - c.b) <= tol) ++n;
      }
    return n;
  }
};

Frame render(const std::string& name, const std::string& args, const std::string& window = "1600x900") {
  Frame f{ws::test_support::run_window(name, "--frames 3 --window " + window + " --no-run --print-state " + args)};
  EXPECT_EQ(f.exit_code, 0) << f.output;
  return f;
}

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

// Whether the matrix view's colour note was drawn whole, in the interface's language ("en", "ko").
bool colour_note_drawn(const nlohmann::json& state, const std::string& lang) {
  const std::string note = lang == "en" ? "colour: the SM or core that finished the cell" : "색: 그 칸을 끝낸 SM 또는 코어";
  for (const auto& t : state["clipped_text"]["drawn"])
    if (t["text"] == note) return true;
  return false;
}

}  // namespace

class GuiSim : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  }
};

TEST_F(GuiSim, AtCycleZeroNoLaneIsIssuing) {
  const auto f = render("sim_cycle0", "--size 128 --preset h100 --cycle 0");
  ASSERT_FALSE(f.state.is_discarded());
  ASSERT_EQ(f.state["cycle"], 0);
  const auto& chip = f.state["regions"]["chip"];
  EXPECT_EQ(f.count(chip, kIssuing), 0);
  EXPECT_GT(f.count(chip, kNotResident) + f.count(chip, kWaitMemory), 1000) << "the chip is not drawn";
}

TEST_F(GuiSim, MidRunSomeLanesIssueAndSomeWait) {
  const auto probe = render("sim_probe", "--size 128 --preset h100 --cycle 0");
  const long long total = probe.state["total_cycles"];
  ASSERT_GT(total, 100);
  int issuing = 0, waiting = 0;
  // Any single cycle may happen to have no issue; a few spread over the run cannot all be idle.
  for (long long c : {total / 3, total / 2, 2 * total / 3}) {
    const auto f = render("sim_mid", "--size 128 --preset h100 --cycle " + std::to_string(c));
    EXPECT_EQ(f.state["cycle"], c);
    const auto& chip = f.state["regions"]["chip"];
    issuing += f.count(chip, kIssuing);
    waiting += f.count(chip, kWaitMemory);
  }
  EXPECT_GT(issuing, 0);
  EXPECT_GT(waiting, 0);
}

TEST_F(GuiSim, AtTheEndEveryCellOfCIsDone) {
  const auto f = render("sim_end", "--size 128 --preset h100 --cycle 100000000");
  ASSERT_EQ(f.state["cycle"], f.state["total_cycles"]);
  EXPECT_EQ(f.state["c_done"], 128 * 128);
  const auto& chip = f.state["regions"]["chip"];
  EXPECT_EQ(f.count(chip, kIssuing), 0);
  EXPECT_EQ(f.count(chip, kWaitMemory), 0);
  EXPECT_GT(f.count(chip, kDone), 1000);
  // The GPU's C is the left half of the matrix view: no pending cell left, owners' colours shown.
  const auto& matrix = f.state["regions"]["matrix"];
  EXPECT_EQ(f.count(matrix, kPending, 3, 0.0f, 0.5f, 24), 0);  // below the caption line
  EXPECT_GT(f.count(matrix, kOwner0, 6, 0.0f, 0.5f) + f.count(matrix, kOwner1, 6, 0.0f, 0.5f), 100);
}

TEST_F(GuiSim, CpuViewShowsItsCores) {
  const auto f = render("sim_cpu", "--size 128 --preset h100 --cpu-preset i7-3960x --cycle 2000");
  const auto& cpu = f.state["regions"]["cpu"];
  // Each core's box is outlined in its owner colour: the first two must be there.
  EXPECT_GT(f.count(cpu, kOwner0, 10), 50);
  EXPECT_GT(f.count(cpu, kOwner1, 10), 50);
}

// The cards' lines wrap between words, and a figure keeps its unit: at 1920x1080 a card's "DRAM
// 51.5 %" left the "%" alone on the next line, and "L2 512 KB" its "KB".
TEST_F(GuiSim, TheCoresCardsKeepAFigureWithItsUnit) {
  const auto run = ws::test_support::run_window("sim_cards", "--frames 3 --window 1920x1080 --no-run --print-state "
                                                             "--size 1024 --preset h100 --cycle 333");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  int card_lines = 0;
  for (const auto& t : run.state["clipped_text"]["drawn"]) {
    if (t["panel"] != "Simulated GPU") continue;
    const std::string text = t["text"];
    card_lines += text.rfind("L1 hits ", 0) == 0;
    EXPECT_NE(text.front(), '%') << text;
    EXPECT_NE(text.rfind("KB", 0), 0u) << text;
    EXPECT_NE(text.rfind("MB", 0), 0u) << text;
  }
  EXPECT_GE(card_lines, 1) << "no card showed its cache hits: the check saw nothing";
}

TEST_F(GuiSim, KeysStepPlayAndPause) {
  // --cycle asks for a still picture: the window starts paused there.
  auto f = render("sim_keys1", "--size 128 --cycle 0 --keys Right,Right,Right");
  EXPECT_EQ(f.state["cycle"], 3);
  f = render("sim_keys2", "--size 128 --cycle 0 --keys Right,Right,Left");
  EXPECT_EQ(f.state["cycle"], 1);
  const long long total = f.state["total_cycles"];
  f = render("sim_keys3", "--size 128 --cycle 0 --keys Shift+Right");
  EXPECT_EQ(f.state["cycle"], std::max<long long>(1, total / 100));
  f = render("sim_keys4", "--size 128 --cycle 40 --keys Home");
  EXPECT_EQ(f.state["cycle"], 0);
  f = render("sim_keys5", "--size 128 --cycle 0 --keys Space,wait:20");
  EXPECT_TRUE(f.state["playing"].get<bool>());
  EXPECT_GT(f.state["cycle"].get<long long>(), 0);
  f = render("sim_keys6", "--size 128 --cycle 0 --keys Space,wait:5,Space");
  EXPECT_FALSE(f.state["playing"].get<bool>());
  const long long paused_at = f.state["cycle"];
  EXPECT_GT(paused_at, 0);
}

TEST_F(GuiSim, WithNoLessonTheWindowOpensPlayingAndSpacePauses) {
  auto f = render("sim_autoplay", "--size 128 --keys wait:20");
  EXPECT_TRUE(f.state["playing"].get<bool>());
  EXPECT_TRUE(f.state["first_frame"]["playing"].get<bool>());
  // At the opening speed the first warps issue within 2 s of wall time: their first instruction
  // comes after the block launch, a few dozen cycles, and playback covers speed x 2 s cycles.
  EXPECT_GE(f.state["speed"].get<double>() * 2.0, 100.0);
  EXPECT_GT(f.state["cycle"].get<long long>(), 0);
  f = render("sim_autoplay_space", "--size 128 --keys Space,wait:5");
  EXPECT_FALSE(f.state["playing"].get<bool>());
}

TEST_F(GuiSim, ADefaultLaunchPlaysBeforeItIsSimulatedAndFillsTheChipInWaves) {
  // The app's default real size (1024³), animated as it is, shown from the first frame while
  // the rest is simulated behind it.
  auto f = render("sim_progressive", "--preset h100 --no-wait --keys wait:3");
  ASSERT_FALSE(f.state.is_discarded());
  EXPECT_EQ(f.state["animated"], nlohmann::json({1024, 1024, 1024}));
  const auto& first = f.state["first_frame"];
  EXPECT_TRUE(first["playing"].get<bool>());
  EXPECT_FALSE(first["complete"].get<bool>()) << "the first frame waited for the whole run";
  EXPECT_LT(first["simulated_fraction"].get<double>(), 0.5);
  EXPECT_LE(first["cycle"].get<long long>(), first["simulated_cycles"].get<long long>());
  EXPECT_GT(f.state["waves"].get<int>(), 1);
  // Every warp slot of the chip is in use while the first waves run.
  EXPECT_EQ(f.state["blocks_per_sm"].get<int>() * 8, f.state["warp_slots_per_sm"].get<int>());
  f = render("sim_full_chip", "--preset h100 --cycle 3000");
  ASSERT_TRUE(f.state["simulation_complete"].get<bool>());
  EXPECT_GE(f.state["peak_occupancy"].get<double>(), 0.9);
  EXPECT_EQ(f.state["waves"], 4);
}

TEST_F(GuiSim, UnknownPresetIsExitCode2WithTheValidNames) {
  const auto r = run_command(bin + " --screenshot /tmp/never.png --preset no-such-gpu");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("h100"), std::string::npos) << r.output;
}

// Register blocking on the inspector: a regblock lane holds a TM x TN = 4 x 4 square of C, four
// consecutive columns in each of four consecutive rows, with values in flight.
TEST_F(GuiSim, ARegblockLaneShowsItsFourByFourAccumulators) {
  const auto f = render("sim_regblock_lane", "--size 256 --preset h100 --kernel regblock --cycle 3000 --select lane:0:2:5");
  ASSERT_FALSE(f.state.is_discarded());
  EXPECT_EQ(f.state["kernel"], "regblock");
  const auto& lane = f.state["selected_lane"];
  ASSERT_TRUE(lane.is_object()) << f.output;
  ASSERT_EQ(lane["accumulators"].size(), 16u);
  const int row0 = lane["accumulators"][0][0], col0 = lane["accumulators"][0][1];
  EXPECT_EQ(row0 % 4, 0);
  EXPECT_EQ(col0 % 4, 0);
  int nonzero = 0;
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(lane["accumulators"][i][0], row0 + i / 4) << i;
    EXPECT_EQ(lane["accumulators"][i][1], col0 + i % 4) << i;
    nonzero += lane["accumulators"][i][2].get<double>() != 0.0;
  }
  EXPECT_GT(lane["k_done"].get<int>(), 0);
  EXPECT_EQ(nonzero, 16) << "partial sums after " << lane["k_done"] << " of k";
}

// The tensor model's own lane state: warps waiting for their MMA's result are drawn in the
// legend's "on the tensor core" colour, which no other kernel shows.
TEST_F(GuiSim, TensorLanesOnTheTensorCoreHaveTheirColour) {
  constexpr Rgb kOnTensorCore{89, 217, 255};
  const auto tensor = render("sim_tensor", "--size 512 --preset h100 --kernel tensor --cycle 3000");
  ASSERT_FALSE(tensor.state.is_discarded());
  EXPECT_EQ(tensor.state["kernel"], "tensor");
  EXPECT_GT(tensor.count(tensor.state["regions"]["chip"], kOnTensorCore), 50);
  const auto tiled = render("sim_tiled_no_tensor", "--size 512 --preset h100 --kernel tiled --cycle 3000");
  EXPECT_EQ(tiled.count(tiled.state["regions"]["chip"], kOnTensorCore), 0);
  // A preset without BF16 tensor cores refuses the kernel, and the window says so instead of aborting.
  const auto refused = render("sim_tensor_refused", "--size 128 --preset gtx580 --kernel tensor");
  EXPECT_EQ(refused.exit_code, 0);
}

// The window with no lesson open, alone and with the cluster view, in English and Korean, at a
// projector's 1280x720 and at 1920x1080, 1x and 2x text: no text cut, and the timeline's scrub bar
// as wide as its label at the run's last cycle. Where the buttons leave it too little room beside
// them (1280x720, 2x text) it takes a row of its own (before, it was a 45-pixel sliver that read
// "cyc"); the cluster view's controls wrap the same way (they ran off its edge).
TEST_F(GuiSim, TheFreeWindowCutsNoTextAndTheScrubBarShowsItsLabel) {
  const std::string home = std::string(TEST_OUT_DIR) + "/sim_free_window_home";
  for (const char* extra : {"", " --cluster"})
    for (const char* lang : {"en", "ko"})
      for (const char* window : {"1280x720", "1920x1080"})
        for (const char* scale : {"1", "2"}) {
          const std::string where = std::string(lang) + ", " + window + ", " + scale + "x text" + extra;
          const auto f = ws::test_support::run_window(
              "sim_free_window", std::string("--frames 5 --no-run --no-wait --print-state --size 1024 --lang ") + lang +
                                     " --window " + window + " --ui-scale " + scale + extra,
              {.home = home});
          ASSERT_EQ(f.exit_code, 0) << f.output;
          ASSERT_FALSE(f.state.is_discarded()) << f.output;
          EXPECT_EQ(f.state["clipped_text"]["count"], 0) << where << ": " << f.state["clipped_text"]["texts"].dump();
          const auto& scrub = f.state["regions"]["scrub"];
          const double label_w = f.state["scrub_label_w"];
          EXPECT_GT(label_w, 0) << where;
          EXPECT_GE(scrub[2].get<double>(), label_w) << where;
          EXPECT_LE(scrub[0].get<double>() + scrub[2].get<double>(), f.w + 1.0) << where;
          EXPECT_LE(scrub[1].get<double>() + scrub[3].get<double>(), f.h + 1.0) << where;
        }
}

// A small window (a laptop's external screen at 800x600, or smaller) cuts nothing either: the
// real run's table sized its headers for "GPU cpu-tiled", so beside "cpu-parallel" at 800x600
// it cut "copy", "ok" and "not chosen"; it measures the names it shows now.
TEST_F(GuiSim, ASmallWindowCutsNoText) {
  const std::string home = std::string(TEST_OUT_DIR) + "/sim_small_window_home";
  for (const char* lang : {"en", "ko"})
    for (const char* window : {"800x600", "640x480"}) {
      const auto f = ws::test_support::run_window(
          "sim_small_window", std::string("--frames 5 --no-run --no-wait --print-state --size 64 --lang ") + lang +
                                  " --window " + window,
          {.home = home});
      ASSERT_EQ(f.exit_code, 0) << f.output;
      EXPECT_EQ(f.state["clipped_text"]["count"], 0) << lang << ", " << window << ": " << f.state["clipped_text"]["texts"].dump();
    }
}

// Where the matrix view is too short for its labels the matrices still show: a child window
// whose draw list held only the grid's GL callback was dropped by ImGui, so at 1280x720 with 1.5x
// text the view was empty. At 1920x1080 with 2x text the labels' two lines did not fit either;
// they take one line there now ("GPU 0.0%").
// A lesson step's short strip beside the chip (step 5 at 1280x720 with 2x text, where the step
// shows the GPU's C alone) puts its label left of the matrix instead.
TEST_F(GuiSim, TheMatricesShowWhereTheirLabelsDoNotFit) {
  const auto labelled = [](const nlohmann::json& state) {
    int n = 0;
    for (const auto& t : state["clipped_text"]["drawn"]) {
      if (t["panel"] != "Simulated GPU") continue;  // the real run's table has rows "CPU" and "GPU"
      const std::string text = t["text"];
      for (const char* who : {"GPU", "CPU"})
        if (text == who || text.rfind(std::string(who) + "'s C: ", 0) == 0 ||
            (text.rfind(std::string(who) + " ", 0) == 0 && text.back() == '%'))
          ++n;
    }
    return n;
  };
  for (const char* size : {"--window 1280x720 --ui-scale 1.5", "--window 1920x1080 --ui-scale 2",
                           "--window 1280x720 --ui-scale 2 --lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS
                           "/lessons/gpu-story.en.toml --step 5"}) {
    const Frame f{ws::test_support::run_window(
        "sim_matrix_short", std::string("--frames 3 --no-run --print-state --size 128 --cycle 0 ") + size)};
    ASSERT_EQ(f.exit_code, 0) << f.output;
    const auto& matrix = f.state["regions"]["matrix"];
    ASSERT_GT(matrix[3].get<float>(), 0) << size;
    const bool step = std::string(size).find("--step") != std::string::npos;
    if (step) {
      // One C, named, at least 100 px a side (76 with its label above it).
      EXPECT_GT(f.count(matrix, kPending, 3, 0.0f, 1.0f), 100 * 100) << size;
      EXPECT_GE(f.state["picture"]["matrix_px"].get<int>(), 100) << size;
      EXPECT_EQ(labelled(f.state), 1) << size;
      continue;
    }
    // Both halves: C not yet done, in the pending colour, a square of at least 40 px a side each.
    EXPECT_GT(f.count(matrix, kPending, 3, 0.0f, 0.5f), 40 * 40) << size;
    EXPECT_GT(f.count(matrix, kPending, 3, 0.5f, 1.0f), 40 * 40) << size;
    EXPECT_EQ(labelled(f.state), 2) << size << ": each matrix named";
    for (const auto& t : f.state["clipped_text"]["texts"])
      EXPECT_NE(t["panel"], "Simulated GPU") << size << ": " << t["text"];
  }
}

// The dot-product step ("Every cell of C is its own dot product") shows A, B and C alone. At 2x
// text on 720 lines they are wide and short: the colour note went under them and C was 98 px a
// side in a half 624 px wide. The note now goes beside the CPU's matrix where it fits, and C takes
// its line (132 px); at 1080 lines the note stays whole beside it too.
TEST_F(GuiSim, TheDotProductStepGivesTheMatricesTheNotesLine) {
  for (const char* lang : {"en", "ko"}) {
    for (const char* size : {"--window 1280x720 --ui-scale 2", "--window 1920x1080"}) {
      const std::string args = std::string("--frames 3 --no-run --print-state --lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS
                                           "/lessons/gpu-story.") + lang + ".toml --step 3 " + size;
      const Frame f{ws::test_support::run_window("sim_dot_product", args)};
      ASSERT_EQ(f.exit_code, 0) << f.output;
      const auto& matrix = f.state["regions"]["matrix"];
      const int least_side = std::string(size).find("720") != std::string::npos ? 120 : 600;
      // C not yet done on the GPU's side: its pending colour, a square of at least least_side.
      EXPECT_GT(f.count(matrix, kPending, 3, 0.0f, 0.5f), least_side * least_side * 9 / 10) << lang << " " << size;
      EXPECT_TRUE(colour_note_drawn(f.state, lang)) << lang << " " << size << ": the colour note is drawn";
      EXPECT_EQ(f.state["clipped_text"]["count"], 0) << lang << " " << size;
      EXPECT_EQ(f.state["frames_cut"]["count"], 0) << lang << " " << size;
    }
  }
}

// The matrix view shows the C of each worker on screen: the CPU's step (cores and matrix) only
// the CPU's C, the waves step (chip, matrix, timeline) only the GPU's, the free window (both
// workers) and the dot-product step (neither) both. At 1920x1080 the waves step's C was a 256 px
// square beside a CPU's C at 0.00 %, the column's lower half empty.
TEST_F(GuiSim, TheMatrixShowsTheCOfTheWorkersOnScreen) {
  struct Case {
    const char* args;
    int matrices;
    const char* label;  // the one matrix's label's start; nullptr with two
    int least_px;
  };
  const std::string lesson = "--lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons/gpu-story.";
  const std::vector<Case> cases = {
      {"en.toml --step 1", 1, "CPU's C: ", 600},
      {"ko.toml --step 1", 1, "CPU의 C: ", 600},
      {"en.toml --step 5", 1, "GPU's C: ", 480},
      {"ko.toml --step 5", 1, "GPU의 C: ", 480},
      {"en.toml --step 3", 2, nullptr, 600},
  };
  const auto check = [](const Frame& f, const std::string& what, int matrices, const char* label, int least_px) {
    ASSERT_EQ(f.exit_code, 0) << f.output;
    EXPECT_EQ(f.state["picture"]["matrices_drawn"], matrices) << what;
    EXPECT_GE(f.state["picture"]["matrix_px"].get<int>(), least_px) << what;
    std::vector<std::string> labels;
    for (const auto& t : f.state["clipped_text"]["drawn"]) {
      const std::string text = t["text"];
      for (const char* start : {"GPU's C: ", "CPU's C: ", "GPU의 C: ", "CPU의 C: "})
        if (text.rfind(start, 0) == 0) labels.push_back(text);
    }
    ASSERT_EQ(static_cast<int>(labels.size()), matrices) << what << ": each matrix named";
    if (label) {
      EXPECT_EQ(labels[0].rfind(label, 0), 0u) << what << ": " << labels[0];
    }
    EXPECT_EQ(f.state["clipped_text"]["count"], 0) << what;
  };
  for (const auto& c : cases) {
    const Frame f{ws::test_support::run_window("sim_matrix_workers", "--frames 3 --no-run --print-state --window 1920x1080 " + lesson + c.args)};
    check(f, c.args, c.matrices, c.label, c.least_px);
  }
  const Frame free{ws::test_support::run_window("sim_matrix_workers", "--frames 3 --no-run --print-state --window 1920x1080 --size 128 --cycle 0")};
  check(free, "the free window", 2, nullptr, 180);
}

// The CPU step at 2x text on 720 lines: with its label beside it the cores' C would be 213 px but
// the colour note would go; with the label above, 171 px and the note beside C. A note kept at
// three quarters of C's size or more wins, so the colours stay explained.
TEST_F(GuiSim, ALabelBesideCDoesNotDisplaceTheColourNote) {
  for (const char* lang : {"en", "ko"}) {
    const Frame f{ws::test_support::run_window(
        "sim_matrix_note", std::string("--frames 3 --no-run --print-state --window 1280x720 --ui-scale 2 --lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS
                                       "/lessons/gpu-story.") + lang + ".toml --step 1")};
    ASSERT_EQ(f.exit_code, 0) << f.output;
    EXPECT_EQ(f.state["picture"]["matrices_drawn"], 1) << lang;
    EXPECT_GE(f.state["picture"]["matrix_px"].get<int>(), 120) << lang;
    EXPECT_TRUE(colour_note_drawn(f.state, lang)) << lang << ": the colour note is drawn";
    EXPECT_EQ(f.state["clipped_text"]["count"], 0) << lang;
  }
}

// Zoomed in, each SM is named above it and each warp beside its row, on the window's background:
// in the theme's ink there. They were near-white with a shadow, white on white in the light theme.
TEST_F(GuiSim, TheChipsLabelsOnTheBackgroundReadInBothThemes) {
  for (const std::string theme_keys : {"", " --keys T"}) {
    SCOPED_TRACE(theme_keys.empty() ? "dark" : "light");
    const auto f = render("sim_labels", "--size 128 --preset h100 --cycle 500 --zoom sm:0" + theme_keys);
    ASSERT_FALSE(f.state.is_discarded());
    EXPECT_EQ(f.state["theme"], theme_keys.empty() ? "dark" : "light");
    const auto& picture = f.state["picture"];
    EXPECT_GE(picture["labels_on_background"].get<int>(), 1) << "no SM or warp named beside the lanes";
    EXPECT_GE(picture["labels_on_background_contrast"].get<double>(), 7.0);
  }
}

// Zoomed onto warp 0 of SM 0 (the lesson's step on warps), the view starts at the SM's name: it
// was centred on the warp with the rows above the chip, half the view, empty. The lane numbers
// and the warp's name over its lanes read on every lane colour: dark on light lanes (the light
// theme's grey of an empty slot, bright green), light on dark ones.
TEST_F(GuiSim, AZoomedWarpStartsAtItsSmAndItsLaneNumbersRead) {
  for (const std::string theme_keys : {"", " --keys T"}) {
    SCOPED_TRACE(theme_keys.empty() ? "dark" : "light");
    const auto f = render("sim_warp_zoom", "--size 64 --preset h100 --cycle 40 --zoom warp:0:0" + theme_keys);
    ASSERT_FALSE(f.state.is_discarded());
    const auto& picture = f.state["picture"];
    EXPECT_GE(picture["chip_view_top_row"].get<double>(), -1.01) << "rows above the chip shown";
    EXPECT_LE(picture["chip_view_top_row"].get<double>(), 0.0) << "SM 0's name left out";
    EXPECT_GE(picture["labels_over_lanes"].get<int>(), 32);
    EXPECT_GE(picture["labels_over_lanes_contrast"].get<double>(), 4.5);
  }
  // SM 0 is at the chip's left edge: zoomed onto it, the view starts there (a gap's width for the
  // outline and names) instead of centring it with a third of the view empty.
  const auto sm = render("sim_sm_zoom", "--size 64 --preset h100 --cycle 40 --zoom sm:0");
  ASSERT_FALSE(sm.state.is_discarded());
  EXPECT_GE(sm.state["picture"]["chip_view_left_lane"].get<double>(), -6.0);
  EXPECT_GE(sm.state["picture"]["chip_view_top_row"].get<double>(), -6.0);
}

// The lesson's warp step at 1080 lines has a wide margin left of SM 0: the warps' and blocks'
// names go there, on two lines, and every lane of every row keeps its number. They were drawn
// over lanes 0-4, whose numbers were left out (27 of 32 a row). Where the margin holds only
// "warp N" (no lesson, 1080 lines), the block goes over the first lanes, named still.
TEST_F(GuiSim, AZoomedWarpNamesItsRowsBesideThemAndNumbersEveryLane) {
  const auto step = render("sim_warp_step", "--lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons/gpu-story.en.toml --step 4",
                           "1920x1080");
  ASSERT_FALSE(step.state.is_discarded());
  const int numbers = step.state["picture"]["labels_over_lanes"].get<int>();
  EXPECT_GE(numbers, 8 * 32);
  EXPECT_EQ(numbers % 32, 0) << "a row with some of its lanes unnumbered";
  EXPECT_GE(step.state["picture"]["labels_on_background"].get<int>(), 2 * 8) << "eight warps and their blocks";
  const auto plain = render("sim_warp_margin", "--size 64 --preset h100 --cycle 40 --zoom warp:0:0", "1920x1080");
  ASSERT_FALSE(plain.state.is_discarded());
  EXPECT_GE(plain.state["picture"]["labels_on_background"].get<int>(), 20) << "the warps' names beside them";
  EXPECT_GE(plain.state["picture"]["labels_over_lanes"].get<int>(), 8) << "the eight resident warps' block";
}

// The inspector's text shrinks only as far as its box needs. It was scaled by the line count it
// had at full size, though smaller text wraps into fewer lines: 64 % at 2x on 1080 lines in a
// box a third empty, then 75 %. On the lesson's warp step, where it is alone beside the chip (the
// step names lane 0's cell; C's matrices, empty at its first issue, are not shown), it may take
// 45 % of the width: at 1280x720 with 2x text its lines were drawn at 50 %, now 80 %.
TEST_F(GuiSim, TheInspectorShrinksItsTextOnlyAsFarAsItsBoxNeeds) {
  const std::string step = "--lesson " WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons/gpu-story.en.toml --step 4";
  const auto big = render("sim_inspector_2x", step + " --ui-scale 2", "1280x720");
  ASSERT_FALSE(big.state.is_discarded());
  EXPECT_GE(big.state["picture"]["inspector_text_pct"].get<int>(), 75);
  EXPECT_LT(big.state["picture"]["inspector_text_pct"].get<int>(), 100) << "the box is short at 2x: the check is moot";
  EXPECT_EQ(big.state["clipped_text"]["count"], 0);
  const auto free_window = render("sim_inspector_free_2x", "--size 64 --cycle 40 --zoom warp:0:0 --select lane:0:0:0 --ui-scale 2",
                                  "1920x1080");
  ASSERT_FALSE(free_window.state.is_discarded());
  EXPECT_GE(free_window.state["picture"]["inspector_text_pct"].get<int>(), 70);
  EXPECT_EQ(free_window.state["clipped_text"]["count"], 0);
  const auto normal = render("sim_inspector_1x", step, "1920x1080");
  ASSERT_FALSE(normal.state.is_discarded());
  EXPECT_EQ(normal.state["picture"]["inspector_text_pct"].get<int>(), 100);
}

// A projector washes out the difference between a text and its background: every text colour of
// both themes keeps WCAG's 4.5:1. The light theme's secondary grey (notes, sources, "not run
// yet", the cluster's ideal line) was ImGui's 0.6 grey, 2.8:1 on white.
TEST_F(GuiSim, EveryTextColourReadsOnItsThemesBackground) {
  for (const std::string theme_keys : {"", " --keys T"}) {
    SCOPED_TRACE(theme_keys.empty() ? "dark" : "light");
    const auto f = render("sim_text_contrast", "--size 64 --preset h100 --cycle 0" + theme_keys);
    ASSERT_FALSE(f.state.is_discarded());
    const auto& contrast = f.state["text_contrast"];
    EXPECT_GE(contrast["text"].get<double>(), 7.0);
    EXPECT_GE(contrast["secondary"].get<double>(), 4.5);
    EXPECT_GE(contrast["coloured"].get<double>(), 4.5);
  }
}
