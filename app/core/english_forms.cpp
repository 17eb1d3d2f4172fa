#include "core/english_forms.hpp"

#include <fmt/args.h>
#include <fmt/format.h>

namespace ws::app {

std::vector<EnglishForm> english_forms(std::initializer_list<std::pair<const char*, const char*>> rows) {
  std::vector<EnglishForm> out;
  out.reserve(rows.size());
  for (const auto& [pattern, key] : rows) out.push_back({std::regex(pattern), key});
  return out;
}

std::optional<std::string> reword(const std::string& text, const std::vector<EnglishForm>& forms,
                                  lesson::Language lang, const GroupWords& group_words) {
  std::smatch m;
  for (const auto& form : forms) {
    if (!std::regex_match(text, m, form.pattern)) continue;
    fmt::dynamic_format_arg_store<fmt::format_context> args;
    for (std::size_t i = 1; i < m.size(); ++i) args.push_back(group_words ? group_words(m[i].str()) : m[i].str());
    try {
      return fmt::vformat(lesson::tr(form.key, lang), args);
    } catch (const fmt::format_error&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string reword_or_keep(const std::string& text, const std::vector<EnglishForm>& forms, lesson::Language lang) {
  if (lang == lesson::Language::en) return text;
  return reword(text, forms, lang).value_or(text);
}

}  // namespace ws::app
