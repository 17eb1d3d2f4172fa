// The shared clock of the simulated GPU and CPU: scrub bar, play/pause, single and big steps,
// speed, restart; and the caption that says where both sides are.
#pragma once

#include "core/sim_session.hpp"

namespace ws::app {

// `clean`: only the clock and the caption, no buttons (presentation mode).
void draw_timeline(SimSession& session, bool clean = false);
// The height of the timeline's text lines this frame at `width` (the current font): their number
// changes as the run goes on, so a panel that keeps room for the timeline measures them each frame.
float timeline_text_height(const SimSession& session, float width);
// Keys: Space play/pause, Right/Left one cycle (Shift: 1 % of the run), Home restart.
// `arrows_step_cycles` is false while a lesson owns the arrow keys; then '.' and ',' step cycles.
void handle_timeline_keys(SimSession& session, bool arrows_step_cycles);
// "The simulated GPU finished at 0.21 ms; the CPU cores are 0.4 % through." (empty while running)
std::string finish_caption(const sim::Simulation& s);
// "simulating... 43 %": how far the simulation behind the animation has got, and any seek waiting on it.
std::string buffer_status(const SimSession& session);

}  // namespace ws::app
