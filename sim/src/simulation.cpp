// The public Simulation: owns the inputs, runs the GPU and CPU models on one clock, keeps a
// bounded set of checkpoints from the first full run and answers state queries.
#include "warpscope/sim/simulation.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

#include "cpu_model.hpp"
#include "gpu_model.hpp"
#include "kernels/kernel_program.hpp"
#include "warpscope/sim/matrices.hpp"

namespace ws::sim {

using detail::kNever;

const char* to_string(Kernel k) { return detail::kernel_ops(k).name; }

std::optional<Kernel> parse_kernel(std::string_view name) {
  if (const detail::KernelOps* o = detail::find_kernel_ops(name)) return o->kernel;
  return std::nullopt;
}

std::vector<std::string> kernel_names() {
  std::vector<std::string> names;
  for (int i = 0; i < detail::kernel_count(); ++i) names.emplace_back(detail::kernel_ops_at(i).name);
  return names;
}

bool uses_tensor_cores(Kernel k) { return detail::kernel_ops(k).tensor; }

double kernel_peak_gflops(const GpuPreset& gpu, Kernel k) {
  return uses_tensor_cores(k) ? gpu.tensor_peak_gflops(gpu.tensor.bf16) : gpu.peak_gflops();
}

const char* to_string(WarpState s) {
  switch (s) {
    case WarpState::not_resident: return "not resident";
    case WarpState::issuing: return "issuing";
    case WarpState::eligible: return "eligible";
    case WarpState::waiting_dependency: return "waiting on a result";
    case WarpState::waiting_memory: return "waiting on memory";
    case WarpState::waiting_barrier: return "waiting at barrier";
    case WarpState::done: return "done";
    case WarpState::on_tensor_core: return "on the tensor core";
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
    case WaitReason::tensor_core: return "the tensor core";
  }
  return "?";
}

std::string WarpInfo::describe() const {
  char buf[160];
  switch (state) {
    case WarpState::waiting_memory:
    case WarpState::waiting_dependency:
    case WarpState::on_tensor_core:
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

// Simulated warp instructions per second on one core of the project machine under load
// (docs/PERFORMANCE.md), rounded down so estimates err long: each kernel program's figure.
double instructions_per_second(Kernel k) { return detail::kernel_ops(k).instructions_per_second; }
// Checkpoints no closer than this many seconds of simulating (at the rate above, one core): a
// seek replays at most about this long, on every core, when the budget allows it.
constexpr double kCheckpointReplaySeconds = 0.02;

// The memory this process may use: the machine's, or less where a container's control group
// limits it (cgroup v2, then v1; "max" or a huge number means no limit), or where the process's
// own limits do (`ulimit -v` or `-d`: past them an allocation fails rather than swaps).
double usable_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double bytes = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
  const auto lower_to = [&bytes](double limit) {
    if (limit > 0 && (bytes == 0 || limit < bytes)) bytes = limit;
  };
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    if (std::FILE* f = std::fopen(path, "r")) {
      double limit = 0;
      if (std::fscanf(f, "%lf", &limit) == 1) lower_to(limit);
      std::fclose(f);
    }
  }
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit r{};
    if (getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY) lower_to(static_cast<double>(r.rlim_cur));
  }
  return bytes;
}

// Why a run stopped, for the window and the CLI: an allocation that failed says what to do.
std::string stopped_because(const std::exception& e, std::int64_t cycle) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr)
    return "ran out of memory at cycle " + std::to_string(cycle) + "; try a smaller size";
  return e.what();
}

// SimConfig::checkpoint_budget_bytes, 0 resolved (default_checkpoint_budget_bytes).
std::size_t checkpoint_budget(const SimConfig& cfg) {
  return cfg.checkpoint_budget_bytes > 0 ? cfg.checkpoint_budget_bytes : default_checkpoint_budget_bytes();
}

