#include "gui/gpu_view.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>
#include <imgui.h>

#include "core/lane_texels.hpp"
#include "core/sim_refusal_text.hpp"
#include "gui/presentation.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

// Columns of SMs that make the chip as large as possible in the region.
int best_columns(int blocks, float cell_w, float cell_h, ImVec2 region) {
  int best = 1;
  float best_scale = 0;
  for (int cols = 1; cols <= blocks; ++cols) {
    const int rows = (blocks + cols - 1) / cols;
    const float scale = std::min(region.x / (cols * cell_w), region.y / (rows * cell_h));
    if (scale > best_scale) {
      best_scale = scale;
      best = cols;
    }
  }
  return best;
}

}  // namespace

void GpuView::fit_layout(const sim::Simulation& s, ImVec2 size) {
  layout_.blocks = s.sm_count();
  layout_.cells_x = s.lanes_per_warp();
  layout_.cells_y = s.warp_slots_per_sm();
  layout_.gap = 4;
  layout_.block_columns = best_columns(layout_.blocks, layout_.cells_x + layout_.gap, layout_.cells_y + layout_.gap, size);
}

void GpuView::focus_world_rect(float x0, float y0, float x1, float y1) {
  const float margin = 1.08f;
  const float w = (x1 - x0) * margin, h = (y1 - y0) * margin;
  const float scale = std::min(region_.x / w, region_.y / h);
  target_.scale = std::clamp(scale, 0.05f, 200.0f);
  target_.origin_x = (x0 + x1) / 2 - region_.x / target_.scale / 2;
  target_.origin_y = (y0 + y1) / 2 - region_.y / target_.scale / 2;
}

namespace {
// The view's origin on one axis, moved so that the `visible` stretch from it shows nothing outside
// [lo, hi] where it can, and centred on [lo, hi] where that is shorter than the view.
float kept_within(float origin, float visible, float lo, float hi) {
  return visible >= hi - lo ? (lo + hi) / 2 - visible / 2 : std::clamp(origin, lo, hi - visible);
}
}  // namespace

// A warp near the top of its SM was centred with half the view empty above it (SM 0's warp 0 in
// the lesson's step on warps): the view stays within the SM's rows, one row spare above for its
// name, while the SM is taller than the view, else it shows the SM whole.
void GpuView::keep_rows_within(float top, float bottom) {
  target_.origin_y = kept_within(target_.origin_y, region_.y / target_.scale, top, bottom);
}

// SM 0, at the chip's left edge, was centred with a third of the view empty to its left while
// SM 2 ran under the inspector: a zoom keeps the view on the chip, as the rows above.
void GpuView::keep_columns_within(float left, float right) {
  target_.origin_x = kept_within(target_.origin_x, region_.x / target_.scale, left, right);
}

void GpuView::zoom_to_chip() { pending_ = Pending::chip; }
void GpuView::zoom_to_sm(int sm) { pending_ = Pending::sm, pending_sm_ = sm; }
void GpuView::zoom_to_warp(int sm, int slot) { pending_ = Pending::warp, pending_sm_ = sm, pending_slot_ = slot; }
void GpuView::zoom_to_lane(int sm, int slot, int lane) {
  pending_ = Pending::lane, pending_sm_ = sm, pending_slot_ = slot, pending_lane_ = lane;
}

void GpuView::zoom_by(float factor) {
  const float cx = target_.origin_x + region_.x / target_.scale / 2;
  const float cy = target_.origin_y + region_.y / target_.scale / 2;
  target_.scale = std::clamp(target_.scale * factor, 0.05f, 200.0f);
  target_.origin_x = cx - region_.x / target_.scale / 2;
  target_.origin_y = cy - region_.y / target_.scale / 2;
}

