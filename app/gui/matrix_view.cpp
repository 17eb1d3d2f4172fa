#include "gui/matrix_view.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <imgui.h>

#include "core/lane_texels.hpp"
#include "gui/presentation.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

void draw_matrix(CellGridRenderer& renderer, const std::vector<std::uint8_t>* fresh_cells, int m, int n, ImVec2 box,
                 MatrixView::Cell highlight) {
  GridLayout layout;
  layout.blocks = 1;
  layout.block_columns = 1;
  layout.cells_x = n;
  layout.cells_y = m;
  layout.gap = 0;
  std::array<ImVec4, 16> palette;
  const auto op = owner_palette();
  for (int i = 0; i < 16; ++i) palette[i] = ImVec4(op[i].r, op[i].g, op[i].b, op[i].a);
  renderer.set_palette(palette, ImGui::GetStyleColorVec4(ImGuiCol_WindowBg), ImVec4(0, 0, 0, 1), ImVec4(1, 1, 0, 1));
  if (fresh_cells != nullptr) renderer.upload(*fresh_cells, layout);
  // Keep cells square: the matrix's aspect, fitted in the box.
  const float scale = std::min(box.x / n, box.y / m);
  GridView view;
  view.scale = scale;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  renderer.draw(ImVec2(std::max(1.0f, n * scale), std::max(1.0f, m * scale)), view);
  if (highlight.row >= 0 && highlight.row < m && highlight.col >= 0 && highlight.col < n) {
    const float side = std::max(scale, 4.0f);
    const ImVec2 a(at.x + highlight.col * scale - (side - scale) / 2, at.y + highlight.row * scale - (side - scale) / 2);
    ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + side + 1, a.y + side + 1),
                                        IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
  }
}

}  // namespace

void MatrixView::draw(const SimSession& session, ImVec2 size) {
  ImGui::BeginChild("matrix_view", size, false, ImGuiWindowFlags_NoScrollbar);
  const sim::Simulation* s = session.simulation();
  if (!s || !gpu_renderer_.ready()) {
    ImGui::EndChild();
    return;
  }
  const auto shape = s->config().shape;
  const long long total = static_cast<long long>(shape.m) * shape.n;
  // C at 2048² is 4 M cells a side: encoded and uploaded only when the cycle moved.
  const bool fresh = session.generation() != encoded_generation_ || s->cycle() != encoded_cycle_;
  if (fresh) {
    gpu_cells_.resize(total);
    cpu_cells_.resize(total);
    encode_gpu_matrix(*s, gpu_cells_);
    encode_cpu_matrix(*s, cpu_cells_);
    encoded_generation_ = session.generation();
    encoded_cycle_ = s->cycle();
  }
  const float half = (ImGui::GetContentRegionAvail().x - 8) / 2;
  const float full = ImGui::GetContentRegionAvail().x;
  const auto gpu_label = TF("matrix.gpu_c", fmt::format("{:.1f}", 100.0 * s->c_done_count() / total));
  const auto cpu_label = TF("matrix.cpu_c", fmt::format("{:.2f}", 100.0 * s->cpu_cells_done() / total));
  const char* note = T("matrix.colour_note");
  // Labels wrap inside their half and the note inside the panel (at 2x text neither fits on one
  // line); the matrices get the height that is left.
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float label_h = std::max(ImGui::CalcTextSize(gpu_label.c_str(), nullptr, false, half).y,
                                 ImGui::CalcTextSize(cpu_label.c_str(), nullptr, false, half).y);
  const float note_h = ImGui::CalcTextSize(note, nullptr, false, full).y;
  // In a panel too short for all of it (2x text on a 720-line screen) the note goes first, then
  // the labels: whole lines left out, never half of one cut off.
  const float room = ImGui::GetContentRegionAvail().y;
  const float min_box = 3 * ImGui::GetTextLineHeight();
  const bool show_note = room - label_h - note_h - 3 * spacing >= min_box;
  const bool show_labels = room - label_h - 2 * spacing >= min_box;
  const float box_h = std::max(8.0f, room - (show_labels ? label_h + spacing : 0) - (show_note ? note_h + spacing : 0) - spacing);
  auto labelled_matrix = [&](const std::string& label, CellGridRenderer& renderer, const std::vector<std::uint8_t>& cells) {
    ImGui::BeginGroup();
    if (show_labels) {
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + half);
      ImGui::PushStyleColor(ImGuiCol_Text, colour_simulated());
      ImGui::TextWrapped("%s", label.c_str());
      ImGui::PopStyleColor();
      ImGui::PopTextWrapPos();
    }
    draw_matrix(renderer, fresh ? &cells : nullptr, shape.m, shape.n, ImVec2(half, box_h), highlight_cell);
    ImGui::EndGroup();
  };
  labelled_matrix(gpu_label, gpu_renderer_, gpu_cells_);
  ImGui::SameLine(half + 8);
  labelled_matrix(cpu_label, cpu_renderer_, cpu_cells_);
  if (show_note) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", note);
    ImGui::PopStyleColor();
  }
  ImGui::EndChild();
}

}  // namespace ws::app
