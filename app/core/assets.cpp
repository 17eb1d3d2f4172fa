#include "core/assets.hpp"

#include <cstdlib>

namespace ws::app {

std::string assets_dir() {
  if (const char* env = std::getenv("WARPSCOPE_ASSETS"); env != nullptr && *env != '\0') return env;
  return WARPSCOPE_ASSETS_DIR;
}

}  // namespace ws::app