void GpuView::draw(SimSession& session, ImVec2 size, double dt) {
  ImGui::BeginChild("gpu_view", size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  outlines = {};  // a frame that draws no chip has no outlines
  const sim::Simulation* s = session.simulation();
  size = ImGui::GetContentRegionAvail();
  if (!s) {
    // Wrapped, never cut. A refusal's reason is what the panel has to say then: in the text's own
    // colour, not greyed like the passing "simulating" note.
    if (session.building())
      wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), T("sim.simulating_launch"));
    else
      wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_Text), sim_refusal_words(session.error(), ui_language()));
    ImGui::EndChild();
    return;
  }
  if (!renderer_.ready()) {
    wrapped_text(colour_error(), TF("sim.cannot_draw", renderer_.error()));
    ImGui::EndChild();
    return;
  }
  region_ = size;
  if (session.generation() != laid_out_for_) {
    fit_layout(*s, size);
    laid_out_for_ = session.generation();
    if (pending_ == Pending::none) pending_ = Pending::chip;
  }
  // Resolve a requested zoom now that the layout (and so world coordinates) is known.
  const float pitch_x = layout_.cells_x + layout_.gap, pitch_y = layout_.cells_y + layout_.gap;
  auto sm_x = [&](int sm) { return (sm % layout_.block_columns) * pitch_x; };
  auto sm_y = [&](int sm) { return (sm / layout_.block_columns) * pitch_y; };
  const bool first_fit = view_.scale <= 1e-6f;
  switch (pending_) {
    case Pending::chip: focus_world_rect(-layout_.gap, -layout_.gap, layout_.world_width(), layout_.world_height()); break;
    case Pending::sm: {
      const int sm = std::clamp(pending_sm_, 0, layout_.blocks - 1);
      focus_world_rect(sm_x(sm) - 1, sm_y(sm) - 1, sm_x(sm) + layout_.cells_x + 1, sm_y(sm) + layout_.cells_y + 1);
      keep_columns_within(-layout_.gap, layout_.world_width());
      keep_rows_within(-layout_.gap, layout_.world_height());
      break;
    }
    case Pending::warp: {
      const int sm = std::clamp(pending_sm_, 0, layout_.blocks - 1);
      const int slot = std::clamp(pending_slot_, 0, layout_.cells_y - 1);
      focus_world_rect(sm_x(sm) - 2, sm_y(sm) + slot - 3, sm_x(sm) + layout_.cells_x + 2, sm_y(sm) + slot + 4);
      keep_rows_within(sm_y(sm) - 1, sm_y(sm) + layout_.cells_y + 0.5f);
      keep_columns_within(-layout_.gap, layout_.world_width());
      break;
    }
    case Pending::lane: {
      const int sm = std::clamp(pending_sm_, 0, layout_.blocks - 1);
      const int slot = std::clamp(pending_slot_, 0, layout_.cells_y - 1);
      const float x = sm_x(sm) + std::clamp(pending_lane_, 0, 31), y = sm_y(sm) + slot;
      focus_world_rect(x - 4, y - 2, x + 5, y + 3);
      keep_rows_within(sm_y(sm) - 1, sm_y(sm) + layout_.cells_y + 0.5f);
      keep_columns_within(-layout_.gap, layout_.world_width());
      break;
    }
    case Pending::none: break;
  }
  if (pending_ != Pending::none && first_fit) view_ = target_;
  pending_ = Pending::none;

  // Ease toward the target: zoom in log space so it feels uniform across 1000× of scale.
  const float t = 1.0f - std::exp(-static_cast<float>(dt) * 10.0f);
  const float log_scale = std::log(view_.scale) + (std::log(target_.scale) - std::log(view_.scale)) * t;
  const float cx = view_.origin_x + region_.x / view_.scale / 2, cy = view_.origin_y + region_.y / view_.scale / 2;
  const float tcx = target_.origin_x + region_.x / target_.scale / 2, tcy = target_.origin_y + region_.y / target_.scale / 2;
  view_.scale = std::exp(log_scale);
  const float ncx = cx + (tcx - cx) * t, ncy = cy + (tcy - cy) * t;
  view_.origin_x = ncx - region_.x / view_.scale / 2;
  view_.origin_y = ncy - region_.y / view_.scale / 2;

  texels_.resize(static_cast<std::size_t>(layout_.blocks) * layout_.cells_y * layout_.cells_x);
  encode_lane_texels(*s, texels_);
  std::array<ImVec4, 16> palette;
  const auto lp = lane_palette(lane_background());
  for (int i = 0; i < 16; ++i) palette[i] = to_imvec(lp[i]);
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  renderer_.set_palette(palette, bg, ImVec4(0, 0, 0, 1), ImVec4(1.0f, 0.85f, 0.1f, 1));
  renderer_.upload(texels_, layout_);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // No filled highlight from the shader: an outline drawn over the labels points at the SM or
  // warp without painting a state colour next to (or over) its lanes.
  renderer_.draw(size, view_, -1);

  // Mouse: wheel zooms around the cursor, drag pans, click selects a lane.
  ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsItemHovered()) {
    const float mx = io.MousePos.x - origin.x, my = io.MousePos.y - origin.y;
    if (io.MouseWheel != 0) {
      const float wx = view_.origin_x + mx / view_.scale, wy = view_.origin_y + my / view_.scale;
      const float factor = std::pow(1.25f, io.MouseWheel);
      view_.scale = target_.scale = std::clamp(view_.scale * factor, 0.05f, 200.0f);
      view_.origin_x = target_.origin_x = wx - mx / view_.scale;
      view_.origin_y = target_.origin_y = wy - my / view_.scale;
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 3.0f)) {
      view_.origin_x -= io.MouseDelta.x / view_.scale;
      view_.origin_y -= io.MouseDelta.y / view_.scale;
      target_ = view_;
    } else if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) &&
               std::abs(io.MouseDragMaxDistanceSqr[0]) < 9.0f) {
      const float wx = view_.origin_x + mx / view_.scale, wy = view_.origin_y + my / view_.scale;
      const int col = static_cast<int>(std::floor(wx / pitch_x)), row = static_cast<int>(std::floor(wy / pitch_y));
      const float ix = wx - col * pitch_x, iy = wy - row * pitch_y;
      const int sm = row * layout_.block_columns + col;
      if (col >= 0 && row >= 0 && col < layout_.block_columns && sm < layout_.blocks && ix < layout_.cells_x &&
          iy < layout_.cells_y)
        selection = {sm, static_cast<int>(iy), static_cast<int>(ix)};
      else
        selection = {};
    }
  }
  draw_labels(*s, origin, size);
  ImGui::EndChild();
}

