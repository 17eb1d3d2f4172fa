// The window's first language follows the desktop's locale, as the C library would read it.
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "core/system_language.hpp"

namespace {

// Sets exactly these locale variables (the others unset) for one call, then puts back what was.
std::string language_with(const std::map<std::string, std::string>& vars) {
  static const char* const names[] = {"LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"};
  std::map<std::string, std::optional<std::string>> saved;
  for (const char* n : names) {
    const char* v = std::getenv(n);
    saved[n] = v ? std::optional<std::string>(v) : std::nullopt;
    ::unsetenv(n);
  }
  for (const auto& [n, v] : vars) ::setenv(n.c_str(), v.c_str(), 1);
  const std::string code = ws::app::system_language_code();
  for (const auto& [n, v] : saved)
    if (v) ::setenv(n.c_str(), v->c_str(), 1);
    else ::unsetenv(n.c_str());
  return code;
}

}  // namespace

TEST(SystemLanguage, AKoreanDesktopIsKorean) {
  EXPECT_EQ(language_with({{"LANG", "ko_KR.UTF-8"}}), "ko");
  EXPECT_EQ(language_with({{"LANG", "ko"}}), "ko");
  EXPECT_EQ(language_with({{"LANG", "en_US.UTF-8"}, {"LC_MESSAGES", "ko_KR.UTF-8"}}), "ko");
  EXPECT_EQ(language_with({{"LANG", "en_US.UTF-8"}, {"LC_ALL", "ko_KR.UTF-8"}}), "ko");
}

TEST(SystemLanguage, LcAllThenLcMessagesThenLangDecide) {
  EXPECT_EQ(language_with({{"LANG", "ko_KR.UTF-8"}, {"LC_ALL", "en_GB.UTF-8"}}), "en");
  EXPECT_EQ(language_with({{"LANG", "ko_KR.UTF-8"}, {"LC_MESSAGES", "de_DE.UTF-8"}}), "en");
  EXPECT_EQ(language_with({}), "en");
  EXPECT_EQ(language_with({{"LANG", "C.UTF-8"}}), "en");
  EXPECT_EQ(language_with({{"LANG", "POSIX"}}), "en");
  EXPECT_EQ(language_with({{"LANG", "kok_IN"}}), "en") << "Konkani is not Korean";
}

// GNU's LANGUAGE: the first preference the app speaks, unless the locale is C.
TEST(SystemLanguage, TheLanguagePreferenceListComesFirstOutsideTheCLocale) {
  EXPECT_EQ(language_with({{"LANG", "de_DE.UTF-8"}, {"LANGUAGE", "ja:ko:en"}}), "ko");
  EXPECT_EQ(language_with({{"LANG", "ko_KR.UTF-8"}, {"LANGUAGE", "en_US:ko"}}), "en");
  EXPECT_EQ(language_with({{"LANG", "ko_KR.UTF-8"}, {"LANGUAGE", "fr:de"}}), "ko");
  EXPECT_EQ(language_with({{"LANG", "C"}, {"LANGUAGE", "ko"}}), "en");
}
