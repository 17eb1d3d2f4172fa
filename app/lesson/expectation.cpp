// A step's expectations: the small "NAME OP VALUE" language a lesson uses to say what its picture
// must show, so a test can hold every caption to the frame drawn under it.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "lesson.hpp"

namespace ws::lesson {

std::string to_string(const CycleStart& c) {
    switch (c.kind) {
        case CycleStart::Kind::first_issue: return "first-issue";
        case CycleStart::Kind::mid_run: return "mid-run";
        case CycleStart::Kind::at: break;
    }
    return std::to_string(c.at);
}

const std::vector<ExpectationName>& expectation_names() {
    // Lane counts are over the zoomed part of the chip (one warp, one SM, or every SM) at the
    // shown cycle; drawn_* are 1 when the last frame drew that panel with some area.
    static const std::vector<ExpectationName> names = {
        {"lanes", "lanes in the zoomed warp, SM or chip (resident or not)"},
        {"lanes_active", "lanes with work at this cycle: issuing, eligible or waiting"},
        {"lanes_issuing", "lanes whose warp issued an instruction this cycle"},
        {"lanes_eligible", "lanes whose warp could issue but was not picked"},
        {"lanes_waiting_dependency", "lanes waiting for an arithmetic result"},
        {"lanes_waiting_memory", "lanes waiting for a global or shared memory load"},
        {"lanes_waiting_barrier", "lanes waiting at __syncthreads"},
        {"lanes_on_tensor_core", "lanes whose MMA is on the tensor core"},
        {"lanes_done", "lanes whose warp has finished"},
        {"lanes_not_resident", "lanes of warp slots with no block"},
        {"warps_issuing", "warps in the zoomed part that issued this cycle"},
        {"warps_waiting", "warps in the zoomed part waiting (memory, dependency, barrier, tensor core)"},
        {"cycle", "the simulated cycle shown"},
        {"c_done", "cells of C the simulated GPU has finished"},
        {"cpu_cells_done", "cells of C the simulated CPU cores have finished"},
        {"highlight_row_px", "height in pixels of the highlighted row of A (0: none drawn)"},
        {"highlight_col_px", "width in pixels of the highlighted column of B (0: none drawn)"},
        {"highlight_cell_px", "side in pixels of the highlighted cell of C (0: none drawn)"},
        {"matrices_drawn", "matrices of C drawn: the GPU's and the CPU's, or the one whose worker is shown"},
        {"matrix_px", "width in pixels of the widest matrix of C drawn"},
        {"highlight_outlines", "warp and SM outlines drawn in the chip view"},
        {"highlight_outlines_covering", "of them, outlines drawn over what they point at"},
        {"labels_on_background", "SM and warp names the chip view drew on the window's background"},
        {"labels_on_background_contrast", "the lowest WCAG contrast of those names against the background"},
        {"labels_over_lanes", "lane numbers and warp names the chip view drew over lanes"},
        {"labels_over_lanes_contrast", "the lowest WCAG contrast of those labels against the lane under them"},
        {"chip_view_top_row", "the chip view's top edge, in lanes' heights from the first SM's first warp"},
        {"chip_view_left_lane", "the chip view's left edge, in lanes' widths from the first SM's first lane"},
        {"drawn_chip", "the simulated chip was drawn"},
        {"drawn_cpu", "the simulated CPU cores were drawn"},
        {"cpu_cards_visible", "CPU core cards showing their name (not scrolled out of view)"},
        {"cpu_cells_whole", "of those cards, the ones whose cell line (the cell and k of K) shows whole"},
        {"cpu_parts_named", "smart parts (branch predictor, caches, ...) named on the visible CPU cards"},
        {"cpu_parts_cut", "of those parts, the ones named only in their first words (\"out-of-…\")"},
        {"cpu_card_text_pct", "the CPU cards' text size in percent of the panel's (100 to 160: larger in big cards)"},
        {"inspector_text_pct", "the inspector's text size in percent of the panel's (50 to 100: smaller where its box is short); 0 when not drawn"},
        {"controls_folded", "1 when the simulation's pickers are folded into one line (a short panel, large text)"},
        {"real_controls_folded",
         "1 when the real run's size, kernel and thread controls are folded into one line (the results would not fit)"},
        {"real_sentence_in_view",
         "1 when the real run's speed sentence ends inside its panel, 0 when below it, -1 when there is none"},
        {"real_details_hidden",
         "1 when the lines on how each real kernel ran give way so the speed sentence shows (a short panel, large text)"},
        {"real_figures_gap_px",
         "pixels between a measured row's ms and its GFLOP/s (0: no figures; negative: they run together)"},
        {"drawn_matrix", "the matrix view was drawn"},
        {"drawn_timers", "the real-run panel (measured on this machine) was drawn"},
        {"drawn_roofline", "the roofline was drawn"},
        {"drawn_generations", "the GPU generations table was drawn"},
        {"drawn_cluster", "the cluster view was drawn"},
        {"cluster_gpus", "GPUs in the cluster view's split"},
        {"cluster_gantt_rows", "rows of the cluster view's per-GPU timeline drawn"},
        {"cluster_curve_points", "points of the scaling curve drawn (0: no curve)"},
        {"measured_cpu", "1 when a CPU run measured on this machine is shown"},
    };
    return names;
}

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::size_t skip_spaces(std::string_view t, std::size_t i) {
    while (i < t.size() && t[i] == ' ') ++i;
    return i;
}

}  // namespace

