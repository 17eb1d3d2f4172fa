#include "gui/matrix_view.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <imgui.h>

#include "core/lane_texels.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

// Pixels a highlighted row, column or cell is drawn with at least, whatever the matrix's scale:
// a 1-pixel row of a 256-row matrix cannot be seen from the back of a room.
constexpr float kMinBandPx = 8.0f;
constexpr float kMinCellPx = 12.0f;

// How draw_matrix divides `box`: with a highlighted cell, a strip for A (left) and B (above);
// C's square cells fitted in the rest.
struct MatrixGeometry {
  bool operands;
  float strip, inset, scale;
};
MatrixGeometry matrix_geometry(int m, int n, ImVec2 box, MatrixView::Cell highlight) {
  const bool operands = highlight.row >= 0 && highlight.row < m && highlight.col >= 0 && highlight.col < n;
  const float gap = 6.0f;
  const float strip = operands ? std::floor(std::clamp(std::min(box.x, box.y) * 0.22f, 16.0f, 80.0f)) : 0.0f;
  const float inset = operands ? strip + gap : 0.0f;
  return {operands, strip, inset, std::max(0.0f, std::min((box.x - inset) / n, (box.y - inset) / m))};
}
// The width draw_matrix fills of `box`.
float matrix_width(int m, int n, ImVec2 box, MatrixView::Cell highlight) {
  const MatrixGeometry g = matrix_geometry(m, n, box, highlight);
  return g.inset + n * g.scale;
}

// What draw_matrix drew: C's side in pixels, and the highlight's sizes.
struct DrawnMatrix {
  float side_px = 0;
  MatrixView::HighlightReport highlight;
};

