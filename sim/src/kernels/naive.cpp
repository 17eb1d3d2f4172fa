// The naive kernel: one thread per C cell, the k loop unrolled by kUnroll with its loads hoisted
// ahead, every operand straight from global memory.
//   for (k0 = 0; k0 < K; k0 += 4) {
//     a0 = A[row][k0]; b0 = B[k0][col]; ... a3, b3   phase 0: LDG a, LDG b per k (sub 0..7)
//     acc = fma(a0, b0, acc); ... fma(a3, b3, acc)   phase 1: FFMA per k (sub 0..3)
//     (address increment; compare and branch)        phase 2: two ALU (sub 0..1)
//   }
//   C[row][col] = acc                                phase 3: STG
// Scoreboard: slot j holds a_j and b_j (b's load makes it the later of the two).
#include <algorithm>
#include <cmath>

#include "../gpu_engine.hpp"

namespace ws::sim::detail {
namespace {

struct NaiveProgram : ProgramBase {
  static constexpr Kernel kKernel = Kernel::naive;
  static constexpr const char* kName = "naive";
  // docs/PERFORMANCE.md: 9.6 M; mostly global loads, each a trip through the caches' tags.
  static constexpr double kInstructionsPerSecond = 8e6;

  static double warp_instructions(const SimConfig& cfg) {
    const double k = cfg.shape.k;
    return 3 * k + 2 * std::ceil(k / kUnroll) + 1;
  }

  // Out-of-range threads return at once: a warp of only those is done.
  static bool start(const GpuSetup& s, Warp& w) {
    w.mask = one_cell_mask(s, w);
    return w.mask != 0;
  }

  static Instr decode(const GpuSetup&, const Warp& w) {
    Instr in;
    switch (w.phase) {
      case 0:
        in.op = w.sub % 2 == 0 ? Op::ldg_a : Op::ldg_b;
        in.dst = static_cast<std::uint8_t>(w.sub / 2);
        in.dst_max = w.sub % 2 != 0;
        break;
      case 1:
        in.op = Op::ffma;
        reads(in, w.sub, WaitReason::global_memory);
        reads(in, kAccSlot, WaitReason::dependency);
        in.counts_k = true;
        break;
      case 2: in.op = Op::alu; break;
      default:
        in.op = Op::stg;
        reads(in, kAccSlot, WaitReason::dependency);
        break;
    }
    return in;
  }

  static void advance(const GpuSetup& s, Warp& w) {
    const int un = std::min(kUnroll, s.k - w.iter);
    switch (w.phase) {
      case 0:
        if (++w.sub == 2 * un) {
          w.phase = 1;
          w.sub = 0;
        }
        break;
      case 1:
        if (++w.sub == un) {
          w.phase = 2;
          w.sub = 0;
        }
        break;
      case 2:
        if (++w.sub == 2) {
          w.sub = 0;
          w.iter += un;
          w.phase = w.iter < s.k ? 0 : 3;
        }
        break;
      default: break;
    }
  }

  static void global_sectors(const GpuSetup& s, const Warp& w, const Instr& in, SectorList& out) {
    if (in.op == Op::stg) return one_cell_sectors(s, w, out);
    const bool is_a = in.op == Op::ldg_a;
    const std::uint64_t K = s.k, N = s.n;
    const std::uint64_t k = static_cast<std::uint64_t>(w.iter) + w.sub / 2;
    for (const Segment& g : s.segs[w.wib]) {
      const std::uint64_t row = static_cast<std::uint64_t>(w.by) * s.bdim + g.ty;
      const int c0 = w.bx * s.bdim + g.tx0, c1 = std::min(w.bx * s.bdim + g.tx1, s.n);
      if (row >= static_cast<std::uint64_t>(s.m) || c0 >= c1) continue;
      if (is_a) out.add(s.base_a + (row * K + k) * 4, s.base_a + (row * K + k) * 4 + 4);
      else out.add(s.base_b + (k * N + c0) * 4, s.base_b + (k * N + c1) * 4);
    }
  }

  static void fma(const GpuSetup& s, const Warp& w, const Instr&, float* acc) {
    const int B = s.bdim;
    const std::size_t k = static_cast<std::size_t>(w.iter) + w.sub;
    const float* brow = s.b + k * s.n;
    for (const Segment& g : s.segs[w.wib]) {
      const int row = w.by * B + g.ty;
      if (row >= s.m) continue;
      const int c0 = w.bx * B + g.tx0;
      const int cnt = std::min(g.tx1 - g.tx0, s.n - c0);
      if (cnt <= 0) continue;
      fma_row(s.a[static_cast<std::size_t>(row) * s.k + k], brow + c0, acc + g.lane0, cnt);
    }
  }
};

}  // namespace

extern const KernelOps naive_kernel;
constinit const KernelOps naive_kernel = make_kernel_ops<NaiveProgram>();

}  // namespace ws::sim::detail
