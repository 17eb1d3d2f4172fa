// The tensor kernel: warp-level MMA on the tensor cores, BF16 inputs with FP32 accumulation, the
// shape of an mma.sync kernel on Ampere and Hopper (the PTX ISA's m16n8k16 fragments, operands
// brought from shared memory by ldmatrix). A 16x16-thread block (8 warps) computes a 64x64 tile of
// C from BK = 32-deep tiles of A and B held in shared memory as BF16; the warps stand 2 x 4 and
// each owns a 32x16 piece of the tile: 2 x 2 MMA tiles of 16x8, 16 accumulators per lane.
//   for (t = 0; t < k; t += BK) {
//     a8 = A[row0 + lid/4][t + 8(lid%4) ..+7]         phase 0: LDG.128 (eight BF16 of A)
//     b8 = B[t + lid/8][col0 + 8(lid%8) ..+7]         phase 1: LDG.128 (eight BF16 of B)
//     As[lid/4][8(lid%4) ..+7] = a8                   phase 2: STS.128 (rows padded to 40 BF16)
//     Bs[lid/8][8(lid%8) ..+7] = b8                   phase 3: STS.128 (rows padded to 72 BF16)
//     __syncthreads()                                 phase 4: BAR
//     for (s = 0; s < BK / 16; ++s) {                 (unrolled; the next step's fragments are
//       a = ldmatrix.x4(As, fragments 0, 1 of A)       loaded before this step's MMAs)
//       b = ldmatrix.x4.trans(Bs, both n8 fragments)  phase 5 (s = 0) / 6 (s + 1): 3 x LDS
//       for (f = 0; f < 4; ++f) mma.m16n8k16(c[f], a[f/2], b[f%2])   phase 7: 4 x MMA
//     }
//     __syncthreads()                                 phase 8: BAR
//     (tile increment; compare and branch)            phase 9: two ALU
//   }
//   C = c (fp32)                                      phase 10: STG (the eight STG.64 as one)
// The fragment layout is the PTX ISA's for m16n8k16 with an FP32 accumulator: lane l holds, in MMA
// tile f, rows l/4 and l/4 + 8 and columns 2(l%4) and 2(l%4) + 1 of the tile (c0..c3).
// Scoreboard: slots 2(s&1) (both A fragments: the later of the two loads) and 2(s&1) + 1 (B) hold
// step s's operands; the MMA tiles' accumulators chain through slots 4 (tile 0), 5 (tile 1) and
// kAccSlot (tiles 2 and 3, the later of the two): an MMA waits for its own tile's previous result
// (tiles 2 and 3 for both, a few cycles stricter than the hardware). Slots 4 and 5 also take the
// global loads, which the STSs consume before a tile's first MMA, so a chain never reads a load's
// time as a result. The tensor core is a pipe of its own per scheduler (GpuSetup::mma_cost), in
// order, so the warp's last MMA finishes last and STG waits on kAccSlot alone.
// Lanes compute: A and B rounded to BF16 (as they would be stored), products exact in FP32 (8-bit
// significands), summed in FP32 in k order, one rounding per product.
// Registers: 64 per thread (16 accumulators, 12 fragment registers, 8 of loads in flight and the
// addresses and bounds): 4 blocks of 256 threads on a 64K-register SM.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../gpu_engine.hpp"
#include "warpscope/sim/matrices.hpp"

