// The lesson file parser: TOML (toml++) in, a Lesson plus located diagnostics out.
#include "lesson.hpp"
#include "text_file.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>

namespace ws::lesson {

std::string format(const Diagnostic& d) {
    const char* sev = d.severity == Diagnostic::Severity::error ? "error" : "warning";
    if (d.line <= 0) return fmt::format("{}: {}: {}", d.file, sev, d.message);
    return fmt::format("{}:{}:{}: {}: {}", d.file, d.line, std::max(d.column, 1), sev, d.message);
}

std::size_t ParseResult::error_count() const {
    return static_cast<std::size_t>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
        return d.severity == Diagnostic::Severity::error;
    }));
}
std::size_t ParseResult::warning_count() const { return diagnostics.size() - error_count(); }

std::string to_string(const Zoom& z) {
    switch (z.kind) {
        case Zoom::Kind::chip: return "chip";
        case Zoom::Kind::sm: return fmt::format("sm:{}", z.sm);
        case Zoom::Kind::warp: return fmt::format("warp:{}:{}", z.sm, z.warp);
        case Zoom::Kind::lane: return fmt::format("lane:{}:{}:{}", z.sm, z.warp, z.lane);
    }
    return "chip";
}

std::string to_string(const Highlight& h) {
    switch (h.kind) {
        case Highlight::Kind::sm: return fmt::format("sm:{}", h.a);
        case Highlight::Kind::warp: return fmt::format("warp:{}:{}", h.a, h.b);
        case Highlight::Kind::lane: return fmt::format("lane:{}:{}:{}", h.a, h.b, h.c);
        case Highlight::Kind::core: return fmt::format("core:{}", h.a);
        case Highlight::Kind::cell: return fmt::format("cell:{}:{}", h.a, h.b);
    }
    return "sm:0";
}

namespace {

constexpr std::string_view kTopKeys[] = {"title", "language", "description", "step"};
constexpr std::string_view kStepKeys[] = {
    "title",      "caption", "gpu_preset", "cpu_preset", "m",      "n",       "k",
    "kernel",     "block_size", "cpu_kernel", "gpu_kernel", "real_m", "real_n", "real_k",
    "threads",    "zoom",    "highlight",  "panels",     "cycle",  "play",    "speed",
    "real_run",   "caption_no_gpu", "expect", "cluster"};
constexpr std::string_view kClusterKeys[] = {"strategy", "gpus", "nodes", "micro_batches", "size", "curve"};
constexpr std::string_view kLanguages[] = {"en", "ko"};

std::string_view type_name(const toml::node& n) {
    switch (n.type()) {
        case toml::node_type::table: return "a table";
        case toml::node_type::array: return "an array";
        case toml::node_type::string: return "a string";
        case toml::node_type::integer: return "an integer";
        case toml::node_type::floating_point: return "a floating-point number";
        case toml::node_type::boolean: return "a boolean";
        case toml::node_type::date: return "a date";
        case toml::node_type::time: return "a time";
        case toml::node_type::date_time: return "a date-time";
        default: return "nothing";
    }
}

template <class Range>
std::string join(const Range& names) {
    std::string out;
    for (const auto& n : names) {
        if (!out.empty()) out += ", ";
        out += n;
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// A hint for a misspelt key, so a typo is obvious from the warning alone.
template <class Range>
std::string suggestion(std::string_view key, const Range& known) {
    std::string_view best;
    std::size_t best_d = 3;  // more than two edits away is a different word, not a typo
    for (std::string_view k : known) {
        const std::size_t d = edit_distance(key, k);
        if (d < best_d) best_d = d, best = k;
    }
    return best.empty() ? std::string{} : fmt::format(" (did you mean '{}'?)", best);
}

bool parse_index(std::string_view s, int& out) {
    if (s.empty() || s.size() > 9) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc{} && p == s.data() + s.size() && out >= 0;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) break;
        start = at + 1;
    }
    return parts;
}

class Parser {
public:
    Parser(std::string_view text, std::string_view file, const Vocabulary& vocab)
        : text_(text), file_(file), vocab_(vocab) {
        line_starts_.push_back(0);
        for (std::size_t i = 0; i < text.size(); ++i)
            if (text[i] == '\n') line_starts_.push_back(i + 1);
    }

