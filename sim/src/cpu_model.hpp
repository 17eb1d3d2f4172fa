// A few big CPU cores running the naive loop (optionally over a SIMD strip of cells), with their
// caches modelled as tags, on a clock of their own that the GPU cycle converts to. Each core is
// out of order: its loads run ahead of the accumulator chain (see cpu_model.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "cache_model.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::sim::detail {

struct CpuCore {
  double time = 0;             // CPU cycle at which the next k step starts
  double mem = 0;              // CPU cycle at which the loads issued so far have all been served
  std::int64_t unit_n = 0;     // how many of its units (cells or strips) it has finished
  std::int32_t k = 0;
  float acc[16] = {};
  std::uint64_t l1_hits = 0, l2_hits = 0, l3_hits = 0, dram = 0;
};

struct CpuState {
  std::vector<CpuCore> cores;
  std::vector<SectorCache> l1, l2;
  SectorCache l3;
  // Per core, per L1 set: the CPU cycle at which the set's fill slots are free again (only when the
  // preset limits L1 fills per set, else empty).
  std::vector<std::vector<double>> set_free;
};

class CpuModel {
 public:
  CpuModel(const CpuPreset& cpu, int cores, bool simd, int m, int n, int k, const float* a, const float* b);
  void reset();
  void advance_to(double cpu_cycle);   // every step that starts at or before cpu_cycle

  int cores() const { return p_; }
  int width() const { return w_; }     // cells per unit
  std::int64_t units_total() const { return units_; }
  std::int64_t units_of(int core) const { return core < units_ % p_ ? units_ / p_ + 1 : units_ / p_; }
  // The cells of unit u: row, first column, count.
  void unit_cells(std::int64_t u, int& row, int& col, int& count) const;
  std::int64_t unit_of_core(int core, std::int64_t n) const { return core + n * p_; }
  std::int64_t cells_done(int core) const;
  std::int64_t steps_done(int core) const { return st_.cores[core].unit_n * k_ + st_.cores[core].k; }
  // Byte addresses the model gives A[row][kk] and B[kk][col] (A first, B after it, 64-byte aligned).
  std::uint64_t a_address(int row, int kk) const { return (static_cast<std::uint64_t>(row) * k_ + kk) * 4; }
  std::uint64_t b_address(int kk, int col) const { return base_b_ + (static_cast<std::uint64_t>(kk) * n_ + col) * 4; }
  // Brings the line of `addr` into the core's L1 and L2 and the shared L3 as a load would, without
  // time or hit counts: for warming the caches before a measured slice (cpu_prediction.cpp).
  void warm(int core, std::uint64_t addr);
  const std::vector<float>& values() const { return c_; }

  CpuState& state() { return st_; }
  const CpuState& state() const { return st_; }
  void hash_into(Hasher& h) const;
  std::size_t state_bytes() const;

 private:
  struct Load {
    double extra = 0;    // cycles beyond an L1 hit (0 on a hit)
    double latency = 0;  // load-to-use latency of the level that served a miss
  };
  void step(int core);
  // `stride_walk`: a load of B's column walk (a constant stride of a whole row of B per k step).
  Load access(int core, std::uint64_t addr, bool stride_walk);
  int l1_set(std::uint64_t addr) const { return static_cast<int>((addr >> 6) % static_cast<std::uint64_t>(l1_sets_)); }

  const CpuPreset& cpu_;
  int p_, w_;
  int m_, n_, k_;
  int strips_per_row_;
  int l1_sets_;   // sets of the modelled L1d (64-byte lines, l1d_ways ways)
  double fills_per_set_ = 0;  // misses one L1 set keeps in flight for this launch's column walk
  std::int64_t units_;
  const float* a_;
  const float* b_;
  std::uint64_t base_b_, footprint_;
  CpuState st_;
  std::vector<float> c_;   // results as cells finish (identical on every replay)
};

}  // namespace ws::sim::detail
