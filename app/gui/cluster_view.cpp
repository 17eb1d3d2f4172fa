#include "gui/cluster_view.hpp"

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "core/cluster_setup.hpp"
#include "core/measured_text.hpp"
#include "core/sim_refusal_text.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app {
namespace {

using lesson::tr;
using lesson::trf;

ImU32 u32(const ImVec4& c, float alpha = 1) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x, c.y, c.z, c.w * alpha)); }

// One colour per kind of interval, the same in the chips' bars, the links and the Gantt rows.
ImU32 kind_colour(sim::ActivityKind k) {
  switch (k) {
    case sim::ActivityKind::compute: return u32(colour_ok());
    case sim::ActivityKind::collective: return u32(colour_simulated());
    case sim::ActivityKind::send:
    case sim::ActivityKind::receive: return u32(colour_measured());
    case sim::ActivityKind::idle: return u32(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), 0.35f);
  }
  return 0;
}

std::string time_text(double s) { return s >= 1e-3 ? fmt::format("{:.2f} ms", s * 1e3) : fmt::format("{:.0f} us", s * 1e6); }

}  // namespace

void ClusterView::set(const lesson::ClusterSetting& setting) {
  const auto names = sim::strategy_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == setting.strategy) strategy = static_cast<int>(i);
  gpus = setting.gpus;
  nodes = setting.nodes;
  micro_batches = setting.micro_batches;
  size = setting.size;
  show_curve = setting.curve;
}

lesson::ClusterSetting ClusterView::setting() const {
  return {sim::strategy_names()[static_cast<std::size_t>(strategy)], gpus, nodes, micro_batches, size, show_curve};
}

void ClusterView::update(const std::string& gpu_preset) {
  const std::string key = fmt::format("{}|{}|{}|{}|{}|{}", gpu_preset, gpus, nodes, strategy, micro_batches, size);
  if (key == key_) return;
  key_ = key;
  result_.reset();
  curve_.clear();
  curve_done_ = false;
  error_.clear();
  try {
    // The same configuration the lesson captions quote (core/cluster_setup.hpp).
    result_ = simulate_setting(gpu_preset, setting());
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void ClusterView::draw(ImVec2 avail, const std::string& gpu_preset, lesson::Language lang) {
  drawn_ = true;
  drawn = true;
  // The Gantt rows share what is left under the controls and the lines of figures.
  const float bottom = ImGui::GetCursorScreenPos().y + avail.y;
  chips_drawn_ = gantt_rows_drawn_ = intervals_drawn_ = 0;
  gantt_row_px_ = 0;
  if (!hide_controls) draw_controls(lang);
  update(gpu_preset);
  if (show_curve && !curve_done_) {
    // Seven simulations, once per split: the curve does not depend on the GPU count shown.
    curve_ = scaling_curve(gpu_preset, setting());
    curve_done_ = true;
  }
  draw_result(avail.x, bottom, lang);
}

void ClusterView::draw_controls(lesson::Language lang) {
  const auto names = sim::strategy_names();
  const float field = ImGui::GetFontSize() * 7;
  // Each control beside the last where it fits whole, label included; else at the start of the
  // next row. In one row they ran off the window's edge (1280x720, or 2x text at 1920x1080).
  bool first = true;
  auto place = [&](float item_w, const char* label) {
    const float w = item_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
    if (!first) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < w) ImGui::NewLine();
    }
    first = false;
  };
  auto place_field = [&](const char* label) {
    place(field, label);
    ImGui::SetNextItemWidth(field);
  };
  place_field(tr("cluster.strategy", lang));
  if (ImGui::BeginCombo(tr("cluster.strategy", lang), names[static_cast<std::size_t>(strategy)].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[static_cast<std::size_t>(i)].c_str(), i == strategy)) strategy = i;
    ImGui::EndCombo();
  }
  place_field(tr("cluster.gpus", lang));
  ImGui::SliderInt(tr("cluster.gpus", lang), &gpus, 1, 64);
  place_field(tr("cluster.nodes", lang));
  ImGui::SliderInt(tr("cluster.nodes", lang), &nodes, 0, 8);
  place_field(tr("cluster.micro_batches", lang));
  ImGui::SliderInt(tr("cluster.micro_batches", lang), &micro_batches, 1, 64);
  place_field(tr("cluster.size", lang));
  ImGui::InputInt(tr("cluster.size", lang), &size, 256, 1024);
  place(ImGui::GetFrameHeight(), tr("cluster.curve", lang));  // a checkbox: its box is a frame high
  ImGui::Checkbox(tr("cluster.curve", lang), &show_curve);
  size = std::clamp(size, lesson::kMinClusterSize, lesson::kMaxClusterSize);
}