namespace ws::sim::detail {
namespace {

enum Waves { kStsA, kStsB, kLdsA, kLdsB };

constexpr int BM = 64, BN = 64, BK = 32;
constexpr int kSide = 16;                         // block is 16 x 16 threads: 8 warps
constexpr int kWarpsN = 4;                        // warps stand 2 (rows) x 4 (columns)
constexpr int WM = 32, WN = 16;                   // each warp's piece of the block's tile
constexpr int kFragsM = WM / kMmaShape.m, kFragsN = WN / kMmaShape.n;  // MMA tiles of 16x8 in it: 2 x 2
constexpr int kTiles = kFragsM * kFragsN;         // MMAs per k step
constexpr int kSteps = BK / kMmaK;                // k steps per shared tile
constexpr int kAStride = BK + 8;                  // As row in BF16: 32 + 8 of padding (bank spread)
constexpr int kBStride = BN + 8;                  // Bs row in BF16
constexpr int kAsHalves = BM * kAStride;          // 2560 BF16 = 1280 words
constexpr int kBsHalves = BK * kBStride;          // 2304 BF16 = 1152 words
constexpr int kChain[kTiles] = {4, 5, kAccSlot, kAccSlot};
static_assert(kAsHalves % 2 == 0 && kBsHalves % 2 == 0);
static_assert(BM == kSide * 4 && BN == kSide * 4, "the engine's tile of C: block side x cell side");
static_assert((BM / WM) * kWarpsN == kSide * kSide / 32 && BN / WN == kWarpsN);
static_assert(kTiles * 4 == 16, "16 accumulators per lane: kCellSide 4");

std::uint16_t to_bf16_bits(float x) {
  const float r = round_to_bf16(x);
  std::uint32_t u;
  std::memcpy(&u, &r, 4);
  return static_cast<std::uint16_t>(u >> 16);
}

float from_bf16_bits(std::uint16_t h) {
  const std::uint32_t u = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Shared memory holds BF16: two to a word of the block's float array (the engine's unit).
void put_half(float* smem, int half, std::uint16_t v) { std::memcpy(reinterpret_cast<char*>(smem) + 2 * half, &v, 2); }
float get_half(const float* smem, int half) {
  std::uint16_t v;
  std::memcpy(&v, reinterpret_cast<const char*>(smem) + 2 * half, 2);
  return from_bf16_bits(v);
}

struct TensorProgram : ProgramBase {
  static constexpr Kernel kKernel = Kernel::tensor;
  static constexpr const char* kName = "tensor";
  // Each MMA computes 2048 products on the host: 1.3 M instructions/s measured on one idle core of
  // the project machine (h100 1024³), rounded down for a loaded one.
  static constexpr double kInstructionsPerSecond = 1e6;
  static constexpr bool kTensor = true;
  static constexpr int kBlock = kSide;
  static constexpr int kCellSide = 4;
  static constexpr int kRegsPerThread = 64;

  static double warp_instructions(const SimConfig& cfg) {
    // per tile: 2 LDG, 2 STS, 2 BAR, 2 ALU, and per k step 3 LDS and 4 MMA; then STG
    return std::ceil(static_cast<double>(cfg.shape.k) / BK) * (8 + kSteps * (3 + kTiles)) + 1;
  }

  static int smem_floats(const GpuSetup&) { return (kAsHalves + kBsHalves) / 2; }

  static int warp_row(const Warp& w) { return (w.wib / kWarpsN) * WM; }  // in the block's tile
  static int warp_col(const Warp& w) { return (w.wib % kWarpsN) * WN; }

  static void prepare(GpuSetup& s) {
    s.ntiles = (s.k + BK - 1) / BK;
    s.waves.assign(s.wpb, {});
    for (int w = 0; w < s.wpb; ++w) {
      // Word addresses: the bank pattern is the same for every tile and k step.
      std::vector<int> sts_a, sts_b, lds_a, lds_b;
      for (int lane = 0; lane < 32; ++lane) {
        const int lid = w * 32 + lane;
        for (int v = 0; v < 4; ++v) {
          sts_a.push_back(((lid / 4) * kAStride + 8 * (lid % 4)) / 2 + v);
          sts_b.push_back((kAsHalves + (lid / 8) * kBStride + 8 * (lid % 8)) / 2 + v);
        }
      }
      const int r0 = (w / kWarpsN) * WM, c0 = (w % kWarpsN) * WN;
      for (int r = 0; r < 16; ++r)    // ldmatrix.x4 of A: 16 rows, two 16-byte halves of k
        for (int h = 0; h < 2; ++h)
          for (int v = 0; v < 4; ++v) lds_a.push_back(((r0 + r) * kAStride + 8 * h) / 2 + v);
      for (int kr = 0; kr < 16; ++kr)  // ldmatrix.x4.trans of B: 16 k rows of 16 columns
        for (int v = 0; v < 8; ++v) lds_b.push_back((kAsHalves + kr * kBStride + c0) / 2 + v);
      s.waves[w][kStsA] = wavefronts(sts_a);
      s.waves[w][kStsB] = wavefronts(sts_b);
      s.waves[w][kLdsA] = wavefronts(lds_a);
      s.waves[w][kLdsB] = wavefronts(lds_b);
    }
  }

