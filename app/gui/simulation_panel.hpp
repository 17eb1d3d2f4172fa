// The simulated side of the window: preset and launch controls, the chip, the CPU cores, the
// output matrix, the inspector and the timeline, laid out in one region.
#pragma once

#include <optional>

#include "core/real_run_session.hpp"
#include "core/sim_session.hpp"
#include "gui/cpu_view.hpp"
#include "gui/gpu_view.hpp"
#include "gui/lesson_player.hpp"
#include "gui/matrix_view.hpp"
#include "gui/timeline.hpp"

namespace ws::app {

struct SimulationPanel {
  SimSession session;
  GpuView gpu_view;
  MatrixView matrix_view;
  int selected_core = -1;
  int animated_cap = kMaxAnimatedSide;
  SimControls controls;  // presets and block; the shape and kernel follow the real run
  // A lesson animates its own size and kernel; editing the real run's controls returns to following them.
  std::optional<sim::Shape> shape_override;
  std::optional<sim::Kernel> kernel_override;
  // Projector mode in a lesson: the preset and kernel pickers are hidden, the rest stays.
  bool hide_controls = false;
  ImFont* large_font = nullptr;  // the caption's font: the CPU cards' text where it grows
  // Where the panel is short for its text (2x text on 720 lines) the pickers fold into one line
  // of what they are set to: three rows of combos left the chip and the CPU cores too little
  // height to show a single core. Unset: by that rule; else the lecturer's click.
  std::optional<bool> controls_unfolded;
  bool controls_folded = false;  // as drawn last frame, for --print-state

  // Where the views were drawn last frame (screen pixels: x, y, w, h), for --print-state so
  // headless tests can check the pixels of each view.
  struct Rect { float x = 0, y = 0, w = 0, h = 0; };
  Rect chip_rect, cpu_rect, matrix_rect;
  bool legend_shown = true;  // false where the chip needed the legend's room, or no chip is drawn
  float note_text_scale = 1;  // the note above the chip against the panel's text size, as drawn last
  float inspector_text_scale = 0;  // the inspector's text size against the panel's; 0 when not drawn
  CpuViewShown cpu_shown;      // what the CPU cores' cards showed (draw_cpu_view), zeros when not drawn
  ScrubBarLayout scrub;  // the timeline's scrub bar, as drawn last frame
  // The timeline's height in the last frame that drew it, less its text lines and buttons' rows
  // (so: separator, spacing); none before it was ever drawn.
  std::optional<float> timeline_rest_h;

  // The launch follows the real run's controls: same M, N, K (capped) and the nearest kernel.
  void sync(const RealRunControls& real);
  // `real` may be edited (the kernel picker here changes the real GPU kernel too).
  // `clean` hides the controls (presentation mode); `show` comes from the lesson step.
  void draw(ImVec2 size, double dt, RealRunControls& real, bool& real_edited, const PanelVisibility& show,
            bool clean);
};

// The model's kernel for a real GPU kernel: cuda-naive -> naive, anything else -> tiled.
sim::Kernel sim_kernel_for(const std::string& real_gpu_kernel);
// The preset a real GPU maps to, or "h100" when there is none (or it matches no named preset).
std::string default_gpu_preset();

}  // namespace ws::app
