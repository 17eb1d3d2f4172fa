// Parser: every field, the defaults, and each kind of error at its exact line and column.
#include "lesson.hpp"
#include "test_vocab.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ws::lesson;
using Sev = Diagnostic::Severity;

namespace {

ParseResult parse(std::string_view text) { return parse_lesson(text, "t.toml", test::vocab()); }

std::string dump(const ParseResult& r) {
    std::string s;
    for (const auto& d : r.diagnostics) s += format(d) + "\n";
    return s;
}

// The single diagnostic a snippet should produce.
Diagnostic only(const ParseResult& r) {
    EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
    return r.diagnostics.empty() ? Diagnostic{} : r.diagnostics.front();
}

// A valid lesson whose third line is `line3`: errors in it are reported on line 3.
std::string with_step_line(std::string_view line3) {
    return "title = \"T\"\n[[step]]\n" + std::string(line3) + "\n";
}

void expect_error_at(std::string_view line3, int column, std::string_view message_part) {
    SCOPED_TRACE(std::string(line3));
    const ParseResult r = parse(with_step_line(line3));
    EXPECT_FALSE(r.ok());
    const Diagnostic d = only(r);
    EXPECT_EQ(d.severity, Sev::error);
    EXPECT_EQ(d.file, "t.toml");
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.column, column);
    EXPECT_NE(d.message.find(message_part), std::string::npos) << d.message;
}

}  // namespace

TEST(LessonParser, EveryField) {
    const ParseResult r = parse(R"(
title = "All fields"
language = "ko"
description = "Every key once."

[[step]]
title = "Step one"
caption = "Hello **{preset.gpu_name}**"
gpu_preset = "b200"
cpu_preset = "epyc-96"
m = 100
n = 200
k = 300
kernel = "tiled"
block_size = 32
cpu_kernel = "cpu-blas"
gpu_kernel = "cublas"
real_m = 4096
real_n = 2048
real_k = 1024
threads = 12
zoom = "lane:3:5:12"
highlight = ["sm:3", "warp:3:5", "lane:3:5:31", "core:0", "cell:10:20"]
panels = ["gpu", "cpu", "matrix", "timeline", "inspector", "timers", "caption"]
cycle = 123456789012
play = true
speed = 2.5
real_run = true
)");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_TRUE(r.diagnostics.empty()) << dump(r);
    const Lesson& l = *r.lesson;
    EXPECT_EQ(l.title, "All fields");
    EXPECT_EQ(l.language, "ko");
    EXPECT_EQ(l.description, "Every key once.");
    ASSERT_EQ(l.steps.size(), 1u);
    const Step& s = l.steps[0];
    EXPECT_EQ(s.line, 6);
    EXPECT_EQ(s.title, "Step one");
    EXPECT_EQ(s.caption, "Hello **{preset.gpu_name}**");
    EXPECT_EQ(s.gpu_preset, "b200");
    EXPECT_EQ(s.cpu_preset, "epyc-96");
    EXPECT_EQ(s.m, 100);
    EXPECT_EQ(s.n, 200);
    EXPECT_EQ(s.k, 300);
    EXPECT_EQ(s.kernel, "tiled");
    EXPECT_EQ(s.block_size, 32);
    EXPECT_EQ(s.cpu_kernel, "cpu-blas");
    EXPECT_EQ(s.gpu_kernel, "cublas");
    EXPECT_EQ(s.real_m, 4096);
    EXPECT_EQ(s.real_n, 2048);
    EXPECT_EQ(s.real_k, 1024);
    EXPECT_EQ(s.threads, 12);
    EXPECT_EQ(s.zoom, (Zoom{Zoom::Kind::lane, 3, 5, 12}));
    const std::vector<Highlight> hl = {{Highlight::Kind::sm, 3, 0, 0},   {Highlight::Kind::warp, 3, 5, 0},
                                       {Highlight::Kind::lane, 3, 5, 31}, {Highlight::Kind::core, 0, 0, 0},
                                       {Highlight::Kind::cell, 10, 20, 0}};
    EXPECT_EQ(s.highlight, hl);
    EXPECT_EQ(s.panels, (std::vector<std::string>{"gpu", "cpu", "matrix", "timeline", "inspector", "timers", "caption"}));
    EXPECT_EQ(s.cycle, (ws::lesson::CycleStart{ws::lesson::CycleStart::Kind::at, 123456789012}));
    EXPECT_EQ(s.play, true);
    EXPECT_EQ(s.speed, 2.5);
    EXPECT_EQ(s.real_run, true);
}

