#include "gui/theme.hpp"

#include <array>
#include <cstdint>

namespace ws::app {

namespace {
Theme g_theme = Theme::dark;
}

void apply_theme(Theme theme) {
  g_theme = theme;
  ImGuiStyle& style = ImGui::GetStyle();
  if (theme == Theme::dark) {
    ImGui::StyleColorsDark(&style);
  } else {
    // A projector washes out mid-greys: pure black text on white, strong borders.
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_Text] = ImVec4(0, 0, 0, 1);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(1, 1, 1, 1);
    style.Colors[ImGuiCol_Border] = ImVec4(0, 0, 0, 0.6f);
    // Secondary text (notes, sources, what is not run yet) and the faint lines drawn in its
    // colour: ImGui's 0.6 grey is 2.8:1 on white, under the 4.5:1 text needs; 0.4 is 5.7:1 and
    // still plainly lighter than the black text beside it.
    style.Colors[ImGuiCol_TextDisabled] = ImVec4(0.40f, 0.40f, 0.40f, 1);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.90f, 0.90f, 0.90f, 1);
  }
  style.WindowRounding = 4;
  style.FrameRounding = 3;
  style.WindowBorderSize = 1;
}

Theme current_theme() { return g_theme; }

LaneBackground lane_background() {
  return g_theme == Theme::light_high_contrast ? LaneBackground::light : LaneBackground::dark;
}

ImU32 kernel_colour(const std::string& kernel) {
  // Fixed per name, so a kernel keeps its colour across runs and screenshots. No purple: that is
  // the colour of runs measured elsewhere, drawn on the same plot (cpu-parallel's dots were purple
  // beside the dashed purple lines of the H200 file).
  static const std::array<ImU32, 8> palette = {
      IM_COL32(230, 85, 13, 255),  IM_COL32(49, 130, 189, 255), IM_COL32(49, 163, 84, 255),
      IM_COL32(200, 40, 120, 255), IM_COL32(214, 39, 40, 255), IM_COL32(23, 190, 207, 255),
      IM_COL32(188, 189, 34, 255),  IM_COL32(140, 86, 75, 255)};
  std::uint32_t h = 2166136261u;  // FNV-1a: stable across runs, unlike std::hash
  for (unsigned char c : kernel) h = (h ^ c) * 16777619u;
  return palette[h % palette.size()];
}

ImVec4 colour_ok() { return g_theme == Theme::dark ? ImVec4(0.4f, 0.9f, 0.4f, 1) : ImVec4(0, 0.45f, 0, 1); }
ImVec4 colour_error() { return g_theme == Theme::dark ? ImVec4(1, 0.35f, 0.3f, 1) : ImVec4(0.75f, 0, 0, 1); }
ImVec4 colour_measured() { return g_theme == Theme::dark ? ImVec4(0.55f, 0.8f, 1, 1) : ImVec4(0, 0.25f, 0.6f, 1); }
ImVec4 colour_elsewhere() { return g_theme == Theme::dark ? ImVec4(0.85f, 0.62f, 1, 1) : ImVec4(0.45f, 0.1f, 0.6f, 1); }
ImVec4 colour_simulated() { return g_theme == Theme::dark ? ImVec4(1, 0.8f, 0.4f, 1) : ImVec4(0.55f, 0.3f, 0, 1); }

}  // namespace ws::app
