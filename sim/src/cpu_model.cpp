// The CPU cores. A k step of the naive loop is two loads (A[i][k], B[k][j]) and one dependent add
// into the accumulator. The adds form a chain: one every `fma_latency` cycles at best (for this
// machine the scalar FADD latency, since cpu-naive compiles to mulss + addss). The loads do not
// depend on the chain, so the out-of-order core issues them ahead of it, up to a reorder buffer's
// worth of steps (kRunAheadSteps), with `miss_overlap` L1 misses in flight at once (fill buffers /
// miss address buffers, fed early by the hardware prefetchers). Misses therefore cost throughput,
// not latency: each occupies the memory side for (latency of the level that served it - L1
// latency) / miss_overlap cycles, and a step's add waits only when its data is not there yet. In
// steady state a step costs max(chain latency, misses x extra latency / miss_overlap): the chain
// when B comes from L2 (N = 512 on most cores), the memory side when every B load goes to L3 or
// DRAM (N = 1024, whose 4 KB row stride maps a column of B onto a few L2 sets).
#include "cpu_model.hpp"

#include <algorithm>

namespace ws::sim::detail {

namespace {
// How many k steps of the loop fit in the out-of-order window: the loop body is ~6 micro-ops
// (2 loads, mul, add, index update, compare-and-branch) and reorder buffers hold 200-500.
constexpr double kRunAheadSteps = 32;
}  // namespace

CpuModel::CpuModel(const CpuPreset& cpu, int cores, bool simd, int m, int n, int k, const float* a,
                   const float* b)
    : cpu_(cpu), p_(cores), w_(simd ? std::min(16, std::max(1, cpu.fp32_lanes)) : 1), m_(m), n_(n), k_(k),
      strips_per_row_((n + w_ - 1) / w_), units_(static_cast<std::int64_t>(m) * strips_per_row_), a_(a), b_(b) {
  base_b_ = (4ull * m * k + 63) & ~63ull;
  footprint_ = base_b_ + 4ull * k * n;
  c_.assign(static_cast<std::size_t>(m) * n, 0.0f);
  reset();
}

void CpuModel::reset() {
  st_ = CpuState{};
  st_.cores.assign(p_, CpuCore{});
  st_.l1.assign(p_, SectorCache(static_cast<std::uint64_t>(cpu_.l1d_kb) * 1024, 64, 64, 8, footprint_));
  st_.l2.assign(p_, SectorCache(static_cast<std::uint64_t>(cpu_.l2_kb) * 1024, 64, 64, 8, footprint_));
  st_.l3 = SectorCache(static_cast<std::uint64_t>(cpu_.l3_mb * 1024 * 1024), 64, 64, 16, footprint_);
}

void CpuModel::unit_cells(std::int64_t u, int& row, int& col, int& count) const {
  row = static_cast<int>(u / strips_per_row_);
  col = static_cast<int>(u % strips_per_row_) * w_;
  count = std::min(w_, n_ - col);
}

std::int64_t CpuModel::cells_done(int core) const {
  const std::int64_t done = st_.cores[core].unit_n;
  if (w_ == 1) return done;
  std::int64_t cells = 0;
  for (std::int64_t i = 0; i < done; ++i) {
    int r, c, cnt;
    unit_cells(unit_of_core(core, i), r, c, cnt);
    cells += cnt;
  }
  return cells;
}

double CpuModel::access(int core, std::uint64_t addr) {
  CpuCore& x = st_.cores[core];
  // Every level is looked up so each keeps its own LRU order, as inclusive caches do.
  if (st_.l1[core].access(addr)) {
    ++x.l1_hits;
    st_.l2[core].access(addr);
    return 0;
  }
  double lat;
  if (st_.l2[core].access(addr)) {
    ++x.l2_hits;
    lat = cpu_.l2_latency;
  } else if (st_.l3.access(addr)) {
    ++x.l3_hits;
    lat = cpu_.l3_latency;
  } else {
    ++x.dram;
    lat = cpu_.dram_latency;
  }
  return std::max(0.0, lat - cpu_.l1_latency);
}

void CpuModel::warm(int core, std::uint64_t addr) {
  st_.l1[core].access(addr);
  st_.l2[core].access(addr);
  st_.l3.access(addr);
}

void CpuModel::step(int core) {
  CpuCore& x = st_.cores[core];
  const std::int64_t u = unit_of_core(core, x.unit_n);
  int row, col, cnt;
  unit_cells(u, row, col, cnt);
  const std::size_t k = x.k;
  double miss = access(core, (static_cast<std::uint64_t>(row) * k_ + k) * 4);
  const std::uint64_t b0 = base_b_ + (k * n_ + col) * 4;
  miss += access(core, b0);
  if ((b0 >> 6) != ((b0 + 4ull * cnt - 1) >> 6)) miss += access(core, b0 + 4ull * cnt - 1);
  // The loads issue ahead of the chain, but never more than the window ahead; their misses share
  // the miss_overlap slots. The add starts when the previous add is done and its data is there.
  const double chain = cpu_.fma_latency;
  x.mem = std::max(x.mem, x.time - kRunAheadSteps * chain) + miss / cpu_.miss_overlap;
  const float a = a_[static_cast<std::size_t>(row) * k_ + k];
  const float* b = b_ + k * n_ + col;
  for (int v = 0; v < cnt; ++v) x.acc[v] = __builtin_fmaf(a, b[v], x.acc[v]);
  x.time = std::max(x.time, x.mem) + chain;
  if (++x.k == k_) {
    for (int v = 0; v < cnt; ++v) c_[static_cast<std::size_t>(row) * n_ + col + v] = x.acc[v];
    std::fill(std::begin(x.acc), std::end(x.acc), 0.0f);
    x.k = 0;
    ++x.unit_n;
  }
}

void CpuModel::advance_to(double cpu_cycle) {
  // Cores step in time order (ties by core index) so the shared L3 sees the same sequence however
  // the caller slices time: stepping one cycle at a time or jumping gives the same state.
  for (;;) {
    int best = -1;
    for (int c = 0; c < p_; ++c) {
      const CpuCore& x = st_.cores[c];
      if (x.unit_n >= units_of(c) || x.time > cpu_cycle) continue;
      if (best < 0 || x.time < st_.cores[best].time) best = c;
    }
    if (best < 0) return;
    step(best);
  }
}

void CpuModel::hash_into(Hasher& h) const {
  for (const CpuCore& x : st_.cores) {
    h.add(x.time); h.add(x.mem); h.add(x.unit_n); h.add(x.k);
    for (float v : x.acc) h.add(v);
    h.add(x.l1_hits); h.add(x.l2_hits); h.add(x.l3_hits); h.add(x.dram);
  }
  for (const auto& c : st_.l1) c.hash_into(h);
  for (const auto& c : st_.l2) c.hash_into(h);
  st_.l3.hash_into(h);
}

std::size_t CpuModel::state_bytes() const {
  std::size_t b = st_.cores.size() * sizeof(CpuCore) + st_.l3.bytes();
  for (const auto& c : st_.l1) b += c.bytes();
  for (const auto& c : st_.l2) b += c.bytes();
  return b;
}

}  // namespace ws::sim::detail
