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
  // The screen black (B or '.', what PowerPoint and a clicker's blank button send): the room looks
  // at the lecturer. Any other key or a click brings the picture back (and does what it does).
  bool blank = false;
  bool show_roofline = false;  // View > Roofline (R); a lesson step may show it through `panels` too
  bool show_generations = false;  // View > GPU generations (G); likewise
  bool show_cluster = false;   // View > Cluster (--cluster): a window of its own over the layout
  FontStatus fonts;

  static constexpr float kBaseFontPx = 17.0f;
  static constexpr float kProjectorCaptionPx = 28.0f;  // on a window 1080 pixels high
  static constexpr float kProjectorReferenceHeight = 1080.0f;

  // The least window, in units of the UI at 1x, that every panel and lesson step is laid out for
  // (1280x720 with 2x text is exactly that). The window without a lesson needs the width: at
  // 1024x768 with 2x text its real-run tables were cut at their smallest text.
  static constexpr float kLeastLayoutW = 640.0f;
  static constexpr float kLeastLayoutH = 360.0f;

  // What sizes the widgets and the UI font: the monitor's scale times the user's, as far as the
  // window holds it. 2x text in an 800x600 window left 400x300 for the layout: the caption shrank to
  // 13 px to fit under 34 px menus, and half the steps cut text; it is drawn at 1.25x there.
  // Never below the monitor's own scale (the user's 1x).
  float ui_scale() const { return std::min(scale * content_scale, std::max(window_fit_scale_, content_scale)); }
  // The user's scale as applied: less than `scale` where the window is too small for it.
  float applied_scale() const { return ui_scale() / content_scale; }
  bool scale_limited_by_window() const { return applied_scale() < scale - 1e-4f; }
  // The framebuffer's size in pixels, each frame: what ui_scale() may be at most. In steps of 0.05
  // so that dragging a window's edge does not rebuild the font atlas at every pixel.
  void fit_window(int framebuffer_w, int framebuffer_h);
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
  float window_fit_scale_ = 1e9f;  // no window yet: no limit
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

// B and '.' toggle the black screen; while it is black, any other key ends it (and does what it
// does), as in PowerPoint. Call with this frame's keys, not while a field takes text.
void handle_blank_keys(Presentation& pres);
// While the screen is black: one black window over everything, which also keeps a click (which
// ends it) from reaching the panels under it. Call last in the frame.
void draw_blank(Presentation& pres);

// Where F12 writes: $XDG_PICTURES_DIR or ~/Pictures when it exists, else the current directory
// (else HOME, else the temporary folder); a name no earlier picture has.
std::string user_screenshot_path();

}  // namespace ws::app
