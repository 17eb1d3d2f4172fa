#include "gui/text_clip_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <set>

#include <imgui.h>
#include <imgui_internal.h>

namespace ws::app {

// Called by the wrapped ImGui::RenderTextEllipsis below.
void note_ellipsis(const ImDrawList* list, bool shortened, const char* begin, const char* end);
// Called by the wrapped ImDrawList::AddText below.
void check_text_entry(const ImDrawList* list, const ImFont* font, float size, const ImVec2& pos, const char* begin,
                      const char* end, float wrap_width, const ImVec4* fine_clip);

namespace {

ClipReport g_current, g_last;
bool g_in_frame = false;
bool g_wrapped_called = false;
std::set<std::pair<std::string, std::string>> g_drawn_seen;  // (panel, text) drawn this frame

// Less than a pixel over the edge is antialiasing, not a cut letter.
constexpr float kTolerance = 1.0f;

std::string panel_name(const ImGuiWindow* window) {
  std::string panel = window->RootWindow ? window->RootWindow->Name : window->Name;
  if (auto hashes = panel.find("##"); hashes != std::string::npos) panel.resize(hashes);
  return panel;
}

bool blank(const char* begin, const char* end) {
  for (const char* p = begin; p < end; ++p)
    if (*p != ' ' && *p != '\t' && *p != '\n') return false;
  return true;
}

void check_text(const ImDrawList* list, const ImFont* font, float size, const ImVec2& pos, const char* begin,
                const char* end, float wrap_width, const ImVec4* fine_clip) {
  g_wrapped_called = true;
  if (!g_in_frame || !font || !begin) return;
  if (!end) end = begin + std::char_traits<char>::length(begin);
  if (blank(begin, end)) return;
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (!ctx || !ctx->CurrentWindow) return;
  ImGuiWindow* window = ctx->CurrentWindow;
  if (auto [it, fresh] = g_drawn_seen.insert({panel_name(window), std::string(begin, end)}); fresh)
    g_current.drawn.push_back({it->first, it->second});
  // Only what a panel draws: the foreground/background lists have no container to be cut by.
  if (list != window->DrawList) return;
  const ImVec2 extent = font->CalcTextSizeA(size, FLT_MAX, wrap_width > 0 ? wrap_width : 0.0f, begin, end);
  ImVec4 clip = list->_CmdHeader.ClipRect;
  if (fine_clip) {
    clip.x = std::max(clip.x, fine_clip->x);
    clip.y = std::max(clip.y, fine_clip->y);
    clip.z = std::min(clip.z, fine_clip->z);
    clip.w = std::min(clip.w, fine_clip->w);
  }
  // Text drawn with a fine clip rectangle is deliberately cut by ImGui only where the widget had
  // no room: that is exactly what we look for, so it is judged like the rest.
  const bool cut_x = pos.x < clip.x - kTolerance || pos.x + extent.x > clip.z + kTolerance;
  const bool cut_y = pos.y < clip.y - kTolerance || pos.y + extent.y > clip.w + kTolerance;
  // Above or below a window that scrolls, a line is waiting to be scrolled to, not lost.
  const bool scrolls = window->ScrollMax.y > 0 || window->ScrollbarY;
  const bool outside_y = pos.y >= clip.w || pos.y + extent.y <= clip.y;
  if (!cut_x && !cut_y) return;
  if (!cut_x && scrolls) return;
  if (cut_x && outside_y && scrolls) return;  // a line scrolled away, cut at its end too
  g_current.texts.push_back({panel_name(window), std::string(begin, end)});
}

}  // namespace

void note_ellipsis(const ImDrawList* list, bool shortened, const char* begin, const char* end) {
  if (!g_in_frame || !shortened || !begin) return;
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (!ctx || !ctx->CurrentWindow || list != ctx->CurrentWindow->DrawList) return;
  if (!end) end = begin + std::char_traits<char>::length(begin);
  const char* hashes = std::search(begin, end, "##", "##" + 2);  // ImGui hides what follows "##"
  g_current.texts.push_back({panel_name(ctx->CurrentWindow), std::string(begin, hashes) + " (shortened to ...)"});
}

std::map<std::string, int> ClipReport::by_panel() const {
  std::map<std::string, int> out;
  for (const auto& t : texts) ++out[t.panel];
  return out;
}

void clip_check_begin_frame() {
  g_current = {};
  g_drawn_seen.clear();
  g_in_frame = true;
}

void clip_check_end_frame() {
  // ImGui does not even draw an item that lies wholly outside its window, so a panel that cannot
  // scroll but has more content than room has lost text the check above never sees.
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  if (ctx) {
    for (ImGuiWindow* window : ctx->Windows) {
      // A panel without a scroll bar is judged below on this frame's content; ScrollMax is the last
      // frame's, and shows nothing on screen there.
      if (window->Active && window->ScrollMax.y > kTolerance &&
          !(window->Flags & (ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup |
                             ImGuiWindowFlags_NoScrollbar)))
        g_current.scrolling.push_back(
            {panel_name(window), fmt::format("({} px more than it shows)", static_cast<int>(window->ScrollMax.y))});
      if (!window->Active || !(window->Flags & ImGuiWindowFlags_NoScrollbar)) continue;
      if (window->Flags & (ImGuiWindowFlags_MenuBar | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) continue;
      // This frame's content: ContentSize is the last frame's, which after a panel shrank reports
      // an overflow that nothing on screen shows.
      const float room = window->InnerRect.GetHeight() - 2 * window->WindowPadding.y;
      const float overflow = window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y - room;
      if (overflow > kTolerance) {
        g_current.texts.push_back({panel_name(window), "(content " + std::to_string(static_cast<int>(overflow)) + " px taller than the panel)"});
      }
    }
  }
  g_last = std::move(g_current);
  g_current = {};
  g_in_frame = false;
}

const ClipReport& clip_check_last_frame() { return g_last; }

void check_text_entry(const ImDrawList* list, const ImFont* font, float size, const ImVec2& pos, const char* begin,
                      const char* end, float wrap_width, const ImVec4* fine_clip) {
  check_text(list, font, size, pos, begin, end, wrap_width, fine_clip);
}

bool clip_check_linked() { return g_wrapped_called; }

}  // namespace ws::app

// The wrapped entry points (Itanium ABI: `this` is the first argument). The short overload calls
// the long one inside libimgui, where the wrap does not reach, so both are checked here.
extern "C" {
void __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList*, const ImFont*, float,
                                                                          const ImVec2&, ImU32, const char*,
                                                                          const char*, float, const ImVec4*);
void __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList*, const ImVec2&, ImU32, const char*, const char*);

