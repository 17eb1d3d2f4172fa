#include "gui/presentation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include <fmt/format.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // BringWindowToDisplayFront

namespace ws::app {

namespace {
lesson::Language g_ui_language = lesson::Language::en;
}

lesson::Language ui_language() { return g_ui_language; }
void set_ui_language(lesson::Language lang) { g_ui_language = lang; }

void Presentation::set_scale(float s) { scale = std::clamp(s, 0.5f, 3.0f); }

float Presentation::caption_px(float display_h, bool lesson_open) const {
  const float ui_px = kBaseFontPx * ui_scale();
  if (!projector || !lesson_open) return ui_px;
  // Whole pixels: a window dragged a few pixels taller should not rebuild the font atlas.
  const float projector_px = std::round(kProjectorCaptionPx * display_h / kProjectorReferenceHeight * applied_scale());
  return std::max(ui_px, projector_px);
}

void Presentation::follow_content_scale(GLFWwindow* window) {
  if (content_scale_fixed || !window) return;
  float x = 1, y = 1;
  glfwGetWindowContentScale(window, &x, &y);
  // Some X servers report 0 or nonsense without an Xft.dpi; 1 is what such a screen looks like.
  const float reported = std::isfinite(y) && y >= 0.5f && y <= 4.0f ? y : 1.0f;
  content_scale = reported;
}

void Presentation::fit_window(int framebuffer_w, int framebuffer_h) {
  if (framebuffer_w <= 0 || framebuffer_h <= 0) return;  // minimised: keep what it had
  const float fit = std::min(static_cast<float>(framebuffer_w) / kLeastLayoutW,
                             static_cast<float>(framebuffer_h) / kLeastLayoutH);
  window_fit_scale_ = std::floor(fit * 20.0f + 1e-3f) / 20.0f;
}

void Presentation::toggle_theme() { theme = theme == Theme::dark ? Theme::light_high_contrast : Theme::dark; }

void Presentation::toggle_fullscreen(GLFWwindow* window) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  if (!fullscreen) {
    if (!monitor) return;
    glfwGetWindowPos(window, &windowed_x_, &windowed_y_);
    glfwGetWindowSize(window, &windowed_w_, &windowed_h_);
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    fullscreen = true;
  } else {
    glfwSetWindowMonitor(window, nullptr, windowed_x_, windowed_y_, windowed_w_, windowed_h_, GLFW_DONT_CARE);
    fullscreen = false;
  }
}

void Presentation::refresh_fonts_if_needed(bool lesson_is_korean, const std::string& lesson_text, float caption_px) {
  const float ui = ui_scale();
  const bool want = language == lesson::Language::ko || lesson_is_korean;
  // Only a Korean atlas depends on the lesson's text.
  const std::size_t text_hash = want ? std::hash<std::string>{}(lesson_text) : 0;
  if (built_ && built_scale_ == ui && built_theme_ == theme && wants_hangul_ == want && built_text_hash_ == text_hash &&
      built_caption_px_ == caption_px)
    return;
  // A theme switch needs only the style: rebuilding the font atlas too (hundreds of ms with Hangul
  // on a software renderer) made every press of T stall the window.
  const bool fonts_stale = !built_ || built_scale_ != ui || wants_hangul_ != want || built_text_hash_ != text_hash ||
                           built_caption_px_ != caption_px;
  built_text_hash_ = text_hash;
  wants_hangul_ = want;
  built_scale_ = ui;
  built_caption_px_ = caption_px;
  built_theme_ = theme;
  built_ = true;
  // From defaults every time: ScaleAllSizes multiplies what is there, so scaling the previous
  // style compounded with every theme or scale change until ImGui asserted (sizes below 1 px).
  ImGui::GetStyle() = ImGuiStyle();
  apply_theme(theme);
  ImGui::GetStyle().ScaleAllSizes(ui);
  if (fonts_stale) fonts = load_fonts(kBaseFontPx * ui, want, lesson_text, caption_px);
}

void handle_blank_keys(Presentation& pres) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_B, false) || ImGui::IsKeyPressed(GLFW_KEY_PERIOD, false))) {
    pres.blank = !pres.blank;
    return;
  }
  if (!pres.blank) return;
  for (int key = GLFW_KEY_SPACE; key < IM_ARRAYSIZE(io.KeysDown); ++key) {
    const bool modifier = key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_MENU;  // Shift alone is no answer
    if (!modifier && ImGui::IsKeyPressed(key, false)) {
      pres.blank = false;
      return;
    }
  }
}

void draw_blank(Presentation& pres) {
  if (!pres.blank) return;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 255));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);  // else the window's colour shows in the corners
  ImGui::Begin("##blank", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoBringToFrontOnFocus);
  ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
  if (ImGui::IsWindowHovered() && (ImGui::IsMouseClicked(ImGuiMouseButton_Left) || ImGui::IsMouseClicked(ImGuiMouseButton_Right)))
    pres.blank = false;
  ImGui::End();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor();
}

std::string user_screenshot_path() {
  namespace fs = std::filesystem;
  // error_code overloads throughout: a folder that cannot be read, or a working directory that
  // was deleted under the window, must not end the lecture with an exception.
  std::error_code ec;
  const auto is_dir = [&](const fs::path& p) { return !p.empty() && fs::is_directory(p, ec); };
  const char* pictures = std::getenv("XDG_PICTURES_DIR");
  const char* home = std::getenv("HOME");
  fs::path dir;
  if (pictures && is_dir(pictures))
    dir = pictures;
  else if (home && *home && is_dir(fs::path(home) / "Pictures"))
    dir = fs::path(home) / "Pictures";
  else if (const fs::path here = fs::current_path(ec); !ec && is_dir(here))
    dir = here;
  else if (home && is_dir(home))
    dir = home;
  else
    dir = fs::temp_directory_path(ec);
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  // Two presses within a second (successive frames of the animation) keep both pictures.
  fs::path path = dir / fmt::format("warpscope-{}.png", stamp);
  for (int n = 2; fs::exists(path, ec) && n < 1000; ++n) path = dir / fmt::format("warpscope-{}-{}.png", stamp, n);
  return path.string();
}

}  // namespace ws::app