  static bool start(const GpuSetup& s, Warp& w) {
    const int row0 = w.by * BM + warp_row(w), col0 = w.bx * BN + warp_col(w);
    std::uint32_t mask = 0;
    for (int lane = 0; lane < 32; ++lane)  // its first cell is its smallest row and column
      if (row0 + lane / 4 < s.m && col0 + 2 * (lane % 4) < s.n) mask |= 1u << lane;
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
      case 5: case 6: {  // step p's fragments: both A halves into one slot (the later counts), B
        const int p = w.kk + (w.phase == 6 ? 1 : 0);
        in.op = w.sub < 2 ? Op::lds_a : Op::lds_b;
        in.dst = static_cast<std::uint8_t>(2 * (p & 1) + (w.sub < 2 ? 0 : 1));
        in.dst_max = w.sub == 1;
        in.waves = w.sub < 2 ? kLdsA : kLdsB;
        break;
      }
      case 7: {
        const int f = w.sub, p = w.kk;
        in.op = Op::mma;
        reads(in, 2 * (p & 1), WaitReason::shared_memory);
        reads(in, 2 * (p & 1) + 1, WaitReason::shared_memory);
        reads(in, kChain[f], WaitReason::tensor_core);
        in.dst = static_cast<std::uint8_t>(kChain[f]);
        in.dst_max = true;
        in.counts_k = f == 0 && w.iter * BK + p * kMmaK < s.k;
        break;
      }
      case 9: in.op = Op::alu; break;
      default:
        in.op = Op::stg;
        reads(in, kAccSlot, WaitReason::tensor_core);
        break;
    }
    return in;
  }

