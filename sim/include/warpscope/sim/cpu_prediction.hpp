// The CPU model's speed for the naive loop, as one figure: what the CPU panel and
// `warpscope simulate --json` (cpu_model_gflops) put beside the measured cpu-naive.
#pragma once

#include <cstdint>

#include "warpscope/sim/presets.hpp"

namespace ws::sim {

struct CpuPrediction {
  double gflops = 0;           // all `cores` together, at the preset's base_clock_ghz
  double cycles_per_step = 0;  // mean core cycles per k step of one cell (per core)
  double l1_hit_rate = 0, l2_hit_rate = 0, l3_hit_rate = 0, dram_rate = 0;  // of the slice's loads
  std::int64_t steps_simulated = 0;  // k steps run through the model, all cores
};

// The naive i-j-k loop, one cell of C at a time per core (cpu-naive is this on one core), for an
// m x n x k product. Runs the CPU model itself (cpu_model.cpp) on a representative slice instead of
// all of C: the caches are first warmed with one pass over B in the order a whole row of C walks
// it (each line once: repeating a walk changes no LRU state that matters), as every row but the
// first finds them, then each core computes `cells_per_core` cells of a row and the speed is
// their steps over their cycles. Milliseconds at 1024³. Deterministic; throws
// std::invalid_argument for a shape or core count below 1.
CpuPrediction predict_cpu_naive(const CpuPreset& cpu, int m, int n, int k, int cores = 1, int cells_per_core = 48);

}  // namespace ws::sim
