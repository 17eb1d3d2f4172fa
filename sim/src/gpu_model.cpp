// The GPU engine. One warp instruction at a time, per warp, with its 32 lanes' arithmetic done in a
// tight loop; idle stretches (every warp waiting) are skipped by jumping to the next event.
#include "gpu_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace ws::sim::detail {
namespace {

std::int64_t ceil_cycle(double t) {
  auto i = static_cast<std::int64_t>(t);
  return i < t ? i + 1 : i;
}
std::uint64_t align256(std::uint64_t x) { return (x + 255) & ~std::uint64_t{255}; }

// Exact fp32 fused multiply-add, as FFMA does: one rounding. Where the CPU has FMA the loop uses
// it; elsewhere libm's fmaf gives the same result, slower. Chosen once, called through a pointer
// (an ifunc'd clone would go through the PLT on every call, which showed in profiles).
void fma_row_generic(float a, const float* b, float* acc, int n) {
  for (int i = 0; i < n; ++i) acc[i] = __builtin_fmaf(a, b[i], acc[i]);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) void fma_row_hw(float a, const float* b, float* acc, int n) {
  for (int i = 0; i < n; ++i) acc[i] = __builtin_fmaf(a, b[i], acc[i]);
}
using FmaRow = void (*)(float, const float*, float*, int);
FmaRow pick_fma_row() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") ? &fma_row_hw : &fma_row_generic;
}
const FmaRow fma_row = pick_fma_row();
#else
constexpr auto fma_row = &fma_row_generic;
#endif

// Shared-memory wavefronts for one warp access: the most distinct words any bank must serve,
// and at least one wavefront per 128 bytes of distinct data.
int wavefronts(const std::vector<int>& words) {
  std::vector<int> uniq = words;
  std::sort(uniq.begin(), uniq.end());
  uniq.erase(std::unique(uniq.begin(), uniq.end()), uniq.end());
  int per_bank[32] = {};
  int worst = 0;
  for (int w : uniq) worst = std::max(worst, ++per_bank[w % 32]);
  return std::max({1, worst, static_cast<int>((uniq.size() + 31) / 32)});
}

}  // namespace

GpuSetup make_setup(const GpuPreset& g, const SimConfig& cfg, const float* a, const float* b) {
  GpuSetup s;
  s.gpu = &g;
  s.kernel = cfg.kernel;
  s.m = cfg.shape.m;
  s.n = cfg.shape.n;
  s.k = cfg.shape.k;
  s.bdim = cfg.block;
  s.threads = s.bdim * s.bdim;
  s.wpb = (s.threads + 31) / 32;
  s.grid_x = (s.n + s.bdim - 1) / s.bdim;
  s.grid_y = (s.m + s.bdim - 1) / s.bdim;
  s.total_blocks = static_cast<std::int64_t>(s.grid_x) * s.grid_y;

  const CcLimits lim = cc_limits(g.cc_major, g.cc_minor);
  const int smem = cfg.kernel == Kernel::tiled ? 2 * s.threads * 4 : 0;
  s.occupancy = compute_occupancy(lim, {s.threads, cfg.regs_per_thread, smem});
  if (s.occupancy.active_blocks_per_sm == 0)
    throw SimRefused("the launch cannot run on " + g.name + ": " + s.occupancy.reason);
  s.blocks_per_sm = s.occupancy.active_blocks_per_sm;
  s.slots = s.blocks_per_sm * s.wpb;
  s.nsched = g.schedulers_per_sm;
  s.per_sched = (s.slots + s.nsched - 1) / s.nsched;

  // A scheduler feeds lanes_per_sm / schedulers FP32 lanes; a warp FFMA holds them 32/lanes cycles.
  // Kepler's 48 lanes per scheduler are only reachable by dual issue.
  const double lanes = static_cast<double>(g.fp32_lanes_per_sm) / s.nsched;
  s.fp_cost = 32.0 / lanes;
  s.issue_width = lanes > 32 ? 2 : 1;
  s.alu_on_fp_pipe = g.cc_major < 7;               // Volta split INT32 into its own pipe
  s.alu_cost = s.alu_on_fp_pipe ? s.fp_cost : 2.0;  // 16 INT32 lanes per partition
  s.lsu_cost = g.lsu_cycles_per_wavefront;
  s.smem_cost = g.smem_cycles_per_wavefront;
  s.l2_bytes_per_cycle = g.l2_kb > 0 ? g.l2_bandwidth_gbs * 1e3 / g.clock_mhz : 0;
  s.dram_bytes_per_cycle = g.dram_bytes_per_cycle();
  s.lat = g.latency;

  if (g.l1_kb > 0) {
    std::uint64_t l1 = static_cast<std::uint64_t>(g.l1_kb) * 1024;
    if (g.l1_shares_smem) {
      // Volta+: shared memory takes the smallest carveout that holds the resident blocks' tiles.
      const int used = s.blocks_per_sm * (smem > 0 ? s.occupancy.allocated_smem_per_block : 0);
      int carve = used;
      for (int kb : lim.carveout_steps_kb)
        if (used <= kb * 1024) {
          carve = kb * 1024;
          break;
        }
      l1 = l1 > static_cast<std::uint64_t>(carve) ? l1 - carve : 0;
    }
    s.l1_bytes = l1;
  }

  s.ntiles = (s.k + s.bdim - 1) / s.bdim;
  s.a = a;
  s.b = b;
  s.base_a = 0;
  s.base_b = align256(4ull * s.m * s.k);
  s.base_c = s.base_b + align256(4ull * s.k * s.n);
  s.footprint = s.base_c + 4ull * s.m * s.n;

  s.segs.resize(s.wpb);
  s.sts_waves.resize(s.wpb);
  s.lds_a_waves.resize(s.wpb);
  s.lds_b_waves.resize(s.wpb);
  for (int w = 0; w < s.wpb; ++w) {
    std::vector<int> sts, lds_a, lds_b;
    for (int lane = 0; lane < 32; ++lane) {
      const int t = w * 32 + lane;
      if (t >= s.threads) break;
      const int ty = t / s.bdim, tx = t % s.bdim;
      auto& segs = s.segs[w];
      if (segs.empty() || segs.back().ty != ty)
        segs.push_back({static_cast<std::int16_t>(ty), static_cast<std::int16_t>(tx), static_cast<std::int16_t>(tx + 1),
                        static_cast<std::int16_t>(lane)});
      else
        segs.back().tx1 = static_cast<std::int16_t>(tx + 1);
      // The bank pattern does not depend on which tile or which kk: both shift every word alike.
      sts.push_back(ty * s.bdim + tx);
      for (int v = 0; v < std::min(kUnroll, s.bdim); ++v) lds_a.push_back(ty * s.bdim + v);
      lds_b.push_back(tx);
    }
    s.sts_waves[w] = wavefronts(sts);
    s.lds_a_waves[w] = wavefronts(lds_a);
    s.lds_b_waves[w] = wavefronts(lds_b);
  }
  return s;
}

