#include "gui/lesson_player.hpp"

#include <algorithm>

#include "core/lesson_vocabulary.hpp"
#include "gui/cluster_view.hpp"
#include "gui/real_run_panel.hpp"
#include "gui/simulation_panel.hpp"
#include "lesson/facts.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

namespace {

// "first-issue" watches what the step points at: the zoomed warp or SM, else the highlighted one,
// else the whole chip.
SeekAnchor seek_anchor(const lesson::AppliedState& st) {
  SeekAnchor a;
  a.kind = st.cycle.kind == lesson::CycleStart::Kind::mid_run ? SeekAnchor::Kind::mid_run : SeekAnchor::Kind::first_issue;
  using Z = lesson::Zoom::Kind;
  if (st.zoom.kind == Z::warp || st.zoom.kind == Z::lane) {
    a.sm = st.zoom.sm;
    a.slot = st.zoom.warp;
    return a;
  }
  if (st.zoom.kind == Z::sm) {
    a.sm = st.zoom.sm;
    return a;
  }
  for (const auto& h : st.highlight) {
    using K = lesson::Highlight::Kind;
    if (h.kind == K::warp || h.kind == K::lane) return {a.kind, h.a, h.b};
    if (h.kind == K::sm) return {a.kind, h.a, -1};
  }
  return a;
}

}  // namespace

bool LessonPlayer::open(const std::string& path) {
  auto result = lesson::load_lesson_file(path, registry_vocabulary());
  if (!result.ok()) {
    error_.clear();
    for (const auto& d : result.diagnostics) error_ += lesson::format(d) + "\n";
    return false;
  }
  if (result.lesson->steps.empty()) {
    error_ = path + ": the lesson has no steps\n";
    return false;
  }
  lesson_ = std::move(result.lesson);
  path_ = path;
  text_ = lesson_->title;
  // Every text a step can draw, so the Hangul font holds each of its glyphs.
  for (const auto& step : lesson_->steps)
    text_ += step.title.value_or("") + step.caption.value_or("") + step.caption_no_gpu.value_or("");
  // ...and the quoted facts with their sources, which are not in the lesson's own text.
  for (const auto& fact : lesson::facts()) text_ += std::string(fact.korean) + std::string(fact.source_ko);
  error_.clear();
  for (const auto& d : result.diagnostics) error_ += lesson::format(d) + "\n";  // warnings only
  live_.clear();
  step_ = 0;
  return true;
}

void LessonPlayer::close() {
  lesson_.reset();
  text_.clear();
  live_.clear();
  step_ = 0;
}

void LessonPlayer::go_to(std::size_t step, RealRunView& real, SimulationPanel& sim) {
  if (!lesson_) return;
  live_[step_] = {sim.session.cycle(), sim.session.playing()};
  step_ = std::min(step, lesson_->steps.size() - 1);
  apply(real, sim, true);
}

void LessonPlayer::restart(RealRunView& real, SimulationPanel& sim) { start_at(0, real, sim); }

void LessonPlayer::start_at(std::size_t step, RealRunView& real, SimulationPanel& sim) {
  if (!lesson_) return;
  live_.clear();
  step_ = std::min(step, lesson_->steps.size() - 1);
  apply(real, sim, false);
}

void LessonPlayer::apply(RealRunView& real, SimulationPanel& sim, bool resume_live) {
  const lesson::AppliedState initial;
  state_ = lesson::state_at(*lesson_, step_, initial);
  applied_ = true;
  const auto& st = state_;

  // "this-machine" for the GPU means the preset of the real card, when there is one.
  sim.controls.gpu_preset = st.gpu_preset == "this-machine" ? default_gpu_preset() : st.gpu_preset;
  sim.controls.cpu_preset = st.cpu_preset;
  sim.controls.block = st.block_size;
  sim.shape_override = sim::Shape{st.m, st.n, st.k};
  sim.kernel_override = sim::parse_kernel(st.kernel);

  auto& c = real.session.controls();
  const auto before = c;
  c.cpu_kernel = stand_in_cpu_kernel(st.cpu_kernel, !kernels::unavailable_reason(st.cpu_kernel));
  c.gpu_kernel = st.gpu_kernel.empty() ? st.gpu_kernel
                                        : stand_in_gpu_kernel(st.gpu_kernel, !kernels::unavailable_reason(st.gpu_kernel),
                                                              real.gpu_default);
  c.shape = {st.real_m, st.real_n, st.real_k};
  c.threads = st.threads > 0 ? st.threads : std::max(1, kernels::cpu_info().cores);
  real.lock_square = c.shape.m == c.shape.n && c.shape.n == c.shape.k;
  sim.sync(c);
  if (st.real_run)
    real.session.run_now();
  else if (!(before == c))
    real.session.cancel();  // figures for other controls would be shown as if they were these

  switch (st.zoom.kind) {
    case lesson::Zoom::Kind::chip: sim.gpu_view.zoom_to_chip(); break;
    case lesson::Zoom::Kind::sm: sim.gpu_view.zoom_to_sm(st.zoom.sm); break;
    case lesson::Zoom::Kind::warp: sim.gpu_view.zoom_to_warp(st.zoom.sm, st.zoom.warp); break;
    case lesson::Zoom::Kind::lane: sim.gpu_view.zoom_to_lane(st.zoom.sm, st.zoom.warp, st.zoom.lane); break;
  }
  sim.gpu_view.highlight_sm = -1;
  sim.gpu_view.highlight_warp = {};
  sim.matrix_view.highlight_cell = {};
  sim.gpu_view.selection = {};
  sim.selected_core = -1;
  for (const auto& h : st.highlight) {
    using K = lesson::Highlight::Kind;
    if (h.kind == K::sm) sim.gpu_view.highlight_sm = h.a;
    if (h.kind == K::warp) {
      sim.gpu_view.highlight_warp = {h.a, h.b, 0};
      sim.gpu_view.selection = {h.a, h.b, 0};  // the inspector shows its first lane
    }
    if (h.kind == K::lane) sim.gpu_view.selection = {h.a, h.b, h.c};
    if (h.kind == K::core) sim.selected_core = h.a;
    if (h.kind == K::cell) sim.matrix_view.highlight_cell = {h.a, h.b};
  }

  sim.session.set_speed(st.speed);
  const auto live = live_.find(step_);
  if (resume_live && live != live_.end()) {
    sim.session.seek_when_ready(live->second.cycle);
    sim.session.play_when_ready(live->second.playing);
  } else {
    if (st.cycle.kind == lesson::CycleStart::Kind::at)
      sim.session.seek_when_ready(st.cycle.at);
    else
      sim.session.seek_when_ready(seek_anchor(st));
    sim.session.play_when_ready(st.play);
  }
}

void LessonPlayer::apply_cluster(ClusterView& view) const {
  if (lesson_) view.set(state_.cluster);
}

PanelVisibility LessonPlayer::visibility() const {
  if (!lesson_) return {};
  PanelVisibility v{false, false, false, false, false, false, false};
  for (const auto& p : state_.panels) {
    if (p == "gpu") v.gpu = true;
    if (p == "cpu") v.cpu = true;
    if (p == "matrix") v.matrix = true;
    if (p == "timeline") v.timeline = true;
    if (p == "inspector") v.inspector = true;
    if (p == "timers") v.timers = true;
    if (p == "caption") v.caption = true;
    if (p == "roofline") v.roofline = true;
    if (p == "generations") v.generations = true;
    if (p == "cluster") v.cluster = true;
  }
  return v;
}

}  // namespace ws::app
