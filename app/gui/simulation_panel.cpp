#include "gui/simulation_panel.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <imgui.h>

#include "core/kernel_models.hpp"
#include "core/lane_texels.hpp"
#include "core/measured_text.hpp"
#include "gui/cpu_view.hpp"
#include "gui/inspector.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"
#include "gui/timeline.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

sim::Kernel sim_kernel_for(const std::string& real_gpu_kernel) { return model_for_real_kernel(real_gpu_kernel).kernel; }

std::string default_gpu_preset() {
  if (const auto gpu = kernels::gpu_info()) {
    sim::DeviceFacts facts;
    facts.name = gpu->name;
    facts.cc_major = gpu->cc_major;
    facts.cc_minor = gpu->cc_minor;
    facts.sm_count = gpu->sm_count;
    facts.clock_mhz = gpu->clock_mhz;
    facts.memory_gb = gpu->memory_bytes / 1e9;
    const auto preset = sim::preset_from_device(facts);
    if (!preset.from_device) return preset.id;
  }
  return "h100";
}

void SimulationPanel::sync(const RealRunControls& real) {
  controls.shape = shape_override ? *shape_override : animated_shape(real.shape.m, real.shape.n, real.shape.k, animated_cap);
  controls.kernel = kernel_override ? *kernel_override : sim_kernel_for(real.gpu_kernel);
  session.configure(controls);
}

namespace {

// A combo as wide as its longest choice: at 2x text a fixed width cut "this-machine" to "this-ma".
float combo_width(const std::vector<std::string>& choices) {
  float widest = 0;
  for (const auto& c : choices) widest = std::max(widest, ImGui::CalcTextSize(c.c_str()).x);
  return widest + ImGui::GetFrameHeight() + 2 * ImGui::GetStyle().FramePadding.x;
}

// The combo and its label side by side, on the next row when the panel has no room left for them.
void same_line_if_room(float combo_w, const char* label) {
  const auto& style = ImGui::GetStyle();
  ImGui::SameLine();
  const float need = combo_w + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
  if (ImGui::GetContentRegionAvail().x < need) ImGui::NewLine();
}

bool preset_combo(const char* label, std::string& id, const std::vector<std::string>& ids) {
  bool changed = false;
  ImGui::SetNextItemWidth(combo_width(ids));
  if (ImGui::BeginCombo(label, id.c_str())) {
    for (const auto& candidate : ids)
      if (ImGui::Selectable(candidate.c_str(), candidate == id)) {
        changed = candidate != id;
        id = candidate;
      }
    ImGui::EndCombo();
  }
  return changed;
}

bool legend_entry_shown(const LegendEntry& entry, bool tensor) {
  // Only a tensor-core kernel has lanes on the tensor core: the entry would explain nothing else.
  return tensor || entry.value != static_cast<std::uint8_t>(sim::WarpState::on_tensor_core);
}

// The legend's height when wrapped to `width`, as draw_legend lays it out.
float legend_height(bool tensor, float width) {
  const float swatch = std::round(ImGui::GetFontSize() * 0.7f);
  int lines = 1;
  float x = 0;
  for (const auto& entry : lane_legend()) {
    if (!legend_entry_shown(entry, tensor)) continue;
    const float w = swatch + 4 + ImGui::CalcTextSize(T(entry.label)).x;
    if (x > 0 && x + w > width) {
      ++lines;
      x = 0;
    }
    x += w + 14;
  }
  return lines * ImGui::GetTextLineHeightWithSpacing();
}

void draw_legend(bool tensor) {
  const bool light = lane_background() == LaneBackground::light;
  const auto palette = lane_palette(lane_background());
  bool first = true;
  for (const auto& entry : lane_legend()) {
    if (!legend_entry_shown(entry, tensor)) continue;
    const auto& c = palette[entry.value];
    // Wrap before an entry that would run past the panel's edge rather than clip it.
    // The swatch grows with the text, so it stays visible from the back row.
    const float swatch = std::round(ImGui::GetFontSize() * 0.7f);
    const float w = swatch + 4 + ImGui::CalcTextSize(T(entry.label)).x;
    if (!first && ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    first = false;
    ImGui::ColorButton(entry.label, to_imvec(c), ImGuiColorEditFlags_NoTooltip, ImVec2(swatch, swatch));
    // On white the near-white "no cell" swatch needs its edge drawn to be seen at all.
    if (light)
      ImGui::GetWindowDrawList()->AddRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax(),
                                          ImGui::GetColorU32(ImGuiCol_TextDisabled));
    ImGui::SameLine(0, 4);
    ImGui::TextUnformatted(T(entry.label));
    ImGui::SameLine(0, 14);
  }
  ImGui::NewLine();
}

}  // namespace