TEST(LessonParser, ZoomForms) {
    const ParseResult r = parse(R"(title = "Z"
[[step]]
zoom = "chip"
[[step]]
zoom = "sm:7"
[[step]]
zoom = "warp:1:2"
)");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.lesson->steps[0].zoom, Zoom{});
    EXPECT_EQ(r.lesson->steps[1].zoom, (Zoom{Zoom::Kind::sm, 7, 0, 0}));
    EXPECT_EQ(r.lesson->steps[2].zoom, (Zoom{Zoom::Kind::warp, 1, 2, 0}));
    EXPECT_EQ(to_string(*r.lesson->steps[2].zoom), "warp:1:2");
    EXPECT_EQ(to_string(Highlight{Highlight::Kind::cell, 4, 9, 0}), "cell:4:9");
}

TEST(LessonParser, DefaultsWhenLeftOut) {
    const ParseResult r = parse("title = \"Minimal\"\n[[step]]\n");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_TRUE(r.diagnostics.empty());
    EXPECT_EQ(r.lesson->language, "en");
    EXPECT_EQ(r.lesson->description, "");
    const Step& s = r.lesson->steps.at(0);
    EXPECT_FALSE(s.title || s.caption || s.gpu_preset || s.cpu_preset || s.m || s.n || s.k || s.kernel ||
                 s.block_size || s.cpu_kernel || s.gpu_kernel || s.real_m || s.real_n || s.real_k || s.threads ||
                 s.zoom || s.highlight || s.panels || s.cycle || s.play || s.speed || s.real_run);
}

TEST(LessonParser, EmptyListsAreKeptAsEmpty) {
    const ParseResult r = parse("title = \"E\"\n[[step]]\nhighlight = []\npanels = []\n");
    ASSERT_TRUE(r.ok()) << dump(r);
    ASSERT_TRUE(r.lesson->steps[0].highlight);
    EXPECT_TRUE(r.lesson->steps[0].highlight->empty());
    ASSERT_TRUE(r.lesson->steps[0].panels);
    EXPECT_TRUE(r.lesson->steps[0].panels->empty());
}

TEST(LessonParser, SpeedAcceptsIntegers) {
    const ParseResult r = parse(with_step_line("speed = 200"));
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.lesson->steps[0].speed, 200.0);
}

TEST(LessonParser, EmptyVocabularyAcceptsAnyName) {
    const ParseResult r = parse_lesson(with_step_line("gpu_preset = \"anything\""), "t.toml", Vocabulary{});
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.lesson->steps[0].gpu_preset, "anything");
}

TEST(LessonErrors, TomlSyntaxError) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\nm = = 3\n");
    EXPECT_FALSE(r.ok());
    const Diagnostic d = only(r);
    EXPECT_EQ(d.severity, Sev::error);
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.column, 5);
    EXPECT_FALSE(d.message.empty());
}

TEST(LessonErrors, UnterminatedString) {
    const ParseResult r = parse("title = \"T\nstep = 1\n");
    EXPECT_FALSE(r.ok());
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, 1);
}

TEST(LessonErrors, DuplicateKey) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\nm = 3\nm = 4\n");
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(only(r).line, 4);
}

TEST(LessonErrors, WrongType) {
    expect_error_at("m = \"64\"", 5, "'m' must be an integer, not a string");
    expect_error_at("play = 1", 8, "'play' must be true or false, not an integer");
    expect_error_at("caption = 3", 11, "'caption' must be a string");
    expect_error_at("speed = \"fast\"", 9, "'speed' must be a number");
    expect_error_at("m = 64.0", 5, "'m' must be an integer, not a floating-point number");
    expect_error_at("highlight = \"sm:3\"", 13, "'highlight' must be an array");
    expect_error_at("highlight = [\"sm:1\", 3]", 22, "'highlight item' must be a string");
    expect_error_at("panels = \"gpu\"", 10, "'panels' must be an array");
}