int resolve_block(const GpuPreset& gpu, int block, Kernel kernel) {
  if (const int need = detail::kernel_ops(kernel).block; need != 0) {
    if (block != 0 && block != need)
      throw std::invalid_argument(std::string(to_string(kernel)) + " needs a block side of " + std::to_string(need));
    return need;
  }
  if (block != 0) return block;
  return cc_limits(gpu.cc_major, gpu.cc_minor).max_threads_per_block >= 1024 ? 32 : 16;
}

// 0: the kernel's own count, capped where the architecture allows fewer (Fermi's 63: ptxas would
// spill rather than fail).
int resolve_regs(const GpuPreset& gpu, int regs, Kernel kernel) {
  if (regs != 0) return regs;
  return std::min(detail::kernel_ops(kernel).regs, cc_limits(gpu.cc_major, gpu.cc_minor).max_regs_per_thread);
}

void check_config(const SimConfig& cfg) {
  const Shape& s = cfg.shape;
  if (s.m < 1 || s.n < 1 || s.k < 1 || s.m > 65536 || s.n > 65536 || s.k > 65536)
    throw std::invalid_argument("matrix sizes must be between 1 and 65536");
  if (cfg.block < 1 || cfg.block > 32) throw std::invalid_argument("block side must be 1..32 (block x block threads)");
  if (cfg.regs_per_thread < 1 || cfg.regs_per_thread > 255) throw std::invalid_argument("registers per thread must be 1..255");
}

}  // namespace

// Only the largest launches fill it (2048³ on an H100: docs/PERFORMANCE.md), and what it buys is
// seeks that land at once instead of replaying for a second.
std::size_t default_checkpoint_budget_bytes() {
  constexpr double kMin = 256.0 * (1 << 20), kMax = 3.0 * (1 << 30);
  // The floor keeps seeks quick on small machines, but never takes more than a quarter of what
  // the process may use: the launch's own matrices and models need the rest.
  const double usable = usable_memory_bytes();
  return static_cast<std::size_t>(std::clamp(usable / 8, std::min(kMin, usable / 4), kMax));
}

Estimate estimate(const GpuPreset& gpu, const SimConfig& in) {
  SimConfig cfg = in;
  cfg.block = resolve_block(gpu, cfg.block, cfg.kernel);
  cfg.regs_per_thread = resolve_regs(gpu, cfg.regs_per_thread, cfg.kernel);
  check_config(cfg);
  if (detail::kernel_ops(cfg.kernel).tensor) {
    if (std::string why = detail::tensor_refusal(gpu); !why.empty()) {
      Estimate e;
      e.ok = false;
      e.reason = std::move(why);
      return e;
    }
  }
  const double m = cfg.shape.m, n = cfg.shape.n, k = cfg.shape.k, b = cfg.block;
  const double tile = b * detail::kernel_ops(cfg.kernel).cell_side;
  const double warps = std::ceil(n / tile) * std::ceil(m / tile) * std::ceil(b * b / 32);
  const double per_warp = detail::kernel_ops(cfg.kernel).warp_instructions(cfg);
  Estimate e;
  e.warp_instructions = warps * per_warp;
  e.seconds = e.warp_instructions / instructions_per_second(cfg.kernel);
  // With checkpoints: their budget, and where the program rebuilds sums, a copy of B laid out
  // for it (rebuild_prepare).
  const bool rebuilds = detail::kernel_ops(cfg.kernel).rebuild_acc != nullptr;
  e.memory_bytes = 4 * (m * k + k * n) + 20 * m * n + 4.0 * gpu.sm_count * 64 * 32 * 8 +
                   (cfg.checkpoints ? static_cast<double>(checkpoint_budget(cfg)) + (rebuilds ? 4 * k * (n + tile) : 0.0)
                                    : 0.0);
  char buf[256];
  if (e.seconds > cfg.max_seconds) {
    e.ok = false;
    std::snprintf(buf, sizeof buf,
                  "about %.3g warp instructions, ~%.0f min of simulating on one core, more than the %.0f-minute limit; "
                  "try a smaller size",
                  e.warp_instructions, e.seconds / 60, cfg.max_seconds / 60);
    e.reason = buf;
  } else if (e.memory_bytes > 8e9) {
    e.ok = false;
    std::snprintf(buf, sizeof buf, "needs about %.1f GB of memory (limit 8 GB)", e.memory_bytes / 1e9);
    e.reason = buf;
  }
  return e;
}

