// The regblock kernel: 2-D register blocking, the model of the real gl-regblock kernel
// (shaders/gemm_regblock.comp). A 16x16 block computes a BM x BN = 64x64 tile of C from
// BK = 16-deep tiles of A and B in shared memory; thread (tx, ty) keeps the TM x TN = 4x4 cells
// C[row0 + 4ty + i][col0 + 4tx + j] in registers. The parameters are kRegblock in warpscope/sim/regblock.hpp; the shader's
// BM, BN, BK and local_size are the same numbers (tests/sim/regblock_test.cpp reads the shader and
// checks them). Thread lid = 16ty + tx:
//   for (t = 0; t < k; t += BK) {
//     a4 = A[row0 + lid/4][t + 4(lid%4) ..+3]            phase 0: LDG.128 (a row of the A tile)
//     b4 = B[t + lid/16][col0 + 4(lid%16) ..+3]          phase 1: LDG.128 (a row of the B tile)
//     As[4(lid%4) + i][lid/4] = a4[i], i = 0..3          phase 2: 4 x STS (A stored transposed,
//                                                        rows padded to 68 floats as the shader's)
//     Bs[lid/16][4(lid%16) ..+3] = b4                    phase 3: STS.128
//     __syncthreads()                                    phase 4: BAR
//     for (p = 0; p < BK; ++p) {                         (fully unrolled; the next p's loads are
//       av = As[p][4ty ..+3]; bv = Bs[p][4tx ..+3]        issued before this p's FFMAs)
//                                                        phase 5 (p = 0) / 6 (p + 1): 2 x LDS.128
//       acc[i][j] = fma(av[i], bv[j], acc[i][j])          phase 7: 16 x FFMA
//     }
//     __syncthreads()                                    phase 8: BAR
//     (tile increment; compare and branch)               phase 9: two ALU
//   }
//   C[row0 + 4ty + i][col0 + 4tx + j] = acc[i][j]        phase 10: STG (the 4 x STG.128 as one)
// Scoreboard: slots 4, 5 the global loads a4, b4; slots 2(p&1) and 2(p&1) + 1 the av, bv of step
// p. The 16 FFMAs of a step depend each on its own accumulator of the step before, 16 FFMAs
// earlier: at least 16 issue cycles, more than any preset's FMA latency (24 on GT200, whose FP32
// pipe takes 4 cycles a warp FFMA), so they read no accumulator slot; they write it, and STG
// waits on it. Accumulators: 16 per lane, lane-major (acc[16 lane + 4i + j]). The FFMAs of a tile
// are summed in one run per warp (kBatchedFma), as tiled's.
// Registers: 64 per thread (kRegblock, warpscope/sim/regblock.hpp): 16 accumulators, 2 x 8 operands (this step's and
// the prefetched next step's av, bv), the A and B tile values in flight (8), and ~20 addresses,
// indices and loop bounds come to ~60; ptxas allocates in steps and reports 64 for kernels of
// this shape (4x4 per thread, BK = 16). On a 64K-register SM that is 4 blocks of 256 threads:
// 1024 threads, half of the 2048 an H100 SM holds (tiled at 32 registers: all of them).
#include <algorithm>
#include <cmath>

#include "../gpu_engine.hpp"
#include "warpscope/sim/regblock.hpp"

