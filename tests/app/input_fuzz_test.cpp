// Robustness of the two other files the app reads: thousands of randomly broken settings files
// and bench JSON files never crash their parsers. Settings always come out usable (every field in
// range, a warning naming the file when something was dropped); a bench file gives either a run
// or one error line naming the file, never both. Fixed seeds, so a failure can be replayed.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <string_view>

#include <gtest/gtest.h>
#include "../support/mutate.hpp"

#include "core/measured_elsewhere.hpp"
#include "core/settings.hpp"

namespace {

using ws::app::Settings;

const std::string kSettings =
    "# warpscope settings, rewritten when the app closes.\n"
    "language = \"ko\"\nlast_lesson = \"/home/me/lessons/gpu-story.ko.toml\"\nlast_step = 7\n"
    "theme = \"light\"\nui_scale = 1.25\n";

const std::string kBench = R"({
  "warpscope_version": "0.1.0", "host": "gpu-server", "date": "2026-11-30T10:11:12Z",
  "cpu": {"name": "Server CPU", "cores": 64, "simd": "avx512"},
  "gpu": {"api": "cuda", "name": "Test GPU", "cc": "9.0", "sm_count": 132, "memory_bytes": 1},
  "results": [
    {"kernel": "cpu-parallel", "device": "cpu", "m": 256, "n": 256, "k": 256, "threads": 64, "repeats": 3,
     "ms_median": 0.5, "ms_min": 0.4, "gflops": 67.1, "transfer_ms": null, "verified": true,
     "max_rel_error": 1e-7, "checked_elements": 65536, "skipped": null, "detail": "", "api": null,
     "device_name": null, "software_renderer": false},
    {"kernel": "cuda-tiled", "device": "gpu", "m": 256, "n": 128, "k": 64, "threads": 0, "repeats": 3,
     "ms_median": 0.02, "ms_min": 0.02, "gflops": 1677.7, "transfer_ms": 0.1, "verified": true,
     "max_rel_error": 1e-7, "checked_elements": 65536, "skipped": null, "detail": "", "api": "cuda",
     "device_name": "Test GPU", "software_renderer": false},
    {"kernel": "gl-naive", "device": "gpu", "m": 256, "n": 256, "k": 256, "skipped": "no EGL display"}
  ]
})";

constexpr std::string_view kTomlTokens[] = {
    "[", "]", "[[", "]]", "=", "\"", "\"\"\"", "'", "{", "}", ",", "\n", "#", ".", "\\", "\\u", "-", "+", "inf",
    "nan", "-inf", "1e400", "99999999999999999999", "-2147483649", "0", "-1", "true", "1979-05-27T07:32:00Z",
    "[theme]\n", "\t", "\r", std::string_view("\0", 1), "\xff", "\xed\xa0\x80", "\"dark\"", "\"\"", "0.0", "1e-300",
    "ui_scale = ", "last_step = ", "theme = ", "language = ",
};

constexpr std::string_view kJsonTokens[] = {
    "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "null", "true", "false", "-", "0", "-1", "1e400",
    "-1e400", "1e300", "99999999999999999999", "18446744073709551616", "2147483648", "0.5", "\"gpu\"", "\"cpu\"",
    "\"\"", std::string_view("\0", 1), "\xff", "\xed\xa0\x80", "\n", "{}", "[]", "\"results\"", "\"skipped\": \"x\", ",
    "\"m\": ", "\"threads\": ", "\"ms_median\": ",
};

void check_settings(const Settings& s) {
  ASSERT_TRUE(s.theme == "dark" || s.theme == "light") << s.theme;
  ASSERT_TRUE(s.language.empty() || s.language == "en" || s.language == "ko") << s.language;
  ASSERT_TRUE(std::isfinite(s.ui_scale));
  ASSERT_GE(s.ui_scale, ws::app::kMinUiScale);
  ASSERT_LE(s.ui_scale, ws::app::kMaxUiScale);
  ASSERT_GE(s.last_step, 0);
  ASSERT_LE(s.last_step, ws::app::kMaxLastStep);
  if (!s.warning.empty()) {
    ASSERT_EQ(s.warning.rfind("fuzz.toml", 0), 0u) << s.warning;
  }
}

}  // namespace