// Two copies of the models: the producer runs from cycle 0 to the end once, writing C's finish
// cycles and owners and leaving a checkpoint every so many warp instructions; the display model
// is what every query reads, moved by restoring a checkpoint and replaying. Progressive: the
// producer runs on its own thread and the display may go as far as the producer has published.
struct Simulation::Impl {
  GpuPreset gpu;
  CpuPreset cpu;
  SimConfig cfg;
  Inputs in;
  detail::GpuOutputs out;
  std::unique_ptr<detail::GpuModel> g;  // display
  std::unique_ptr<detail::CpuModel> c;
  double ratio = 1;  // CPU cycles per GPU cycle
  double expected_instructions = 1;

  struct Checkpoint {
    std::int64_t cycle = 0;
    detail::PackedGpuState gs;
    detail::CpuState cs;
    std::size_t bytes = 0;
  };
  mutable std::mutex mu;  // guards cps, cps_bytes, total, sum, error
  mutable std::condition_variable finished_cv;
  std::vector<Checkpoint> cps;
  std::size_t cps_bytes = 0;
  std::uint64_t interval_instructions = 0;  // the fewest; produce() spreads them to fit the budget
  std::int64_t total = 0;
  Summary sum;
  std::string error;

  // Published by the producer with release: every cycle up to `simulated` has been processed
  // and C's cells finished by then are written.
  std::atomic<std::int64_t> simulated{0};
  std::atomic<std::uint64_t> simulated_instructions{0};
  std::atomic<bool> complete{false};
  std::atomic<bool> stop{false};
  mutable std::atomic<int> waiters{0};  // threads in wait_complete(): the run is not held for them
  std::atomic<bool> paused{false};      // set_background_paused()
  std::thread producer;

  std::int64_t now() const { return g->state().now; }

  // A replay of the display models that throws (out of memory) leaves them part-stepped: the
  // simulation then says why, as a failed background run does, and replays nothing more. Only
  // the display's caller replays, so the flag is its alone.
  bool display_failed = false;
  template <class Fn>
  void on_display(Fn&& replay) {
    if (display_failed) return;
    try {
      replay();
    } catch (const std::exception& e) {
      display_failed = true;
      std::string why = stopped_because(e, now());
      std::lock_guard lock(mu);
      if (error.empty()) error = std::move(why);
    }
  }

  void advance(std::int64_t target) {
    g->advance_to(target);
    c->advance_to(static_cast<double>(target) * ratio);
  }

  void restore(const Checkpoint& cp) {
    g->unpack(cp.gs);
    c->state() = cp.cs;
  }

  // The furthest cycle the display may show now. Once the GPU has finished, the CPU cores may
  // be followed past its end, as far as anyone asks.
  std::int64_t limit() const {
    return complete.load(std::memory_order_acquire) ? kNever : simulated.load(std::memory_order_acquire);
  }

  // Copies the latest checkpoint at or before `cycle` into the display models; false if none.
  bool restore_before(std::int64_t cycle, std::int64_t only_if_after) {
    std::lock_guard lock(mu);
    const Checkpoint* best = nullptr;
    for (const auto& cp : cps)
      if (cp.cycle <= cycle) best = &cp;
    if (best == nullptr || best->cycle <= only_if_after) return false;
    restore(*best);
    return true;
  }

