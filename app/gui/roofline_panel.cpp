#include "gui/roofline_panel.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/caption_values.hpp"
#include "core/measured_text.hpp"
#include "core/sim_session.hpp"
#include "gui/presentation.hpp"
#include "gui/preset_display_name.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {

using namespace roofline;

namespace {

ImVec4 colour_cpu_roof() {
  return current_theme() == Theme::dark ? ImVec4(0.45f, 0.85f, 0.72f, 1) : ImVec4(0, 0.42f, 0.36f, 1);
}
ImVec4 colour_gpu_roof() { return colour_simulated(); }

ImVec4 colour_of(Source s) {
  switch (s) {
    case Source::here: return colour_measured();
    case Source::elsewhere: return colour_elsewhere();
    case Source::simulated: return colour_simulated();
  }
  return colour_measured();
}

ImU32 u32(const ImVec4& c, float alpha = 1) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, c.w * alpha)); }

// Circle for this machine, diamond for elsewhere, square for the model: told apart without colour.
void draw_marker(ImDrawList* dl, ImVec2 c, float r, Source s, ImU32 fill, ImU32 edge) {
  switch (s) {
    case Source::here:
      dl->AddCircleFilled(c, r, fill, 20);
      dl->AddCircle(c, r, edge, 20, 1.5f);
      break;
    case Source::elsewhere: {
      const float d = r * 1.3f;
      dl->AddQuadFilled(ImVec2(c.x, c.y - d), ImVec2(c.x + d, c.y), ImVec2(c.x, c.y + d), ImVec2(c.x - d, c.y), fill);
      dl->AddQuad(ImVec2(c.x, c.y - d), ImVec2(c.x + d, c.y), ImVec2(c.x, c.y + d), ImVec2(c.x - d, c.y), edge, 1.5f);
      break;
    }
    case Source::simulated:
      dl->AddRectFilled(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), fill);
      dl->AddRect(ImVec2(c.x - r, c.y - r), ImVec2(c.x + r, c.y + r), edge, 0, 0, 1.5f);
      break;
  }
}

// A line, dashed when its figure is assumed rather than sourced.
void draw_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thickness, bool dashed) {
  if (!dashed) {
    dl->AddLine(a, b, col, thickness);
    return;
  }
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len <= 0) return;
  const float dash = thickness * 5, gap = thickness * 3;
  for (float t = 0; t < len; t += dash + gap) {
    const float t1 = std::min(len, t + dash);
    dl->AddLine(ImVec2(a.x + (b.x - a.x) * t / len, a.y + (b.y - a.y) * t / len),
                ImVec2(a.x + (b.x - a.x) * t1 / len, a.y + (b.y - a.y) * t1 / len), col, thickness);
  }
}

// Where a label turned by `angle` about its top-left corner `at` lands.
RooflinePanel::DrawnLabel box_of(ImVec2 at, const std::string& text, float angle) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float c = std::cos(angle), s = std::sin(angle);
  RooflinePanel::DrawnLabel box{text, 1e9f, 1e9f, -1e9f, -1e9f};
  for (const ImVec2 corner : {ImVec2(0, 0), ImVec2(size.x, 0), ImVec2(0, size.y), ImVec2(size.x, size.y)}) {
    const float x = at.x + corner.x * c - corner.y * s, y = at.y + corner.x * s + corner.y * c;
    box.x0 = std::min(box.x0, x);
    box.y0 = std::min(box.y0, y);
    box.x1 = std::max(box.x1, x);
    box.y1 = std::max(box.y1, y);
  }
  return box;
}