    ParseResult run() {
        ParseResult result;
        toml::table root;
        try {
            root = toml::parse(text_, std::string(file_));
        } catch (const toml::parse_error& e) {
            add(e.source(), Diagnostic::Severity::error, std::string(e.description()));
            result.diagnostics = std::move(diags_);
            return result;
        } catch (const std::exception& e) {
            // Out of memory or similar inside toml++: still a diagnostic, never a crash.
            add_at(0, 0, Diagnostic::Severity::error, e.what());
            result.diagnostics = std::move(diags_);
            return result;
        }

        Lesson lesson;
        for (const auto& [key, node] : root) {
            const std::string_view k = key.str();
            if (k == "title") {
                if (auto s = string_of(node, "title")) lesson.title = *s;
                if (lesson.title.empty() && node.is_string())
                    error(node.source(), "'title' must not be empty");
            } else if (k == "language") {
                if (auto s = string_of(node, "language")) {
                    if (std::find(std::begin(kLanguages), std::end(kLanguages), *s) == std::end(kLanguages))
                        error(node.source(), fmt::format("unknown language '{}'; valid names: {}", *s, join(kLanguages)));
                    else
                        lesson.language = *s;
                }
            } else if (k == "description") {
                if (auto s = string_of(node, "description")) lesson.description = *s;
            } else if (k == "step") {
                parse_steps(node, lesson);
            } else {
                warning(key.source(), fmt::format("unknown key '{}' (ignored){}", k, suggestion(k, kTopKeys)));
            }
        }
        check_tensor_presets(lesson);
        check_measured_gpu(lesson);
        if (!root.contains("title")) add_at(1, 1, Diagnostic::Severity::error, "missing 'title': every lesson needs a title");
        if (!root.contains("step"))
            add_at(1, 1, Diagnostic::Severity::error, "the lesson has no steps: add at least one [[step]]");

        // toml++ walks keys in sorted order; report in file order, as a reader scans the file.
        std::stable_sort(diags_.begin(), diags_.end(), [](const Diagnostic& a, const Diagnostic& b) {
            return std::tie(a.line, a.column) < std::tie(b.line, b.column);
        });
        result.diagnostics = std::move(diags_);
        if (!has_error_) result.lesson = std::move(lesson);
        return result;
    }

private:
    void add_at(int line, int column, Diagnostic::Severity sev, std::string msg) {
        if (sev == Diagnostic::Severity::error) has_error_ = true;
        diags_.push_back({std::string(file_), line, column, sev, std::move(msg)});
    }
    void add(const toml::source_region& r, Diagnostic::Severity sev, std::string msg) {
        add_at(static_cast<int>(r.begin.line), static_cast<int>(r.begin.column), sev, std::move(msg));
    }
    void error(const toml::source_region& r, std::string msg) { add(r, Diagnostic::Severity::error, std::move(msg)); }
    void warning(const toml::source_region& r, std::string msg) { add(r, Diagnostic::Severity::warning, std::move(msg)); }

    void wrong_type(const toml::node& n, std::string_view key, std::string_view expected) {
        error(n.source(), fmt::format("'{}' must be {}, not {}", key, expected, type_name(n)));
    }

    std::optional<std::string> string_of(const toml::node& n, std::string_view key) {
        if (const auto* v = n.as_string()) return v->get();
        wrong_type(n, key, "a string");
        return std::nullopt;
    }

    std::optional<bool> bool_of(const toml::node& n, std::string_view key) {
        if (const auto* v = n.as_boolean()) return v->get();
        wrong_type(n, key, "true or false");
        return std::nullopt;
    }

    std::optional<std::int64_t> int_in(const toml::node& n, std::string_view key, std::int64_t lo, std::int64_t hi) {
        const auto* v = n.as_integer();
        if (!v) {
            wrong_type(n, key, "an integer");
            return std::nullopt;
        }
        const std::int64_t x = v->get();
        if (x < lo || x > hi) {
            if (hi == INT64_MAX)
                error(n.source(), fmt::format("'{}' is {}, must be {} or more", key, x, lo));
            else
                error(n.source(), fmt::format("'{}' is {}, outside the range {}..{}", key, x, lo, hi));
            return std::nullopt;
        }
        return x;
    }

