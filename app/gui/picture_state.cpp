#include "gui/picture_state.hpp"

#include <cmath>
#include <cstdint>

#include "gui/real_run_panel.hpp"
#include "gui/simulation_panel.hpp"

namespace ws::app {

nlohmann::json picture_counts(const SimulationPanel& sim, const RealRunView& real, const lesson::Zoom& zoom,
                              const DrawnPanels& drawn) {
  nlohmann::json c;
  for (const auto& n : lesson::expectation_names()) c[std::string(n.name)] = 0;
  const auto drawn_flag = [](const SimulationPanel::Rect& r) { return r.w > 0 && r.h > 0 ? 1 : 0; };
  c["drawn_chip"] = drawn_flag(sim.chip_rect);
  c["drawn_cpu"] = drawn_flag(sim.cpu_rect);
  c["drawn_matrix"] = drawn_flag(sim.matrix_rect);
  c["cpu_cards_visible"] = sim.cpu_shown.cards_visible;
  c["cpu_cells_whole"] = sim.cpu_shown.cells_whole;
  c["cpu_parts_named"] = sim.cpu_shown.parts_named;
  c["cpu_parts_cut"] = sim.cpu_shown.parts_cut;
  c["cpu_card_text_pct"] = static_cast<int>(std::lround(sim.cpu_shown.card_text_scale * 100));
  c["inspector_text_pct"] = static_cast<int>(std::lround(sim.inspector_text_scale * 100));
  c["controls_folded"] = sim.controls_folded ? 1 : 0;
  c["real_controls_folded"] = real.controls_folded ? 1 : 0;
  c["real_details_hidden"] = real.details_hidden ? 1 : 0;
  c["real_sentence_in_view"] = real.sentence_in_view ? (*real.sentence_in_view ? 1 : 0) : -1;
  c["real_figures_gap_px"] = real.figures_gap;
  c["drawn_timers"] = drawn.timers ? 1 : 0;
  c["drawn_roofline"] = drawn.roofline ? 1 : 0;
  c["drawn_generations"] = drawn.generations ? 1 : 0;
  c["drawn_cluster"] = drawn.cluster ? 1 : 0;
  c["cluster_gpus"] = drawn.cluster_gpus;
  c["cluster_gantt_rows"] = drawn.cluster_gantt_rows;
  c["cluster_curve_points"] = drawn.cluster_curve_points;
  c["measured_cpu"] = real.session.cpu_result() ? 1 : 0;
  c["history_references_shown"] = real.history.drawn.references_shown;
  c["history_references_left_out"] = real.history.drawn.references_left_out;
  c["history_plot_px"] = real.history.drawn.plot_px;
  c["history_edge_margin_px"] = real.history.drawn.edge_margin_px;
  if (c["drawn_matrix"] == 1) {
    const auto& h = sim.matrix_view.highlight_drawn;
    c["highlight_row_px"] = h.row_px;
    c["highlight_col_px"] = h.col_px;
    c["highlight_cell_px"] = h.cell_px;
    c["matrices_drawn"] = sim.matrix_view.shown_count;
    c["matrix_px"] = static_cast<int>(sim.matrix_view.side_px);
  }
  if (c["drawn_chip"] == 1) {
    c["highlight_outlines"] = sim.gpu_view.outlines.drawn;
    c["highlight_outlines_covering"] = sim.gpu_view.outlines.covering;
    c["labels_on_background"] = sim.gpu_view.labels.on_background;
    c["labels_on_background_contrast"] = sim.gpu_view.labels.weakest_contrast;
    c["labels_over_lanes"] = sim.gpu_view.labels.over_lanes;
    c["labels_over_lanes_contrast"] = sim.gpu_view.labels.weakest_lane_contrast;
    // The chip's row (in lanes' heights, 0 = the first SM row's first warp) at the view's top edge.
    c["chip_view_top_row"] = sim.gpu_view.view().origin_y;
    c["chip_view_left_lane"] = sim.gpu_view.view().origin_x;  // the same across, in lanes' widths
    // How tall one SM (all its warp slots) is drawn, in pixels: what a back row sees of the chip.
    c["chip_sm_px"] = static_cast<int>(std::lround(sim.gpu_view.view().scale * sim.gpu_view.layout().cells_y));
    c["sim_note_text_pct"] = static_cast<int>(std::lround(sim.note_text_scale * 100));
  }
  const sim::Simulation* s = sim.session.simulation();
  if (!s) return c;
  c["cycle"] = s->cycle();
  c["c_done"] = s->c_done_count();
  c["cpu_cells_done"] = s->cpu_cells_done();

  const int sms = s->sm_count(), slots = s->warp_slots_per_sm(), lanes = s->lanes_per_warp();
  std::vector<std::uint8_t> states(static_cast<std::size_t>(sms) * slots * lanes);
  s->export_lane_states(states);
  using Z = lesson::Zoom::Kind;
  const bool one_sm = zoom.kind != Z::chip;
  const bool one_warp = zoom.kind == Z::warp || zoom.kind == Z::lane;
  const int sm_lo = one_sm ? zoom.sm : 0, sm_hi = one_sm ? std::min(zoom.sm + 1, sms) : sms;
  const int slot_lo = one_warp ? zoom.warp : 0, slot_hi = one_warp ? std::min(zoom.warp + 1, slots) : slots;
  long long by_state[16] = {};
  long long warps_issuing = 0, warps_waiting = 0, lane_total = 0;
  for (int sm = sm_lo; sm < sm_hi; ++sm)
    for (int slot = slot_lo; slot < slot_hi; ++slot) {
      const auto w = s->warp_state(sm, slot);
      if (w == sim::WarpState::issuing) ++warps_issuing;
      if (w == sim::WarpState::waiting_memory || w == sim::WarpState::waiting_dependency ||
          w == sim::WarpState::waiting_barrier || w == sim::WarpState::on_tensor_core)
        ++warps_waiting;
      for (int lane = 0; lane < lanes; ++lane) {
        ++by_state[states[(static_cast<std::size_t>(sm) * slots + slot) * lanes + lane] & 15];
        ++lane_total;
      }
    }
  auto count = [&](sim::WarpState st) { return by_state[static_cast<int>(st)]; };
  c["lanes"] = lane_total;
  c["lanes_issuing"] = count(sim::WarpState::issuing);
  c["lanes_eligible"] = count(sim::WarpState::eligible);
  c["lanes_waiting_dependency"] = count(sim::WarpState::waiting_dependency);
  c["lanes_waiting_memory"] = count(sim::WarpState::waiting_memory);
  c["lanes_waiting_barrier"] = count(sim::WarpState::waiting_barrier);
  c["lanes_on_tensor_core"] = count(sim::WarpState::on_tensor_core);
  c["lanes_done"] = count(sim::WarpState::done);
  c["lanes_not_resident"] = count(sim::WarpState::not_resident);
  c["lanes_active"] = count(sim::WarpState::issuing) + count(sim::WarpState::eligible) +
                      count(sim::WarpState::waiting_dependency) + count(sim::WarpState::waiting_memory) +
                      count(sim::WarpState::waiting_barrier) + count(sim::WarpState::on_tensor_core);
  c["warps_issuing"] = warps_issuing;
  c["warps_waiting"] = warps_waiting;
  return c;
}

nlohmann::json check_expectations(const std::vector<lesson::Expectation>& expect, const nlohmann::json& counts) {
  nlohmann::json out = nlohmann::json::array();
  const double active = counts.value("lanes_active", 0.0);
  for (const auto& e : expect) {
    const double value = counts.value(e.name, 0.0);
    out.push_back({{"expect", e.text}, {"value", value}, {"ok", lesson::expectation_met(e, value, active)}});
  }
  return out;
}

int failed_expectations(const nlohmann::json& checked) {
  int failed = 0;
  for (const auto& e : checked)
    if (!e["ok"].get<bool>()) ++failed;
  return failed;
}

}  // namespace ws::app
