#include "core/cluster_setup.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace ws::app {

const sim::GpuPreset& cluster_gpu(const std::string& preset_id) {
  const sim::GpuPreset& gpu = sim::find_gpu(preset_id);
  return gpu.interconnect.link.empty() ? sim::find_gpu("h100") : gpu;
}

sim::ClusterConfig cluster_config(const lesson::ClusterSetting& setting) {
  const auto strategy = sim::parse_strategy(setting.strategy);
  if (!strategy) throw std::invalid_argument("unknown cluster strategy '" + setting.strategy + "'");
  sim::ClusterConfig c;
  c.gpus = setting.gpus;
  c.nodes = setting.nodes;
  c.strategy = *strategy;
  c.micro_batches = setting.micro_batches;
  c.mlp = {setting.size, setting.size, 4 * setting.size,
           c.strategy == sim::Strategy::pipeline ? std::max(2, setting.gpus) : 2};
  return c;
}

sim::ClusterResult simulate_setting(const std::string& preset_id, const lesson::ClusterSetting& setting) {
  return sim::simulate_cluster(cluster_gpu(preset_id), cluster_config(setting));
}

std::vector<ScalingPoint> scaling_curve(const std::string& preset_id, const lesson::ClusterSetting& setting) {
  std::vector<ScalingPoint> curve;
  for (int gpus = 1; gpus <= 64; gpus *= 2) {
    lesson::ClusterSetting s = setting;
    s.gpus = gpus;
    s.nodes = 0;  // as few as hold them: the setting's own node count may not divide this count
    try {
      const auto r = simulate_setting(preset_id, s);
      curve.push_back({gpus, r.speedup, r.efficiency});
    } catch (const std::invalid_argument&) {
      // A count this strategy cannot split at this size has no point on the curve.
    }
  }
  return curve;
}

std::string format_cluster_speedup(double speedup) { return fmt::format("{:.1f}", speedup); }
std::string format_cluster_percent(double fraction) { return fmt::format("{:.0f}", 100 * fraction); }

double link_progress_at(const sim::ClusterResult& r, const sim::LinkUse& link, double t) {
  for (const auto& a : r.activities) {
    if (a.gpu != link.from || t < a.start_s || t >= a.end_s || a.end_s <= a.start_s) continue;
    if (a.kind != sim::ActivityKind::send && a.kind != sim::ActivityKind::collective) continue;
    return (t - a.start_s) / (a.end_s - a.start_s);
  }
  return -1;
}

}  // namespace ws::app
