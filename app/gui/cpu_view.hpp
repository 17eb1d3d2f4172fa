// The few "smart" CPU cores of the preset as big boxes: their clever parts (branch predictor,
// out-of-order window, caches, SIMD unit) and the one cell of C each is working through.
#pragma once

#include <imgui.h>

#include "core/sim_session.hpp"

namespace ws::app {

// Draws into a child region; returns the core clicked, or -1.
int draw_cpu_view(const SimSession& session, ImVec2 size, int selected_core);

}  // namespace ws::app
