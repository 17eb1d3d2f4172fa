// The public Simulation: owns the inputs, runs the GPU and CPU models on one clock, keeps a
// bounded set of checkpoints from the first full run and answers state queries.
#include "warpscope/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cpu_model.hpp"
#include "gpu_model.hpp"
#include "warpscope/sim/matrices.hpp"

namespace ws::sim {

using detail::kNever;

const char* to_string(Kernel k) { return k == Kernel::naive ? "naive" : "tiled"; }

std::optional<Kernel> parse_kernel(std::string_view name) {
  if (name == "naive") return Kernel::naive;
  if (name == "tiled") return Kernel::tiled;
  return std::nullopt;
}

std::vector<std::string> kernel_names() { return {"naive", "tiled"}; }

const char* to_string(WarpState s) {
  switch (s) {
    case WarpState::not_resident: return "not resident";
    case WarpState::issuing: return "issuing";
    case WarpState::eligible: return "eligible";
    case WarpState::waiting_dependency: return "waiting on a result";
    case WarpState::waiting_memory: return "waiting on memory";
    case WarpState::waiting_barrier: return "waiting at barrier";
    case WarpState::done: return "done";
  }
  return "?";
}

const char* to_string(WaitReason r) {
  switch (r) {
    case WaitReason::none: return "none";
    case WaitReason::launch: return "block launch";
    case WaitReason::dependency: return "an FMA result";
    case WaitReason::pipe_busy: return "a busy pipe";
    case WaitReason::global_memory: return "global memory";
    case WaitReason::shared_memory: return "shared memory";
    case WaitReason::barrier: return "__syncthreads";
  }
  return "?";
}

std::string WarpInfo::describe() const {
  char buf[160];
  switch (state) {
    case WarpState::waiting_memory:
    case WarpState::waiting_dependency:
      std::snprintf(buf, sizeof buf, "waiting on %s: %lld of %lld cycles", to_string(reason),
                    static_cast<long long>(waited), static_cast<long long>(expected));
      return buf;
    case WarpState::waiting_barrier:
      std::snprintf(buf, sizeof buf, "waiting at __syncthreads for %lld cycles", static_cast<long long>(waited));
      return buf;
    default:
      return to_string(state);
  }
}

namespace {

// Simulated warp instructions per second on one core of the project machine (docs/PERFORMANCE.md),
// rounded down so estimates err long.
constexpr double kInstructionsPerSecond = 20e6;

int resolve_block(const GpuPreset& gpu, int block) {
  if (block != 0) return block;
  return cc_limits(gpu.cc_major, gpu.cc_minor).max_threads_per_block >= 1024 ? 32 : 16;
}

void check_config(const SimConfig& cfg) {
  const Shape& s = cfg.shape;
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.m > 65536 || s.n > 65536 || s.k > 65536)
    throw std::invalid_argument("matrix sizes must be between 1 and 65536");
  if (cfg.block < 1 || cfg.block > 32) throw std::invalid_argument("block side must be 1..32 (block x block threads)");
  if (cfg.regs_per_thread < 1 || cfg.regs_per_thread > 255) throw std::invalid_argument("registers per thread must be 1..255");
}

}  // namespace

Estimate estimate(const GpuPreset& gpu, const SimConfig& in) {
  SimConfig cfg = in;
  cfg.block = resolve_block(gpu, cfg.block);
  check_config(cfg);
  const double m = cfg.shape.m, n = cfg.shape.n, k = cfg.shape.k, b = cfg.block;
  const double warps = std::ceil(n / b) * std::ceil(m / b) * std::ceil(b * b / 32);
  double per_warp;
  if (cfg.kernel == Kernel::naive) {
    per_warp = 3 * k + 2 * std::ceil(k / detail::kUnroll) + 1;
  } else {
    per_warp = std::ceil(k / b) * (8 + std::ceil(b / detail::kUnroll) + 2 * b) + 1;
  }
  Estimate e;
  e.warp_instructions = warps * per_warp;
  e.seconds = e.warp_instructions / kInstructionsPerSecond;
  e.memory_bytes = 4 * (m * k + k * n) + 20 * m * n + 4.0 * gpu.sm_count * 64 * 32 * 8;
  char buf[256];
  if (e.warp_instructions > cfg.max_warp_instructions) {
    e.ok = false;
    std::snprintf(buf, sizeof buf,
                  "about %.3g warp instructions (~%.0f s on one core) exceed the limit of %.3g; try a smaller size",
                  e.warp_instructions, e.seconds, cfg.max_warp_instructions);
    e.reason = buf;
  } else if (e.memory_bytes > 8e9) {
    e.ok = false;
    std::snprintf(buf, sizeof buf, "needs about %.1f GB of memory (limit 8 GB)", e.memory_bytes / 1e9);
    e.reason = buf;
  }
  return e;
}

