// The window in Korean, rendered headless: every text a panel draws (the clip check's `drawn`
// list in --print-state) is read for interface text left in English: a test of what is on screen,
// not of the sources. Here the free window with a lane and a core inspected; every step of the
// Korean lesson is read the same way in GuiLesson.EveryBuiltInStepRendersInBothLanguages, from the
// one Korean export CI makes.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"
#include "../support/window_run.hpp"
#include "korean_text.hpp"

namespace fs = std::filesystem;
using namespace ws::test_support;

namespace {

const std::string bin = WARPSCOPE_BIN;
const std::string out_dir = TEST_OUT_DIR;
const std::string lessons = WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons";

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

}  // namespace

class GuiKorean : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_display()) GTEST_SKIP() << "no display: run under xvfb-run (scripts/test does)";
  }
};

// The detector itself, so a pass below means something.
TEST(KoreanUiDetector, FindsEnglishPhrasesAndUiStringsButNotNamesOrUnits) {
  EXPECT_EQ(english_phrase("not chosen"), "not chosen");
  EXPECT_EQ(english_phrase("GPU's C: 12 %"), "");
  EXPECT_EQ(english_phrase("timing the CPU: the window slows down"), "timing the");
  EXPECT_EQ(english_phrase("cpu-naive  GTX 580  AMD EPYC 9754 (128 cores)  4.2 GFLOP/s  0.5 ms"), "");
  EXPECT_EQ(english_phrase("CPU 코어 8개 중 4개 표시"), "");
  EXPECT_TRUE(contains_words("워프 0  block (1,0)", "block "));
  EXPECT_FALSE(contains_words("시뮬레이션: H100, regblock 커널", "block "));
  const nlohmann::json clip = {{"drawn", {{{"panel", "Timeline"}, {"text", "Step one cycle (Right; Shift: 1 %)"}},
                                          {{"panel", "Timeline"}, {"text", "Restart (Home)"}},
                                          {{"panel", "Real run"}, {"text", "L1 적중 40 %, DRAM 2 %"}},
                                          {{"panel", "Real run"}, {"text", "GPU의 C: 40.0 %"}},
                                          {{"panel", "Real run"}, {"text", "CUDA: no CUDA device"}}}}};
  const auto found = english_texts(clip);
  ASSERT_EQ(found.size(), 2u) << join(found);
  EXPECT_NE(found[0].find("Step one cycle"), std::string::npos);
  EXPECT_NE(found[1].find("Restart (Home)"), std::string::npos);
}

TEST_F(GuiKorean, FreeWindowDrawsNoEnglishText) {
  const std::string home = out_dir + "/korean_home";
  fs::remove_all(home);
  // A lane and then a core in the inspector: each selection draws its own lines. Then the
  // roofline in the simulation's place: its roofs, notes and legend (it once drew three in English),
  // with a CUDA kernel picked, whose resource line a CUDA build draws even without a GPU.
  for (const char* select : {"lane:0:0:0", "core:0", "core:0 --roofline --gpu-kernel cuda-regblock"}) {
    SCOPED_TRACE(select);
    const auto r = ws::test_support::run_window(
        "korean_ui", std::string("--frames 8 --no-run --lang ko --print-state --select ") + select, {.home = home});
    ASSERT_EQ(r.exit_code, 0) << r.output;
    ASSERT_EQ(r.state["language"], "ko") << r.output;
    const auto& clip = r.state["clipped_text"];
    ASSERT_TRUE(clip["check_linked"].get<bool>()) << "the binary was linked without the AddText wrap";
    EXPECT_GE(clip["drawn"].size(), 20u) << "too few texts seen for the check to mean anything";
    const auto english = english_texts(clip);
    EXPECT_TRUE(english.empty()) << "English on the Korean screen:\n" << join(english);
  }
}

