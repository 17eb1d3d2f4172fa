// UI strings: complete, never null, same arguments in both languages; and the Hangul font.
#include "i18n.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

using namespace ws::lesson;

namespace {

// Number of fmt arguments a pattern uses; positional {0} {1} count by their highest index.
int argument_count(std::string_view s) {
    int automatic = 0, highest = -1;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '{') continue;
        if (i + 1 < s.size() && s[i + 1] == '{') {
            ++i;
            continue;
        }
        const std::size_t close = s.find('}', i);
        if (close == std::string_view::npos) break;
        const std::string_view inside = s.substr(i + 1, close - i - 1);
        if (inside.empty())
            ++automatic;
        else
            highest = std::max(highest, std::stoi(std::string(inside)));
        i = close;
    }
    return std::max(automatic, highest + 1);
}

}  // namespace

TEST(I18n, EveryKeyHasBothLanguagesWithTheSameArguments) {
    const auto keys = ui_keys();
    EXPECT_GE(keys.size(), 50u);
    for (std::string_view key : keys) {
        const char* en = tr(key, Language::en);
        const char* ko = tr(key, Language::ko);
        ASSERT_NE(en, nullptr);
        ASSERT_NE(ko, nullptr);
        EXPECT_STRNE(en, "") << key;
        EXPECT_NE(std::string_view(en), key) << key;
        EXPECT_EQ(argument_count(en), argument_count(ko)) << key;
    }
}

// A count is worded for its number ("1 run", "2 runs"), never with an optional plural: the caller
// picks the key's _one form for 1.
TEST(I18n, CountsNeverTakeAnOptionalPlural) {
    for (std::string_view key : ui_keys()) {
        const std::string_view en = tr(key, Language::en);
        EXPECT_EQ(en.find("(s)"), std::string_view::npos) << key << ": " << en;
        EXPECT_EQ(en.find("(es)"), std::string_view::npos) << key << ": " << en;
    }
    EXPECT_EQ(trf("roofline.here_one", Language::en, 1).rfind("measured here: 1 run;", 0), 0u);
    EXPECT_EQ(trf("roofline.here_many", Language::en, 3).rfind("measured here: 3 runs;", 0), 0u);
    EXPECT_EQ(trf("roofline.elsewhere_one", Language::en, "H200", "host", "2026-11-30", 1),
              "measured on H200 (host, 2026-11-30): 1 run; minimum traffic");
    EXPECT_EQ(trf("control.real_folded_one_thread", Language::en, "64³", "cpu-parallel", 1, "none"),
              "Settings: 64³ ·\u00A0cpu-parallel, 1\u00A0thread ·\u00A0GPU:\u00A0none");
    EXPECT_EQ(trf("cluster.scaling_one", Language::ko, 1, "1.0", "100", "0"),
              "GPU 1개: 1.0배 빠름, 효율 100 %; 시간의 0 %가 집합 통신 (시뮬레이션)");
    EXPECT_EQ(trf("inspector.waiting_barrier_one", Language::en, 1), "waiting at __syncthreads for 1 cycle");
}

TEST(I18n, LabelsTheBriefAsksFor) {
    EXPECT_STREQ(tr("panel.real_run", Language::en), "Real run");
    EXPECT_STREQ(tr("panel.gpu", Language::en), "Simulated GPU");
    EXPECT_STREQ(tr("panel.gpu", Language::ko), "시뮬레이션 GPU");
    EXPECT_STREQ(tr("legend.waiting_memory", Language::en), "waiting on memory");
    EXPECT_STREQ(tr("control.theme_light", Language::en), "Light (high contrast)");
    EXPECT_STREQ(tr("label.failed_verification", Language::en), "FAILED verification");
    EXPECT_STREQ(tr("label.font_missing", Language::en), "Korean font missing: install fonts-nanum");
}

TEST(I18n, FormattingReordersArgumentsForKorean) {
    EXPECT_EQ(trf("label.gpu_faster", Language::en, "41.7", 16, "2048³"),
              "GPU is 41.7\xC3\x97 faster than 16 CPU threads at 2048³");
    EXPECT_EQ(trf("label.gpu_faster", Language::ko, "41.7", 16, "2048³"),
              "2048³에서 GPU가 CPU 스레드 16개보다 41.7배 빠릅니다");
    EXPECT_EQ(trf("lesson.step_of", Language::ko, 3, 17), "3 / 17 단계");
    EXPECT_EQ(trf("label.measured_on", Language::en, "this machine"), "measured on this machine");
  // The Settings menu's line where the window holds less text than asked: both scales, as computed.
  EXPECT_EQ(trf("control.ui_scale_limited", Language::en, 2.0f, 1.55f),
            "2.00x asked; this window holds 1.55x (larger windows get the full size)");
  EXPECT_EQ(trf("control.ui_scale_limited", Language::ko, 2.0f, 1.55f), "2.00배 요청; 이 창에는 1.55배까지 (창이 크면 요청대로)");
}

TEST(I18n, UnknownKeysFallBackAndNeverNull) {
    const char* a = tr("no.such.key", Language::ko);
    ASSERT_NE(a, nullptr);
    EXPECT_STREQ(a, "no.such.key");
    EXPECT_EQ(tr("no.such.key", Language::en), a);  // interned: stable pointer
    EXPECT_STREQ(tr("", Language::en), "");
    // Too few arguments: the template comes back instead of an exception.
    EXPECT_EQ(trf("label.gpu_faster", Language::en, 1), tr("label.gpu_faster", Language::en));
}

TEST(I18n, LanguageCodes) {
    EXPECT_EQ(language_from_code("ko"), Language::ko);
    EXPECT_EQ(language_from_code("en"), Language::en);
    EXPECT_FALSE(language_from_code("fr"));
    EXPECT_EQ(language_code(Language::ko), "ko");
    EXPECT_STREQ(language_name(Language::ko), "한국어");
}

TEST(HangulFont, FoundWhenInstalled) {
    const auto font = find_hangul_font();
    if (!font) GTEST_SKIP() << "no Hangul font installed (apt install fonts-nanum)";
    EXPECT_TRUE(std::filesystem::is_regular_file(*font)) << *font;
    EXPECT_TRUE(font->ends_with(".ttf") || font->ends_with(".otf") || font->ends_with(".ttc")) << *font;
}

TEST(HangulFont, EnvironmentOverrideWins) {
    const auto font = find_hangul_font();
    if (!font) GTEST_SKIP() << "no Hangul font installed";
    // Any existing file stands in for a lecturer's own font choice.
    const std::string chosen = std::filesystem::path(WARPSCOPE_LESSONS_DIR) / "gpu-story.en.toml";
    setenv("WARPSCOPE_HANGUL_FONT", chosen.c_str(), 1);
    EXPECT_EQ(find_hangul_font(), chosen);
    setenv("WARPSCOPE_HANGUL_FONT", "/nonexistent.ttf", 1);
    EXPECT_EQ(find_hangul_font(), font);
    unsetenv("WARPSCOPE_HANGUL_FONT");
}