GpuModel::GpuModel(GpuSetup setup, GpuOutputs* out) : s_(std::move(setup)), out_(out) {
  if (out_ != nullptr) {
    const std::size_t cells = static_cast<std::size_t>(s_.m) * s_.n;
    out_->finish.assign(cells, kNever);
    out_->owner.assign(cells, -1);
    out_->value.assign(cells, 0.0f);
  }
  reset();
}

void GpuModel::reset() {
  const int sms = s_.gpu->sm_count;
  st_ = GpuState{};
  st_.warps.assign(static_cast<std::size_t>(sms) * s_.slots, Warp{});
  st_.acc.assign(static_cast<std::size_t>(sms) * s_.slots * 32, 0.0f);
  st_.blocks.assign(static_cast<std::size_t>(sms) * s_.blocks_per_sm, BlockSlot{});
  if (s_.kernel == Kernel::tiled)
    st_.smem.assign(static_cast<std::size_t>(sms) * s_.blocks_per_sm * 2 * s_.threads, 0.0f);
  st_.sched.assign(static_cast<std::size_t>(sms) * s_.nsched, Scheduler{});
  st_.ready.assign(static_cast<std::size_t>(sms) * s_.nsched * s_.per_sched, kNever);
  st_.ready_age.assign(st_.ready.size(), kNever);
  st_.ready_pipe.assign(st_.ready.size(), 0);
  st_.sms.assign(sms, SmState{});
  st_.l1.assign(sms, SectorCache(s_.l1_bytes, 128, 32, 4, s_.footprint));
  st_.l2 = SectorCache(static_cast<std::uint64_t>(s_.gpu->l2_kb) * 1024, 128, 32, 16, s_.footprint);
  st_.next_event = kNever;
  // Blocks go out breadth-first: one per SM before any SM gets a second.
  for (int r = 0; r < s_.blocks_per_sm; ++r)
    for (int sm = 0; sm < sms && st_.next_block < s_.total_blocks; ++sm) place_block(sm, r, st_.next_block++, 0);
  process_cycle(0);
}

void GpuModel::account(int sm, std::int64_t c, int delta) {
  SmState& x = st_.sms[sm];
  const double dt = static_cast<double>(c - x.last_change);
  x.warp_cycles += x.resident_warps * dt;
  if (x.resident_warps > 0) x.busy_cycles += dt;
  x.last_change = c;
  x.resident_warps += delta;
}