void ClusterView::draw_result(float avail_w, float bottom, lesson::Language lang) {

  if (!result_) {
    scaling_line_.clear();
    // Wrapped: a pipeline's reason runs past the view's width at 2x text.
    wrapped_text(colour_error(), trf("cluster.error", lang, cluster_refusal_words(error_, lang)));
    return;
  }
  const sim::ClusterResult& r = *result_;
  // Rounded here: the string tables carry plain {} placeholders in both languages.
  scaling_line_ = trf(r.config.gpus == 1 ? "cluster.scaling_one" : "cluster.scaling_many", lang, r.config.gpus,
                      format_cluster_speedup(r.speedup), format_cluster_percent(r.efficiency),
                      format_cluster_percent(r.collective_fraction));
  const ImVec4 disabled = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
  const float width = std::max(avail_w, 200.0f);
  const float font = ImGui::GetFontSize();
  const int n = r.config.gpus;
  // Under the rows: the time axis, the legend and the real split's line, each wrapped to the width.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float legend_h = wrapped_text_size(tr("cluster.legend", lang), width).y;
  const std::string unavailable = real_unavailable_text(lang);
  const float real_h = !unavailable.empty() ? wrapped_text_size(unavailable, width).y
                                            : ImGui::GetFrameHeight() + 2 * ImGui::GetTextLineHeightWithSpacing();
  // Exactly what is drawn after the rows (4 px, the axis's numbers, the legend and the real split,
  // each followed by the item spacing): `bottom` already excludes the window's padding, and the
  // ~24 px more this once kept (at 2x text) came out of rows 5 px tall.
  float below = 4 + font * 1.2f + legend_h + real_h + 2 * style.ItemSpacing.y;
  // The timeline is what the lesson's captions point at (the all-reduce, the bubble): in a short
  // panel (a small window with large text) the link names and the row of chips give way to it,
  // so every GPU's row keeps at least half a line of height.
  const float chip_h = font * 2.2f, chips_block = chip_h + 40;
  const float text_lines = ImGui::GetTextLineHeightWithSpacing() * (r.config.strategy == sim::Strategy::pipeline ? 4 : 3);
  const float min_rows_h = static_cast<float>(std::min(n, 16)) * font * 0.5f;
  compact_ = bottom - ImGui::GetCursorScreenPos().y < text_lines + chips_block + min_rows_h + below;
  // In a short panel the line on why no real split can run here gives way to the timeline too
  // (a real split that ran, or can be started, keeps its line).
  const bool drop_unavailable = compact_ && !unavailable.empty();
  if (drop_unavailable) below -= real_h + style.ItemSpacing.y;
  wrapped_text(colour_simulated(), scaling_line_);
  if (!compact_)
    wrapped_text(disabled, trf("cluster.links", lang, r.intra.name, r.network.name, time_text(r.total_s),
                               time_text(r.single_gpu_s)));
  if (r.config.strategy == sim::Strategy::pipeline)
    wrapped_text(disabled, trf("cluster.bubble", lang, format_cluster_percent(r.idle_fraction),
                               format_cluster_percent(r.bubble_formula)));

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImU32 text = u32(ImGui::GetStyleColorVec4(ImGuiCol_Text));
  const ImU32 frame = u32(ImGui::GetStyleColorVec4(ImGuiCol_Border));

  // Chips: one box a GPU in node groups, a bar inside filled to its busy share.
  const float gap = 4, node_gap = 14;
  const float chip_w =
      std::clamp((width - node_gap * static_cast<float>(r.config.nodes) - gap * n) / n, 6.0f, std::max(60.0f, font * 4));
  // The step replays every few seconds, so the bytes can be seen moving at a lecture's pace.
  constexpr double kSecondsPerReplay = 6.0;
  if (r.total_s > 0) {
    playhead_s_ += static_cast<double>(ImGui::GetIO().DeltaTime) * r.total_s / kSecondsPerReplay;
    playhead_s_ = std::fmod(playhead_s_, r.total_s);
  }
  links_lit_ = 0;
  chips_drawn_ = 0;
  if (!compact_) {
    std::vector<ImVec2> centre(static_cast<std::size_t>(n));
    float x = origin.x;
    for (int g = 0; g < n; ++g) {
      if (g > 0 && g % r.gpus_per_node == 0) x += node_gap;
      const ImVec2 a(x, origin.y), b(x + chip_w, origin.y + chip_h);
      dl->AddRect(a, b, frame, 2);
      const float busy = static_cast<float>(r.per_gpu[static_cast<std::size_t>(g)].busy_fraction);
      // The number on a line of its own above the bar: drawn on a full bar it was hard to read.
      const bool numbered = chip_w > font * 1.2f;
      const float bar_h = chip_h - 4 - (numbered ? font : 0);
      dl->AddRectFilled(ImVec2(a.x + 2, b.y - 2 - bar_h * busy), ImVec2(b.x - 2, b.y - 2), kind_colour(sim::ActivityKind::compute));
      if (numbered) dl->AddText(ImVec2(a.x + 4, a.y + 1), text, std::to_string(g).c_str());
      centre[static_cast<std::size_t>(g)] = ImVec2((a.x + b.x) / 2, b.y);
      x += chip_w + gap;
      ++chips_drawn_;
    }
    // Links below the chips: an arc per GPU pair that carried bytes, thicker for more; faint while
    // quiet, bright with a travelling dot while the model has it carrying bytes at the playhead.
    double most = 1;
    for (const auto& l : r.links) most = std::max(most, l.bytes);
    links_lit_ = 0;
    for (const auto& l : r.links) {
      const ImVec2 a = centre[static_cast<std::size_t>(l.from)], b = centre[static_cast<std::size_t>(l.to)];
      const float depth = 6 + std::min(30.0f, std::fabs(b.x - a.x) * 0.15f);
      const ImVec2 c1(a.x, a.y + depth), c2(b.x, b.y + depth);
      const ImVec4 colour = l.kind == sim::LinkKind::network ? colour_elsewhere()
                                                             : ImGui::ColorConvertU32ToFloat4(kind_colour(sim::ActivityKind::send));
      const double progress = link_progress_at(r, l, playhead_s_);
      const bool lit = progress >= 0;
      dl->AddBezierCubic(a, c1, c2, b, u32(colour, lit ? 1.0f : 0.35f), 1.0f + 3.0f * static_cast<float>(l.bytes / most));
      if (!lit) continue;
      ++links_lit_;
      const float t = static_cast<float>(progress), u = 1 - t;
      const ImVec2 dot(u * u * u * a.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * b.x,
                       u * u * u * a.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * b.y);
      dl->AddCircleFilled(dot, std::max(3.0f, font * 0.25f), u32(ImGui::GetStyleColorVec4(ImGuiCol_Text)));
    }
  }
  float y = compact_ ? origin.y + 4 : origin.y + chips_block;

  const float gantt_w = show_curve ? std::floor(width * 0.58f) : width;
  const float space = std::max(bottom - y - below, 40.0f);
  // A step that asks for the curve talks about it ("each doubling helps less"). Where the panel is
  // too short for it beside the rows as usual (2x text on a 720-line projector: 64 rows of 2 px and
  // no curve), the curve takes the whole height on the right and the legend wraps under the rows
  // alone, which may be thinner than a pixel: 64 GPUs then read as one block whose colours are
  // the shares of the time the caption quotes ("84 % of the time is the all-reduce").
  if (show_curve && space < curve_height_needed(width - gantt_w - font, font, lang)) {
    const float room = bottom - y - (drop_unavailable ? 0 : real_h + style.ItemSpacing.y);
    // The curve's text smaller before it gives up, down to `least` of the font: the axes' numbers
    // are the curve's point.
    const auto curve_font = [&](float curve_w, float least) {
      float f = font;
      while (f > font * least && curve_height_needed(curve_w, f, lang) > room) f = std::floor(f * 0.92f);
      return f;
    };
    const float side_w = width - gantt_w - font;
    const float rows_room = room - (4 + font * 1.2f) - wrapped_text_size(tr("cluster.legend", lang), gantt_w).y -
                            style.ItemSpacing.y;
    const float side_f = curve_font(side_w, 0.75f);
    if (rows_room >= font * 1.5f && curve_height_needed(side_w, side_f, lang) <= room) {
      const float axis_y = draw_rows(r, ImVec2(origin.x, y), gantt_w, rows_room, 0.5f, lang);
      draw_curve(ImVec2(origin.x + gantt_w + font, y), ImVec2(side_w, room), side_f, lang);
      ImGui::SetCursorScreenPos(ImVec2(origin.x, axis_y + font * 1.2f));
      wrapped_text(disabled, tr("cluster.legend", lang), ImGui::GetCursorPosX() + gantt_w);
      ImGui::SetCursorScreenPos(ImVec2(origin.x, y + room));
      if (!drop_unavailable) draw_real_split(lang);
      return;
    }
    // Else the curve alone takes the rows' place, the whole width and the axis's and legend's room.
    // No wider than about twice its height: log axes stretched across a wide panel flatten it.
    const float curve_w = std::min(width, std::max(room * 2.2f, font * 12));
    draw_curve(ImVec2(origin.x, y), ImVec2(curve_w, room), curve_font(curve_w, 0.55f), lang);
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y + room));
    if (!drop_unavailable) draw_real_split(lang);
    return;
  }
  const float axis_y = draw_rows(r, ImVec2(origin.x, y), gantt_w, space, 2.0f, lang);
  if (show_curve) draw_curve(ImVec2(origin.x + gantt_w + font, y), ImVec2(width - gantt_w - font, space), font, lang);
  ImGui::SetCursorScreenPos(ImVec2(origin.x, axis_y + font * 1.2f));
  wrapped_text(disabled, tr("cluster.legend", lang));
  if (!drop_unavailable) draw_real_split(lang);
}

