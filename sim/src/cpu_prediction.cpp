// predict_cpu_naive: the CPU model (cpu_model.cpp) run on a slice of the product, not all of C.
//
// A row of C walks B one 16-float column of lines at a time: cells j..j+15 each walk the same k
// lines of B down the column, then the next column of lines. Every row does the same, so after
// the first row the caches hold what the end of the previous row left. Warming: each core's
// caches (and the shared L3) see, in the order a whole row reaches them, every line of B once per
// column of lines (a second identical walk would not change which lines LRU keeps). A's row is
// left cold, as a new row of C finds it (one miss per 16 steps of its first cell).
// Measuring: the full model, times and all, runs `cells_per_core` cells on every core from the
// start of row 0 (core c takes cells c, c + P, ... as in the simulation). The speed is the steps
// all cores did over the cycles the slowest took, converted with the preset's clock. At 1024³
// and one core that is ~50k steps instead of 10⁹.
#include "warpscope/sim/cpu_prediction.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "cpu_model.hpp"

namespace ws::sim {

CpuPrediction predict_cpu_naive(const CpuPreset& cpu, int m, int n, int k, int cores, int cells_per_core) {
  if (m < 1 || n < 1 || k < 1 || cores < 1 || cells_per_core < 1)
    throw std::invalid_argument("predict_cpu_naive: shape, cores and cells must be at least 1");
  cores = std::min(cores, std::max(1, cpu.cores));
  // The slice never needs more rows than it computes (plus the one whose A row is warmed).
  const std::int64_t cells = static_cast<std::int64_t>(cores) * cells_per_core;
  const int rows = static_cast<int>(std::min<std::int64_t>(m, (cells + n - 1) / n + 1));
  // The model multiplies real values; zeros do: the speed does not depend on them.
  const std::vector<float> a(static_cast<std::size_t>(rows) * k, 0.0f);
  const std::vector<float> b(static_cast<std::size_t>(k) * n, 0.0f);
  // The model lays B out after the slice's rows of A: a shift of whole A rows, which moves B's
  // lines between sets but not how many of a column share one.
  detail::CpuModel model(cpu, cores, false, rows, n, k, a.data(), b.data());

  for (int c = 0; c < cores; ++c) {
    for (int col = 0; col < n; col += 16) {
      for (int kk = 0; kk < k; ++kk) model.warm(c, model.b_address(kk, col));
    }
  }
  // Only the slice's own loads count in its hit rates.
  for (auto& x : model.state().cores) x.l1_hits = x.l2_hits = x.l3_hits = x.dram = 0;

  const std::int64_t target = static_cast<std::int64_t>(std::min<std::int64_t>(cells_per_core, model.units_of(0))) * k;
  double horizon = 64.0 * cpu.fma_latency * k;
  for (;;) {
    model.advance_to(horizon);
    bool done = true;
    for (int c = 0; c < cores; ++c)
      if (model.steps_done(c) < std::min<std::int64_t>(target, model.units_of(c) * static_cast<std::int64_t>(k)))
        done = false;
    if (done) break;
    horizon *= 2;
  }
  // advance_to(horizon) ran every step starting by the horizon: count those and the time they took.
  CpuPrediction p;
  double slowest = 0;
  std::uint64_t l1 = 0, l2 = 0, l3 = 0, dram = 0;
  for (int c = 0; c < cores; ++c) {
    const auto& x = model.state().cores[c];
    p.steps_simulated += model.steps_done(c);
    slowest = std::max(slowest, x.time);
    l1 += x.l1_hits;
    l2 += x.l2_hits;
    l3 += x.l3_hits;
    dram += x.dram;
  }
  const double loads = static_cast<double>(l1 + l2 + l3 + dram);
  if (loads > 0) {
    p.l1_hit_rate = l1 / loads;
    p.l2_hit_rate = l2 / loads;
    p.l3_hit_rate = l3 / loads;
    p.dram_rate = dram / loads;
  }
  p.cycles_per_step = slowest * cores / static_cast<double>(p.steps_simulated);
  p.gflops = 2.0 * static_cast<double>(p.steps_simulated) / slowest * cpu.base_clock_ghz;
  return p;
}

}  // namespace ws::sim