void __wrap__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList* self, const ImFont* font,
                                                                          float size, const ImVec2& pos, ImU32 col,
                                                                          const char* begin, const char* end,
                                                                          float wrap_width, const ImVec4* fine_clip) {
  const ImFont* used_font = font ? font : self->_Data->Font;
  const float used_size = size > 0 ? size : self->_Data->FontSize;
  ws::app::check_text_entry(self, used_font, used_size, pos, begin, end, wrap_width, fine_clip);
  __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(self, font, size, pos, col, begin, end,
                                                                      wrap_width, fine_clip);
}

// ImGui shortens a table header or tab that has no room to "medi..." instead of cutting it: for a
// reader that is the same lost word, so it counts too.
void __real__ZN5ImGui18RenderTextEllipsisEP10ImDrawListRK6ImVec2S4_ffPKcS6_PS3_(ImDrawList*, const ImVec2&,
                                                                               const ImVec2&, float, float,
                                                                               const char*, const char*,
                                                                               const ImVec2*);
void __wrap__ZN5ImGui18RenderTextEllipsisEP10ImDrawListRK6ImVec2S4_ffPKcS6_PS3_(
    ImDrawList* list, const ImVec2& pos_min, const ImVec2& pos_max, float clip_max_x, float ellipsis_max_x,
    const char* text, const char* text_end, const ImVec2* known_size) {
  const ImVec2 size = known_size ? *known_size : ImGui::CalcTextSize(text, text_end, false);
  ws::app::note_ellipsis(list, size.x > pos_max.x - pos_min.x + 1.0f, text, text_end);
  __real__ZN5ImGui18RenderTextEllipsisEP10ImDrawListRK6ImVec2S4_ffPKcS6_PS3_(list, pos_min, pos_max, clip_max_x,
                                                                            ellipsis_max_x, text, text_end,
                                                                            known_size);
}

void __wrap__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList* self, const ImVec2& pos, ImU32 col,
                                                     const char* begin, const char* end) {
  ws::app::check_text_entry(self, self->_Data->Font, self->_Data->FontSize, pos, begin, end, 0.0f, nullptr);
  __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(self, pos, col, begin, end);
}
}