struct Simulation::Impl {
  GpuPreset gpu;
  CpuPreset cpu;
  SimConfig cfg;
  Inputs in;
  detail::GpuOutputs out;
  std::unique_ptr<detail::GpuModel> g;
  std::unique_ptr<detail::CpuModel> c;
  double ratio = 1;  // CPU cycles per GPU cycle

  struct Checkpoint {
    std::int64_t cycle;
    detail::GpuState gs;
    detail::CpuState cs;
  };
  std::vector<Checkpoint> cps;
  std::int64_t interval = 256;
  std::int64_t total = 0;
  Summary sum;

  std::int64_t now() const { return g->state().now; }

  void advance(std::int64_t target) {
    g->advance_to(target);
    c->advance_to(static_cast<double>(target) * ratio);
  }

  void restore(const Checkpoint& cp) {
    g->state() = cp.gs;
    c->state() = cp.cs;
  }

  void take(std::int64_t cycle) { cps.push_back({cycle, g->state(), c->state()}); }

  void first_run() {
    const std::size_t per = g->state_bytes() + c->state_bytes();
    const std::size_t max_count =
        std::clamp<std::size_t>(cfg.checkpoint_budget_bytes / std::max<std::size_t>(per, 1), 2, 512);
    advance(0);  // the CPU steps that start at time 0 belong to cycle 0, as after any seek(0)
    if (cfg.checkpoints) take(0);
    while (!g->state().finished) {
      const std::int64_t target = now() + interval;
      advance(target);
      if (!cfg.checkpoints || g->state().finished) continue;
      take(target);
      if (cps.size() > max_count) {
        // Keep every other checkpoint and space future ones twice as far: memory stays bounded
        // and checkpoints stay evenly spread over the run.
        std::vector<Checkpoint> kept;
        for (std::size_t i = 0; i < cps.size(); i += 2) kept.push_back(std::move(cps[i]));
        cps = std::move(kept);
        interval *= 2;
      }
    }
    total = g->state().finish_cycle;
    advance(total);
  }

  void make_summary() {
    const auto& s = g->setup();
    const auto& st = g->state();
    sum.cycles = total;
    sum.time_ms = static_cast<double>(total) / (gpu.clock_mhz * 1e3);
    sum.gflops = 2.0 * cfg.shape.m * cfg.shape.n * cfg.shape.k / (sum.time_ms * 1e6);
    double wc = 0, busy = 0;
    for (const auto& x : st.sms) {
      wc += x.warp_cycles;
      busy += x.busy_cycles;
    }
    const int hw_warps = cc_limits(gpu.cc_major, gpu.cc_minor).max_warps_per_sm();
    sum.achieved_occupancy = busy > 0 ? wc / busy / hw_warps : 0;
    sum.issue_slot_use = static_cast<double>(st.instructions) /
                         (static_cast<double>(total) * gpu.sm_count * s.nsched * s.issue_width);
    sum.warp_instructions = st.instructions;
    sum.dram_bytes = st.dram_bytes;
    sum.l1_hit_rate = st.l1_hits + st.l1_misses > 0 ? double(st.l1_hits) / double(st.l1_hits + st.l1_misses) : 0;
    sum.l2_hit_rate = st.l2_hits + st.l2_misses > 0 ? double(st.l2_hits) / double(st.l2_hits + st.l2_misses) : 0;
    sum.blocks = static_cast<int>(s.total_blocks);
    sum.waves = static_cast<double>(s.total_blocks) / (static_cast<double>(gpu.sm_count) * s.blocks_per_sm);
    sum.occupancy = s.occupancy;
  }
};

Simulation::Simulation(const GpuPreset& gpu, const CpuPreset& cpu, const SimConfig& cfg_in)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  d.gpu = gpu;
  d.cpu = cpu;
  d.cfg = cfg_in;
  d.cfg.block = resolve_block(gpu, d.cfg.block);
  if (d.cfg.cpu_cores <= 0) d.cfg.cpu_cores = std::min(cpu.cores, 8);
  d.cfg.cpu_cores = std::min(d.cfg.cpu_cores, std::max(1, cpu.cores));
  check_config(d.cfg);
  const Estimate e = estimate(gpu, d.cfg);
  if (!e.ok) throw SimRefused("refused: " + e.reason);

  d.in = make_inputs(d.cfg.shape.m, d.cfg.shape.n, d.cfg.shape.k, d.cfg.seed);
  // The models keep references to the presets: hand them our own copies, which live as long
  // as the simulation, never the caller's (often a temporary).
  d.g = std::make_unique<detail::GpuModel>(detail::make_setup(d.gpu, d.cfg, d.in.a.data(), d.in.b.data()), &d.out);
  d.c = std::make_unique<detail::CpuModel>(d.cpu, d.cfg.cpu_cores, d.cfg.cpu_simd, d.cfg.shape.m, d.cfg.shape.n,
                                           d.cfg.shape.k, d.in.a.data(), d.in.b.data());
  d.ratio = cpu.base_clock_ghz * 1e3 / gpu.clock_mhz;
  d.first_run();
  d.make_summary();
  if (d.cfg.checkpoints) {
    d.restore(d.cps.front());
  } else {
    d.g->reset();
    d.c->reset();
    d.advance(0);
  }
}

