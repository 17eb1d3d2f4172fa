#include "gui/caption_view.hpp"

#include <imgui.h>

namespace ws::app {

namespace {

// Splits at spaces but keeps each space with the word before it, so spacing survives wrapping.
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  for (char c : text) {
    current += c;
    if (c == ' ') {
      words.push_back(current);
      current.clear();
    }
  }
  if (!current.empty()) words.push_back(current);
  return words;
}

}  // namespace

void draw_caption_blocks(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold,
                         float wrap_width) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float line_h = ImGui::GetTextLineHeightWithSpacing();
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  const float size = ImGui::GetFontSize();
  float y = start.y;
  for (const auto& block : blocks) {
    float indent = 0;
    if (block.kind == lesson::CaptionBlock::Kind::list_item) {
      dl->AddText(regular, size, ImVec2(start.x + 4, y), colour, "\xE2\x80\xA2");  // bullet
      indent = size * 1.2f;
    }
    float x = start.x + indent;
    for (const auto& span : block.spans) {
      ImFont* font = span.bold && bold ? bold : regular;
      for (const auto& word : words_of(span.text)) {
        const float w = font->CalcTextSizeA(size, 1e9f, 0, word.c_str()).x;
        if (x + w > start.x + wrap_width && x > start.x + indent) {
          x = start.x + indent;
          y += line_h;
        }
        dl->AddText(font, size, ImVec2(x, y), colour, word.c_str());
        if (span.bold && font == regular)  // no bold face installed: underline instead of losing it
          dl->AddLine(ImVec2(x, y + size), ImVec2(x + w, y + size), colour);
        x += w;
      }
    }
    y += line_h * (block.kind == lesson::CaptionBlock::Kind::paragraph ? 1.4f : 1.1f);
  }
  ImGui::Dummy(ImVec2(wrap_width, y - start.y));
}

}  // namespace ws::app
