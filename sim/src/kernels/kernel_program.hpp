// A kernel model is a program: for a warp standing at its program counter (Warp::phase, sub,
// iter, kk), the instruction it issues next, with its operands, and how the counter moves on.
// The engine (gpu_model.cpp, gpu_engine.hpp) times instructions (schedulers, pipes, caches,
// queues) and knows no kernel by name. One file per kernel in this folder defines a program
// and its KernelOps; registry.cpp lists them.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "../gpu_model.hpp"

namespace ws::sim::detail {

// One warp instruction as the engine executes it. Plain scalar fields (no arrays), so that once
// a program's decode() is inlined the compiler keeps them in registers.
struct Instr {
  Op op = Op::none;
  // Scoreboard slots read before it can issue (up to three), in order: the latest one gives the
  // wait reason, the first listed on a tie. Added with reads().
  std::uint8_t nsrc = 0;
  std::uint8_t src0 = 0, src1 = 0, src2 = 0;
  WaitReason why0 = WaitReason::none, why1 = WaitReason::none, why2 = WaitReason::none;
  std::uint8_t dst = 0;        // ldg (< kLoadSlots), lds: the scoreboard slot written
  bool dst_max = false;        // ldg, lds, mma: the slot becomes max(itself, done): several feed it
  bool counts_k = false;       // ffma: one more k step of the warp's cells (Warp::k_done); mma: kMmaK more
  std::uint8_t waves = 0;      // sts, lds: which entry of GpuSetup::waves[warp in block]
  std::uint16_t flush = 0;     // ffma of a batching program: sum the batch up to here (0: not yet)
};

// A slot the instruction reads, for a program's decode().
constexpr void reads(Instr& in, int slot, WaitReason why) {
  const auto s = static_cast<std::uint8_t>(slot);
  if (in.nsrc == 0) in.src0 = s, in.why0 = why;
  else if (in.nsrc == 1) in.src1 = s, in.why1 = why;
  else in.src2 = s, in.why2 = why;
  ++in.nsrc;
}

// The 32-byte sectors a warp's global access touches, in the lanes' order (the engine sorts and
// merges them).
struct SectorList {
  std::uint64_t s[96];
  int n = 0;
  void add(std::uint64_t first, std::uint64_t end) {  // bytes [first, end), end > first
    for (std::uint64_t x = first >> 5; x <= (end - 1) >> 5; ++x) s[n++] = x;
  }
};

// Lane arithmetic: exact fp32 FFMA (one rounding), chosen once for the CPU (gpu_model.cpp).
// fma_row: acc[i] = fma(a, b[i], acc[i]) for i < n.
// fma_run: for k = k0..k1-1 in order, acc[i] = fma(a[k], b[k*ld + i], acc[i]) for i < n: the same
// operations in the same order as one fma_row per k, with the sums kept in registers.
// fma_rows: fma_run from k0 to k1 for each of `rows` rows, a[r] and acc[r], over the same b: the
// same operations per row, interleaved across rows (faster for long runs).
using FmaRow = void (*)(float, const float*, float*, int);
using FmaRun = void (*)(const float*, const float*, int, int, int, float*, int);
using FmaRows = void (*)(const float* const*, int, const float*, int, int, int, float* const*, int);
extern const FmaRow fma_row;
extern const FmaRun fma_run;
extern const FmaRows fma_rows;

// For a program's rebuild of its sums (rebuild_prepare, rebuild_acc): B laid out column panel by
// column panel, `width` columns each (panel p: K rows of `width` floats, zeros past N), so the
// columns a tile multiplies are contiguous; then K zeros, the A row of a row past M.
void b_panels(const GpuSetup& s, int width, std::vector<float>& keep);
inline const float* panel_of(const GpuSetup& s, int width, const std::vector<float>& keep, int p) {
  return keep.data() + static_cast<std::size_t>(p) * s.k * width;
}
inline const float* a_row_or_zeros(const GpuSetup& s, const std::vector<float>& keep, int row) {
  return row < s.m ? s.a + static_cast<std::size_t>(row) * s.k : keep.data() + keep.size() - s.k;
}
// A row of sums to rebuild: `k` FFMAs of a[k'] times the panel's row k', in order, into `out`.
struct RebuildRow {
  const float* a;
  float* out;
  int k;
};
// Runs rows (at most 64) over the same panel columns b (row stride ld, n lanes): all of them up to
// the fewest k any has, the rest on to the next fewest, and so on. Reorders `rows`.
void rebuild_rows(RebuildRow* rows, int count, const float* b, int ld, int n);

// Shared-memory wavefronts for one warp access to these words: the most distinct words any bank
// must serve, and at least one wavefront per 128 bytes of distinct data.
int wavefronts(const std::vector<int>& words);

// One C cell per thread: thread (ty, tx) of block (bx, by) owns C[by*B + ty][bx*B + tx].
std::uint32_t one_cell_mask(const GpuSetup& s, const Warp& w);  // lanes with a cell
template <class F>  // f(cell index in C, lane)
inline void for_each_one_cell(const GpuSetup& s, const Warp& w, F&& f) {
  const int B = s.bdim;
  for (const Segment& g : s.segs[w.wib]) {
    const int row = w.by * B + g.ty;
    if (row >= s.m) continue;
    for (int tx = g.tx0; tx < g.tx1; ++tx) {
      const int col = w.bx * B + tx;
      if (col >= s.n) break;
      f(static_cast<std::size_t>(row) * s.n + col, g.lane0 + tx - g.tx0);
    }
  }
}
void one_cell_sectors(const GpuSetup& s, const Warp& w, SectorList& out);  // the warp's C cells

// A(row, col) and B(row, col), or 0 past the matrix's edge: what every tile load stores, so a
// tile at the edge multiplies as if the matrices were padded with zeros.
inline float a_or_zero(const GpuSetup& s, int row, int col) {
  return row < s.m && col < s.k ? s.a[static_cast<std::size_t>(row) * s.k + col] : 0.0f;
}
inline float b_or_zero(const GpuSetup& s, int row, int col) {
  return row < s.k && col < s.n ? s.b[static_cast<std::size_t>(row) * s.n + col] : 0.0f;
}

// What a program provides (static members of a struct P: kKernel, kName,
// kInstructionsPerSecond, warp_instructions as in KernelOps, and the engine's steps are instantiated
// for P in P's file by make_kernel_ops<P>() from gpu_engine.hpp, so all of it inlines):
//
//   static constexpr int kBlock, kCellSide, kRegsPerThread;  the block side it needs (0: any),
//       the side of each thread's square of C cells (accumulators per lane: its square), the
//       registers per thread that set its occupancy unless the config gives them
//   static constexpr bool kBatchedFma;  FFMAs whose operands stay put until a barrier (shared
//       tiles) are summed in batches: fmas_batched/fma_batch below, Instr::flush.
//   static int smem_floats(const GpuSetup&);  shared memory per block (occupancy, L1 carveout)
//   static void prepare(GpuSetup&);           per-launch tables: GpuSetup::waves, ntiles
//   static bool start(const GpuSetup&, Warp&); at placement: the counter and Warp::mask; false:
//       the warp has nothing to do and is done at once
//   static Instr decode(const GpuSetup&, const Warp&);  the instruction at the counter
//   static void advance(const GpuSetup&, Warp&);        the counter past it (not called after
//       stg, which ends the warp: the counter stays on it)
//   static void global_sectors(const GpuSetup&, const Warp&, const Instr&, SectorList&);  ldg, stg
//   static void shared_store(const GpuSetup&, const Warp&, const Instr&, float* smem);    sts data
//   static void fma(const GpuSetup&, const Warp&, const Instr&, float* acc);   unbatched FFMA lanes
//   static constexpr bool kTensor;  issues MMAs (Op::mma), which need tensor cores
//   static void mma(const GpuSetup&, const Warp&, const Instr&, const float* smem, float* acc);
//       an MMA's lanes: the warp's C tile += its A and B fragments (read from shared memory)
//   static int fmas_batched(const Warp&);   issued FFMAs of the batch at the counter
//   static void fma_batch(const GpuSetup&, const Warp&, const float* smem, int from, int upto,
//                         float* acc);      the batch's FFMAs [from, upto) on the lanes
//   template <class F> static void for_each_cell(const GpuSetup&, const Warp&, F&& f);
//       stg: f(cell, lane) for each C cell the warp's lanes hold
//   static void smem_tile(const GpuSetup&, int bx, int by, int t, float* smem);  optional: block
//       (bx, by)'s shared memory once every warp has stored tile t, which lets a checkpoint keep
//       the tile's number instead of its floats (PackedGpuState)
//   static void rebuild_acc(const GpuSetup&, const Warp* warps, float* acc, const std::vector<float>& keep);
//       optional: the sums of a block slot's warps (GpuSetup::wpb of them, and of their
//       accumulators) after the FFMAs each has issued, computed from A and B alone, which lets a
//       checkpoint keep none of them (PackedGpuState; the pack checks a share of its rebuilds)
//   static void rebuild_prepare(const GpuSetup&, std::vector<float>& keep);  with rebuild_acc:
//       what it reads besides A and B (say, B laid out for it), made once per launch
//
// The estimate of a launch's size (before any setup) also comes from the program's entry.
struct KernelOps {
  Kernel kernel;
  const char* name;
  double instructions_per_second;  // simulated on one core under load, rounded down
  double (*warp_instructions)(const SimConfig& cfg);  // per warp, for estimate()
  int block;          // the block side the kernel needs (0: any, the config's)
  int cell_side;      // each thread computes cell_side x cell_side cells of C
  int regs;           // registers per thread when the config gives none (what ptxas would report)
  bool tensor;        // issues MMAs: needs tensor cores with BF16 (tensor_refusal)
  int (*smem_floats)(const GpuSetup&);
  void (*prepare)(GpuSetup&);
  bool (*start)(const GpuSetup&, Warp&);
  // Engine entry points instantiated for the program.
  void (*step_sm)(GpuModel&, int sm, std::int64_t from);
  void (*step_sm_4x1)(GpuModel&, int sm, std::int64_t from);  // the same for 4 schedulers of issue width 1
  void (*set_next)(GpuModel&, int sm, Warp& w, std::int64_t base);
  // The warp's C cells and, for each, the index of its accumulator in the warp's (lane l holds
  // accumulators l*cell_side^2 ..): what the inspector shows of a lane.
  void (*warp_cells)(const GpuSetup&, const Warp&, std::vector<std::pair<std::size_t, int>>& out);
  int (*fmas_batched)(const Warp&);  // null: no batching
  void (*smem_tile)(const GpuSetup&, int bx, int by, int t, float* smem);  // null: none
  void (*rebuild_acc)(const GpuSetup&, const Warp* warps, float* acc, const std::vector<float>& keep);  // null: none
  void (*rebuild_prepare)(const GpuSetup&, std::vector<float>& keep);
  void (*apply_ffmas)(GpuModel&, int sm, int slot, const Warp& w, int upto);
};

// Defaults a program inherits and overrides where it has the instruction: no shared memory,
// unbatched FFMAs, one C cell per thread.
struct ProgramBase {
  static constexpr bool kBatchedFma = false;
  static constexpr int kBlock = 0;          // block side it needs (0: the config's)
  static constexpr int kCellSide = 1;       // C cells per thread: kCellSide x kCellSide
  static constexpr int kRegsPerThread = 32; // default registers per thread (occupancy)
  static constexpr bool kTensor = false;    // issues MMAs on the tensor cores
  static constexpr int kAccPerWarp(int side) { return 32 * side * side; }
  static int smem_floats(const GpuSetup&) { return 0; }
  static void prepare(GpuSetup&) {}
  static void shared_store(const GpuSetup&, const Warp&, const Instr&, float*) {}
  static void fma(const GpuSetup&, const Warp&, const Instr&, float*) {}
  static void mma(const GpuSetup&, const Warp&, const Instr&, const float*, float*) {}
  static int fmas_batched(const Warp&) { return 0; }
  static void fma_batch(const GpuSetup&, const Warp&, const float*, int, int, float*) {}
  template <class F>
  static void for_each_cell(const GpuSetup& s, const Warp& w, F&& f) {
    for_each_one_cell(s, w, f);
  }
};

// The registry (registry.cpp).
const KernelOps& kernel_ops(Kernel k);
const KernelOps* find_kernel_ops(std::string_view name);  // null: no such kernel
int kernel_count();
const KernelOps& kernel_ops_at(int i);  // in registry order

}  // namespace ws::sim::detail