void SimulationPanel::draw(ImVec2 size, double dt, RealRunControls& real, bool& real_edited,
                           const PanelVisibility& show, bool clean) {
  static const std::vector<std::string> gpu_ids = sim::gpu_ids();
  static const std::vector<std::string> cpu_ids = [] {
    auto ids = sim::cpu_ids();
    if (std::find(ids.begin(), ids.end(), "this-machine") == ids.end()) ids.insert(ids.begin(), "this-machine");
    return ids;
  }();
  // Rows of combos this panel can spare: about a third of a short panel's height at 2x text.
  const bool short_panel = size.y < 14 * ImGui::GetFrameHeightWithSpacing();
  controls_folded = !clean && !hide_controls && short_panel && !controls_unfolded.value_or(false);
  if (controls_folded) {
    // The line itself is the button that unfolds them (an arrow there read as a second Play).
    const std::string block = fmt::format("{0}×{0}", controls.block);
    const std::string text = TF("control.folded", controls.gpu_preset, controls.cpu_preset,
                                sim::to_string(controls.kernel), block);
    // Longer names ("a100-80gb", "regblock", 32×32) take a second line rather than lose the last.
    if (wrapped_button(text, "unfold_controls")) controls_unfolded = true;
  } else if (!clean && !hide_controls) {
    if (short_panel) {
      if (ImGui::ArrowButton("##fold_controls", ImGuiDir_Up)) controls_unfolded = false;
      ImGui::SameLine();
    }
    preset_combo(T("control.gpu_preset"), controls.gpu_preset, gpu_ids);
    same_line_if_room(combo_width(cpu_ids), T("control.cpu_preset"));
    preset_combo(T("control.cpu_preset"), controls.cpu_preset, cpu_ids);
    static const std::vector<std::string> kernel_names = sim::kernel_names();
    same_line_if_room(combo_width(kernel_names), T("control.kernel"));
    ImGui::SetNextItemWidth(combo_width(kernel_names));
    if (ImGui::BeginCombo(T("control.kernel"), sim::to_string(controls.kernel))) {
      for (const auto& name : kernel_names) {
        const sim::Kernel k = *sim::parse_kernel(name);
        if (!ImGui::Selectable(name.c_str(), k == controls.kernel) || k == controls.kernel) continue;
        // Stay with the API the real run uses (CUDA or OpenGL) and switch its kernel to the one this
        // model animates, where that API has one; otherwise animate the choice and leave the real
        // run as it is (the note under the controls says so).
        const std::string real_kernel = real_kernel_for_model(real.gpu_kernel, k);
        if (real_kernel.empty()) {
          kernel_override = k;
        } else {
          real.gpu_kernel = real_kernel;
          kernel_override.reset();
          real_edited = true;
        }
      }
      ImGui::EndCombo();
    }
    static const std::vector<std::string> block_names = {"8×8", "16×16", "32×32"};
    same_line_if_room(combo_width(block_names), T("control.block_size"));
    int block_index = controls.block == 8 ? 0 : controls.block == 16 ? 1 : 2;
    ImGui::SetNextItemWidth(combo_width(block_names));
    if (ImGui::Combo(T("control.block_size"), &block_index, "8×8\00016×16\00032×32\0")) controls.block = 8 << block_index;
  }
  sync(real);

  const auto& shape = controls.shape;
  const bool capped = shape.m != real.shape.m || shape.n != real.shape.n || shape.k != real.shape.k;
  std::string note = TF("sim.animating", format_shape({shape.m, shape.n, shape.k}));
  if (capped) note += TF("sim.real_run_uses", format_shape(real.shape));
  // Which GPU kernel the chip animates is said only where the chip is drawn.
  const bool real_gpu_runs_here = !real.gpu_kernel.empty() && !kernels::unavailable_reason(real.gpu_kernel);
  switch (show.gpu ? model_note(real.gpu_kernel, controls.kernel, real_gpu_runs_here) : ModelNote::none) {
    case ModelNote::nearest: note += TF("sim.nearest_model", real.gpu_kernel, sim::to_string(controls.kernel)); break;
    case ModelNote::other: note += TF("sim.other_model", real.gpu_kernel, sim::to_string(controls.kernel)); break;
    case ModelNote::other_not_here:
      note += TF("sim.other_model_not_here", real.gpu_kernel, sim::to_string(controls.kernel));
      break;
    case ModelNote::none: break;
  }
  // The timeline's room: its text lines and its buttons' rows measured for this frame (the lines
  // change as the run goes on, the rows with the width), plus the rest (separator, spacing) as it
  // was last drawn; before it ever was, an estimate of the rest that errs tall.
  // Where the chip is drawn its place says why nothing was simulated: the timeline would say it again.
  const float text_w = ImGui::GetContentRegionAvail().x;
  TimelineText timeline = show.timeline ? timeline_text(session, !show.gpu, !clean) : TimelineText{};
  const float timeline_text_h = show.timeline ? timeline_text_height(timeline, text_w) : 0;
  const float timeline_controls_h =
      show.timeline && !clean && timeline.simulated ? timeline_controls_height(session, text_w) : 0;
  const float timeline_rest_estimate = ImGui::GetStyle().ItemSpacing.y * 2 + 2;
  const float timeline_h =
      show.timeline ? timeline_text_h + timeline_controls_h + timeline_rest_h.value_or(timeline_rest_estimate) : 0;
  const float min_chip_h = ImGui::GetTextLineHeightWithSpacing() * 5;
  // The note is the panel's one secondary line: where the chip would get less than its minimum (2x
  // text on 720 lines left a generation step's chip 40 px under a two-line note), it is drawn
  // smaller, at the largest size that keeps it to one line, down to 60 %. Those 44 px made the
  // A100's SMs two rows of 27 px there instead of one of 21.
  note_text_scale = 1;
  if (show.gpu) {
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    const float above = ImGui::GetCursorPosY() - ImGui::GetCursorStartPos().y;
    const float note_h = wrapped_text_size(note, text_w).y + spacing;
    if (size.y - above - note_h - timeline_h < min_chip_h) {
      const float one_line_w = ImGui::CalcTextSize(note.c_str()).x;
      note_text_scale = std::clamp(std::floor(text_w / one_line_w * 20.0f) / 20.0f, 0.6f, 1.0f);
    }
  }
  ImGui::SetWindowFontScale(note_text_scale);
  wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), note);  // at the panel's edge, not off it
  ImGui::SetWindowFontScale(1);
  // The chip comes before its legend: where both do not fit (a small window with large text),
  // the legend gives way rather than leave the animation a strip or push text out of the panel.
  const bool tensor = sim::uses_tensor_cores(controls.kernel);
  const float room_below = size.y - (ImGui::GetCursorPosY() - ImGui::GetCursorStartPos().y) - timeline_h;
  // The legend names the chip's lane colours: with no chip it would only take the cores' room.
  // With nothing simulated (being built, or refused) there is no chip for it to name either.
  const bool simulated = session.simulation() != nullptr;
  legend_shown = show.gpu && simulated && room_below - legend_height(tensor, ImGui::GetContentRegionAvail().x) >= min_chip_h;
  if (legend_shown) draw_legend(tensor);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  // With a timeline below, the item spacing after the main row is the timeline's too.
  const float main_h = std::max(24.0f, size.y - (ImGui::GetCursorPosY() - ImGui::GetCursorStartPos().y) - timeline_h -
                                           (show.timeline ? ImGui::GetStyle().ItemSpacing.y : 0));
  // The inspector's lines, and the room it has beside the chip. Where they do not fit (a short
  // panel, large text) its text is drawn smaller rather than scrolled; with nothing selected its
  // only line is a hint to click, which is left out rather than shrunk or cut.
  // With nothing simulated there is nothing to inspect, and an empty box would look broken.
  bool inspector = show.inspector && !clean && simulated;
  const float inspector_room = show.cpu || show.matrix ? main_h * 0.6f : main_h;
  // At most 520 px beside the chip, or fifteen lines' height where the text is larger: at 3x text
  // on 1440 lines the 520 px left the eight CPU cards of the step on transistors a name and a bar
  // while the chip had 1,700 px.
  const float side_w_max = std::max(520.0f, 15.0f * ImGui::GetTextLineHeight());
  float side_w_if_shown = !show.gpu ? avail.x : std::clamp(avail.x * 0.36f, 300.0f, side_w_max);
  const float inspector_padding = 2 * ImGui::GetStyle().WindowPadding.x;
  const auto inspector_height_at = [&](float side_w) {
    return inspector ? ImGui::GetTextLineHeightWithSpacing() *
                           inspector_lines(session, gpu_view.selection, selected_core, side_w - inspector_padding)
                     : 0.0f;
  };
  float inspector_want_h = inspector_height_at(side_w_if_shown);
  // The inspector alone beside the chip (a step on one warp), its text too tall for its box, may
  // take up to 45 % of the width: at 2x text on 1280x720 its four lines, wrapped into 455 px, were
  // drawn at half size.
  if (inspector && show.gpu && !show.cpu && !show.matrix && inspector_want_h > inspector_room &&
      avail.x * 0.45f > side_w_if_shown) {
    side_w_if_shown = std::floor(avail.x * 0.45f);
    inspector_want_h = inspector_height_at(side_w_if_shown);
  }
  const float inspector_text_w = side_w_if_shown - inspector_padding;
  if (inspector && inspector_want_h > inspector_room && !gpu_view.selection.valid() && selected_core < 0)
    inspector = false;
  float inspector_scale = 1;
  if (inspector && inspector_want_h > inspector_room) {
    // Smaller text wraps into fewer lines, so the scale is the largest whose own wrapping fits:
    // scaling by the full-size line count left 2x text at 64 % on 1080 lines (75 % now) in a box
    // a third empty once the shorter lines had unwrapped.
    const float spacing = ImGui::GetStyle().ItemSpacing.y, line_h = ImGui::GetTextLineHeight();
    for (inspector_scale = 0.95f; inspector_scale > 0.5f; inspector_scale -= 0.05f) {
      const int lines = inspector_lines(session, gpu_view.selection, selected_core, inspector_text_w / inspector_scale);
      inspector_want_h = lines * (line_h * inspector_scale + spacing);
      if (inspector_want_h <= inspector_room) break;
    }
    inspector_scale = std::max(inspector_scale, 0.5f);
  }
  // The hint to click a lane gives way to the cores' cards: at 1.5x text on 1280x720 it left the
  // two cards a sliver each, too thin for their names.
  // Without the chip the panel is wide and often short (a lecture step's caption takes the
  // rest): the cores and the matrix stand side by side at full height instead of stacked.
  const bool across = !show.gpu && show.cpu && show.matrix;
  const float share = across ? 1.0f : show.cpu && show.matrix ? 0.5f : show.cpu ? 1.0f : 0.0f;
  const float cpu_min = show.cpu && show.gpu ? cpu_view_min_height(session, side_w_if_shown) : 0;
  const bool hint_only = !gpu_view.selection.valid() && selected_core < 0;
  if (inspector && hint_only && (main_h - std::min(inspector_room, inspector_want_h)) * share < cpu_min)
    inspector = false;
  // The cores and the matrix are drawn from a simulation too: without one the chip's place, which
  // then says why, takes the whole width.
  const bool side = simulated && (show.cpu || show.matrix || inspector);
  const float side_w = !show.gpu || side ? side_w_if_shown : 0;
  auto rect_here = [](ImVec2 size) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    return Rect{p.x, p.y, size.x, size.y};
  };
  chip_rect = cpu_rect = matrix_rect = Rect{};
  cpu_shown = {};
  inspector_text_scale = 0;
  if (show.gpu) {
    chip_rect = rect_here(ImVec2(avail.x - side_w - (side ? 8 : 0), main_h));
    gpu_view.draw(session, ImVec2(chip_rect.w, main_h), dt);
    if (side) ImGui::SameLine(0, 8);  // the 8 px left beside the chip above, whatever the style's spacing
  }
  if (side) {
    ImGui::BeginGroup();
    const float inspector_h = inspector ? std::min(inspector_room, inspector_want_h) : 0;
    float cpu_h = (main_h - inspector_h) * share;
    // Stacked above the matrix, the cores take the height their cards need when the matrix is
    // left three lines.
    if (show.cpu && show.matrix && !across)
      cpu_h = std::max(cpu_h, std::min(cpu_min, main_h - inspector_h - 8 - 3 * ImGui::GetTextLineHeightWithSpacing()));
    // Side by side, the cores' "simulated: ..." label and the matrix's "CPU's C: ..." are the same
    // amber on one line: 8 px apart at 2x text they read as one sentence ("... Xeon Processor CPU's
    // C: 0.54 %"). A text line's height apart they read as two; the gap comes out of the matrix's
    // share, as the cores' cards need all of theirs to name their parts at 2x text on 720 lines.
    const float across_gap = std::max(8.0f, std::floor(ImGui::GetTextLineHeight()));
    const float cpu_w = across ? std::floor((side_w - 8) * 0.55f) : side_w;
    if (show.cpu) {
      cpu_rect = rect_here(ImVec2(cpu_w, cpu_h));
      const int clicked = draw_cpu_view(session, ImVec2(cpu_w, cpu_h), selected_core, &cpu_shown, large_font, !show.gpu);
      if (clicked >= 0) {
        selected_core = clicked;
        gpu_view.selection = {};
      }
      if (across) ImGui::SameLine(0, across_gap);
    }
    if (show.matrix) {
      const float matrix_w = across ? side_w - cpu_w - across_gap : side_w;
      const float matrix_h = across ? cpu_h : main_h - inspector_h - cpu_h - 8;
      matrix_rect = rect_here(ImVec2(matrix_w, matrix_h));
      matrix_view.show_gpu_c = show.gpu;
      matrix_view.show_cpu_c = show.cpu;
      matrix_view.draw(session, ImVec2(matrix_w, matrix_h));
    }
    if (inspector) {
      ImGui::BeginChild("inspector", ImVec2(side_w, inspector_h), true);
      ImGui::SetWindowFontScale(inspector_scale);  // window state: set on every frame, 1 included
      inspector_text_scale = inspector_scale;
      draw_inspector(session, gpu_view.selection, selected_core);
      ImGui::EndChild();
    }
    ImGui::EndGroup();
  }
  if (show.timeline) {
    const float top = ImGui::GetCursorPosY();
    ImGui::Separator();
    draw_timeline(session, timeline, clean, &scrub);
    timeline_rest_h = ImGui::GetCursorPosY() - top - timeline_text_h - timeline_controls_h;
  }
}

}  // namespace ws::app