void GpuView::draw_labels(const sim::Simulation& s, ImVec2 origin, ImVec2 size) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(origin, ImVec2(origin.x + size.x, origin.y + size.y), true);
  const float pitch_x = layout_.cells_x + layout_.gap, pitch_y = layout_.cells_y + layout_.gap;
  const float sc = view_.scale;
  const float line_h = ImGui::GetTextLineHeight();
  const ImU32 shadow = IM_COL32(0, 0, 0, 200);
  const Rgba light_ink{235 / 255.0f, 235 / 255.0f, 235 / 255.0f, 1}, dark_ink{0.06f, 0.06f, 0.08f, 1};
  const auto to_u32 = [](const Rgba& c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a)); };
  const ImU32 light_text = to_u32(light_ink), dark_text = to_u32(dark_ink);
  // Per lane state, once a frame rather than per label: which ink reads better over it, and how well.
  const auto palette = lane_palette(lane_background());
  std::array<bool, kPaletteSize> dark_over{};
  std::array<double, kPaletteSize> ink_contrast_over{};
  for (std::size_t i = 0; i < palette.size(); ++i) {
    const double on_light = contrast_ratio(light_ink, palette[i]), on_dark = contrast_ratio(dark_ink, palette[i]);
    dark_over[i] = on_dark > on_light;
    ink_contrast_over[i] = std::max(on_light, on_dark);
  }
  // Over lanes a label is light with a dark shadow, or dark where the lane is light (the light
  // theme's grey of an empty warp slot, bright green or yellow): white there read faintly from
  // the back of a room. On the window's background (above an SM, left of a warp) it takes the
  // theme's text colour: the light text was white on white in the light theme.
  const ImVec4 ink = ImGui::GetStyleColorVec4(ImGuiCol_Text);
  const double ink_contrast =
      contrast_ratio(to_rgba(ink), to_rgba(ImGui::GetStyleColorVec4(ImGuiCol_WindowBg)));
  labels = {};
  // The state byte of a lane, for the colour under a label drawn over it.
  const auto lane_state = [&](int sm, int slot, int lane) {
    const std::size_t i = (static_cast<std::size_t>(sm) * layout_.cells_y + slot) * layout_.cells_x + lane;
    return i < texels_.size() ? texels_[i] : std::uint8_t{0};
  };
  // A label the view's edge would cut is left out: half a word says nothing (panning brings it back).
  auto label = [&](ImVec2 p, const std::string& t, bool on_background, std::uint8_t under = 0) {
    const ImVec2 extent = ImGui::CalcTextSize(t.c_str());
    if (p.x < origin.x || p.y < origin.y || p.x + extent.x + 1 > origin.x + size.x ||
        p.y + extent.y + 1 > origin.y + size.y)
      return;
    if (on_background) {
      dl->AddText(p, ImGui::ColorConvertFloat4ToU32(ink), t.c_str());
      ++labels.on_background;
      labels.weakest_contrast = std::min(labels.weakest_contrast, ink_contrast);
      return;
    }
    const std::size_t state = under % palette.size();
    ++labels.over_lanes;
    labels.weakest_lane_contrast = std::min(labels.weakest_lane_contrast, ink_contrast_over[state]);
    if (dark_over[state]) {
      dl->AddText(p, dark_text, t.c_str());
      return;
    }
    dl->AddText(ImVec2(p.x + 1, p.y + 1), shadow, t.c_str());
    dl->AddText(p, light_text, t.c_str());
  };
  auto to_screen = [&](float wx, float wy) {
    return ImVec2(origin.x + (wx - view_.origin_x) * sc, origin.y + (wy - view_.origin_y) * sc);
  };
  const int rows = (layout_.blocks + layout_.block_columns - 1) / layout_.block_columns;
  const int c0 = std::max(0, static_cast<int>(std::floor(view_.origin_x / pitch_x)));
  const int c1 = std::min(layout_.block_columns - 1, static_cast<int>(std::floor((view_.origin_x + size.x / sc) / pitch_x)));
  const int r0 = std::max(0, static_cast<int>(std::floor(view_.origin_y / pitch_y)));
  const int r1 = std::min(rows - 1, static_cast<int>(std::floor((view_.origin_y + size.y / sc) / pitch_y)));
  const bool sm_labels = layout_.gap * sc >= line_h;             // room in the gap above each SM
  const bool warp_labels = sc >= line_h * 0.9f;                   // a warp row is a text line tall
  const bool lane_labels = sc >= ImGui::CalcTextSize("31").x + 4;  // a lane cell fits its number
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c) {
      const int sm = r * layout_.block_columns + c;
      if (sm >= layout_.blocks) continue;
      const float wx = c * pitch_x, wy = r * pitch_y;
      if (sm_labels) label(to_screen(wx, wy - line_h / sc - 0.2f), fmt::format("SM {}", sm), true);
      if (!warp_labels) continue;
      const int s0 = std::max(0, static_cast<int>(std::floor(view_.origin_y - wy)));
      const int s1 = std::min(layout_.cells_y - 1, static_cast<int>(std::ceil(view_.origin_y + size.y / sc - wy)));
      for (int slot = s0; slot <= s1; ++slot) {
        const auto info = s.warp_info(sm, slot);
        const ImVec2 p = to_screen(wx, wy + slot);
        const std::string warp_text = TF("label.warp", slot);
        const std::string block_text =
            info.block_x >= 0 ? TF("label.block", fmt::format("({},{})", info.block_x, info.block_y)) : "";
        // The room left of this SM: the gap to its neighbour, or for the first column the view's
        // margin, which a zoom onto SM 0 leaves wide. The label goes there in the first form that
        // fits (one line, or the warp above its block), else the warp there and its block over
        // the first lanes, else all of it over them; lane numbers under a label are left out
        // rather than drawn on top of it. Everything over the lanes left a zoomed warp at 1080
        // lines with 27 numbered lanes of its 32, beside a margin wide enough for the names.
        const float room = p.x - (c == 0 ? origin.x : to_screen(wx - layout_.gap, 0).x) - 6;
        const auto width = [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; };
        const std::string one_line = block_text.empty() ? warp_text : warp_text + "  " + block_text;
        const float one_line_w = width(one_line), warp_w = width(warp_text), block_w = width(block_text);
        const float middle = p.y + (sc - line_h) / 2;
        std::string over_lanes;
        float over_lanes_w = 0;
        if (one_line_w <= room) {
          label(ImVec2(p.x - one_line_w - 4, middle), one_line, true);
        } else if (!block_text.empty() && sc >= 2 * line_h && std::max(warp_w, block_w) <= room) {
          const float top = p.y + (sc - 2 * line_h) / 2;
          label(ImVec2(p.x - warp_w - 4, top), warp_text, true);
          label(ImVec2(p.x - block_w - 4, top + line_h), block_text, true);
        } else if (warp_w <= room) {
          label(ImVec2(p.x - warp_w - 4, middle), warp_text, true);
          over_lanes = block_text, over_lanes_w = block_w;
        } else {
          over_lanes = one_line, over_lanes_w = one_line_w;
        }
        float label_right = 0.0f;
        if (!over_lanes.empty()) {
          label(ImVec2(p.x + 2, middle), over_lanes, false, lane_state(sm, slot, 0));
          label_right = p.x + 2 + over_lanes_w + 2;
        }
        // Beside a label over the lanes the numbers take the row's lower part, so the row must
        // be taller; alone they sit in its middle.
        const bool shares_row = label_right > 0;
        if (lane_labels && sc >= line_h * (shares_row ? 1.6f : 1.0f))
          for (int lane = 0; lane < layout_.cells_x; ++lane) {
            const ImVec2 q = to_screen(wx + lane, wy + slot);
            if (q.x < origin.x - sc || q.x > origin.x + size.x || q.x < label_right) continue;
            const float y = shares_row ? q.y + sc - line_h - 1 : q.y + (sc - line_h) / 2;
            label(ImVec2(q.x + 2, y), std::to_string(lane), false, lane_state(sm, slot, lane));
          }
      }
    }
  // Outlines sit outside what they point at: the stroke's inner edge is `kClearance` pixels out
  // from the target's edge, so no lane under it is hidden. White with a dark rim: no lane state
  // is drawn in white, so the outline cannot be read as one.
  outlines = {};
  constexpr float kStroke = 3.0f, kClearance = 1.0f;
  auto outline = [&](ImVec2 a, ImVec2 b) {
    const float d = kClearance + kStroke / 2;
    dl->AddRect(ImVec2(a.x - d - 1, a.y - d - 1), ImVec2(b.x + d + 1, b.y + d + 1), IM_COL32(0, 0, 0, 255), 0, 0,
                kStroke + 2);
    dl->AddRect(ImVec2(a.x - d, a.y - d), ImVec2(b.x + d, b.y + d), IM_COL32(255, 255, 255, 255), 0, 0, kStroke);
    ++outlines.drawn;
    // A stroke reaches half its thickness either side of its path: both inner edges must stay out.
    const float inner = std::min(d - kStroke / 2, d + 1 - (kStroke + 2) / 2);
    if (inner < 0) ++outlines.covering;
  };
  auto sm_corner = [&](int sm) {
    return ImVec2((sm % layout_.block_columns) * pitch_x, (sm / layout_.block_columns) * pitch_y);
  };
  if (highlight_sm >= 0 && highlight_sm < layout_.blocks) {
    const ImVec2 w = sm_corner(highlight_sm);
    outline(to_screen(w.x, w.y), to_screen(w.x + layout_.cells_x, w.y + layout_.cells_y));
  }
  if (highlight_warp.valid() && highlight_warp.sm < layout_.blocks && highlight_warp.slot < layout_.cells_y) {
    const ImVec2 w = sm_corner(highlight_warp.sm);
    outline(to_screen(w.x, w.y + highlight_warp.slot), to_screen(w.x + layout_.cells_x, w.y + highlight_warp.slot + 1));
  }
  // A lane of the outlined warp is already pointed at (the inspector names it); its own outline
  // would reach over its neighbours in that warp.
  const bool in_outlined_warp = highlight_warp.valid() && selection.sm == highlight_warp.sm && selection.slot == highlight_warp.slot;
  if (selection.valid() && selection.sm < layout_.blocks && !in_outlined_warp) {
    const ImVec2 w = sm_corner(selection.sm);
    const ImVec2 a = to_screen(w.x + selection.lane, w.y + selection.slot);
    outline(a, ImVec2(a.x + std::max(sc, 3.0f), a.y + std::max(sc, 3.0f)));
  }
  dl->PopClipRect();
}

}  // namespace ws::app
