#include "core/generation_table.hpp"

#include <algorithm>

namespace ws::app {

GenerationRow generation_row(const sim::GpuPreset& p) {
  GenerationRow r;
  r.id = p.id;
  r.name = p.name;
  r.name_ko = p.name_ko;
  r.year = p.year;
  r.sm_count = p.sm_count;
  r.fp32_cores = static_cast<long long>(p.sm_count) * p.fp32_lanes_per_sm;
  r.fp32_tflops = p.peak_gflops() / 1000;
  if (const sim::TensorFormat* f = p.tensor_headline()) {
    r.tensor_cores = static_cast<long long>(p.sm_count) * p.tensor.cores_per_sm;
    r.tensor_tflops = p.tensor_peak_gflops(*f) / 1000;
    r.tensor_format = p.tensor_headline_format();
  }
  r.memory_bandwidth_gbs = p.memory_bandwidth_gbs;
  return r;
}

std::vector<GenerationRow> generation_table(const std::vector<sim::GpuPreset>& presets) {
  std::vector<GenerationRow> rows;
  rows.reserve(presets.size());
  for (const auto& p : presets) rows.push_back(generation_row(p));
  std::stable_sort(rows.begin(), rows.end(), [](const GenerationRow& a, const GenerationRow& b) {
    return a.year != b.year ? a.year < b.year : a.fp32_tflops < b.fp32_tflops;
  });
  return rows;
}

}  // namespace ws::app