TEST(LessonErrors, UnknownNamesListTheValidOnes) {
    expect_error_at("gpu_preset = \"h1000\"", 14,
                    "unknown GPU preset 'h1000'; valid names: h100, h200, b200, a100-80gb, v100, gtx580, c1060, p100, "
                    "k80, rtx4090, c2050, this-machine");
    expect_error_at("cpu_preset = \"pentium\"", 14,
                    "unknown CPU preset 'pentium'; valid names: i7-3960x, laptop-2025, epyc-64, epyc-96, epyc-128, "
                    "this-machine");
    expect_error_at("kernel = \"fast\"", 10, "unknown simulated kernel 'fast'; valid names: naive, tiled");
    expect_error_at("gpu_kernel = \"magic\"", 14,
                    "unknown kernel 'magic'; valid names: cpu-naive, cpu-parallel, cpu-blas, cuda-naive, cuda-tiled, cublas");
    expect_error_at("panels = [\"gpu\", \"bogus\"]", 18, "unknown panel 'bogus'; valid names: gpu, cpu, matrix");
    expect_error_at("zoom = \"die\"", 8, "unknown zoom 'die'; valid forms: chip, sm:S, warp:S:W, lane:S:W:L");
    expect_error_at("highlight = [\"tile:1\"]", 14, "unknown highlight 'tile:1'; valid forms:");
}

TEST(LessonErrors, OutOfRangeNamesTheRange) {
    expect_error_at("m = 0", 5, "'m' is 0, outside the range 1..16384");
    expect_error_at("k = 16385", 5, "'k' is 16385, outside the range 1..16384");
    expect_error_at("real_n = 100000", 10, "'real_n' is 100000, outside the range 1..16384");
    expect_error_at("block_size = 64", 14, "'block_size' is 64, outside the range 1..32");
    expect_error_at("threads = 0", 11, "'threads' is 0, outside the range 1..1024");
    expect_error_at("cycle = -1", 9, "'cycle' is -1, must be 0 or more");
    expect_error_at("speed = 0.01", 9, "outside the range 0.1..10000000 cycles per second");
    expect_error_at("speed = nan", 9, "outside the range 0.1..10000000");
    expect_error_at("zoom = \"lane:0:0:32\"", 8, "lane 32 is outside the range 0..31");
    expect_error_at("highlight = [\"sm:70000\"]", 14, "index 70000 is outside the range 0..65535");
}

TEST(LessonErrors, MalformedSpecs) {
    expect_error_at("zoom = \"warp:3\"", 8, "'warp:3' is not warp:S:W");
    expect_error_at("zoom = \"sm:x\"", 8, "'sm:x': 'x' is not an index");
    expect_error_at("highlight = [\"cell:1:-2\"]", 14, "'-2' is not an index");
    expect_error_at("zoom = \"chip:1\"", 8, "unknown zoom 'chip:1'");
}

TEST(LessonCycle, FirstIssueAndMidRunAreReadFromTheSimulationLater) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\ncycle = \"first-issue\"\n[[step]]\ncycle = \"mid-run\"\n");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(r.lesson->steps[0].cycle->kind, CycleStart::Kind::first_issue);
    EXPECT_EQ(r.lesson->steps[1].cycle->kind, CycleStart::Kind::mid_run);
    EXPECT_EQ(to_string(*r.lesson->steps[1].cycle), "mid-run");
    expect_error_at("cycle = \"later\"", 9, "unknown cycle 'later'; a cycle is a number, \"first-issue\" or \"mid-run\"");
    expect_error_at("cycle = true", 9, "'cycle' must be a number, \"first-issue\" or \"mid-run\"");
}

