#include "gui/text_fit.hpp"

#include <algorithm>

#include <imgui.h>
#include <imgui_internal.h>

namespace ws::app {

namespace {

// The words of one line of text, each with the run of spaces before it; a figure and the word or
// "%" after it are one piece ("3.18 GFLOP/s", "1 thread", "51.5 %"), never parted by a wrap.
struct Piece {
  std::string gap, words;
};

std::vector<Piece> pieces_of(const std::string& text, std::size_t from, std::size_t to) {
  std::vector<Piece> pieces;
  for (std::size_t i = from; i < to;) {
    const std::size_t word_at = text.find_first_not_of(' ', i);
    if (word_at == std::string::npos || word_at >= to) break;
    const std::size_t word_end = std::min(text.find(' ', word_at), to);
    std::string gap = text.substr(i, word_at - i), word = text.substr(word_at, word_end - word_at);
    if (!pieces.empty() && figure_and_its_unit(pieces.back().words, word))
      pieces.back().words += gap + word;
    else
      pieces.push_back({std::move(gap), std::move(word)});
    i = word_end;
  }
  return pieces;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  for (auto& p : pieces_of(text, 0, text.size())) words.push_back(std::move(p.words));
  return words;
}

float width_of(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }

}  // namespace

bool figure_and_its_unit(std::string_view word, std::string_view next) {
  while (!word.empty() && word.back() == ' ') word.remove_suffix(1);
  if (word.empty() || next.empty()) return false;
  const char c = next.front();
  return word.back() >= '0' && word.back() <= '9' && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '%');
}

std::string fit_whole_words(const std::string& text, float max_w) {
  if (width_of(text) <= max_w) return text;
  const auto words = split_words(text);
  std::string fitted;
  for (const auto& word : words) {
    const std::string candidate = fitted.empty() ? word : fitted + " " + word;
    if (width_of(candidate + "\xE2\x80\xA6") > max_w) break;
    fitted = candidate;
  }
  if (fitted.empty()) return "";
  // A dangling comma or colon before the ellipsis reads as a typo.
  while (!fitted.empty() && (fitted.back() == ',' || fitted.back() == ':' || fitted.back() == ';')) fitted.pop_back();
  return fitted + "\xE2\x80\xA6";
}

std::vector<std::string> wrap_whole_words(const std::string& text, float max_w) {
  std::vector<std::string> lines;
  std::string line;
  for (const auto& word : split_words(text)) {
    if (width_of(word) > max_w) continue;
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (width_of(candidate) <= max_w) {
      line = candidate;
    } else {
      lines.push_back(line);
      line = word;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

bool keeps_every_word(const std::vector<std::string>& lines, const std::string& text) {
  std::size_t chars = 0;  // each line and the space that followed it
  for (const auto& l : lines) chars += l.size() + 1;
  return !lines.empty() && chars == text.size() + 1;
}

std::string break_at_spaces(const std::string& text, float max_w) {
  std::string out;
  std::size_t para = 0;
  while (true) {
    // Each paragraph on its own; a gap is kept as written ("cycle 3  =  0.1 ms") where the line
    // goes on, dropped where it breaks.
    const std::size_t para_end = std::min(text.find('\n', para), text.size());
    const auto pieces = pieces_of(text, para, para_end);
    std::string line;
    for (std::size_t p = 0; p < pieces.size(); ++p) {
      if (p == 0) {
        line = pieces[p].gap + pieces[p].words;  // a paragraph's leading spaces stay
      } else if (width_of(line + pieces[p].gap + pieces[p].words) <= max_w) {
        line += pieces[p].gap + pieces[p].words;
      } else {
        out += line + "\n";
        line = pieces[p].words;
      }
    }
    out += line;
    if (para_end >= text.size()) return out;
    out += '\n';
    para = para_end + 1;
  }
}

ImVec2 wrapped_text_size(const std::string& text, float width) {
  return ImGui::CalcTextSize(break_at_spaces(text, width).c_str(), nullptr, false, width);
}

void text_wrapped(const std::string& text) {
  // As ImGui::TextWrapped: at the wrap position pushed, else at the window's right edge.
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float wrap_pos = window->DC.TextWrapPos < 0.0f ? 0.0f : window->DC.TextWrapPos;
  const float width = ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_pos);
  ImGui::PushTextWrapPos(wrap_pos);
  ImGui::TextUnformatted(break_at_spaces(text, width).c_str());
  ImGui::PopTextWrapPos();
}

bool wrapped_button(const std::string& text, const char* id) {
  std::string label;
  for (const auto& line : wrap_whole_words(text, ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().FramePadding.x))
    label += (label.empty() ? "" : "\n") + line;
  // A window narrower than any word wraps to nothing: the whole line then, cut by the window (an
  // empty label at the window's root is an ImGui assertion, found by the soak).
  if (label.empty()) label = text;
  return ImGui::Button((label + "##" + id).c_str());
}

void wrapped_text(const ImVec4& colour, const std::string& text, float wrap_pos_x) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::PushTextWrapPos(wrap_pos_x);
  text_wrapped(text);
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

}  // namespace ws::app
