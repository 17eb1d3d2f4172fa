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
//
// Two limits measured on the machine itself (this_machine.cpp; named presets leave them at 0, off):
// - l1_fills_per_set: the L1d is indexed by address bits 6-11, so a column of B whose rows are
//   2 KB apart falls into 2 of its sets and one 4 KB apart into a single set. Misses into one set
//   are served a few at a time, not miss_overlap at a time: each holds one of the set's
//   l1_fills_per_set slots for its whole load-to-use latency (for B's walk, the walk's measured
//   latency, against which the fills were measured), and the next miss into that set starts when
//   a slot is free. A step's add waits for its own misses.
// - stride_walk_latency: B's column walk is one load with a constant stride; the stride
//   prefetcher follows it across pages and brings each next line close ahead of the load, so a
//   miss of the walk costs at most the latency measured for such a walk, whichever level the
//   model's caches would have found the line in.
#include "cpu_model.hpp"

#include <algorithm>
#include <numeric>

namespace ws::sim::detail {

namespace {
// How many L1 sets a column of B falls into: its rows are 4n bytes apart, so with whole lines per
// row the column steps through the sets by the row's lines modulo the set count (64 sets on every
// x86 L1d: 2 KB rows fall into 2 sets, 4 KB rows into 1).
int column_sets(int n, int sets) {
  const std::uint64_t stride = 4ull * static_cast<std::uint64_t>(n);
  if (stride % 64 != 0) return sets;  // the column's lines shift within the rows: no fixed subset
  const std::uint64_t step = (stride / 64) % static_cast<std::uint64_t>(sets);
  if (step == 0) return 1;
  return static_cast<int>(static_cast<std::uint64_t>(sets) / std::gcd(static_cast<std::uint64_t>(sets), step));
}

// How many k steps of the loop fit in the out-of-order window: the loop body is ~6 micro-ops
// (2 loads, mul, add, index update, compare-and-branch) and reorder buffers hold 200-500.
constexpr double kRunAheadSteps = 32;
}  // namespace

CpuModel::CpuModel(const CpuPreset& cpu, int cores, bool simd, int m, int n, int k, const float* a,
                   const float* b)
    : cpu_(cpu), p_(cores), w_(simd ? std::min(16, std::max(1, cpu.fp32_lanes)) : 1), m_(m), n_(n), k_(k),
      strips_per_row_((n + w_ - 1) / w_),
      l1_sets_(static_cast<int>(std::max<std::int64_t>(
          1, static_cast<std::int64_t>(cpu.l1d_kb) * 1024 / 64 / std::max(1, cpu.l1d_ways)))),
      units_(static_cast<std::int64_t>(m) * strips_per_row_), a_(a), b_(b) {
  base_b_ = (4ull * m * k + 63) & ~63ull;
  footprint_ = base_b_ + 4ull * k * n;
  c_.assign(static_cast<std::size_t>(m) * n, 0.0f);
  // Two sets serve fewer than twice one set's misses where that was measured (l1_fills_two_sets).
  fills_per_set_ = column_sets(n, l1_sets_) == 2 && cpu.l1_fills_two_sets > 0 ? cpu.l1_fills_two_sets / 2
                                                                              : cpu.l1_fills_per_set;
  reset();
}

void CpuModel::reset() {
  st_ = CpuState{};
  st_.cores.assign(p_, CpuCore{});
  st_.l1.assign(p_, SectorCache(static_cast<std::uint64_t>(cpu_.l1d_kb) * 1024, 64, 64, std::max(1, cpu_.l1d_ways),
                                footprint_));
  st_.l2.assign(p_, SectorCache(static_cast<std::uint64_t>(cpu_.l2_kb) * 1024, 64, 64, 8, footprint_));
  st_.l3 = SectorCache(static_cast<std::uint64_t>(cpu_.l3_mb * 1024 * 1024), 64, 64, 16, footprint_);
  if (cpu_.l1_fills_per_set > 0) st_.set_free.assign(p_, std::vector<double>(l1_sets_, 0.0));
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

CpuModel::Load CpuModel::access(int core, std::uint64_t addr, bool stride_walk) {
  CpuCore& x = st_.cores[core];
  // Every level is looked up so each keeps its own LRU order, as inclusive caches do.
  if (st_.l1[core].access(addr)) {
    ++x.l1_hits;
    st_.l2[core].access(addr);
    return {};
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
  // The hit counts keep the level the line was found in; the prefetcher only moved it earlier.
  if (stride_walk && cpu_.stride_walk_latency > 0) lat = std::min(lat, cpu_.stride_walk_latency);
  return {std::max(0.0, lat - cpu_.l1_latency), lat};
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
  const double chain = cpu_.fma_latency;
  // The loads issue ahead of the chain, but never more than the window ahead.
  const double issue = x.time - kRunAheadSteps * chain;
  double miss = 0, ready = 0;
  const auto load = [&](std::uint64_t addr, bool stride_walk) {
    const Load l = access(core, addr, stride_walk);
    miss += l.extra;
    if (l.extra > 0 && !st_.set_free.empty()) {
      // One of the set's fill slots, held for the whole load-to-use latency. For the column walk
      // that is the walk's measured latency, whichever level served the line: the fills per set
      // were measured against it (chase / independent loads), so the interval between misses is
      // the probe's. Charged the level's own latency, a column in an L2 faster than the walk
      // (512³ on a 2 MB-L2 Xeon whose 4 MB chase runs to L3) let misses come 4x too often.
      const double held = stride_walk && cpu_.stride_walk_latency > 0 ? cpu_.stride_walk_latency : l.latency;
      double& free_at = st_.set_free[core][l1_set(addr)];
      const double start = std::max(free_at, issue);
      free_at = start + held / fills_per_set_;
      ready = std::max(ready, start + l.extra);
    }
  };
  load((static_cast<std::uint64_t>(row) * k_ + k) * 4, false);
  const std::uint64_t b0 = base_b_ + (k * n_ + col) * 4;
  load(b0, true);
  if ((b0 >> 6) != ((b0 + 4ull * cnt - 1) >> 6)) load(b0 + 4ull * cnt - 1, true);
  // Their misses share the miss_overlap slots. The add starts when the previous add is done and
  // its data is there.
  x.mem = std::max(x.mem, issue) + miss / cpu_.miss_overlap;
  const float a = a_[static_cast<std::size_t>(row) * k_ + k];
  const float* b = b_ + k * n_ + col;
  for (int v = 0; v < cnt; ++v) x.acc[v] = __builtin_fmaf(a, b[v], x.acc[v]);
  x.time = std::max({x.time, x.mem, ready}) + chain;
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
  for (const auto& core : st_.set_free)
    for (double t : core) h.add(t);
}

std::size_t CpuModel::state_bytes() const {
  std::size_t b = st_.cores.size() * sizeof(CpuCore) + st_.l3.bytes();
  for (const auto& c : st_.l1) b += c.bytes();
  for (const auto& c : st_.l2) b += c.bytes();
  for (const auto& c : st_.set_free) b += c.size() * sizeof(double);
  return b;
}

}  // namespace ws::sim::detail