// After real runs: the result rows' detail lines (the micro-kernel and its blocking, the GL
// renderer and how it was timed) are the kernels' English notes, worded again in Korean.
TEST_F(GuiKorean, RealRunsDetailLinesAreKorean) {
  const auto r = ws::test_support::run_window(
      "korean_runs", "--frames 4 --wait-results --size 64 --cpu-kernel cpu-parallel --gpu-kernel gl-regblock --lang ko "
                     "--print-state",
      {.home = out_dir + "/korean_runs_home"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(r.state["measured"]["cpu"].is_object()) << r.output;
  const auto& clip = r.state["clipped_text"];
  bool detail_seen = false;
  for (const auto& t : clip["drawn"]) detail_seen |= t["text"].get<std::string>().rfind("cpu-parallel: ", 0) == 0;
  EXPECT_TRUE(detail_seen) << "the cpu-parallel detail line was not drawn";
  const auto english = english_texts(clip);
  EXPECT_TRUE(english.empty()) << "English on the Korean screen:\n" << join(english);
}

// A launch the simulator refuses: a 32×32 block on the C1060 (512 threads a block at most), the
// tensor model on the GTX 580, regblock at 32×32; and a split the cluster model refuses. The chip's (or the
// cluster's) place says why, whole (the timeline once repeated it on one line, cut at the panel's
// edge), in the UI's language (it was the simulator's English).
TEST_F(GuiKorean, ARefusedLaunchSaysWhyOnceWholeAndInTheUisLanguage) {
  const struct {
    const char* args;
    const char* en;
    const char* ko;
  } cases[] = {
      {"--preset c1060 --block 32", "the launch cannot run on Tesla C1060: block of 1024 threads exceeds the maximum of 512 per block",
       "Tesla C1060에서 실행할 수 없음: 블록의 스레드 1024개가 블록당 최대 512개를 넘음"},
      {"--preset gtx580 --kernel tensor", "has no tensor cores; presets that have them:", "GTX 580에는 텐서 코어가 없음"},
      {"--preset a100-80gb --kernel regblock --block 32", "regblock needs a block side of 16",
       "regblock 모델은 블록 한 변이 16이어야 함"},
      {"--cluster --cluster-gpus 7", "data split: the batch (4096) must divide by the 7 GPUs",
       "데이터 병렬: 배치(4096)가 GPU 7개로 나누어떨어져야 함"},
  };
  for (const auto& c : cases) {
    for (const char* lang : {"en", "ko"}) {
      SCOPED_TRACE(std::string(c.args) + " " + lang);
      const auto r = run_window("refused_" + std::string(lang),
                                // Korean at 2x text: the longest lines a lecturer's screen gets.
                                std::string("--window 1280x720 --frames 6 --no-run --no-wait --print-state --lang ") + lang +
                                    (lang == std::string("ko") ? " --ui-scale 2 " : " ") + c.args,
                                {.home = out_dir + "/refused_home"});
      ASSERT_EQ(r.exit_code, 0) << r.output;
      const auto& clip = r.state["clipped_text"];
      EXPECT_EQ(clip["count"], 0) << clip["texts"].dump();
      const std::string want = lang == std::string("en") ? c.en : c.ko;
      int seen = 0;
      for (const auto& t : clip["drawn"]) seen += t["text"].get<std::string>().find(want) != std::string::npos;
      EXPECT_EQ(seen, 1) << "the reason \"" << want << "\" was drawn " << seen << " times";
      if (lang == std::string("ko")) {
        const auto english = english_texts(clip);
        EXPECT_TRUE(english.empty()) << "English on the Korean screen:\n" << join(english);
      }
    }
  }
}

// Korean asked for on a machine whose fonts have no Hangul: the window falls back to English and
// says why in the menu bar, beside the Language menu. The notice used to float over the top of the
// simulation panel, on top of its kernel picker.
TEST_F(GuiKorean, AMissingHangulFontIsSaidInTheMenuBarNotOverThePanels) {
  const std::string conf = out_dir + "/no_fonts.conf";
  {
    std::FILE* f = std::fopen(conf.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n", f);  // no font directory at all
    std::fclose(f);
  }
  // At 2x text the bar has no room for the whole sentence, which was cut at the window's edge.
  for (const auto& [scale, notice] : {std::pair{"1", "Korean font missing: install fonts-nanum"},
                                      std::pair{"2", "Korean font missing"}}) {
    const auto run = run_window("no_hangul_font",
                                std::string("--frames 3 --window 1280x720 --size 64 --no-run --lang ko --print-state "
                                            "--ui-scale ") + scale,
                                {.env = "FONTCONFIG_FILE=" + conf, .home = out_dir + "/no_hangul_home"});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    std::string notice_panel = "(not drawn)", menu_panel = "(not drawn)";
    for (const auto& t : run.state["clipped_text"]["drawn"]) {
      const std::string text = t["text"].get<std::string>();
      if (text == notice) notice_panel = t["panel"];
      if (text == "Lesson") menu_panel = t["panel"];  // the first menu, in English as the UI fell back
    }
    EXPECT_EQ(notice_panel, menu_panel) << "at " << scale << "x";
    EXPECT_EQ(run.state["clipped_text"]["count"], 0);
  }
}

// A Hangul font named by WARPSCOPE_HANGUL_FONT that is no font (or an empty file) is left out with
// a line saying so; ImGui asserted on it and the window aborted.
TEST_F(GuiKorean, AHangulFontFileThatIsNoFontIsLeftOutNotFatal) {
  const std::string garbage = out_dir + "/not_a_font.ttf", empty = out_dir + "/empty_font.ttf";
  {
    std::FILE* f = std::fopen(garbage.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    for (int i = 0; i < 4096; ++i) std::fputc((i * 7919 + 13) & 0xff, f);  // no font's header
    std::fclose(f);
    std::FILE* e = std::fopen(empty.c_str(), "wb");
    ASSERT_NE(e, nullptr);
    std::fclose(e);
  }
  for (const auto& [file, said] : {std::pair{garbage, "is not a font file it can read; left out"},
                                   std::pair{empty, "could not be read (empty, or no memory for it); left out"}}) {
    const auto run = run_window("not_a_font", "--frames 3 --window 1280x720 --size 64 --no-run --lang ko --print-state",
                                {.env = "WARPSCOPE_HANGUL_FONT=" + file, .home = out_dir + "/not_a_font_home"});
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find(file + " " + said), std::string::npos) << run.output;
    EXPECT_EQ(run.state["language"], "en");  // no Hangul to draw Korean with
    bool notice = false;
    for (const auto& t : run.state["clipped_text"]["drawn"])
      notice |= t["text"].get<std::string>() == "Korean font missing: install fonts-nanum";
    EXPECT_TRUE(notice);
  }
}
