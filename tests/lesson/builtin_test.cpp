// The built-in lessons: clean against the registry names, twins in English and Korean.
#include "lesson.hpp"
#include "test_vocab.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <set>

using namespace ws::lesson;

namespace {

Lesson load_clean(const std::string& name) {
    const ParseResult r = load_lesson_file(std::string(WARPSCOPE_LESSONS_DIR) + "/" + name, test::vocab());
    for (const auto& d : r.diagnostics) ADD_FAILURE() << format(d);
    EXPECT_TRUE(r.ok());
    return r.lesson.value_or(Lesson{});
}

// Any code point in U+AC00..U+D7A3, the Hangul syllables, encoded as EA B0 80 .. ED 9E A3.
bool has_hangul(std::string_view s) {
    for (std::size_t i = 0; i + 2 < s.size(); ++i) {
        const auto b0 = static_cast<unsigned char>(s[i]), b1 = static_cast<unsigned char>(s[i + 1]),
                   b2 = static_cast<unsigned char>(s[i + 2]);
        if ((b0 & 0xF0) != 0xE0 || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) continue;
        const unsigned cp = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
        if (cp >= 0xAC00 && cp <= 0xD7A3) return true;
    }
    return false;
}

// A step's state with its words removed, to compare the twins.
AppliedState state_only(const Step& s) {
    AppliedState st;
    Step copy = s;
    copy.title.reset();
    copy.caption.reset();
    copy.caption_no_gpu.reset();
    copy.line = 0;
    apply_step(copy, st);
    return st;
}

}  // namespace

TEST(BuiltinLessons, EnglishParsesCleanly) {
    const Lesson en = load_clean("gpu-story.en.toml");
    EXPECT_EQ(en.language, "en");
    EXPECT_GE(en.steps.size(), 12u);
    for (const Step& s : en.steps) {
        EXPECT_TRUE(s.title && !s.title->empty()) << "step at line " << s.line;
        EXPECT_TRUE(s.caption && !s.caption->empty()) << "step at line " << s.line;
    }
}

TEST(BuiltinLessons, KoreanParsesCleanlyWithHangulInEveryCaption) {
    const Lesson ko = load_clean("gpu-story.ko.toml");
    EXPECT_EQ(ko.language, "ko");
    EXPECT_GE(ko.steps.size(), 12u);
    EXPECT_TRUE(has_hangul(ko.title));
    for (const Step& s : ko.steps) {
        ASSERT_TRUE(s.caption) << "step at line " << s.line;
        EXPECT_TRUE(has_hangul(*s.caption)) << "step at line " << s.line;
        ASSERT_TRUE(s.title);
        EXPECT_TRUE(has_hangul(*s.title)) << *s.title;
    }
}

// A particle that changes with the value (은/는, 이/가, 을/를, 와/과, (으)로) written as plain text
// right after a placeholder is right for one value only ("BF16로" where it must be "BF16으로"):
// it belongs inside the placeholder, {key|로}, where the app picks the form.
TEST(BuiltinLessons, KoreanParticlesAfterValuesAreChosenByTheApp) {
    const Lesson ko = load_clean("gpu-story.ko.toml");
    const std::string_view particles[] = {"은", "는", "이", "가", "을", "를", "와", "과", "으로", "로"};
    for (const Step& s : ko.steps) {
        for (const std::optional<std::string>* text : {&s.caption, &s.caption_no_gpu}) {
            if (!*text) continue;
            const std::string& c = **text;
            for (std::size_t close = c.find('}'); close != std::string::npos; close = c.find('}', close + 1)) {
                std::string_view after = std::string_view(c).substr(close + 1);
                while (after.substr(0, 2) == "**") after.remove_prefix(2);
                for (std::string_view p : particles) {
                    if (after.substr(0, p.size()) != p) continue;
                    // 이 begins words too (이번, 이어서): only a 이 that ends the word is the particle.
                    const std::string_view next = after.substr(p.size(), 1);
                    if (p == "이" && !next.empty() && next != " " && next != "," && next != ".") continue;
                    ADD_FAILURE() << "step at line " << s.line << ": '" << p << "' written after a placeholder in: "
                                  << c.substr(c.rfind('{', close), close - c.rfind('{', close) + 1 + p.size())
                                  << " (write {key|" << p << "})";
                }
            }
        }
    }
}