    std::optional<std::string> name_in(const toml::node& n, std::string_view key, std::string_view what,
                                       const std::vector<std::string>& valid) {
        auto s = string_of(n, key);
        if (!s || valid.empty()) return s;
        if (std::find(valid.begin(), valid.end(), *s) != valid.end()) return s;
        error(n.source(), fmt::format("unknown {} '{}'; valid names: {}", what, *s, join(valid)));
        return std::nullopt;
    }

    std::optional<double> speed_of(const toml::node& n) {
        double x = 0;
        if (const auto* f = n.as_floating_point())
            x = f->get();
        else if (const auto* i = n.as_integer())
            x = static_cast<double>(i->get());
        else {
            wrong_type(n, "speed", "a number");
            return std::nullopt;
        }
        if (!std::isfinite(x) || x < kMinSpeed || x > kMaxSpeed) {
            error(n.source(), fmt::format("'speed' is {}, outside the range {}..{} cycles per second", x, kMinSpeed, kMaxSpeed));
            return std::nullopt;
        }
        return x;
    }

    // Checks the indices of a zoom or highlight spec; on failure reports at the node.
    bool indices(const toml::node& n, std::string_view spec, const std::vector<std::string_view>& parts,
                 std::size_t count, std::string_view shape, int* out) {
        if (parts.size() != count + 1) {
            error(n.source(), fmt::format("'{}' is not {}", spec, shape));
            return false;
        }
        for (std::size_t i = 0; i < count; ++i) {
            if (!parse_index(parts[i + 1], out[i])) {
                error(n.source(), fmt::format("'{}': '{}' is not an index (a whole number 0..{})", spec, parts[i + 1], kMaxIndex));
                return false;
            }
            if (out[i] > kMaxIndex) {
                error(n.source(), fmt::format("'{}': index {} is outside the range 0..{}", spec, out[i], kMaxIndex));
                return false;
            }
        }
        return true;
    }

    bool lane_ok(const toml::node& n, std::string_view spec, int lane) {
        if (lane < kLanesPerWarp) return true;
        error(n.source(), fmt::format("'{}': lane {} is outside the range 0..{}", spec, lane, kLanesPerWarp - 1));
        return false;
    }

    std::optional<Zoom> zoom_of(const toml::node& n) {
        auto s = string_of(n, "zoom");
        if (!s) return std::nullopt;
        const auto parts = split(*s, ':');
        int ix[3] = {0, 0, 0};
        Zoom z;
        const std::string_view kind = parts[0];
        if (kind == "chip" && parts.size() == 1) return z;
        if (kind == "sm") {
            if (!indices(n, *s, parts, 1, "sm:S", ix)) return std::nullopt;
            z.kind = Zoom::Kind::sm;
        } else if (kind == "warp") {
            if (!indices(n, *s, parts, 2, "warp:S:W", ix)) return std::nullopt;
            z.kind = Zoom::Kind::warp;
        } else if (kind == "lane") {
            if (!indices(n, *s, parts, 3, "lane:S:W:L", ix) || !lane_ok(n, *s, ix[2])) return std::nullopt;
            z.kind = Zoom::Kind::lane;
        } else {
            error(n.source(), fmt::format("unknown zoom '{}'; valid forms: chip, sm:S, warp:S:W, lane:S:W:L", *s));
            return std::nullopt;
        }
        z.sm = ix[0], z.warp = ix[1], z.lane = ix[2];
        return z;
    }

    std::optional<Highlight> highlight_of(const toml::node& n) {
        auto s = string_of(n, "highlight item");
        if (!s) return std::nullopt;
        const auto parts = split(*s, ':');
        int ix[3] = {0, 0, 0};
        Highlight h;
        const std::string_view kind = parts[0];
        if (kind == "sm") {
            if (!indices(n, *s, parts, 1, "sm:S", ix)) return std::nullopt;
            h.kind = Highlight::Kind::sm;
        } else if (kind == "warp") {
            if (!indices(n, *s, parts, 2, "warp:S:W", ix)) return std::nullopt;
            h.kind = Highlight::Kind::warp;
        } else if (kind == "lane") {
            if (!indices(n, *s, parts, 3, "lane:S:W:L", ix) || !lane_ok(n, *s, ix[2])) return std::nullopt;
            h.kind = Highlight::Kind::lane;
        } else if (kind == "core") {
            if (!indices(n, *s, parts, 1, "core:C", ix)) return std::nullopt;
            h.kind = Highlight::Kind::core;
        } else if (kind == "cell") {
            if (!indices(n, *s, parts, 2, "cell:ROW:COL", ix)) return std::nullopt;
            h.kind = Highlight::Kind::cell;
        } else {
            error(n.source(), fmt::format("unknown highlight '{}'; valid forms: sm:S, warp:S:W, lane:S:W:L, core:C, cell:ROW:COL", *s));
            return std::nullopt;
        }
        h.a = ix[0], h.b = ix[1], h.c = ix[2];
        return h;
    }

