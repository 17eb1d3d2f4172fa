// The measured side of the window: controls of the real run, live timers, the speed ratio and
// the GFLOP/s history. Every figure here was measured on this machine, and says so; runs measured
// on another machine are shown apart, in their own colour, labelled with where and when.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/measured_elsewhere.hpp"
#include "core/real_run_session.hpp"
#include "gui/gflops_history.hpp"

namespace ws::app {

struct RealRunView {
  RealRunSession session;
  GflopsHistory history;
  // Every run that finished since the window opened (skipped and cancelled ones left out), for
  // the roofline; the oldest go beyond kMaxRuns.
  static constexpr std::size_t kMaxRuns = 1000;
  std::vector<kernels::JobResult> runs;
  bool lock_square = true;  // M = N = K while dragging one of them
  DefaultGpuKernel gpu_default;  // what the GPU picker started with, and why none when empty
  bool hardware_gpu = false;     // a GPU that really computes is here (CUDA, or GL on hardware)
  // Presentation mode in a panel too short for everything (a 720p projector, 2x text): the lines
  // on this machine's hardware, the kernel's resources and the history give way to the results
  // table and its sentence. Decided when the panel's size changes, from the height everything
  // took when last drawn in full (so a lesson's step opens with the right layout, not a frame of
  // the full one cut at the bottom); set too when a full frame runs out of room.
  bool compact = false;
  float compact_for_w = 0, compact_for_h = 0;
  float full_needed_h = 0;  // the full layout's height with the history at its smallest; 0: never drawn
  // Outside presentation mode, where the controls drawn whole would push the results table or the
  // speed sentence below the panel (2x text on 720 lines), they fold into one line that unfolds
  // them, as the simulation's pickers do; where even that leaves the results short of room, the
  // hardware lines give way too, and where the sentence is still below the fold, the lines on how
  // each kernel ran (the micro-kernel's blocking, the CUDA kernel's resources). The heights each
  // part took when last drawn, and results_end_h: how far down the panel the sentence (else the
  // table) reached, counted with every part drawn, so that folding or hiding one does not change
  // the decision.
  bool controls_folded = false;
  bool details_hidden = false;
  std::optional<bool> controls_unfolded;  // the user's choice, kept from then on
  float controls_whole_h = 0, controls_folded_h = 0, hardware_h = 0, details_h = 0;
  float results_end_h = 0;
  float history_least_h = 0;  // the history's separator, label and smallest plot, as last drawn
  bool crowded_latched = false;  // crowded once at this panel size (compact_for_w/h): stays so until it changes
  // Pixels between a result row's ms figure and its GFLOP/s in the last frame, the least of the
  // rows (0: no figures drawn); negative where one ran into the other.
  float figures_gap = 0;
  // Whether the speed sentence ("… is 327× faster than …") ended inside the panel's visible area in
  // the last frame; nullopt when none was drawn.
  std::optional<bool> sentence_in_view;

  // Runs measured on other machines, each file apart, and one line per file that could not be read.
  std::vector<MeasuredElsewhere> elsewhere;
  std::vector<std::string> elsewhere_errors;
  int elsewhere_rows_shown = 0;  // rows of those the last frame drew (all, or what presentation mode has room for)
  // The runs warpscope ships (assets/measured/*/), offered in the Measured runs menu.
  std::vector<MeasuredElsewhere> shipped;

  RealRunView();
  // Shows a loaded file's runs, or its error line; also prints the error on stderr.
  void add_measured(MeasuredLoad load);
  // Whether the runs of the file at `path` are already shown.
  bool shows_file(const std::string& path) const;
  // The GPU the speed sentence and the captions compare with (here, or measured elsewhere).
  std::optional<ComparisonGpu> comparison() const;
  // The history's lines for the runs measured elsewhere, labelled in `lang`: rebuilt when a run
  // is added or the language changes, not every frame.
  void label_references(lesson::Language lang);

 private:
  std::optional<lesson::Language> references_lang_;  // empty: the references are out of date
};

// Draws the panel's contents into the current ImGui window; edits feed the session.
// `clean` (presentation mode) keeps the timers and hides the controls.
void draw_real_run_panel(RealRunView& view, double now, bool clean = false);

}  // namespace ws::app
