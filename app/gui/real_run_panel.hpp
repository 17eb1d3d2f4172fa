// The measured side of the window: controls of the real run, live timers, the speed ratio and
// the GFLOP/s history. Every figure here was measured on this machine, and says so.
#pragma once

#include "core/real_run_session.hpp"
#include "gui/gflops_history.hpp"

namespace ws::app {

struct RealRunView {
  RealRunSession session;
  GflopsHistory history;
  bool lock_square = true;  // M = N = K while dragging one of them

  RealRunView();
};

// Draws the panel's contents into the current ImGui window; edits feed the session.
// `clean` (presentation mode) keeps the timers and hides the controls.
void draw_real_run_panel(RealRunView& view, double now, bool clean = false);

}  // namespace ws::app
