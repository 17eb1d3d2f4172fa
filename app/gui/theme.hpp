// Colours with a meaning (a kernel's line, a failed check, measured vs simulated) and the themes.
#pragma once

#include <string>

#include <imgui.h>

#include "core/lane_texels.hpp"

namespace ws::app {

enum class Theme { dark, light_high_contrast };

void apply_theme(Theme theme);
Theme current_theme();

ImU32 kernel_colour(const std::string& kernel);

// The lane palette's background for the current theme: the chip and its legend both ask here,
// so they never disagree.
LaneBackground lane_background();
inline ImVec4 to_imvec(const Rgba& c) { return ImVec4(c.r, c.g, c.b, c.a); }
inline Rgba to_rgba(const ImVec4& c) { return {c.x, c.y, c.z, c.w}; }

// Text colours that carry meaning on both themes.
ImVec4 colour_ok();
ImVec4 colour_error();
ImVec4 colour_measured();   // figures measured on this machine
ImVec4 colour_simulated();  // figures simulated for a preset
ImVec4 colour_elsewhere();  // figures measured on another machine (read from a bench JSON)

}  // namespace ws::app