// Gantt: a row a GPU on one clock, the playhead across them, the time axis's two ends under them.
float ClusterView::draw_rows(const sim::ClusterResult& r, ImVec2 at, float w, float space, float min_row_h,
                             lesson::Language lang) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 text = u32(ImGui::GetStyleColorVec4(ImGuiCol_Text));
  const float font = ImGui::GetFontSize();
  const int n = r.config.gpus;
  const float label_w = font * 3;
  const float plot_w = w - label_w - 8;
  // Up to two and a half lines a row: with eight GPUs on a projector the bars, and the copies'
  // thin strips in them, are what the room reads; a line each left half the panel empty.
  const float row_h = std::clamp(space / static_cast<float>(n), min_row_h, font * 2.5f);
  const int rows = std::min(n, static_cast<int>(space / row_h));
  gantt_row_px_ = rows > 0 ? row_h : 0;
  // Rows under 3 px keep no gap between them: 64 GPUs in a short panel read as one block whose
  // colours are the shares of the time.
  const float row_gap = row_h >= 3 ? 1.0f : 0.0f;
  const double scale = r.total_s > 0 ? plot_w / r.total_s : 0;
  for (const auto& a : r.activities) {
    if (a.gpu >= rows) continue;
    const float top = at.y + static_cast<float>(a.gpu) * row_h;
    const float x0 = at.x + label_w + static_cast<float>(a.start_s * scale);
    const float x1 = std::max(x0 + 1, at.x + label_w + static_cast<float>(a.end_s * scale));
    const bool copy = a.kind == sim::ActivityKind::send || a.kind == sim::ActivityKind::receive;
    // Copies run beside the compute: a thin strip along the bottom of the row.
    const float y0 = copy ? top + row_h * 0.7f : top, y1 = top + row_h - row_gap;
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), kind_colour(a.kind));
    ++intervals_drawn_;
  }
  for (int g = 0; g < rows; ++g) {
    if (row_h >= font * 0.8f)
      dl->AddText(ImVec2(at.x, at.y + static_cast<float>(g) * row_h + std::max(0.0f, (row_h - font) / 2)), text,
                  lesson::trf("cluster.gpu_row", lang, g).c_str());
    ++gantt_rows_drawn_;
  }
  if (rows > 0 && scale > 0) {
    const float px = at.x + label_w + static_cast<float>(playhead_s_ * scale);
    dl->AddLine(ImVec2(px, at.y), ImVec2(px, at.y + static_cast<float>(rows) * row_h), text, 2.0f);
  }
  const float axis_y = at.y + static_cast<float>(rows) * row_h + 4;
  dl->AddText(ImVec2(at.x + label_w, axis_y), text, "0");
  const std::string end = time_text(r.total_s);
  dl->AddText(ImVec2(at.x + label_w + plot_w - ImGui::CalcTextSize(end.c_str()).x, axis_y), text, end.c_str());
  return axis_y;
}

