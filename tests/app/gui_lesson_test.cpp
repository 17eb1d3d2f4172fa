// Lecture mode as a lecturer uses it, rendered headless: every built-in step in both languages,
// Hangul really drawn, step keys, resuming a step, a broken file, presentation keys and settings.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <set>
#include <string>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"
#include "../support/window_run.hpp"
#include "korean_text.hpp"

namespace fs = std::filesystem;

namespace {

const std::string bin = WARPSCOPE_BIN;
const std::string out_dir = TEST_OUT_DIR;
const std::string lessons = WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons";

nlohmann::json state_of(const std::string& args, const std::string& env = "") {
  const auto run =
      ws::test_support::run_window("lesson_state", "--frames 3 --no-run --print-state " + args, {.env = env});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  return run.state;
}

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

}  // namespace

class GuiLesson : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  }
};

TEST_F(GuiLesson, EveryBuiltInStepRendersInBothLanguages) {
  // Both languages export side by side: each export mostly waits on its own simulations, and this
  // is the longest GUI test in CI.
  std::map<std::string, std::future<ProcessResult>> exports;
  for (const char* lang : {"en", "ko"}) {
    const fs::path dir = fs::path(out_dir) / (std::string("export_") + lang);
    fs::remove_all(dir);
    // --wait-results: each step is written once its caption has every value (the real run of the
    // measured step included); --print-state: one JSON line per step with the caption as drawn.
    // The size is projector mode's hardest (the smallest window with 2x text), so this one export
    // per language also stands for GuiProjectorExport's clipping check in CI; the other sizes run
    // with WARPSCOPE_ALL_EXPORT_SIZES=1.
    const std::string command = bin + " lesson export " + lessons + "/gpu-story.en.toml --out " + dir.string() +
                                " --lang " + lang + " --window 1280x720 --ui-scale 2 --print-state --wait-results";
    exports[lang] = std::async(std::launch::async, [command] { return run_command(command); });
  }
  for (const char* lang : {"en", "ko"}) {
    SCOPED_TRACE(lang);
    const fs::path dir = fs::path(out_dir) / (std::string("export_") + lang);
    const auto r = exports[lang].get();
    ASSERT_EQ(r.exit_code, 0) << r.output;
    int pngs = 0;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".png" && fs::file_size(e.path()) > 10000) ++pngs;
    EXPECT_GE(pngs, 12) << lang;
    EXPECT_EQ(r.output.find("no glyph"), std::string::npos) << r.output;
    // No hole in the numbers: every placeholder of every step filled, no dash on screen (a machine
    // without a GPU says so in words or shows the step's caption_no_gpu).
    std::set<int> steps;  // the window's own state line at exit repeats the last step
    int citing = 0;       // steps whose caption names its sources
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] != '{') continue;
      const auto step = nlohmann::json::parse(line, nullptr, false);
      if (step.is_discarded() || !step.contains("caption_unfilled")) continue;
      steps.insert(step["lesson_step"].get<int>());
      const std::string caption = step["caption"];
      EXPECT_EQ(step["caption_unfilled"], 0) << lang << " step " << step["lesson_step"] << ": " << caption;
      EXPECT_EQ(caption.find("\xE2\x80\x94"), std::string::npos) << lang << " step " << step["lesson_step"] << ": " << caption;
      EXPECT_FALSE(caption.empty()) << lang << " step " << step["lesson_step"];
      // A figure is read with its word: no line of a paragraph ends on "0.1823" with "ms" on the next.
      ASSERT_TRUE(step["caption_lines"].is_array()) << step.dump();
      int caption_line_count = 0;
      for (const auto& block : step["caption_lines"]) {
        caption_line_count += static_cast<int>(block.size());
        for (std::size_t i = 0; i + 1 < block.size(); ++i) {
          const std::string before = block[i], after = block[i + 1];
          EXPECT_FALSE(ws::test_support::figure_parted_from_its_word(before, after)) << lang << " step " << step["lesson_step"] << ": \"" << before << "\" / \""
                                         << after << "\"";
        }
      }
      EXPECT_GE(caption_line_count, 1) << lang << " step " << step["lesson_step"];
      // Projector mode: no text cut by its panel, the caption never scrolled or shrunk to nothing.
      EXPECT_EQ(step["clipped_text"]["count"], 0) << lang << " step " << step["lesson_step"] << ": "
                                                  << step["clipped_text"]["texts"].dump();
      // Readable from the back row (docs/LESSONS.md): never below projector mode's size at 1x text,
      // 28 px on a 1080-line picture, however long the step. The caption spans the window's width
      // and its sources are set smaller, which is what keeps it there (the steps with the timers
      // shrank to 15 px when the caption had the right half only).
      EXPECT_GE(step["caption_px"].get<double>(), 28.0 * 720 / 1080) << lang << " step " << step["lesson_step"];
      const bool cites = caption.find(std::string(lang) == "ko" ? "\n\xEC\xB6\x9C\xEC\xB2\x98: " : "\nSource") != std::string::npos;
      if (cites) {
        citing += !step.contains("lesson_steps");
        EXPECT_GT(step["caption_sources_px"].get<double>(), 0.0) << lang << " step " << step["lesson_step"];
        EXPECT_LT(step["caption_sources_px"].get<double>(), step["caption_px"].get<double>())
            << lang << " step " << step["lesson_step"] << ": the sources are a footnote";
      } else {
        EXPECT_EQ(step["caption_sources_px"].get<double>(), 0.0) << lang << " step " << step["lesson_step"];
      }
      // Nor any panel that scrolls: on a projected picture what is below its fold is out of sight.
      EXPECT_TRUE(step["clipped_text"]["scrolling"].empty())
          << lang << " step " << step["lesson_step"] << ": " << step["clipped_text"]["scrolling"].dump();
      // And not on any frame before it either, from the step's third on: a lecture shows them all
      // while the step's runs finish (a layout one frame late cut the clock when the simulation
      // ended, on whichever frame that happened to be).
      // The window's own state line at exit counts the whole run, the steps' first frames too:
      // those are held while they settle. (A step written within its settling frames left them
      // counted, and the next step's first frame passed the cap on held frames with a scroll bar.)
      EXPECT_EQ(step["frames_cut"]["count"], 0) << lang << " step " << step["lesson_step"]
                                                << (step.contains("lesson_steps") ? " (the whole run)" : "") << ": "
                                                << step["frames_cut"]["first"].dump();
      // Korean done right: no interface text left in English on any step (korean_text.hpp).
      if (std::string(lang) == "ko") {
        const auto english = ws::test_support::english_texts(step["clipped_text"]);
        EXPECT_TRUE(english.empty()) << "step " << step["lesson_step"] << ", English on the Korean screen:\n"
                                     << ws::test_support::join(english);
      }
      // The picture proves the caption: every step declares what its frame must show (`expect`),
      // and the frame written to the PNG shows it.
      ASSERT_TRUE(step.contains("expect")) << line;
      EXPECT_FALSE(step["expect"].empty()) << lang << " step " << step["lesson_step"] << " declares no expectation";
      for (const auto& e : step["expect"])
        EXPECT_TRUE(e["ok"].get<bool>()) << lang << " step " << step["lesson_step"] << ": '" << e["expect"].get<std::string>()
                                         << "' is not met (the value is " << e["value"] << ")\n"
                                         << step["picture"].dump();
    }
    EXPECT_EQ(static_cast<int>(steps.size()), pngs) << lang << ": one caption line per step\n" << r.output;
    EXPECT_GE(citing, 4) << lang << ": the steps quoting AlexNet, CUDA and the clusters' figures cite them";
  }
}

