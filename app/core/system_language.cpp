#include "core/system_language.hpp"

#include <cstdlib>
#include <string_view>

namespace ws::app {

namespace {

std::string_view env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::string_view(v) : std::string_view();
}

// "ko", "ko_KR", "ko_KR.UTF-8", "ko@...": Korean; "en...": English; else not one of ours.
std::string_view ours(std::string_view tag) {
  if (tag.starts_with("ko") && (tag.size() == 2 || tag[2] == '_' || tag[2] == '.' || tag[2] == '@')) return "ko";
  if (tag.starts_with("en") && (tag.size() == 2 || tag[2] == '_' || tag[2] == '.' || tag[2] == '@')) return "en";
  return {};
}

}  // namespace

std::string system_language_code() {
  std::string_view locale = env("LC_ALL");
  if (locale.empty()) locale = env("LC_MESSAGES");
  if (locale.empty()) locale = env("LANG");
  if (locale.empty() || locale == "C" || locale == "POSIX" || locale.starts_with("C.")) return "en";
  // LANGUAGE=ja:ko:en: the first of the user's preferences the app speaks.
  std::string_view prefs = env("LANGUAGE");
  while (!prefs.empty()) {
    const auto colon = prefs.find(':');
    const std::string_view tag = prefs.substr(0, colon);
    if (const auto code = ours(tag); !code.empty()) return std::string(code);
    if (colon == std::string_view::npos) break;
    prefs.remove_prefix(colon + 1);
  }
  const auto code = ours(locale);
  return code.empty() ? "en" : std::string(code);
}

}  // namespace ws::app
