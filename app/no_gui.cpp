// Sanitizer and headless builds leave the window out; the CLI subcommands still work.
#include <cstdio>

#include "gui_options.hpp"

namespace ws::app {

int run_gui(const GuiOptions&) {
  std::fprintf(stderr, "warpscope: this build has no window (configured with WARPSCOPE_WITH_GUI=OFF); "
                       "use a subcommand such as `warpscope bench`\n");
  return 1;
}

}  // namespace ws::app