TEST_F(GuiLesson, KoreanCaptionsAreDrawnWithHangulGlyphs) {
  auto s = state_of("--lesson " + lessons + "/gpu-story.ko.toml --step 1");
  ASSERT_FALSE(s.is_discarded());
  EXPECT_EQ(s["language"], "ko");
  EXPECT_NE(s["hangul_font"], "");
  EXPECT_EQ(s["missing_glyphs"], 0);
  // The same check does fail when the "Korean" font cannot draw Hangul.
  const char* latin = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (fs::exists(latin)) {
    s = state_of("--lesson " + lessons + "/gpu-story.ko.toml --step 1", std::string("WARPSCOPE_HANGUL_FONT=") + latin);
    EXPECT_GT(s["missing_glyphs"].get<int>(), 10);
  }
}

// A caption's figures are worded in the caption's language, whatever the interface's: step 19
// quotes the wave count ("in 1 wave of blocks"), which the Korean table words "웨이브 1번".
TEST_F(GuiLesson, FiguresInACaptionFollowTheLessonsLanguageNotTheInterfaces) {
  const auto caption_of = [](const std::string& args) {
    const auto run = ws::test_support::run_window("lesson_caption_lang", "--frames 60 --no-run --print-state " + args);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    return run.state.is_discarded() ? std::string() : run.state["caption"].get<std::string>();
  };
  // The built-in lesson's generation steps quote {sim.wave_count} the same way, but on a 1024³
  // launch that takes a minute to simulate twice: a 64³ one shows the same choice of words.
  const auto lesson_in = [&](const std::string& lang) {
    const std::string path = out_dir + "/waves." + lang + ".toml";
    std::ofstream(path) << "title = \"Waves\"\nlanguage = \"" << lang << "\"\n[[step]]\ntitle = \"Waves\"\n"
                        << "caption = \"{sim.wave_count}\"\ngpu_preset = \"h200\"\nkernel = \"tiled\"\n"
                        << "m = 64\nn = 64\nk = 64\ncycle = 0\n";
    return path;
  };
  const std::string english = caption_of("--lesson " + lesson_in("en") + " --lang ko");
  EXPECT_NE(english.find(" wave"), std::string::npos) << english;
  EXPECT_EQ(english.find("웨이브"), std::string::npos) << english;
  const std::string korean = caption_of("--lesson " + lesson_in("ko") + " --lang en");
  EXPECT_NE(korean.find("웨이브"), std::string::npos) << korean;
  EXPECT_EQ(korean.find(" wave"), std::string::npos) << korean;
}

