#include "core/sim_session.hpp"

#include <algorithm>
#include <chrono>
#include <new>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace ws::app {

namespace {

// Where the build or its run could not get a thread (core/sim_refusal_text.cpp words it in Korean).
std::string no_thread_words(const std::system_error& e) {
  return "could not start a thread for the simulation: " + std::string(e.what());
}

}  // namespace

sim::Shape animated_shape(int m, int n, int k, int cap) {
  return {std::min(m, cap), std::min(n, cap), std::min(k, cap)};
}

SimSession::~SimSession() {
  if (pending_.valid()) pending_.wait();
}

void SimSession::configure(const SimControls& controls) {
  if (have_requested_ && controls == requested_) return;
  requested_ = controls;
  have_requested_ = true;
  // A running build cannot be interrupted and the UI must not wait for it: the newest request
  // starts when it ends, and its result is dropped.
  if (pending_.valid()) {
    next_build_ = controls;
    return;
  }
  if (!adopt_kept(controls)) start_build(controls);
}

std::size_t SimSession::kept_bytes() const {
  std::size_t bytes = finishing_.sim ? finishing_.sim->held_bytes() : 0;
  for (const auto& k : kept_) bytes += k.sim->held_bytes();
  return bytes;
}

void SimSession::keep(const SimControls& controls, std::unique_ptr<sim::Simulation> sim) {
  kept_.push_back({controls, std::move(sim)});
  trim_kept();
}

void SimSession::trim_kept() {
  if (kept_budget_bytes_ == 0) kept_budget_bytes_ = sim::default_checkpoint_budget_bytes();
  // The run finishing grows as it goes and counts against the same budget, so that what is held
  // behind the launch shown stays within one budget more. The newest (the run finishing, else the
  // last one kept) is the likeliest to be shown again: it stays even alone over budget, as its
  // own checkpoints are bounded by one budget.
  const std::size_t newest_stays = finishing_.sim ? 0 : 1;
  std::size_t bytes = kept_bytes();
  while (kept_.size() > kMaxKept || (kept_.size() > newest_stays && bytes > kept_budget_bytes_)) {
    bytes -= kept_.front().sim->held_bytes();  // finished: it holds what it held when summed
    kept_.erase(kept_.begin());
  }
}

void SimSession::set_kept_budget_bytes(std::size_t bytes) {
  kept_budget_bytes_ = bytes;
  trim_kept();
}

void SimSession::tend_finishing() {
  if (!finishing_.sim) return;
  if (!finishing_.sim->background_error().empty()) {
    finishing_ = {};
    return;
  }
  if (finishing_.sim->complete()) {
    keep(finishing_.controls, std::move(finishing_.sim));
    finishing_ = {};
    return;
  }
  finishing_.sim->set_background_paused(pending_.valid() || (sim_ && !sim_->complete()));
  trim_kept();
}

bool SimSession::adopt_kept(const SimControls& controls) {
  std::unique_ptr<sim::Simulation> run;
  if (finishing_.sim && finishing_.controls == controls) {
    run = std::move(finishing_.sim);
    finishing_ = {};
    run->set_background_paused(false);
  } else {
    const auto found = std::find_if(kept_.begin(), kept_.end(), [&](const Kept& k) { return k.controls == controls; });
    if (found == kept_.end()) return false;
    run = std::move(found->sim);
    kept_.erase(found);
  }
  // Shown from its start, as a new build would be; where the step or the user wants it comes next.
  run->seek(0);
  adopt(std::move(run), controls, true);
  return true;
}

void SimSession::adopt(std::unique_ptr<sim::Simulation> built, const SimControls& controls, bool reused) {
  if (sim_ && sim_->background_error().empty()) {
    if (sim_->complete()) keep(shown_, std::move(sim_));
    else finishing_ = {shown_, std::move(sim_)};  // an older one still finishing is dropped
  }
  sim_ = std::move(built);
  shown_ = controls;
  reused_ = reused;
  seek_pending_.reset();
  ++generation_;
  error_ = sim_ ? std::string() : pending_error_;
  cycle_debt_ = 0;
  anchor_scanned_to_ = 0;  // a new simulation: the last one's look proves nothing
  tend_finishing();
  apply_deferred();
}

void SimSession::apply_deferred() {
  if (sim_ && deferred_seek_) seek(*deferred_seek_);
  if (sim_ && deferred_play_) set_playing(*deferred_play_);
  deferred_seek_.reset();
  deferred_play_.reset();
}

int window_sim_threads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, cores - 1);
}

