// Texts that sim/ and kernels/ write in English (they know no UI language), worded again in the
// UI's language: each known form is a pattern whose groups fill a template of the UI tables.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "lesson/i18n.hpp"

namespace ws::app {

struct EnglishForm {
  std::regex pattern;  // the whole text, its values as groups
  const char* key;     // the UI tables' template, the groups as {0}, {1}, ...
};

// One form per (pattern, key) row, compiled once by the caller's static table.
std::vector<EnglishForm> english_forms(std::initializer_list<std::pair<const char*, const char*>> rows);

// A group's value as the template receives it: a part's name may need words of its own.
using GroupWords = std::function<std::string(const std::string&)>;

// `text` in `lang` by the first form it matches whole; nothing where none does (or a template
// does not take the groups), so the caller decides what an unknown text becomes.
std::optional<std::string> reword(const std::string& text, const std::vector<EnglishForm>& forms,
                                  lesson::Language lang, const GroupWords& group_words = {});
// `text` in `lang`: as it is in English or where no form matches, else reword()'s words.
std::string reword_or_keep(const std::string& text, const std::vector<EnglishForm>& forms, lesson::Language lang);

}  // namespace ws::app