TEST_F(GuiLesson, ArrowAndPageKeysMoveBetweenSteps) {
  const std::string lesson = "--lesson " + lessons + "/gpu-story.en.toml";
  EXPECT_EQ(state_of(lesson + " --keys Right,Right,Right")["lesson_step"], 4);
  EXPECT_EQ(state_of(lesson + " --keys PageDown,PageDown,PageUp")["lesson_step"], 2);
  // Steps 1-4 simulate 64^3: a later step's 1024^3 run would only make the test wait.
  EXPECT_EQ(state_of(lesson + " --step 4 --keys Left")["lesson_step"], 3);
  EXPECT_EQ(state_of(lesson + " --step 4 --keys Shift+Home")["lesson_step"], 1);
}

// Stepping through a lecture with the arrow keys, every frame that reaches the screen is whole.
// Two faults showed a frame with the simulated GPU panel a line short: the first frames of a step
// (ImGui sizes scroll bars and tables from the frame before; they are now drawn, not shown), and
// the frame a step's simulation is adopted (its caption was composed before the adoption, for
// the panel heights of the frame before). Both failed here: 9 -> 12 and 13 -> 16, 1280x720, 2x.
TEST_F(GuiLesson, SteppingWithTheKeysShowsNoCutFrame) {
  for (const char* from : {"9", "13", "17"}) {
    const auto run = ws::test_support::run_window(
        "lesson_keys_cut", std::string("--frames 30 --no-run --print-state --window 1280x720 --ui-scale 2 --lesson ") +
                               lessons + "/gpu-story.en.toml --step " + from + " --keys Right,Right,Right");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    ASSERT_FALSE(run.state.is_discarded()) << run.output;
    EXPECT_EQ(run.state["lesson_step"], std::stoi(from) + 3);
    EXPECT_EQ(run.state["frames_cut"]["count"], 0) << "from step " << from << ": " << run.state["frames_cut"]["first"].dump();
  }
}