// Draws C (m x n) in `box`. With a highlighted cell, A (m x k, left) and B (k x n, above) are drawn
// beside it as outlines with row `row` of A and column `col` of B filled: the dot product that
// makes that cell. Their k side is a fixed strip (A and B have no per-cell state to show).
DrawnMatrix draw_matrix(CellGridRenderer& renderer, const std::vector<std::uint8_t>* fresh_cells, int m, int n,
                        ImVec2 box, MatrixView::Cell highlight) {
  GridLayout layout;
  layout.blocks = 1;
  layout.block_columns = 1;
  layout.cells_x = n;
  layout.cells_y = m;
  layout.gap = 0;
  std::array<ImVec4, 16> palette;
  const auto op = owner_palette(lane_background());
  for (int i = 0; i < 16; ++i) palette[i] = to_imvec(op[i]);
  renderer.set_palette(palette, ImGui::GetStyleColorVec4(ImGuiCol_WindowBg), ImVec4(0, 0, 0, 1), ImVec4(1, 1, 0, 1));
  if (fresh_cells != nullptr) renderer.upload(*fresh_cells, layout);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const auto [operands, strip, inset, scale] = matrix_geometry(m, n, box, highlight);
  GridView view;
  view.scale = scale;
  const ImVec2 c0(at.x + inset, at.y + inset);
  ImGui::SetCursorScreenPos(c0);
  renderer.draw(ImVec2(std::max(1.0f, n * scale), std::max(1.0f, m * scale)), view);
  DrawnMatrix report;
  report.side_px = n * scale;
  if (!operands) return report;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 white = IM_COL32(255, 255, 255, 255), rim = IM_COL32(0, 0, 0, 255);
  const ImU32 operand_fill = IM_COL32(90, 90, 100, 255);
  // On white, a white row read as a gap in the strip and white guides vanished over pale cells:
  // there the row and column are amber and the guides dark.
  const bool light = lane_background() == LaneBackground::light;
  const ImU32 band_fill = light ? IM_COL32(245, 170, 0, 255) : white;
  const ImU32 guide = light ? IM_COL32(0, 0, 0, 140) : IM_COL32(255, 255, 255, 110);
  const float c_w = n * scale, c_h = m * scale;
  // A: left of C, its rows level with C's; B: above C, its columns level with C's.
  const ImVec2 a0(at.x, c0.y), a1(at.x + strip, c0.y + c_h);
  const ImVec2 b0(c0.x, at.y), b1(c0.x + c_w, at.y + strip);
  dl->AddRectFilled(a0, a1, operand_fill);
  dl->AddRectFilled(b0, b1, operand_fill);
  const float row_mid = c0.y + (highlight.row + 0.5f) * scale, col_mid = c0.x + (highlight.col + 0.5f) * scale;
  const float band = std::max(scale, kMinBandPx);
  const ImVec2 r0(a0.x, row_mid - band / 2), r1(a1.x, row_mid + band / 2);
  const ImVec2 k0(col_mid - band / 2, b0.y), k1(col_mid + band / 2, b1.y);
  dl->AddRectFilled(r0, r1, band_fill);
  dl->AddRectFilled(k0, k1, band_fill);
  // Guides from the row and the column to the cell they make: thin and translucent, so the cells
  // of C under them still show their colour.
  dl->AddLine(ImVec2(a1.x, row_mid), ImVec2(col_mid, row_mid), guide, 1.0f);
  dl->AddLine(ImVec2(col_mid, b1.y), ImVec2(col_mid, row_mid), guide, 1.0f);
  // The cell: an outline around it, outside its edge, so its own colour (done or not) shows.
  const float side = std::max(scale, kMinCellPx);
  const ImVec2 cell0(col_mid - side / 2, row_mid - side / 2), cell1(col_mid + side / 2, row_mid + side / 2);
  dl->AddRect(ImVec2(cell0.x - 3, cell0.y - 3), ImVec2(cell1.x + 3, cell1.y + 3), rim, 0, 0, 4.0f);
  dl->AddRect(ImVec2(cell0.x - 2, cell0.y - 2), ImVec2(cell1.x + 2, cell1.y + 2), white, 0, 0, 2.0f);
  // "A" and "B" where the strip is wide enough to hold the letter whole: at the strip's start,
  // or at its end where the highlighted row (column) would run through the letter there.
  const ImVec2 letter = ImGui::CalcTextSize("A");
  if (strip >= letter.x + 4 && c_h >= 3 * letter.y) {
    const bool band_at_start = r0.y < a0.y + 2 + letter.y;
    const float y = band_at_start ? a1.y - 2 - letter.y : a0.y + 2;
    dl->AddText(ImVec2(a0.x + (strip - letter.x) / 2, y), white, "A");
  }
  if (strip >= letter.y + 4 && c_w >= 3 * letter.x) {
    const bool band_at_start = k0.x < b0.x + 2 + letter.x;
    const float x = band_at_start ? b1.x - 2 - letter.x : b0.x + 2;
    dl->AddText(ImVec2(x, b0.y + (strip - letter.y) / 2), white, "B");
  }
  report.highlight.row_px = r1.y - r0.y;
  report.highlight.col_px = k1.x - k0.x;
  report.highlight.cell_px = side;
  return report;
}

}  // namespace

