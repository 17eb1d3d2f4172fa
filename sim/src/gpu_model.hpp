// The GPU engine: SMs, their warp schedulers, resident blocks and warps, the memory system. It
// executes warp instructions (Op) and knows no kernel by name: each kernel is a program in
// kernels/ (see kernels/kernel_program.hpp) that says which instruction a warp issues next and
// with what operands. Internal to the sim library; simulation.cpp wraps it with checkpoints and
// the public API.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cache_model.hpp"
#include "worker_pool.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::sim::detail {

inline constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max() / 4;
inline constexpr int kUnroll = 4;  // the compiler's unroll of the k loop (loads hoisted ahead)
inline constexpr int kMmaK = kMmaShape.k;  // the k depth of one MMA (m16n8k16)
// Cycles from an MMA's issue to its result, on every generation: the model's assumption (no
// datasheet gives it; microbenchmark studies of mma.sync on Ampere and Hopper report a few tens
// of cycles). It matters only where too few warps share a tensor core to hide it.
inline constexpr int kMmaLatency = 32;

// The warp-instruction vocabulary. The values are part of the state hash (Warp::op): append only.
//   ldg_a, ldg_b  global load (of A, of B): sectors through L1, L2, DRAM into a scoreboard slot
//   sts_a, sts_b  shared store (a tile of A, of B): shared-memory wavefronts, lanes' data copied
//   bar           block barrier
//   lds_a, lds_b  shared load: shared-memory wavefronts into a scoreboard slot
//   ffma          fused multiply-add on the FP32 pipe into the accumulators
//   alu           integer instruction (loop overhead) on the INT32 pipe (the FP32 pipe before Volta)
//   stg           global store of the accumulators to C; the warp's last instruction
//   none          no instruction (a warp done or at a barrier)
//   mma           tensor-core matrix multiply-accumulate (one m16n8k16 tile of a warp's C) on
//                 its scheduler's tensor core: the core is busy GpuSetup::mma_cost cycles, the
//                 result is in the destination slot mma_latency cycles after issue
enum class Op : std::uint8_t { ldg_a, ldg_b, sts_a, sts_b, bar, lds_a, lds_b, ffma, alu, stg, none, mma };
inline constexpr int kOpCount = 12;

// A warp's scoreboard: the cycle each register group it reads is ready. Slots 0..kLoadSlots-1
// may be written by a global load (and so can be pending in an SM's request log); kAccSlot is
// the accumulators, written by FFMAs. What each slot holds is the kernel program's choice.
inline constexpr int kLoadSlots = kUnroll + 2;
inline constexpr int kAccSlot = kLoadSlots;
inline constexpr int kSlots = kLoadSlots + 1;

// A run of consecutive lanes of one warp that share a block row (ty); tx0..tx1 exclusive.
struct Segment {
  std::int16_t ty, tx0, tx1, lane0;
};

// What a program's rebuild_acc reads besides A and B (KernelOps::rebuild_prepare), made once on
// first use and shared by every model of the launch: the display's and the producer's.
struct RebuildKeep {
  std::once_flag once;
  std::vector<float> data;
};