namespace ws::sim::detail {
namespace {

enum Waves { kStsA, kStsB, kLdsA, kLdsB };

constexpr int BM = kRegblock.bm, BN = kRegblock.bn, BK = kRegblock.bk, TM = kRegblock.tm, TN = kRegblock.tn;
constexpr int kSide = kRegblock.threads_x;             // 16: block is 16 x 16 threads
constexpr int kAStride = BM + 4;                        // As row: 64 floats + one padding vec4
constexpr int kAsFloats = BK * kAStride;                // 1088
constexpr int kBsFloats = BK * BN;                      // 1024
constexpr int kStepFmas = TM * TN;                      // 16 per k step
static_assert(TM == TN && BM == kSide * TM && BN == kSide * TN && kRegblock.threads_y == kSide);
static_assert(BK * BM == 4 * kSide * kSide && BK * BN == 4 * kSide * kSide, "one vec4 of each tile per thread");

struct RegblockProgram : ProgramBase {
  static constexpr Kernel kKernel = Kernel::regblock;
  static constexpr const char* kName = "regblock";
  static constexpr double kInstructionsPerSecond = 18e6;  // as tiled: same engine path, batched FFMAs
  static constexpr bool kBatchedFma = true;
  static constexpr int kBlock = kSide;
  static constexpr int kCellSide = TM;
  static constexpr int kRegsPerThread = kRegblock.regs;

  static double warp_instructions(const SimConfig& cfg) {
    // per tile: 2 LDG, 4 + 1 STS, 2 BAR, 2 BK LDS, BK TM TN FFMA, 2 ALU; then STG
    return std::ceil(static_cast<double>(cfg.shape.k) / BK) * (11 + 2 * BK + BK * kStepFmas) + 1;
  }

  static int smem_floats(const GpuSetup&) { return kAsFloats + kBsFloats; }

  static void prepare(GpuSetup& s) {
    s.ntiles = (s.k + BK - 1) / BK;
    s.waves.assign(s.wpb, {});
    for (int w = 0; w < s.wpb; ++w) {
      std::vector<int> sts_a, sts_b, lds_a, lds_b;
      for (int lane = 0; lane < 32; ++lane) {
        const int lid = w * 32 + lane;
        const int ty = lid / kSide, tx = lid % kSide;
        // The bank pattern is the same for every i, p and tile: they shift every word alike.
        sts_a.push_back((lid % 4) * 4 * kAStride + lid / 4);
        for (int v = 0; v < 4; ++v) {
          sts_b.push_back(kAsFloats + (lid / 16) * BN + 4 * (lid % 16) + v);
          lds_a.push_back(TM * ty + v);
          lds_b.push_back(kAsFloats + TN * tx + v);
        }
      }
      s.waves[w][kStsA] = wavefronts(sts_a);
      s.waves[w][kStsB] = wavefronts(sts_b);
      s.waves[w][kLdsA] = wavefronts(lds_a);
      s.waves[w][kLdsB] = wavefronts(lds_b);
    }
  }

  static bool start(const GpuSetup& s, Warp& w) {
    std::uint32_t mask = 0;
    for (const Segment& g : s.segs[w.wib]) {
      if (w.by * BM + TM * g.ty >= s.m) continue;
      for (int tx = g.tx0; tx < g.tx1; ++tx)
        if (w.bx * BN + TN * tx < s.n) mask |= 1u << (g.lane0 + tx - g.tx0);
    }
    w.mask = mask;
    return true;  // every thread loads tiles and takes part in the barriers
  }

  static Instr decode(const GpuSetup& s, const Warp& w) {
    Instr in;
    switch (w.phase) {
      case 0: in.op = Op::ldg_a; in.dst = 4; break;
      case 1: in.op = Op::ldg_b; in.dst = 5; break;
      case 2:
        in.op = Op::sts_a;
        in.waves = kStsA;
        reads(in, 4, WaitReason::global_memory);
        break;
      case 3:
        in.op = Op::sts_b;
        in.waves = kStsB;
        reads(in, 5, WaitReason::global_memory);
        break;
      case 4: case 8: in.op = Op::bar; break;
      case 5: case 6: {
        const int p = w.kk + (w.phase == 6 ? 1 : 0);
        in.op = w.sub == 0 ? Op::lds_a : Op::lds_b;
        in.dst = static_cast<std::uint8_t>(2 * (p & 1) + w.sub);
        in.waves = w.sub == 0 ? kLdsA : kLdsB;
        break;
      }
      case 7: {
        in.op = Op::ffma;
        const int p = w.kk;
        reads(in, 2 * (p & 1), WaitReason::shared_memory);
        reads(in, 2 * (p & 1) + 1, WaitReason::shared_memory);
        // k_done counts the steps the lane's first cell (FFMA 0 of a step) has taken.
        in.counts_k = w.sub == 0 && w.iter * BK + p < s.k;
        in.flush = static_cast<std::uint16_t>(p + 1 == BK && w.sub + 1 == kStepFmas ? BK * kStepFmas : 0);
        break;
      }
      case 9: in.op = Op::alu; break;
      default:
        in.op = Op::stg;
        reads(in, kAccSlot, WaitReason::dependency);
        break;
    }
    return in;
  }

