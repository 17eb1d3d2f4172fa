// The shared clock of the simulated GPU and CPU: scrub bar, play/pause, single and big steps,
// speed, restart; and the caption that says where both sides are.
#pragma once

#include <string>

#include "core/sim_session.hpp"

namespace ws::app {

// The timeline's text, built once a frame for both the drawing and the height the panel keeps
// for it. Built twice, the background run could move on in between (the clock at its widest
// gains a digit and no longer fits beside the kernel's name) and the drawing come out a line
// taller than its room.
struct TimelineText {
  bool simulated = false;  // false: no simulation yet (or it failed); `status` says which
  std::string kernel;  // what the simulated GPU runs, on the first line
  std::string where;   // the clock: beside the kernel's name where it fits
  std::string widest;  // the clock as wide as it gets in this run, which decides where it goes
  // The clock without its cycle ("0.1170 of 0.4205 ms at 1980 MHz"), for where the whole clock
  // would take a line of its own and the scrub bar's label already says the cycle; empty where
  // no scrub bar is drawn (clean mode).
  std::string short_where, short_widest;
  std::string status;  // how far the simulation has got, or a seek waiting on it (disabled colour)
  std::string finish;  // where both sides stood when the simulated GPU finished
};
// `say_refusal` false: a refused launch leaves `status` empty, as the chip's place already says why
// (worded once, not every frame and then dropped).
// `with_scrub_bar` false: no scrub bar says the cycle, so the clock always does.
TimelineText timeline_text(const SimSession& session, bool say_refusal = true, bool with_scrub_bar = true);

// Where the scrub bar was drawn (screen pixels) and the width its label needs at the run's last
// cycle, for --print-state; all zero where it was not drawn.
struct ScrubBarLayout {
  float x = 0, y = 0, w = 0, h = 0;
  float label_w = 0;
};

// `clean`: only the clock and the caption, no buttons (presentation mode).
void draw_timeline(SimSession& session, const TimelineText& text, bool clean = false, ScrubBarLayout* scrub = nullptr);
// The buttons' and scrub bar's height at `width`: one row, or two where the scrub bar would not
// fit beside the buttons with its label whole (a narrow panel, large text).
float timeline_controls_height(const SimSession& session, float width);
// The height of the timeline's text lines at `width` (the current font): their number changes as
// the run goes on, so a panel that keeps room for the timeline measures them each frame.
float timeline_text_height(const TimelineText& text, float width);
// Keys: Space play/pause, Right/Left one cycle (Shift: 1 % of the run), Home restart.
// `arrows_step_cycles` is false while a lesson owns the arrow keys; then '.' and ',' step cycles.
void handle_timeline_keys(SimSession& session, bool arrows_step_cycles);
// "The simulated GPU finished at 0.21 ms; the CPU cores are 0.4 % through." (empty while running)
std::string finish_caption(const sim::Simulation& s);
// "simulating... 43 %": how far the simulation behind the animation has got, and any seek waiting on it.
std::string buffer_status(const SimSession& session);

}  // namespace ws::app
