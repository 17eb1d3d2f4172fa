// What the app remembers between runs (theme, UI scale, language, the last lesson and step),
// kept as a small TOML file in the user's config directory. Loading never fails: a missing or
// broken file gives the defaults, so a bad edit by hand can never keep the window from opening.
#pragma once

#include <filesystem>
#include <cstddef>
#include <string>
#include <string_view>

namespace ws::app {

inline constexpr float kMinUiScale = 0.5f, kMaxUiScale = 3.0f;
inline constexpr int kMaxLastStep = 100000;
// The real file is a few hundred bytes; a larger one is not ours and is refused unread.
inline constexpr std::size_t kMaxSettingsBytes = 64 * 1024;

struct Settings {
  std::string theme = "dark";   // "dark" or "light"
  float ui_scale = 1.0f;        // kMinUiScale..kMaxUiScale
  std::string language;         // "en" or "ko"; "" until saved: the desktop's (system_language_code)
  // Projector mode (key P): in lecture mode the caption is drawn at lecture-hall size (see
  // docs/LESSONS.md). On unless the user turned it off.
  bool projector = true;
  std::string last_lesson;      // path of the lesson open when the app last closed, "" for none
  int last_step = 0;            // step of that lesson (as the GUI counts it), 0..kMaxLastStep

  // Set by load_settings only: why (part of) the file was not used, "" when all was well.
  // Never written back.
  std::string warning;
};

// $WARPSCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/warpscope, else $HOME/.config/warpscope.
// Empty when none of those is set (relative XDG_CONFIG_HOME is ignored, as the XDG spec says).
std::filesystem::path settings_dir();
// settings_dir() / "settings.toml", or empty.
std::filesystem::path settings_path();

// Never throws. A missing file gives the defaults with no warning; an unreadable or malformed
// file, or one that is not a regular file or is over kMaxSettingsBytes (never read), gives the
// defaults plus a warning; a value of the wrong type or an unknown name keeps
// that field's default (with a warning); numbers out of range are clamped silently.
Settings load_settings();
Settings load_settings_from(const std::filesystem::path& file);
// The same rules applied to the text of a settings file; `where` names it in warnings.
Settings parse_settings(std::string_view text, const std::string& where);

// Writes to a temporary file in the same directory, then renames it over the old one, so a
// crash mid-write leaves the previous settings intact. Creates the directory. Returns false
// and fills *error (when given) on failure; never throws.
bool save_settings(const Settings& settings, std::string* error = nullptr);
bool save_settings_to(const Settings& settings, const std::filesystem::path& file, std::string* error = nullptr);

}  // namespace ws::app