TEST_F(GuiLesson, ComingBackToAStepResumesWhereItWasLeft) {
  const std::string lesson = "--lesson " + lessons + "/gpu-story.en.toml --step 4";
  const auto fresh = state_of(lesson);
  const long long start = fresh["cycle"];
  // Step the clock with ']' (the arrows belong to the lesson), leave, come back.
  const auto back = state_of(lesson + " --keys RightBracket,RightBracket,RightBracket,Right,Left");
  EXPECT_EQ(back["lesson_step"], 4);
  EXPECT_EQ(back["cycle"].get<long long>(), start + 3);
}

// Step 2's busy chip is the point of its caption ("all at the same time"). At "mid-run" it waited
// for the whole 1024³ launch, ~25 s on 2 cores, showing the lecturer a dark grid at cycle 0; at a
// cycle early in the run it is there in a few frames, as a user sees it (--no-wait).
TEST_F(GuiLesson, TheThousandsOfWorkersStepShowsItsBusyChipAtOnce) {
  const auto run = ws::test_support::run_window(
      "lesson_busy_at_once", "--frames 30 --no-run --no-wait --print-state --lesson " + lessons + "/gpu-story.en.toml --step 2");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_FALSE(run.state.is_discarded()) << run.output;
  EXPECT_GT(run.state["cycle"].get<long long>(), 0);
  EXPECT_GE(run.state["picture"]["lanes_active"].get<long long>(), 10000) << run.state["picture"].dump();
  EXPECT_EQ(run.state["picture"]["lanes_not_resident"], 0) << "every SM full";
}

TEST_F(GuiLesson, AStepWaitingForMidRunSaysSoUnderTheChip) {
  // Step 7 opens "mid-run" on the 1024³ launch: that cycle is known only once the whole run is
  // simulated (~25 s on two cores), and until then the chip holds still. The timeline says why.
  for (const std::string lang : {"en", "ko"}) {
    const auto run = ws::test_support::run_window(
        "lesson_mid_run_wait_" + lang,
        "--frames 5 --no-run --no-wait --print-state --lesson " + lessons + "/gpu-story." + lang + ".toml --step 7");
    ASSERT_EQ(run.exit_code, 0) << run.output;
    ASSERT_FALSE(run.state.is_discarded()) << run.output;
    if (run.state["simulation_complete"].get<bool>()) GTEST_SKIP() << "the whole launch was simulated in 5 frames";
    EXPECT_EQ(run.state["anchor_pending"], "mid-run");
    const std::string wanted = lang == "en" ? "to show its middle" : "중간을 보여";
    bool said = false;
    for (const auto& t : run.state["clipped_text"]["drawn"])
      said = said || t["text"].get<std::string>().find(wanted) != std::string::npos;
    EXPECT_TRUE(said) << run.state["clipped_text"]["drawn"].dump();
  }
}

TEST_F(GuiLesson, AStepThatShowsAnEarlierLaunchDoesNotSimulateItAgain) {
  // Steps 1 and 3 animate the same 64³ launch, step 2 a 1024³ one. Whether step 2's run has started
  // when the lecturer moves on or not, step 3 shows step 1's simulation: two built, not three.
  const auto s = state_of("--lesson " + lessons + "/gpu-story.en.toml --keys Right,Right");
  EXPECT_EQ(s["lesson_step"], 3);
  EXPECT_EQ(s["simulations_built"], 2);
  EXPECT_EQ(s["animated"], nlohmann::json::array({64, 64, 64}));
}

// A one-step lesson whose caption quotes a cpu-naive run of side `size`, which the step starts.
fs::path measuring_lesson(const std::string& name, int size) {
  const fs::path file = fs::path(out_dir) / name;
  std::ofstream(file) << "title = \"m\"\n[[step]]\ntitle = \"Measured\"\n"
                      << "caption = \"CPU: {measured.cpu_gflops} GFLOP/s at {measured.size}\"\n"
                      << "cpu_kernel = \"cpu-naive\"\nreal_m = " << size << "\nreal_n = " << size << "\nreal_k = " << size
                      << "\nreal_run = true\npanels = [\"timers\", \"caption\"]\n";
  return file;
}