// Everything fixed for one launch.
struct GpuSetup {
  const GpuPreset* gpu = nullptr;
  Kernel kernel = Kernel::tiled;
  int m = 0, n = 0, k = 0;
  int bdim = 32;               // block is bdim x bdim threads
  int threads = 0;             // bdim^2
  int cell_side = 1;           // each thread computes cell_side x cell_side cells of C
  int tile = 32;               // the block's square of C: bdim * cell_side
  int acc_per_warp = 32;       // accumulators per warp: 32 * cell_side^2
  int wpb = 0;                 // warps per block
  int grid_x = 0, grid_y = 0;
  std::int64_t total_blocks = 0;
  int blocks_per_sm = 0;       // occupancy
  int slots = 0;               // warp slots per SM = blocks_per_sm * wpb
  int nsched = 0;
  int per_sched = 0;           // warp slots per scheduler (slot s belongs to scheduler s % nsched)
  int issue_width = 1;
  double fp_cost = 1;          // cycles a warp FFMA holds a scheduler's FP32 pipe
  double alu_cost = 1;
  bool alu_on_fp_pipe = true;
  double lsu_cost = 1, smem_cost = 1;
  // Programs on the tensor cores (KernelOps::tensor): cycles an MMA holds its scheduler's tensor
  // core, at the SM clock, and cycles from its issue to its result. 0: no tensor core in use.
  double mma_cost = 0;
  int mma_latency = 0;
  double l2_bytes_per_cycle = 0;  // 0: no L2
  double dram_bytes_per_cycle = 0;
  std::uint64_t l1_bytes = 0;
  GpuLatencies lat;
  int ntiles = 0;              // the k loop's trips of block-wide kernels: ceil(k / bdim)
  int smem_floats = 0;         // shared memory per block, in floats (the kernel program's)
  const float* a = nullptr;
  const float* b = nullptr;
  std::uint64_t base_a = 0, base_b = 0, base_c = 0, footprint = 0;
  std::vector<std::vector<Segment>> segs;  // per warp in block
  // Per warp in block: shared-memory wavefronts of the kernel program's kinds of access
  // (KernelProgram::prepare fills them; the bank pattern does not depend on the iteration).
  std::vector<std::array<std::int32_t, 4>> waves;
  OccupancyResult occupancy;
  std::shared_ptr<RebuildKeep> rebuild_keep = std::make_shared<RebuildKeep>();
};

struct Warp {
  std::int64_t ready_at = kNever;
  std::int64_t last_issue = -1;
  std::int64_t wait_since = 0;
  std::int64_t dep[kSlots] = {};  // the scoreboard (see kLoadSlots)
  std::int64_t age = 0;
  std::uint64_t issued = 0;
  std::int32_t block = -1;     // linear block id, -1: slot empty
  std::int32_t hot = 0;        // index of this warp's entry in GpuState::ready
  std::int32_t bx = 0, by = 0; // block coordinates, kept to spare divisions on every instruction
  std::int16_t bslot = 0;      // block slot on its SM
  std::int32_t sched = 0;      // index of its scheduler in GpuState::sched
  // The program counter, in the kernel program's own terms: naive iter = k0; tiled iter = tile,
  // kk = inner k within the tile.
  std::int32_t iter = 0;
  std::int32_t k_done = 0;
  std::uint32_t mask = 0;      // lanes with a C cell
  std::int16_t wib = 0;        // warp index in block
  std::uint16_t kk = 0;
  std::uint8_t phase = 0, sub = 0;
  Op op = Op::none;
  WaitReason reason = WaitReason::none;
  bool done = false;
  bool ever = false;
  // Scoreboard slots (bit per dep[0..kLoadSlots-1]) whose global load is still in its SM's
  // request log (see GpuModel::run_to): never set between advance_to calls, so not state.
  std::uint8_t pend = 0;
  bool operator==(const Warp&) const = default;
};

struct BlockSlot {
  std::int32_t block = -1;
  std::int16_t warps_left = 0;
  std::int16_t arrived = 0;
};

struct Scheduler {
  std::int64_t next_check = kNever;
  std::int32_t greedy = -1;
  double fp_free = 0, alu_free = 0;
  double tc_free = 0;  // the sub-partition's tensor core (in the state hash only when one is in use)
  // No warp but the greedy one is ready before this cycle (GpuModel::pick skips the scan until
  // then): the soonest ready time of the others at the last scan, lowered by every wake(). A warp
  // that issued since may leave it lower than any warp's ready time, never higher; -1: unknown.
  // Derived from the rest, so not in the state hash.
  std::int64_t others_ready = -1;
};

struct SmState {
  double lsu_free = 0, smem_free = 0;
  std::int32_t resident_warps = 0;
  std::int64_t last_change = 0;
  double warp_cycles = 0;      // integral of resident warps over time
  double busy_cycles = 0;      // time with any resident warp
};