  void produce(detail::GpuModel& pg, detail::CpuModel& pc) {
    // The CPU cores stop where the GPU finished, even inside a slice, so the producer's cores
    // stand at the finish exactly as the display's do after seek(total).
    // The producer's sums are made whole only where its state is copied or summed up.
    auto step_to = [&](std::int64_t target) {
      pg.advance_to(target, false);
      const std::int64_t cpu_to = pg.state().finished ? std::min(target, pg.state().finish_cycle) : target;
      pc.advance_to(static_cast<double>(cpu_to) * ratio);
    };
    const std::size_t budget = checkpoint_budget(cfg);
    // Packed outside the lock, so a seek restoring another checkpoint meanwhile is not held up.
    auto keep_checkpoint = [&](std::int64_t cycle) {
      pg.make_whole();
      Checkpoint cp;
      cp.cycle = cycle;
      pg.pack(cp.gs);
      cp.cs = pc.state();
      cp.bytes = cp.gs.bytes() + pc.state_bytes();
      std::lock_guard lock(mu);
      cps_bytes += cp.bytes;
      cps.push_back(std::move(cp));
      if (cps_bytes > budget && cps.size() > 2) {
        // Keep every other checkpoint and space future ones twice as far: memory stays bounded
        // and checkpoints stay evenly spread over the run.
        std::vector<Checkpoint> kept;
        cps_bytes = 0;
        for (std::size_t i = 0; i < cps.size(); i += 2) {
          cps_bytes += cps[i].bytes;
          kept.push_back(std::move(cps[i]));
        }
        cps = std::move(kept);
        interval_instructions *= 2;
      }
    };
    step_to(0);  // the CPU steps that start at time 0 belong to cycle 0, as after any seek(0)
    if (cfg.checkpoints) {
      keep_checkpoint(0);
      // The run's warp instructions are known up front, so the checkpoints are spread over all of
      // it as densely as the budget holds (with room for chunks of shared memory kept raw), not
      // spaced twice as far each time it fills. The one at cycle 0 is among those that fit.
      const double fit =
          0.9 * static_cast<double>(budget) / static_cast<double>(std::max<std::size_t>(cps.front().bytes, 1));
      interval_instructions = std::max<std::uint64_t>(
          interval_instructions, static_cast<std::uint64_t>(std::ceil(expected_instructions / std::max(fit - 1, 1.0))));
    }
    std::uint64_t next_checkpoint = interval_instructions;
    // Slices short enough that the display's limit moves smoothly and a stop lands at once.
    constexpr std::int64_t kSlice = 256;
    // Blocks are all placed at cycle 0, so the first sample is usually the busiest.
    std::int64_t peak_resident = 0;
    for (const auto& x : pg.state().sms) peak_resident += x.resident_warps;
    while (!pg.state().finished) {
      if (stop.load(std::memory_order_relaxed)) return;
      if (cfg.progressive && (background_runs_held() || (paused.load(std::memory_order_relaxed) &&
                                                         waiters.load(std::memory_order_relaxed) == 0))) {
        // Polled: a held run costs a wake-up every few milliseconds, and stop still lands at once.
        std::this_thread::sleep_for(std::chrono::milliseconds(4));
        continue;
      }
      const std::int64_t target = pg.state().now + kSlice;
      step_to(target);
      if (pg.state().finished) break;
      std::int64_t resident = 0;
      for (const auto& x : pg.state().sms) resident += x.resident_warps;
      peak_resident = std::max(peak_resident, resident);
      simulated_instructions.store(pg.state().instructions, std::memory_order_relaxed);
      if (cfg.checkpoints && pg.state().instructions >= next_checkpoint) {
        keep_checkpoint(target);
        next_checkpoint = pg.state().instructions + interval_instructions;
      }
      simulated.store(target, std::memory_order_release);
    }
    const std::int64_t finish = pg.state().finish_cycle;
    step_to(finish);
    pg.make_whole();
    Summary s = make_summary(pg, finish);
    s.cpu_progress_at_finish = cpu_progress_of(pc);
    s.peak_occupancy = static_cast<double>(peak_resident) /
                       (static_cast<double>(gpu.sm_count) * cc_limits(gpu.cc_major, gpu.cc_minor).max_warps_per_sm());
    {
      std::lock_guard lock(mu);
      total = finish;
      sum = s;
    }
    simulated_instructions.store(pg.state().instructions, std::memory_order_relaxed);
    // The display may run past the last slice to the finish; the finish is the end.
    simulated.store(finish, std::memory_order_release);
    complete.store(true, std::memory_order_release);
    finished_cv.notify_all();
  }

