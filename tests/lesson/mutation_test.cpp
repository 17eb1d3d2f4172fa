// Robustness: thousands of randomly broken lesson files never crash the parser, and a rejected
// file always says why. Deterministic (fixed seed) so a failure can be replayed.
#include "lesson.hpp"
#include "test_vocab.hpp"

#include <gtest/gtest.h>
#include "../support/mutate.hpp"

#include <algorithm>
#include <random>

using namespace ws::lesson;

namespace {

constexpr std::string_view kPunctuation[] = {
    "[", "]", "[[", "]]", "=", "\"", "\"\"\"", "'", "'''", "{", "}", ",", "\n", "#", ".", "\\", "\\u",
    "-", "+", "inf", "nan", "1e400", "99999999999999999999", "true", "[[step]]\n", "step = ", "{a", "}}",
    "**", "\t", "\r", std::string_view("\0", 1), "\xff", "\xed\xa0\x80", "\xea\xb0", "m = ", "zoom = \"lane:",
};

// Everything the GUI would do with a lesson that loaded, so those paths are exercised too.
void use(const Lesson& lesson) {
    const AppliedState initial;
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const AppliedState s = state_at(lesson, i, initial);
        const std::string text = expand_caption(s.caption, [](std::string_view key) -> std::optional<std::string> {
            if (key.size() % 2) return std::nullopt;
            return std::string(key);
        });
        (void)parse_caption_markup(text);
    }
}

void check(const std::string& text, const Vocabulary& vocab, std::size_t& accepted) {
    const ParseResult r = parse_lesson(text, "fuzz.toml", vocab);
    const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    for (const Diagnostic& d : r.diagnostics) {
        ASSERT_GE(d.line, 0);
        ASSERT_LE(d.line, lines + 1) << format(d);
        ASSERT_FALSE(d.message.empty());
        ASSERT_FALSE(format(d).empty());
    }
    if (r.ok()) {
        ++accepted;
        ASSERT_EQ(r.error_count(), 0u);
        use(*r.lesson);
    } else {
        ASSERT_GE(r.error_count(), 1u) << "rejected without saying why";
    }
}

}  // namespace

TEST(LessonMutation, ThousandsOfBrokenLessonsNeverCrash) {
    const Vocabulary vocab = test::vocab();
    const std::string sources[] = {test::read_lesson("gpu-story.en.toml"), test::read_lesson("gpu-story.ko.toml")};
    ASSERT_FALSE(sources[0].empty());
    ASSERT_FALSE(sources[1].empty());
    std::mt19937 rng(20240605u);
    std::size_t accepted = 0;
    constexpr int kCases = 5000;
    for (int i = 0; i < kCases; ++i) {
        const std::string text = ws::test_support::mutate(sources[i % 2], rng, kPunctuation);
        SCOPED_TRACE(i);
        check(text, vocab, accepted);
        if (HasFatalFailure()) return;
    }
    // Both outcomes must be exercised, or the mutations are too weak or too strong.
    EXPECT_GT(accepted, 0u);
    EXPECT_LT(accepted, static_cast<std::size_t>(kCases));
}

TEST(LessonMutation, RandomBytesNeverCrash) {
    const Vocabulary vocab = test::vocab();
    std::mt19937 rng(7u);
    std::size_t accepted = 0;
    for (int i = 0; i < 500; ++i) {
        std::string text(std::uniform_int_distribution<std::size_t>(0, 400)(rng), '\0');
        for (char& c : text) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
        check(text, vocab, accepted);
        if (HasFatalFailure()) return;
    }
    EXPECT_EQ(accepted, 0u);
}