TEST(LessonExpect, ParsesNameOperatorValueAndPercentages) {
    const ParseResult r =
        parse("title = \"T\"\n[[step]]\nexpect = [\"lanes_issuing>=32\", \" lanes_waiting_memory > 50% \", \"drawn_timers == 1\"]\n");
    ASSERT_TRUE(r.ok()) << dump(r);
    const auto& e = *r.lesson->steps[0].expect;
    ASSERT_EQ(e.size(), 3u);
    EXPECT_EQ(e[0].name, "lanes_issuing");
    EXPECT_EQ(e[0].op, Expectation::Op::ge);
    EXPECT_EQ(e[0].value, 32);
    EXPECT_FALSE(e[0].percent);
    EXPECT_EQ(e[1].name, "lanes_waiting_memory");
    EXPECT_EQ(e[1].op, Expectation::Op::gt);
    EXPECT_TRUE(e[1].percent);
    EXPECT_EQ(e[2].op, Expectation::Op::eq);
    // 50 % of 100 active lanes: 51 meets "> 50%", 50 does not.
    EXPECT_TRUE(expectation_met(e[1], 51, 100));
    EXPECT_FALSE(expectation_met(e[1], 50, 100));
    EXPECT_TRUE(expectation_met(e[0], 32, 0));
    EXPECT_FALSE(expectation_met(e[0], 31, 0));
}

TEST(LessonExpect, ExpectationsBelongToTheirStepOnly) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\nexpect = [\"cycle > 0\"]\n[[step]]\ntitle = \"next\"\n");
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_EQ(state_at(*r.lesson, 0, {}).expect.size(), 1u);
    EXPECT_TRUE(state_at(*r.lesson, 1, {}).expect.empty());
}

TEST(LessonExpect, ErrorsPointAtTheWordInsideTheString) {
    // Column 11 is the opening quote: the name starts at 12, the operator and value after it.
    expect_error_at("expect = [\"lanes_busy > 3\"]", 12, "unknown expectation name 'lanes_busy'; valid names: lanes,");
    expect_error_at("expect = [\"cycle = 3\"]", 18, "expected one of >= <= > < == != after the name");
    expect_error_at("expect = [\"cycle > x\"]", 20, "expected a number (0 or more) after the operator");
    expect_error_at("expect = [\"cycle > 5%\"]", 21, "a percentage only applies to lanes_* names");
    expect_error_at("expect = [\"cycle > 5 apples\"]", 22, "unexpected 'apples' after the value");
    expect_error_at("expect = \"cycle > 5\"", 10, "'expect' must be an array of strings");
}

TEST(LessonErrors, UnknownKeysWarnWithLocationAndStillLoad) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\n  captoin = \"x\"\nwhatever = 1\n");
    ASSERT_TRUE(r.ok()) << dump(r);
    ASSERT_EQ(r.diagnostics.size(), 2u) << dump(r);
    EXPECT_EQ(r.diagnostics[0].severity, Sev::warning);
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_EQ(r.diagnostics[0].column, 3);
    EXPECT_EQ(r.diagnostics[0].message, "unknown key 'captoin' in step 1 (ignored) (did you mean 'caption'?)");
    EXPECT_EQ(r.diagnostics[1].line, 4);
    EXPECT_EQ(r.diagnostics[1].message, "unknown key 'whatever' in step 1 (ignored)");
    EXPECT_EQ(r.warning_count(), 2u);
    EXPECT_EQ(r.error_count(), 0u);

    const ParseResult top = parse("title = \"T\"\nauthor = \"me\"\n[[step]]\n");
    ASSERT_TRUE(top.ok());
    const Diagnostic d = only(top);
    EXPECT_EQ(d.severity, Sev::warning);
    EXPECT_EQ(d.line, 2);
    EXPECT_EQ(d.column, 1);
}

// A key nothing can ever fill would always show as a dash: an error at the placeholder.
TEST(LessonErrors, UnknownPlaceholderIsAnErrorAtThePlaceholder) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\ncaption = \"\"\"\nline one\n  GPU: {sim.gpu_tme_ms} ms\n\"\"\"\n");
    ASSERT_FALSE(r.ok()) << dump(r);
    const Diagnostic d = only(r);
    EXPECT_EQ(d.severity, Sev::error);
    EXPECT_EQ(d.line, 5);
    EXPECT_EQ(d.column, 8);
    EXPECT_NE(d.message.find("unknown caption placeholder '{sim.gpu_tme_ms}'"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("did you mean 'sim.gpu_time_ms'"), std::string::npos) << d.message;
}

