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

// The height at which draw_cpu_view shows its label, the model's figure in fewer words and every
// core's card with its name and its cell over two lines, at `width` (the layout gives the column
// this before the inspector's hint, and before the matrix when stacked above it).
float cpu_view_min_height(const SimSession& session, float width);

// What draw_cpu_view showed, for --print-state and a lesson step's expectations.
struct CpuViewShown {
  int cards_visible = 0;  // cards whose name shows in the region's visible part (not scrolled away)
  int cells_whole = 0;    // of them, cards whose cell line ("C[0][26]: k 225/1024") shows whole
  float card_text_scale = 1;  // the cards' text against the panel's: larger in big cards
  int parts_named = 0;        // smart parts drawn on those cards, each with its name (or its first words)
  int parts_cut = 0;          // of them, named only in their first words ("out-of-…"), not whole or short
};

// Draws into a child region; returns the core clicked, or -1. `shown`, when given, says what of
// the cards could be read.
// `large_font`, when given, draws the cards' text where it grows (big cards): rasterised at a
// larger size, so not a blurred stretch of the UI's glyphs.
// `cores_first`: the cores are the picture's subject (no chip beside them), so where the model's
// line would leave the cards no room to name their parts, the line gives way.
int draw_cpu_view(const SimSession& session, ImVec2 size, int selected_core, CpuViewShown* shown = nullptr,
                  ImFont* large_font = nullptr, bool cores_first = false);

}  // namespace ws::app
