// Lecture-mode lessons: the file format (TOML), its parser, and the rule that turns a list of
// partial steps into the full app state at any step. No GUI code here: the window that plays a
// lesson and the `warpscope lesson` CLI both build on this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws::lesson {

// Where the simulated view is zoomed. Indices that do not apply to `kind` stay 0.
struct Zoom {
    enum class Kind { chip, sm, warp, lane };
    Kind kind = Kind::chip;
    int sm = 0;
    int warp = 0;
    int lane = 0;
    friend bool operator==(const Zoom&, const Zoom&) = default;
};

// "chip", "sm:3", "warp:3:5", "lane:3:5:12": the spelling used in lesson files.
std::string to_string(const Zoom& z);

// Something drawn with an outline. Same spelling as in lesson files:
// "sm:S", "warp:S:W", "lane:S:W:L", "core:C", "cell:ROW:COL".
struct Highlight {
    enum class Kind { sm, warp, lane, core, cell };
    Kind kind = Kind::sm;
    int a = 0;  // sm index, core index, or row
    int b = 0;  // warp index within the SM, or column
    int c = 0;  // lane index
    friend bool operator==(const Highlight&, const Highlight&) = default;
};
std::string to_string(const Highlight& h);

// Where a step starts the simulation: a cycle number, or a moment read from the simulation once
// it exists ("first-issue": the first cycle in which a lane of the step's zoomed or highlighted
// warp or SM issues; "mid-run": half of the simulated total).
struct CycleStart {
    enum class Kind { at, first_issue, mid_run };
    Kind kind = Kind::at;
    std::int64_t at = 0;  // the cycle, for Kind::at
    friend bool operator==(const CycleStart&, const CycleStart&) = default;
};
// "1234", "first-issue", "mid-run": the spelling used in lesson files.
std::string to_string(const CycleStart& c);

// What a step's picture must show, checked against the counts `--print-state` reports for the
// shown frame: "NAME OP VALUE" with OP one of >= <= > < == != and VALUE a whole number, or for
// lanes_* names a percentage of lanes_active ("lanes_waiting_memory > 50%").
struct Expectation {
    enum class Op { ge, le, gt, lt, eq, ne };
    std::string text;  // as written, for messages
    std::string name;
    Op op = Op::ge;
    double value = 0;
    bool percent = false;
    friend bool operator==(const Expectation&, const Expectation&) = default;
};
// The names an expectation may test, with what each counts (docs/LESSONS.md lists them too).
struct ExpectationName {
    std::string_view name;
    std::string_view meaning;
};
const std::vector<ExpectationName>& expectation_names();
// Parses one expectation. On failure returns nullopt with `error` saying why and `error_offset`
// the byte offset in `text` the problem starts at (the name, the operator or the value).
std::optional<Expectation> parse_expectation(std::string_view text, std::string* error, std::size_t* error_offset);
// Whether `value` (the count named by e.name; `active_lanes` for a percentage) meets e.
bool expectation_met(const Expectation& e, double value, double active_lanes);

// Panel names a lesson may show; any panel not listed is hidden while the step is shown.
inline constexpr std::string_view kPanelNames[] = {"gpu",      "cpu",    "matrix",  "timeline",
                                                   "inspector", "timers", "caption", "roofline",
                                                   "generations", "cluster"};

// The cluster view a step shows (panel "cluster"): how the simulated training step is split.
// Written `cluster = { strategy = "data", gpus = 8 }`; fields a step leaves out stay as they were.
struct ClusterSetting {
    std::string strategy = "data";  // data, tensor, pipeline or hybrid (sim::strategy_names)
    int gpus = 8;                   // 1..64
    int nodes = 0;                  // 0: as few as hold the GPUs (8 a node)
    int micro_batches = 8;          // pipeline only
    int size = 4096;                // batch = width = size, hidden = 4 x size
    bool curve = false;             // beside the timeline: speed-up against 1, 2, 4, ... 64 GPUs
    friend bool operator==(const ClusterSetting&, const ClusterSetting&) = default;
};
struct ClusterChange {
    std::optional<std::string> strategy;
    std::optional<int> gpus, nodes, micro_batches, size;
    std::optional<bool> curve;
};
inline constexpr int kMinClusterGpus = 1, kMaxClusterGpus = 64, kMaxClusterNodes = 8;
inline constexpr int kMinClusterSize = 64, kMaxClusterSize = 32768;

