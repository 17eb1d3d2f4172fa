// The simulated GPU (and a few CPU cores on the same clock) running a real matrix multiply.
//
// Cycle model: cycle c is "processed" when every warp scheduler has had its chance to issue in it.
// Right after construction cycle 0 is processed (the first blocks are placed); step() processes
// the next cycle. State queries describe the machine at the end of cycle(). The simulation is
// deterministic: the same presets and config give the same state at every cycle.
//
// One full run (the producer) yields the totals, the C-cell finish times and the checkpoints; the
// state every query reads is a second copy of the models that replays it. The full run happens
// in the constructor, or with SimConfig::progressive on a background thread while the display
// follows it. seek() restores the nearest earlier checkpoint and replays, so scrubbing costs at
// most one checkpoint interval (a fixed number of warp instructions, doubled when memory fills).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::sim {

enum class Kernel : std::uint8_t { naive, tiled, regblock, tensor };
const char* to_string(Kernel k);
std::optional<Kernel> parse_kernel(std::string_view name);
std::vector<std::string> kernel_names();
// The kernel runs on the tensor cores: BF16 inputs (its C is checked against the fp64 product of
// the BF16-rounded inputs), its ceiling the preset's dense BF16 peak, and presets without BF16
// tensor cores refuse it.
bool uses_tensor_cores(Kernel k);
// The shape of one warp-level tensor-core MMA of the tensor model (PTX mma.m16n8k16).
struct MmaShape {
  int m, n, k;
};
inline constexpr MmaShape kMmaShape{16, 8, 16};
// The arithmetic ceiling of the kernel on the preset: the FP32 peak, or the dense BF16 tensor
// peak for a tensor-core kernel (0 where the preset has none).
double kernel_peak_gflops(const GpuPreset& gpu, Kernel k);

struct Shape {
  int m = 256, n = 256, k = 256;
};

// What a warp is doing at a cycle; the byte values are what export_lane_states() writes.
enum class WarpState : std::uint8_t {
  not_resident = 0,        // its block is not on the SM (yet), or the slot is unused
  issuing = 1,             // issued an instruction this cycle
  eligible = 2,            // could issue but the scheduler picked another warp or the pipe is busy
  waiting_dependency = 3,  // waiting for an arithmetic result (FMA latency)
  waiting_memory = 4,      // waiting for a global or shared memory load
  waiting_barrier = 5,     // arrived at __syncthreads, waiting for the rest of its block
  done = 6,                // finished (its slot stays done once no blocks are left to place)
  // 7 is kLaneMasked (below)
  on_tensor_core = 8,      // its matrix multiply-accumulate is on the tensor core: waiting for its result
};
// Lane byte for a thread with no C cell (out of the matrix at the edges, or past the block).
inline constexpr std::uint8_t kLaneMasked = 7;
const char* to_string(WarpState s);

enum class WaitReason : std::uint8_t { none, launch, dependency, pipe_busy, global_memory, shared_memory, barrier, tensor_core };
const char* to_string(WaitReason r);

struct SimConfig {
  Kernel kernel = Kernel::tiled;
  Shape shape;
  // block is block x block threads; 0: 32, or 16 where 1024 threads can't launch (regblock: 16
  // always, its 64x64 tile of C is fixed; see sim/src/kernels/regblock.cpp)
  int block = 0;
  // What ptxas would report; sets occupancy with the shared memory. 0: the kernel's own figure
  // (32 for naive and tiled, 64 for regblock); config() gives it resolved.
  int regs_per_thread = 0;
  std::uint64_t seed = 42;
  int cpu_cores = 0;           // CPU cores to simulate; 0: min(preset cores, 8)
  bool cpu_simd = false;       // CPU cores compute a SIMD strip of cells at once
  bool checkpoints = true;     // keep checkpoints for seek(); the CLI turns them off
  // Memory for the checkpoints; 0: an eighth of what the process may use (the machine's memory
  // or a container's limit), between 256 MiB and 3 GiB (2048³ on an
  // H100 fills 3 GiB with ~4 MB checkpoints; 1024³ takes ~0.5 GB whatever the budget).
  std::size_t checkpoint_budget_bytes = 0;
  // Return from the constructor once cycle 0 exists and simulate the rest on a thread of its
  // own; the display can go as far as simulated_cycles(). Off: the constructor runs it all.
  bool progressive = false;
  double max_seconds = 180;    // refuse up front what would take longer to simulate on one core
  // Threads that step the GPU's SMs side by side, for the run that simulates ahead (`threads`)
  // and for the replays of seek() and run_until(), whose caller waits for them (`seek_threads`);
  // 0: one per core of the host. Every result is the same whatever the numbers.
  int threads = 0;
  int seek_threads = 0;
};

