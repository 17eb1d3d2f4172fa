// Plays a lesson: loads it (a broken file leaves the current lesson and app state untouched and
// says why), moves between steps, and turns each step's state into the app's controls.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "lesson/lesson.hpp"

namespace ws::app {

struct ClusterView;
struct RealRunView;
struct SimulationPanel;

// Which parts of the window a lesson step shows (all, outside a lesson).
struct PanelVisibility {
  bool gpu = true, cpu = true, matrix = true, timeline = true, inspector = true, timers = true, caption = true;
  bool roofline = false;  // shown only when a step names it (or the View menu asks for it)
  bool generations = false;  // the GPU generations table: likewise
  bool cluster = false;      // the cluster view: likewise
};

class LessonPlayer {
 public:
  // On failure returns false, keeps what was playing, and error() holds every diagnostic.
  bool open(const std::string& path);
  void close();
  bool active() const { return lesson_.has_value(); }
  const lesson::Lesson& lesson() const { return *lesson_; }
  const std::string& path() const { return path_; }
  // Every title and caption of the open lesson: the fonts load the Hangul it uses.
  const std::string& text() const { return text_; }
  const std::string& error() const { return error_; }
  void clear_error() { error_.clear(); }

  std::size_t step() const { return step_; }
  std::size_t step_count() const { return lesson_ ? lesson_->steps.size() : 0; }
  const lesson::AppliedState& state() const { return state_; }

  // Moves to `step` (clamped) and applies it. The step being left remembers its live cycle and
  // playback, so coming back mid-animation resumes exactly there; restart() forgets all that.
  void go_to(std::size_t step, RealRunView& real, SimulationPanel& sim);
  void restart(RealRunView& real, SimulationPanel& sim);
  // Opens the lesson on `step` (clamped) as if it had never been shown: the step's own cycle
  // ("mid-run", "first-issue" or a number), not the cycle the window happened to be at.
  void start_at(std::size_t step, RealRunView& real, SimulationPanel& sim);
  PanelVisibility visibility() const;
  // Sets the cluster view to the step's split (its `cluster` field, carried like any other).
  void apply_cluster(ClusterView& view) const;
  // Whether this frame's control changes came from the lesson (not from the user).
  bool applied_this_frame() const { return applied_; }
  void clear_applied_flag() { applied_ = false; }

 private:
  void apply(RealRunView& real, SimulationPanel& sim, bool resume_live);

  std::optional<lesson::Lesson> lesson_;
  std::string path_, error_, text_;
  std::size_t step_ = 0;
  lesson::AppliedState state_;
  struct Live {
    std::int64_t cycle = 0;
    bool playing = false;
  };
  std::map<std::size_t, Live> live_;
  bool applied_ = false;
};

}  // namespace ws::app
