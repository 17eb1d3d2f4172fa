// The index maths of the blocked CUDA kernels, one definition for the device code (regblock.cu,
// warptiled.cu) and for the CPU emulation in tests/kernels/cuda_plan_test.cpp, which runs every
// block and thread of a launch on the host and checks that each cell of C is computed exactly once
// and equals the fp64 reference. Plain C++17 so that nvcc and the host compiler both read it.
#pragma once

#if defined(__CUDACC__)
#define WS_HOST_DEVICE __host__ __device__
#else
#define WS_HOST_DEVICE
#endif

namespace ws::kernels::cuda {

// cuda-regblock: the simulator's `regblock` model and gl-regblock use the same numbers, defined
// once in sim/include/warpscope/sim/regblock.hpp (kRegblock). kernels/ may not include sim/, so
// tests/kernels/cuda_plan_test.cpp compares these with kRegblock, as tests/sim/regblock_test.cpp
// does for the shader.
struct RegblockLayout {
  static constexpr int kBM = 64, kBN = 64, kBK = 16;  // tile of C per block, depth of a step
  static constexpr int kTM = 4, kTN = 4;              // cells of C per thread
  static constexpr int kThreadsX = kBN / kTN, kThreadsY = kBM / kTM;  // 16 x 16
  static constexpr int kThreads = kThreadsX * kThreadsY;
  static constexpr int kRegs = 64;                    // kRegblock.regs: what the model assumes

  // Thread (tx, ty) of block (bx, by) owns C[row(by, ty, i)][col(bx, tx, j)], i < kTM, j < kTN.
  WS_HOST_DEVICE static constexpr int row(int by, int ty, int i) { return by * kBM + ty * kTM + i; }
  WS_HOST_DEVICE static constexpr int col(int bx, int tx, int j) { return bx * kBN + tx * kTN + j; }
  // Loading a step's A tile (kBM x kBK) as float4: thread tid loads row a_row(tid), columns
  // a_col4(tid)..+3; scalar loading: element e of thread tid is (tid + e * kThreads) in row-major.
  WS_HOST_DEVICE static constexpr int a_row4(int tid) { return tid / (kBK / 4); }
  WS_HOST_DEVICE static constexpr int a_col4(int tid) { return (tid % (kBK / 4)) * 4; }
  WS_HOST_DEVICE static constexpr int b_row4(int tid) { return tid / (kBN / 4); }
  WS_HOST_DEVICE static constexpr int b_col4(int tid) { return (tid % (kBN / 4)) * 4; }
};

// cuda-warptiled: a block of 8 warps computes a 128 x 256 tile of C; the warps sit 2 x 4, each
// owning 64 x 64; inside a warp the 32 lanes sit 8 x 4 and sweep the warp tile in 2 x 4 steps of
// 32 x 16, each lane a 4 x 4 block per step (128 accumulators). A warp's lanes then read 8 distinct
// float4 of A and 4 of B from shared memory per k step (broadcasts), the arrangement of siboehm's
// kernel 10. Measured on an H200 (docs/PERFORMANCE.md), 128 x 256 beat 128 x 128 (0.93x against
// 0.82x cuBLAS, both double-buffered) and 256 x 128 (0.91x).
struct WarptiledLayout {
  static constexpr int kBM = 128, kBN = 256, kBK = 16;
  static constexpr int kWarpsY = 2, kWarpsX = 4;
  static constexpr int kWM = kBM / kWarpsY, kWN = kBN / kWarpsX;  // 64 x 64 per warp
  static constexpr int kLanesY = 8, kLanesX = 4;
  static constexpr int kTM = 4, kTN = 4;
  static constexpr int kIterM = kWM / (kLanesY * kTM), kIterN = kWN / (kLanesX * kTN);  // 2 x 4
  static constexpr int kSubM = kWM / kIterM, kSubN = kWN / kIterN;                        // 32 x 16
  static constexpr int kThreads = 32 * kWarpsY * kWarpsX;                                  // 256