// What a request would cost, computed before anything is allocated.
struct Estimate {
  double warp_instructions = 0;
  double seconds = 0;          // at the measured simulation speed on one core (rounded down: errs long)
  double memory_bytes = 0;
  bool ok = true;
  std::string reason;          // why it is refused
};
Estimate estimate(const GpuPreset& gpu, const SimConfig& cfg);

// SimConfig::checkpoint_budget_bytes when it is 0: an eighth of the memory this process may use
// (the machine's, a container's or `ulimit -v`'s, the least), between 256 MiB (or a quarter of
// that memory, if less) and 3 GiB.
std::size_t default_checkpoint_budget_bytes();

// Thrown by the constructor for a launch that cannot run (0 blocks fit) or a refused request.
struct SimRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One of a lane's running sums: the C cell it becomes.
struct Accumulator {
  int row = -1, col = -1;
  float value = 0;
};

struct LaneInfo {
  bool active = false;          // has a C cell (false at the matrix edges)
  int block_x = 0, block_y = 0;
  int thread_x = 0, thread_y = 0;
  int row = -1, col = -1;       // the C[row][col] of its first accumulator
  int k_done = 0, k_total = 0;  // products accumulated so far, per cell
  float partial_sum = 0;        // its first accumulator
  // Every cell the lane computes (one for naive and tiled; regblock's TM x TN, the tensor
  // model's four per MMA tile), in accumulator order.
  std::vector<Accumulator> accumulators;
};

struct WarpInfo {
  WarpState state = WarpState::not_resident;
  WaitReason reason = WaitReason::none;
  int block_x = -1, block_y = -1;
  int warp_in_block = -1;
  std::int64_t waited = 0;      // cycles since it started waiting
  std::int64_t expected = 0;    // cycles the current wait lasts in total (0 for barriers: unknown)
  int k_done = 0, k_total = 0;
  std::uint64_t instructions = 0;
  std::string describe() const;  // "waiting on global memory: 212 of 480 cycles"
};

struct CpuCoreInfo {
  int row = -1, col = -1;       // current cell (first cell of the strip with SIMD); -1 when finished
  int k_done = 0, k_total = 0;  // along the current cell
  long long cells_done = 0, cells_assigned = 0;
  std::uint64_t l1_hits = 0, l2_hits = 0, l3_hits = 0, dram_accesses = 0;
  double progress = 0;          // fraction of this core's share of C done
};

struct Summary {
  std::int64_t cycles = 0;
  double time_ms = 0;            // cycles at the preset's clock
  double gflops = 0;             // 2mnk / time
  double achieved_occupancy = 0; // mean resident warps per busy SM / hardware max warps per SM
  double issue_slot_use = 0;     // instructions issued / (cycles x SMs x schedulers)
  std::uint64_t warp_instructions = 0;
  // Of them, by kind: what makes one kernel faster than another (regblock loads each shared
  // operand once for TM or TN FMAs; the tensor model does 4096 FLOP per MMA).
  std::uint64_t global_loads = 0, shared_stores = 0, shared_loads = 0, fmas = 0, mmas = 0;
  std::uint64_t dram_bytes = 0;
  double l1_hit_rate = 0, l2_hit_rate = 0;
  int blocks = 0;
  double waves = 0;              // blocks / (SMs x blocks per SM)
  OccupancyResult occupancy;     // the launch's theoretical occupancy
  double cpu_progress_at_finish = 0;  // share of C the simulated CPU cores did by the GPU's finish
  // The busiest moment's resident warps / (SMs x hardware warps per SM), sampled every 256 cycles.
  double peak_occupancy = 0;
};

// While one is alive, the background run of every progressive Simulation in this process waits
// between its slices (a slice under way, 256 cycles, still ends), even a run a thread waits for
// in wait_until_complete(). The window's job runner holds one for exactly as long as it times a
// real CPU kernel, so the measurement has the cores to itself (the reason the window slows its
// own frames then too), and always lets go, so a waiter waits no longer than that job. Seeks and
// replays on the caller's thread are not held.
class BackgroundRunsHold {
 public:
  BackgroundRunsHold();
  ~BackgroundRunsHold();
  BackgroundRunsHold(const BackgroundRunsHold&) = delete;
  BackgroundRunsHold& operator=(const BackgroundRunsHold&) = delete;
};
bool background_runs_held();

class Simulation {
 public:
  // Throws SimRefused (cannot launch, or too large: the message carries the estimate) and
  // std::invalid_argument (bad shape or block).
  Simulation(const GpuPreset& gpu, const CpuPreset& cpu, const SimConfig& cfg);
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const GpuPreset& gpu() const;
  const CpuPreset& cpu() const;
  const SimConfig& config() const;  // with block and cpu_cores resolved