Simulation::~Simulation() = default;

const GpuPreset& Simulation::gpu() const { return impl_->gpu; }
const CpuPreset& Simulation::cpu() const { return impl_->cpu; }
const SimConfig& Simulation::config() const { return impl_->cfg; }

void Simulation::step() { impl_->advance(impl_->now() + 1); }

void Simulation::run_until(std::int64_t cycle) {
  if (cycle > impl_->now()) impl_->advance(cycle);
}

void Simulation::seek(std::int64_t cycle) {
  Impl& d = *impl_;
  cycle = std::max<std::int64_t>(0, cycle);
  if (cycle == d.now()) return;
  // The latest checkpoint at or before the target; use it when going back or when it skips ahead.
  const Impl::Checkpoint* best = nullptr;
  for (const auto& cp : d.cps)
    if (cp.cycle <= cycle) best = &cp;
  if (cycle < d.now()) {
    if (best != nullptr) {
      d.restore(*best);
    } else {
      d.g->reset();
      d.c->reset();
    }
  } else if (best != nullptr && best->cycle > d.now()) {
    d.restore(*best);
  }
  d.advance(cycle);
}

std::int64_t Simulation::cycle() const { return impl_->now(); }
std::int64_t Simulation::total_cycles() const { return impl_->total; }
bool Simulation::gpu_done() const { return impl_->now() >= impl_->total; }
double Simulation::cycle_to_ms(std::int64_t cycle) const { return static_cast<double>(cycle) / (impl_->gpu.clock_mhz * 1e3); }
std::size_t Simulation::checkpoint_count() const { return impl_->cps.size(); }
std::int64_t Simulation::checkpoint_interval() const { return impl_->interval; }

int Simulation::sm_count() const { return impl_->gpu.sm_count; }
int Simulation::warp_slots_per_sm() const { return impl_->g->setup().slots; }
int Simulation::block_dim() const { return impl_->g->setup().bdim; }
int Simulation::grid_x() const { return impl_->g->setup().grid_x; }
int Simulation::grid_y() const { return impl_->g->setup().grid_y; }

WarpState Simulation::warp_state(int sm, int slot) const { return impl_->g->warp_state(sm, slot); }

WarpInfo Simulation::warp_info(int sm, int slot) const {
  const auto& g = *impl_->g;
  const auto& s = g.setup();
  const auto& w = g.state().warps[static_cast<std::size_t>(sm) * s.slots + slot];
  WarpInfo info;
  info.state = g.warp_state(sm, slot);
  if (w.block < 0) return info;
  info.block_x = w.block % s.grid_x;
  info.block_y = w.block / s.grid_x;
  info.warp_in_block = w.wib;
  info.instructions = w.issued;
  info.k_done = w.k_done;
  info.k_total = s.k;
  const std::int64_t now = g.state().now;
  if (!w.done && w.ready_at > now) {
    info.reason = w.reason;
    info.waited = now - w.wait_since;
    info.expected = w.ready_at >= kNever ? 0 : w.ready_at - w.wait_since;
  }
  return info;
}

LaneInfo Simulation::lane_info(int sm, int slot, int lane) const {
  const auto& g = *impl_->g;
  const auto& s = g.setup();
  const std::size_t idx = static_cast<std::size_t>(sm) * s.slots + slot;
  const auto& w = g.state().warps[idx];
  LaneInfo li;
  if (w.block < 0 || lane < 0 || lane >= 32 || w.wib * 32 + lane >= s.threads) return li;
  g.lane_coords(w, lane, li.block_x, li.block_y, li.thread_x, li.thread_y);
  li.row = li.block_y * s.bdim + li.thread_y;
  li.col = li.block_x * s.bdim + li.thread_x;
  li.active = (w.mask >> lane) & 1u;
  li.k_total = s.k;
  li.k_done = li.active ? w.k_done : 0;
  li.partial_sum = g.state().acc[idx * 32 + lane];
  return li;
}