  WS_HOST_DEVICE static constexpr int warp_y(int tid) { return (tid / 32) / kWarpsX; }
  WS_HOST_DEVICE static constexpr int warp_x(int tid) { return (tid / 32) % kWarpsX; }
  WS_HOST_DEVICE static constexpr int lane_y(int tid) { return (tid % 32) / kLanesX; }
  WS_HOST_DEVICE static constexpr int lane_x(int tid) { return (tid % 32) % kLanesX; }
  // Row of C, within the block's tile, of the lane's cell i (< kTM) in sub-step im (< kIterM).
  WS_HOST_DEVICE static constexpr int tile_row(int tid, int im, int i) {
    return warp_y(tid) * kWM + im * kSubM + lane_y(tid) * kTM + i;
  }
  WS_HOST_DEVICE static constexpr int tile_col(int tid, int in, int j) {
    return warp_x(tid) * kWN + in * kSubN + lane_x(tid) * kTN + j;
  }
  // float4 loads of a step: A tile kBM x kBK (2 per thread), B tile kBK x kBN (4 per thread).
  static constexpr int kLoadsA = kBM * kBK / 4 / kThreads, kLoadsB = kBK * kBN / 4 / kThreads;
  WS_HOST_DEVICE static constexpr int a_row4(int tid, int l) { return (tid + l * kThreads) / (kBK / 4); }
  WS_HOST_DEVICE static constexpr int a_col4(int tid, int l) { return ((tid + l * kThreads) % (kBK / 4)) * 4; }
  WS_HOST_DEVICE static constexpr int b_row4(int tid, int l) { return (tid + l * kThreads) / (kBN / 4); }
  WS_HOST_DEVICE static constexpr int b_col4(int tid, int l) { return ((tid + l * kThreads) % (kBN / 4)) * 4; }
};

// cuda-tensor: a block of 4 warps computes 128 x 128 of C, each warp 64 x 64 of it as 4 x 8 tiles
// of the m16n8k16 BF16 MMA (128 FP32 accumulators per lane). A and B arrive 32 deep per step
// through a ring of kStages shared-memory stages filled by asynchronous copies, so the copies of
// the next steps overlap the MMAs of this one. Measured on an H200 (docs/PERFORMANCE.md): 4 x 64 x
// 64 beat 8 x 32 x 64 and 8 x 64 x 64 warps, and 4 stages beat 3 by ~1 %.
struct TensorLayout {
  static constexpr int kBM = 128, kBN = 128, kBK = 32;
  static constexpr int kWarpsY = 2, kWarpsX = 2;
  static constexpr int kWM = kBM / kWarpsY, kWN = kBN / kWarpsX;  // 64 x 64
  static constexpr int kMmaM = 16, kMmaN = 8, kMmaK = 16;
  static constexpr int kTilesM = kWM / kMmaM, kTilesN = kWN / kMmaN;  // 4 x 8
  static constexpr int kThreads = 32 * kWarpsY * kWarpsX;              // 128
  static constexpr int kStages = 4;
  // 8 bf16 of padding per shared row: rows 80 and 272 bytes apart put the eight 16-byte rows of
  // each ldmatrix in distinct banks, and keep every row 16-byte aligned for the copies.
  static constexpr int kPad = 8;
  static constexpr int kLdA = kBK + kPad, kLdB = kBN + kPad;
  static constexpr int kStageA = kBM * kLdA, kStageB = kBK * kLdB;  // bf16 elements
  // Dynamic shared memory (above the 48 KiB a static array may take): 75 776 bytes.
  static constexpr int kSharedBytes = kStages * (kStageA + kStageB) * 2;
  WS_HOST_DEVICE static constexpr int warp_y(int tid) { return (tid / 32) / kWarpsX; }
  WS_HOST_DEVICE static constexpr int warp_x(int tid) { return (tid / 32) % kWarpsX; }
};

}  // namespace ws::kernels::cuda