// Speed-up against GPU count on log2-log2 axes (1..64 both ways): the ideal is the diagonal, the
// model's curve falls away from it as communication grows; the GPU count shown is ringed.
void ClusterView::draw_curve(ImVec2 at, ImVec2 size, float f, lesson::Language lang) {
  curve_points_drawn_ = 0;
  curve_labels_ = 0;
  curve_px_ = {0, 0};
  curve_label_pitch_px_ = 0;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImFont* face = ImGui::GetFont();
  const ImU32 text = u32(ImGui::GetStyleColorVec4(ImGuiCol_Text));
  const ImU32 faint = u32(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), 0.6f);
  const char* title = tr("cluster.curve_title", lang);
  const float left = at.x + f * 1.6f, right = at.x + size.x - f * 0.8f;
  // Too small to read: the caption has the figures.
  if (right - left < f * 4 || size.y < curve_height_needed(size.x, f, lang)) return;
  const float title_h = face->CalcTextSizeA(f, FLT_MAX, size.x, title).y;
  const float top = at.y + title_h + f * 0.6f, bottom = at.y + size.y - f * 1.3f;
  dl->AddText(face, f, ImVec2(at.x, at.y), text, title, nullptr, size.x);
  const auto px = [&](double gpus) { return left + static_cast<float>(std::log2(gpus) / 6.0) * (right - left); };
  const auto py = [&](double speedup) {
    const double l = std::clamp(std::log2(std::max(speedup, 1.0)), 0.0, 6.0);
    return bottom - static_cast<float>(l / 6.0) * (bottom - top);
  };
  // Every doubling has its grid line; where the plot is too short (or narrow) for a number at each
  // without them touching, every second or third one is numbered (1, 4, 16, 64 or 1, 8, 64).
  const auto stride_for = [](float pitch, float need) {
    for (int stride : {1, 2, 3})
      if (pitch * static_cast<float>(stride) >= need) return stride;
    return 6;
  };
  const float widest = face->CalcTextSizeA(f, FLT_MAX, 0, "64").x;
  const int x_stride = stride_for((right - left) / 6, widest + f * 0.4f);
  const int y_stride = stride_for((bottom - top) / 6, f * 1.05f);
  for (int l = 0, g = 1; l <= 6; ++l, g *= 2) {
    const std::string label = std::to_string(g);
    dl->AddLine(ImVec2(px(g), top), ImVec2(px(g), bottom), faint);
    dl->AddLine(ImVec2(left, py(g)), ImVec2(right, py(g)), faint);
    const ImVec2 ls = face->CalcTextSizeA(f, FLT_MAX, 0, label.c_str());
    if (l % x_stride == 0) dl->AddText(face, f, ImVec2(px(g) - ls.x / 2, bottom + 2), text, label.c_str());
    if (l % y_stride == 0) dl->AddText(face, f, ImVec2(left - ls.x - 3, py(g) - ls.y / 2), text, label.c_str());
    curve_labels_ += (l % x_stride == 0) + (l % y_stride == 0);
  }
  curve_px_ = {right - left, bottom - top};
  curve_label_pitch_px_ = std::min((right - left) / 6 * static_cast<float>(x_stride) - widest,
                                   (bottom - top) / 6 * static_cast<float>(y_stride) - f);
  dl->AddLine(ImVec2(px(1), py(1)), ImVec2(px(64), py(64)), u32(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled)), 1.5f);
  const ImU32 model = u32(colour_simulated());
  for (std::size_t i = 0; i < curve_.size(); ++i) {
    const ImVec2 p(px(curve_[i].gpus), py(curve_[i].speedup));
    if (i > 0) dl->AddLine(ImVec2(px(curve_[i - 1].gpus), py(curve_[i - 1].speedup)), p, model, 2.5f);
    dl->AddCircleFilled(p, 3.5f, model);
    if (curve_[i].gpus == gpus) dl->AddCircle(p, 7.0f, text, 0, 1.5f);
    ++curve_points_drawn_;
  }
  dl->AddText(face, f, ImVec2(left + 4, top), u32(colour_simulated()), tr("cluster.curve_legend", lang), nullptr,
              right - left - 8);
}