void GpuModel::wake(int sm, int slot, const Warp& w) {
  Scheduler& q = st_.sched[static_cast<std::size_t>(sm) * s_.nsched + slot % s_.nsched];
  q.next_check = std::min(q.next_check, w.ready_at);
  st_.next_event = std::min(st_.next_event, w.ready_at);
}

void GpuModel::place_block(int sm, int bslot, std::int64_t block, std::int64_t c) {
  BlockSlot& bs = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
  bs.block = static_cast<std::int32_t>(block);
  bs.arrived = 0;
  bs.warps_left = static_cast<std::int16_t>(s_.wpb);
  const int bx = static_cast<int>(block % s_.grid_x), by = static_cast<int>(block / s_.grid_x);
  if (!st_.smem.empty())
    std::fill_n(st_.smem.begin() + (static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot) * 2 * s_.threads,
                2 * s_.threads, 0.0f);
  account(sm, c, s_.wpb);
  for (int w = 0; w < s_.wpb; ++w) {
    const int slot = bslot * s_.wpb + w;
    const std::size_t idx = static_cast<std::size_t>(sm) * s_.slots + slot;
    Warp& x = st_.warps[idx];
    x = Warp{};
    x.block = bs.block;
    x.wib = static_cast<std::int16_t>(w);
    x.ever = true;
    x.age = block * s_.wpb + w;
    x.hot = (sm * s_.nsched + slot % s_.nsched) * s_.per_sched + slot / s_.nsched;
    x.bx = bx;
    x.by = by;
    x.bslot = static_cast<std::int16_t>(bslot);
    x.sched = sm * s_.nsched + slot % s_.nsched;
    st_.ready[x.hot] = kNever;
    st_.ready_age[x.hot] = x.age;
    for (const Segment& g : s_.segs[w]) {
      if (by * s_.bdim + g.ty >= s_.m) continue;
      for (int tx = g.tx0; tx < g.tx1; ++tx)
        if (bx * s_.bdim + tx < s_.n) x.mask |= 1u << (g.lane0 + tx - g.tx0);
    }
    std::fill_n(st_.acc.begin() + idx * 32, 32, 0.0f);
    // The naive kernel's out-of-range threads return at once; a warp of only those is done.
    if (s_.kernel == Kernel::naive && x.mask == 0) {
      x.done = true;
      x.ready_at = kNever;
      --bs.warps_left;
      continue;
    }
    x.phase = 0;
    set_next(x, c + s_.lat.block_launch - 1);
    x.reason = WaitReason::launch;
    x.wait_since = c;
    wake(sm, slot, x);
  }
}

bool GpuModel::pipe_ok(const Scheduler& q, Op op, std::int64_t c) const {
  if (op == Op::ffma) return q.fp_free < static_cast<double>(c + 1);
  if (op == Op::alu) return (s_.alu_on_fp_pipe ? q.fp_free : q.alu_free) < static_cast<double>(c + 1);
  return true;
}

// Greedy-then-oldest: keep issuing from the last warp while it can, else the oldest ready warp.
int GpuModel::pick(int sm, int qi, std::int64_t c, std::int64_t& next, int& candidates) {
  Scheduler& q = st_.sched[static_cast<std::size_t>(sm) * s_.nsched + qi];
  const std::size_t base_idx = (static_cast<std::size_t>(sm) * s_.nsched + qi) * s_.per_sched;
  if (q.greedy >= 0) {
    // Only the scheduler's own short arrays are read here: whole Warp records are cold.
    const int j = q.greedy / s_.nsched;
    const std::uint8_t p = st_.ready_pipe[base_idx + j];
    if (st_.ready[base_idx + j] <= c && (p == 0 || pipe_ok(q, p == 1 ? Op::ffma : Op::alu, c))) {
      candidates = 2;  // others unknown: check again next cycle
      return q.greedy;
    }
  }
  // One pass over the scheduler's short arrays, without data-dependent branches: a ready warp
  // whose pipe is busy is not a candidate but tells when the pipe frees.
  const std::int64_t* ready = &st_.ready[base_idx];
  const std::int64_t* age = &st_.ready_age[base_idx];
  const std::uint8_t* pipe = &st_.ready_pipe[base_idx];
  const bool fp_busy = !(q.fp_free < static_cast<double>(c + 1));
  const double alu_free = s_.alu_on_fp_pipe ? q.fp_free : q.alu_free;
  const bool alu_busy = !(alu_free < static_cast<double>(c + 1));
  const std::int64_t fp_at = static_cast<std::int64_t>(q.fp_free);
  const std::int64_t alu_at = static_cast<std::int64_t>(alu_free);
  std::int64_t best_age = kNever, soonest = next;
  int best = -1, count = 0;
  for (int j = 0; j < s_.per_sched; ++j) {
    const bool is_ready = ready[j] <= c;
    const bool blocked = (pipe[j] == 1 && fp_busy) || (pipe[j] == 2 && alu_busy);
    const std::int64_t key = is_ready && !blocked ? age[j] : kNever;
    const std::int64_t when = !is_ready ? ready[j] : (!blocked ? kNever : (pipe[j] == 1 ? fp_at : alu_at));
    soonest = when < soonest ? when : soonest;
    count += key < kNever;
    best = key < best_age ? j : best;
    best_age = key < best_age ? key : best_age;
  }
  next = soonest;
  candidates = count;
  return best < 0 ? -1 : best * s_.nsched + qi;
}