TEST(BuiltinLessons, TwinsHaveTheSameStepsAndStates) {
    const Lesson en = load_clean("gpu-story.en.toml");
    const Lesson ko = load_clean("gpu-story.ko.toml");
    ASSERT_EQ(en.steps.size(), ko.steps.size());
    for (std::size_t i = 0; i < en.steps.size(); ++i) {
        EXPECT_EQ(state_only(en.steps[i]), state_only(ko.steps[i])) << "step " << i + 1;
        // The same numbers, quoted through the same placeholders.
        auto a = caption_placeholders(en.steps[i].caption.value_or(""));
        auto b = caption_placeholders(ko.steps[i].caption.value_or(""));
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        EXPECT_EQ(a, b) << "step " << i + 1;
    }
}

TEST(BuiltinLessons, CaptionsQuoteNumbersOnlyThroughPlaceholders) {
    // A bare number in prose would be one the app did not compute. Names with digits (C1060,
    // GPT-3, FP32) are fine, as are the highlighted cell (10, 20) and the warp width.
    const std::set<std::string> allowed = {"10", "20", "32"};
    for (const char* name : {"gpu-story.en.toml", "gpu-story.ko.toml"}) {
        const Lesson l = load_clean(name);
        for (const Step& s : l.steps) {
            const std::string text = expand_caption(s.caption.value_or(""), [](std::string_view) {
                return std::optional<std::string>("#");
            });
            std::string token;
            auto check = [&] {
                const bool has_digit = token.find_first_of("0123456789") != std::string::npos;
                const bool has_letter = std::any_of(token.begin(), token.end(),
                                                    [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
                if (has_digit && !has_letter) {
                    EXPECT_TRUE(allowed.count(token)) << name << " line " << s.line << ": " << token;
                }
                token.clear();
            };
            for (char c : text) {
                if (std::isalnum(static_cast<unsigned char>(c)) || c == '-')
                    token += c;
                else
                    check();
            }
            check();
        }
    }
}

TEST(BuiltinLessons, FirstStepPinsTheWholeState) {
    // So the lesson looks the same whatever the lecturer was doing before it started.
    const Lesson en = load_clean("gpu-story.en.toml");
    const Step& s = en.steps.at(0);
    EXPECT_TRUE(s.gpu_preset && s.cpu_preset && s.m && s.n && s.k && s.kernel && s.block_size && s.zoom &&
                s.highlight && s.panels && s.cycle && s.play && s.speed);
}

TEST(BuiltinLessons, EveryStepSaysWhatItsPictureMustShow) {
    // The render test (GuiLesson.EveryBuiltInStepRendersInBothLanguages) holds each picture to these.
    const Lesson en = load_clean("gpu-story.en.toml");
    const Lesson ko = load_clean("gpu-story.ko.toml");
    ASSERT_EQ(en.steps.size(), ko.steps.size());
    for (std::size_t i = 0; i < en.steps.size(); ++i) {
        ASSERT_TRUE(en.steps[i].expect.has_value()) << "step " << i + 1;
        EXPECT_FALSE(en.steps[i].expect->empty()) << "step " << i + 1;
        EXPECT_EQ(en.steps[i].expect, ko.steps[i].expect) << "step " << i + 1;
    }
    // The warp step opens where its 32 lanes issue, not on an empty chip.
    const auto warp_step = std::find_if(en.steps.begin(), en.steps.end(), [](const Step& s) {
        return s.zoom && s.zoom->kind == Zoom::Kind::warp;
    });
    ASSERT_NE(warp_step, en.steps.end());
    EXPECT_EQ(warp_step->cycle, (CycleStart{CycleStart::Kind::first_issue, 0}));
}
