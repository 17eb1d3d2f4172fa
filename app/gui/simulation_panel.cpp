#include "gui/simulation_panel.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <imgui.h>

#include "core/lane_texels.hpp"
#include "core/measured_text.hpp"
#include "gui/cpu_view.hpp"
#include "gui/inspector.hpp"
#include "gui/presentation.hpp"
#include "gui/theme.hpp"
#include "gui/timeline.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

sim::Kernel sim_kernel_for(const std::string& real_gpu_kernel) {
  // The nearest modelled kernel: cuBLAS and gl-regblock block registers, which the model does not
  // (yet), so they animate as tiled, and the panel says so.
  return real_gpu_kernel == "cuda-naive" || real_gpu_kernel == "gl-naive" ? sim::Kernel::naive : sim::Kernel::tiled;
}

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

bool preset_combo(const char* label, std::string& id, const std::vector<std::string>& ids) {
  bool changed = false;
  ImGui::SetNextItemWidth(150);
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

void draw_legend() {
  const auto palette = lane_palette();
  for (const auto& entry : lane_legend()) {
    const auto& c = palette[entry.value];
    ImGui::ColorButton(entry.label, ImVec4(c.r, c.g, c.b, 1), ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
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
  if (!clean) {
    preset_combo(T("control.gpu_preset"), controls.gpu_preset, gpu_ids);
    ImGui::SameLine();
    preset_combo(T("control.cpu_preset"), controls.cpu_preset, cpu_ids);
    ImGui::SameLine();
    int kernel = controls.kernel == sim::Kernel::naive ? 0 : 1;
    ImGui::SetNextItemWidth(90);
    if (ImGui::Combo(T("control.kernel"), &kernel, "naive\0tiled\0")) {
      if (real.gpu_kernel.empty()) {
        // No GPU kernel runs here: animate the choice without starting a real run.
        kernel_override = kernel == 0 ? sim::Kernel::naive : sim::Kernel::tiled;
      } else {
        // Stay with the API the real run uses: CUDA or OpenGL.
        const std::string family = kernels::is_gl_kernel(real.gpu_kernel) ? "gl-" : "cuda-";
        real.gpu_kernel = family + (kernel == 0 ? "naive" : "tiled");
        kernel_override.reset();
        real_edited = true;
      }
    }
    ImGui::SameLine();
    int block_index = controls.block == 8 ? 0 : controls.block == 16 ? 1 : 2;
    ImGui::SetNextItemWidth(80);
    if (ImGui::Combo(T("control.block_size"), &block_index, "8×8\00016×16\00032×32\0")) controls.block = 8 << block_index;
  }
  sync(real);

  const auto& shape = controls.shape;
  const bool capped = shape.m != real.shape.m || shape.n != real.shape.n || shape.k != real.shape.k;
  std::string note = "animating " + format_shape({shape.m, shape.n, shape.k});
  if (capped) note += " (the real run uses " + format_shape(real.shape) + ")";
  if (real.gpu_kernel == "cublas") note += "; cuBLAS is not modelled, tiled is animated";
  if (real.gpu_kernel == "gl-regblock") note += "; register blocking is not modelled yet, tiled is animated";
  ImGui::TextDisabled("%s", note.c_str());
  draw_legend();

  const float timeline_h = show.timeline ? ImGui::GetTextLineHeightWithSpacing() * 3 + 12 : 0;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float main_h = std::max(50.0f, size.y - (ImGui::GetCursorPosY() - ImGui::GetCursorStartPos().y) - timeline_h);
  const bool side = show.cpu || show.matrix || (show.inspector && !clean);
  const float side_w = !show.gpu ? avail.x : side ? std::clamp(avail.x * 0.36f, 300.0f, 520.0f) : 0;
  auto rect_here = [](ImVec2 size) {
    const ImVec2 p = ImGui::GetCursorScreenPos();
    return Rect{p.x, p.y, size.x, size.y};
  };
  chip_rect = cpu_rect = matrix_rect = Rect{};
  if (show.gpu) {
    chip_rect = rect_here(ImVec2(avail.x - side_w - (side ? 8 : 0), main_h));
    gpu_view.draw(session, ImVec2(chip_rect.w, main_h), dt);
    if (side) ImGui::SameLine();
  }
  if (side) {
    ImGui::BeginGroup();
    const bool inspector = show.inspector && !clean;
    const float inspector_h = inspector ? ImGui::GetTextLineHeightWithSpacing() * 5 : 0;
    const float share = show.cpu && show.matrix ? 0.5f : show.cpu ? 1.0f : 0.0f;
    const float cpu_h = (main_h - inspector_h) * share;
    if (show.cpu) {
      cpu_rect = rect_here(ImVec2(side_w, cpu_h));
      const int clicked = draw_cpu_view(session, ImVec2(side_w, cpu_h), selected_core);
      if (clicked >= 0) {
        selected_core = clicked;
        gpu_view.selection = {};
      }
    }
    if (show.matrix) {
      matrix_rect = rect_here(ImVec2(side_w, main_h - inspector_h - cpu_h - 8));
      matrix_view.draw(session, ImVec2(side_w, matrix_rect.h));
    }
    if (inspector) {
      ImGui::BeginChild("inspector", ImVec2(side_w, inspector_h), true);
      draw_inspector(session, gpu_view.selection, selected_core);
      ImGui::EndChild();
    }
    ImGui::EndGroup();
  }
  if (show.timeline) {
    ImGui::Separator();
    draw_timeline(session, clean);
  }
}

}  // namespace ws::app