// All mutable state: copying it is a checkpoint.
struct GpuState {
  std::int64_t now = 0;
  std::int64_t next_event = 0;
  std::int64_t next_block = 0;
  std::int64_t blocks_done = 0;
  std::int64_t finish_cycle = kNever;
  bool finished = false;
  double l2_free = 0, dram_free = 0;
  std::uint64_t dram_bytes = 0, l1_hits = 0, l1_misses = 0, l2_hits = 0, l2_misses = 0;
  std::uint64_t instructions = 0;
  std::int64_t c_done = 0;
  // Warp instructions issued by kind (Op): a tally of what the rest of the state did, so not in
  // the state hash.
  std::array<std::uint64_t, kOpCount> by_op{};
  std::vector<Warp> warps;
  // Each warp's ready_at (kNever when empty, done or at a barrier), laid out scheduler by
  // scheduler so picking a warp scans one short contiguous array instead of whole Warp records.
  std::vector<std::int64_t> ready;
  std::vector<std::int64_t> ready_age;   // the same warps' ages (oldest first wins)
  std::vector<std::uint8_t> ready_pipe;  // 0: no pipe, 1: FP32, 2: INT32, 3: tensor, for the next instruction
  std::vector<float> acc;
  std::vector<BlockSlot> blocks;
  std::vector<float> smem;
  std::vector<Scheduler> sched;
  std::vector<SmState> sms;
  std::vector<SectorCache> l1;
  SectorCache l2;
};

// A checkpoint of GpuState in less memory, restored to exactly the same state (GpuModel::pack,
// unpack; gpu_checkpoint.cpp). A block's shared memory mostly holds one tile of A and B as the
// program stored it, so a chunk of it that equals that tile keeps only the tile's number; a warp's
// sums, where the program can rebuild them from A and B (KernelOps::rebuild_acc), keep nothing;
// warp records are variable-length integers; caches keep their LRU order as ranks
// (SectorCache::take_lru).
struct PackedGpuState {
  static constexpr std::int32_t kRaw = -1, kZero = -2, kMixed = -3;
  GpuState st;  // without the shared memory, sums, warps, packed caches' stamps, and ready times if rebuilt
  // Per block slot: the code all its chunks (GpuSetup::bdim floats each) share (a tile, kRaw or
  // kZero), or kMixed followed by one code per chunk.
  std::vector<std::int32_t> smem_code;
  std::vector<float> smem_raw;          // the kRaw chunks, in order
  std::vector<std::uint8_t> warps;      // GpuState::warps, encoded
  bool ready_rebuilt = false;           // GpuState::ready and ready_age follow from the warps
  bool acc_rebuilt = false;             // GpuState::acc is rebuilt from A and B (KernelOps::rebuild_acc)
  std::vector<float> acc_raw;           // else GpuState::acc as it is
  std::vector<std::vector<std::uint8_t>> lru;  // per cache, the L1s then the L2: ranks; empty: stamps kept in st
  std::vector<std::vector<std::uint16_t>> tags;  // per cache: tags without their set; empty: kept in st
  std::size_t bytes() const;
  std::vector<std::int32_t> chunk_codes(std::size_t chunks_per_block) const;  // smem_code, one per chunk
};

// What the run leaves in C; written as cells finish, identical on every replay. A reader on
// another thread loads `finish` with acquire (see load_finish): value and owner of a cell are
// written before its finish cycle is released.
struct GpuOutputs {
  std::vector<std::int64_t> finish;
  std::vector<std::int32_t> owner;
  std::vector<float> value;
};

inline std::int64_t load_finish(const GpuOutputs& out, std::size_t cell) {
  return std::atomic_ref<std::int64_t>(const_cast<std::int64_t&>(out.finish[cell])).load(std::memory_order_acquire);
}

