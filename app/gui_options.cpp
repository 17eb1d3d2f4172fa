#include "gui_options.hpp"

#include <cstdio>
#include <cstdlib>

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

bool uses_saved_settings(const GuiOptions& options) {
  const char* env_dir = std::getenv("WARPSCOPE_CONFIG_DIR");
  if (!options.config_dir.empty() || (env_dir != nullptr && *env_dir != '\0')) return true;
  const bool rendering = !options.screenshot_path.empty() || !options.export_dir.empty() || options.print_state ||
                         options.soak_seconds > 0;
  return !rendering;
}

}  // namespace ws::app
