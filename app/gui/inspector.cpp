#include "gui/inspector.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <imgui.h>

#include "gui/preset_display_name.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

// The warp's state in the UI language; sim's describe() is the English of the same fields.
std::string warp_words(const sim::WarpInfo& w) {
  using sim::WarpState;
  const auto reason = [&] { return T(fmt::format("wait.{}", static_cast<int>(w.reason)).c_str()); };
  switch (w.state) {
    case WarpState::waiting_memory:
    case WarpState::waiting_dependency:
    case WarpState::on_tensor_core:
      return TF("inspector.waiting_on", reason(), w.waited, w.expected);
    case WarpState::waiting_barrier:
      return TF(w.waited == 1 ? "inspector.waiting_barrier_one" : "inspector.waiting_barrier", w.waited);
    case WarpState::not_resident: return T("legend.not_resident");
    case WarpState::issuing: return T("legend.issuing");
    case WarpState::eligible: return T("legend.eligible");
    case WarpState::done: return T("legend.done");
  }
  return w.describe();
}

struct Line {
  enum Style { heading, plain, disabled } style = plain;
  std::string text;
};

// The inspector's text for a selection, wrapped at `width`: built once for drawing and for
// sizing the panel, so the two always agree.
std::vector<Line> inspector_text(const SimSession& session, const LaneSelection& lane, int cpu_core, float width) {
  std::vector<Line> out;
  const sim::Simulation* s = session.simulation();
  if (!s) return out;
  if (lane.valid() && lane.sm < s->sm_count() && lane.slot < s->warp_slots_per_sm()) {
    const auto li = s->lane_info(lane.sm, lane.slot, lane.lane);
    const auto wi = s->warp_info(lane.sm, lane.slot);
    out.push_back({Line::heading, TF("inspector.lane", lane.sm, lane.slot, lane.lane)});
    if (wi.block_x >= 0)
      out.push_back({Line::plain, TF("inspector.block", wi.block_x, wi.block_y, wi.warp_in_block, li.thread_x, li.thread_y)});
    if (li.active && li.accumulators.size() > 1) {
      // Register blocking's point: one thread, many cells, each operand loaded once and used for
      // a whole row or column of them. As many to a line as fit, in the lane's register order.
      out.push_back({Line::plain, TF("inspector.cells", li.accumulators.size(), li.k_done, li.k_total)});
      const std::size_t per_line = accumulators_per_line(width);
      for (std::size_t i = 0; i < li.accumulators.size(); i += per_line) {
        std::string line;
        for (std::size_t j = i; j < std::min(li.accumulators.size(), i + per_line); ++j) {
          const auto& a = li.accumulators[j];
          line += fmt::format("{}C[{}][{}] {:.4g}", j == i ? "" : "   ", a.row, a.col, a.value);
        }
        out.push_back({Line::plain, line});
      }
    } else if (li.active) {
      out.push_back({Line::plain, TF("inspector.cell", li.row, li.col, li.k_done, li.k_total,
                                     fmt::format("{:.6g}", li.partial_sum))});
    } else {
      out.push_back({Line::disabled, T(wi.block_x >= 0 ? "inspector.no_cell" : "inspector.no_block")});
    }
    out.push_back({Line::plain, TF("inspector.warp", warp_words(wi))});
  } else if (cpu_core >= 0 && cpu_core < s->cpu_core_count()) {
    const auto c = s->cpu_core(cpu_core);
    out.push_back({Line::heading, TF("inspector.core", cpu_core, cpu_display_name(s->cpu()))});
    if (c.row >= 0) out.push_back({Line::plain, TF("inspector.core_cell", c.row, c.col, c.k_done, c.k_total)});
    out.push_back({Line::plain, TF("inspector.core_cells", c.cells_done, c.cells_assigned, fmt::format("{:.3f}", 100 * c.progress))});
    out.push_back({Line::plain, TF("inspector.core_loads", c.l1_hits, c.l2_hits, c.l3_hits, c.dram_accesses)});
  } else {
    out.push_back({Line::disabled, T("label.inspect_hint")});
  }
  return out;
}

}  // namespace

std::size_t accumulators_per_line(float width) {
  // As many as fit whole: a cell of a 2048-wide C with a value, and the gap before it.
  const float one = ImGui::CalcTextSize("   C[2047][2047] -0.0000").x;
  return std::clamp<std::size_t>(static_cast<std::size_t>(width / one), 1, 4);
}

int inspector_lines(const SimSession& session, const LaneSelection& lane, int cpu_core, float width) {
  const float line_h = ImGui::GetTextLineHeight();
  int lines = 1;  // the panel's padding
  for (const Line& l : inspector_text(session, lane, cpu_core, width))
    lines += std::max(1, static_cast<int>(std::lround(wrapped_text_size(l.text, width).y / line_h)));
  // A selection keeps five lines at least, so the panel does not jump as its lines come and go;
  // the hint to click takes only its own, which at 2x text leaves the cores' cards a line more.
  const bool hint_only = !lane.valid() && cpu_core < 0;
  return hint_only ? lines : std::max(lines, 5);
}

void draw_inspector(const SimSession& session, const LaneSelection& lane, int cpu_core) {
  const float width = ImGui::GetContentRegionAvail().x;
  for (const Line& l : inspector_text(session, lane, cpu_core, width)) {
    if (l.style == Line::heading) ImGui::PushStyleColor(ImGuiCol_Text, colour_simulated());
    if (l.style == Line::disabled) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    text_wrapped(l.text);
    ImGui::PopTextWrapPos();
    if (l.style != Line::plain) ImGui::PopStyleColor();
  }
}

}  // namespace ws::app
