#include "gui/fonts.hpp"

#include <fontconfig/fontconfig.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <cstring>
#include <map>
#include <vector>

#include "lesson/i18n.hpp"
#include <backends/imgui_impl_opengl3.h>

namespace ws::app {

namespace {

// Hangul syllables and jamo, and CJK punctuation: what the Korean font adds to the Latin one.
bool is_hangul_or_cjk(unsigned int c) { return c >= 0x1100 && c != 0xFFFD; }

// Only the Hangul the app can show: the language menu, the Korean UI strings when asked for, and
// the open lesson. Loading all 11,172 syllables made a 64-256 MiB atlas that took up to a second
// to rebuild at every UI scale change, long enough to freeze the window in front of a class.
const ImWchar* hangul_ranges(bool whole_ui, const std::string& extra_text) {
  static ImVector<ImWchar> ranges;
  ImFontGlyphRangesBuilder builder;
  auto add = [&](const char* text) {
    const char* end = text + std::strlen(text);
    while (text < end) {
      unsigned int c = 0;
      const int n = ImTextCharFromUtf8(&c, text, end);
      if (n <= 0) break;
      text += n;
      if (is_hangul_or_cjk(c)) builder.AddChar(static_cast<ImWchar>(c));
    }
  };
  add(lesson::language_name(lesson::Language::ko));
  if (whole_ui) {
    for (const auto key : lesson::ui_keys()) add(lesson::tr(key, lesson::Language::ko));
    add(extra_text.c_str());
  }
  ranges.clear();
  builder.BuildRanges(&ranges);
  return ranges.Data;
}

}  // namespace

std::optional<std::string> find_font_file(const char* pattern_text) {
  // fontconfig's match takes milliseconds and the answer does not change while the app runs;
  // fonts are looked up again at every UI scale change.
  static std::map<std::string, std::optional<std::string>> cache;
  if (const auto it = cache.find(pattern_text); it != cache.end()) return it->second;
  auto& slot = cache[pattern_text];
  if (!FcInit()) return slot = std::nullopt;
  FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(pattern_text));
  if (!pattern) return std::nullopt;
  FcConfigSubstitute(nullptr, pattern, FcMatchPattern);
  FcDefaultSubstitute(pattern);
  FcResult result = FcResultNoMatch;
  FcPattern* match = FcFontMatch(nullptr, pattern, &result);
  std::optional<std::string> path;
  FcChar8* file = nullptr;
  if (match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch) {
    const std::string p(reinterpret_cast<const char*>(file));
    // FreeType-only formats (Type 1) cannot be read by stb_truetype.
    if (p.ends_with(".ttf") || p.ends_with(".otf") || p.ends_with(".ttc")) path = p;
  }
  if (match) FcPatternDestroy(match);
  FcPatternDestroy(pattern);
  return slot = path;
}

static std::optional<std::string> find_hangul_font_file(bool bold) {
  static std::optional<std::string> found[2];
  static bool looked[2] = {false, false};
  if (looked[bold]) return found[bold];
  looked[bold] = true;
  return found[bold] = [bold]() -> std::optional<std::string> {
  if (!bold) {
    if (auto path = lesson::find_hangul_font()) return path;
  }
  // fontconfig answers any request with *some* font; only trust one that really has Hangul.
  static const std::vector<const char*> bold_patterns = {"NanumGothic:style=Bold", "Noto Sans CJK KR:style=Bold"};
  static const std::vector<const char*> regular_patterns = {"NanumGothic", "Noto Sans CJK KR", "sans-serif:lang=ko"};
  for (const char* pattern : bold ? bold_patterns : regular_patterns) {
    if (auto path = find_font_file(pattern)) {
      FcPattern* p = FcNameParse(reinterpret_cast<const FcChar8*>(pattern));
      FcConfigSubstitute(nullptr, p, FcMatchPattern);
      FcDefaultSubstitute(p);
      FcResult r;
      FcPattern* m = FcFontMatch(nullptr, p, &r);
      FcCharSet* charset = nullptr;
      bool has_hangul = m && FcPatternGetCharSet(m, FC_CHARSET, 0, &charset) == FcResultMatch &&
                        FcCharSetHasChar(charset, 0xAC00) && FcCharSetHasChar(charset, 0xD7A3);
      if (m) FcPatternDestroy(m);
      FcPatternDestroy(p);
      if (has_hangul) return path;
    }
  }
  return std::nullopt;
  }();
}

int count_missing_glyphs(const ImFont* font, const std::string& text) {
  if (!font) return 0;
  int missing = 0;
  const char* p = text.c_str();
  const char* end = p + text.size();
  while (p < end) {
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    if (n <= 0) break;
    p += n;
    if (c >= 0x20 && !font->FindGlyphNoFallback(static_cast<ImWchar>(c))) ++missing;
  }
  return missing;
}

FontStatus load_fonts(float pixel_size, bool want_hangul, const std::string& hangul_text, float caption_pixel_size) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const ImWchar* hangul = hangul_ranges(want_hangul, hangul_text);
  FontStatus status;
  // Basic Latin, Latin-1 (× ³ ·), general punctuation (– … ’), arrows, the multiplication sign.
  static const ImWchar latin_ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF,
                                         0x2070, 0x209F, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  auto add_face = [&](const char* latin_pattern, bool bold, float pixel_size) -> ImFont* {
    ImFont* font = nullptr;
    if (auto path = find_font_file(latin_pattern)) {
      font = io.Fonts->AddFontFromFileTTF(path->c_str(), pixel_size, nullptr, latin_ranges);
      if (font && !bold) status.latin_path = *path;
    }
    if (!font) {
      if (bold) return nullptr;
      ImFontConfig cfg;
      cfg.SizePixels = pixel_size;
      font = io.Fonts->AddFontDefault(&cfg);
    }
    if (auto path = find_hangul_font_file(bold)) {
      ImFontConfig merge;
      merge.MergeMode = true;
      if (io.Fonts->AddFontFromFileTTF(path->c_str(), pixel_size, &merge, hangul) && !bold && want_hangul)
        status.hangul_path = *path;
    }
    return font;
  };
  status.regular = add_face("DejaVu Sans:style=Book", false, pixel_size);
  status.bold = add_face("DejaVu Sans:style=Bold", true, pixel_size);
  if (!status.bold) status.bold = status.regular;
  status.caption_regular = status.regular;
  status.caption_bold = status.bold;
  // Rasterised at the caption's size: an enlarged UI font would be blurred on the projector.
  if (caption_pixel_size > pixel_size + 0.5f) {
    status.caption_regular = add_face("DejaVu Sans:style=Book", false, caption_pixel_size);
    status.caption_bold = add_face("DejaVu Sans:style=Bold", true, caption_pixel_size);
    if (!status.caption_bold) status.caption_bold = status.caption_regular;
  }
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  return status;
}

}  // namespace ws::app
