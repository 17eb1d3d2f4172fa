// Finds an installed font that can draw Hangul, through fontconfig.
#include "i18n.hpp"

#include <fontconfig/fontconfig.h>

#include <cstdlib>
#include <filesystem>

namespace ws::lesson {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// Higher is better. ImGui loads .ttf/.otf directly; a regular sans face reads best on a projector.
int score(std::string_view file, std::string_view family, int weight, int slant, bool korean) {
    int s = 0;
    // CJK fallback fonts also cover Hangul, but a font designed for Korean reads better.
    if (korean) s += 40;
    if (contains(family, "Nanum") || contains(family, " KR")) s += 20;
    if (ends_with(file, ".ttf") || ends_with(file, ".otf")) s += 100;
    s -= std::abs(weight - FC_WEIGHT_REGULAR);  // regular = 80, bold = 200
    if (slant != FC_SLANT_ROMAN) s -= 50;
    if (contains(family, "Gothic") || contains(family, "Sans")) s += 20;
    if (contains(family, "Coding") || contains(family, "Mono")) s -= 30;
    return s;
}

}  // namespace

std::optional<std::string> find_hangul_font() {
    if (const char* env = std::getenv("WARPSCOPE_HANGUL_FONT"); env && *env) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(env, ec)) return std::string(env);
    }
    if (!FcInit()) return std::nullopt;

    FcPattern* pattern = FcPatternCreate();
    FcCharSet* charset = FcCharSetCreate();
    // The first and last Hangul syllables: a font with both covers the whole block in practice.
    FcCharSetAddChar(charset, 0xAC00);
    FcCharSetAddChar(charset, 0xD7A3);
    FcPatternAddCharSet(pattern, FC_CHARSET, charset);
    FcObjectSet* objects = FcObjectSetBuild(FC_FILE, FC_FAMILY, FC_WEIGHT, FC_SLANT, FC_LANG, nullptr);
    FcFontSet* fonts = FcFontList(nullptr, pattern, objects);

    std::optional<std::string> best;
    int best_score = 0;
    for (int i = 0; fonts && i < fonts->nfont; ++i) {
        FcPattern* font = fonts->fonts[i];
        FcChar8* file = nullptr;
        if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch || !file) continue;
        FcChar8* family = nullptr;
        FcPatternGetString(font, FC_FAMILY, 0, &family);
        int weight = FC_WEIGHT_REGULAR, slant = FC_SLANT_ROMAN;
        FcPatternGetInteger(font, FC_WEIGHT, 0, &weight);
        FcPatternGetInteger(font, FC_SLANT, 0, &slant);
        const std::string_view file_sv(reinterpret_cast<const char*>(file));
        const std::string_view family_sv(family ? reinterpret_cast<const char*>(family) : "");
        FcLangSet* langs = nullptr;
        const bool korean = FcPatternGetLangSet(font, FC_LANG, 0, &langs) == FcResultMatch && langs &&
                            FcLangSetHasLang(langs, reinterpret_cast<const FcChar8*>("ko")) == FcLangEqual;
        const int s = score(file_sv, family_sv, weight, slant, korean);
        // Ties break on the path so the choice does not depend on fontconfig's cache order.
        if (!best || s > best_score || (s == best_score && file_sv < *best)) {
            best = std::string(file_sv);
            best_score = s;
        }
    }

    if (fonts) FcFontSetDestroy(fonts);
    FcObjectSetDestroy(objects);
    FcCharSetDestroy(charset);
    FcPatternDestroy(pattern);
    return best;
}

}  // namespace ws::lesson