void SimSession::start_build(const SimControls& controls) {
  pending_controls_ = controls;
  ++builds_started_;
  error_.clear();
  pending_error_.clear();
  auto error_slot = &pending_error_;
  try {
    pending_ = launch_build(controls, error_slot);
  } catch (const std::system_error& e) {  // no thread to build it on: said where the chip would be
    pending_error_ = no_thread_words(e);
    adopt(nullptr, controls, false);
    return;
  }
  tend_finishing();  // the launch asked for has the cores first
}

std::future<std::unique_ptr<sim::Simulation>> SimSession::launch_build(const SimControls& controls,
                                                                       std::string* error_slot) {
  return std::async(std::launch::async, [controls, error_slot]() -> std::unique_ptr<sim::Simulation> {
    try {
      const auto& gpu = sim::find_gpu(controls.gpu_preset);
      const auto cpu = sim::find_cpu(controls.cpu_preset);
      sim::SimConfig cfg;
      cfg.kernel = controls.kernel;
      cfg.shape = controls.shape;
      cfg.block = controls.block;
      cfg.cpu_cores = controls.cpu_cores;
      cfg.progressive = true;  // playing starts at once; the rest is simulated behind it
      cfg.threads = window_sim_threads();
      return std::make_unique<sim::Simulation>(gpu, cpu, cfg);
    } catch (const std::bad_alloc&) {
      *error_slot = "ran out of memory building the launch; try a smaller size";
      return nullptr;
    } catch (const std::system_error& e) {  // its threads: the same limits as memory, most often
      *error_slot = no_thread_words(e);
      return nullptr;
    } catch (const std::exception& e) {
      *error_slot = e.what();
      return nullptr;
    }
  });
}

void SimSession::wait_adopted() {
  while (pending_.valid()) {
    pending_.wait();
    update(0.0);
  }
}

void SimSession::wait_ready() {
  while (pending_.valid()) {
    pending_.wait();
    update(0.0);
  }
  if (!sim_) return;
  try {
    sim_->wait_until_complete();
    resolve_anchor();
    finish_seek();
  } catch (const std::exception& e) {
    error_ = e.what();
  }
  update(0.0);
}

void SimSession::seek_when_ready(std::int64_t cycle) {
  anchor_.reset();
  if (sim_ && !pending_.valid()) {
    seek(cycle);
    return;
  }
  deferred_seek_ = cycle;
}

void SimSession::seek_when_ready(const SeekAnchor& anchor) {
  deferred_seek_.reset();
  seek_pending_.reset();
  anchor_ = anchor;
  anchor_scanned_to_ = 0;
  if (sim_ && !pending_.valid()) resolve_anchor();
}

void SimSession::resolve_anchor() {
  if (!sim_ || !anchor_ || pending_.valid()) return;  // the anchor is for the simulation being built
  sim::Simulation& s = *sim_;
  if (anchor_->kind == SeekAnchor::Kind::mid_run) {
    if (!s.complete()) return;  // half of an extrapolated total would move once the run ends
    const std::int64_t target = s.total_cycles() / 2;
    anchor_.reset();
    seek(target);
    return;
  }
  // first-issue: step forward from where the last look stopped until the warp (or SM, or chip) issues.
  const int sm_lo = anchor_->sm >= 0 ? anchor_->sm : 0;
  const int sm_hi = anchor_->sm >= 0 ? std::min(anchor_->sm + 1, s.sm_count()) : s.sm_count();
  const int slot_lo = anchor_->slot >= 0 ? anchor_->slot : 0;
  const int slot_hi = anchor_->slot >= 0 ? std::min(anchor_->slot + 1, s.warp_slots_per_sm()) : s.warp_slots_per_sm();
  const auto issuing = [&] {
    for (int sm = sm_lo; sm < sm_hi; ++sm)
      for (int slot = slot_lo; slot < slot_hi; ++slot)
        if (s.warp_state(sm, slot) == sim::WarpState::issuing) return true;
    return false;
  };
  if (s.cycle() != anchor_scanned_to_) s.seek(anchor_scanned_to_);
  while (!issuing()) {
    if (s.cycle() >= s.simulated_cycles()) {
      anchor_scanned_to_ = s.cycle();
      if (!s.complete()) return;  // not simulated yet: look again next frame
      // It never issues (an index past this launch's SMs or warps): the launch's start is shown.
      anchor_.reset();
      seek(0);
      return;
    }
    s.step();
  }
  const std::int64_t found = s.cycle();
  anchor_.reset();
  seek(found);
}

void SimSession::play_when_ready(bool play) {
  if (sim_ && !pending_.valid()) {
    set_playing(play);
    return;
  }
  deferred_play_ = play;
}

void SimSession::set_speed(double cycles_per_second) {
  cycles_per_second_ = std::clamp(cycles_per_second, 0.1, 1e8);
}