void MatrixView::draw(const SimSession& session, ImVec2 size) {
  ImGui::BeginChild("matrix_view", size, false, ImGuiWindowFlags_NoScrollbar);
  highlight_drawn = {};
  shown_count = 0;
  side_px = 0;
  const sim::Simulation* s = session.simulation();
  if (!s || !gpu_renderer_.ready()) {
    ImGui::EndChild();
    return;
  }
  const auto shape = s->config().shape;
  const long long total = static_cast<long long>(shape.m) * shape.n;
  // The C of each worker the panels show: a step on the CPU alone has no use for the GPU's empty
  // C, nor a step on waves for the CPU's (at 1920x1080 each was a 256 px square, half of the
  // column). With neither worker on screen (the dot-product step), both.
  const bool gpu_c = show_gpu_c || !show_cpu_c;
  const bool cpu_c = show_cpu_c || !show_gpu_c;
  // C at 2048² is 4 M cells a side: encoded and uploaded only when the cycle moved, and only the
  // matrices drawn (each remembers what it holds, so one shown again later is brought up to date).
  const Encoded now{session.generation(), s->cycle()};
  const bool gpu_fresh = gpu_c && gpu_encoded_ != now;
  const bool cpu_fresh = cpu_c && cpu_encoded_ != now;
  if (gpu_fresh) {
    gpu_cells_.resize(total);
    encode_gpu_matrix(*s, gpu_cells_);
    gpu_encoded_ = now;
  }
  if (cpu_fresh) {
    cpu_cells_.resize(total);
    encode_cpu_matrix(*s, cpu_cells_);
    cpu_encoded_ = now;
  }
  const int count = gpu_c && cpu_c ? 2 : 1;
  const float full = ImGui::GetContentRegionAvail().x;
  const float col_w = count == 2 ? (full - 8) / 2 : full;
  const std::string gpu_done = fmt::format("{:.1f}", 100.0 * s->c_done_count() / total);
  const std::string cpu_done = fmt::format("{:.2f}", 100.0 * s->cpu_cells_done() / total);
  auto gpu_label = TF("matrix.gpu_c", gpu_done);
  auto cpu_label = TF("matrix.cpu_c", cpu_done);
  const char* note = T("matrix.colour_note");
  // Each label on one line of its column: "GPU's C: 25.8 %", else "GPU 25.8%", else "GPU". Wrapped,
  // ImGui broke them after a full stop ("CPU's C: 0." / "00 %"). The note wraps inside the
  // panel; the matrices get the height that is left.
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float line = ImGui::GetTextLineHeight();
  const auto widest = [&] {
    return std::max(gpu_c ? ImGui::CalcTextSize(gpu_label.c_str()).x : 0.0f,
                    cpu_c ? ImGui::CalcTextSize(cpu_label.c_str()).x : 0.0f);
  };
  if (widest() > col_w) {
    gpu_label = TF("matrix.gpu_c_brief", gpu_done);
    cpu_label = TF("matrix.cpu_c_brief", cpu_done);
  }
  if (widest() > col_w) {
    gpu_label = "GPU";
    cpu_label = "CPU";
  }
  const float label_h = line;
  const float note_h = wrapped_text_size(note, full).y;
  // Where the labels and the colour note go: each label above its matrix or left of it (a wide,
  // short strip), the note under the matrices, right of the last one (the matrices then take its
  // line: the dot-product step at 2x text on 720 lines, 98 -> 132 px), or left out; whole lines
  // left out, never half of one cut off. Of the layouts that fit, the one that draws C largest,
  // labels above on a near tie (one C beside the chip at 2x text: 76 -> 118 px on 720 lines with
  // its label beside it).
  const float room = ImGui::GetContentRegionAvail().y;
  const float min_box = 2 * line;
  const float gap_x = ImGui::GetStyle().ItemSpacing.x;
  struct Layout {
    bool labels = false, labels_beside = false, note_below = false;
    float side_w = 0, box_h = 0, note_beside_w = 0, scale = -1;  // scale -1: does not fit
  };
  const auto plan = [&](bool beside) {
    Layout l;
    l.labels = true;
    l.labels_beside = beside;
    l.side_w = beside ? widest() + gap_x : 0;
    const float box_w = col_w - l.side_w;
    const float tall_h = room - (beside ? 0 : label_h + spacing) - spacing;
    // A label beside needs only its own line's height: in the shortest strips the matrices are
    // no taller than the label, and still named.
    if (box_w < min_box || tall_h < (beside ? line - spacing : min_box)) return l;
    const float drawn_w = matrix_width(shape.m, shape.n, ImVec2(box_w, tall_h), highlight_cell);
    const float free_w = box_w - std::max(drawn_w, beside ? 0.0f : widest()) - gap_x;
    const auto scale_at = [&](float h) { return matrix_geometry(shape.m, shape.n, ImVec2(box_w, h), highlight_cell).scale; };
    l.box_h = std::max(8.0f, tall_h);
    if (free_w >= 6 * line && wrapped_text_size(note, free_w).y <= tall_h) {
      l.note_beside_w = free_w;
    } else if (const float below_h = tall_h - note_h - spacing;
               below_h >= min_box && scale_at(below_h) >= 0.8f * scale_at(l.box_h)) {
      // The note under C only where it costs C a fifth of its side at most: under a lone C in a
      // short strip (the waves step in Korean at 2x text on 720 lines) it took 40 % of it.
      l.note_below = true;
      l.box_h = below_h;
    }
    l.scale = scale_at(l.box_h);
    return l;
  };
  Layout layout = plan(false);
  if (layout.scale < 0 && col_w - (widest() + gap_x) < min_box) {
    // No line for the labels above, nor the width for them whole beside: "GPU" and "CPU".
    gpu_label = "GPU";
    cpu_label = "CPU";
  }
  // Labels beside where they draw C larger, unless that leaves out a note the labels above keep
  // at three quarters of the size or more (the CPU step at 2x text on 720 lines: 171 px with the
  // note beside C, 213 without it).
  const auto has_note = [](const Layout& l) { return l.note_below || l.note_beside_w > 0; };
  if (const Layout beside = plan(true);
      beside.scale > 1.05f * layout.scale &&
      !(has_note(layout) && !has_note(beside) && layout.scale >= 0.75f * beside.scale))
    layout = beside;
  if (layout.scale < 0) {
    layout = {};
    layout.box_h = std::max(8.0f, room - spacing);
  }
  const bool show_labels = layout.labels && !layout.labels_beside;
  const bool side_labels = layout.labels && layout.labels_beside;
  const float side_w = layout.side_w, box_h = layout.box_h, note_beside_w = layout.note_beside_w;
  shown_count = count;
  auto labelled_matrix = [&](const std::string& label, CellGridRenderer& renderer, const std::vector<std::uint8_t>& cells,
                             bool fresh) {
    ImGui::BeginGroup();
    if (show_labels) wrapped_text(colour_simulated(), label, ImGui::GetCursorPosX() + col_w);
    if (side_labels) {
      ImGui::TextColored(colour_simulated(), "%s", label.c_str());
      ImGui::SameLine(0, 0);
      ImGui::SetCursorPosX(ImGui::GetCursorPosX() + side_w - ImGui::CalcTextSize(label.c_str()).x);
    }
    const float box_w = side_labels ? col_w - side_w : col_w;
    const auto drawn =
        draw_matrix(renderer, fresh ? &cells : nullptr, shape.m, shape.n, ImVec2(box_w, box_h), highlight_cell);
    side_px = std::max(side_px, drawn.side_px);
    highlight_drawn.row_px = std::max(highlight_drawn.row_px, drawn.highlight.row_px);
    highlight_drawn.col_px = std::max(highlight_drawn.col_px, drawn.highlight.col_px);
    highlight_drawn.cell_px = std::max(highlight_drawn.cell_px, drawn.highlight.cell_px);
    ImGui::EndGroup();
  };
  if (gpu_c) labelled_matrix(gpu_label, gpu_renderer_, gpu_cells_, gpu_fresh);
  if (count == 2) ImGui::SameLine(col_w + 8);
  if (cpu_c) labelled_matrix(cpu_label, cpu_renderer_, cpu_cells_, cpu_fresh);
  if (note_beside_w > 0) {
    // Level with the matrices, under the labels: a group, as a cursor moved down within the
    // line would count the move twice in the line's height (ImGui 1.86) and overflow the panel.
    ImGui::SameLine();
    ImGui::BeginGroup();
    if (show_labels) ImGui::Dummy(ImVec2(1, label_h));
    wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), note, ImGui::GetCursorPosX() + note_beside_w);
    ImGui::EndGroup();
  } else if (layout.note_below) {
    wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), note);
  }
  ImGui::EndChild();
}

}  // namespace ws::app
