// The cluster view's split (strategy, GPU count, nodes, micro-batches, size) turned into the sim
// model's configuration, shared by the window, the lesson captions ({cluster.*}) and their tests,
// so that a caption quotes exactly what the view draws and `warpscope cluster` reports.
#pragma once

#include <string>
#include <vector>

#include "lesson/lesson.hpp"
#include "warpscope/sim/cluster.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app {

// The GPU preset the cluster is built of: `preset_id`, or the H100 where that preset has no link
// figures (pre-NVLink parts without an [interconnect] table).
const sim::GpuPreset& cluster_gpu(const std::string& preset_id);

// The MLP training step the view splits: batch = width = size, hidden = 4 x size, two layers (a
// pipeline: one layer a GPU, at least two), as `warpscope cluster --size` builds it.
// Throws std::invalid_argument for an unknown strategy.
sim::ClusterConfig cluster_config(const lesson::ClusterSetting& setting);

// simulate_cluster on cluster_gpu(preset_id); throws what it throws.
sim::ClusterResult simulate_setting(const std::string& preset_id, const lesson::ClusterSetting& setting);

// Speed-up against one GPU for 1, 2, 4, ... 64 GPUs with the setting's strategy and size; counts
// the strategy cannot split (e.g. a batch that does not divide) are left out.
struct ScalingPoint {
  int gpus = 0;
  double speedup = 0, efficiency = 0;
};
std::vector<ScalingPoint> scaling_curve(const std::string& preset_id, const lesson::ClusterSetting& setting);

// Where a link's bytes are at time t of the step (0 <= t <= total_s): the fraction of the way
// through the sending GPU's send or collective interval that covers t and uses this link, or a
// negative value when the link is quiet then. The view animates its arcs with it, so a lit link
// is one the model has carrying bytes at the playhead.
double link_progress_at(const sim::ClusterResult& r, const sim::LinkUse& link, double t);

// The view's and the captions' rounding: "6.1" (speed-up), "76" (a fraction as a percentage).
std::string format_cluster_speedup(double speedup);
std::string format_cluster_percent(double fraction);

}  // namespace ws::app