// A caption that quotes this machine's measurements says it is measuring while the step's own run
// is in flight: before, it showed a dash, or the figures of the step before (another size).
TEST_F(GuiLesson, ACaptionQuotingAMeasurementWaitsForTheStepsRun) {
  const fs::path file = measuring_lesson("measuring.toml", 512);
  const auto running = ws::test_support::run_window(
      "lesson_measuring", "--frames 3 --no-wait --print-state --window 1280x720 --lesson " + file.string());
  ASSERT_EQ(running.exit_code, 0) << running.output;
  const std::string measuring = "Measuring on this machine: the caption's figures come when the run ends.";
  EXPECT_EQ(running.state["caption"].get<std::string>().find("\xE2\x80\x94"), std::string::npos) << running.state["caption"];
  if (running.state["real_run_busy"].get<bool>()) {
    EXPECT_EQ(running.state["caption"], measuring);
  }

  const auto done = ws::test_support::run_window(
      "lesson_measured", "--frames 3 --wait-results --print-state --window 1280x720 --lesson " + file.string());
  ASSERT_EQ(done.exit_code, 0) << done.output;
  ASSERT_FALSE(done.state["real_run_busy"].get<bool>());
  const std::string caption = done.state["caption"];
  EXPECT_EQ(caption.rfind("CPU: ", 0), 0u) << caption;
  EXPECT_NE(caption.find(" GFLOP/s at 512³"), std::string::npos) << caption;
  EXPECT_EQ(done.state["caption_unfilled"], 0);

  // A run too long to start unasked (cpu-naive at 2048³, minutes) waits for Run anyway, and the
  // caption says so with the estimate instead of dashes.
  const fs::path slow = measuring_lesson("measuring-slow.toml", 2048);
  const auto asked = ws::test_support::run_window(
      "lesson_measure_asked", "--frames 3 --print-state --window 1280x720 --lesson " + slow.string());
  ASSERT_EQ(asked.exit_code, 0) << asked.output;
  const std::string question = asked.state["caption"];
  EXPECT_EQ(question.rfind("cpu-naive at 2048³: about ", 0), 0u) << question;
  EXPECT_NE(question.find(". Press Run anyway in the Real run panel for the caption's figures."), std::string::npos)
      << question;
  EXPECT_EQ(question.find("\xE2\x80\x94"), std::string::npos) << question;
}

// What a presentation clicker sends (the Logitech R400: PageDown/PageUp, '.' for its blank-screen
// button, F5 then Escape for its slideshow button) and PowerPoint's B: the screen goes black and
// back, full screen starts and ends, and '.' no longer moves the clock.
TEST_F(GuiLesson, AClickersBlankAndSlideshowButtonsWork) {
  const std::string lesson = "--lesson " + lessons + "/gpu-story.en.toml --step 3";
  const auto black = ws::test_support::run_window("clicker_blank", "--frames 3 --no-run --print-state " + lesson +
                                                                       " --keys Period,wait:2");
  ASSERT_EQ(black.exit_code, 0) << black.output;
  EXPECT_TRUE(black.state["blank"].get<bool>());
  long long lit = 0;
  for (int y = 0; y < black.h; ++y)
    for (int x = 0; x < black.w; ++x) lit += black.at(x, y)[0] + black.at(x, y)[1] + black.at(x, y)[2] > 0;
  EXPECT_EQ(lit, 0) << "pixels not black on the black screen";

  const auto fresh = state_of(lesson);
  // '.' twice: black and back, the clock where it was; B and then the next step: the picture is
  // back and on the next step, as PowerPoint does.
  const auto twice = state_of(lesson + " --keys Period,Period");
  EXPECT_FALSE(twice["blank"].get<bool>());
  EXPECT_EQ(twice["cycle"], fresh["cycle"]);
  const auto next = state_of(lesson + " --keys B,PageDown");
  EXPECT_FALSE(next["blank"].get<bool>());
  EXPECT_EQ(next["lesson_step"], 4);

  EXPECT_TRUE(state_of(lesson + " --keys F5")["fullscreen"].get<bool>());
  EXPECT_FALSE(state_of(lesson + " --keys F5,Escape")["fullscreen"].get<bool>());
}