  std::unique_ptr<detail::GpuModel> pg;  // producer, freed when it is done
  std::unique_ptr<detail::CpuModel> pc;

  void run_producer() {
    try {
      produce(*pg, *pc);
    } catch (const std::exception& e) {
      std::lock_guard lock(mu);
      error = stopped_because(e, pg->state().now);
    }
    if (!complete.load()) {
      // Failed or stopped: nothing more will come; wake anyone waiting for the end.
      std::lock_guard lock(mu);
      finished_cv.notify_all();
    }
    pg.reset();
    pc.reset();
  }

  double cpu_progress_of(const detail::CpuModel& m) const {
    double steps = 0;
    for (const auto& x : m.state().cores) steps += static_cast<double>(x.unit_n) * cfg.shape.k + x.k;
    return steps / (static_cast<double>(m.units_total()) * cfg.shape.k);
  }

  Summary make_summary(const detail::GpuModel& pg, std::int64_t finish) const {
    Summary s;
    const auto& setup = pg.setup();
    const auto& st = pg.state();
    s.cycles = finish;
    s.time_ms = static_cast<double>(finish) / (gpu.clock_mhz * 1e3);
    s.gflops = 2.0 * cfg.shape.m * cfg.shape.n * cfg.shape.k / (s.time_ms * 1e6);
    double wc = 0, busy = 0;
    for (const auto& x : st.sms) {
      wc += x.warp_cycles;
      busy += x.busy_cycles;
    }
    const int hw_warps = cc_limits(gpu.cc_major, gpu.cc_minor).max_warps_per_sm();
    s.achieved_occupancy = busy > 0 ? wc / busy / hw_warps : 0;
    s.issue_slot_use = static_cast<double>(st.instructions) /
                       (static_cast<double>(finish) * gpu.sm_count * setup.nsched * setup.issue_width);
    s.warp_instructions = st.instructions;
    using detail::Op;
    const auto n = [&](Op op) { return st.by_op[static_cast<int>(op)]; };
    s.global_loads = n(Op::ldg_a) + n(Op::ldg_b);
    s.shared_stores = n(Op::sts_a) + n(Op::sts_b);
    s.shared_loads = n(Op::lds_a) + n(Op::lds_b);
    s.fmas = n(Op::ffma);
    s.mmas = n(Op::mma);
    s.dram_bytes = st.dram_bytes;
    s.l1_hit_rate = st.l1_hits + st.l1_misses > 0 ? double(st.l1_hits) / double(st.l1_hits + st.l1_misses) : 0;
    s.l2_hit_rate = st.l2_hits + st.l2_misses > 0 ? double(st.l2_hits) / double(st.l2_hits + st.l2_misses) : 0;
    s.blocks = static_cast<int>(setup.total_blocks);
    s.waves = static_cast<double>(setup.total_blocks) / (static_cast<double>(gpu.sm_count) * setup.blocks_per_sm);
    s.occupancy = setup.occupancy;
    return s;
  }

  void wait_complete() const {
    // A paused run someone waits for is not held: nothing may be left to unpause it. A
    // BackgroundRunsHold still holds it, as it always ends with the CPU job that took it.
    waiters.fetch_add(1, std::memory_order_relaxed);
    struct Leave {
      std::atomic<int>& n;
      ~Leave() { n.fetch_sub(1, std::memory_order_relaxed); }
    } leave{waiters};
    std::unique_lock lock(mu);
    finished_cv.wait(lock, [&] { return complete.load(std::memory_order_acquire) || !error.empty() || stop.load(); });
    if (!complete.load(std::memory_order_acquire))
      throw std::runtime_error("the simulation did not finish: " + (error.empty() ? std::string("stopped") : error));
  }
};