  static void advance(const GpuSetup& s, Warp& w) {
    switch (w.phase) {
      case 0: case 1: case 3: ++w.phase; break;
      case 2:
        if (++w.sub == 4) {
          w.sub = 0;
          w.phase = 3;
        }
        break;
      case 4: case 8:
        w.phase = w.phase == 4 ? 5 : 9;
        w.kk = 0;
        w.sub = 0;
        break;
      case 5: case 6:
        if (++w.sub == 2) {
          w.sub = 0;
          w.phase = w.phase == 5 && BK > 1 ? 6 : 7;  // after step 0's operands, step 1's
        }
        break;
      case 7:
        if (++w.sub == kStepFmas) {
          w.sub = 0;
          ++w.kk;
          // the next step's operands were loaded before this one's FFMAs, except for the last
          w.phase = w.kk == BK ? 8 : (w.kk + 1 < BK ? 6 : 7);
        }
        break;
      case 9:
        if (++w.sub == 2) {
          w.sub = 0;
          ++w.iter;
          w.phase = w.iter < s.ntiles ? 0 : 10;
        }
        break;
      default: break;
    }
  }

  static void global_sectors(const GpuSetup& s, const Warp& w, const Instr& in, SectorList& out) {
    const std::uint64_t K = s.k, N = s.n;
    const std::uint64_t t0 = static_cast<std::uint64_t>(w.iter) * BK;
    const std::uint64_t row0 = static_cast<std::uint64_t>(w.by) * BM, col0 = static_cast<std::uint64_t>(w.bx) * BN;
    if (in.op == Op::ldg_a) {
      // lanes 4r..4r+3 read row r of the tile: 16 consecutive floats
      for (int r = w.wib * 8; r < w.wib * 8 + 8; ++r) {
        const std::uint64_t row = row0 + r, k1 = std::min<std::uint64_t>(t0 + BK, K);
        if (row >= static_cast<std::uint64_t>(s.m) || t0 >= k1) continue;
        out.add(s.base_a + (row * K + t0) * 4, s.base_a + (row * K + k1) * 4);
      }
    } else if (in.op == Op::ldg_b) {
      // lanes 16p..16p+15 read row p of the tile: 64 consecutive floats
      for (int p = w.wib * 2; p < w.wib * 2 + 2; ++p) {
        const std::uint64_t kr = t0 + p, c1 = std::min<std::uint64_t>(col0 + BN, N);
        if (kr >= K || col0 >= c1) continue;
        out.add(s.base_b + (kr * N + col0) * 4, s.base_b + (kr * N + c1) * 4);
      }
    } else {  // stg: rows 4ty + i, columns 4tx0 .. 4tx1 of the warp's lanes
      for (const Segment& g : s.segs[w.wib])
        for (int i = 0; i < TM; ++i) {
          const std::uint64_t row = row0 + TM * g.ty + i;
          const std::uint64_t c0 = col0 + TN * g.tx0, c1 = std::min<std::uint64_t>(col0 + TN * g.tx1, N);
          if (row >= static_cast<std::uint64_t>(s.m) || c0 >= c1) continue;
          out.add(s.base_c + (row * N + c0) * 4, s.base_c + (row * N + c1) * 4);
        }
    }
  }

