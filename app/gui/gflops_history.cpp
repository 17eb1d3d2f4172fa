#include "gui/gflops_history.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <imgui.h>

#include "gui/text_fit.hpp"

#include "core/caption_values.hpp"
#include "gui/presentation.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

// A gridline's value as the tables write numbers: "1,000,000", "10", "0.1" (not "1e+06", "10.0").
std::string decade_label(float decade_exponent) {
  const int decade = static_cast<int>(std::lround(decade_exponent));
  if (decade >= 0) return group_digits(std::llround(std::pow(10.0, decade)));
  return fmt::format("{:.{}f}", std::pow(10.0, decade), -decade);
}

}  // namespace

void GflopsHistory::add(const std::string& kernel, double gflops) {
  if (!(gflops > 0) || !std::isfinite(gflops)) return;
  auto& points = series_[kernel];
  points.push_back(static_cast<float>(gflops));
  if (points.size() > kMaxPoints) points.erase(points.begin());
}

void GflopsHistory::set_references(std::vector<Reference> references) {
  std::erase_if(references, [](const Reference& r) { return !(r.gflops > 0); });  // no place on a log axis
  references_ = std::move(references);
}

std::vector<const GflopsHistory::Reference*> GflopsHistory::shown_references() const {
  const Reference* fastest = nullptr;
  for (const auto& r : references_)
    if (fastest == nullptr || r.gflops > fastest->gflops) fastest = &r;
  std::vector<const Reference*> shown;
  for (const auto& r : references_)
    if (&r == fastest || series_.count(r.kernel) > 0) shown.push_back(&r);
  return shown;
}