// The title, then at least four lines of plot between the gaps draw_curve leaves above and below.
float ClusterView::curve_height_needed(float width, float f, lesson::Language lang) const {
  return ImGui::GetFont()->CalcTextSizeA(f, FLT_MAX, width, tr("cluster.curve_title", lang)).y + f * (0.6f + 4 + 1.3f);
}

std::string ClusterView::real_unavailable_text(lesson::Language lang) {
  if (!real_unavailable_) real_unavailable_ = kernels::unavailable_reason("cuda-multi");
  if (!*real_unavailable_) return {};
  // The common reason in the window's language: "needs 2 CUDA GPUs; this machine has N".
  std::string why = **real_unavailable_;
  constexpr std::string_view needs = "needs 2 CUDA GPUs; this machine has ";
  if (why.rfind(needs, 0) == 0) {
    const std::string rest = why.substr(needs.size());
    const std::size_t digits = rest.find_first_not_of("0123456789");
    why = trf("cluster.real_needs_gpus", lang, rest.substr(0, digits)) +
          (digits == std::string::npos ? std::string() : rest.substr(digits));
  }
  return trf("cluster.real_unavailable", lang, why);
}

void ClusterView::draw_real_split(lesson::Language lang) {
  const std::string unavailable = real_unavailable_text(lang);
  if (!unavailable.empty()) {
    wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), unavailable);
    return;
  }
  if (real_running_.valid()) {
    if (real_running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      ImGui::TextDisabled("%s", tr("cluster.real_running", lang));
      return;
    }
    real_ = real_running_.get();
  }
  if (!hide_controls && ImGui::Button(trf("cluster.real_run", lang, kRealSize).c_str())) {
    real_running_ = std::async(std::launch::async, [] {
      const kernels::Shape shape{kRealSize, kRealSize, kRealSize};
      kernels::JobControl control;
      RealPair pair;
      pair.multi = kernels::run_job({"cuda-multi", shape, 0, 3}, control);
      pair.single = kernels::run_job({"cublas", shape, 0, 3}, control);
      return pair;
    });
  }
  if (!real_) return;
  const auto& m = real_->multi;
  const auto& o = real_->single;
  const auto ran = [](const kernels::JobResult& r) { return !r.skipped && !r.failed && !r.cancelled && r.verified; };
  if (!ran(m) || !ran(o)) {
    const auto& bad = ran(m) ? o : m;
    const std::string why = bad.skipped  ? kernels_words(*bad.skipped, lang)
                            : bad.failed ? kernels_words(*bad.failed, lang)
                                         : std::string(tr("label.not_verified", lang));
    ImGui::TextColored(colour_error(), "%s", trf("cluster.real_failed", lang, bad.kernel + ": " + why).c_str());
    return;
  }
  ImGui::TextColored(colour_measured(), "%s",
                     trf("cluster.real_result", lang, kRealSize, m.device_name, fmt::format("{:.2f}", m.ms_median),
                         fmt::format("{:.2f}", o.ms_median), fmt::format("{:.2f}", o.ms_median / m.ms_median),
                         tr("label.verified", lang))
                         .c_str());
}

