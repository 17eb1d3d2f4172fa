// How the window presents itself in a lecture hall: theme, UI scale, language (and the fonts it
// needs), fullscreen, and the clean mode that hides the controls.
#pragma once

#include <string>

#include "gui/fonts.hpp"
#include "gui/theme.hpp"
#include "lesson/i18n.hpp"

struct GLFWwindow;

namespace ws::app {

struct Presentation {
  Theme theme = Theme::dark;
  float scale = 1.0f;          // the user's UI scale (Ctrl +/-, saved), on top of the monitor's
  float content_scale = 1.0f;  // the monitor's content scale (GLFW), or --content-scale
  bool content_scale_fixed = false;  // --content-scale given: the monitor is not asked
  // Projector mode (key P, saved, on by default): while a lesson is open the caption is drawn at
  // lecture-hall size, 28 px on a 1080-pixel-high window, growing with the window.
  bool projector = true;
  lesson::Language language = lesson::Language::en;
  bool clean = false;
  bool fullscreen = false;
  bool show_roofline = false;  // View > Roofline (R); a lesson step may show it through `panels` too
  bool show_generations = false;  // View > GPU generations (G); likewise
  bool show_cluster = false;   // View > Cluster (--cluster): a window of its own over the layout
  FontStatus fonts;

  static constexpr float kBaseFontPx = 17.0f;
  static constexpr float kProjectorCaptionPx = 28.0f;  // on a window 1080 pixels high
  static constexpr float kProjectorReferenceHeight = 1080.0f;

  // What sizes the widgets and the UI font: the monitor's scale times the user's.
  float ui_scale() const { return scale * content_scale; }
  // The caption's font size in pixels for a window `display_h` pixels high. Projector size
  // follows the window's pixels, which on a HiDPI monitor already carry its content scale.
  float caption_px(float display_h, bool lesson_open) const;
  // Asks the monitor under `window` for its content scale unless --content-scale fixed it.
  void follow_content_scale(GLFWwindow* window);

  void set_scale(float s);
  void toggle_theme();
  void set_language(lesson::Language l) { language = l; }
  void toggle_fullscreen(GLFWwindow* window);
  // Rebuilds fonts and style when the scale, theme or the need for Hangul changed. Between frames only.
  // `lesson_text` is the open lesson's text: its Hangul is loaded when Korean is wanted.
  // `caption_px` is caption_px() for this frame.
  void refresh_fonts_if_needed(bool lesson_is_korean, const std::string& lesson_text = "", float caption_px = 0);
  // Korean was asked for but no installed font can draw it: the labels stay English.
  bool hangul_missing() const { return wants_hangul_ && !fonts.hangul_path; }
  lesson::Language effective_language() const {
    return language == lesson::Language::ko && hangul_missing() ? lesson::Language::en : language;
  }

 private:
  bool built_ = false;
  bool wants_hangul_ = false;
  std::size_t built_text_hash_ = 0;
  float built_scale_ = 0;
  float built_caption_px_ = 0;
  Theme built_theme_ = Theme::dark;
  int windowed_x_ = 0, windowed_y_ = 0, windowed_w_ = 0, windowed_h_ = 0;
};

// The language of this frame's labels, for panels that are not handed it.
lesson::Language ui_language();
void set_ui_language(lesson::Language lang);
inline const char* T(const char* key) { return lesson::tr(key, ui_language()); }
// T with fmt-style arguments: "cycle {} of {}".
template <class... Args>
std::string TF(const char* key, Args&&... args) {
  return lesson::trf(key, ui_language(), std::forward<Args>(args)...);
}

// Where F12 writes: $XDG_PICTURES_DIR or ~/Pictures when it exists, else the current directory.
std::string user_screenshot_path();

}  // namespace ws::app
