#include "gui/fonts.hpp"

#include <fontconfig/fontconfig.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

namespace ws::app {

std::optional<std::string> find_font_file(const char* pattern_text) {
  if (!FcInit()) return std::nullopt;
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
  return path;
}

static std::optional<std::string> find_hangul_font_file() {
  // fontconfig answers any request with *some* font; only trust one that really has Hangul.
  for (const char* pattern : {"NanumGothic", "Noto Sans CJK KR", "sans-serif:lang=ko"}) {
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
}

FontStatus load_fonts(float pixel_size, bool want_hangul) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  FontStatus status;
  // Basic Latin, Latin-1 (× ³ ·), general punctuation (– … ’), arrows, the multiplication sign.
  static const ImWchar latin_ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF,
                                         0x2070, 0x209F, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  ImFont* base = nullptr;
  if (auto path = find_font_file("DejaVu Sans:style=Book")) {
    base = io.Fonts->AddFontFromFileTTF(path->c_str(), pixel_size, nullptr, latin_ranges);
    if (base) status.latin_path = *path;
  }
  if (!base) {
    ImFontConfig cfg;
    cfg.SizePixels = pixel_size;
    io.Fonts->AddFontDefault(&cfg);
  }
  if (want_hangul) {
    if (auto path = find_hangul_font_file()) {
      ImFontConfig merge;
      merge.MergeMode = true;
      if (io.Fonts->AddFontFromFileTTF(path->c_str(), pixel_size, &merge, io.Fonts->GetGlyphRangesKorean()))
        status.hangul_path = *path;
    }
  }
  io.Fonts->Build();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
  return status;
}

}  // namespace ws::app