    // An array whose items are parsed one by one by `item_of` (which reports its own errors and
    // returns nullopt for a bad item): every bad item is reported, and any one fails the key.
    template <class T, class ItemOf>
    std::optional<std::vector<T>> items_of(const toml::node& n, std::string_view key, std::string_view what,
                                           ItemOf item_of) {
        const auto* arr = n.as_array();
        if (!arr) {
            wrong_type(n, key, what);
            return std::nullopt;
        }
        std::vector<T> out;
        bool ok = true;
        for (const auto& item : *arr) {
            if (auto v = item_of(item, out))
                out.push_back(std::move(*v));
            else
                ok = false;
        }
        if (!ok) return std::nullopt;
        return out;
    }

    std::optional<std::vector<Highlight>> highlights_of(const toml::node& n) {
        return items_of<Highlight>(n, "highlight", "an array of strings such as [\"sm:3\", \"warp:3:5\"]",
                                   [&](const toml::node& item, const auto&) { return highlight_of(item); });
    }

    std::optional<CycleStart> cycle_of(const toml::node& n) {
        if (n.is_integer()) {
            if (auto v = int_in(n, "cycle", 0, INT64_MAX)) return CycleStart{CycleStart::Kind::at, *v};
            return std::nullopt;
        }
        if (const auto* str = n.as_string()) {
            if (str->get() == "first-issue") return CycleStart{CycleStart::Kind::first_issue, 0};
            if (str->get() == "mid-run") return CycleStart{CycleStart::Kind::mid_run, 0};
            error(n.source(), fmt::format("unknown cycle '{}'; a cycle is a number, \"first-issue\" or \"mid-run\"",
                                          str->get()));
            return std::nullopt;
        }
        wrong_type(n, "cycle", "a number, \"first-issue\" or \"mid-run\"");
        return std::nullopt;
    }

