// Captions: placeholders never invent a number, and the markup-lite layout.
#include "lesson.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace ws::lesson;
using Kind = CaptionBlock::Kind;

namespace {

auto lookup_from(std::map<std::string, std::string> values) {
    return [values = std::move(values)](std::string_view key) -> std::optional<std::string> {
        const auto it = values.find(std::string(key));
        if (it == values.end()) return std::nullopt;
        return it->second;
    };
}

}  // namespace

TEST(LessonCaption, ExpandsKnownValues) {
    const auto lookup = lookup_from({{"measured.ratio", "42.0"}, {"measured.cpu_name", "Xeon"}});
    EXPECT_EQ(expand_caption("GPU is {measured.ratio}x faster than {measured.cpu_name}.", lookup),
              "GPU is 42.0x faster than Xeon.");
}

TEST(LessonCaption, MissingOrEmptyValuesShowADash) {
    const auto lookup = lookup_from({{"sim.cycles", ""}});
    EXPECT_EQ(expand_caption("{sim.cycles} cycles, {measured.ratio}x, {nonsense}", lookup),
              "\xE2\x80\x94 cycles, \xE2\x80\x94x, \xE2\x80\x94");
    EXPECT_EQ(expand_caption("{a}", nullptr), std::string(kMissingValue));
}

TEST(LessonCaption, BracesCanBeEscapedAndLoneBracesStay) {
    const auto lookup = lookup_from({{"x", "1"}});
    EXPECT_EQ(expand_caption("{{x}} = {x}", lookup), "{x} = 1");
    EXPECT_EQ(expand_caption("open { brace", lookup), "open { brace");
    EXPECT_EQ(expand_caption("close } brace", lookup), "close } brace");
    EXPECT_EQ(expand_caption("{unterminated\n{x}", lookup), "{unterminated\n1");
    EXPECT_EQ(expand_caption("{", lookup), "{");
    EXPECT_EQ(expand_caption("", lookup), "");
}

TEST(LessonCaption, ListsPlaceholders) {
    EXPECT_EQ(caption_placeholders("{a} and {b.c} {{not}} {a}"), (std::vector<std::string>{"a", "b.c", "a"}));
}

TEST(LessonCaption, KnownKeys) {
    EXPECT_TRUE(is_known_caption_key("measured.ratio"));
    EXPECT_TRUE(is_known_caption_key("sim.cpu_progress_pct"));
    EXPECT_TRUE(is_known_caption_key("preset.fp32_tflops"));
    EXPECT_FALSE(is_known_caption_key("measured"));
    EXPECT_FALSE(is_known_caption_key(""));
    for (std::string_view k : known_caption_keys()) {
        EXPECT_EQ(k.find_first_of("{} "), std::string_view::npos) << k;
        EXPECT_TRUE(k.starts_with("preset.") || k.starts_with("sim.") || k.starts_with("measured.")) << k;
    }
}

TEST(LessonMarkup, ParagraphsListsAndBold) {
    const auto blocks = parse_caption_markup(
        "First line\nstill first **bold** end.\n\n- item **one**\n- item two\n  continues\n\nLast");
    ASSERT_EQ(blocks.size(), 4u);
    EXPECT_EQ(blocks[0].kind, Kind::paragraph);
    EXPECT_EQ(blocks[0].spans, (std::vector<CaptionSpan>{{"First line still first ", false}, {"bold", true}, {" end.", false}}));
    EXPECT_EQ(blocks[1].kind, Kind::list_item);
    EXPECT_EQ(blocks[1].spans, (std::vector<CaptionSpan>{{"item ", false}, {"one", true}}));
    EXPECT_EQ(blocks[2].kind, Kind::list_item);
    EXPECT_EQ(blocks[2].spans, (std::vector<CaptionSpan>{{"item two continues", false}}));
    EXPECT_EQ(blocks[3].kind, Kind::paragraph);
    EXPECT_EQ(blocks[3].spans, (std::vector<CaptionSpan>{{"Last", false}}));
}

TEST(LessonMarkup, UnmatchedBoldStaysLiteralWithinItsBlock) {
    const auto blocks = parse_caption_markup("a **b\n\n**c** d");
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].spans, (std::vector<CaptionSpan>{{"a **b", false}}));
    EXPECT_EQ(blocks[1].spans, (std::vector<CaptionSpan>{{"c", true}, {" d", false}}));
}

TEST(LessonMarkup, EdgeCases) {
    EXPECT_TRUE(parse_caption_markup("").empty());
    EXPECT_TRUE(parse_caption_markup("\n\n  \n").empty());
    EXPECT_EQ(parse_caption_markup("\r\nWindows\r\n\r\nlines\r\n").size(), 2u);
    const auto dash = parse_caption_markup("-not a list\n-");
    ASSERT_EQ(dash.size(), 1u);
    EXPECT_EQ(dash[0].kind, Kind::paragraph);
    const auto empty_bold = parse_caption_markup("****x");
    ASSERT_EQ(empty_bold.size(), 1u);
    EXPECT_EQ(empty_bold[0].spans, (std::vector<CaptionSpan>{{"x", false}}));
}

TEST(LessonMarkup, ExpandThenLayout) {
    const auto lookup = [](std::string_view) -> std::optional<std::string> { return "12.5"; };
    const auto blocks = parse_caption_markup(expand_caption("- GPU: **{measured.gpu_gflops}** GFLOP/s", lookup));
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].kind, Kind::list_item);
    EXPECT_EQ(blocks[0].spans, (std::vector<CaptionSpan>{{"GPU: ", false}, {"12.5", true}, {" GFLOP/s", false}}));
}
