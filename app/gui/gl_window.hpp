// Opening the window and its OpenGL 3.3 core context, which the renderer and ImGui's backend need.
// Where the display gives no such context (an old driver; GLX forwarded over ssh -X, which offers
// OpenGL 1.4 to 2.1), the window is tried once more on Mesa's software renderer, which gives 4.5
// on any X display, and says so: a slower window beats none in front of a class.
#pragma once

#include <string>

struct GLFWwindow;

namespace ws::app {

// Initialises GLFW and opens the window (focused unless `unfocused`). On failure prints why to
// stderr, terminates GLFW and returns nullptr.
GLFWwindow* open_gl_window(int width, int height, const char* title, bool unfocused);

// Empty, or the display's own error when the window is drawn by Mesa's software renderer instead.
const std::string& window_software_fallback();

}  // namespace ws::app
