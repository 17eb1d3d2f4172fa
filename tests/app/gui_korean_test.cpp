// The window in Korean, rendered headless: every text a panel draws (the clip check's `drawn`
// list in --print-state) is read for interface text left in English. Two tests of what is on
// screen, not of the sources: the free window with a lane and a core inspected, and every step
// of the Korean lesson as `lesson export` draws it.
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"
#include "../support/window_run.hpp"
#include "i18n.hpp"

namespace fs = std::filesystem;
using ws::lesson::Language;

namespace {

const std::string bin = WARPSCOPE_BIN;
const std::string out_dir = TEST_OUT_DIR;
const std::string lessons = WARPSCOPE_ASSETS_DIR_FOR_TESTS "/lessons";

bool have_display() { return std::getenv("DISPLAY") && *std::getenv("DISPLAY"); }

bool lower_word(const std::string& w) {
  if (w.size() < 2) return false;
  for (char c : w)
    if (c < 'a' || c > 'z') return false;
  return true;
}

// Two English words in a row ("not chosen", "measured on this machine"): a phrase, which the
// Korean UI never shows. Kernel names ("cpu-naive"), units ("GFLOP/s", "ms") and model names
// ("GTX 580", "AMD EPYC 9754") are single tokens or capitalised and pass.
std::string english_phrase(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    while (!word.empty() && std::string(",.;:!?)").find(word.back()) != std::string::npos) word.pop_back();
    words.push_back(word);
    word.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == '\n')
      flush();
    else
      word += c;
  }
  flush();
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (lower_word(words[i]) && lower_word(words[i + 1])) return words[i] + " " + words[i + 1];
  return {};
}

// The English UI strings that Korean says differently, as they would be drawn: the template's
// longest run between placeholders. Finding one on screen means a string that skipped tr().
std::vector<std::string> english_ui_fragments() {
  std::vector<std::string> out;
  for (std::string_view key : ws::lesson::ui_keys()) {
    const std::string en = ws::lesson::tr(key, Language::en);
    if (en == ws::lesson::tr(key, Language::ko)) continue;
    std::string longest, run;
    for (std::size_t i = 0; i <= en.size(); ++i) {
      if (i == en.size() || en[i] == '{') {
        if (run.size() > longest.size()) longest = run;
        run.clear();
        if (i < en.size()) i = en.find('}', i);
        if (i == std::string::npos) break;
      } else {
        run += en[i];
      }
    }
    // Only fragments with an English word and a space: "ok", "SM ", " %, DRAM " and the kernel
    // names ("naive", "tiled") also occur in Korean lines.
    bool has_word = false;
    for (std::size_t i = 0, run_len = 0; i < longest.size(); ++i) {
      run_len = (longest[i] >= 'a' && longest[i] <= 'z') ? run_len + 1 : 0;
      has_word |= run_len >= 3;
    }
    if (longest.size() >= 5 && has_word && longest.find(' ') != std::string::npos) out.push_back(longest);
  }
  return out;
}

// Texts that are not the interface's own words: messages of the CUDA and OpenGL drivers and of
// the OS, shown verbatim after their library's name so they can be searched for.
bool passed_through(const std::string& text) {
  return text.rfind("CUDA: ", 0) == 0 || text.rfind("OpenGL: ", 0) == 0;
}

// `fragment` in `text` as whole words: "block " is not in the kernel name "regblock ".
bool contains_words(const std::string& text, const std::string& fragment) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'; };
  for (auto at = text.find(fragment); at != std::string::npos; at = text.find(fragment, at + 1)) {
    const bool starts_word = at == 0 || !letter(fragment.front()) || !letter(text[at - 1]);
    const std::size_t end = at + fragment.size();
    const bool ends_word = end == text.size() || !letter(fragment.back()) || !letter(text[end]);
    if (starts_word && ends_word) return true;
  }
  return false;
}

// Every drawn text of one state line that reads as English, as "panel: text (why)".
std::vector<std::string> english_texts(const nlohmann::json& clip) {
  static const auto fragments = english_ui_fragments();
  std::vector<std::string> found;
  if (!clip.contains("drawn")) return {"(no `drawn` list in --print-state)"};
  for (const auto& d : clip["drawn"]) {
    const std::string panel = d["panel"], text = d["text"];
    if (passed_through(text)) continue;
    if (const auto phrase = english_phrase(text); !phrase.empty()) {
      found.push_back(panel + ": " + text + "  (phrase \"" + phrase + "\")");
      continue;
    }
    for (const auto& f : fragments)
      if (contains_words(text, f)) {
        found.push_back(panel + ": " + text + "  (the English of a UI string: \"" + f + "\")");
        break;
      }
  }
  return found;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

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
  // A lane and then a core in the inspector: each selection draws its own lines.
  for (const char* select : {"lane:0:0:0", "core:0"}) {
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

TEST_F(GuiKorean, EveryKoreanLessonStepDrawsNoEnglishText) {
  const std::string home = out_dir + "/korean_home_export";
  const fs::path dir = fs::path(out_dir) / "korean_ui_export";
  fs::remove_all(home);
  fs::remove_all(dir);
  fs::create_directories(home);
  const auto r = run_command("HOME=" + home + " XDG_CONFIG_HOME=" + home + "/.config " + bin + " lesson export " +
                             lessons + "/gpu-story.ko.toml --out " + dir.string() + " --print-state 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  int steps = 0;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    const auto step = nlohmann::json::parse(line, nullptr, false);
    if (step.is_discarded() || !step.contains("lesson_step") || !step.contains("clipped_text")) continue;
    ++steps;
    const auto english = english_texts(step["clipped_text"]);
    EXPECT_TRUE(english.empty()) << "step " << step["lesson_step"] << ", English on the Korean screen:\n"
                                 << join(english);
  }
  EXPECT_GE(steps, 12) << r.output;
}