std::optional<Expectation> parse_expectation(std::string_view text, std::string* error, std::size_t* error_offset) {
    const auto fail = [&](std::size_t at, std::string why) -> std::optional<Expectation> {
        if (error) *error = std::move(why);
        if (error_offset) *error_offset = at;
        return std::nullopt;
    };
    Expectation e;
    e.text = std::string(text);
    std::size_t i = skip_spaces(text, 0);
    const std::size_t name_at = i;
    while (i < text.size() && is_name_char(text[i])) ++i;
    e.name = std::string(text.substr(name_at, i - name_at));
    if (e.name.empty()) return fail(name_at, "an expectation starts with a name, e.g. \"lanes_issuing >= 32\"");
    const auto& names = expectation_names();
    if (std::none_of(names.begin(), names.end(), [&](const ExpectationName& n) { return n.name == e.name; })) {
        std::string valid;
        for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + std::string(n.name);
        return fail(name_at, fmt::format("unknown expectation name '{}'; valid names: {}", e.name, valid));
    }
    i = skip_spaces(text, i);
    static constexpr std::pair<std::string_view, Expectation::Op> kOps[] = {
        {">=", Expectation::Op::ge}, {"<=", Expectation::Op::le}, {"==", Expectation::Op::eq},
        {"!=", Expectation::Op::ne}, {">", Expectation::Op::gt},  {"<", Expectation::Op::lt}};
    const std::size_t op_at = i;
    bool have_op = false;
    for (const auto& [spelling, op] : kOps) {
        if (text.substr(i, spelling.size()) == spelling) {
            e.op = op;
            i += spelling.size();
            have_op = true;
            break;
        }
    }
    if (!have_op) return fail(op_at, "expected one of >= <= > < == != after the name");
    i = skip_spaces(text, i);
    const std::size_t value_at = i;
    const char* first = text.data() + i;
    const char* last = text.data() + text.size();
    const auto [end, ec] = std::from_chars(first, last, e.value);
    if (ec != std::errc() || e.value < 0 || !std::isfinite(e.value))
        return fail(value_at, "expected a number (0 or more) after the operator");
    i = static_cast<std::size_t>(end - text.data());
    if (i < text.size() && text[i] == '%') {
        if (e.name.rfind("lanes_", 0) != 0)
            return fail(i, fmt::format("a percentage only applies to lanes_* names (of lanes_active), not '{}'", e.name));
        if (e.value > 100) return fail(value_at, "a percentage is 0..100");
        e.percent = true;
        ++i;
    }
    i = skip_spaces(text, i);
    if (i != text.size()) return fail(i, fmt::format("unexpected '{}' after the value", text.substr(i)));
    return e;
}

bool expectation_met(const Expectation& e, double value, double active_lanes) {
    const double target = e.percent ? e.value / 100.0 * active_lanes : e.value;
    switch (e.op) {
        case Expectation::Op::ge: return value >= target;
        case Expectation::Op::le: return value <= target;
        case Expectation::Op::gt: return value > target;
        case Expectation::Op::lt: return value < target;
        case Expectation::Op::eq: return value == target;
        case Expectation::Op::ne: return value != target;
    }
    return false;
}

}  // namespace ws::lesson
