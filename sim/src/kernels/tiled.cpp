// The tiled kernel: one thread per C cell, A and B staged through shared memory a bdim x bdim
// tile at a time; the inner k loop unrolled by kUnroll (one LDS.128 of A's row, one LDS of B per k).
//   for (t = 0; t < ntiles; ++t) {
//     a = A[row][t*B + tx]; b = B[t*B + ty][col]          phases 0, 1: LDG a, LDG b
//     As[ty][tx] = a; Bs[ty][tx] = b                      phases 2, 3: STS
//     __syncthreads()                                     phase 4: BAR
//     for (kk = 0; kk < B; kk += 4) {
//       a4 = As[ty][kk..kk+3]; b_j = Bs[kk+j][tx]         phase 5: LDS.128, then LDS per k (sub)
//       acc = fma(a4[j], b_j, acc) for j = 0..3           phase 6: FFMA per k (sub)
//     }
//     __syncthreads()                                     phase 7: BAR
//     (tile increment; compare and branch)                phase 8: two ALU
//   }
//   C[row][col] = acc                                     phase 9: STG
// Scoreboard: slot kUnroll holds a (then a4), kUnroll + 1 holds b, slots 0..3 the b_j.
// Shared memory per block: As then Bs, bdim x bdim floats each. The FFMAs of a tile are summed
// in one run per warp (kBatchedFma): the tiles stay as they are until the barrier after them.
#include <algorithm>
#include <cmath>

#include "../gpu_engine.hpp"

namespace ws::sim::detail {
namespace {

enum Waves { kSts, kLdsA, kLdsB };

struct TiledProgram : ProgramBase {
  static constexpr Kernel kKernel = Kernel::tiled;
  static constexpr const char* kName = "tiled";
  static constexpr double kInstructionsPerSecond = 18e6;  // docs/PERFORMANCE.md: 22.6 M
  static constexpr bool kBatchedFma = true;

  static double warp_instructions(const SimConfig& cfg) {
    const double k = cfg.shape.k, b = cfg.block;
    return std::ceil(k / b) * (8 + std::ceil(b / kUnroll) + 2 * b) + 1;
  }

  static int smem_floats(const GpuSetup& s) { return 2 * s.threads; }

  static void prepare(GpuSetup& s) {
    s.waves.assign(s.wpb, {});
    for (int w = 0; w < s.wpb; ++w) {
      std::vector<int> sts, lds_a, lds_b;
      for (int lane = 0; lane < 32; ++lane) {
        const int t = w * 32 + lane;
        if (t >= s.threads) break;
        const int ty = t / s.bdim, tx = t % s.bdim;
        // The bank pattern does not depend on which tile or which kk: both shift every word alike.
        sts.push_back(ty * s.bdim + tx);
        for (int v = 0; v < std::min(kUnroll, s.bdim); ++v) lds_a.push_back(ty * s.bdim + v);
        lds_b.push_back(tx);
      }
      s.waves[w][kSts] = wavefronts(sts);
      s.waves[w][kLdsA] = wavefronts(lds_a);
      s.waves[w][kLdsB] = wavefronts(lds_b);
    }
  }

  static bool start(const GpuSetup& s, Warp& w) {
    w.mask = one_cell_mask(s, w);
    return true;  // every thread takes part in the barriers
  }

  static Instr decode(const GpuSetup& s, const Warp& w) {
    Instr in;
    switch (w.phase) {
      case 0: in.op = Op::ldg_a; in.dst = kUnroll; break;
      case 1: in.op = Op::ldg_b; in.dst = kUnroll + 1; break;
      case 2:
        in.op = Op::sts_a;
        in.waves = kSts;
        reads(in, kUnroll, WaitReason::global_memory);
        break;
      case 3:
        in.op = Op::sts_b;
        in.waves = kSts;
        reads(in, kUnroll + 1, WaitReason::global_memory);
        break;
      case 4: case 7: in.op = Op::bar; break;
      case 5:
        if (w.sub == 0) {
          in.op = Op::lds_a;
          in.dst = kUnroll;
          in.waves = kLdsA;
        } else {
          in.op = Op::lds_b;
          in.dst = static_cast<std::uint8_t>(w.sub - 1);
          in.waves = kLdsB;
        }
        break;
      case 6: {
        in.op = Op::ffma;
        reads(in, kUnroll, WaitReason::shared_memory);
        reads(in, w.sub, WaitReason::shared_memory);
        reads(in, kAccSlot, WaitReason::dependency);
        const int kk = w.kk + w.sub;
        in.counts_k = w.iter * s.bdim + kk < s.k;
        in.flush = static_cast<std::uint16_t>(kk + 1 == s.bdim ? s.bdim : 0);  // the tile's last
        break;
      }
      case 8: in.op = Op::alu; break;
      default:
        in.op = Op::stg;
        reads(in, kAccSlot, WaitReason::dependency);
        break;
    }
    return in;
  }

  static void advance(const GpuSetup& s, Warp& w) {
    const int B = s.bdim;
    switch (w.phase) {
      case 0: case 1: case 2: case 3: ++w.phase; break;
      case 4: case 7:
        w.phase = w.phase == 4 ? 5 : 8;
        w.kk = 0;
        w.sub = 0;
        break;
      case 5:
        if (++w.sub == 1 + std::min(kUnroll, B - w.kk)) {
          w.phase = 6;
          w.sub = 0;
        }
        break;
      case 6: {
        const int un = std::min(kUnroll, B - w.kk);
        if (++w.sub == un) {
          w.sub = 0;
          w.kk = static_cast<std::uint16_t>(w.kk + un);
          w.phase = w.kk < B ? 5 : 7;
        }
        break;
      }
      case 8:
        if (++w.sub == 2) {
          w.sub = 0;
          ++w.iter;
          w.phase = w.iter < s.ntiles ? 0 : 9;
        }
        break;
      default: break;
    }
  }

