// The simulated side of the window without the drawing: which launch is animated, the
// Simulation built for it (off the UI thread: its first full run can take a moment), and the
// playback clock. The GPU grid, CPU view, matrix view and timeline all read from here.
#pragma once

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warpscope/sim/simulation.hpp"

namespace ws::app {

struct SimControls {
  std::string gpu_preset = "h100";
  std::string cpu_preset = "this-machine";
  sim::Kernel kernel = sim::Kernel::tiled;
  int block = 16;              // block side: block × block threads
  sim::Shape shape{256, 256, 256};
  int cpu_cores = 0;           // 0: the model's default (min(preset cores, 8))

  bool operator==(const SimControls& o) const {
    return gpu_preset == o.gpu_preset && cpu_preset == o.cpu_preset && kernel == o.kernel && block == o.block &&
           shape.m == o.shape.m && shape.n == o.shape.n && shape.k == o.shape.k && cpu_cores == o.cpu_cores;
  }
};

// The animated size is the real run's size, capped where simulating it would take minutes.
inline constexpr int kMaxAnimatedSide = 2048;
sim::Shape animated_shape(int m, int n, int k, int cap = kMaxAnimatedSide);

// Threads for the window's simulations running behind it: every core but one, which stays for
// drawing the frames (so on a two-core machine they step on one thread). Seeks, which the frame
// waits for anyway, use every core.
int window_sim_threads();

// A moment to seek to that only the simulation can tell (a lesson's "first-issue" and "mid-run").
struct SeekAnchor {
  enum class Kind { first_issue, mid_run };
  Kind kind = Kind::first_issue;
  // first_issue: the first cycle in which this warp (sm and slot), any warp of this SM (slot -1)
  // or any warp of the chip (sm -1) issues.
  int sm = -1, slot = -1;
};

class SimSession {
 public:
  SimSession() = default;
  ~SimSession();

  // Starts building a simulation for `controls` in the background unless it is the current one.
  void configure(const SimControls& controls);
  const SimControls& controls() const { return requested_; }

  // Call once a frame: adopts a finished build, advances playback by `dt` seconds of wall time,
  // spending at most `budget_ms` stepping. Returns true when the shown state changed.
  bool update(double dt, double budget_ms = 8.0);
  // Blocks until the pending build is adopted and fully simulated (headless screenshots only).
  void wait_ready();
  // Blocks until the pending build is adopted: cycle 0 exists, the rest may still be simulating.
  void wait_adopted();
  // Lands a seek that is still replaying (or waiting on the background run) before returning.
  void finish_seek();

  bool building() const { return pending_.valid(); }
  // The launch could not be simulated (refused with its estimate, or no block fits).
  const std::string& error() const { return error_; }
  sim::Simulation* simulation() { return sim_.get(); }
  const sim::Simulation* simulation() const { return sim_.get(); }

  // Playback.
  bool playing() const { return playing_; }
  void set_playing(bool p) { playing_ = p && sim_ && !at_end(); }
  void toggle_play() { set_playing(!playing_); }
  double speed() const { return cycles_per_second_; }  // simulated cycles per wall second
  void set_speed(double cycles_per_second);
  void step(std::int64_t cycles);  // forward (>0) or back (<0)
  void seek(std::int64_t cycle);
  void restart() { seek(0); playing_ = false; }
  std::int64_t cycle() const { return sim_ ? sim_->cycle() : 0; }
  // Until the background run completes, the total is an extrapolation (see Simulation).
  std::int64_t total_cycles() const { return sim_ ? sim_->total_cycles() : 0; }
  std::int64_t simulated_cycles() const { return sim_ ? sim_->simulated_cycles() : 0; }
  bool complete() const { return sim_ && sim_->complete(); }
  double simulated_fraction() const { return sim_ ? sim_->simulated_fraction() : 0.0; }
  // A seek past what has been simulated waits here and lands once that cycle exists; a long
  // replay from a checkpoint is also finished here, over a few frames.
  std::optional<std::int64_t> seek_pending() const { return seek_pending_; }
  // Playing but stopped at the end of what has been simulated so far.
  bool buffering() const { return playing_ && sim_ && !sim_->complete() && sim_->cycle() >= sim_->simulated_cycles(); }
  bool at_end() const { return sim_ && sim_->complete() && sim_->cycle() >= sim_->total_cycles(); }
  // A cycle to jump to once the pending simulation is ready (lessons and --cycle ask before it is).
  void seek_when_ready(std::int64_t cycle);
  // Resolved once the simulation has got far enough (mid-run: complete; first-issue: that cycle
  // simulated); playback holds until then. A seek of any other kind cancels it.
  void seek_when_ready(const SeekAnchor& anchor);
  bool anchor_pending() const { return anchor_.has_value(); }
  const std::optional<SeekAnchor>& pending_anchor() const { return anchor_; }
  void play_when_ready(bool play);
  // Changes each time a new simulation is adopted. Views keyed on the Simulation's address would
  // miss a new one allocated where the old one was freed, and draw it with the old layout.
  std::uint64_t generation() const { return generation_; }

