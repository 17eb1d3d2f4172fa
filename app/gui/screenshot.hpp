// Reads the current framebuffer back and writes it as a PNG (for --screenshot and F12).
#pragma once

#include <string>

namespace ws::app {

// Returns an empty string on success, or why it failed.
std::string write_framebuffer_png(const std::string& path, int width, int height);

}  // namespace ws::app
