// The fold: a step changes only what it names, and any step can be re-entered exactly.
#include "lesson.hpp"
#include "test_vocab.hpp"

#include <gtest/gtest.h>

using namespace ws::lesson;

namespace {

Lesson three_steps() {
    const ParseResult r = parse_lesson(R"(title = "Fold"
[[step]]
title = "one"
caption = "first"
gpu_preset = "v100"
m = 64
highlight = ["sm:1"]
panels = ["gpu"]
cycle = 10
play = true
real_run = true

[[step]]
title = "two"
k = 32
zoom = "sm:2"

[[step]]
caption = "third"
gpu_preset = "b200"
highlight = []
speed = 5
)",
                                       "fold.toml", test::vocab());
    EXPECT_TRUE(r.ok());
    return *r.lesson;
}

}  // namespace

TEST(LessonState, DefaultsAreConcrete) {
    const AppliedState s;
    EXPECT_EQ(s.gpu_preset, "h100");
    EXPECT_EQ(s.m, 128);
    EXPECT_EQ(s.kernel, "naive");
    EXPECT_EQ(s.block_size, 16);
    EXPECT_EQ(s.zoom, Zoom{});
    EXPECT_FALSE(s.play);
    EXPECT_FALSE(s.real_run);
}

TEST(LessonState, LeftOutFieldsStayAsTheyWere) {
    const Lesson l = three_steps();
    AppliedState initial;
    initial.cpu_preset = "epyc-64";
    initial.n = 77;
    initial.speed = 42;

    const AppliedState s0 = state_at(l, 0, initial);
    EXPECT_EQ(s0.title, "one");
    EXPECT_EQ(s0.caption, "first");
    EXPECT_EQ(s0.gpu_preset, "v100");
    EXPECT_EQ(s0.cpu_preset, "epyc-64");  // never named: the app's own state
    EXPECT_EQ(s0.m, 64);
    EXPECT_EQ(s0.n, 77);
    EXPECT_EQ(s0.highlight.size(), 1u);
    EXPECT_EQ(s0.panels, std::vector<std::string>{"gpu"});
    EXPECT_EQ(s0.cycle.at, 10);
    EXPECT_TRUE(s0.play);
    EXPECT_EQ(s0.speed, 42);
    EXPECT_TRUE(s0.real_run);

    const AppliedState s1 = state_at(l, 1, initial);
    EXPECT_EQ(s1.title, "two");
    EXPECT_EQ(s1.caption, "");  // captions belong to their step
    EXPECT_EQ(s1.gpu_preset, "v100");
    EXPECT_EQ(s1.m, 64);
    EXPECT_EQ(s1.k, 32);
    EXPECT_EQ(s1.zoom, (Zoom{Zoom::Kind::sm, 2, 0, 0}));
    EXPECT_EQ(s1.highlight.size(), 1u);
    EXPECT_EQ(s1.cycle.at, 10);
    EXPECT_TRUE(s1.play);
    EXPECT_FALSE(s1.real_run);  // an action, not carried over

    const AppliedState s2 = state_at(l, 2, initial);
    EXPECT_EQ(s2.title, "");
    EXPECT_EQ(s2.caption, "third");
    EXPECT_EQ(s2.gpu_preset, "b200");
    EXPECT_TRUE(s2.highlight.empty());  // [] clears
    EXPECT_EQ(s2.speed, 5);
    EXPECT_EQ(s2.zoom, (Zoom{Zoom::Kind::sm, 2, 0, 0}));
}

TEST(LessonState, ComingBackRestoresExactly) {
    const Lesson l = three_steps();
    const AppliedState initial;
    const AppliedState first = state_at(l, 1, initial);
    (void)state_at(l, 2, initial);
    EXPECT_EQ(state_at(l, 1, initial), first);
    EXPECT_EQ(state_at(l, 0, initial), state_at(l, 0, initial));
}

TEST(LessonState, ApplyStepMatchesTheFold) {
    const Lesson l = three_steps();
    const AppliedState initial;
    AppliedState live = initial;
    for (std::size_t i = 0; i < l.steps.size(); ++i) {
        apply_step(l.steps[i], live);
        EXPECT_EQ(live, state_at(l, i, initial)) << "step " << i;
    }
}

TEST(LessonState, PastTheEndIsClampedAndEmptyLessonKeepsInitial) {
    const Lesson l = three_steps();
    const AppliedState initial;
    EXPECT_EQ(state_at(l, 99, initial), state_at(l, 2, initial));
    AppliedState with_run = initial;
    with_run.real_run = true;
    EXPECT_EQ(state_at(Lesson{}, 0, with_run), initial);
}
