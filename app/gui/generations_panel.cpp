#include "gui/generations_panel.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "core/caption_values.hpp"
#include "core/generation_table.hpp"
#include "gui/preset_display_name.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

struct Column {
  const char* key;      // UI string key of its header
  bool optional;        // dropped first when the panel is too narrow for every column
  bool numeric;
  std::function<std::string(const GenerationRow&)> text;
};

}  // namespace

void GenerationsPanel::draw(ImVec2 size, const std::string& current, lesson::Language lang) {
  using lesson::tr;
  drawn = true;
  const auto rows = generation_table(sim::gpu_presets());
  // Before Volta there are no tensor cores: said in words, not with a dash that reads as "unknown".
  const std::string none = tr("generations.none", lang);
  const std::vector<Column> all = {
      {"generations.gpu", false, false, [](const GenerationRow& r) { return label_in_ui_language(r.name, r.name_ko); }},
      {"generations.year", false, true, [](const GenerationRow& r) { return std::to_string(r.year); }},
      {"generations.sms", false, true, [](const GenerationRow& r) { return group_digits(r.sm_count); }},
      {"generations.cores", true, true, [](const GenerationRow& r) { return group_digits(r.fp32_cores); }},
      {"generations.fp32", false, true, [](const GenerationRow& r) { return format_sig3(r.fp32_tflops); }},
      {"generations.tensor_cores", true, true,
       [&](const GenerationRow& r) { return r.tensor_cores > 0 ? group_digits(r.tensor_cores) : none; }},
      {"generations.tensor", false, true,
       [&](const GenerationRow& r) {
         return r.tensor_tflops > 0 ? fmt::format("{} {}", format_sig3(r.tensor_tflops), r.tensor_format) : none;
       }},
      {"generations.bandwidth", true, true,
       [](const GenerationRow& r) { return group_digits(static_cast<long long>(r.memory_bandwidth_gbs + 0.5)); }},
  };

  // Every row in sight, however short the panel (a caption at 2x text on a 720p projector leaves
  // it a few lines): where the note and the rows at full size are taller than the panel, the
  // whole table is drawn smaller, rather than leave the newest GPUs below a scrollbar.
  // Spacing and cell padding do not shrink with the font: only the text does.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float font_h = ImGui::GetTextLineHeight();
  // Drawn smaller, the rows also lose their padding: 2 px a row are kept for the table's rounding.
  // The estimate is what the table then takes (measured at 1280x720 with 2x text, English and
  // Korean): every spare line it kept made the text smaller, down to less than the UI's 1x size.
  const float row_fixed = 2;
  const auto height_at = [&](float scale) {
    const float note_h =
        ImGui::CalcTextSize(tr("generations.note_short", lang), nullptr, false, size.x / scale).y * scale + style.ItemSpacing.y;
    return note_h + (static_cast<float>(rows.size()) + 1) * (font_h * scale + row_fixed) + style.ItemSpacing.y;
  };
  const float room = ImGui::GetContentRegionAvail().y;
  // At full size a row is at least a line with its spacing, and the header has its cell padding.
  const float roomy_h = ImGui::CalcTextSize(tr("generations.note", lang), nullptr, false, size.x).y +
                        style.ItemSpacing.y * 3 + font_h + style.CellPadding.y * 2 +
                        static_cast<float>(rows.size()) * (ImGui::GetTextLineHeightWithSpacing() + 2);
  // A line to spare in choosing: the table's own rounding of row heights is not modelled.
  const bool tight = room > 0 && roomy_h > room - font_h;
  font_scale = 1;
  if (tight)
    while (font_scale > 0.4f && height_at(font_scale) > room) font_scale *= 0.97f;
  // A column's widest cell (its header included) and the chart's least width, at the font in use.
  const float pad = style.CellPadding.x * 2 + style.ItemSpacing.x;
  const auto widest = [&](const Column& c) {
    float w = ImGui::CalcTextSize(tr(c.key, lang)).x;
    for (const auto& r : rows) w = std::max(w, ImGui::CalcTextSize(c.text(r).c_str()).x);
    return w;
  };
  const auto chart_least = [&] {
    return std::max(ImGui::CalcTextSize("0000000000").x, ImGui::CalcTextSize(tr("generations.chart", lang)).x + pad);
  };
  // With room to spare (a lesson step that gives the table the screen), it is drawn larger, up to
  // the caption's size and in the caption's font (rasterised at that size, so not blurred): at the
  // UI's size it filled half a 1080p projector with text a back row cannot read.
  const bool grow = !tight && large_font && large_font->FontSize > ImGui::GetFontSize() * 1.05f;
  if (grow) {
    float text_w = 0;  // every column's widest cell at the UI's size, without its padding
    for (const auto& c : all) text_w += widest(c);
    const float chart_w = chart_least();
    const auto fits_at = [&](float g) {
      const float note_h = ImGui::CalcTextSize(tr("generations.note", lang), nullptr, false, size.x / g).y * g;
      const float h = note_h + style.ItemSpacing.y * 3 + font_h * g + style.CellPadding.y * 2 +
                      static_cast<float>(rows.size()) * (font_h * g + style.ItemSpacing.y + 2) + font_h * g;
      // A larger raster's glyphs are not exactly proportional: 3 % to spare in width.
      const float w = text_w * g * 1.03f + pad * static_cast<float>(all.size()) + chart_w * g;
      return h <= room && w <= size.x;
    };
    const float most = large_font->FontSize / ImGui::GetFontSize();
    while (font_scale * 1.03f <= most && fits_at(font_scale * 1.03f)) font_scale *= 1.03f;
  }
  const bool larger = font_scale > 1.05f;
  if (larger) {
    const float ui_px = ImGui::GetFontSize();
    ImGui::PushFont(large_font);
    ImGui::SetWindowFontScale(font_scale * ui_px / large_font->FontSize);
  } else if (font_scale < 1) {
    ImGui::SetWindowFontScale(font_scale);
  } else {
    font_scale = 1;
  }

  // Columns as wide as their widest cell, then the bar chart in what is left; drop the optional
  // columns, last first, while the chart would be narrower than its minimum.
  const float chart_min = chart_least();  // at the size the table starts at
  std::vector<float> widths;
  for (const auto& c : all) widths.push_back(widest(c) + pad);
  std::vector<bool> shown(all.size(), true);
  auto total = [&] {
    float t = 0;
    for (std::size_t i = 0; i < all.size(); ++i) t += shown[i] ? widths[i] : 0;
    return t;
  };
  dropped_columns = 0;
  for (std::size_t i = all.size(); i-- > 0 && total() + chart_min > size.x;) {
    if (all[i].optional) {
      shown[i] = false;
      ++dropped_columns;
    }
  }
  // Still wider than the panel without the optional columns (a window of 640x480): the text is
  // drawn smaller until the rest fit, rather than cut ("SMs" to "S", 148 to 14).
  while (total() > size.x && font_scale > 0.4f) {
    font_scale *= 0.95f;
    ImGui::SetWindowFontScale(font_scale);
    for (std::size_t i = 0; i < all.size(); ++i) widths[i] = widest(all[i]) + pad;
  }
  const bool chart = total() + chart_least() <= size.x;

  double bar_max = 0;
  for (const auto& r : rows) bar_max = std::max({bar_max, r.fp32_tflops, r.tensor_tflops});

  columns.clear();
  row_ids.clear();
  marked = current;
  // Squeezed, the note keeps what the figures are (computed, and from where) in fewer words.
  ImGui::TextWrapped("%s", tr(tight ? "generations.note_short" : "generations.note", lang));
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY;
  const int ncols = static_cast<int>(std::count(shown.begin(), shown.end(), true)) + (chart ? 1 : 0);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (tight) ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(style.CellPadding.x, 0));
  if (!ImGui::BeginTable("generations", ncols, flags, ImVec2(avail.x, avail.y))) {
    if (tight) ImGui::PopStyleVar();
    if (larger) ImGui::PopFont();
    ImGui::SetWindowFontScale(1.0f);
    return;
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!shown[i]) continue;
    ImGui::TableSetupColumn(tr(all[i].key, lang), ImGuiTableColumnFlags_WidthFixed, widths[i] - pad);
    columns.push_back(all[i].key);
  }
  if (chart) {
    ImGui::TableSetupColumn(tr("generations.chart", lang), ImGuiTableColumnFlags_WidthStretch);
    columns.push_back("generations.chart");
  }
  ImGui::TableHeadersRow();
  // Rows share the height the panel has (up to twice a text line), so the table fills a projector
  // screen instead of a strip at its top; 2 px a row are left for its border and rounding.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float row_min = tight ? ImGui::GetTextLineHeight() + row_fixed : line;
  const float header_h = ImGui::GetTextLineHeight() + row_fixed;
  const float row_h =
      std::clamp((avail.y - header_h - style.ItemSpacing.y) / std::max<std::size_t>(1, rows.size()) - 2, row_min, 2.0f * line);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec4 tensor_colour = colour_simulated();
  tensor_colour.w = 0.75f;
  const ImU32 bar_tensor = ImGui::ColorConvertFloat4ToU32(tensor_colour);
  const ImU32 bar_fp32 = ImGui::GetColorU32(ImGuiCol_Text);
  ImVec4 mark = colour_simulated();
  mark.w = 0.22f;
  for (const auto& r : rows) {
    row_ids.push_back(r.id);
    ImGui::TableNextRow(ImGuiTableRowFlags_None, row_h);
    const bool is_current = r.id == current;
    if (is_current) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::ColorConvertFloat4ToU32(mark));
    const float text_dy = std::max(0.0f, (row_h - ImGui::GetTextLineHeight()) * 0.5f);
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!shown[i]) continue;
      ImGui::TableNextColumn();
      const std::string text = all[i].text(r);
      ImGui::SetCursorPosY(ImGui::GetCursorPosY() + text_dy);
      if (all[i].numeric) {
        // Right-aligned so the digits line up down the column.
        const float w = ImGui::CalcTextSize(text.c_str()).x;
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, widths[i] - pad - w));
      }
      ImGui::TextUnformatted(text.c_str());
    }
    if (chart) {
      // Tensor peak as a coloured bar, FP32 peak as a thin bar over it, both on one linear scale:
      // from the V100 on, the FP32 bar is a sliver of the tensor bar.
      ImGui::TableNextColumn();
      const ImVec2 at = ImGui::GetCursorScreenPos();
      const float full = ImGui::GetContentRegionAvail().x;
      const float h = row_h - ImGui::GetStyle().CellPadding.y * 2;
      auto bar = [&](double v, float y0, float y1, ImU32 col) {
        if (v > 0 && bar_max > 0)
          dl->AddRectFilled(ImVec2(at.x, at.y + y0), ImVec2(at.x + std::max(2.0f, static_cast<float>(full * v / bar_max)), at.y + y1),
                            col);
      };
      bar(r.tensor_tflops, h * 0.1f, h * 0.9f, bar_tensor);
      bar(r.fp32_tflops, h * 0.38f, h * 0.62f, bar_fp32);
      ImGui::Dummy(ImVec2(full, h));
    }
  }
  ImGui::EndTable();
  if (tight) ImGui::PopStyleVar();
  if (larger) ImGui::PopFont();
  ImGui::SetWindowFontScale(1.0f);
}

nlohmann::json GenerationsPanel::state() const {
  return {{"shown", drawn},           {"columns", columns},       {"rows", row_ids}, {"marked", marked},
          {"dropped_columns", dropped_columns}, {"font_scale", font_scale}};
}

}  // namespace ws::app
