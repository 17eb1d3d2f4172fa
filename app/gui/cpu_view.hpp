// The few "smart" CPU cores of the preset as big boxes: their clever parts (branch predictor,
// out-of-order window, caches, SIMD unit) and the one cell of C each is working through.
#pragma once

#include <imgui.h>

#include <string>

#include "core/sim_session.hpp"
#include "lesson/i18n.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::app {

// Feed every finished real CPU run here (the window chains it onto RealRunSession::on_result).
// The latest one's shape is where the panel takes the model's figure; a verified one-thread
// cpu-naive run at that shape is the measured figure shown beside it.
void note_real_cpu_result(const kernels::JobResult& result);

// "model 1.6 GFLOP/s, measured 1.5 GFLOP/s (cpu-naive, 1 thread, 1024³)", or the model alone and
// what to run to measure it; empty unless the CPU preset is this-machine. For tests and the panel.
// `brief`: the same figures in fewer words ("model 1.6 vs measured 1.5 GFLOP/s (cpu-naive)"), for
// a panel where the whole line would leave no room for the cores.
std::string model_vs_measured_line(const sim::CpuPreset& cpu, lesson::Language lang, bool brief = false);

// The least height at which draw_cpu_view shows its label and every core's card with its name
// and one line, at `width` (the layout gives the column this before the inspector's hint).
float cpu_view_min_height(const SimSession& session, float width);

// Draws into a child region; returns the core clicked, or -1. `cards_visible`, when given, is set
// to the cores whose card shows its name in the region's visible part (not scrolled away): what a
// lesson step's "cpu_cards_visible" expectation counts.
int draw_cpu_view(const SimSession& session, ImVec2 size, int selected_core, int* cards_visible = nullptr);

}  // namespace ws::app
