// Where the app's data lives (lessons, measured runs): $WARPSCOPE_ASSETS, else the folder the build
// was configured with. sim/ finds its presets the same way on its own, as it cannot see app/.
#pragma once

#include <string>

namespace ws::app {

std::string assets_dir();

}  // namespace ws::app