void GpuModel::process_cycle(std::int64_t c) {
  st_.now = c;
  st_.next_event = kNever;
  std::int64_t next = kNever;
  const int sms = s_.gpu->sm_count;
  for (int sm = 0; sm < sms; ++sm) {
    for (int qi = 0; qi < s_.nsched; ++qi) {
      Scheduler& q = st_.sched[static_cast<std::size_t>(sm) * s_.nsched + qi];
      if (q.next_check <= c) {
        // The scheduler is visited again when its earliest warp can issue: at once if another
        // candidate was left waiting, else when the soonest waiting warp (or the one that just
        // issued) is ready. Earlier is always safe; it only costs a visit.
        std::int64_t qnext = kNever;
        int candidates = 0;
        q.next_check = kNever;  // lowered by wake() if this visit releases or places a warp here
        for (int i = 0; i < s_.issue_width; ++i) {
          std::int64_t soonest = kNever;
          const int slot = pick(sm, qi, c, soonest, candidates);
          qnext = soonest;
          if (slot < 0) break;
          q.greedy = slot;
          Warp& w = st_.warps[static_cast<std::size_t>(sm) * s_.slots + slot];
          execute(sm, slot, w, c);
          if (candidates > 1) qnext = c + 1;
          else qnext = std::min(qnext, st_.ready[w.hot]);
        }
        q.next_check = std::min(q.next_check, std::max(c + 1, qnext));
      }
      next = std::min(next, q.next_check);
    }
  }
  st_.next_event = std::min(st_.next_event, next);
}

void GpuModel::advance_to(std::int64_t target) {
  while (st_.now < target) {
    const std::int64_t nx = std::max(st_.now + 1, st_.next_event);
    if (nx > target) {
      st_.now = target;
      break;
    }
    process_cycle(nx);
  }
}

void GpuModel::set_next(Warp& w, std::int64_t base) {
  std::int64_t dep = 0;
  WaitReason why = WaitReason::none;
  auto need = [&](std::int64_t t, WaitReason r) {
    if (t > dep) {
      dep = t;
      why = r;
    }
  };
  if (s_.kernel == Kernel::naive) {
    switch (w.phase) {
      case 0: w.op = w.sub % 2 == 0 ? Op::ldg_a : Op::ldg_b; break;
      case 1:
        w.op = Op::ffma;
        need(w.dep[w.sub], WaitReason::global_memory);
        need(w.acc_ready, WaitReason::dependency);
        break;
      case 2: w.op = Op::alu; break;
      default:
        w.op = Op::stg;
        need(w.acc_ready, WaitReason::dependency);
        break;
    }
  } else {
    switch (w.phase) {
      case 0: w.op = Op::ldg_a; break;
      case 1: w.op = Op::ldg_b; break;
      case 2: w.op = Op::sts_a; need(w.dep_a, WaitReason::global_memory); break;
      case 3: w.op = Op::sts_b; need(w.dep_b, WaitReason::global_memory); break;
      case 4: case 7: w.op = Op::bar; break;
      case 5: w.op = w.sub == 0 ? Op::lds_a : Op::lds_b; break;
      case 6:
        w.op = Op::ffma;
        need(w.dep_a, WaitReason::shared_memory);
        need(w.dep[w.sub], WaitReason::shared_memory);
        need(w.acc_ready, WaitReason::dependency);
        break;
      case 8: w.op = Op::alu; break;
      default:
        w.op = Op::stg;
        need(w.acc_ready, WaitReason::dependency);
        break;
    }
  }
  w.wait_since = base;
  if (dep > base + 1) {
    w.ready_at = dep;
    w.reason = why;
  } else {
    w.ready_at = base + 1;
    w.reason = WaitReason::none;
  }
  st_.ready[w.hot] = w.ready_at;
  st_.ready_pipe[w.hot] = w.op == Op::ffma ? 1 : (w.op == Op::alu ? 2 : 0);
}

