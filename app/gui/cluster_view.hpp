// The cluster view (View > Cluster, --cluster): the simulated GPUs of sim::simulate_cluster as
// compact chips with their busy bars, the links between them with the bytes they carried, each
// GPU's timeline on one clock, and the scaling line, all computed by the model. docs/CLUSTER.md.
#pragma once

#include <future>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "core/cluster_setup.hpp"
#include "lesson/i18n.hpp"
#include "lesson/lesson.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/sim/cluster.hpp"

namespace ws::app {

struct ClusterView {
  int gpus = 8;
  int nodes = 0;  // 0: as few as hold the GPUs
  int strategy = 0;  // index into sim::strategy_names()
  int micro_batches = 8;
  int size = 4096;   // batch = width = size, hidden = 4 x size
  bool show_curve = false;     // speed-up against 1..64 GPUs beside the timeline
  bool hide_controls = false;  // clean mode, projector lessons: the split is the lesson's
  bool drawn = false;          // this frame (the window clears it before drawing)

  // A lesson step's split (LessonPlayer::apply_cluster), and the split shown as one.
  void set(const lesson::ClusterSetting& setting);
  lesson::ClusterSetting setting() const;

  // Draws into the current ImGui window. `gpu_preset` is the simulated GPU's id (the simulation
  // panel's); a preset without link figures falls back to the H100.
  void draw(ImVec2 avail, const std::string& gpu_preset, lesson::Language lang);
  // What the last frame drew, for --print-state: the figures and the line as shown.
  nlohmann::json state() const;

 private:
  void update(const std::string& gpu_preset);
  void draw_controls(lesson::Language lang);
  void draw_result(float avail_w, float bottom, lesson::Language lang);
  void draw_real_split(lesson::Language lang);
  // Why the real split cannot run here, as the view says it; "" when it can.
  std::string real_unavailable_text(lesson::Language lang);
  std::string key_;
  std::optional<sim::ClusterResult> result_;
  std::vector<ScalingPoint> curve_;  // for key_; filled when show_curve asks for it
  bool curve_done_ = false;
  int curve_points_drawn_ = 0;
  int curve_labels_ = 0;           // the axes' numbers drawn (14 when every doubling has one)
  ImVec2 curve_px_{0, 0};          // the plot's inner size as drawn last frame
  float curve_label_pitch_px_ = 0;  // the least free space between two neighbouring numbers
  // The scaling curve with its text at f px; curve_height_needed: the least height it draws in.
  void draw_curve(ImVec2 top_left, ImVec2 size, float f, lesson::Language lang);
  float curve_height_needed(float width, float f, lesson::Language lang) const;
  // The Gantt rows in `space` px from `at` (rows no thinner than min_row_h), the playhead and the
  // time axis's ends; returns the axis's top.
  float draw_rows(const sim::ClusterResult& r, ImVec2 at, float w, float space, float min_row_h, lesson::Language lang);
  std::string error_;
  std::string scaling_line_;
  int chips_drawn_ = 0, gantt_rows_drawn_ = 0, intervals_drawn_ = 0;
  float gantt_row_px_ = 0;  // height of one GPU's row as drawn last frame (0: no rows)
  // The step replays on a loop: the playhead on the Gantt, and the links carrying bytes at it lit
  // with a dot travelling along them.
  double playhead_s_ = 0;
  bool compact_ = false;  // a short panel: the timeline kept, the chips and link names left out
  int links_lit_ = 0;
  bool drawn_ = false;
  // The real column split over this machine's CUDA GPUs (cuda-multi) beside cublas on one: why it
  // cannot run here, or its last measurement. Asked once; the run itself on a worker thread.
  std::optional<std::optional<std::string>> real_unavailable_;
  struct RealPair {
    kernels::JobResult multi, single;
  };
  std::future<RealPair> real_running_;
  std::optional<RealPair> real_;
  static constexpr int kRealSize = 8192;
};

}  // namespace ws::app
