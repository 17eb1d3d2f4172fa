// The cluster view (View > Cluster, --cluster): the simulated GPUs of sim::simulate_cluster as
// compact chips with their busy bars, the links between them with the bytes they carried, each
// GPU's timeline on one clock, and the scaling line, all computed by the model. docs/CLUSTER.md.
#pragma once

#include <optional>
#include <string>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "lesson/i18n.hpp"
#include "warpscope/sim/cluster.hpp"

namespace ws::app {

struct ClusterView {
  int gpus = 8;
  int nodes = 0;  // 0: as few as hold the GPUs
  int strategy = 0;  // index into sim::strategy_names()
  int micro_batches = 8;
  int size = 4096;   // batch = width = size, hidden = 4 x size

  // Draws into the current ImGui window. `gpu_preset` is the simulated GPU's id (the simulation
  // panel's); a preset without link figures falls back to the H100.
  void draw(ImVec2 avail, const std::string& gpu_preset, lesson::Language lang);
  // What the last frame drew, for --print-state: the figures and the line as shown.
  nlohmann::json state() const;

 private:
  void update(const std::string& gpu_preset);
  std::string key_;
  std::optional<sim::ClusterResult> result_;
  std::string error_;
  std::string scaling_line_;
  int chips_drawn_ = 0, gantt_rows_drawn_ = 0, intervals_drawn_ = 0;
  bool drawn_ = false;
};

}  // namespace ws::app