Simulation::Simulation(const GpuPreset& gpu, const CpuPreset& cpu, const SimConfig& cfg_in)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  d.gpu = gpu;
  d.cpu = cpu;
  d.cfg = cfg_in;
  d.cfg.block = resolve_block(gpu, d.cfg.block, d.cfg.kernel);
  d.cfg.regs_per_thread = resolve_regs(gpu, d.cfg.regs_per_thread, d.cfg.kernel);
  if (d.cfg.cpu_cores <= 0) d.cfg.cpu_cores = std::min(cpu.cores, 8);
  d.cfg.cpu_cores = std::min(d.cfg.cpu_cores, std::max(1, cpu.cores));
  check_config(d.cfg);
  const Estimate e = estimate(gpu, d.cfg);
  if (!e.ok) throw SimRefused("refused: " + e.reason);
  d.expected_instructions = std::max(1.0, e.warp_instructions);
  // Small runs still get a few dozen checkpoints: their states are small.
  d.interval_instructions = static_cast<std::uint64_t>(
      std::max(1.0, std::min(instructions_per_second(d.cfg.kernel) * kCheckpointReplaySeconds, e.warp_instructions / 32)));

  d.in = make_inputs(d.cfg.shape.m, d.cfg.shape.n, d.cfg.shape.k, d.cfg.seed);
  // The models keep references to the presets: hand them our own copies, which live as long
  // as the simulation, never the caller's (often a temporary). The display never writes C:
  // the producer does, once.
  // Both are built here, before the producer's thread starts, so C is sized and cleared
  // before anyone can read it.
  auto setup = detail::make_setup(d.gpu, d.cfg, d.in.a.data(), d.in.b.data());  // throws SimRefused
  auto make_cpu = [&d] {
    return std::make_unique<detail::CpuModel>(d.cpu, d.cfg.cpu_cores, d.cfg.cpu_simd, d.cfg.shape.m, d.cfg.shape.n,
                                              d.cfg.shape.k, d.in.a.data(), d.in.b.data());
  };
  d.pg = std::make_unique<detail::GpuModel>(setup, &d.out);
  d.pc = make_cpu();
  d.g = std::make_unique<detail::GpuModel>(std::move(setup), nullptr);
  d.c = make_cpu();
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  d.pg->set_threads(d.cfg.threads > 0 ? d.cfg.threads : cores);
  d.g->set_threads(d.cfg.seek_threads > 0 ? d.cfg.seek_threads : cores);
  d.ratio = cpu.base_clock_ghz * 1e3 / gpu.clock_mhz;
  d.advance(0);
  if (d.cfg.progressive) {
    d.producer = std::thread([&d] { d.run_producer(); });
  } else {
    d.run_producer();
    if (!d.error.empty()) throw std::runtime_error(d.error);
  }
}

namespace {
std::atomic<int> background_holds{0};
}  // namespace

BackgroundRunsHold::BackgroundRunsHold() { background_holds.fetch_add(1, std::memory_order_relaxed); }
BackgroundRunsHold::~BackgroundRunsHold() { background_holds.fetch_sub(1, std::memory_order_relaxed); }
bool background_runs_held() { return background_holds.load(std::memory_order_relaxed) > 0; }

Simulation::~Simulation() {
  impl_->stop.store(true);
  if (impl_->producer.joinable()) impl_->producer.join();
}

const GpuPreset& Simulation::gpu() const { return impl_->gpu; }
const CpuPreset& Simulation::cpu() const { return impl_->cpu; }
const SimConfig& Simulation::config() const { return impl_->cfg; }

void Simulation::step() { run_until(impl_->now() + 1); }