// "{key|particle}" takes one of the Korean particles the app can choose; any other is an error
// at the placeholder, listing the valid ones. A known particle on an unknown key is the usual
// unknown-key error.
TEST(LessonErrors, UnknownParticleIsAnErrorAtThePlaceholder) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\ncaption = \"\"\"\n한국어 {preset.gpu_name|의} 설명\n\"\"\"\n");
    EXPECT_FALSE(r.ok());
    const Diagnostic d = only(r);
    EXPECT_EQ(d.severity, Sev::error);
    EXPECT_EQ(d.line, 4);
    EXPECT_EQ(d.column, 5);
    EXPECT_NE(d.message.find("unknown particle '의'"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("은/는, 이/가, 을/를, 와/과, (으)로"), std::string::npos) << d.message;

    EXPECT_FALSE(parse("title = \"T\"\n[[step]]\ncaption = \"{sim.m|}\"\n").ok());
    for (const char* p : {"은", "는", "은/는", "이", "가", "을", "를", "와", "과", "로", "으로", "(으)로"}) {
        const ParseResult ok = parse(std::string("title = \"T\"\n[[step]]\ncaption = \"{preset.gpu_name|") + p + "}\"\n");
        EXPECT_TRUE(ok.ok()) << p << dump(ok);
        EXPECT_TRUE(ok.diagnostics.empty()) << p << dump(ok);
    }
    const ParseResult typo = parse("title = \"T\"\n[[step]]\ncaption = \"{preset.gpu_nam|은}\"\n");
    EXPECT_FALSE(typo.ok());
    EXPECT_NE(only(typo).message.find("unknown caption placeholder '{preset.gpu_nam}'"), std::string::npos);
}

TEST(LessonErrors, PlaceholderColumnCountsCodePoints) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\ncaption = \"한국어 {nope}\"\n");
    const Diagnostic d = only(r);
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.column, 16);
}

// A tensor-core figure on a step that shows a GPU without tensor cores could only be a dash: an
// error at the placeholder, naming the step and the preset. The preset is the one the step shows,
// carried over from earlier steps as the window carries it.
TEST(LessonErrors, TensorPlaceholderNeedsAPresetWithTensorCores) {
    const ParseResult r = parse(
        "title = \"T\"\n"
        "[[step]]\n"
        "gpu_preset = \"c1060\"\n"
        "caption = \"{preset.gpu_name}: {preset.tensor_tflops} TFLOP/s\"\n"
        "[[step]]\n"
        "caption = \"still: {preset.tensor_format}\"\n"
        "[[step]]\n"
        "gpu_preset = \"v100\"\n"
        "caption = \"{preset.tensor_tflops} TFLOP/s ({preset.tensor_format})\"\n");
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.diagnostics.size(), 2u) << dump(r);
    const Diagnostic& a = r.diagnostics[0];
    EXPECT_EQ(a.severity, Sev::error);
    EXPECT_EQ(a.line, 4);
    EXPECT_EQ(a.column, 31);
    EXPECT_NE(a.message.find("'{preset.tensor_tflops}' needs a GPU preset with tensor cores"), std::string::npos)
        << a.message;
    EXPECT_NE(a.message.find("step 1 shows 'c1060'"), std::string::npos) << a.message;
    const Diagnostic& b = r.diagnostics[1];
    EXPECT_EQ(b.line, 6);
    EXPECT_EQ(b.column, 19);
    EXPECT_NE(b.message.find("'{preset.tensor_format}'"), std::string::npos) << b.message;
    EXPECT_NE(b.message.find("step 2 shows 'c1060'"), std::string::npos) << b.message;
}