TEST(SettingsFuzz, TheUnbrokenFileIsReadWhole) {
  const Settings s = ws::app::parse_settings(kSettings, "fuzz.toml");
  EXPECT_EQ(s.warning, "");
  EXPECT_EQ(s.theme, "light");
  EXPECT_EQ(s.language, "ko");
  EXPECT_FLOAT_EQ(s.ui_scale, 1.25f);
  EXPECT_EQ(s.last_lesson, "/home/me/lessons/gpu-story.ko.toml");
  EXPECT_EQ(s.last_step, 7);
}

TEST(SettingsFuzz, BrokenSettingsAlwaysGiveUsableSettings) {
  std::mt19937 rng(20250301u);
  int warned = 0, clean = 0;
  constexpr int kCases = 20000;
  for (int i = 0; i < kCases; ++i) {
    SCOPED_TRACE(i);
    const std::string text = ws::test_support::mutate(kSettings, rng, kTomlTokens);
    const Settings s = ws::app::parse_settings(text, "fuzz.toml");
    check_settings(s);
    if (HasFatalFailure()) return;
    ++(s.warning.empty() ? clean : warned);
  }
  // Both outcomes must be exercised, or the mutations are too weak or too strong.
  EXPECT_GT(warned, 0);
  EXPECT_GT(clean, 0);
}

TEST(SettingsFuzz, RandomBytesGiveTheDefaultsWithAWarning) {
  std::mt19937 rng(5u);
  for (int i = 0; i < 500; ++i) {
    std::string text(std::uniform_int_distribution<std::size_t>(1, 400)(rng), '\0');
    for (char& c : text) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    const Settings s = ws::app::parse_settings(text, "fuzz.toml");
    check_settings(s);
    if (HasFatalFailure()) return;
  }
}

TEST(MeasuredFuzz, TheUnbrokenFileLoads) {
  const auto load = ws::app::parse_measured_json(kBench, "fuzz.json");
  ASSERT_TRUE(load.run.has_value()) << load.error;
  EXPECT_EQ(load.run->results.size(), 2u);
  EXPECT_EQ(load.error, "");
}

TEST(MeasuredFuzz, BrokenBenchFilesGiveARunOrOneErrorLine) {
  std::mt19937 rng(777u);
  int accepted = 0;
  constexpr int kCases = 20000;
  for (int i = 0; i < kCases; ++i) {
    SCOPED_TRACE(i);
    const std::string text = ws::test_support::mutate(kBench, rng, kJsonTokens);
    const auto load = ws::app::parse_measured_json(text, "/some/dir/fuzz.json");
    if (load.run) {
      ++accepted;
      ASSERT_EQ(load.error, "") << "a run and an error";
      ASSERT_FALSE(load.run->results.empty());
      ASSERT_FALSE(load.run->host.empty());
      ASSERT_FALSE(load.run->date.empty());
      for (const auto& r : load.run->results) {
        ASSERT_FALSE(r.kernel.empty());
        ASSERT_GE(r.shape.m, 1);
        ASSERT_LE(r.shape.m, 16384);
        ASSERT_GE(r.shape.n, 1);
        ASSERT_GE(r.shape.k, 1);
        ASSERT_GE(r.ms_median, 0);
        ASSERT_GE(r.gflops, 0);
        ASSERT_FALSE(load.run->label(r, ws::lesson::Language::en).empty());
      }
    } else {
      ASSERT_EQ(load.error.rfind("fuzz.json: ", 0), 0u) << load.error;
      ASSERT_GT(load.error.size(), std::string("fuzz.json: ").size());
      ASSERT_EQ(load.error.find('\n'), std::string::npos) << "not one line: " << load.error;
    }
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, kCases);
}

TEST(MeasuredFuzz, RandomBytesAreOneErrorLine) {
  std::mt19937 rng(11u);
  for (int i = 0; i < 500; ++i) {
    std::string text(std::uniform_int_distribution<std::size_t>(0, 400)(rng), '\0');
    for (char& c : text) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    const auto load = ws::app::parse_measured_json(text, "fuzz.json");
    ASSERT_FALSE(load.run.has_value());
    ASSERT_EQ(load.error.rfind("fuzz.json: ", 0), 0u) << load.error;
    ASSERT_EQ(load.error.find('\n'), std::string::npos) << load.error;
  }
}