// One step exactly as written: every state field is optional because a step only says what
// changes ("anything a step leaves out stays as it was").
struct Step {
    int line = 0;  // where the [[step]] header is, so tools can point at it

    std::optional<std::string> title;
    std::optional<std::string> caption;  // markup-lite with {placeholders}; see parse_caption_markup
    // Shown instead of `caption` where this machine has no hardware GPU and no run measured
    // elsewhere gives a GPU figure: the same point said without the GPU's numbers.
    std::optional<std::string> caption_no_gpu;

    std::optional<std::string> gpu_preset;
    std::optional<std::string> cpu_preset;
    std::optional<int> m, n, k;          // size of the simulated (animated) matmul
    std::optional<std::string> kernel;   // simulated GPU kernel: a Vocabulary::sim_kernels name
    std::optional<int> block_size;       // side of the square thread block (threads = side²)

    std::optional<std::string> cpu_kernel;  // real run: a Vocabulary::real_kernels name
    std::optional<std::string> gpu_kernel;  // real run: a Vocabulary::real_kernels name
    std::optional<int> real_m, real_n, real_k;  // real runs can afford sizes the animation cannot
    std::optional<int> threads;                 // CPU threads for the real run

    std::optional<Zoom> zoom;
    std::optional<std::vector<Highlight>> highlight;  // replaces the list; [] clears it
    std::optional<std::vector<std::string>> panels;   // replaces the set of shown panels
    std::optional<CycleStart> cycle;                  // jump the simulation to this cycle
    // What this step's picture must show (not carried over to later steps).
    std::optional<std::vector<Expectation>> expect;
    std::optional<bool> play;
    std::optional<double> speed;  // simulated cycles per wall-clock second
    std::optional<bool> real_run;  // start a real run when the step is entered
    std::optional<ClusterChange> cluster;
};

struct Lesson {
    std::string title;
    std::string language = "en";  // "en" or "ko"; picks the UI string table while playing
    std::string description;
    std::vector<Step> steps;
};

// The complete state at a step: what the GUI sets when a step is entered.
struct AppliedState {
    std::string title;    // this step's own title, not carried over
    std::string caption;  // this step's own caption, not carried over
    std::string caption_no_gpu;  // this step's own, not carried over ("" when it has none)

    std::string gpu_preset = "h100";
    std::string cpu_preset = "this-machine";
    int m = 128, n = 128, k = 128;
    std::string kernel = "naive";
    int block_size = 16;

    std::string cpu_kernel = "cpu-parallel";
    std::string gpu_kernel = "cuda-tiled";
    int real_m = 1024, real_n = 1024, real_k = 1024;
    int threads = 0;  // 0: all hardware threads (a lesson itself can only say 1..1024)

    Zoom zoom{};
    std::vector<Highlight> highlight;
    std::vector<std::string> panels{"gpu", "cpu", "matrix", "caption"};
    CycleStart cycle{};
    bool play = false;
    double speed = 200.0;
    bool real_run = false;  // an action: true only on the step that asks for it, never carried
    std::vector<Expectation> expect;  // this step's own, not carried over
    ClusterSetting cluster;

    friend bool operator==(const AppliedState&, const AppliedState&) = default;
};

// Applies one step's explicit fields on top of `state` (for moving forward one step while the
// simulation keeps its live position).
void apply_step(const Step& step, AppliedState& state);

// Folds steps 0..step over `initial`. Entering step i is always state_at(lesson, i, initial), so
// leaving a step and coming back restores it exactly. `step` past the end is clamped.
AppliedState state_at(const Lesson& lesson, std::size_t step, const AppliedState& initial);

