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
        EXPECT_TRUE(k.starts_with("preset.") || k.starts_with("sim.") || k.starts_with("measured.") ||
                    k.starts_with("cluster."))
            << k;
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

// ---- Korean particles ------------------------------------------------------------------------

TEST(LessonParticles, HangulByItsFinalConsonant) {
    EXPECT_EQ(korean_final("사과"), Final::none);
    EXPECT_EQ(korean_final("GPU 없음"), Final::other);   // 음: ㅁ
    EXPECT_EQ(korean_final("웨이브 4번"), Final::other);  // 번: ㄴ
    EXPECT_EQ(korean_final("서울"), Final::rieul);        // 울: ㄹ
    EXPECT_EQ(particle_after("사과", Particle::topic), "는");
    EXPECT_EQ(particle_after("사과", Particle::subject), "가");
    EXPECT_EQ(particle_after("사과", Particle::object), "를");
    EXPECT_EQ(particle_after("사과", Particle::with), "와");
    EXPECT_EQ(particle_after("사과", Particle::toward), "로");
    EXPECT_EQ(particle_after("GPU 없음", Particle::topic), "은");
    EXPECT_EQ(particle_after("GPU 없음", Particle::subject), "이");
    EXPECT_EQ(particle_after("GPU 없음", Particle::object), "을");
    EXPECT_EQ(particle_after("GPU 없음", Particle::with), "과");
    EXPECT_EQ(particle_after("GPU 없음", Particle::toward), "으로");
    // ㄹ has a final consonant for 은/이/을/과, but takes 로, not 으로.
    EXPECT_EQ(particle_after("서울", Particle::topic), "은");
    EXPECT_EQ(particle_after("서울", Particle::with), "과");
    EXPECT_EQ(particle_after("서울", Particle::toward), "로");
}

TEST(LessonParticles, DigitsAsKoreanReadsThem) {
    EXPECT_EQ(particle_after("3", Particle::subject), "이");  // 삼
    EXPECT_EQ(particle_after("3", Particle::topic), "은");
    EXPECT_EQ(particle_after("2", Particle::subject), "가");  // 이
    EXPECT_EQ(particle_after("2", Particle::topic), "는");
    EXPECT_EQ(particle_after("1", Particle::toward), "로");   // 일: ㄹ
    EXPECT_EQ(particle_after("6", Particle::toward), "으로"); // 육
    EXPECT_EQ(particle_after("0", Particle::topic), "은");    // 영
    EXPECT_EQ(particle_after("9", Particle::object), "를");   // 구
    // Trailing zeros are read as a unit: 십, 백, 천, 만 have a final consonant; 조 has none.
    EXPECT_EQ(particle_after("10", Particle::topic), "은");
    EXPECT_EQ(particle_after("100", Particle::subject), "이");
    EXPECT_EQ(particle_after("1,000", Particle::with), "과");
    EXPECT_EQ(particle_after("20,000", Particle::object), "을");
    EXPECT_EQ(particle_after("2,000,000,000,000", Particle::topic), "는");  // 이조
    EXPECT_EQ(particle_after("16,896", Particle::topic), "은");  // ...구십육
    EXPECT_EQ(particle_after("132", Particle::subject), "가");   // 백삼십이
    // After a decimal point, digit by digit: 1.98 ends on 팔 (ㄹ), 0.05 on 오.
    EXPECT_EQ(particle_after("1.98", Particle::toward), "로");
    EXPECT_EQ(particle_after("1.98", Particle::topic), "은");
    EXPECT_EQ(particle_after("0.05", Particle::topic), "는");
    EXPECT_EQ(particle_after("2.0", Particle::topic), "은");  // 영
}

TEST(LessonParticles, LatinLettersByTheirKoreanNames) {
    EXPECT_EQ(particle_after("FP16", Particle::topic), "은");    // 육
    EXPECT_EQ(particle_after("BF16", Particle::object), "을");
    EXPECT_EQ(particle_after("SXM", Particle::topic), "은");     // 엠
    EXPECT_EQ(particle_after("GPU", Particle::topic), "는");     // 유
    EXPECT_EQ(particle_after("CPU", Particle::subject), "가");
    EXPECT_EQ(particle_after("HBM", Particle::with), "과");      // 엠
    EXPECT_EQ(particle_after("DRAM", Particle::toward), "으로"); // 엠
    EXPECT_EQ(particle_after("URL", Particle::toward), "로");    // 엘: ㄹ
    EXPECT_EQ(particle_after("R", Particle::topic), "은");       // 알
    EXPECT_EQ(particle_after("PCIe", Particle::topic), "는");    // 이
    EXPECT_EQ(particle_after("H200", Particle::topic), "은");    // 에이치이백
    EXPECT_EQ(particle_after("A100", Particle::subject), "이");  // 에이백
    // The presets' short names, as sentences use them.
    EXPECT_EQ(particle_after("GTX 580", Particle::topic), "은");        // 오백팔십
    EXPECT_EQ(particle_after("B200", Particle::topic), "은");           // 비이백
    EXPECT_EQ(particle_after("H100", Particle::subject), "이");         // 에이치백
    EXPECT_EQ(particle_after("AMD EPYC 9754", Particle::topic), "는");  // 구천칠백오십사
    EXPECT_EQ(particle_after("RTX 4090", Particle::with), "과");        // 사천구십
    // A borrowed word ending in -er/-or has no final consonant; an acronym's R still does.
    EXPECT_EQ(particle_after("AMD EPYC 7B13 64-Core Processor", Particle::topic), "는");  // 프로세서
    EXPECT_EQ(particle_after("Hopper", Particle::subject), "가");                         // 호퍼
    EXPECT_EQ(particle_after("DDR", Particle::topic), "은");                              // 디디알
}

