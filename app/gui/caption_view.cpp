#include "gui/caption_view.hpp"

#include <string>
#include <string_view>

#include <imgui.h>

#include "gui/text_fit.hpp"

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

// One layout for drawing and measuring, so the panel is always exactly as tall as its text.
// `dl` null: measure only. `lines`, where given, gets each block's lines as laid out. Returns the
// height used.
float lay_out(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold, float size,
              float wrap_width, ImDrawList* dl, ImVec2 start, CaptionLines* lines = nullptr) {
  std::string line_text;
  const auto end_line = [&] {
    while (!line_text.empty() && line_text.back() == ' ') line_text.pop_back();
    if (lines != nullptr) lines->back().push_back(line_text);
    line_text.clear();
  };
  const float line_h = size + ImGui::GetStyle().ItemSpacing.y;
  const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
  float y = start.y;
  float last_line_bottom = start.y;
  for (const auto& block : blocks) {
    float indent = 0;
    if (lines != nullptr) lines->emplace_back();
    if (block.kind == lesson::CaptionBlock::Kind::list_item) {
      if (dl) dl->AddText(regular, size, ImVec2(start.x + 4, y), colour, "\xE2\x80\xA2");  // bullet
      indent = size * 1.2f;
      line_text = "\xE2\x80\xA2 ";
    }
    // Pieces of text in one face; a word in bold followed by its ending in regular ("**4,096개**이고")
    // is two pieces but one word, and a line may only break where a piece ends in a space.
    struct Piece {
      ImFont* font;
      bool underline;  // bold asked for, no bold face installed
      std::string text;
    };
    std::vector<Piece> pieces;
    for (const auto& span : block.spans) {
      ImFont* font = span.bold && bold ? bold : regular;
      for (auto& word : words_of(span.text)) pieces.push_back({font, span.bold && font == regular, std::move(word)});
    }
    auto width = [&](const Piece& p, bool without_trailing_space) {
      std::string_view t(p.text);
      while (without_trailing_space && !t.empty() && t.back() == ' ') t.remove_suffix(1);
      return p.font->CalcTextSizeA(size, 1e9f, 0, t.data(), t.data() + t.size()).x;
    };
    // The whole word from a piece: pieces up to and including the first that ends in a space.
    const auto word_end = [&](std::size_t from) {
      while (from + 1 < pieces.size() && (pieces[from].text.empty() || pieces[from].text.back() != ' ')) ++from;
      return from;
    };
    float x = start.x + indent;
    for (std::size_t i = 0; i < pieces.size();) {
      // A figure takes the word or "%" after it along ("0.1823 ms", "132 SMs", "87 %"), as the
      // panels do.
      std::size_t end = word_end(i);
      while (end + 1 < pieces.size() && figure_and_its_unit(pieces[end].text, pieces[end + 1].text))
        end = word_end(end + 1);
      float word_w = 0;
      for (std::size_t j = i; j <= end; ++j) word_w += width(pieces[j], j == end);
      // The trailing space may hang over the edge; the letters may not.
      if (x + word_w > start.x + wrap_width && x > start.x + indent) {
        x = start.x + indent;
        y += line_h;
        end_line();
      }
      for (std::size_t j = i; j <= end; ++j) {
        const Piece& p = pieces[j];
        const float w_letters = width(p, true);
        if (dl) {
          std::string_view letters(p.text);
          while (!letters.empty() && letters.back() == ' ') letters.remove_suffix(1);
          dl->AddText(p.font, size, ImVec2(x, y), colour, letters.data(), letters.data() + letters.size());
          if (p.underline) dl->AddLine(ImVec2(x, y + size), ImVec2(x + w_letters, y + size), colour);
        }
        x += width(p, false);
        line_text += p.text;
      }
      i = end + 1;
    }
    end_line();
    last_line_bottom = y + size;
    y += line_h * (block.kind == lesson::CaptionBlock::Kind::paragraph ? 1.4f : 1.1f);
  }
  // The space after the last block is not part of the text: without it the panel ends at the
  // last line instead of a blank line below it.
  return last_line_bottom - start.y;
}

}  // namespace

void draw_caption_blocks(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold,
                         float font_px, float wrap_width, CaptionLines* lines) {
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const float h = lay_out(blocks, regular, bold, font_px, wrap_width, ImGui::GetWindowDrawList(), start, lines);
  ImGui::Dummy(ImVec2(wrap_width, h));
}

float caption_blocks_height(const std::vector<lesson::CaptionBlock>& blocks, ImFont* regular, ImFont* bold,
                            float font_px, float wrap_width) {
  return lay_out(blocks, regular, bold, font_px, wrap_width, nullptr, ImVec2(0, 0));
}

}  // namespace ws::app