void Simulation::run_until(std::int64_t cycle) {
  cycle = std::min(cycle, impl_->limit());
  if (cycle > impl_->now()) impl_->on_display([&] { impl_->advance(cycle); });
}

void Simulation::seek(std::int64_t cycle) {
  jump_to_checkpoint(cycle);
  run_until(cycle);
}

void Simulation::jump_to_checkpoint(std::int64_t cycle) {
  Impl& d = *impl_;
  cycle = std::clamp<std::int64_t>(cycle, 0, d.limit());
  if (cycle == d.now()) return;
  // The latest checkpoint at or before the target: needed to go back, and a shortcut forward
  // when it lies past the current cycle.
  d.on_display([&] {
    if (cycle < d.now()) {
      if (!d.restore_before(cycle, -1)) {
        d.g->reset();
        d.c->reset();
        d.advance(0);
      }
    } else {
      d.restore_before(cycle, d.now());
    }
  });
}

std::int64_t Simulation::cycle() const { return impl_->now(); }

std::int64_t Simulation::total_cycles() const {
  const Impl& d = *impl_;
  if (d.complete.load(std::memory_order_acquire)) return d.total;
  // Not known until the producer finishes: extrapolated from the share of the warp
  // instructions (known up front) it has simulated, never less than what exists.
  const std::int64_t have = simulated_cycles();
  const double f = simulated_fraction();
  const double guess = f > 0 ? static_cast<double>(have) / f : 0.0;
  return std::max<std::int64_t>(have + 1, static_cast<std::int64_t>(guess));
}

bool Simulation::complete() const { return impl_->complete.load(std::memory_order_acquire); }
std::int64_t Simulation::simulated_cycles() const {
  return impl_->complete.load(std::memory_order_acquire) ? impl_->total : impl_->simulated.load(std::memory_order_acquire);
}

double Simulation::simulated_fraction() const {
  const Impl& d = *impl_;
  if (d.complete.load(std::memory_order_acquire)) return 1.0;
  const double f = static_cast<double>(d.simulated_instructions.load(std::memory_order_relaxed)) / d.expected_instructions;
  return std::clamp(f, 0.0, 0.999);
}

void Simulation::wait_until_complete() const { impl_->wait_complete(); }
void Simulation::set_background_paused(bool paused) { impl_->paused.store(paused, std::memory_order_relaxed); }
bool Simulation::background_paused() const { return impl_->paused.load(std::memory_order_relaxed); }

std::string Simulation::background_error() const {
  std::lock_guard lock(impl_->mu);
  return impl_->error;
}

bool Simulation::gpu_done() const { return complete() && impl_->now() >= impl_->total; }
double Simulation::cycle_to_ms(std::int64_t cycle) const { return static_cast<double>(cycle) / (impl_->gpu.clock_mhz * 1e3); }

std::size_t Simulation::checkpoint_count() const {
  std::lock_guard lock(impl_->mu);
  return impl_->cps.size();
}

std::size_t Simulation::checkpoint_bytes() const {
  std::lock_guard lock(impl_->mu);
  return impl_->cps_bytes;
}

std::size_t Simulation::held_bytes() const {
  const auto bytes = [](const auto& v) { return v.size() * sizeof(v[0]); };
  const Impl& x = *impl_;
  return bytes(x.in.a) + bytes(x.in.b) + bytes(x.out.value) + bytes(x.out.finish) + bytes(x.out.owner) +
         checkpoint_bytes();
}

int Simulation::sm_count() const { return impl_->gpu.sm_count; }
int Simulation::warp_slots_per_sm() const { return impl_->g->setup().slots; }
int Simulation::block_dim() const { return impl_->g->setup().bdim; }
int Simulation::thread_cell_side() const { return impl_->g->setup().cell_side; }
int Simulation::grid_x() const { return impl_->g->setup().grid_x; }
int Simulation::grid_y() const { return impl_->g->setup().grid_y; }
int Simulation::blocks_per_sm() const { return impl_->g->setup().blocks_per_sm; }