std::int64_t GpuModel::global_load(int sm, const Warp& w, bool is_a, std::int64_t c) {
  std::uint64_t sectors[96];
  int ns = 0;
  auto add_range = [&](std::uint64_t first, std::uint64_t end) {
    for (std::uint64_t s = first >> 5; s <= (end - 1) >> 5; ++s) sectors[ns++] = s;
  };
  const int bx = w.bx, by = w.by;
  const std::uint64_t K = s_.k, N = s_.n;
  for (const Segment& g : s_.segs[w.wib]) {
    const std::uint64_t row = static_cast<std::uint64_t>(by) * s_.bdim + g.ty;
    if (s_.kernel == Kernel::naive) {
      const int c0 = bx * s_.bdim + g.tx0, c1 = std::min(bx * s_.bdim + g.tx1, s_.n);
      if (row >= static_cast<std::uint64_t>(s_.m) || c0 >= c1) continue;
      const std::uint64_t k = static_cast<std::uint64_t>(w.iter) + w.sub / 2;
      if (is_a) add_range(s_.base_a + (row * K + k) * 4, s_.base_a + (row * K + k) * 4 + 4);
      else add_range(s_.base_b + (k * N + c0) * 4, s_.base_b + (k * N + c1) * 4);
    } else {
      const std::uint64_t t0 = static_cast<std::uint64_t>(w.iter) * s_.bdim;
      if (is_a) {
        const std::uint64_t k0 = t0 + g.tx0, k1 = std::min<std::uint64_t>(t0 + g.tx1, K);
        if (row >= static_cast<std::uint64_t>(s_.m) || k0 >= k1) continue;
        add_range(s_.base_a + (row * K + k0) * 4, s_.base_a + (row * K + k1) * 4);
      } else {
        const std::uint64_t kr = t0 + g.ty;
        const int c0 = bx * s_.bdim + g.tx0, c1 = std::min(bx * s_.bdim + g.tx1, s_.n);
        if (kr >= K || c0 >= c1) continue;
        add_range(s_.base_b + (kr * N + c0) * 4, s_.base_b + (kr * N + c1) * 4);
      }
    }
  }
  if (ns == 0) return c + 1;  // every lane out of range: nothing leaves the SM
  std::sort(sectors, sectors + ns);
  ns = static_cast<int>(std::unique(sectors, sectors + ns) - sectors);
  int lines = 1;
  for (int i = 1; i < ns; ++i) lines += (sectors[i] >> 2) != (sectors[i - 1] >> 2);

  int l1_hits = 0, l2_hits = 0, dram = 0;
  SectorCache& l1 = st_.l1[sm];
  const bool has_l1 = l1.enabled(), has_l2 = st_.l2.enabled();
  for (int i = 0; i < ns; ++i) {
    const std::uint64_t addr = sectors[i] << 5;
    if (has_l1 && l1.access(addr)) {
      ++l1_hits;
      continue;
    }
    if (has_l2 && st_.l2.access(addr)) {
      ++l2_hits;
      continue;
    }
    ++dram;
  }
  if (has_l1) {
    st_.l1_hits += l1_hits;
    st_.l1_misses += ns - l1_hits;
  }
  if (has_l2) {
    st_.l2_hits += l2_hits;
    st_.l2_misses += dram;
  }

  // Each stage is a queue: the L1 tag stage per SM (one 128-byte line per wavefront), the L2
  // and the DRAM shared by all SMs at their bytes per cycle. A load completes when its slowest
  // sector has crossed every stage it needs plus that level's unloaded latency.
  SmState& x = st_.sms[sm];
  const double t1 = std::max(x.lsu_free, static_cast<double>(c)) + lines * s_.lsu_cost;
  x.lsu_free = t1;
  double done = 0;
  if (l1_hits > 0) done = t1 + s_.lat.l1_hit;
  double t2 = t1;
  const int to_l2 = has_l2 ? l2_hits + dram : 0;
  if (to_l2 > 0) {
    t2 = std::max(st_.l2_free, t1) + to_l2 * 32.0 / s_.l2_bytes_per_cycle;
    st_.l2_free = t2;
    if (l2_hits > 0) done = std::max(done, t2 + s_.lat.l2_hit);
  }
  if (dram > 0) {
    const double t3 = std::max(st_.dram_free, t2) + dram * 32.0 / s_.dram_bytes_per_cycle;
    st_.dram_free = t3;
    st_.dram_bytes += 32ull * dram;
    done = std::max(done, t3 + s_.lat.dram);
  }
  return std::max(c + 1, ceil_cycle(done));
}