TEST(LessonParticles, BracketsUnitsAndSymbolsReadTheLastSpokenSyllable) {
    EXPECT_EQ(particle_after("H200 (SXM, 141 GB)", Particle::topic), "는");   // 비
    EXPECT_EQ(particle_after("A100 (SXM4, 80 GB)", Particle::topic), "는");
    EXPECT_EQ(particle_after("GeForce GTX 580 (the AlexNet GPU)", Particle::subject), "가");
    EXPECT_EQ(particle_after("NVIDIA H200 (measured on gpu-server, 2026-11-30)", Particle::with), "과");  // 삼십
    EXPECT_EQ(particle_after("75%", Particle::subject), "가");   // 퍼센트
    EXPECT_EQ(particle_after("4.00 ms", Particle::toward), "로"); // 에스
    EXPECT_EQ(particle_after("38×", Particle::topic), "는");     // 배
    EXPECT_EQ(particle_after("2048³", Particle::topic), "은");   // 세제곱
    EXPECT_EQ(particle_after("8.4 MB", Particle::object), "를");
    EXPECT_EQ(particle_after("\"웨이브\".", Particle::subject), "가");
    // What cannot be read gives both forms, never a wrong one.
    EXPECT_EQ(korean_final(""), std::nullopt);
    EXPECT_EQ(korean_final(kMissingValue), std::nullopt);
    EXPECT_EQ(particle_after(kMissingValue, Particle::topic), "은(는)");
    EXPECT_EQ(particle_after("東京", Particle::subject), "이(가)");
    EXPECT_EQ(particle_after("", Particle::object), "을(를)");
    EXPECT_EQ(particle_after("\xff", Particle::with), "과(와)");
    EXPECT_EQ(particle_after("  ", Particle::toward), "(으)로");
}

TEST(LessonParticles, EitherFormOrThePairNamesTheParticle) {
    for (const char* s : {"은", "는", "은/는", " 는 "}) EXPECT_EQ(parse_particle(s), Particle::topic) << s;
    for (const char* s : {"이", "가", "이/가"}) EXPECT_EQ(parse_particle(s), Particle::subject) << s;
    for (const char* s : {"을", "를", "을/를"}) EXPECT_EQ(parse_particle(s), Particle::object) << s;
    for (const char* s : {"와", "과", "와/과"}) EXPECT_EQ(parse_particle(s), Particle::with) << s;
    for (const char* s : {"로", "으로", "(으)로"}) EXPECT_EQ(parse_particle(s), Particle::toward) << s;
    for (const char* s : {"", "의", "에서", "은/가", "x", "은는"}) EXPECT_EQ(parse_particle(s), std::nullopt) << s;
}

TEST(LessonParticles, ExpandAttachesTheParticleToItsPlaceholder) {
    const auto lookup = lookup_from({{"gpu", "H200 (SXM, 141 GB)"}, {"none", "GPU 없음"}, {"waves", "웨이브 3번"},
                                     {"n", "3"}});
    EXPECT_EQ(expand_caption("**{gpu|은}** Hopper 세대", lookup), "**H200 (SXM, 141 GB)는** Hopper 세대");
    EXPECT_EQ(expand_caption("{none|와} CPU", lookup), "GPU 없음과 CPU");
    EXPECT_EQ(expand_caption("{waves|가} 필요", lookup), "웨이브 3번이 필요");
    EXPECT_EQ(expand_caption("{n|을/를}", lookup), "3을");
    EXPECT_EQ(expand_caption("{n|(으)로}", lookup), "3으로");
    // A missing value keeps its dash and gets both forms.
    EXPECT_EQ(expand_caption("{nope|는} 없음", lookup), std::string(kMissingValue) + "은(는) 없음");
    // The key is what is looked up and listed; the particle is not part of it.
    EXPECT_EQ(caption_placeholders("{gpu|은} {n}"), (std::vector<std::string>{"gpu", "n"}));
    const auto uses = caption_placeholder_uses("{gpu|은} {n} {x|의}");
    ASSERT_EQ(uses.size(), 3u);
    EXPECT_EQ(uses[0].key, "gpu");
    EXPECT_TRUE(uses[0].has_particle);
    EXPECT_EQ(uses[0].particle, "은");
    EXPECT_FALSE(uses[1].has_particle);
    EXPECT_EQ(uses[2].raw, "x|의");
    // {{ }} stay literal braces, with or without a bar inside.
    EXPECT_EQ(expand_caption("{{gpu|은}}", lookup), "{gpu|은}");
}
