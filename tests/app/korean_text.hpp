// English left on a Korean screen: reads the texts a panel drew (the clip check's `drawn` list in
// --print-state) for phrases and for the English of UI strings that skipped tr(). Shared by the
// free-window test (gui_korean_test.cpp) and the lesson export that checks every step
// (gui_lesson_test.cpp), so the Korean lesson is exported once per CI run.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "i18n.hpp"

namespace ws::test_support {

inline bool lower_word(const std::string& w) {
  if (w.size() < 2) return false;
  for (char c : w)
    if (c < 'a' || c > 'z') return false;
  return true;
}

// Two English words in a row ("not chosen", "measured on this machine"): a phrase, which the
// Korean UI never shows. Kernel names ("cpu-naive"), units ("GFLOP/s", "ms") and model names
// ("GTX 580", "AMD EPYC 9754") are single tokens or capitalised and pass.
inline std::string english_phrase(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    while (!word.empty() && std::string(",.;:!?)").find(word.back()) != std::string::npos) word.pop_back();
    words.push_back(word);
    word.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == '\n')
      flush();
    else
      word += c;
  }
  flush();
  for (std::size_t i = 0; i + 1 < words.size(); ++i)
    if (lower_word(words[i]) && lower_word(words[i + 1])) return words[i] + " " + words[i + 1];
  return {};
}

// The English UI strings that Korean says differently, as they would be drawn: the template's
// longest run between placeholders. Finding one on screen means a string that skipped tr().
inline std::vector<std::string> english_ui_fragments() {
  std::vector<std::string> out;
  for (std::string_view key : ws::lesson::ui_keys()) {
    const std::string en = ws::lesson::tr(key, ws::lesson::Language::en);
    if (en == ws::lesson::tr(key, ws::lesson::Language::ko)) continue;
    std::string longest, run;
    for (std::size_t i = 0; i <= en.size(); ++i) {
      if (i == en.size() || en[i] == '{') {
        if (run.size() > longest.size()) longest = run;
        run.clear();
        if (i < en.size()) i = en.find('}', i);
        if (i == std::string::npos) break;
      } else {
        run += en[i];
      }
    }
    // Only fragments with an English word and a space: "ok", "SM ", " %, DRAM " and the kernel
    // names ("naive", "tiled") also occur in Korean lines.
    bool has_word = false;
    for (std::size_t i = 0, run_len = 0; i < longest.size(); ++i) {
      run_len = (longest[i] >= 'a' && longest[i] <= 'z') ? run_len + 1 : 0;
      has_word |= run_len >= 3;
    }
    if (longest.size() >= 5 && has_word && longest.find(' ') != std::string::npos) out.push_back(longest);
  }
  return out;
}

// Texts that are not the interface's own words: messages of the CUDA and OpenGL drivers and of
// the OS, shown verbatim after their library's name so they can be searched for.
inline bool passed_through(const std::string& text) {
  return text.rfind("CUDA: ", 0) == 0 || text.rfind("OpenGL: ", 0) == 0;
}

// `fragment` in `text` as whole words: "block " is not in the kernel name "regblock ".
inline bool contains_words(const std::string& text, const std::string& fragment) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_'; };
  for (auto at = text.find(fragment); at != std::string::npos; at = text.find(fragment, at + 1)) {
    const bool starts_word = at == 0 || !letter(fragment.front()) || !letter(text[at - 1]);
    const std::size_t end = at + fragment.size();
    const bool ends_word = end == text.size() || !letter(fragment.back()) || !letter(text[end]);
    if (starts_word && ends_word) return true;
  }
  return false;
}

// Every drawn text of one state line that reads as English, as "panel: text (why)".
inline std::vector<std::string> english_texts(const nlohmann::json& clip) {
  static const auto fragments = english_ui_fragments();
  std::vector<std::string> found;
  if (!clip.contains("drawn")) return {"(no `drawn` list in --print-state)"};
  for (const auto& d : clip["drawn"]) {
    const std::string panel = d["panel"], text = d["text"];
    if (passed_through(text)) continue;
    if (const auto phrase = english_phrase(text); !phrase.empty()) {
      found.push_back(panel + ": " + text + "  (phrase \"" + phrase + "\")");
      continue;
    }
    for (const auto& f : fragments)
      if (contains_words(text, f)) {
        found.push_back(panel + ": " + text + "  (the English of a UI string: \"" + f + "\")");
        break;
      }
  }
  return found;
}

inline std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

}  // namespace ws::test_support
