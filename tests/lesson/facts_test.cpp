// Historical figures in captions: each fact has both languages and a source, a caption quoting
// facts gets one "Source" line naming each source once, and lesson check knows the fact keys.
#include "facts.hpp"
#include "lesson.hpp"
#include "test_vocab.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace ws::lesson;

TEST(Facts, EveryFactHasBothLanguagesAndASource) {
    std::set<std::string_view> keys;
    ASSERT_FALSE(facts().empty());
    for (const Fact& f : facts()) {
        EXPECT_TRUE(keys.insert(f.key).second) << "duplicate fact " << f.key;
        EXPECT_FALSE(f.english.empty()) << f.key;
        EXPECT_FALSE(f.korean.empty()) << f.key;
        EXPECT_FALSE(f.source.empty()) << f.key;
        EXPECT_FALSE(f.source_ko.empty()) << f.key;
        // A value must never be what a caption shows for a missing one.
        EXPECT_NE(f.english, "\xE2\x80\x94") << f.key;
    }
}

TEST(Facts, LookedUpByTheirCaptionKey) {
    EXPECT_EQ(fact_value("fact.alexnet_top5_error", Language::en).value_or(""), "15.3 %");
    EXPECT_EQ(fact_value("fact.alexnet_top5_error", Language::ko).value_or(""), "15.3%");
    EXPECT_EQ(fact_value("fact.alexnet_training_days", Language::ko).value_or(""), "5~6일");
    EXPECT_FALSE(fact_value("fact.nope", Language::en));
    EXPECT_FALSE(fact_value("alexnet_top5_error", Language::en));  // the prefix is part of the key
    EXPECT_FALSE(fact_value("preset.gpu_name", Language::en));
    EXPECT_TRUE(is_known_caption_key("fact.gpt3_gpus"));
    EXPECT_FALSE(is_known_caption_key("fact.gpt5_gpus"));
    EXPECT_TRUE(is_tensor_caption_key("preset.tensor_cores"));
}

TEST(Facts, ACaptionQuotingFactsNamesEachSourceOnce) {
    const std::string caption = "Error {fact.alexnet_top5_error} vs {fact.alexnet_runner_up_error}; GPT-3 on {fact.gpt3_gpus}.\n";
    const Fact* alexnet = find_fact("fact.alexnet_top5_error");
    const Fact* gpt3 = find_fact("fact.gpt3_gpus");
    ASSERT_TRUE(alexnet && gpt3);
    EXPECT_EQ(fact_sources(caption, Language::en),
              "Sources: " + std::string(alexnet->source) + "; " + std::string(gpt3->source));
    // Korean lessons cite in Korean, one source: singular label.
    EXPECT_EQ(fact_sources("{fact.alexnet_parameters}", Language::ko),
              std::string(tr("caption.source", Language::ko)) + " " + std::string(alexnet->source_ko));
    // No fact quoted: no source line.
    EXPECT_EQ(fact_sources("{sim.cells} cells", Language::en), "");
}

TEST(Facts, LessonCheckKnowsFactKeys) {
    const auto ok = parse_lesson("title = \"T\"\n[[step]]\ncaption = \"{fact.alexnet_parameters}\"\n", "t.toml",
                                 test::vocab());
    EXPECT_TRUE(ok.ok());
    const auto bad = parse_lesson("title = \"T\"\n[[step]]\ncaption = \"{fact.alexnet_params}\"\n", "t.toml",
                                  test::vocab());
    EXPECT_FALSE(bad.ok());
}