void GflopsHistory::draw(float height) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x;
  auto shown = shown_references();
  // The legend as it will be drawn (its lines wrapped at spaces), so the plot takes the rest.
  const ImGuiStyle& style = ImGui::GetStyle();
  constexpr float kSwatchW = 18;
  const auto label_of = [](const Reference* r) { return r->label + ": " + format_sig3(r->gflops) + " GFLOP/s"; };
  const auto more_text = [](int n) {
    return n == 1 ? std::string(T("history.elsewhere_more_one")) : TF("history.elsewhere_more", n);
  };
  const auto legend_height = [&](const std::vector<const Reference*>& refs) {
    float h = ImGui::GetTextLineHeightWithSpacing() * std::ceil(series_.size() / 2.0f);
    for (const Reference* r : refs)
      h += wrapped_text_size(label_of(r), width - kSwatchW - style.ItemSpacing.x).y + style.ItemSpacing.y;
    if (const int more = static_cast<int>(references_.size() - refs.size()); more > 0)
      h += wrapped_text_size(more_text(more), width).y + style.ItemSpacing.y;
    return h;
  };
  // Room for three decade labels however long the legend: a 40 px plot of a few decades had one.
  const float least_plot_h = 5 * ImGui::GetTextLineHeight();
  // Too short for every label (the free window at 1920x1080 with a bench file loaded: the run
  // measured here went under the panel's edge), lines give way to the "more" count, the fastest
  // first: those of kernels run here compare like with like. The table above lists them all.
  while (!shown.empty() && height - legend_height(shown) < least_plot_h) {
    auto drop = std::find_if(shown.rbegin(), shown.rend(), [&](const Reference* r) { return series_.count(r->kernel) == 0; });
    shown.erase(drop != shown.rend() ? std::next(drop).base() : std::prev(shown.end()));
  }
  const int left_out = static_cast<int>(references_.size() - shown.size());
  std::vector<std::string> labels;
  for (const Reference* r : shown) labels.push_back(label_of(r));
  const std::string more = more_text(left_out);
  const float plot_h = std::max(least_plot_h, height - legend_height(shown));
  drawn = {static_cast<int>(shown.size()), left_out, plot_h};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 frame = ImGui::GetColorU32(ImGuiCol_FrameBg);
  const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + plot_h), frame, 3.0f);

  float lo = 1e30f, hi = 0;
  std::size_t longest = 1;
  for (const auto& [name, pts] : series_) {
    for (float v : pts) { lo = std::min(lo, v); hi = std::max(hi, v); }
    longest = std::max(longest, pts.size());
  }
  for (const Reference* r : shown) {
    lo = std::min(lo, static_cast<float>(r->gflops));
    hi = std::max(hi, static_cast<float>(r->gflops));
  }
  if (series_.empty() && shown.empty()) {
    drawn.plot_px = height;
    draw->AddText(ImVec2(origin.x + 8, origin.y + 8), text,
                  fit_whole_words(T("history.empty"), width - 16).c_str());
    ImGui::Dummy(ImVec2(width, height));
    return;
  }
  // Whole decades, so the gridlines read as 1, 10, 100, ... GFLOP/s, with a fifth of a decade
  // clear below the slowest point and above the fastest: a lone run at 102 GFLOP/s sat on the
  // plot's bottom edge, under the "100" label, as if it were off the chart.
  constexpr float kClearDecades = 0.2f;
  const float lo_dec = std::floor(std::log10(lo) - kClearDecades);
  const float hi_dec = std::max(lo_dec + 1, std::ceil(std::log10(hi) + kClearDecades));
  const float pad = 4;
  auto y_of = [&](float v) {
    const float t = (std::log10(v) - lo_dec) / (hi_dec - lo_dec);
    return origin.y + plot_h - pad - t * (plot_h - 2 * pad);
  };
  drawn.edge_margin_px = plot_h;
  const auto note_margin = [&](float y) {
    drawn.edge_margin_px = std::min(drawn.edge_margin_px, std::min(y - origin.y, origin.y + plot_h - y));
  };
  // Labelled decades from the top down, each above its gridline, or below it where above runs out
  // of the plot or into the label before; a decade with no room for its label gets no gridline
  // either. Runs measured elsewhere span up to seven decades (0.4 to 85 000 GFLOP/s) and their
  // legend can leave the plot 40 px: every decade labelled, the labels were drawn over each other.
  const float line_h = ImGui::GetTextLineHeight();
  float taken_to = origin.y;  // the lowest edge of what is drawn so far, from the plot's top
  for (float d = hi_dec; d >= lo_dec; d -= 1) {
    const float y = y_of(std::pow(10.0f, d));
    float top = y - line_h;
    if (top < taken_to) top = y + 1;
    if (top < taken_to || top + line_h > origin.y + plot_h) continue;
    draw->AddLine(ImVec2(origin.x, y), ImVec2(origin.x + width, y), grid);
    draw->AddText(ImVec2(origin.x + 3, top), text, decade_label(d).c_str());
    taken_to = top + line_h;
  }
  // Points start right of the widest decade label at any text size.
  const float label_w = ImGui::CalcTextSize(decade_label(hi_dec).c_str()).x;
  const float x0 = origin.x + label_w + 10, x1 = origin.x + width - pad;
  auto x_of = [&](std::size_t i) {
    return longest <= 1 ? (x0 + x1) / 2 : x0 + (x1 - x0) * static_cast<float>(i) / (longest - 1);
  };
  // Points and lines grow with the text, so a single run's dot is not a speck at 2x on a projector.
  const float dot_r = std::max(3.0f, 0.22f * line_h), stroke = std::max(2.0f, 0.12f * line_h);
  for (const auto& [name, pts] : series_) {
    const ImU32 colour = kernel_colour(name);
    const std::size_t offset = longest - pts.size();  // newest points line up on the right
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const ImVec2 p(x_of(offset + i), y_of(pts[i]));
      note_margin(p.y);
      if (i > 0) draw->AddLine(ImVec2(x_of(offset + i - 1), y_of(pts[i - 1])), p, colour, stroke);
      draw->AddCircleFilled(p, dot_r, colour);
    }
  }
  const ImU32 elsewhere = ImGui::ColorConvertFloat4ToU32(colour_elsewhere());
  for (const Reference* r : shown) {
    const float y = y_of(static_cast<float>(r->gflops));
    note_margin(y);
    for (float x = x0; x < x1; x += 12) draw->AddLine(ImVec2(x, y), ImVec2(std::min(x + 7, x1), y), elsewhere, stroke);
  }
  ImGui::Dummy(ImVec2(width, plot_h));
  for (const auto& label : labels) {
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float mid = at.y + ImGui::GetTextLineHeight() / 2;
    draw->AddLine(ImVec2(at.x, mid), ImVec2(at.x + 6, mid), elsewhere, 2.0f);
    draw->AddLine(ImVec2(at.x + 10, mid), ImVec2(at.x + 16, mid), elsewhere, 2.0f);
    ImGui::Dummy(ImVec2(kSwatchW, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    wrapped_text(colour_elsewhere(), label);
  }
  if (left_out > 0) wrapped_text(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), more);
  int column = 0;
  for (const auto& [name, pts] : series_) {
    if (column++ % 2 == 1) ImGui::SameLine(width / 2);
    ImGui::ColorButton(("##c" + name).c_str(), ImGui::ColorConvertU32ToFloat4(kernel_colour(name)),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
    ImGui::SameLine();
    ImGui::Text("%s %s GFLOP/s", name.c_str(), format_sig3(pts.back()).c_str());
  }
}

}  // namespace ws::app