// Text turned by `angle` (radians) about its top-left corner `at`, on a backing plate so it stays
// readable over grid lines and roofs. Returns its bounding box.
RooflinePanel::DrawnLabel label(ImDrawList* dl, ImVec2 at, ImU32 col, const std::string& text, float angle = 0) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const int start = dl->VtxBuffer.Size;
  dl->AddRectFilled(ImVec2(at.x - 3, at.y - 1), ImVec2(at.x + size.x + 3, at.y + size.y + 1), u32(bg, 0.8f), 3);
  dl->AddText(at, col, text.c_str());
  const float c = std::cos(angle), s = std::sin(angle);
  const RooflinePanel::DrawnLabel box = box_of(at, text, angle);
  if (angle != 0)
    for (int i = start; i < dl->VtxBuffer.Size; ++i) {
      ImVec2& p = dl->VtxBuffer[i].pos;
      const float dx = p.x - at.x, dy = p.y - at.y;
      p = ImVec2(at.x + dx * c - dy * s, at.y + dx * s + dy * c);
    }
  return box;
}

RooflinePanel::DrawnLabel text_box(ImVec2 at, const char* text) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  return {text, at.x, at.y, at.x + size.x, at.y + size.y};
}

const char* basis_words(IntensityBasis b) {
  return T(b == IntensityBasis::minimum_traffic ? "roofline.basis_min_traffic" : "roofline.basis_model_dram");
}

std::string here_where(const kernels::JobResult& r) {
  if (r.device == kernels::Device::cpu)
    return TF(r.threads == 1 ? "roofline.where_cpu_one" : "roofline.where_cpu", r.threads);
  if (r.software_renderer) return TF("roofline.where_software", r.device_name);
  return TF("roofline.where_gpu", r.device_name);
}

struct LegendItem {
  enum Kind { marker, line, plain } kind;
  Source source;
  bool dashed;
  ImVec4 colour;
  std::string text;
};