  static void advance(const GpuSetup& s, Warp& w) {
    switch (w.phase) {
      case 0: case 1: case 2: case 3: ++w.phase; break;
      case 4: case 8:
        w.phase = w.phase == 4 ? 5 : 9;
        w.kk = 0;
        w.sub = 0;
        break;
      case 5: case 6:
        if (++w.sub == 3) {
          w.sub = 0;
          w.phase = w.phase == 5 && kSteps > 1 ? 6 : 7;  // after step 0's fragments, step 1's
        }
        break;
      case 7:
        if (++w.sub == kTiles) {
          w.sub = 0;
          ++w.kk;
          // the next step's fragments were loaded before this one's MMAs, except for the last
          w.phase = w.kk == kSteps ? 8 : (w.kk + 1 < kSteps ? 6 : 7);
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
    const std::uint64_t K = s.k, N = s.n, M = s.m;
    const std::uint64_t t0 = static_cast<std::uint64_t>(w.iter) * BK;
    const std::uint64_t row0 = static_cast<std::uint64_t>(w.by) * BM, col0 = static_cast<std::uint64_t>(w.bx) * BN;
    if (in.op == Op::ldg_a) {  // BF16: lanes 4r..4r+3 read row r of the tile, 64 bytes
      const std::uint64_t k1 = std::min<std::uint64_t>(t0 + BK, K);
      for (int r = w.wib * 8; r < w.wib * 8 + 8; ++r) {
        const std::uint64_t row = row0 + r;
        if (row >= M || t0 >= k1) continue;
        out.add(s.base_a + (row * K + t0) * 2, s.base_a + (row * K + k1) * 2);
      }
    } else if (in.op == Op::ldg_b) {  // BF16: lanes 8p..8p+7 read row p of the tile, 128 bytes
      const std::uint64_t c1 = std::min<std::uint64_t>(col0 + BN, N);
      for (int p = w.wib * 4; p < w.wib * 4 + 4; ++p) {
        const std::uint64_t kr = t0 + p;
        if (kr >= K || col0 >= c1) continue;
        out.add(s.base_b + (kr * N + col0) * 2, s.base_b + (kr * N + c1) * 2);
      }
    } else {  // stg, FP32: the warp's 32 rows of 16 columns
      const std::uint64_t r0 = row0 + warp_row(w), c0 = col0 + warp_col(w);
      const std::uint64_t c1 = std::min<std::uint64_t>(c0 + WN, N);
      for (std::uint64_t row = r0; row < std::min<std::uint64_t>(r0 + WM, M); ++row)
        if (c0 < c1) out.add(s.base_c + (row * N + c0) * 4, s.base_c + (row * N + c1) * 4);
    }
  }

  static void shared_store(const GpuSetup& s, const Warp& w, const Instr& in, float* smem) {
    const int t0 = w.iter * BK;
    for (int lane = 0; lane < 32; ++lane) {
      const int lid = w.wib * 32 + lane;
      if (in.op == Op::sts_a) {
        const int r = lid / 4, q = 8 * (lid % 4), row = w.by * BM + r;
        for (int v = 0; v < 8; ++v) {
          const int kc = t0 + q + v;
          const float x = a_or_zero(s, row, kc);
          put_half(smem, r * kAStride + q + v, to_bf16_bits(x));
        }
      } else {
        const int p = lid / 8, c = 8 * (lid % 8), kr = t0 + p;
        for (int v = 0; v < 8; ++v) {
          const int col = w.bx * BN + c + v;
          const float x = b_or_zero(s, kr, col);
          put_half(smem, kAsHalves + p * kBStride + c + v, to_bf16_bits(x));
        }
      }
    }
  }

  // MMA tile f of k step kk: C[16x8] += A[16x16] B[16x8], each lane's c0..c3 in its accumulators
  // 4f..4f+3. Products of BF16 values are exact in FP32, so a plain multiply-add rounds once.
  static void mma(const GpuSetup&, const Warp& w, const Instr&, const float* smem, float* acc) {
    const int f = w.sub, fm = f / kFragsN, fn = f % kFragsN;
    const int r0 = warp_row(w) + 16 * fm, c0 = warp_col(w) + 8 * fn, k0 = w.kk * kMmaK;
    float a[16][kMmaK], b[kMmaK][8];
    for (int r = 0; r < 16; ++r)
      for (int kk = 0; kk < kMmaK; ++kk) a[r][kk] = get_half(smem, (r0 + r) * kAStride + k0 + kk);
    for (int kk = 0; kk < kMmaK; ++kk)
      for (int c = 0; c < 8; ++c) b[kk][c] = get_half(smem, kAsHalves + (k0 + kk) * kBStride + c0 + c);
    // The tile gathered from the lanes, so that the k loop runs along rows of eight (vectorized;
    // each cell still sums its products in k order).
    float c[16][8];
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 4; ++i) c[lane / 4 + 8 * (i / 2)][2 * (lane % 4) + i % 2] = acc[lane * 16 + 4 * f + i];
    for (int r = 0; r < 16; ++r)
      for (int kk = 0; kk < kMmaK; ++kk) {
        const float x = a[r][kk];
        for (int col = 0; col < 8; ++col) c[r][col] += x * b[kk][col];
      }
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 4; ++i) acc[lane * 16 + 4 * f + i] = c[lane / 4 + 8 * (i / 2)][2 * (lane % 4) + i % 2];
  }

  template <class F>  // f(cell, accumulator index in the warp)
  static void for_each_cell(const GpuSetup& s, const Warp& w, F&& f) {
    const int row0 = w.by * BM + warp_row(w), col0 = w.bx * BN + warp_col(w);
    for (int lane = 0; lane < 32; ++lane)
      for (int t = 0; t < kTiles; ++t)
        for (int i = 0; i < 4; ++i) {
          const int row = row0 + 16 * (t / kFragsN) + lane / 4 + 8 * (i / 2);
          const int col = col0 + 8 * (t % kFragsN) + 2 * (lane % 4) + i % 2;
          if (row < s.m && col < s.n) f(static_cast<std::size_t>(row) * s.n + col, lane * 16 + 4 * t + i);
        }
  }
};

}  // namespace

extern const KernelOps tensor_kernel;
constinit const KernelOps tensor_kernel = make_kernel_ops<TensorProgram>();

}  // namespace ws::sim::detail