TEST_F(GuiLesson, ABrokenLessonIsAnErrorWithItsLocation) {
  const fs::path broken = fs::path(out_dir) / "broken.toml";
  std::ofstream(broken) << "title = \"x\"\n[[step]]\ntitle = \"a\"\ngpu_preset = \"nope\"\n";
  const auto r = run_command(bin + " --lesson " + broken.string() + " --screenshot " + out_dir + "/never.png");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find(broken.string() + ":4:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("h100"), std::string::npos) << "valid names are listed: " << r.output;
}

TEST_F(GuiLesson, PresentationKeysAndSettingsPersist) {
  const fs::path config = fs::path(out_dir) / "config";
  fs::remove_all(config);
  const std::string env = "WARPSCOPE_CONFIG_DIR=" + config.string();
  auto s = state_of("--size 64 --keys Ctrl+Equal,T,C", env);
  EXPECT_NEAR(s["ui_scale"].get<double>(), 1.15, 1e-3);
  EXPECT_EQ(s["theme"], "light");
  EXPECT_TRUE(s["clean"].get<bool>());
  // The next start remembers the scale and the theme.
  s = state_of("--size 64", env);
  EXPECT_NEAR(s["ui_scale"].get<double>(), 1.15, 1e-3);
  EXPECT_EQ(s["theme"], "light");
  s = state_of("--size 64 --keys Ctrl+0", env);
  EXPECT_NEAR(s["ui_scale"].get<double>(), 1.0, 1e-3);
  EXPECT_TRUE(state_of("--size 64 --keys F11", env)["fullscreen"].get<bool>());
}

TEST_F(GuiLesson, GenerationsTableShowsEveryPresetAndFitsTheWindow) {
  // View > GPU generations (G): every preset a row, the simulated one marked, and at a small
  // window the optional columns give way before anything is clipped.
  // --size 64: the table does not depend on the simulation, which a screenshot waits for.
  const auto wide = state_of("--window 1920x1080 --size 64 --keys G");
  ASSERT_TRUE(wide["generations"]["shown"].get<bool>()) << wide.dump();
  EXPECT_EQ(wide["generations"]["rows"].size(), 11u);
  EXPECT_EQ(wide["generations"]["rows"][0], "c1060");
  EXPECT_EQ(wide["generations"]["marked"], wide["gpu_preset"]);
  EXPECT_EQ(wide["generations"]["dropped_columns"], 0);
  EXPECT_EQ(wide["generations"]["columns"].back(), "generations.chart");
  EXPECT_EQ(wide["generations"]["bars"], "column");
  const auto narrow = state_of("--window 640x480 --size 64 --keys G");
  ASSERT_TRUE(narrow["generations"]["shown"].get<bool>());
  EXPECT_GT(narrow["generations"]["dropped_columns"].get<int>(), 0);
  // Too narrow for the chart's column: the bars go under each row, as the note still says.
  EXPECT_EQ(narrow["generations"]["bars"], "under");
  // Without them the rest still did not fit 640 px: "SMs" was cut to "S" and 148 to 14. The
  // text is drawn smaller there instead.
  EXPECT_LT(narrow["generations"]["font_scale"].get<double>(), 1.0);
  EXPECT_EQ(narrow["clipped_text"]["count"], 0) << narrow["clipped_text"].dump();
  // G again gives the simulation its place back.
  EXPECT_FALSE(state_of("--size 64 --keys G,G")["generations"]["shown"].get<bool>());
}

// Beside the real run at 2x text the table is too narrow for the chart's column. Its note said
// "Bars on one scale: tensor cores in colour" over a table without a bar; they are now drawn under
// each row's figures, across the table.
TEST_F(GuiLesson, TheGenerationsTableBesideTheRealRunStillDrawsItsBars) {
  for (const char* lang : {"en", "ko"}) {
    for (const char* window : {"1280x720", "1920x1080"}) {
      const auto s = state_of(std::string("--size 64 --keys G --ui-scale 2 --lang ") + lang + " --window " + window);
      ASSERT_TRUE(s["generations"]["shown"].get<bool>()) << lang << window;
      const auto bars = s["generations"].value("bars", std::string());
      EXPECT_TRUE(bars == "column" || bars == "under") << lang << window << s["generations"].dump();
      // Headers on two lines, and no spacing counted that a table does not have: the text was
      // drawn at 0.49 and 0.81 of the 2x font here, with 80 px of the panel left empty.
      EXPECT_GE(s["generations"]["font_scale"].get<double>(), std::string(window) == "1280x720" ? 0.6 : 0.9)
          << lang << window;
      EXPECT_EQ(s["clipped_text"]["count"], 0) << lang << window << s["clipped_text"].dump();
    }
  }
}

// The note names the FP32 bar's colour as the theme draws it (the text's colour): it said "white"
// on the light theme too, where the line is black.
TEST_F(GuiLesson, TheGenerationsNoteNamesTheColourTheThemeDraws) {
  for (const auto& [keys, lang, want] :
       {std::tuple{"G", "en", "FP32 as the white line."}, std::tuple{"T,G", "en", "FP32 as the black line."},
        std::tuple{"T,G", "ko", "FP32는 검은 선입니다."}}) {
    const auto s = state_of(std::string("--size 64 --window 1920x1080 --keys ") + keys + " --lang " + lang);
    ASSERT_TRUE(s["generations"]["shown"].get<bool>()) << keys;
    bool said = false;
    for (const auto& t : s["clipped_text"]["drawn"]) said |= t["text"].get<std::string>().ends_with(want);
    EXPECT_TRUE(said) << keys << " " << lang << ": " << s["clipped_text"]["drawn"].dump();
  }
}

// The lesson step that gives the table the screen: at the UI's size its rows filled half a 1080p
// projector in 17 px text. With room it is drawn larger, in the caption's font, up to the
// caption's size; at 2x text on 720 lines it still shrinks so every row stays in sight.
TEST_F(GuiLesson, TheGenerationsStepGrowsTheTableWhereThereIsRoom) {
  for (const char* lang : {"en", "ko"}) {
    // The step shows no chip, so nothing waits for its simulation (--no-wait): 10 s a window here.
    const std::string step = "--lesson " + lessons + "/gpu-story." + lang + ".toml --step 21 --size 64 --no-wait ";
    const auto big = state_of(step + "--window 1920x1080");
    ASSERT_TRUE(big["generations"]["shown"].get<bool>()) << lang;
    EXPECT_GE(big["generations"]["font_scale"].get<double>(), 1.4) << lang;
    // Never past the caption's size (the UI's font is Presentation::kBaseFontPx, 17 px, at 1x).
    EXPECT_LE(big["generations"]["font_scale"].get<double>(), big["caption_px"].get<double>() / 17.0 + 0.01) << lang;
    EXPECT_EQ(big["generations"]["rows"].size(), 11u);
    EXPECT_EQ(big["generations"]["dropped_columns"], 0) << lang;
    EXPECT_EQ(big["clipped_text"]["count"], 0) << lang << big["clipped_text"].dump();
    // The caption reads memory getting faster: at 2x text, where a column must give way, the
    // memory bandwidth column is not the one (it was, being last).
    const auto big2x = state_of(step + "--window 1920x1080 --ui-scale 2");
    const auto& cols = big2x["generations"]["columns"];
    EXPECT_NE(std::find(cols.begin(), cols.end(), "generations.bandwidth"), cols.end()) << lang << cols.dump();
    EXPECT_EQ(big2x["generations"]["bars"], "column") << lang;
    // ...and the caption's "long bars" are long: ten digits' width at least (the chart was 125 px
    // there when every column was kept on one-line headers). 34 px: the 2x font.
    EXPECT_GE(big2x["generations"]["chart_px"].get<double>(), 10 * 0.55 * 34) << lang << big2x["generations"].dump();
    const auto small = state_of(step + "--window 1280x720 --ui-scale 2");
    EXPECT_LT(small["generations"]["font_scale"].get<double>(), 1.0) << lang;
    // ...but not below the UI's 1x size (half its 2x font): it was 15 px there, under the 1x
    // window's 18, while the shrink kept a line and a half of the small text spare.
    EXPECT_GE(small["generations"]["font_scale"].get<double>(), 0.5) << lang;
    EXPECT_EQ(small["clipped_text"]["count"], 0) << lang << small["clipped_text"].dump();
    EXPECT_TRUE(small["clipped_text"]["scrolling"].empty()) << lang << small["clipped_text"].dump();
  }
}