TEST(LessonErrors, TensorPlaceholderIsFineWhereThePresetHasThem) {
    // The default preset (h100), a Volta-or-later one, and "this-machine" (only known when played).
    for (const char* preset : {"", "gpu_preset = \"v100\"\n", "gpu_preset = \"this-machine\"\n",
                               "gpu_preset = \"b200\"\n"}) {
        const ParseResult r = parse(std::string("title = \"T\"\n[[step]]\n") + preset +
                                    "caption = \"{preset.tensor_tflops} TFLOP/s ({preset.tensor_format})\"\n");
        EXPECT_TRUE(r.ok()) << preset << dump(r);
        EXPECT_TRUE(r.diagnostics.empty()) << preset << dump(r);
    }
    // A step that leaves a no-tensor GPU for one with them is fine from then on.
    const ParseResult r = parse(
        "title = \"T\"\n[[step]]\ngpu_preset = \"p100\"\ncaption = \"{preset.fp32_tflops}\"\n"
        "[[step]]\ngpu_preset = \"a100-80gb\"\ncaption = \"{preset.tensor_tflops}\"\n");
    EXPECT_TRUE(r.ok()) << dump(r);
    // Without the list (no registry) nothing is checked.
    Vocabulary open = test::vocab();
    open.gpus_without_tensor_cores.clear();
    const ParseResult unchecked = parse_lesson(
        "title = \"T\"\n[[step]]\ngpu_preset = \"c1060\"\ncaption = \"{preset.tensor_tflops}\"\n", "t.toml", open);
    EXPECT_TRUE(unchecked.ok()) << dump(unchecked);
}

TEST(LessonErrors, MissingTitle) {
    const ParseResult r = parse("[[step]]\nm = 4\n");
    EXPECT_FALSE(r.ok());
    const Diagnostic d = only(r);
    EXPECT_EQ(d.line, 1);
    EXPECT_EQ(d.column, 1);
    EXPECT_NE(d.message.find("missing 'title'"), std::string::npos);
}

TEST(LessonErrors, EmptyTitle) {
    const Diagnostic d = only(parse("title = \"\"\n[[step]]\n"));
    EXPECT_EQ(d.line, 1);
    EXPECT_EQ(d.column, 9);
}

TEST(LessonErrors, NoSteps) {
    const Diagnostic d = only(parse("title = \"T\"\n"));
    EXPECT_EQ(d.severity, Sev::error);
    EXPECT_EQ(d.line, 1);
    EXPECT_EQ(d.column, 1);
    EXPECT_NE(d.message.find("no steps"), std::string::npos);

    const Diagnostic e = only(parse("title = \"T\"\nstep = []\n"));
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 8);
    EXPECT_NE(e.message.find("no steps"), std::string::npos);
}

TEST(LessonErrors, StepsMustBeTables) {
    EXPECT_EQ(only(parse("title = \"T\"\nstep = 3\n")).message,
              "'step' must be an array of tables (write each step as [[step]]), not an integer");
    EXPECT_NE(only(parse("title = \"T\"\n[step]\nm = 3\n")).message.find("not a table"), std::string::npos);
    const Diagnostic d = only(parse("title = \"T\"\nstep = [1]\n"));
    EXPECT_EQ(d.line, 2);
    EXPECT_EQ(d.column, 9);
    EXPECT_EQ(d.message, "each step must be a table ([[step]]), not an integer");
}

TEST(LessonErrors, UnknownLanguage) {
    const Diagnostic d = only(parse("title = \"T\"\nlanguage = \"fr\"\n[[step]]\n"));
    EXPECT_EQ(d.line, 2);
    EXPECT_EQ(d.column, 12);
    EXPECT_EQ(d.message, "unknown language 'fr'; valid names: en, ko");
}

TEST(LessonErrors, EveryErrorIsReportedNotJustTheFirst) {
    const ParseResult r = parse("title = \"T\"\n[[step]]\nm = 0\n[[step]]\nkernel = \"x\"\nspeed = -1\n");
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.error_count(), 3u) << dump(r);
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_EQ(r.diagnostics[1].line, 5);
    EXPECT_EQ(r.diagnostics[2].line, 6);
}

TEST(LessonDiagnostics, Format) {
    EXPECT_EQ(format({"a/b.toml", 3, 5, Sev::error, "'m' is 0, outside the range 1..16384"}),
              "a/b.toml:3:5: error: 'm' is 0, outside the range 1..16384");
    EXPECT_EQ(format({"b.toml", 2, 1, Sev::warning, "unknown key 'x'"}), "b.toml:2:1: warning: unknown key 'x'");
    EXPECT_EQ(format({"c.toml", 0, 0, Sev::error, "cannot open the lesson file"}),
              "c.toml: error: cannot open the lesson file");
}