  // Finished simulations shown before, kept so that going back to a lesson step, or flipping
  // between two presets, shows the launch at once instead of simulating it again. Newest last;
  // the oldest go first once they, with the one finishing (below), hold more than the checkpoint
  // budget of one simulation (sim::default_checkpoint_budget_bytes), or number more than kMaxKept.
  static constexpr std::size_t kMaxKept = 4;
  std::size_t kept_count() const { return kept_.size(); }
  // What the kept simulations and the one finishing hold.
  std::size_t kept_bytes() const;
  // The budget of kept_bytes() (0: the default); lowering it lets the oldest go at once.
  void set_kept_budget_bytes(std::size_t bytes);
  // A launch left before it was simulated to its end goes on being simulated, so that a lecturer
  // who comes back to it (a later step on the same launch) finds it done; it waits while the
  // launch shown is still being simulated, which has the cores first. Only the last one left goes
  // on (an older one is dropped); finished, it joins the kept ones.
  bool finishing() const { return finishing_.sim != nullptr; }
  bool finishing_paused() const { return finishing_.sim && finishing_.sim->background_paused(); }
  // Whether the simulation shown now was adopted from the kept ones rather than built.
  bool reused() const { return reused_; }
  // Simulations started by this session: a launch shown again is not counted again.
  std::uint64_t builds_started() const { return builds_started_; }

 private:
  SimControls requested_;
  bool have_requested_ = false;
  std::unique_ptr<sim::Simulation> sim_;
  SimControls shown_;  // what sim_ was built for
  bool reused_ = false;
  std::uint64_t builds_started_ = 0;
  std::uint64_t generation_ = 0;
  void start_build(const SimControls& controls);
  // The build on a thread of its own; throws std::system_error when no thread can be started.
  static std::future<std::unique_ptr<sim::Simulation>> launch_build(const SimControls& controls,
                                                                    std::string* error_slot);
  // Shows `built` (made for `controls`), keeping the one shown until now if it is complete.
  void adopt(std::unique_ptr<sim::Simulation> built, const SimControls& controls, bool reused);
  // Adopts the kept simulation of `controls`, if there is one.
  bool adopt_kept(const SimControls& controls);
  // The seek and play asked for while a build was pending, now that what is shown is settled.
  void apply_deferred();

  struct Kept {
    SimControls controls;
    std::unique_ptr<sim::Simulation> sim;
  };
  std::vector<Kept> kept_;
  std::size_t kept_budget_bytes_ = 0;  // resolved on first use
  void keep(const SimControls& controls, std::unique_ptr<sim::Simulation> sim);
  void trim_kept();  // the oldest kept go while over kMaxKept or the budget
  Kept finishing_;
  // Pauses or resumes the finishing run; moves it to the kept ones once complete.
  void tend_finishing();

  std::future<std::unique_ptr<sim::Simulation>> pending_;
  SimControls pending_controls_;
  std::optional<SimControls> next_build_;  // asked for while another build was running
  std::string pending_error_;  // written by the builder, read after the future is ready
  std::string error_;
  bool playing_ = false;
  double cycles_per_second_ = 2000;
  double cycle_debt_ = 0;      // fractional cycles owed by playback
  std::optional<std::int64_t> deferred_seek_;
  std::optional<std::int64_t> seek_pending_;
  // Time a seek may replay in one call (or frame) before it carries on in the next frame.
  static constexpr double kSeekBudgetMs = 20.0;
  bool replay_toward(std::int64_t target, double budget_ms);  // false: not there yet (pending)
  std::optional<bool> deferred_play_;
  std::optional<SeekAnchor> anchor_;
  std::int64_t anchor_scanned_to_ = 0;  // first-issue: cycles before this one were looked at
  void resolve_anchor();                // seeks and clears anchor_ once it can be resolved
};

}  // namespace ws::app
