// Colours with a meaning (a kernel's line, a failed check, measured vs simulated) and the themes.
#pragma once

#include <string>

#include <imgui.h>

namespace ws::app {

enum class Theme { dark, light_high_contrast };

void apply_theme(Theme theme);
Theme current_theme();

ImU32 kernel_colour(const std::string& kernel);

// Text colours that carry meaning on both themes.
ImVec4 colour_ok();
ImVec4 colour_error();
ImVec4 colour_measured();   // figures measured on this machine
ImVec4 colour_simulated();  // figures simulated for a preset
ImVec4 colour_elsewhere();  // figures measured on another machine (read from a bench JSON)

}  // namespace ws::app