// A request to what the SMs share (the L2, DRAM and the block queue), made while an SM runs alone
// ahead of the others and settled later in the order the lockstep engine would have made it.
struct Deferred {
  enum Kind : std::uint8_t { load, write, store, block_done };
  std::int64_t c = 0;
  std::int32_t sm = 0;
  Kind kind = load;
  std::uint8_t dep = 0;     // load, write: which scoreboard slot (< kLoadSlots)
  bool is_max = false;      // load, write: the dependency becomes max(itself, result)
  std::int32_t warp = 0;    // load, write: global warp index; block_done: block slot
  std::uint32_t sec0 = 0, nsec = 0;  // load, store: sectors that go past L1, in the sector pool
  double t1 = 0;            // load, store: when the L1 stage is done
  double done = 0;          // load: completion from the L1 hits
  std::int64_t value = 0;   // write: the value
};

struct KernelOps;
struct SectorList;

class GpuModel {
 public:
  // `out` null: a replaying model that leaves C to the model that wrote it first.
  GpuModel(GpuSetup setup, GpuOutputs* out);
  // Threads that step SMs side by side (1: the caller alone); the state reached is the same
  // whatever the number, as the SMs touch nothing of each other's while they step.
  void set_threads(int threads);
  void reset();                          // to the end of cycle 0
  // Process every cycle up to and including target. With `whole` false, FFMAs a batching
  // program issued may be left out of the sums (GpuState::acc) until make_whole() or the next
  // whole advance: for a model that runs on in short slices and whose state is rarely looked at
  // (the producer's), as summing every warp's batch after each slice cost more than the FFMAs
  // themselves. Its state must not be replaced while it is partial.
  void advance_to(std::int64_t target, bool whole = true);
  void make_whole();  // every FFMA issued into the sums, as after a whole advance
  const GpuSetup& setup() const { return s_; }
  GpuState& state() { return st_; }
  const GpuState& state() const { return st_; }

  WarpState warp_state(int sm, int slot) const;
  void lane_coords(const Warp& w, int lane, int& bx, int& by, int& tx, int& ty) const;
  void hash_into(Hasher& h) const;
  std::size_t state_bytes() const;
  // A checkpoint of the state (whole: make_whole() first) and its restore; unpack gives the state
  // that was packed, field for field but the caches' stamps, which keep their order.
  void pack(PackedGpuState& out);
  void unpack(const PackedGpuState& in);

 private:
  template <class P>
  friend constexpr KernelOps make_kernel_ops();

  template <class Fn> void for_each_ready_entry(Fn&& fn) const;
  bool ready_follows_warps() const;  // GpuState::ready and ready_age are as for_each_ready_entry says
  const std::vector<float>& rebuild_keep() const;
  void run_cycle(std::int64_t c);
  void run_to(std::int64_t target);
  void next_event_from_schedulers();
  void defer(const Deferred& d);
  void settle(const Deferred& d);
  void settle_upto(std::int64_t h);
  void ffmas_applied();
  void apply_all_ffmas();
  void step_sms(std::int64_t h, std::int64_t target);
  template <class Fn> void for_each_sm_run(Fn&& fn);
  void fold_counters();
  bool any_logged() const;
  bool any_hidden() const;
  void complete_block(int sm, int bslot, std::int64_t c);
  void place_block(int sm, int bslot, std::int64_t block, std::int64_t c);
  void finish_warp(int sm, Warp& w, std::int64_t c);
  void account(int sm, std::int64_t c, int delta);
  void global_load(int sm, Warp& w, std::int64_t c, int dep, bool is_max, SectorList& sl);
  void global_store(int sm, std::int64_t c, SectorList& sl);
  // Inline (gpu_engine.hpp): on the hot path of every kernel program.
  template <int NS> int pick(int sm, int q, std::int64_t c, std::int64_t& next, int& candidates);
  bool pipe_ok(const Scheduler& q, Op op, std::int64_t c) const;
  void write_dep(Warp& w, int dep, std::int64_t t, bool is_max, int sm, std::int64_t c);
  std::int64_t shared_access(int sm, int waves, std::int64_t c);
  void wake(const Warp& w);
  // The engine's per-instruction steps, instantiated once per kernel program P (gpu_engine.hpp,
  // make_kernel_ops): the program's decoder and effects inline into them.
  template <class P, int NS, int IW> void step_sm(int sm, std::int64_t from);
  template <class P, int NS, int IW> void visit(int sm, int qi, std::int64_t c);
  template <class P> void execute(int sm, int slot, Warp& w, std::int64_t c);
  template <class P> void set_next(int sm, Warp& w, std::int64_t base);
  template <class P> void apply_ffmas(int sm, int slot, const Warp& w, int upto);
  template <class P> void store_c(int sm, int slot, Warp& w, std::int64_t c);