    std::optional<Expectation> expectation_of(const toml::node& item) {
        auto text = string_of(item, "expect item");
        if (!text) return std::nullopt;
        std::string why;
        std::size_t offset = 0;
        if (auto e = parse_expectation(*text, &why, &offset)) return e;
        // Point at the offending word inside the string: its column is past the opening quote.
        // Columns count code points, as an editor does: UTF-8 continuation bytes are not counted.
        const auto& at = item.source().begin;
        const auto before = std::string_view(*text).substr(0, offset);
        const auto code_points = std::count_if(before.begin(), before.end(),
                                               [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
        add_at(static_cast<int>(at.line), static_cast<int>(at.column + 1 + code_points), Diagnostic::Severity::error,
               std::move(why));
        return std::nullopt;
    }

    std::optional<std::vector<Expectation>> expectations_of(const toml::node& n) {
        return items_of<Expectation>(n, "expect", "an array of strings such as [\"lanes_issuing >= 32\"]",
                                     [&](const toml::node& item, const auto&) { return expectation_of(item); });
    }

    std::optional<std::vector<std::string>> panels_of(const toml::node& n) {
        // A name listed twice is only warned about; the list keeps the first.
        std::optional<std::vector<std::string>> out = items_of<std::string>(
            n, "panels", "an array of panel names",
            [&](const toml::node& item, const std::vector<std::string>& so_far) -> std::optional<std::string> {
                auto s = string_of(item, "panels item");
                if (!s) return std::nullopt;
                if (std::find(std::begin(kPanelNames), std::end(kPanelNames), *s) == std::end(kPanelNames)) {
                    error(item.source(), fmt::format("unknown panel '{}'; valid names: {}", *s, join(kPanelNames)));
                    return std::nullopt;
                }
                if (std::find(so_far.begin(), so_far.end(), *s) != so_far.end())
                    warning(item.source(), fmt::format("panel '{}' is listed twice", *s));
                return s;
            });
        if (!out) return out;
        std::vector<std::string> first_each;
        for (auto& panel : *out)
            if (std::find(first_each.begin(), first_each.end(), panel) == first_each.end())
                first_each.push_back(std::move(panel));
        return first_each;
    }

    std::optional<ClusterChange> cluster_of(const toml::node& n) {
        const auto* tbl = n.as_table();
        if (!tbl) {
            wrong_type(n, "cluster", "a table such as { strategy = \"data\", gpus = 8 }");
            return std::nullopt;
        }
        ClusterChange c;
        bool ok = true;
        const auto whole = [&](const toml::node& v, std::string_view key, std::int64_t lo, std::int64_t hi,
                               std::optional<int>& out) {
            if (auto x = int_in(v, key, lo, hi))
                out = static_cast<int>(*x);
            else
                ok = false;
        };
        for (const auto& [key, node] : *tbl) {
            const std::string_view k = key.str();
            if (k == "strategy") {
                c.strategy = name_in(node, "cluster.strategy", "cluster strategy", vocab_.cluster_strategies);
                ok &= c.strategy.has_value();
            } else if (k == "gpus") {
                whole(node, "cluster.gpus", kMinClusterGpus, kMaxClusterGpus, c.gpus);
            } else if (k == "nodes") {
                whole(node, "cluster.nodes", 0, kMaxClusterNodes, c.nodes);
            } else if (k == "micro_batches") {
                whole(node, "cluster.micro_batches", 1, 64, c.micro_batches);
            } else if (k == "size") {
                whole(node, "cluster.size", kMinClusterSize, kMaxClusterSize, c.size);
            } else if (k == "curve") {
                c.curve = bool_of(node, "cluster.curve");
                ok &= c.curve.has_value();
            } else {
                error(key.source(), fmt::format("unknown key '{}' in cluster; valid keys: {}", k, join(kClusterKeys)));
                ok = false;
            }
        }
        if (!ok) return std::nullopt;
        return c;
    }

    // Points at the placeholder itself when it can be found in the raw text after the string's
    // start; falls back to the string's start (escapes can make the raw and parsed text differ).
    // no_gpu_caption: the text is a step's caption_no_gpu, shown only where there is no GPU figure.
    void check_caption(const toml::node& n, const std::string& caption, bool no_gpu_caption = false) {
        const auto& r = n.source();
        std::size_t from = offset_of(static_cast<int>(r.begin.line), static_cast<int>(r.begin.column));
        for (const PlaceholderUse& use : caption_placeholder_uses(caption)) {
            const std::string& key = use.key;
            const std::string needle = "{" + use.raw + "}";
            const std::size_t at = text_.find(needle, from);
            int line = static_cast<int>(r.begin.line), col = static_cast<int>(r.begin.column);
            if (at != std::string_view::npos) {
                std::tie(line, col) = position_of(at);
                from = at + needle.size();
            }
            if (use.has_particle && !parse_particle(use.particle))
                add_at(line, col, Diagnostic::Severity::error,
                       fmt::format("unknown particle '{}' in '{}'; valid: {} (either form, e.g. '{{{}|은}}')",
                                   use.particle, needle, particle_names(), key));
            if (is_tensor_caption_key(key)) {
                // Judged once the steps are folded (check_tensor_presets): where it is, for then.
                tensor_uses_.push_back({current_step_, line, col, key});
                continue;
            }
            if (!is_known_caption_key(key)) {
                // No source can ever fill it: on screen it could only be a dash.
                add_at(line, col, Diagnostic::Severity::error,
                       fmt::format("unknown caption placeholder '{{{}}}'; nothing can fill it, so it would always "
                                   "show as '{}'{}",
                                   key, kMissingValue, suggestion(key, known_caption_keys())));
                continue;
            }
            if (is_measured_gpu_caption_key(key) && !no_gpu_caption)
                measured_gpu_uses_.push_back({current_step_, line, col, key});
        }
    }

    std::size_t offset_of(int line, int column) const {
        if (line < 1 || static_cast<std::size_t>(line) > line_starts_.size()) return 0;
        std::size_t off = line_starts_[static_cast<std::size_t>(line - 1)];
        // toml++ counts columns in code points; walk them in UTF-8.
        for (int c = 1; c < column && off < text_.size(); ++c) {
            ++off;
            while (off < text_.size() && (static_cast<unsigned char>(text_[off]) & 0xC0) == 0x80) ++off;
        }
        return off;
    }

    std::pair<int, int> position_of(std::size_t offset) const {
        const auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
        const std::size_t line_index = static_cast<std::size_t>(it - line_starts_.begin()) - 1;
        int column = 1;
        for (std::size_t i = line_starts_[line_index]; i < offset; ++i)
            if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
        return {static_cast<int>(line_index) + 1, column};
    }

    void parse_steps(const toml::node& node, Lesson& lesson) {
        const auto* arr = node.as_array();
        if (!arr) {
            error(node.source(), fmt::format("'step' must be an array of tables (write each step as [[step]]), not {}", type_name(node)));
            return;
        }
        if (arr->empty()) {
            error(node.source(), "the lesson has no steps: add at least one [[step]]");
            return;
        }
        for (const auto& item : *arr) {
            const auto* tbl = item.as_table();
            if (!tbl) {
                error(item.source(), fmt::format("each step must be a table ([[step]]), not {}", type_name(item)));
                continue;
            }
            lesson.steps.push_back(parse_step(*tbl, lesson.steps.size() + 1));
        }
    }

    // A tensor-core caption key on a step that shows a GPU without tensor cores is an error: the
    // caption could only show a dash there. The window enters a lesson from the default
    // AppliedState (LessonPlayer::apply), so folding the steps over it gives the preset each shows.
    // Likewise a step that animates a tensor-core kernel on a GPU that cannot run it: the
    // simulation would be refused.
    // On a machine without a hardware GPU a GPU measurement can only come from a run measured
    // elsewhere (--measured); without one the app says so in words, or shows the step's
    // caption_no_gpu. Worth a warning for the lecturer, never an error: the lesson is fine on
    // the machine it will be shown on.
    void check_measured_gpu(const Lesson& lesson) {
        if (vocab_.machine_has_gpu) return;
        for (const auto& use : measured_gpu_uses_) {
            if (use.step < lesson.steps.size() && lesson.steps[use.step].caption_no_gpu) continue;
            add_at(use.line, use.column, Diagnostic::Severity::warning,
                   fmt::format("this machine has no GPU: '{{{}}}' in step {} will come from --measured files or be "
                               "said in words (add caption_no_gpu to the step to say it your way)",
                               use.key, use.step + 1));
        }
    }

    void check_tensor_presets(const Lesson& lesson) {
        const auto& without = vocab_.gpus_without_tensor_cores;
        const auto& without_bf16 = vocab_.gpus_without_bf16_tensor_cores;
        const auto& tensor_kernels = vocab_.tensor_kernels;
        AppliedState state;
        for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
            apply_step(lesson.steps[i], state);
            const Step& step = lesson.steps[i];
            if ((step.kernel || step.gpu_preset) &&
                std::find(tensor_kernels.begin(), tensor_kernels.end(), state.kernel) != tensor_kernels.end() &&
                std::find(without_bf16.begin(), without_bf16.end(), state.gpu_preset) != without_bf16.end())
            {
                std::string with;
                for (const auto& id : vocab_.gpu_presets)
                    if (id != "this-machine" && std::find(without_bf16.begin(), without_bf16.end(), id) == without_bf16.end())
                        with += with.empty() ? id : ", " + id;
                add_at(step.line, 1, Diagnostic::Severity::error,
                       fmt::format("step {} animates the '{}' kernel on '{}', which has no BF16 tensor cores; set "
                                   "gpu_preset to one that has them ({})",
                                   i + 1, state.kernel, state.gpu_preset, with));
            }
            if (without.empty() || tensor_uses_.empty()) continue;
            if (std::find(without.begin(), without.end(), state.gpu_preset) == without.end()) continue;
            for (const TensorUse& use : tensor_uses_) {
                if (use.step != i) continue;
                add_at(use.line, use.column, Diagnostic::Severity::error,
                       fmt::format("'{{{}}}' needs a GPU preset with tensor cores, but step {} shows '{}', which has "
                                   "none (the caption would show '{}'); set gpu_preset to one from Volta on",
                                   use.key, i + 1, state.gpu_preset, kMissingValue));
            }
        }
    }

    Step parse_step(const toml::table& tbl, std::size_t number) {
        current_step_ = number - 1;
        Step s;
        s.line = static_cast<int>(tbl.source().begin.line);
        const auto dim = [&](const toml::node& n, std::string_view key, std::optional<int>& out) {
            if (auto v = int_in(n, key, kMinDim, kMaxDim)) out = static_cast<int>(*v);
        };
        for (const auto& [key, node] : tbl) {
            const std::string_view k = key.str();
            if (k == "title") {
                s.title = string_of(node, k);
            } else if (k == "caption") {
                s.caption = string_of(node, k);
                if (s.caption) check_caption(node, *s.caption);
            } else if (k == "caption_no_gpu") {
                s.caption_no_gpu = string_of(node, k);
                if (s.caption_no_gpu) check_caption(node, *s.caption_no_gpu, true);
            } else if (k == "gpu_preset") {
                s.gpu_preset = name_in(node, k, "GPU preset", vocab_.gpu_presets);
            } else if (k == "cpu_preset") {
                s.cpu_preset = name_in(node, k, "CPU preset", vocab_.cpu_presets);
            } else if (k == "m") {
                dim(node, k, s.m);
            } else if (k == "n") {
                dim(node, k, s.n);
            } else if (k == "k") {
                dim(node, k, s.k);
            } else if (k == "real_m") {
                dim(node, k, s.real_m);
            } else if (k == "real_n") {
                dim(node, k, s.real_n);
            } else if (k == "real_k") {
                dim(node, k, s.real_k);
            } else if (k == "kernel") {
                s.kernel = name_in(node, k, "simulated kernel", vocab_.sim_kernels);
            } else if (k == "cpu_kernel") {
                s.cpu_kernel = name_in(node, k, "kernel", vocab_.real_kernels);
            } else if (k == "gpu_kernel") {
                s.gpu_kernel = name_in(node, k, "kernel", vocab_.real_kernels);
            } else if (k == "block_size") {
                if (auto v = int_in(node, k, kMinBlockSide, kMaxBlockSide)) s.block_size = static_cast<int>(*v);
            } else if (k == "threads") {
                if (auto v = int_in(node, k, kMinThreads, kMaxThreads)) s.threads = static_cast<int>(*v);
            } else if (k == "zoom") {
                s.zoom = zoom_of(node);
            } else if (k == "highlight") {
                s.highlight = highlights_of(node);
            } else if (k == "panels") {
                s.panels = panels_of(node);
            } else if (k == "cycle") {
                s.cycle = cycle_of(node);
            } else if (k == "expect") {
                s.expect = expectations_of(node);
            } else if (k == "play") {
                s.play = bool_of(node, k);
            } else if (k == "real_run") {
                s.real_run = bool_of(node, k);
            } else if (k == "speed") {
                s.speed = speed_of(node);
            } else if (k == "cluster") {
                s.cluster = cluster_of(node);
            } else {
                warning(key.source(),
                        fmt::format("unknown key '{}' in step {} (ignored){}", k, number, suggestion(k, kStepKeys)));
            }
        }
        return s;
    }

    std::string_view text_;
    std::string_view file_;
    const Vocabulary& vocab_;
    std::vector<std::size_t> line_starts_;
    std::vector<Diagnostic> diags_;
    bool has_error_ = false;
    // Tensor-core caption keys seen, by step (index into Lesson::steps), for check_tensor_presets.
    struct TensorUse {
        std::size_t step = 0;
        int line = 0, column = 0;
        std::string key;
    };
    std::vector<TensorUse> tensor_uses_;
    std::vector<TensorUse> measured_gpu_uses_;  // measured.gpu_* / measured.ratio in a step's caption
    std::size_t current_step_ = 0;
};

}  // namespace

ParseResult parse_lesson(std::string_view text, std::string_view file_name, const Vocabulary& vocab) {
    return Parser(text, file_name, vocab).run();
}

ParseResult load_lesson_file(const std::filesystem::path& path, const Vocabulary& vocab) {
    const std::string name = path.string();
    TextFile file = read_text_file(path, kMaxLessonBytes, "lesson file");
    if (!file.text) {
        ParseResult r;
        r.diagnostics.push_back({name, 0, 0, Diagnostic::Severity::error, file.error});
        return r;
    }
    return parse_lesson(*file.text, name, vocab);
}

}  // namespace ws::lesson