  // Each STS copies its own values: sts_a sub i the lanes' a4[i], sts_b the lanes' b4.
  static void shared_store(const GpuSetup& s, const Warp& w, const Instr& in, float* smem) {
    const int t0 = w.iter * BK;
    for (int lane = 0; lane < 32; ++lane) {
      const int lid = w.wib * 32 + lane;
      if (in.op == Op::sts_a) {
        const int r = lid / 4, q = 4 * (lid % 4) + w.sub;
        const int row = w.by * BM + r, kc = t0 + q;
        smem[q * kAStride + r] = a_or_zero(s, row, kc);
      } else {
        const int p = lid / 16, c = 4 * (lid % 16);
        const int kr = t0 + p;
        for (int j = 0; j < 4; ++j) {
          const int col = w.bx * BN + c + j;
          smem[kAsFloats + p * BN + c + j] = b_or_zero(s, kr, col);
        }
      }
    }
  }

  // Every thread's stores of tile t (shared_store over all lanes and all four A stores); As's
  // padding is never written, so it stays zero.
  static void smem_tile(const GpuSetup& s, int bx, int by, int t, float* smem) {
    const int t0 = t * BK;
    std::fill_n(smem, kAsFloats + kBsFloats, 0.0f);
    for (int q = 0; q < BK; ++q) {
      const int kc = t0 + q;
      for (int r = 0; r < BM; ++r) {
        const int row = by * BM + r;
        smem[q * kAStride + r] = a_or_zero(s, row, kc);
      }
      for (int c = 0; c < BN; ++c) {
        const int col = bx * BN + c;
        smem[kAsFloats + q * BN + c] = b_or_zero(s, kc, col);
      }
    }
  }

  // FFMAs of the tile issued: 16 per step before the counter's.
  static int fmas_batched(const Warp& w) {
    if (w.phase == 6) return w.kk * kStepFmas;
    if (w.phase == 7) return w.kk * kStepFmas + w.sub;
    return 0;
  }

  // FFMA f of the tile: step p = f / 16, cell (i, j) = (f % 16 / 4, f % 4) of every lane.
  static void fma_batch(const GpuSetup&, const Warp& w, const float* smem, int from, int upto, float* acc) {
    const float* as = smem;
    const float* bs = smem + kAsFloats;
    for (int lane = 0; lane < 32; ++lane) {
      const int lid = w.wib * 32 + lane;
      const int ty = lid / kSide, tx = lid % kSide;
      float* a = acc + lane * kStepFmas;
      int f = from;
      while (f < upto) {
        const int p = f / kStepFmas, c = f % kStepFmas;
        const float* av = as + p * kAStride + TM * ty;
        const float* bv = bs + p * BN + TN * tx;
        if (c == 0 && f + kStepFmas <= upto) {  // a whole step: four rows of four
          for (int i = 0; i < TM; ++i) fma_row(av[i], bv, a + i * TN, TN);
          f += kStepFmas;
        } else {
          fma_row(av[c / TN], bv + c % TN, a + c, 1);
          ++f;
        }
      }
    }
  }

  template <class F>  // f(cell, accumulator index in the warp)
  static void for_each_cell(const GpuSetup& s, const Warp& w, F&& f) {
    for (const Segment& g : s.segs[w.wib])
      for (int tx = g.tx0; tx < g.tx1; ++tx) {
        const int lane = g.lane0 + tx - g.tx0;
        for (int i = 0; i < TM; ++i) {
          const int row = w.by * BM + TM * g.ty + i;
          if (row >= s.m) break;
          for (int j = 0; j < TN; ++j) {
            const int col = w.bx * BN + TN * tx + j;
            if (col >= s.n) break;
            f(static_cast<std::size_t>(row) * s.n + col, lane * kStepFmas + i * TN + j);
          }
        }
      }
  }
};

}  // namespace

extern const KernelOps regblock_kernel;
constinit const KernelOps regblock_kernel = make_kernel_ops<RegblockProgram>();

}  // namespace ws::sim::detail
