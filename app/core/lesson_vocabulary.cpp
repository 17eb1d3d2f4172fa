#include "core/lesson_vocabulary.hpp"

#include <algorithm>

#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"
#include "warpscope/sim/cluster.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {

namespace {
void add_unique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}
}  // namespace

lesson::Vocabulary registry_vocabulary() {
  lesson::Vocabulary v;
  v.gpu_presets = sim::gpu_ids();
  add_unique(v.gpu_presets, "this-machine");
  v.cpu_presets = sim::cpu_ids();
  add_unique(v.cpu_presets, "this-machine");
  for (const auto& g : sim::gpu_presets())
    if (!g.has_tensor_cores()) v.gpus_without_tensor_cores.push_back(g.id);
  for (const auto& g : sim::gpu_presets())
    if (g.tensor_peak_gflops(g.tensor.bf16) <= 0) v.gpus_without_bf16_tensor_cores.push_back(g.id);
  v.sim_kernels = sim::kernel_names();
  for (const auto& name : v.sim_kernels)
    if (sim::uses_tensor_cores(*sim::parse_kernel(name))) v.tensor_kernels.push_back(name);
  for (const auto& k : kernels::all_kernels()) add_unique(v.real_kernels, k.name);
  v.cluster_strategies = sim::strategy_names();
  return v;
}

bool machine_has_hardware_gpu() {
  if (kernels::gpu_info()) return true;
  const auto gl = kernels::gl_info();
  return gl && !gl->software;  // a software renderer computes on this CPU
}

}  // namespace ws::app