  static void global_sectors(const GpuSetup& s, const Warp& w, const Instr& in, SectorList& out) {
    if (in.op == Op::stg) return one_cell_sectors(s, w, out);
    const std::uint64_t K = s.k, N = s.n;
    const std::uint64_t t0 = static_cast<std::uint64_t>(w.iter) * s.bdim;
    for (const Segment& g : s.segs[w.wib]) {
      if (in.op == Op::ldg_a) {
        const std::uint64_t row = static_cast<std::uint64_t>(w.by) * s.bdim + g.ty;
        const std::uint64_t k0 = t0 + g.tx0, k1 = std::min<std::uint64_t>(t0 + g.tx1, K);
        if (row >= static_cast<std::uint64_t>(s.m) || k0 >= k1) continue;
        out.add(s.base_a + (row * K + k0) * 4, s.base_a + (row * K + k1) * 4);
      } else {
        const std::uint64_t kr = t0 + g.ty;
        const int c0 = w.bx * s.bdim + g.tx0, c1 = std::min(w.bx * s.bdim + g.tx1, s.n);
        if (kr >= K || c0 >= c1) continue;
        out.add(s.base_b + (kr * N + c0) * 4, s.base_b + (kr * N + c1) * 4);
      }
    }
  }

  static void shared_store(const GpuSetup& s, const Warp& w, const Instr& in, float* smem) {
    const int B = s.bdim;
    const int t0 = w.iter * B;
    if (in.op == Op::sts_a) {
      float* as = smem;
      for (const Segment& g : s.segs[w.wib]) {
        const int row = w.by * B + g.ty;
        for (int tx = g.tx0; tx < g.tx1; ++tx) {
          const int kcol = t0 + tx;
          as[g.ty * B + tx] = a_or_zero(s, row, kcol);
        }
      }
    } else {
      float* bs = smem + s.threads;
      for (const Segment& g : s.segs[w.wib]) {
        const int krow = t0 + g.ty;
        for (int tx = g.tx0; tx < g.tx1; ++tx) {
          const int col = w.bx * B + tx;
          bs[g.ty * B + tx] = b_or_zero(s, krow, col);
        }
      }
    }
  }

  static void smem_tile(const GpuSetup& s, int bx, int by, int t, float* smem) {
    const int B = s.bdim;
    const int t0 = t * B;
    float* as = smem;
    float* bs = smem + s.threads;
    for (int ty = 0; ty < B; ++ty) {
      const int row = by * B + ty, krow = t0 + ty;
      for (int tx = 0; tx < B; ++tx) {
        const int kcol = t0 + tx, col = bx * B + tx;
        as[ty * B + tx] = a_or_zero(s, row, kcol);
        bs[ty * B + tx] = b_or_zero(s, krow, col);
      }
    }
  }

  static void rebuild_prepare(const GpuSetup& s, std::vector<float>& keep) { b_panels(s, s.bdim, keep); }

  // A block slot's sums after its warps' FFMAs: one per k in order, adding A[row][k] * B[k][col]
  // (k_done counts the k < K; past the matrices' edges the tiles hold zeros, which leave a sum
  // as it is). Each lane segment is a row of A against its block's panel of B.
  static void rebuild_acc(const GpuSetup& s, const Warp* warps, float* acc, const std::vector<float>& keep) {
    const int B = s.bdim;
    std::fill_n(acc, static_cast<std::size_t>(s.wpb) * 32, 0.0f);
    RebuildRow rows[64];
    int count = 0;
    const float* b = nullptr;
    int lanes = 0;
    for (int i = 0; i < s.wpb; ++i) {
      const Warp& w = warps[i];
      if (w.k_done == 0) continue;
      for (const Segment& g : s.segs[w.wib]) {
        const float* seg_b = panel_of(s, B, keep, w.bx) + g.tx0;
        const int seg_lanes = g.tx1 - g.tx0;
        if (seg_b != b || seg_lanes != lanes || count == 64) {
          if (count > 0) rebuild_rows(rows, count, b, B, lanes);
          count = 0;
          b = seg_b;
          lanes = seg_lanes;
        }
        rows[count++] = {a_row_or_zeros(s, keep, w.by * B + g.ty), acc + i * 32 + g.lane0, w.k_done};
      }
    }
    if (count > 0) rebuild_rows(rows, count, b, B, lanes);
  }

  // FFMAs of the tile issued: phase 5 is before kk, phase 6 at kk + sub.
  static int fmas_batched(const Warp& w) { return w.phase == 5 ? w.kk : (w.phase == 6 ? w.kk + w.sub : 0); }

  static void fma_batch(const GpuSetup& s, const Warp& w, const float* smem, int from, int upto, float* acc) {
    const int B = s.bdim;
    const float* as = smem;
    const float* bs = smem + s.threads;
    for (const Segment& g : s.segs[w.wib])
      fma_run(as + g.ty * B, bs + g.tx0, B, from, upto, acc + g.lane0, g.tx1 - g.tx0);
  }
};

}  // namespace

extern const KernelOps tiled_kernel;
constinit const KernelOps tiled_kernel = make_kernel_ops<TiledProgram>();

}  // namespace ws::sim::detail
