// UI string tables (English, Korean) and finding a font that can draw Hangul.
#pragma once

#include <fmt/format.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ws::lesson {

enum class Language { en, ko };

std::string_view language_code(Language lang);          // "en", "ko"
const char* language_name(Language lang);                // in its own language: "English", "한국어"
std::optional<Language> language_from_code(std::string_view code);

// The label for `key` ("panel.gpu", "control.run", ...; see kUiKeys in i18n.cpp and
// docs/LESSONS.md). Falls back to English when the language lacks it, and to the key itself when
// no table has it, so the UI shows something findable instead of a blank. Never null; the
// pointer stays valid for the life of the program.
const char* tr(std::string_view key, Language lang);

// Every key with an English string, for tests and tools.
std::vector<std::string_view> ui_keys();

// tr() plus fmt-style "{}" arguments ("measured on {}"). A translation with broken braces
// yields the unformatted template rather than throwing into a frame.
template <class... Args>
std::string trf(std::string_view key, Language lang, Args&&... args) {
    const char* pattern = tr(key, lang);
    try {
        return fmt::format(fmt::runtime(pattern), std::forward<Args>(args)...);
    } catch (const fmt::format_error&) {
        return pattern;
    }
}

// Path to a font file that covers Hangul (U+AC00), preferring a regular-weight sans .ttf/.otf,
// or nullopt when none is installed. WARPSCOPE_HANGUL_FONT, if set to an existing file, wins.
std::optional<std::string> find_hangul_font();

}  // namespace ws::lesson