// One item a row; compact: side by side while they fit in `width`. A long item wraps.
void draw_legend(const std::vector<LegendItem>& items, bool compact, float width) {
  const float h = ImGui::GetTextLineHeight(), font = ImGui::GetFontSize();
  const float left = ImGui::GetCursorScreenPos().x, right = left + width;
  bool first = true;
  for (const auto& item : items) {
    const float sample = item.kind == LegendItem::marker ? h * 1.1f : item.kind == LegendItem::line ? 1.6f * font : 0;
    const float w = sample + (sample > 0 ? 0.4f * font : 0) + ImGui::CalcTextSize(item.text.c_str()).x;
    if (compact && !first) {
      ImGui::SameLine(0, font);
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    first = false;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (item.kind == LegendItem::marker) {
      draw_marker(dl, ImVec2(at.x + h * 0.5f, at.y + h * 0.5f), h * 0.3f, item.source, u32(item.colour), u32(item.colour));
    } else if (item.kind == LegendItem::line) {
      draw_line(dl, ImVec2(at.x, at.y + h / 2), ImVec2(at.x + sample, at.y + h / 2), u32(item.colour),
                2.5f * font / Presentation::kBaseFontPx, item.dashed);
    }
    if (sample > 0) {
      ImGui::Dummy(ImVec2(sample, h));
      ImGui::SameLine(0, 0.4f * font);
    }
    ImGui::PushStyleColor(ImGuiCol_Text, item.colour);
    // Wrap at the panel's right edge (the item may start mid-row).
    ImGui::PushTextWrapPos(right - ImGui::GetWindowPos().x);
    text_wrapped(item.text);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
}

}  // namespace

void RooflinePanel::draw(ImVec2 size, const RealRunView& real, const SimSession& session, const std::string& gpu_preset) {
  drawn = true;
  points.clear();
  roofs.clear();
  notes.clear();
  labels.clear();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  region = Rect{start.x, start.y, size.x, size.y};
  const float line_h = ImGui::GetTextLineHeight();
  const float font = ImGui::GetFontSize();
  const float ui = font / Presentation::kBaseFontPx;  // 1 at 1×, 2 at 2× text
  // Large text for the space (2× at 1280×720): the legend says the same in fewer words, so the plot
  // keeps room to be read.
  const bool compact = size.y < 20 * line_h;

  // The roofs: the simulated GPU's preset and this machine's CPU.
  const sim::Simulation* s = session.simulation();
  std::vector<Roof> machine_roofs;
  machine_roofs.push_back(cpu_roof(sim::this_machine_cpu(), ui_language()));
  try {
    machine_roofs.push_back(gpu_roof(s ? s->gpu() : sim::find_gpu(gpu_preset), ui_language()));
  } catch (const std::exception&) {
  }
  std::vector<std::string> assumptions;
  for (const auto& r : machine_roofs) {
    if (!r.note.empty()) notes.push_back(r.note);
    if (!r.assumption.empty()) assumptions.push_back(r.assumption);
  }

  // The points.
  std::vector<Point> all;
  int here_count = 0;
  for (const auto& r : real.runs)
    if (auto p = measured_point(r, Source::here, here_where(r))) {
      all.push_back(*p);
      ++here_count;
    }
  std::vector<std::string> elsewhere_rows;
  for (const auto& run : real.elsewhere) {
    int count = 0;
    for (const auto& r : run.results)
      if (auto p = measured_point(r, Source::elsewhere, run.label(r, ui_language()))) {
        all.push_back(*p);
        ++count;
      }
    const std::string device = run.gpu_name.empty() ? run.cpu_name : run.gpu_name;
    if (count > 0 && compact)
      elsewhere_rows.push_back(run.file_label(ui_language()));
    else if (count > 0)
      elsewhere_rows.push_back(
          fmt::format(fmt::runtime(T(count == 1 ? "roofline.elsewhere_one" : "roofline.elsewhere_many")), device,
                      run.host, run.short_date(), count));
  }
  std::string simulated_row;
  if (s) {
    const auto& cfg = s->config();
    const std::string key = fmt::format("{}/{}/{}x{}x{}/{}", s->gpu().id, sim::to_string(cfg.kernel), cfg.shape.m,
                                        cfg.shape.n, cfg.shape.k, cfg.block);
    if (s->complete() && summarised_key_ != key) {
      const sim::Summary sum = s->summary();
      simulated_ = simulated_point(TF("roofline.where_simulated", s->gpu().name), sim::to_string(cfg.kernel), cfg.shape.m,
                                   cfg.shape.n, cfg.shape.k, static_cast<double>(sum.dram_bytes), sum.time_ms);
      summarised_key_ = key;
    }
    const std::string what =
        fmt::format("{} {}", sim::to_string(cfg.kernel), format_shape({cfg.shape.m, cfg.shape.n, cfg.shape.k}));
    const bool ready = s->complete() && simulated_ && summarised_key_ == key;
    if (ready) all.push_back(*simulated_);
    const char* key_text = compact && ready ? "roofline.simulated_short" : ready ? "roofline.simulated" : "roofline.simulating";
    const std::string& gpu = gpu_label(s->gpu());
    simulated_row = fmt::format(fmt::runtime(T(key_text)), compact ? short_name(gpu) : gpu, what);
  }

  // The legend above the plot: it wraps at any width and text size, and the plot takes what is left.
  // Compact (large text for the space): shorter words, items side by side while they fit, and the
  // memory roofs named here instead of along their slopes.
  std::vector<LegendItem> legend;
  const char* here_key = here_count == 0 ? "roofline.no_run"
                         : compact       ? (here_count == 1 ? "roofline.here_short_one" : "roofline.here_short_many")
                                         : (here_count == 1 ? "roofline.here_one" : "roofline.here_many");
  if (here_count > 0 || !compact)  // compact: no row for what is not there yet
    legend.push_back({LegendItem::marker, Source::here, false, colour_measured(), TF(here_key, here_count)});
  for (const auto& row : elsewhere_rows) legend.push_back({LegendItem::marker, Source::elsewhere, false, colour_elsewhere(), row});
  if (!simulated_row.empty()) legend.push_back({LegendItem::marker, Source::simulated, false, colour_simulated(), simulated_row});
  const ImVec4 grey = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  // Compact: "roofs: presets, not measured" goes beside the GFLOP/s title, above the plot, if it fits.
  const bool roofs_beside_title =
      compact && ImGui::CalcTextSize(T("roofline.y_axis")).x + font + ImGui::CalcTextSize(T("roofline.roofs_short")).x <= size.x;
  if (!roofs_beside_title)
    legend.push_back({LegendItem::plain, Source::here, false, grey, T(compact ? "roofline.roofs_short" : "roofline.roofs_from")});
  if (compact) {
    for (const auto& roof : machine_roofs)
      if (roof.has_memory_roof())
        legend.push_back({LegendItem::line, Source::here, roof.bandwidth_assumed,
                          roof.machine == "gpu" ? colour_gpu_roof() : colour_cpu_roof(), roof.bandwidth_label});
  } else {
    for (const auto& a : assumptions) legend.push_back({LegendItem::plain, Source::here, false, grey, a});
  }
  draw_legend(legend, compact, size.x);
  for (const auto& n : notes) {
    wrapped_text(colour_error(), n);
  }

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(1.0f, size.x);
  const float height = std::max(1.0f, size.y - (origin.y - start.y));
  axes = choose_axes(machine_roofs, all);
  // Margins: tick labels on the left and bottom, the axis titles above and below.
  float tick_w = 0;
  for (int d = axes.y_lo; d <= axes.y_hi; ++d) tick_w = std::max(tick_w, ImGui::CalcTextSize(decade_label(d).c_str()).x);
  const float left = tick_w + 0.6f * font, right = 0.8f * font;
  const float top = line_h * 1.4f, bottom = line_h * 2.3f;
  plot = Rect{origin.x + left, origin.y + top, width - left - right, height - top - bottom};
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (plot.w < 4 * font || plot.h < 3 * font) {
    ImGui::TextDisabled("%s", T("roofline.too_small"));
    plot = Rect{};
    ImGui::Dummy(ImVec2(width, std::max(0.0f, height - line_h * 1.5f)));
    return;
  }
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
  dl->AddRectFilled(ImVec2(plot.x, plot.y), ImVec2(plot.x + plot.w, plot.y + plot.h), ImGui::GetColorU32(ImGuiCol_FrameBg));

  // Decades: a grid line each; a label each, or every other one where they would touch.
  const float x_step_px = plot.w / (axes.x_hi - axes.x_lo), y_step_px = plot.h / (axes.y_hi - axes.y_lo);
  float widest_x = 0;
  for (int d = axes.x_lo; d <= axes.x_hi; ++d) widest_x = std::max(widest_x, ImGui::CalcTextSize(decade_label(d).c_str()).x);
  const int x_every = x_step_px >= widest_x + font ? 1 : x_step_px * 2 >= widest_x + font ? 2 : 3;
  const int y_every = y_step_px >= line_h * 1.1f ? 1 : y_step_px * 2 >= line_h * 1.1f ? 2 : 3;
  for (int d = axes.x_lo; d <= axes.x_hi; ++d) {
    const float x = to_pixel(plot, axes, std::pow(10.0, d), 1).x;
    dl->AddLine(ImVec2(x, plot.y), ImVec2(x, plot.y + plot.h), grid);
    if ((d - axes.x_lo) % x_every != 0) continue;
    const auto t = decade_label(d);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    const float tx = std::clamp(x - tw / 2, origin.x, origin.x + width - tw);
    dl->AddText(ImVec2(tx, plot.y + plot.h + 0.15f * line_h), text_col, t.c_str());
    labels.push_back(text_box(ImVec2(tx, plot.y + plot.h + 0.15f * line_h), t.c_str()));
  }
  for (int d = axes.y_lo; d <= axes.y_hi; ++d) {
    const float y = to_pixel(plot, axes, 1, std::pow(10.0, d)).y;
    dl->AddLine(ImVec2(plot.x, y), ImVec2(plot.x + plot.w, y), grid);
    if ((d - axes.y_lo) % y_every != 0) continue;
    const auto t = decade_label(d);
    const float tw = ImGui::CalcTextSize(t.c_str()).x;
    const float ty = std::clamp(y - line_h / 2, origin.y, origin.y + height - line_h);
    dl->AddText(ImVec2(plot.x - tw - 0.3f * font, ty), text_col, t.c_str());
    labels.push_back(text_box(ImVec2(plot.x - tw - 0.3f * font, ty), t.c_str()));
  }
  {
    const char* x_title = T("roofline.x_axis");
    if (ImGui::CalcTextSize(x_title).x > width) x_title = T("roofline.x_axis_short");
    const float tw = ImGui::CalcTextSize(x_title).x;
    const ImVec2 x_at(std::max(origin.x, plot.x + (plot.w - tw) / 2), plot.y + plot.h + 1.15f * line_h);
    dl->AddText(x_at, text_col, x_title);
    labels.push_back(text_box(x_at, x_title));
    dl->AddText(origin, text_col, T("roofline.y_axis"));
    labels.push_back(text_box(origin, T("roofline.y_axis")));
    if (roofs_beside_title) {
      const char* roofs_note = T("roofline.roofs_short");
      const ImVec2 at(origin.x + ImGui::CalcTextSize(T("roofline.y_axis")).x + font, origin.y);
      dl->AddText(at, u32(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)), roofs_note);
      labels.push_back(text_box(at, roofs_note));
    }
  }

  // The roofs, clipped to the plot; labels over them.
  dl->PushClipRect(ImVec2(origin.x, origin.y), ImVec2(origin.x + width, origin.y + height), true);
  const float thick = 2.5f * ui;
  auto px = [&](double x, double y) {
    const Pixel p = to_pixel(plot, axes, x, y);
    return ImVec2(p.x, p.y);
  };
  // Each label has a few places it may go, best first; it takes the first that covers no point
  // and no label already placed.
  struct PendingLabel {
    std::vector<ImVec2> at;
    float angle;
    ImU32 col;
    std::string text;
    bool dashed = false;
  };
  std::vector<PendingLabel> pending;
  const float r = 0.32f * font;  // marker radius
  for (const auto& p : all) points.push_back({p, to_pixel(plot, axes, p.intensity, p.gflops)});
  for (const auto& roof : machine_roofs) {
    const ImVec4 colour = roof.machine == "gpu" ? colour_gpu_roof() : colour_cpu_roof();
    if (const auto seg = memory_segment(roof, axes)) {
      const ImVec2 a = px(seg->x0, seg->y0), b = px(seg->x1, seg->y1);
      draw_line(dl, a, b, u32(colour), thick, roof.bandwidth_assumed);
      roofs.push_back({roof.machine, "memory", roof.bandwidth_label, roof.bandwidth_gbs, roof.bandwidth_assumed, *seg,
                       Pixel{a.x, a.y}, Pixel{b.x, b.y}});
      // Along the slope, just above it: centred, else near its foot, else near the ridge.
      const float len = std::hypot(b.x - a.x, b.y - a.y);
      const float ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
      const float tw = ImGui::CalcTextSize(roof.bandwidth_label.c_str()).x;
      const float off = thick + 0.25f * font + line_h;  // the text's top edge, measured up from the line
      PendingLabel l{{}, std::atan2(uy, ux), u32(colour), roof.bandwidth_label, roof.bandwidth_assumed};
      for (const float along : {(len - tw) / 2, 0.5f * font, len - tw - 0.5f * font})
        l.at.push_back(ImVec2(a.x + ux * std::max(0.3f * font, along) + uy * off,
                              a.y + uy * std::max(0.3f * font, along) - ux * off));
      if (!compact) pending.push_back(std::move(l));  // compact: named in the legend
    }
    for (const auto& c : roof.compute) {
      const auto seg = compute_segment(roof, c, axes);
      if (!seg) continue;
      const ImVec2 a = px(seg->x0, seg->y0), b = px(seg->x1, seg->y1);
      const ImVec4 col = c.tensor ? ImVec4(colour.x, colour.y, colour.z, 0.75f) : colour;
      draw_line(dl, a, b, u32(col), c.tensor ? thick * 0.8f : thick, false);
      roofs.push_back({roof.machine, "compute", c.label, c.gflops, false, *seg, Pixel{a.x, a.y}, Pixel{b.x, b.y}});
      // Above the line at its right end, else below it, else above it by the ridge.
      const float tw = ImGui::CalcTextSize(c.label.c_str()).x;
      const float above = a.y - line_h - 0.2f * font, below = a.y + 0.2f * font + thick;
      const float right_x = std::max(plot.x + 0.3f * font, b.x - tw - 0.4f * font);
      const float left_x = std::max(plot.x + 0.3f * font, a.x + 0.6f * font);
      pending.push_back({{ImVec2(right_x, above), ImVec2(right_x, below), ImVec2(left_x, above), ImVec2(left_x, below)},
                         0, u32(col), c.label});
    }
  }
  // A label that would leave the panel slides back in: a roof's label is never cut off.
  const float x_lo = plot.x + 2, x_hi = origin.x + width - 4, y_lo = origin.y + line_h + 2, y_hi = plot.y + plot.h - 2;
  auto inside = [&](ImVec2 at, const PendingLabel& l) {
    const auto box = box_of(at, l.text, l.angle);
    if (box.x1 > x_hi) at.x -= box.x1 - x_hi;
    if (box.x0 < x_lo) at.x += x_lo - box.x0;
    if (box.y1 > y_hi) at.y -= box.y1 - y_hi;
    if (box.y0 < y_lo) at.y += y_lo - box.y0;
    return at;
  };
  const std::size_t first_roof_label = labels.size();
  std::vector<const PendingLabel*> cornered;
  // Whether a label at `at` (turned by `angle`) stays clear of every point and every roof label
  // placed so far: tested in the label's own frame, so a slanted label is not judged by its box.
  auto clear_of_everything = [&](ImVec2 at, const std::string& text, float angle) {
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const float c = std::cos(angle), s = std::sin(angle);
    auto in_label = [&](float x, float y, float margin) {
      const float dx = x - at.x, dy = y - at.y;
      const float u = dx * c + dy * s, v = -dx * s + dy * c;
      return u > -margin && u < size.x + margin && v > -margin && v < size.y + margin;
    };
    for (const auto& p : points)
      if (in_label(p.at.x, p.at.y, r)) return false;
    for (std::size_t i = first_roof_label; i < labels.size(); ++i) {
      const auto& o = labels[i];
      // The other label's box, sampled on a grid, against this label's rectangle.
      for (int iy = 0; iy <= 4; ++iy)
        for (int ix = 0; ix <= 8; ++ix)
          if (in_label(o.x0 + (o.x1 - o.x0) * ix / 8, o.y0 + (o.y1 - o.y0) * iy / 4, 2)) return false;
      // And this label's outline against the other's box.
      for (int k = 0; k <= 8; ++k)
        for (const float v : {0.0f, size.y}) {
          const float u = size.x * k / 8;
          const float x = at.x + u * c - v * s, y = at.y + u * s + v * c;
          if (x > o.x0 && x < o.x1 && y > o.y0 && y < o.y1) return false;
        }
    }
    return true;
  };
  // Compute roofs first: they cannot move far; a slope's label that finds no clear place goes to
  // the plot's top-left corner (above every slope) with a sample of its line.
  std::stable_sort(pending.begin(), pending.end(), [](const PendingLabel& a, const PendingLabel& b) {
    return (a.angle == 0) > (b.angle == 0);
  });
  for (const auto& l : pending) {
    ImVec2 chosen = inside(l.at.front(), l);
    bool placed = false;
    for (const ImVec2& candidate : l.at) {
      const ImVec2 at = inside(candidate, l);
      if (clear_of_everything(at, l.text, l.angle)) {
        chosen = at;
        placed = true;
        break;
      }
    }
    if (!placed && l.angle != 0) {
      cornered.push_back(&l);
      continue;
    }
    labels.push_back(label(dl, chosen, l.col, l.text, l.angle));
  }
  // Down the left edge from the top, the first place clear of points and labels.
  for (const PendingLabel* l : cornered) {
    const float sample = 1.6f * font;
    const float x = plot.x + 0.5f * font + sample + 0.4f * font;
    float y = plot.y + 0.3f * font;
    for (float t = y; t + line_h < plot.y + plot.h; t += 0.25f * line_h)
      if (clear_of_everything(ImVec2(x, t), l->text, 0)) {
        y = t;
        break;
      }
    draw_line(dl, ImVec2(plot.x + 0.5f * font, y + line_h / 2), ImVec2(plot.x + 0.5f * font + sample, y + line_h / 2),
              l->col, thick, l->dashed);
    labels.push_back(label(dl, ImVec2(x, y), l->col, l->text));
  }

  // The points, over everything; a wrong result gets a red ring.
  const ImU32 edge = u32(ImGui::GetStyleColorVec4(ImGuiCol_WindowBg));
  const ImU32 wrong = u32(colour_error());
  for (const auto& d : points) {
    draw_marker(dl, ImVec2(d.at.x, d.at.y), r, d.point.source, u32(colour_of(d.point.source)), edge);
    if (!d.point.verified) dl->AddCircle(ImVec2(d.at.x, d.at.y), r * 1.9f, wrong, 24, 2.5f * ui);
  }
  dl->PopClipRect();

  // Hover: the nearest point under the cursor says what it is.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("##roofline_plot", ImVec2(width, height));
  if (ImGui::IsItemHovered()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const DrawnPoint* best = nullptr;
    float best_d = r * 2.2f;
    for (const auto& d : points) {
      const float dist = std::hypot(d.at.x - m.x, d.at.y - m.y);
      if (dist <= best_d) {
        best_d = dist;
        best = &d;
      }
    }
    if (best) {
      const Point& p = best->point;
      ImGui::BeginTooltip();
      ImGui::PushStyleColor(ImGuiCol_Text, colour_of(p.source));
      ImGui::Text("%s  %s", p.kernel.c_str(), format_shape({p.m, p.n, p.k}).c_str());
      ImGui::PopStyleColor();
      ImGui::Text("%s GFLOP/s", format_sig3(p.gflops).c_str());
      ImGui::Text("%s FLOP/byte (%s)", format_sig3(p.intensity).c_str(), basis_words(p.intensity_basis));
      ImGui::TextUnformatted(p.where.c_str());
      if (!p.verified) ImGui::TextColored(colour_error(), "%s", T("roofline.wrong"));
      ImGui::EndTooltip();
    }
  }
}