void GpuModel::global_store(int sm, const Warp& w, std::int64_t c) {
  std::uint64_t sectors[96];
  int ns = 0;
  const int bx = w.bx, by = w.by;
  for (const Segment& g : s_.segs[w.wib]) {
    const std::uint64_t row = static_cast<std::uint64_t>(by) * s_.bdim + g.ty;
    const int c0 = bx * s_.bdim + g.tx0, c1 = std::min(bx * s_.bdim + g.tx1, s_.n);
    if (row >= static_cast<std::uint64_t>(s_.m) || c0 >= c1) continue;
    const std::uint64_t first = s_.base_c + (row * s_.n + c0) * 4, end = s_.base_c + (row * s_.n + c1) * 4;
    for (std::uint64_t s = first >> 5; s <= (end - 1) >> 5; ++s) sectors[ns++] = s;
  }
  if (ns == 0) return;
  std::sort(sectors, sectors + ns);
  ns = static_cast<int>(std::unique(sectors, sectors + ns) - sectors);
  int lines = 1;
  for (int i = 1; i < ns; ++i) lines += (sectors[i] >> 2) != (sectors[i - 1] >> 2);
  // Stores do not stall the warp; they take L1, L2 and DRAM bandwidth (written back once).
  SmState& x = st_.sms[sm];
  const double t1 = std::max(x.lsu_free, static_cast<double>(c)) + lines * s_.lsu_cost;
  x.lsu_free = t1;
  double t2 = t1;
  if (st_.l2.enabled()) {
    for (int i = 0; i < ns; ++i) st_.l2.access(sectors[i] << 5);
    t2 = std::max(st_.l2_free, t1) + ns * 32.0 / s_.l2_bytes_per_cycle;
    st_.l2_free = t2;
  }
  st_.dram_free = std::max(st_.dram_free, t2) + ns * 32.0 / s_.dram_bytes_per_cycle;
  st_.dram_bytes += 32ull * ns;
}

std::int64_t GpuModel::shared_access(int sm, int waves, std::int64_t c) {
  SmState& x = st_.sms[sm];
  const double t = std::max(x.smem_free, static_cast<double>(c)) + waves * s_.smem_cost;
  x.smem_free = t;
  return ceil_cycle(t) + s_.lat.shared - 1;
}

void GpuModel::finish_warp(int sm, Warp& w, std::int64_t c) {
  w.done = true;
  w.ready_at = kNever;
  st_.ready[w.hot] = kNever;
  w.reason = WaitReason::none;
  w.op = Op::none;
  const int bslot = w.bslot;
  BlockSlot& bs = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
  if (--bs.warps_left > 0) return;
  ++st_.blocks_done;
  for (int i = 0; i < s_.wpb; ++i) st_.warps[static_cast<std::size_t>(sm) * s_.slots + bslot * s_.wpb + i].block = -1;
  bs.block = -1;
  account(sm, c, -s_.wpb);
  if (st_.next_block < s_.total_blocks) {
    place_block(sm, bslot, st_.next_block++, c);
  } else if (st_.blocks_done == s_.total_blocks) {
    st_.finished = true;
    // The kernel ends when the last stores have drained to memory.
    st_.finish_cycle = std::max({c + 1, ceil_cycle(st_.dram_free), ceil_cycle(st_.l2_free)});
    for (int s = 0; s < s_.gpu->sm_count; ++s) account(s, c, 0);
  }
}

