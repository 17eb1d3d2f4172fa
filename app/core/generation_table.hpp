// The GPU generations side by side: one row per GPU preset, oldest first, with the figures a
// lecturer compares (SMs, FP32 and tensor-core peaks, memory bandwidth). Every peak is computed
// from the preset's parts, as the captions' preset.* values are, so the table and the captions
// agree; the presets' loader holds those peaks to the datasheets within 2 %.
#pragma once

#include <string>
#include <vector>

#include "warpscope/sim/presets.hpp"

namespace ws::app {

struct GenerationRow {
  std::string id, name;
  std::string name_ko;  // the preset's Korean label, "" when its name reads the same in Korean
  int year = 0;
  int sm_count = 0;
  long long fp32_cores = 0;
  double fp32_tflops = 0;
  long long tensor_cores = 0;   // 0: before tensor cores
  double tensor_tflops = 0;     // dense, in tensor_format; 0 without tensor cores
  std::string tensor_format;    // "BF16", "FP16" or ""
  double memory_bandwidth_gbs = 0;
};

GenerationRow generation_row(const sim::GpuPreset& preset);

// Every GPU preset, ordered by year (then by FP32 peak, so a year's cards read slow to fast).
std::vector<GenerationRow> generation_table(const std::vector<sim::GpuPreset>& presets);

}  // namespace ws::app
