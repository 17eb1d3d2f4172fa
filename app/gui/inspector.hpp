// What one lane or one core is doing right now: its cell of C, its progress along k, its
// partial sum, and why its warp waits.
#pragma once

#include "core/sim_session.hpp"
#include "gui/gpu_view.hpp"

namespace ws::app {

void draw_inspector(const SimSession& session, const LaneSelection& lane, int cpu_core);

}  // namespace ws::app
