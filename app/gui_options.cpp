#include "gui_options.hpp"

#include <cstdio>

namespace ws::app {

bool parse_window_size(const std::string& text, int& width, int& height) {
  int w = 0, h = 0;
  char x = 0;
  if (std::sscanf(text.c_str(), "%d%c%d", &w, &x, &h) != 3 || (x != 'x' && x != 'X')) return false;
  if (w < 320 || h < 240 || w > 7680 || h > 4320) return false;
  width = w;
  height = h;
  return true;
}

}  // namespace ws::app
