// The `cluster` step field (issue 15 item 6): what it sets, that left-out fields carry over, and
// each kind of mistake reported where it is.
#include "lesson.hpp"
#include "test_vocab.hpp"

#include <gtest/gtest.h>

using namespace ws::lesson;

namespace {

Vocabulary cluster_vocab() {
    Vocabulary v = test::vocab();
    v.cluster_strategies = {"data", "tensor", "pipeline", "hybrid"};
    return v;
}

ParseResult parse(std::string_view text) { return parse_lesson(text, "t.toml", cluster_vocab()); }

std::string first_message(const ParseResult& r) { return r.diagnostics.empty() ? "" : r.diagnostics.front().message; }

}  // namespace

TEST(LessonCluster, SetsTheSplitAndCarriesWhatALaterStepLeavesOut) {
    const ParseResult r = parse(R"(
title = "C"
[[step]]
panels = ["cluster", "caption"]
cluster = { strategy = "pipeline", gpus = 16, nodes = 2, micro_batches = 32, size = 2048 }
[[step]]
cluster = { gpus = 4, curve = true }
[[step]]
title = "no cluster field"
)");
    ASSERT_TRUE(r.ok()) << first_message(r);
    const Lesson& l = *r.lesson;
    const AppliedState first = state_at(l, 0, AppliedState{});
    EXPECT_EQ(first.cluster, (ClusterSetting{"pipeline", 16, 2, 32, 2048, false}));
    EXPECT_EQ(first.panels, (std::vector<std::string>{"cluster", "caption"}));
    EXPECT_EQ(state_at(l, 1, AppliedState{}).cluster, (ClusterSetting{"pipeline", 4, 2, 32, 2048, true}));
    EXPECT_EQ(state_at(l, 2, AppliedState{}).cluster, state_at(l, 1, AppliedState{}).cluster);
    EXPECT_EQ(AppliedState{}.cluster, (ClusterSetting{"data", 8, 0, 8, 4096, false}));
}

TEST(LessonCluster, MistakesAreErrorsThatSayWhat) {
    struct Case {
        const char* line;
        const char* says;
    };
    for (const Case& c : {Case{"cluster = { strategy = \"zero\" }", "valid names: data, tensor, pipeline, hybrid"},
                          Case{"cluster = { gpus = 65 }", "outside the range 1..64"},
                          Case{"cluster = { gpus = 0 }", "outside the range 1..64"},
                          Case{"cluster = { nodes = 9 }", "outside the range 0..8"},
                          Case{"cluster = { size = 10 }", "outside the range 64..32768"},
                          Case{"cluster = { gpu = 8 }", "unknown key 'gpu' in cluster"},
                          Case{"cluster = { curve = 1 }", "'cluster.curve' must be true or false"},
                          Case{"cluster = \"data\"", "'cluster' must be a table"}}) {
        SCOPED_TRACE(c.line);
        const ParseResult r = parse(std::string("title = \"T\"\n[[step]]\n") + c.line + "\n");
        EXPECT_FALSE(r.ok());
        ASSERT_FALSE(r.diagnostics.empty());
        EXPECT_EQ(r.diagnostics.front().line, 3);
        EXPECT_NE(first_message(r).find(c.says), std::string::npos) << first_message(r);
    }
}

TEST(LessonCluster, ClusterIsAPanelAndItsCaptionKeysAreKnown) {
    EXPECT_TRUE(parse("title = \"T\"\n[[step]]\npanels = [\"cluster\"]\n").ok());
    for (const char* key : {"cluster.gpus", "cluster.speedup", "cluster.efficiency_pct", "cluster.allreduce_pct",
                            "cluster.bubble_pct", "cluster.bubble_formula_pct", "cluster.curve", "cluster.link",
                            "cluster.network"})
        EXPECT_TRUE(is_known_caption_key(key)) << key;
    EXPECT_FALSE(is_known_caption_key("cluster.speedup_x"));
}