int Simulation::waves() const {
  const auto& s = impl_->g->setup();
  const std::int64_t per_wave = static_cast<std::int64_t>(impl_->gpu.sm_count) * s.blocks_per_sm;
  return static_cast<int>((s.total_blocks + per_wave - 1) / per_wave);
}

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
  li.active = (w.mask >> lane) & 1u;
  li.k_total = s.k;
  li.k_done = li.active ? w.k_done : 0;
  // The kernel program says which cells the lane's accumulators become (regblock: a TM x TN
  // square; tensor: its places in the MMA tiles).
  const int per_lane = s.cell_side * s.cell_side;
  const float* acc = &g.state().acc[idx * s.acc_per_warp];
  std::vector<std::pair<std::size_t, int>> cells;
  detail::kernel_ops(s.kernel).warp_cells(s, w, cells);
  std::sort(cells.begin(), cells.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
  for (const auto& [cell, a] : cells)
    if (a / per_lane == lane)
      li.accumulators.push_back({static_cast<int>(cell / s.n), static_cast<int>(cell % s.n), acc[a]});
  if (!li.accumulators.empty()) {
    li.row = li.accumulators.front().row;
    li.col = li.accumulators.front().col;
    li.partial_sum = li.accumulators.front().value;
  } else {
    li.partial_sum = acc[lane * per_lane];
  }
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

std::span<const std::int64_t> Simulation::c_finish_cycle() const {
  impl_->wait_complete();
  return impl_->out.finish;
}
std::span<const std::int32_t> Simulation::c_done_by_sm() const {
  impl_->wait_complete();
  return impl_->out.owner;
}
std::span<const float> Simulation::c_values() const {
  impl_->wait_complete();
  return impl_->out.value;
}

bool Simulation::c_done(int row, int col) const {
  return detail::load_finish(impl_->out, static_cast<std::size_t>(row) * impl_->cfg.shape.n + col) <= impl_->now();
}

void Simulation::export_c_owners(std::span<std::int32_t> out) const {
  const auto& o = impl_->out;
  if (out.size() < o.finish.size()) throw std::invalid_argument("export_c_owners: buffer too small");
  const std::int64_t now = impl_->now();
  for (std::size_t i = 0; i < o.finish.size(); ++i) out[i] = detail::load_finish(o, i) <= now ? o.owner[i] : -1;
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

void Simulation::export_cpu_owners(std::span<std::int32_t> out) const {
  const auto& c = *impl_->c;
  const std::size_t cells = static_cast<std::size_t>(impl_->cfg.shape.m) * impl_->cfg.shape.n;
  if (out.size() < cells) throw std::invalid_argument("export_cpu_owners: buffer too small");
  std::fill_n(out.begin(), cells, -1);
  // Each core's finished units are the first unit_n of its own: only those are visited.
  for (int core = 0; core < c.cores(); ++core)
    for (std::int64_t i = 0; i < c.state().cores[core].unit_n; ++i) {
      int row, col, count;
      c.unit_cells(c.unit_of_core(core, i), row, col, count);
      std::fill_n(out.begin() + static_cast<std::size_t>(row) * impl_->cfg.shape.n + col, count, core);
    }
}

int Simulation::cpu_cell_owner(int row, int col) const {
  const auto& c = *impl_->c;
  const std::int64_t strips = (impl_->cfg.shape.n + c.width() - 1) / c.width();
  const std::int64_t unit = static_cast<std::int64_t>(row) * strips + col / c.width();
  return static_cast<int>(unit % c.cores());
}

Summary Simulation::summary() const {
  impl_->wait_complete();
  std::lock_guard lock(impl_->mu);
  return impl_->sum;
}

std::uint64_t Simulation::digest() const {
  detail::Hasher h;
  impl_->g->hash_into(h);
  impl_->c->hash_into(h);
  return h.h;
}

}  // namespace ws::sim
