#include "gui/generations_panel.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include <fmt/format.h>
#include <imgui_internal.h>

#include "core/caption_values.hpp"
#include "core/generation_table.hpp"
#include "gui/preset_display_name.hpp"
#include "gui/text_fit.hpp"
#include "gui/theme.hpp"

namespace ws::app {

namespace {

struct Column {
  const char* key;      // UI string key of its header
  // 0: always shown. Else the order in which it gives way when the panel is too narrow for every
  // column: the tensor cores' count first (their TFLOP/s and the bars tell their story), memory
  // bandwidth last (no other column shows it, and the generations step's caption reads it).
  int drop_order;
  bool numeric;
  std::function<std::string(const GenerationRow&)> text;
};

}  // namespace

void GenerationsPanel::draw(ImVec2 size, const std::string& current, lesson::Language lang) {
  using lesson::tr;
  drawn = true;
  // The FP32 bar is drawn in the text's colour, white on the dark theme and black on the light
  // one: the note names the colour the screen shows.
  const char* fp32_colour =
      tr(current_theme() == Theme::light_high_contrast ? "generations.black" : "generations.white", lang);
  const auto note = [&](const char* key) { return lesson::trf(key, lang, fp32_colour); };
  const auto rows = generation_table(sim::gpu_presets());
  // Before Volta there are no tensor cores: said in words, not with a dash that reads as "unknown".
  const std::string none = tr("generations.none", lang);
  const std::vector<Column> all = {
      {"generations.gpu", 0, false, [](const GenerationRow& r) { return label_in_ui_language(r.name, r.name_ko); }},
      {"generations.year", 0, true, [](const GenerationRow& r) { return std::to_string(r.year); }},
      {"generations.sms", 0, true, [](const GenerationRow& r) { return group_digits(r.sm_count); }},
      {"generations.cores", 2, true, [](const GenerationRow& r) { return group_digits(r.fp32_cores); }},
      {"generations.fp32", 0, true, [](const GenerationRow& r) { return format_sig3(r.fp32_tflops); }},
      {"generations.tensor_cores", 1, true,
       [&](const GenerationRow& r) { return r.tensor_cores > 0 ? group_digits(r.tensor_cores) : none; }},
      {"generations.tensor", 0, true,
       [&](const GenerationRow& r) {
         return r.tensor_tflops > 0 ? fmt::format("{} {}", format_sig3(r.tensor_tflops), r.tensor_format) : none;
       }},
      {"generations.bandwidth", 3, true,
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
  // Too narrow for the headers on one line, each goes on two ("FP32" over "TFLOP/s"): its figures
  // are narrower than it is, and the table's text need not shrink for a header.
  bool two_line_headers = false;
  const auto header_text = [&](const char* key) {
    std::string h = tr(key, lang);
    if (two_line_headers)
      if (const auto space = h.rfind(' '); space != std::string::npos) h[space] = '\n';
    return h;
  };
  // Asked again once the text is drawn smaller (SetWindowFontScale), so the note is measured in
  // the font as it is then: measured at the smaller font against the unscaled width, its two lines
  // counted as one and the B200's row, the one the step marks, went under the table's edge.
  const float unscaled_font_px = ImGui::GetFontSize();
  const auto height_at = [&](float scale, int header_lines = 1) {
    const float now = ImGui::GetFontSize() / unscaled_font_px;
    const float note_h =
        wrapped_text_size(note("generations.note_short"), size.x * now / scale).y * scale / now + style.ItemSpacing.y;
    return note_h + static_cast<float>(rows.size() + header_lines) * (font_h * scale + row_fixed) + style.ItemSpacing.y;
  };
  const float room = ImGui::GetContentRegionAvail().y;
  // At full size a row is at least a line with its spacing, and the header has its cell padding.
  const float roomy_h = wrapped_text_size(note("generations.note"), size.x).y +
                        style.ItemSpacing.y * 3 + font_h + style.CellPadding.y * 2 +
                        static_cast<float>(rows.size()) * (ImGui::GetTextLineHeightWithSpacing() + 2);
  // A line to spare in choosing: the table's own rounding of row heights is not modelled.
  const bool tight = room > 0 && roomy_h > room - font_h;
  font_scale = 1;
  if (tight)
    while (font_scale > 0.4f && height_at(font_scale) > room) font_scale *= 0.97f;
  // What a table column takes beside its text: its cell padding on both sides (there are no
  // vertical borders), and a pixel for rounding. Counting ItemSpacing as well, as this did, left
  // 80 px of a 711 px panel empty at 2x text while the text was drawn smaller to "fit".
  const float pad = style.CellPadding.x * 2 + 1;
  // A column's widest cell (its header included) and the chart's least width, at the font in use.
  const auto widest = [&](const Column& c) {
    float w = ImGui::CalcTextSize(header_text(c.key).c_str()).x;
    for (const auto& r : rows) w = std::max(w, ImGui::CalcTextSize(c.text(r).c_str()).x);
    return w;
  };
  // Six digits' width still shows the V100's tensor bar beside the B200's, 18 times as long
  // (125 against 2,255 TFLOP/s). The column's header is the short one where the long one does not fit.
  const auto chart_least = [&] {
    return std::max(ImGui::CalcTextSize("000000").x, ImGui::CalcTextSize(tr("generations.chart_short", lang)).x + pad);
  };
  // Grown for a projector, the table keeps the chart wider: there the bars are the point.
  const auto chart_roomy = [&] {
    return std::max(ImGui::CalcTextSize("0000000000").x, ImGui::CalcTextSize(tr("generations.chart", lang)).x + pad);
  };
  // With room to spare (a lesson step that gives the table the screen), it is drawn larger, up to
  // the caption's size and in the caption's font (rasterised at that size, so not blurred): at the
  // UI's size it filled half a 1080p projector with text a back row cannot read.
  const bool grow = !tight && large_font && large_font->FontSize > ImGui::GetFontSize() * 1.05f;
  if (grow) {
    float text_w = 0;  // every column's widest cell at the UI's size, without its padding
    for (const auto& c : all) text_w += widest(c);
    const float chart_w = chart_roomy();
    const auto fits_at = [&](float g) {
      const float note_h = wrapped_text_size(note("generations.note"), size.x / g).y * g;
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
  // columns in their drop_order while the chart would be narrower than its minimum.
  std::vector<float> widths(all.size());
  const auto measure = [&] {
    for (std::size_t i = 0; i < all.size(); ++i) widths[i] = widest(all[i]) + pad;
  };
  const auto shrink_text = [&](float by) {
    font_scale *= by;
    ImGui::SetWindowFontScale(font_scale);
    measure();
  };
  measure();
  std::vector<bool> shown(all.size(), true);
  auto total = [&] {
    float t = 0;
    for (std::size_t i = 0; i < all.size(); ++i) t += shown[i] ? widths[i] : 0;
    return t;
  };
  // Headers on two lines before a column gives way or the text shrinks, and before the chart is
  // drawn narrower than it is roomy (at 1920x1080 with 2x text the generations step's "long bars"
  // were 125 px) where the rows have the height for the header's second line. Where they have not,
  // that line comes out of the rows' text, so only when the table does not fit otherwise.
  // Half a line to spare: at 1024x768 with 2x text the estimate left the table 9 px short.
  const auto fits_two_lines = [&] { return height_at(font_scale, 2) + 0.5f * font_h * font_scale <= room; };
  const bool too_wide = total() + chart_least() > size.x;
  if (too_wide || (total() + chart_roomy() > size.x && (!tight || fits_two_lines()))) {
    two_line_headers = true;
    measure();
    if (tight)
      while (font_scale > 0.4f && !fits_two_lines()) shrink_text(0.97f);
  }
  dropped_columns = 0;
  for (int order = 1; total() + chart_least() > size.x; ++order) {
    const auto next = std::find_if(all.begin(), all.end(), [&](const Column& c) { return c.drop_order == order; });
    if (next == all.end()) break;
    shown[static_cast<std::size_t>(next - all.begin())] = false;
    ++dropped_columns;
  }
  // Still wider than the panel without the optional columns (a window of 640x480): the text is
  // drawn smaller until the rest fit, rather than cut ("SMs" to "S", 148 to 14).
  while (total() > size.x && font_scale > 0.4f) shrink_text(0.98f);
  const bool chart = total() + chart_least() <= size.x;
  const bool chart_header_long =
      chart && total() + ImGui::CalcTextSize(tr("generations.chart", lang)).x + pad <= size.x;

  double bar_max = 0;
  for (const auto& r : rows) bar_max = std::max({bar_max, r.fp32_tflops, r.tensor_tflops});

  columns.clear();
  row_ids.clear();
  chart_px = 0;
  marked = current;
  // Rows share the height the panel has (up to twice a text line), so the table fills a projector
  // screen instead of a strip at its top; 2 px a row are left for its border and rounding.
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float text_h = ImGui::GetTextLineHeight();
  const float row_min = tight ? text_h + row_fixed : line;
  const float cell_pad_y = tight ? 0 : style.CellPadding.y;
  const float header_h = (two_line_headers ? 2 : 1) * text_h + row_fixed;
  const auto row_height = [&](float table_h) {
    return std::clamp((table_h - header_h - style.ItemSpacing.y) / std::max<std::size_t>(1, rows.size()) - 2, row_min,
                      2.0f * line);
  };
  // Too narrow for the chart's column (the table beside the real run at 2x text), the bars go
  // under each row's figures, across the table, where the rows have the height for them: the
  // note says there are bars, so there must be bars, or the note does not say it.
  const float bar_gap = std::max(2.0f, 0.15f * text_h);
  const auto bar_under_h = [&](float row_h) {
    return std::min(row_h - 2 * cell_pad_y - 2 - text_h - bar_gap, 0.6f * text_h);
  };
  const char* note_key = tight ? "generations.note_short" : "generations.note";
  bars = chart ? Bars::column : Bars::none;
  if (!chart) {
    const float note_h = wrapped_text_size(note(note_key), ImGui::GetContentRegionAvail().x).y;
    const float table_h = ImGui::GetContentRegionAvail().y - note_h - style.ItemSpacing.y;
    if (bar_under_h(row_height(table_h)) >= std::max(4.0f, 0.25f * text_h)) bars = Bars::under;
    else note_key = tight ? "generations.note_short_nobars" : "generations.note_nobars";
  }
  // Squeezed, the note keeps what the figures are (computed, and from where) in fewer words.
  text_wrapped(note(note_key));
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
    ImGui::TableSetupColumn(header_text(all[i].key).c_str(), ImGuiTableColumnFlags_WidthFixed, widths[i] - pad);
    columns.push_back(all[i].key);
  }
  if (chart) {
    ImGui::TableSetupColumn(tr(chart_header_long ? "generations.chart" : "generations.chart_short", lang),
                            ImGuiTableColumnFlags_WidthStretch);
    columns.push_back("generations.chart");
  }
  ImGui::TableHeadersRow();
  const float row_h = row_height(avail.y);
  const bool under = bars == Bars::under;
  const float under_h = under ? bar_under_h(row_h) : 0;
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
    // Under: the figures and the bars below them centred together in the row.
    const float text_dy =
        std::max(0.0f, (row_h - 2 * cell_pad_y - text_h - (under ? bar_gap + under_h : 0)) * 0.5f);
    std::optional<ImVec2> row_corner;  // the first cell's content corner, on screen
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!shown[i]) continue;
      ImGui::TableNextColumn();
      if (!row_corner) row_corner = ImGui::GetCursorScreenPos();
      const std::string text = all[i].text(r);
      ImGui::SetCursorPosY(ImGui::GetCursorPosY() + text_dy);
      if (all[i].numeric) {
        // Right-aligned so the digits line up down the column.
        const float w = ImGui::CalcTextSize(text.c_str()).x;
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, widths[i] - pad - w));
      }
      ImGui::TextUnformatted(text.c_str());
    }
    // Tensor peak as a coloured bar, FP32 peak as a thin bar over it, both on one linear scale:
    // from the V100 on, the FP32 bar is a sliver of the tensor bar.
    const auto draw_bars = [&](ImVec2 at, float full, float h) {
      auto bar = [&](double v, float y0, float y1, ImU32 col) {
        if (v > 0 && bar_max > 0)
          dl->AddRectFilled(ImVec2(at.x, at.y + y0), ImVec2(at.x + std::max(2.0f, static_cast<float>(full * v / bar_max)), at.y + y1),
                            col);
      };
      bar(r.tensor_tflops, h * 0.1f, h * 0.9f, bar_tensor);
      bar(r.fp32_tflops, h * 0.38f, h * 0.62f, bar_fp32);
    };
    if (chart) {
      ImGui::TableNextColumn();
      const float full = ImGui::GetContentRegionAvail().x;
      chart_px = full;
      const float h = row_h - cell_pad_y * 2;
      draw_bars(ImGui::GetCursorScreenPos(), full, h);
      ImGui::Dummy(ImVec2(full, h));
    } else if (under) {
      // Across every column: drawn with the table's inner edge as the clip rectangle, not the
      // last column's.
      const ImRect edge = ImGui::GetCurrentTable()->InnerClipRect;
      const ImVec2 corner = row_corner.value_or(ImGui::GetCursorScreenPos());
      const float full = edge.Max.x - style.CellPadding.x - corner.x;
      chart_px = full;
      dl->PushClipRect(edge.Min, edge.Max, false);
      // draw_bars fills 0.1..0.9 of the height it is given with the tensor bar.
      draw_bars(ImVec2(corner.x, corner.y + text_dy + text_h + bar_gap - 0.1f * under_h / 0.8f), full, under_h / 0.8f);
      dl->PopClipRect();
    }
  }
  ImGui::EndTable();
  if (tight) ImGui::PopStyleVar();
  if (larger) ImGui::PopFont();
  ImGui::SetWindowFontScale(1.0f);
}

nlohmann::json GenerationsPanel::state() const {
  const char* bars_name = bars == Bars::column ? "column" : bars == Bars::under ? "under" : "none";
  return {{"shown", drawn},         {"columns", columns},         {"rows", row_ids},
          {"marked", marked},       {"dropped_columns", dropped_columns}, {"font_scale", font_scale},
          {"bars", bars_name},      {"chart_px", chart_px}};
}

}  // namespace ws::app