nlohmann::json RooflinePanel::state() const {
  nlohmann::json j;
  j["shown"] = drawn;
  j["plot"] = {plot.x, plot.y, plot.w, plot.h};
  j["axes"] = {{"x_decades", {axes.x_lo, axes.x_hi}}, {"y_decades", {axes.y_lo, axes.y_hi}}};
  nlohmann::json pts = nlohmann::json::array();
  for (const auto& d : points)
    pts.push_back({{"source", to_string(d.point.source)}, {"kernel", d.point.kernel},
                   {"size", {d.point.m, d.point.n, d.point.k}}, {"intensity", d.point.intensity},
                   {"gflops", d.point.gflops}, {"intensity_basis", basis_words(d.point.intensity_basis)}, {"where", d.point.where},
                   {"verified", d.point.verified}, {"px", {d.at.x, d.at.y}}});
  j["points"] = pts;
  nlohmann::json rs = nlohmann::json::array();
  for (const auto& r : roofs)
    rs.push_back({{"machine", r.machine}, {"kind", r.kind}, {"label", r.label}, {"value", r.value},
                  {"assumed", r.assumed}, {"data", {r.data.x0, r.data.y0, r.data.x1, r.data.y1}},
                  {"px", {r.from.x, r.from.y, r.to.x, r.to.y}}});
  j["roofs"] = rs;
  j["notes"] = notes;
  for (const auto& r : roofs)
    if (r.assumed) j["notes"].push_back("assumed: " + r.label + " (not measured)");
  j["region"] = {region.x, region.y, region.w, region.h};
  nlohmann::json ls = nlohmann::json::array();
  for (const auto& l : labels) ls.push_back({{"text", l.text}, {"box", {l.x0, l.y0, l.x1, l.y1}}});
  j["labels"] = ls;
  return j;
}

}  // namespace ws::app
