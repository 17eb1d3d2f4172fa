#include "gui/cluster_view.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

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

void ClusterView::update(const std::string& gpu_preset) {
  const std::string key = fmt::format("{}|{}|{}|{}|{}|{}", gpu_preset, gpus, nodes, strategy, micro_batches, size);
  if (key == key_) return;
  key_ = key;
  result_.reset();
  error_.clear();
  try {
    const sim::GpuPreset* gpu = &sim::find_gpu(gpu_preset);
    if (gpu->interconnect.link.empty()) gpu = &sim::find_gpu("h100");
    sim::ClusterConfig c;
    c.gpus = gpus;
    c.nodes = nodes;
    c.strategy = *sim::parse_strategy(sim::strategy_names()[static_cast<std::size_t>(strategy)]);
    c.micro_batches = micro_batches;
    c.mlp = {size, size, 4 * size, c.strategy == sim::Strategy::pipeline ? std::max(2, gpus) : 2};
    result_ = sim::simulate_cluster(*gpu, c);
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void ClusterView::draw(ImVec2 avail, const std::string& gpu_preset, lesson::Language lang) {
  drawn_ = true;
  chips_drawn_ = gantt_rows_drawn_ = intervals_drawn_ = 0;
  const auto names = sim::strategy_names();
  const float field = ImGui::GetFontSize() * 7;
  ImGui::SetNextItemWidth(field);
  if (ImGui::BeginCombo(tr("cluster.strategy", lang), names[static_cast<std::size_t>(strategy)].c_str())) {
    for (int i = 0; i < static_cast<int>(names.size()); ++i)
      if (ImGui::Selectable(names[static_cast<std::size_t>(i)].c_str(), i == strategy)) strategy = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::SliderInt(tr("cluster.gpus", lang), &gpus, 1, 64);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::SliderInt(tr("cluster.nodes", lang), &nodes, 0, 8);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::SliderInt(tr("cluster.micro_batches", lang), &micro_batches, 1, 64);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(field);
  ImGui::InputInt(tr("cluster.size", lang), &size, 256, 1024);
  size = std::clamp(size, 64, 32768);
  update(gpu_preset);

  if (!result_) {
    scaling_line_.clear();
    ImGui::TextColored(colour_error(), "%s", trf("cluster.error", lang, error_).c_str());
    return;
  }
  const sim::ClusterResult& r = *result_;
  // Rounded here: the string tables carry plain {} placeholders in both languages.
  scaling_line_ = trf("cluster.scaling", lang, r.config.gpus, fmt::format("{:.1f}", r.speedup),
                      fmt::format("{:.0f}", 100 * r.efficiency), fmt::format("{:.0f}", 100 * r.collective_fraction));
  ImGui::TextColored(colour_simulated(), "%s", scaling_line_.c_str());
  ImGui::TextDisabled("%s", trf("cluster.links", lang, r.intra.name, r.network.name, time_text(r.total_s),
                                time_text(r.single_gpu_s)).c_str());
  if (r.config.strategy == sim::Strategy::pipeline)
    ImGui::TextDisabled("%s", trf("cluster.bubble", lang, fmt::format("{:.0f}", 100 * r.idle_fraction),
                                  fmt::format("{:.0f}", 100 * r.bubble_formula)).c_str());

  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = std::max(avail.x, 200.0f);
  const float font = ImGui::GetFontSize();
  const ImU32 text = u32(ImGui::GetStyleColorVec4(ImGuiCol_Text));
  const ImU32 frame = u32(ImGui::GetStyleColorVec4(ImGuiCol_Border));

  // Chips: one box a GPU in node groups, a bar inside filled to its busy share.
  const int n = r.config.gpus;
  const float gap = 4, node_gap = 14;
  const float chip_w = std::clamp((width - node_gap * static_cast<float>(r.config.nodes) - gap * n) / n, 6.0f, 60.0f);
  const float chip_h = font * 2.2f;
  std::vector<ImVec2> centre(static_cast<std::size_t>(n));
  float x = origin.x;
  for (int g = 0; g < n; ++g) {
    if (g > 0 && g % r.gpus_per_node == 0) x += node_gap;
    const ImVec2 a(x, origin.y), b(x + chip_w, origin.y + chip_h);
    dl->AddRect(a, b, frame, 2);
    const float busy = static_cast<float>(r.per_gpu[static_cast<std::size_t>(g)].busy_fraction);
    dl->AddRectFilled(ImVec2(a.x + 2, b.y - 2 - (chip_h - 4) * busy), ImVec2(b.x - 2, b.y - 2), kind_colour(sim::ActivityKind::compute));
    if (chip_w > font * 1.2f) dl->AddText(ImVec2(a.x + 3, a.y + 2), text, std::to_string(g).c_str());
    centre[static_cast<std::size_t>(g)] = ImVec2((a.x + b.x) / 2, b.y);
    x += chip_w + gap;
    ++chips_drawn_;
  }
  // Links below the chips: an arc per GPU pair that carried bytes, thicker for more.
  double most = 1;
  for (const auto& l : r.links) most = std::max(most, l.bytes);
  for (const auto& l : r.links) {
    const ImVec2 a = centre[static_cast<std::size_t>(l.from)], b = centre[static_cast<std::size_t>(l.to)];
    const float depth = 6 + std::min(30.0f, std::fabs(b.x - a.x) * 0.15f);
    const ImU32 c = l.kind == sim::LinkKind::network ? u32(colour_elsewhere()) : kind_colour(sim::ActivityKind::send);
    dl->AddBezierCubic(a, ImVec2(a.x, a.y + depth), ImVec2(b.x, b.y + depth), b, c,
                       1.0f + 3.0f * static_cast<float>(l.bytes / most));
  }
  float y = origin.y + chip_h + 40;

  // Gantt: a row a GPU on one clock.
  const float label_w = font * 3;
  const float plot_w = width - label_w - 8;
  const float space = std::max(avail.y - (y - origin.y) - font * 2.5f, 40.0f);
  const float row_h = std::clamp(space / n, 2.0f, font * 1.2f);
  const int rows = std::min(n, static_cast<int>(space / row_h));
  const double scale = r.total_s > 0 ? plot_w / r.total_s : 0;
  for (const auto& a : r.activities) {
    if (a.gpu >= rows) continue;
    const float top = y + a.gpu * row_h;
    const float x0 = origin.x + label_w + static_cast<float>(a.start_s * scale);
    const float x1 = std::max(x0 + 1, origin.x + label_w + static_cast<float>(a.end_s * scale));
    const bool copy = a.kind == sim::ActivityKind::send || a.kind == sim::ActivityKind::receive;
    // Copies run beside the compute: a thin strip along the bottom of the row.
    const float y0 = copy ? top + row_h * 0.7f : top, y1 = top + row_h - 1;
    dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), kind_colour(a.kind));
    ++intervals_drawn_;
  }
  for (int g = 0; g < rows; ++g) {
    if (row_h >= font * 0.8f) dl->AddText(ImVec2(origin.x, y + g * row_h), text, lesson::trf("cluster.gpu_row", lang, g).c_str());
    ++gantt_rows_drawn_;
  }
  y += rows * row_h + 4;
  dl->AddText(ImVec2(origin.x + label_w, y), text, "0");
  const std::string end = time_text(r.total_s);
  dl->AddText(ImVec2(origin.x + label_w + plot_w - ImGui::CalcTextSize(end.c_str()).x, y), text, end.c_str());
  ImGui::SetCursorScreenPos(ImVec2(origin.x, y + font * 1.2f));
  ImGui::TextDisabled("%s", tr("cluster.legend", lang));
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
                   {"intervals_drawn", intervals_drawn_},
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