TEST(LessonFiles, MissingFileIsAnErrorNotACrash) {
    const ParseResult r = load_lesson_file("/nonexistent/dir/lesson.toml", test::vocab());
    EXPECT_FALSE(r.ok());
    const Diagnostic d = only(r);
    EXPECT_EQ(d.file, "/nonexistent/dir/lesson.toml");
    EXPECT_EQ(d.line, 0);
    EXPECT_EQ(format(d), "/nonexistent/dir/lesson.toml: error: cannot open the lesson file");

    EXPECT_FALSE(load_lesson_file(std::filesystem::temp_directory_path(), test::vocab()).ok());
}

TEST(LessonFiles, LoadsFromDiskWithTheFileNameInDiagnostics) {
    const auto path = std::filesystem::temp_directory_path() / "warpscope_lesson_test.toml";
    {
        std::ofstream out(path);
        out << "title = \"T\"\n[[step]]\nm = 0\n";
    }
    const ParseResult r = load_lesson_file(path, test::vocab());
    std::filesystem::remove(path);
    const Diagnostic d = only(r);
    EXPECT_EQ(format(d), path.string() + ":3:5: error: 'm' is 0, outside the range 1..16384");
}

// On a machine without a hardware GPU a GPU measurement can only come from a --measured file or
// be said in words: a warning for the lecturer (the lesson still loads), none with a GPU, none
// when the step says it another way in caption_no_gpu. measured.gpu_name always has words.
TEST(LessonErrors, GpuMeasurementWithoutAGpuIsAWarning) {
    const std::string text =
        "title = \"T\"\n[[step]]\ncaption = \"on {measured.gpu_name}: {measured.gpu_ms} ms, {measured.ratio}x\"\n"
        "[[step]]\ncaption = \"{measured.gpu_gflops} GFLOP/s\"\ncaption_no_gpu = \"{measured.cpu_gflops} GFLOP/s\"\n";
    Vocabulary no_gpu;
    no_gpu.machine_has_gpu = false;
    const ParseResult r = parse_lesson(text, "t.toml", no_gpu);
    ASSERT_TRUE(r.ok()) << dump(r);
    ASSERT_EQ(r.diagnostics.size(), 2u) << dump(r);
    for (const auto& d : r.diagnostics) {
        EXPECT_EQ(d.severity, Sev::warning);
        EXPECT_EQ(d.line, 3);
        EXPECT_NE(d.message.find("this machine has no GPU"), std::string::npos) << d.message;
        EXPECT_NE(d.message.find("--measured"), std::string::npos) << d.message;
    }
    EXPECT_EQ(r.diagnostics[0].column, 36);
    EXPECT_NE(r.diagnostics[0].message.find("'{measured.gpu_ms}'"), std::string::npos);
    EXPECT_NE(r.diagnostics[1].message.find("'{measured.ratio}'"), std::string::npos);
    EXPECT_EQ(r.lesson->steps[1].caption_no_gpu.value_or(""), "{measured.cpu_gflops} GFLOP/s");

    const ParseResult with_gpu = parse_lesson(text, "t.toml", Vocabulary{});
    ASSERT_TRUE(with_gpu.ok());
    EXPECT_TRUE(with_gpu.diagnostics.empty()) << dump(with_gpu);

    // caption_no_gpu is checked like a caption: an unknown key there is an error too.
    EXPECT_FALSE(parse_lesson("title = \"T\"\n[[step]]\ncaption_no_gpu = \"{measured.nope}\"\n", "t.toml", no_gpu).ok());
}

// Every key a caption may quote has a source: what is_known_caption_key accepts is what the app fills.
TEST(LessonErrors, MeasuredGpuKeysAreTheGpuMeasurements) {
    EXPECT_TRUE(is_measured_gpu_caption_key("measured.gpu_ms"));
    EXPECT_TRUE(is_measured_gpu_caption_key("measured.gpu_gflops"));
    EXPECT_TRUE(is_measured_gpu_caption_key("measured.gpu_kernel"));
    EXPECT_TRUE(is_measured_gpu_caption_key("measured.ratio"));
    EXPECT_FALSE(is_measured_gpu_caption_key("measured.gpu_name"));
    EXPECT_FALSE(is_measured_gpu_caption_key("measured.cpu_ms"));
}