void Simulation::export_lane_states(std::span<std::uint8_t> out) const {
  const auto& g = *impl_->g;
  const auto& s = g.setup();
  const std::size_t need = static_cast<std::size_t>(impl_->gpu.sm_count) * s.slots * 32;
  if (out.size() < need) throw std::invalid_argument("export_lane_states: buffer too small");
  std::size_t o = 0;
  for (int sm = 0; sm < impl_->gpu.sm_count; ++sm)
    for (int slot = 0; slot < s.slots; ++slot) {
      const auto st = static_cast<std::uint8_t>(g.warp_state(sm, slot));
      const auto& w = g.state().warps[static_cast<std::size_t>(sm) * s.slots + slot];
      if (w.block < 0) {
        std::fill_n(out.begin() + o, 32, st);
      } else {
        for (int lane = 0; lane < 32; ++lane) out[o + lane] = (w.mask >> lane) & 1u ? st : kLaneMasked;
      }
      o += 32;
    }
}

void Simulation::export_warp_states(std::span<std::uint8_t> out) const {
  const auto& g = *impl_->g;
  const int slots = g.setup().slots;
  if (out.size() < static_cast<std::size_t>(impl_->gpu.sm_count) * slots)
    throw std::invalid_argument("export_warp_states: buffer too small");
  for (int sm = 0; sm < impl_->gpu.sm_count; ++sm)
    for (int slot = 0; slot < slots; ++slot)
      out[static_cast<std::size_t>(sm) * slots + slot] = static_cast<std::uint8_t>(g.warp_state(sm, slot));
}

std::span<const std::int64_t> Simulation::c_finish_cycle() const { return impl_->out.finish; }
std::span<const std::int32_t> Simulation::c_done_by_sm() const { return impl_->out.owner; }
std::span<const float> Simulation::c_values() const { return impl_->out.value; }

bool Simulation::c_done(int row, int col) const {
  return impl_->out.finish[static_cast<std::size_t>(row) * impl_->cfg.shape.n + col] <= impl_->now();
}

long long Simulation::c_done_count() const { return impl_->g->state().c_done; }

int Simulation::cpu_core_count() const { return impl_->c->cores(); }
double Simulation::cpu_clock_ratio() const { return impl_->ratio; }

CpuCoreInfo Simulation::cpu_core(int core) const {
  const auto& c = *impl_->c;
  const auto& x = c.state().cores.at(core);
  CpuCoreInfo info;
  info.k_total = impl_->cfg.shape.k;
  const std::int64_t units = c.units_of(core);
  info.cells_done = c.cells_done(core);
  info.cells_assigned = 0;
  // Cells assigned: every unit has width() cells except the strips cut by the right edge.
  {
    const int w = c.width();
    if (w == 1) {
      info.cells_assigned = units;
    } else {
      for (std::int64_t i = 0; i < units; ++i) {
        int r, col, cnt;
        c.unit_cells(c.unit_of_core(core, i), r, col, cnt);
        info.cells_assigned += cnt;
      }
    }
  }
  if (x.unit_n < units) {
    int cnt;
    c.unit_cells(c.unit_of_core(core, x.unit_n), info.row, info.col, cnt);
    info.k_done = x.k;
  }
  info.l1_hits = x.l1_hits;
  info.l2_hits = x.l2_hits;
  info.l3_hits = x.l3_hits;
  info.dram_accesses = x.dram;
  const double steps = static_cast<double>(units) * impl_->cfg.shape.k;
  info.progress = steps > 0 ? (static_cast<double>(x.unit_n) * impl_->cfg.shape.k + x.k) / steps : 1.0;
  return info;
}

double Simulation::cpu_progress() const {
  const auto& c = *impl_->c;
  double steps = 0;
  for (const auto& x : c.state().cores) steps += static_cast<double>(x.unit_n) * impl_->cfg.shape.k + x.k;
  return steps / (static_cast<double>(c.units_total()) * impl_->cfg.shape.k);
}

long long Simulation::cpu_cells_done() const {
  long long n = 0;
  for (int i = 0; i < impl_->c->cores(); ++i) n += impl_->c->cells_done(i);
  return n;
}

bool Simulation::cpu_cell_done(int row, int col) const {
  const auto& c = *impl_->c;
  const std::int64_t strips = (impl_->cfg.shape.n + c.width() - 1) / c.width();
  const std::int64_t unit = static_cast<std::int64_t>(row) * strips + col / c.width();
  const int core = static_cast<int>(unit % c.cores());
  return unit / c.cores() < c.state().cores[core].unit_n;
}

int Simulation::cpu_cell_owner(int row, int col) const {
  const auto& c = *impl_->c;
  const std::int64_t strips = (impl_->cfg.shape.n + c.width() - 1) / c.width();
  const std::int64_t unit = static_cast<std::int64_t>(row) * strips + col / c.width();
  return static_cast<int>(unit % c.cores());
}

Summary Simulation::summary() const { return impl_->sum; }

std::uint64_t Simulation::digest() const {
  detail::Hasher h;
  impl_->g->hash_into(h);
  impl_->c->hash_into(h);
  return h.h;
}

}  // namespace ws::sim
