// Captions: placeholder keys, their expansion, and the markup-lite layout.
#include "lesson.hpp"

#include "facts.hpp"

#include <algorithm>

namespace ws::lesson {

const std::vector<std::string_view>& known_caption_keys() {
    // Keep in step with docs/LESSONS.md, which says what the app puts in each one.
    static const std::vector<std::string_view> keys = {
        // The presets selected by the current step.
        "preset.gpu_name", "preset.gpu_label", "preset.gpu_year", "preset.sm_count", "preset.gpu_cores",
        "preset.cores_per_sm", "preset.max_warps_per_sm", "preset.clock_ghz", "preset.fp32_tflops",
        "preset.tensor_tflops", "preset.tensor_format", "preset.tensor_cores", "preset.mem_bandwidth_gbs", "preset.cpu_name", "preset.cpu_label", "preset.cpu_cores",
        "preset.cpu_threads", "preset.cpu_gflops", "preset.core_ratio",
        // The simulation at the current state.
        "sim.m", "sim.n", "sim.k", "sim.cells", "sim.block_size", "sim.threads_per_block",
        "sim.blocks", "sim.warps", "sim.blocks_per_sm", "sim.waves", "sim.wave_count", "sim.last_wave_pct",
        "sim.occupancy_pct", "sim.issue_slot_pct",
        "sim.cycle", "sim.cycles", "sim.gpu_time_ms", "sim.cpu_time_ms", "sim.speedup",
        "sim.cpu_progress_pct", "sim.issue_pct", "sim.stall_memory_pct", "sim.stall_barrier_pct",
        "sim.dram_traffic", "sim.global_loads", "sim.l1_hit_pct", "sim.l2_hit_pct", "sim.naive_time_ms", "sim.tiled_time_ms", "sim.tiled_speedup",
        "sim.tflops", "sim.peak_tflops", "sim.peak_pct", "sim.thread_tile", "sim.lane_cells", "sim.mma_shape",
        // The last real run on this machine.
        "measured.size", "measured.cpu_name", "measured.gpu_name", "measured.cpu_threads",
        "measured.cpu_kernel", "measured.gpu_kernel", "measured.cpu_ms", "measured.gpu_ms",
        "measured.cpu_gflops", "measured.gpu_gflops", "measured.ratio", "measured.verified",
        // The cluster view's split (the step's `cluster` setting), simulated.
        "cluster.gpus", "cluster.nodes", "cluster.micro_batches", "cluster.speedup", "cluster.efficiency_pct",
        "cluster.allreduce_pct", "cluster.bubble_pct", "cluster.bubble_formula", "cluster.bubble_formula_pct", "cluster.time_ms",
        "cluster.single_gpu_ms", "cluster.link", "cluster.network", "cluster.curve",
    };
    return keys;
}

bool is_known_caption_key(std::string_view key) {
    const auto& keys = known_caption_keys();
    // Facts are not in known_caption_keys(): those depend on what the app has computed, a fact
    // never does (lesson/facts.hpp).
    return std::find(keys.begin(), keys.end(), key) != keys.end() || find_fact(key) != nullptr;
}

bool is_tensor_caption_key(std::string_view key) {
    return key == "preset.tensor_tflops" || key == "preset.tensor_format" || key == "preset.tensor_cores";
}

bool is_measured_gpu_caption_key(std::string_view key) {
    return key == "measured.ratio" || (key.rfind("measured.gpu_", 0) == 0 && key != "measured.gpu_name");
}

namespace {

// Calls on_text for literal runs and on_key for each {key}; shared by expansion and validation
// so both agree on what counts as a placeholder.
template <class OnText, class OnKey>
void scan_placeholders(std::string_view s, OnText on_text, OnKey on_key) {
    std::size_t i = 0;
    while (i < s.size()) {
        const char ch = s[i];
        if ((ch == '{' || ch == '}') && i + 1 < s.size() && s[i + 1] == ch) {
            on_text(s.substr(i, 1));
            i += 2;
            continue;
        }
        if (ch == '{') {
            const std::size_t close = s.find_first_of("{}\n", i + 1);
            if (close != std::string_view::npos && s[close] == '}') {
                on_key(s.substr(i + 1, close - i - 1));
                i = close + 1;
                continue;
            }
        }
        const std::size_t next = s.find_first_of("{}", i + 1);
        const std::size_t end = next == std::string_view::npos ? s.size() : next;
        on_text(s.substr(i, end - i));
        i = end;
    }
}

// "key|particle" -> its parts; without '|' the whole text is the key.
PlaceholderUse split_placeholder(std::string_view raw) {
    PlaceholderUse use;
    use.raw = std::string(raw);
    const std::size_t bar = raw.find('|');
    if (bar == std::string_view::npos) {
        use.key = std::string(raw);
        return use;
    }
    use.key = std::string(raw.substr(0, bar));
    use.particle = std::string(raw.substr(bar + 1));
    use.has_particle = true;
    return use;
}

}  // namespace

std::string expand_caption(std::string_view caption,
                           const std::function<std::optional<std::string>(std::string_view key)>& lookup) {
    std::string out;
    out.reserve(caption.size());
    scan_placeholders(
        caption, [&](std::string_view text) { out += text; },
        [&](std::string_view raw) {
            const PlaceholderUse use = split_placeholder(raw);
            std::optional<std::string> value;
            if (lookup) value = lookup(use.key);
            if (!value || value->empty()) value = std::string(kMissingValue);
            out += *value;
            if (use.has_particle)
                if (const auto p = parse_particle(use.particle)) out += particle_after(*value, *p);
        });
    return out;
}

std::vector<std::string> caption_placeholders(std::string_view caption) {
    std::vector<std::string> keys;
    scan_placeholders(
        caption, [](std::string_view) {}, [&](std::string_view raw) { keys.push_back(split_placeholder(raw).key); });
    return keys;
}

std::vector<PlaceholderUse> caption_placeholder_uses(std::string_view caption) {
    std::vector<PlaceholderUse> uses;
    scan_placeholders(
        caption, [](std::string_view) {}, [&](std::string_view raw) { uses.push_back(split_placeholder(raw)); });
    return uses;
}

namespace {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r");
    return s.substr(first, last - first + 1);
}

// Splits text into bold and plain spans; "**" only toggles when a closing "**" exists.
std::vector<CaptionSpan> parse_spans(std::string_view text) {
    std::vector<CaptionSpan> spans;
    auto push = [&](std::string_view t, bool bold) {
        if (t.empty()) return;
        if (!spans.empty() && spans.back().bold == bold)
            spans.back().text += t;
        else
            spans.push_back({std::string(t), bold});
    };
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t open = text.find("**", i);
        if (open == std::string_view::npos) {
            push(text.substr(i), false);
            break;
        }
        const std::size_t close = text.find("**", open + 2);
        if (close == std::string_view::npos) {
            push(text.substr(i), false);
            break;
        }
        push(text.substr(i, open - i), false);
        push(text.substr(open + 2, close - open - 2), true);
        i = close + 2;
    }
    return spans;
}

}  // namespace

std::vector<CaptionBlock> parse_caption_markup(std::string_view caption) {
    std::vector<CaptionBlock> blocks;
    // The block being gathered; bold is parsed per block so a stray ** cannot swallow the rest.
    CaptionBlock::Kind kind = CaptionBlock::Kind::paragraph;
    std::string text;
    auto flush = [&] {
        if (!text.empty()) blocks.push_back({kind, parse_spans(text)});
        text.clear();
        kind = CaptionBlock::Kind::paragraph;
    };
    std::size_t pos = 0;
    for (;;) {
        const std::size_t eol = std::min(caption.find('\n', pos), caption.size());
        const std::string_view line = trim(caption.substr(pos, eol - pos));
        if (line.empty()) {
            flush();
        } else if (line.size() >= 2 && line[0] == '-' && line[1] == ' ') {
            flush();
            kind = CaptionBlock::Kind::list_item;
            text = trim(line.substr(2));
        } else {
            // A line right after a list item continues it, as in Markdown.
            if (!text.empty()) text += ' ';
            text += line;
        }
        if (eol >= caption.size()) break;
        pos = eol + 1;
    }
    flush();
    return blocks;
}

}  // namespace ws::lesson