nlohmann::json ClusterView::state() const {
  if (!drawn_) return {{"shown", false}};
  nlohmann::json j{{"shown", true},
                   {"gpus", gpus},
                   {"nodes", nodes},
                   {"strategy", sim::strategy_names()[static_cast<std::size_t>(strategy)]},
                   {"micro_batches", micro_batches},
                   {"size", size},
                   {"scaling_line", scaling_line_},
                   {"chips_drawn", chips_drawn_},
                   {"gantt_rows_drawn", gantt_rows_drawn_},
                   {"gantt_row_px", gantt_row_px_},
                   {"intervals_drawn", intervals_drawn_},
                   {"playhead_s", playhead_s_},
                   {"compact", compact_},
                   {"links_lit", links_lit_},
                   {"curve_shown", show_curve},
                   {"curve_points_drawn", show_curve ? curve_points_drawn_ : 0},
                   {"curve_plot_px", show_curve ? nlohmann::json::array({curve_px_.x, curve_px_.y}) : nlohmann::json::array()},
                   {"curve_labels", show_curve ? curve_labels_ : 0},
                   {"curve_label_gap_px", show_curve ? curve_label_pitch_px_ : 0.0f},
                   {"error", error_}};
  if (result_) {
    j["preset"] = result_->preset;
    j["total_s"] = result_->total_s;
    j["single_gpu_s"] = result_->single_gpu_s;
    j["speedup"] = result_->speedup;
    j["efficiency"] = result_->efficiency;
    j["collective_fraction"] = result_->collective_fraction;
    j["resolved_nodes"] = result_->config.nodes;
    j["numbers"] = "simulated";
  }
  return j;
}

}  // namespace ws::app