struct Diagnostic {
    enum class Severity { error, warning };
    std::string file;
    int line = 0;    // 1-based; 0 when there is no position (e.g. the file cannot be read)
    int column = 0;  // 1-based
    Severity severity = Severity::error;
    std::string message;
};

// "FILE:LINE:COLUMN: error: what is wrong" (or "warning:"); "FILE: error: ..." without a line.
std::string format(const Diagnostic& d);

// Names the parser accepts. The app fills it from the sim and kernel registries so this library
// needs neither. An empty list accepts any name (useful before a registry exists).
struct Vocabulary {
    std::vector<std::string> gpu_presets;
    std::vector<std::string> cpu_presets;
    std::vector<std::string> sim_kernels;
    std::vector<std::string> real_kernels;
    // GPU presets without tensor cores (before Volta). A step that shows one of them may not quote
    // a tensor-core caption key (is_tensor_caption_key): it could only ever show a dash. The
    // preset a step shows is folded from the steps before it, as the window does; "this-machine"
    // is only known when the lesson plays and is not checked. Empty: nothing is checked.
    std::vector<std::string> gpus_without_tensor_cores;
    // Simulated kernels that run on BF16 tensor cores, and the GPU presets that cannot run them
    // (no tensor cores, or Volta's FP16-only ones): a step showing both is an error.
    std::vector<std::string> tensor_kernels;
    std::vector<std::string> gpus_without_bf16_tensor_cores;
    // Whether this machine has a hardware GPU (CUDA, or OpenGL on real hardware). Without one a
    // caption that quotes a GPU measurement (is_measured_gpu_caption_key) is a warning, unless
    // its step has a caption_no_gpu: the value can only come from a --measured file or be words.
    bool machine_has_gpu = true;
    // The cluster view's strategies (sim::strategy_names). Empty: any name is accepted.
    std::vector<std::string> cluster_strategies;
};

// Value ranges, shared by the parser, the docs and the tests.
inline constexpr int kMinDim = 1, kMaxDim = 16384;
inline constexpr int kMinBlockSide = 1, kMaxBlockSide = 32;  // 32² = 1024 threads per block
inline constexpr int kMinThreads = 1, kMaxThreads = 1024;
inline constexpr double kMinSpeed = 0.1, kMaxSpeed = 1e7;
inline constexpr int kMaxIndex = 65535;  // sm/warp/core/row/column indices in zoom and highlight
inline constexpr int kLanesPerWarp = 32;
// A lesson is a page of text; anything larger is a wrong path, refused before it is read.
inline constexpr std::size_t kMaxLessonBytes = 1024 * 1024;

struct ParseResult {
    std::optional<Lesson> lesson;  // empty when any error was found
    std::vector<Diagnostic> diagnostics;
    bool ok() const { return lesson.has_value(); }
    std::size_t error_count() const;
    std::size_t warning_count() const;
};

// Never throws on bad input: every problem becomes a Diagnostic.
ParseResult parse_lesson(std::string_view text, std::string_view file_name, const Vocabulary& vocab);
// A missing file, a directory, a FIFO or device, or a file over kMaxLessonBytes is one error
// diagnostic without a line, given before anything is read (see read_text_file).
ParseResult load_lesson_file(const std::filesystem::path& path, const Vocabulary& vocab);

// ---- captions -------------------------------------------------------------------------------

// Placeholder keys a caption may use as {key}; see docs/LESSONS.md for what each one holds.
const std::vector<std::string_view>& known_caption_keys();
bool is_known_caption_key(std::string_view key);
// Keys that only a GPU preset with tensor cores can fill ({preset.tensor_tflops}, {preset.tensor_format}).
bool is_tensor_caption_key(std::string_view key);
// Keys only a GPU measurement fills: measured.gpu_* (but not measured.gpu_name, which names the
// GPU or says there is none) and measured.ratio.
bool is_measured_gpu_caption_key(std::string_view key);

