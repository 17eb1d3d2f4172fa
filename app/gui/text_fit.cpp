#include "gui/text_fit.hpp"

#include <algorithm>

#include <imgui.h>

namespace ws::app {

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  for (char c : text) {
    if (c == ' ') {
      if (!current.empty()) words.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) words.push_back(current);
  return words;
}

float width_of(const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; }

}  // namespace

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

std::string break_at_spaces(const std::string& text, float max_w) {
  // Each word with the run of spaces before it, kept as written ("cycle 3  =  0.1 ms") where the
  // line goes on, dropped where it breaks.
  std::string out, line;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t word_at = text.find_first_not_of(' ', i);
    if (word_at == std::string::npos) break;
    const std::size_t word_end = std::min(text.find(' ', word_at), text.size());
    const std::string gap = text.substr(i, word_at - i), word = text.substr(word_at, word_end - word_at);
    if (line.empty() || width_of(line + gap + word) <= max_w) {
      line += (line.empty() ? "" : gap) + word;
    } else {
      out += line + "\n";
      line = word;
    }
    i = word_end;
  }
  return out + line;
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

void wrapped_text(const ImVec4& colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

}  // namespace ws::app