  GpuSetup s_;
  GpuOutputs* out_;
  const KernelOps* ops_;  // the kernel program's entry points (kernels/registry.cpp)
  void (*step_sm_)(GpuModel&, int sm, std::int64_t from);  // ops_'s, for this chip's schedulers
  GpuState st_;
  // Scratch of advance_to, settled between calls (logs empty, pend_n_ zero, nothing hidden, every
  // FFMA in the sums), so not part of the state. See the constructor and run_to.
  std::int64_t reach_ = 1;     // the soonest a load that leaves the SM can complete, in cycles
  bool immediate_ = true;      // requests settled as they are made, lockstep cycle by cycle
  // What an SM writes while it steps and nothing else reads until the step is over: kept per SM
  // (and a cache line each) so that SMs can step on different threads.
  struct alignas(64) SmScratch {
    std::int64_t limit = 0;          // the last cycle the SM may process in this step
    std::uint64_t instructions = 0;  // counts to add to the state's when the step is over
    std::array<std::uint64_t, kOpCount> by_op{};
    std::uint64_t l1_hits = 0, l1_misses = 0;
    std::int64_t c_done = 0;
    std::vector<std::int32_t> hidden;  // warps whose next issue waits on a logged load
  };
  std::vector<SmScratch> scratch_;
  std::unique_ptr<WorkerPool> pool_;
  std::vector<std::int64_t> t_;                   // per SM: the last cycle it has processed
  std::vector<std::vector<Deferred>> logs_;       // per SM: requests not settled yet, in issue order
  std::vector<std::vector<std::uint64_t>> pools_; // per SM: the sectors those requests carry
  std::vector<std::int64_t> first_done_;          // per SM: its earliest unsettled finished block
  std::vector<std::uint8_t> pend_n_;              // per warp and load slot: logged writes to it
  std::vector<std::int32_t> retry_;               // hidden warps gathered for settle_upto
  struct Ref {
    std::int32_t sm, i;
  };
  std::vector<Ref> order_, sorted_;
  std::vector<std::uint32_t> count_;
  std::vector<std::uint16_t> fma_from_;  // per warp: its batch's FFMAs already in its sums
  bool partial_ = false;  // FFMAs issued and not yet in the sums (advance_to with whole false)
  std::vector<std::int32_t> slot_j_;  // a slot's index in its scheduler's arrays: slot / nsched
  std::vector<float> tile_scratch_;   // pack, unpack: a block's shared memory for a candidate tile
  std::vector<float> acc_scratch_;    // pack: a block slot's sums as rebuilt
  static constexpr std::size_t kRebuildCheckEvery = 8;  // pack: block slots checked, one in this many
  std::size_t packs_ = 0;
  bool rebuild_agrees_ = true;        // no pack has found a rebuild that differs
};

// Why a program on the tensor cores cannot run on this GPU, naming the presets where it can;
// "" when it can. The tensor model multiplies BF16, which tensor cores have since Ampere.
std::string tensor_refusal(const GpuPreset& gpu);

// Builds the launch (occupancy, block size, costs); throws SimRefused when 0 blocks fit.
GpuSetup make_setup(const GpuPreset& gpu, const SimConfig& cfg, const float* a, const float* b);

}  // namespace ws::sim::detail
