#include "gui/gl_window.hpp"

#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ws::app {

namespace {

std::string g_glfw_error;
std::string g_software_fallback;

void remember_glfw_error(int, const char* description) { g_glfw_error = description ? description : "unknown"; }

bool init_glfw() {
  g_glfw_error.clear();
  glfwSetErrorCallback(remember_glfw_error);
  return glfwInit() == GLFW_TRUE;
}

GLFWwindow* create_core_33_window(int width, int height, const char* title, bool unfocused) {
  glfwDefaultWindowHints();
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (unfocused) {
    glfwWindowHint(GLFW_FOCUSED, GLFW_FALSE);
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);
  }
  GLFWwindow* window = glfwCreateWindow(width, height, title, nullptr, nullptr);
  glfwDefaultWindowHints();  // the GL worker's hidden context sets its own
  return window;
}

void print_no_display() {
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  const char* cause = (!display || !*display) && (!wayland || !*wayland) ? "no display (DISPLAY is not set)"
                                                                           : "the display cannot be opened";
  std::fprintf(stderr,
               "warpscope: cannot open a window: %s [%s]. Run it on a desktop, or headless with "
               "`xvfb-run -a warpscope ...`; `warpscope bench` needs no display.\n",
               cause, g_glfw_error.c_str());
}

// The display opened, but no 3.3 core context came however it was asked for: what is missing,
// what was tried (`tried`), and what works without a window.
void print_no_core_33(const std::string& tried) {
  std::fprintf(stderr,
               "warpscope: cannot open a window: the display opened but gave no OpenGL 3.3 core context, which the "
               "window needs: %s. `warpscope bench` and `warpscope simulate` need no window.\n",
               tried.c_str());
}

bool already_software() {
  const char* forced = std::getenv("LIBGL_ALWAYS_SOFTWARE");
  return forced != nullptr && std::string_view(forced) != "0" && std::string_view(forced) != "false";
}

}  // namespace

GLFWwindow* open_gl_window(int width, int height, const char* title, bool unfocused) {
  g_software_fallback.clear();
  if (!init_glfw()) {
    print_no_display();
    return nullptr;
  }
  if (GLFWwindow* window = create_core_33_window(width, height, title, unfocused)) return window;
  const std::string display_error = g_glfw_error;
  glfwTerminate();
  if (already_software()) {
    print_no_core_33("[" + display_error + "], with LIBGL_ALWAYS_SOFTWARE already set");
    return nullptr;
  }
  // Mesa reads these when GLFW opens the display again: direct rendering on llvmpipe, whatever the
  // display's own driver or GLX forwarding offered. The GL kernels' context then runs there too,
  // and is labelled a software renderer like any other.
  setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
  unsetenv("LIBGL_ALWAYS_INDIRECT");
  if (!init_glfw()) {
    print_no_display();
    return nullptr;
  }
  if (GLFWwindow* window = create_core_33_window(width, height, title, unfocused)) {
    g_software_fallback = display_error;
    std::fprintf(stderr,
                 "warpscope: the display gave no OpenGL 3.3 core context [%s]; the window is drawn by Mesa's "
                 "software renderer instead, on this CPU.\n",
                 display_error.c_str());
    return window;
  }
  print_no_core_33("[" + display_error + "], nor did Mesa's software renderer [" + g_glfw_error + "]");
  glfwTerminate();
  return nullptr;
}

const std::string& window_software_fallback() { return g_software_fallback; }

}  // namespace ws::app
