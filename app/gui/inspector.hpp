// What one lane or one core is doing right now: its cell of C, its progress along k, its
// partial sum, and why its warp waits.
#pragma once

#include <cstddef>

#include "core/sim_session.hpp"
#include "gui/gpu_view.hpp"

namespace ws::app {

void draw_inspector(const SimSession& session, const LaneSelection& lane, int cpu_core);
// Text lines the inspector needs for this selection at this width: more for a lane with several
// accumulators, fewer of them to a line where the panel is narrow.
int inspector_lines(const SimSession& session, const LaneSelection& lane, int cpu_core, float width);
std::size_t accumulators_per_line(float width);

}  // namespace ws::app
