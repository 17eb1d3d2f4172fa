#include "gui/inspector.hpp"

#include <imgui.h>

#include "gui/presentation.hpp"
#include "gui/theme.hpp"

namespace ws::app {

void draw_inspector(const SimSession& session, const LaneSelection& lane, int cpu_core) {
  const sim::Simulation* s = session.simulation();
  if (!s) return;
  if (lane.valid() && lane.sm < s->sm_count() && lane.slot < s->warp_slots_per_sm()) {
    const auto li = s->lane_info(lane.sm, lane.slot, lane.lane);
    const auto wi = s->warp_info(lane.sm, lane.slot);
    ImGui::TextColored(colour_simulated(), "SM %d, warp %d, lane %d", lane.sm, lane.slot, lane.lane);
    if (wi.block_x >= 0)
      ImGui::Text("block (%d,%d), warp %d of the block, thread (%d,%d)", wi.block_x, wi.block_y, wi.warp_in_block,
                  li.thread_x, li.thread_y);
    if (li.active) {
      ImGui::Text("computes C[%d][%d]: k %d of %d, partial sum %.6g", li.row, li.col, li.k_done, li.k_total,
                  li.partial_sum);
    } else {
      ImGui::TextDisabled(wi.block_x >= 0 ? "no cell of C (past the matrix edge)" : "no block resident");
    }
    ImGui::TextWrapped("warp: %s", wi.describe().c_str());
  } else if (cpu_core >= 0 && cpu_core < s->cpu_core_count()) {
    const auto c = s->cpu_core(cpu_core);
    ImGui::TextColored(colour_simulated(), "Core %d of %s", cpu_core, s->cpu().name.c_str());
    if (c.row >= 0) ImGui::Text("computes C[%d][%d]: k %d of %d", c.row, c.col, c.k_done, c.k_total);
    ImGui::Text("%lld of %lld cells done (%.3f %%)", c.cells_done, c.cells_assigned, 100 * c.progress);
    ImGui::Text("loads: L1 %llu, L2 %llu, L3 %llu, DRAM %llu", static_cast<unsigned long long>(c.l1_hits),
                static_cast<unsigned long long>(c.l2_hits), static_cast<unsigned long long>(c.l3_hits),
                static_cast<unsigned long long>(c.dram_accesses));
  } else {
    ImGui::TextDisabled("%s", T("label.inspect_hint"));
  }
}

}  // namespace ws::app