void SimSession::step(std::int64_t cycles) {
  if (!sim_) return;
  playing_ = false;
  seek(sim_->cycle() + cycles);
}

void SimSession::seek(std::int64_t cycle) {
  anchor_.reset();  // a seek asked for now replaces one waiting on the simulation
  if (!sim_) {
    deferred_seek_ = cycle;
    return;
  }
  // Before the run is complete its end is only an extrapolation: a seek past what exists waits
  // and is clamped to the real end once that is known.
  cycle = std::max<std::int64_t>(0, cycle);
  if (sim_->complete()) cycle = std::min(cycle, sim_->total_cycles());
  cycle_debt_ = 0;
  if (cycle > sim_->simulated_cycles()) {
    seek_pending_ = cycle;
    return;
  }
  seek_pending_.reset();
  if (cycle == sim_->cycle()) return;
  // The replay is bounded by time: what is left is finished over the next frames (the
  // timeline says "seeking"), so a jump on a big launch never freezes the window.
  replay_toward(cycle, kSeekBudgetMs);
}

bool SimSession::replay_toward(std::int64_t target, double budget_ms) {
  // Going back, or far forward, starts from the nearest checkpoint; a short step forward (or a
  // replay a previous frame left part-way) carries on from here.
  if (target < sim_->cycle() || target - sim_->cycle() > 256) sim_->jump_to_checkpoint(target);
  const auto start = std::chrono::steady_clock::now();
  while (sim_->cycle() < target) {
    sim_->run_until(std::min(target, sim_->cycle() + 256));
    if (sim_->cycle() >= target) break;
    if (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() > budget_ms) {
      seek_pending_ = target;
      return false;
    }
  }
  return true;
}

void SimSession::finish_seek() {
  while (sim_ && seek_pending_) {
    if (!sim_->complete() && *seek_pending_ > sim_->simulated_cycles()) sim_->wait_until_complete();
    const std::int64_t target = std::min(*seek_pending_, sim_->simulated_cycles());
    seek_pending_.reset();
    sim_->run_until(target);
  }
}

bool SimSession::update(double dt, double budget_ms) {
  bool changed = false;
  if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    auto built = pending_.get();
    if (next_build_) {
      const SimControls next = *next_build_;
      next_build_.reset();
      if (sim_ && next == shown_) {  // asked back for the one still shown: the build is dropped
        apply_deferred();
        return true;
      }
      if (adopt_kept(next)) return true;
      start_build(next);
      return changed;
    }
    adopt(std::move(built), pending_controls_, false);
    changed = true;
  }
  tend_finishing();
  if (sim_ && !sim_->background_error().empty()) {
    // Its run or a replay failed (out of memory): what it would show is not the simulation, so
    // the panel says why instead, as for a launch that was refused.
    error_ = sim_->background_error();
    sim_.reset();
    playing_ = false;
    seek_pending_.reset();
    anchor_.reset();
    ++generation_;
    return true;
  }
  if (sim_ && anchor_ && !pending_.valid()) {
    resolve_anchor();
    if (anchor_) return changed;  // playback starts from the anchored cycle, not before it
    changed = true;
  }
  // The total was an extrapolation until the run completed: a seek past the real end lands there.
  if (sim_ && seek_pending_ && (*seek_pending_ <= sim_->simulated_cycles() || sim_->complete())) {
    const std::int64_t target = std::min(*seek_pending_, sim_->simulated_cycles());
    seek_pending_.reset();
    replay_toward(target, kSeekBudgetMs);
    changed = true;
  }
  if (!sim_ || !playing_ || seek_pending_) return changed;
  cycle_debt_ += dt * cycles_per_second_;
  auto whole = static_cast<std::int64_t>(cycle_debt_);
  if (whole <= 0) return changed;
  cycle_debt_ -= static_cast<double>(whole);
  const auto start = std::chrono::steady_clock::now();
  // Playback cannot outrun the background run: at the end of what exists it waits (buffering).
  const auto target = std::min(sim_->cycle() + whole, sim_->simulated_cycles());
  if (target <= sim_->cycle()) {
    cycle_debt_ = 0;
    return changed;
  }
  // Step in slices so a high speed on a big chip cannot freeze the window: what does not fit
  // in the budget is dropped (the clock slows down) rather than owed.
  while (sim_->cycle() < target) {
    sim_->run_until(std::min(target, sim_->cycle() + 256));
    const double spent = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (spent > budget_ms) {
      cycle_debt_ = 0;
      break;
    }
  }
  if (at_end()) playing_ = false;
  return true;
}

}  // namespace ws::app
