// Fonts found through fontconfig: ImGui's built-in font has no "×", "³" or Hangul.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

struct ImFont;

namespace ws::app {

struct FontStatus {
  std::string latin_path;            // empty: fell back to ImGui's built-in font
  std::optional<std::string> hangul_path;  // merged in when found
  ImFont* regular = nullptr;
  ImFont* bold = nullptr;            // captions' **bold**; the regular font when no bold face exists
  // The caption's faces at its own size (projector mode draws it larger than the UI); the UI
  // faces when the sizes are the same.
  ImFont* caption_regular = nullptr;
  ImFont* caption_bold = nullptr;
};

// Characters of `text` (UTF-8) that `font` would draw as the missing-glyph box.
int count_missing_glyphs(const ImFont* font, const std::string& text);

// Path of the best installed font for a fontconfig pattern such as "sans-serif:lang=en".
std::optional<std::string> find_font_file(const char* pattern);

// Rebuilds the font atlas at `pixel_size`; with `want_hangul`, merges a Korean font when one is
// installed. Must be called between frames (the OpenGL3 backend re-uploads the atlas).
// With `want_hangul`, the Hangul of the Korean UI strings and of `hangul_text` (the open lesson)
// is loaded; without it, only the Hangul of the language menu ("한국어").
// `caption_pixel_size` above `pixel_size` adds the caption faces at that size.
FontStatus load_fonts(float pixel_size, bool want_hangul, const std::string& hangul_text = "",
                      float caption_pixel_size = 0);

// Bytes of the font atlas the driver holds, as load_fonts uploaded it (one byte a pixel).
std::uint64_t font_atlas_bytes();

}  // namespace ws::app