// Shown for a placeholder whose value is unknown or not available yet: never an invented number.
inline constexpr std::string_view kMissingValue = "\xE2\x80\x94";  // U+2014 EM DASH

// Replaces {key} with lookup(key); "{{" and "}}" are literal braces. Keys the lookup cannot
// answer render as kMissingValue. A lone "{" without a closing "}" is kept as written.
// "{key|은}" appends the Korean particle that fits the value (particle_after); an unknown
// particle (which `lesson check` rejects) appends nothing.
std::string expand_caption(std::string_view caption,
                           const std::function<std::optional<std::string>(std::string_view key)>& lookup);

// The placeholder keys a caption uses, in order of appearance (duplicates kept), without any
// particle: "{preset.gpu_name|은}" gives "preset.gpu_name".
std::vector<std::string> caption_placeholders(std::string_view caption);

// One placeholder as written: "{preset.gpu_name|은}" is raw "preset.gpu_name|은", key
// "preset.gpu_name", particle "은" (has_particle); "{sim.m}" has no particle.
struct PlaceholderUse {
    std::string raw;
    std::string key;
    std::string particle;
    bool has_particle = false;
};
std::vector<PlaceholderUse> caption_placeholder_uses(std::string_view caption);

// ---- Korean particles ----------------------------------------------------------------------
//
// A Korean particle after a value depends on how the value ends when read aloud: 은/는, 이/가,
// 을/를, 와/과 on whether its last syllable has a final consonant (받침), (으)로 also on whether
// that consonant is ㄹ. A caption asks for one with "{key|은}": the particle is written in
// either form (은 or 는, 이 or 가, 을 or 를, 와 or 과, 로, 으로 or (으)로; or as the pair, 은/는),
// and the app picks the right one for the value it inserts.
enum class Particle { topic, subject, object, with, toward };  // 은/는 이/가 을/를 와/과 (으)로
// "은", "는", "은/는", ... -> the particle; nullopt for anything else (surrounding spaces allowed).
std::optional<Particle> parse_particle(std::string_view spec);
// The particles lesson files may use, for messages: "은/는, 이/가, 을/를, 와/과, (으)로".
std::string_view particle_names();

// How a text ends when read aloud in Korean: no final consonant, ㄹ, or another final consonant.
// Read from its last spoken syllable, after trailing spaces, closing brackets, quotes and
// punctuation: Hangul by its final consonant (jongseong); a number as Korean reads it (3 삼,
// 2 이, 10 십, 100 백, 1,000 천, 20,000 만; after a decimal point digit by digit: 1.98 팔);
// a Latin letter by its name (A 에이, B 비, ... L 엘, M 엠, N 엔, R 알); % 퍼센트, × 배,
// ² ³ 제곱. nullopt when the end cannot be read (a dash, an emoji, another script, empty).
enum class Final { none, rieul, other };
std::optional<Final> korean_final(std::string_view text);

// The particle form to write right after `value`: "는" after "H200 (SXM, 141 GB)", "은" after
// "A100", "과" after "GPU 없음", "로" after "서울". When the end cannot be read, both forms:
// "은(는)", "이(가)", "을(를)", "과(와)", "(으)로".
std::string particle_after(std::string_view value, Particle particle);

struct CaptionSpan {
    std::string text;
    bool bold = false;
    friend bool operator==(const CaptionSpan&, const CaptionSpan&) = default;
};
struct CaptionBlock {
    enum class Kind { paragraph, list_item };
    Kind kind = Kind::paragraph;
    std::vector<CaptionSpan> spans;
};

// Markup-lite: blank lines separate paragraphs, lines starting with "- " are list items,
// **bold** toggles bold (an unmatched ** stays literal). Lines of one paragraph join with a
// space. Run it after expand_caption so values are laid out like the text around them.
std::vector<CaptionBlock> parse_caption_markup(std::string_view caption);

}  // namespace ws::lesson