  // Time. Nothing moves past simulated_cycles(): a request beyond it stops there.
  void step();                              // one cycle forward
  void run_until(std::int64_t cycle);       // forward only; no-op if already past
  void seek(std::int64_t cycle);            // forward or backward, via checkpoints
  // The first half of a seek: restores the last checkpoint at or before `cycle` when that is
  // behind cycle() or ahead of it, without replaying; run_until(cycle) finishes the seek. Lets a
  // UI spread a long replay over frames.
  void jump_to_checkpoint(std::int64_t cycle);
  std::int64_t cycle() const;
  // Cycle at which the GPU finishes; until complete(), an extrapolation from simulated_fraction().
  std::int64_t total_cycles() const;
  bool complete() const;                    // the whole run has been simulated
  std::int64_t simulated_cycles() const;    // how far the (background) run has got
  double simulated_fraction() const;        // of the warp instructions; 1 once complete
  void wait_until_complete() const;         // throws if the background run failed
  // While paused, this one background run waits between its slices, as all do under a
  // BackgroundRunsHold; a thread in wait_until_complete() still has it run (nothing may be left
  // to unpause it). A window pauses a run it has moved away from while the one it shows is still
  // being simulated.
  void set_background_paused(bool paused);
  bool background_paused() const;
  // Why the simulation stopped, if it failed: its background run, or a seek's replay (out of
  // memory, most likely: "ran out of memory at cycle N; try a smaller size"). Nothing is replayed
  // after a replay failed.
  std::string background_error() const;
  bool gpu_done() const;
  double cycle_to_ms(std::int64_t cycle) const;
  std::size_t checkpoint_count() const;
  std::size_t checkpoint_bytes() const;
  // What it holds that grows with the launch: A and B, C's values, finish cycles and owners, and
  // the checkpoints. Not counted: the two models' own state and the copy of B that rebuilding
  // sums reads (~30 MB together for tiled 2048³ on an H100). For a caller that keeps several.
  std::size_t held_bytes() const;

  // Geometry.
  int sm_count() const;
  int warp_slots_per_sm() const;            // resident warps per SM for this launch
  int lanes_per_warp() const { return 32; }
  int block_dim() const;                    // threads per block side
  int thread_cell_side() const;             // each thread computes side x side cells of C (regblock: 4)
  int grid_x() const, grid_y() const;
  int blocks_per_sm() const;                // resident at once on one SM (the occupancy)
  // Rounds of blocks the chip needs: ceil(blocks / (SMs x blocks per SM)). The last one may be partial.
  int waves() const;

  // State at cycle().
  WarpState warp_state(int sm, int slot) const;
  WarpInfo warp_info(int sm, int slot) const;
  LaneInfo lane_info(int sm, int slot, int lane) const;
  // One byte per (sm, slot, lane), sm-major: out.size() must be sm_count*warp_slots_per_sm*32.
  void export_lane_states(std::span<std::uint8_t> out) const;
  // One byte per (sm, slot): the WarpState values.
  void export_warp_states(std::span<std::uint8_t> out) const;

  // The output matrix. Finish cycles and owners come from the full run; a cell is done at
  // cycle() when its finish cycle <= cycle(). Owner: the SM index. The three spans wait for
  // complete(); the UI uses c_done() and export_c_owners(), which never wait.
  std::span<const std::int64_t> c_finish_cycle() const;   // INT64_MAX: never (can't happen)
  std::span<const std::int32_t> c_done_by_sm() const;
  std::span<const float> c_values() const;                 // final simulated C
  bool c_done(int row, int col) const;
  // Per cell of C (row-major): the SM that finished it by cycle(), or -1.
  void export_c_owners(std::span<std::int32_t> out) const;
  long long c_done_count() const;                          // at cycle()

  // CPU cores on the same clock (converted by the clock ratio).
  int cpu_core_count() const;
  CpuCoreInfo cpu_core(int core) const;
  double cpu_progress() const;                              // fraction of all of C the cores did
  long long cpu_cells_done() const;
  bool cpu_cell_done(int row, int col) const;
  int cpu_cell_owner(int row, int col) const;               // the core the cell is assigned to
  // Per cell of C (row-major): the core that finished it by cycle(), or -1.
  void export_cpu_owners(std::span<std::int32_t> out) const;
  double cpu_clock_ratio() const;                           // CPU cycles per GPU cycle

  Summary summary() const;   // from the full run: waits for complete()
  std::uint64_t digest() const;  // hash of the whole state at cycle(), for determinism checks

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ws::sim