void GpuModel::execute(int sm, int slot, Warp& w, std::int64_t c) {
  ++st_.instructions;
  ++w.issued;
  w.last_issue = c;
  Scheduler& q = st_.sched[w.sched];
  const std::size_t widx = static_cast<std::size_t>(sm) * s_.slots + slot;
  float* acc = &st_.acc[widx * 32];
  const auto& segs = s_.segs[w.wib];
  const int bslot = w.bslot;
  const int bx = w.bx, by = w.by;
  const int B = s_.bdim;

  auto use_fp = [&] { q.fp_free = std::max(q.fp_free, static_cast<double>(c)) + s_.fp_cost; };
  auto use_alu = [&] {
    double& free = s_.alu_on_fp_pipe ? q.fp_free : q.alu_free;
    free = std::max(free, static_cast<double>(c)) + s_.alu_cost;
  };
  auto store_c = [&] {
    global_store(sm, w, c);
    if (out_ == nullptr) {
      st_.c_done += std::popcount(w.mask);
      finish_warp(sm, w, c);
      return;
    }
    for (const Segment& g : segs) {
      const int row = by * B + g.ty;
      if (row >= s_.m) continue;
      for (int tx = g.tx0; tx < g.tx1; ++tx) {
        const int col = bx * B + tx;
        if (col >= s_.n) break;
        const std::size_t cell = static_cast<std::size_t>(row) * s_.n + col;
        out_->value[cell] = acc[g.lane0 + tx - g.tx0];
        out_->owner[cell] = sm;
        std::atomic_ref<std::int64_t>(out_->finish[cell]).store(c, std::memory_order_release);
        ++st_.c_done;
      }
    }
    finish_warp(sm, w, c);
  };

  if (s_.kernel == Kernel::naive) {
    const int un = std::min(kUnroll, s_.k - w.iter);
    switch (w.phase) {
      case 0: {
        const int u = w.sub / 2;
        const std::int64_t t = global_load(sm, w, w.sub % 2 == 0, c);
        w.dep[u] = w.sub % 2 == 0 ? t : std::max(w.dep[u], t);
        if (++w.sub == 2 * un) {
          w.phase = 1;
          w.sub = 0;
        }
        break;
      }
      case 1: {
        const std::size_t k = static_cast<std::size_t>(w.iter) + w.sub;
        const float* brow = s_.b + k * s_.n;
        for (const Segment& g : segs) {
          const int row = by * B + g.ty;
          if (row >= s_.m) continue;
          const int c0 = bx * B + g.tx0;
          const int cnt = std::min(g.tx1 - g.tx0, s_.n - c0);
          if (cnt <= 0) continue;
          fma_row(s_.a[static_cast<std::size_t>(row) * s_.k + k], brow + c0, acc + g.lane0, cnt);
        }
        ++w.k_done;
        w.acc_ready = c + s_.lat.fma;
        use_fp();
        if (++w.sub == un) {
          w.phase = 2;
          w.sub = 0;
        }
        break;
      }
      case 2:
        use_alu();
        if (++w.sub == 2) {  // loop overhead: address increment, compare-and-branch
          w.sub = 0;
          w.iter += un;
          w.phase = w.iter < s_.k ? 0 : 3;
        }
        break;
      default:
        store_c();
        return;
    }
    set_next(w, c);
    return;
  }

  // tiled
  float* as = st_.smem.data() + (static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot) * 2 * s_.threads;
  float* bs = as + s_.threads;
  const int t0 = w.iter * B;
  switch (w.phase) {
    case 0: w.dep_a = global_load(sm, w, true, c); w.phase = 1; break;
    case 1: w.dep_b = global_load(sm, w, false, c); w.phase = 2; break;
    case 2:
      for (const Segment& g : segs) {
        const int row = by * B + g.ty;
        for (int tx = g.tx0; tx < g.tx1; ++tx) {
          const int kcol = t0 + tx;
          as[g.ty * B + tx] = (row < s_.m && kcol < s_.k) ? s_.a[static_cast<std::size_t>(row) * s_.k + kcol] : 0.0f;
        }
      }
      shared_access(sm, s_.sts_waves[w.wib], c);
      w.phase = 3;
      break;
    case 3:
      for (const Segment& g : segs) {
        const int krow = t0 + g.ty;
        for (int tx = g.tx0; tx < g.tx1; ++tx) {
          const int col = bx * B + tx;
          bs[g.ty * B + tx] = (krow < s_.k && col < s_.n) ? s_.b[static_cast<std::size_t>(krow) * s_.n + col] : 0.0f;
        }
      }
      shared_access(sm, s_.sts_waves[w.wib], c);
      w.phase = 4;
      break;
    case 4:
    case 7: {
      w.phase = w.phase == 4 ? 5 : 8;
      w.kk = 0;
      w.sub = 0;
      w.op = Op::none;
      w.ready_at = kNever;
      st_.ready[w.hot] = kNever;
      w.reason = WaitReason::barrier;
      w.wait_since = c;
      BlockSlot& blk = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
      if (++blk.arrived < s_.wpb) return;
      blk.arrived = 0;
      for (int i = 0; i < s_.wpb; ++i) {
        const int s2 = bslot * s_.wpb + i;
        Warp& o = st_.warps[static_cast<std::size_t>(sm) * s_.slots + s2];
        const std::int64_t arrived_at = o.wait_since;
        set_next(o, c + s_.lat.barrier - 1);
        o.wait_since = arrived_at;
        o.reason = WaitReason::barrier;
        wake(sm, s2, o);
      }
      return;
    }
    case 5: {
      const int un = std::min(kUnroll, B - w.kk);
      if (w.sub == 0) w.dep_a = shared_access(sm, s_.lds_a_waves[w.wib], c);  // LDS.128 of as[ty][kk..kk+3]
      else w.dep[w.sub - 1] = shared_access(sm, s_.lds_b_waves[w.wib], c);
      if (++w.sub == 1 + un) {
        w.phase = 6;
        w.sub = 0;
      }
      break;
    }
    case 6: {
      const int un = std::min(kUnroll, B - w.kk);
      const int kk = w.kk + w.sub;
      for (const Segment& g : segs) fma_row(as[g.ty * B + kk], bs + kk * B + g.tx0, acc + g.lane0, g.tx1 - g.tx0);
      if (t0 + kk < s_.k) ++w.k_done;
      w.acc_ready = c + s_.lat.fma;
      use_fp();
      if (++w.sub == un) {
        w.sub = 0;
        w.kk = static_cast<std::uint16_t>(w.kk + un);
        w.phase = w.kk < B ? 5 : 7;
      }
      break;
    }
    case 8:
      use_alu();
      if (++w.sub == 2) {
        w.sub = 0;
        ++w.iter;
        w.phase = w.iter < s_.ntiles ? 0 : 9;
      }
      break;
    default:
      store_c();
      return;
  }
  set_next(w, c);
}

