#include "gui/fonts.hpp"

#include <fontconfig/fontconfig.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include <epoxy/gl.h>
#include <stb/stb_truetype.h>

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

// The atlas goes to the GPU one byte a pixel, the glyphs' coverage, read by the backend's shader
// as white with that alpha through a swizzle: the same texels as the backend's RGBA upload, in a
// quarter of the memory and without ImGui's pixel-by-pixel RGBA copy. At 3x text with a Korean
// lesson in projector mode the atlas is 4096 x 8192: converting and uploading it as RGBA took as
// long as rasterising it (200 ms each on an idle machine, over a second in a busy soak).
void upload_font_texture() {
  ImGuiIO& io = ImGui::GetIO();
  // The window's one GL context owns it. The atlas forgets the TexID it was given when it is
  // cleared and rebuilt, so the last texture uploaded is kept here to be deleted (reading TexID
  // back found 0 and leaked every atlas).
  static GLuint texture = 0;
  ImGui_ImplOpenGL3_DestroyFontsTexture();  // the backend's own, made with its device objects
  if (texture != 0) glDeleteTextures(1, &texture);
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  io.Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
  GLint last_texture = 0, last_alignment = 4;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &last_texture);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &last_alignment);
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  static const GLint white_with_coverage[4] = {GL_ONE, GL_ONE, GL_ONE, GL_RED};
  glTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_SWIZZLE_RGBA, white_with_coverage);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, width, height, 0, GL_RED, GL_UNSIGNED_BYTE, pixels);
  if (const GLenum error = glGetError(); error != GL_NO_ERROR)
    std::fprintf(stderr, "warpscope: the font atlas (%d x %d) could not be uploaded: GL error 0x%04X\n", width, height,
                 error);
  glPixelStorei(GL_UNPACK_ALIGNMENT, last_alignment);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(last_texture));
  io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<std::intptr_t>(texture)));
  // The GPU holds the pixels now; ImGui needs only the glyph tables (IsBuilt() stays true).
  io.Fonts->ClearTexData();
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

namespace {

// ImGui's AddFontFromFileTTF with the file read and checked here: ImGui asserts (and aborts) when
// it cannot read a font (out of memory) or the file is no font. nullptr then, and the caller falls
// back (ImGui's own font for Latin; English for a Korean UI, with the notice in the menu bar).
ImFont* add_font_file(ImFontAtlas& atlas, const std::string& path, float pixel_size, const ImFontConfig& config,
                      const ImWchar* ranges) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return nullptr;
  long size = -1;
  if (std::fseek(f, 0, SEEK_END) == 0) size = std::ftell(f);
  void* data = size > 0 && std::fseek(f, 0, SEEK_SET) == 0 ? IM_ALLOC(static_cast<std::size_t>(size)) : nullptr;
  const bool read = data != nullptr && std::fread(data, 1, static_cast<std::size_t>(size), f) == static_cast<std::size_t>(size);
  std::fclose(f);
  // ImGui asserts on data that is no TrueType/OpenType font (a wrong WARPSCOPE_HANGUL_FONT, a
  // damaged file fontconfig still lists): checked here the way ImGui will read it.
  bool usable = false;
  if (read) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    const int offset = size >= 12 ? stbtt_GetFontOffsetForIndex(bytes, 0) : -1;
    stbtt_fontinfo info;
    usable = offset >= 0 && stbtt_InitFont(&info, bytes, offset) != 0;
    if (!usable) std::fprintf(stderr, "warpscope: %s is not a font file it can read; left out\n", path.c_str());
  } else {
    std::fprintf(stderr, "warpscope: %s could not be read (empty, or no memory for it); left out\n", path.c_str());
  }
  if (!usable) {
    IM_FREE(data);
    return nullptr;
  }
  ImFontConfig owned = config;
  owned.FontDataOwnedByAtlas = true;  // freed by the atlas with IM_FREE, as it would its own read
  return atlas.AddFontFromMemoryTTF(data, static_cast<int>(size), pixel_size, &owned, ranges);
}

}  // namespace

FontStatus load_fonts(float pixel_size, bool want_hangul, const std::string& hangul_text, float caption_pixel_size) {
  ImGuiIO& io = ImGui::GetIO();
  // The backend makes its device objects, an RGBA font texture among them, at its first frame:
  // made now, from the atlas as it is (empty the first time: ImGui's small default font), so that
  // the texture uploaded below is the one drawn with and the big atlas is never converted to RGBA.
  ImGui_ImplOpenGL3_NewFrame();
  io.Fonts->Clear();
  // Rows as tall as the glyphs need, not the next power of two (up to half the atlas at large text).
  io.Fonts->Flags |= ImFontAtlasFlags_NoPowerOfTwoHeight;
  const ImWchar* hangul = hangul_ranges(want_hangul, hangul_text);
  FontStatus status;
  // Basic Latin, Latin-1 (× ³ ·), general punctuation (– … ’), arrows, the multiplication sign.
  static const ImWchar latin_ranges[] = {0x0020, 0x00FF, 0x2010, 0x2027, 0x2190, 0x21FF,
                                         0x2070, 0x209F, 0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
  auto add_face = [&](const char* latin_pattern, bool bold, float pixel_size) -> ImFont* {
    // Glyphs rasterised three times as wide (ImGui 1.86's default) place text at a third of a
    // pixel, which at 36 px and more nobody can see; it tripled the atlas and its rasterising at
    // the sizes a projector uses. Later ImGui versions choose 1 there too.
    const int oversample = pixel_size >= 36 ? 1 : ImFontConfig().OversampleH;
    ImFontConfig face;
    face.OversampleH = oversample;
    ImFont* font = nullptr;
    if (auto path = find_font_file(latin_pattern)) {
      font = add_font_file(*io.Fonts, *path, pixel_size, face, latin_ranges);
      if (font && !bold) status.latin_path = *path;
    }
    if (!font) {
      if (bold) return nullptr;
      ImFontConfig cfg;
      cfg.SizePixels = pixel_size;
      cfg.OversampleH = oversample;
      font = io.Fonts->AddFontDefault(&cfg);
    }
    if (auto path = find_hangul_font_file(bold)) {
      ImFontConfig merge;
      merge.MergeMode = true;
      merge.OversampleH = oversample;
      if (add_font_file(*io.Fonts, *path, pixel_size, merge, hangul) && !bold && want_hangul)
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
  upload_font_texture();
  return status;
}

std::uint64_t font_atlas_bytes() {
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  return static_cast<std::uint64_t>(atlas->TexWidth) * static_cast<std::uint64_t>(atlas->TexHeight);
}

}  // namespace ws::app