WarpState GpuModel::warp_state(int sm, int slot) const {
  const Warp& w = st_.warps[static_cast<std::size_t>(sm) * s_.slots + slot];
  if (w.block < 0) return w.ever && st_.next_block >= s_.total_blocks ? WarpState::done : WarpState::not_resident;
  if (w.done) return WarpState::done;
  if (w.last_issue == st_.now) return WarpState::issuing;
  if (w.ready_at <= st_.now) return WarpState::eligible;
  switch (w.reason) {
    case WaitReason::launch: return WarpState::not_resident;
    case WaitReason::global_memory:
    case WaitReason::shared_memory: return WarpState::waiting_memory;
    case WaitReason::barrier: return WarpState::waiting_barrier;
    default: return WarpState::waiting_dependency;
  }
}

void GpuModel::lane_coords(const Warp& w, int lane, int& bx, int& by, int& tx, int& ty) const {
  const int t = w.wib * 32 + lane;
  bx = w.block % s_.grid_x;
  by = w.block / s_.grid_x;
  tx = t % s_.bdim;
  ty = t / s_.bdim;
}

void GpuModel::hash_into(Hasher& h) const {
  h.add(st_.now);
  h.add(st_.next_event);
  h.add(st_.next_block);
  h.add(st_.blocks_done);
  h.add(st_.finished);
  h.add(st_.l2_free);
  h.add(st_.dram_free);
  h.add(st_.dram_bytes);
  h.add(st_.instructions);
  h.add(st_.c_done);
  for (const Warp& w : st_.warps) {
    h.add(w.ready_at); h.add(w.last_issue); h.add(w.wait_since); h.add(w.acc_ready);
    h.add(w.dep_a); h.add(w.dep_b);
    for (auto d : w.dep) h.add(d);
    h.add(w.issued); h.add(w.block); h.add(w.iter); h.add(w.k_done); h.add(w.mask);
    h.add(w.kk); h.add(w.phase); h.add(w.sub); h.add(w.op); h.add(w.reason); h.add(w.done);
  }
  for (float v : st_.acc) h.add(v);
  for (float v : st_.smem) h.add(v);
  for (const BlockSlot& b : st_.blocks) { h.add(b.block); h.add(b.warps_left); h.add(b.arrived); }
  for (auto r : st_.ready) h.add(r);
  for (auto p : st_.ready_pipe) h.add(p);
  for (const Scheduler& q : st_.sched) { h.add(q.next_check); h.add(q.greedy); h.add(q.fp_free); h.add(q.alu_free); }
  for (const SmState& x : st_.sms) { h.add(x.lsu_free); h.add(x.smem_free); h.add(x.resident_warps); h.add(x.warp_cycles); }
  for (const auto& l1 : st_.l1) l1.hash_into(h);
  st_.l2.hash_into(h);
}

std::size_t GpuModel::state_bytes() const {
  std::size_t b = sizeof(GpuState) + st_.warps.size() * sizeof(Warp) + st_.acc.size() * 4 + st_.smem.size() * 4 +
                  st_.blocks.size() * sizeof(BlockSlot) + st_.sched.size() * sizeof(Scheduler) + st_.ready.size() * 8 +
                  st_.sms.size() * sizeof(SmState) + st_.l2.bytes();
  for (const auto& l1 : st_.l1) b += l1.bytes();
  return b;
}

}  // namespace ws::sim::detail
