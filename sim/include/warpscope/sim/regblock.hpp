// The parameters of the register-blocked kernel, one definition for the simulator's model
// (sim/src/kernels/regblock.cpp) and the real gl-regblock kernel (shaders/gemm_regblock.comp,
// whose BM, BN, BK and local_size must be these numbers: tests/sim/regblock_test.cpp reads the
// shader and checks them). docs/SIMULATION.md and the shader's header name this file.
#pragma once

namespace ws::sim {

struct RegblockParams {
  int bm, bn, bk;            // a block computes a bm x bn tile of C from bk-deep tiles of A and B
  int tm, tn;                // each thread a tm x tn block of C in registers
  int threads_x, threads_y;  // block of threads: bn / tn x bm / tm
  int regs;                  // registers per thread (what ptxas would report; sets occupancy)
};

inline constexpr RegblockParams kRegblock{64, 64, 16, 4, 4, 16, 16, 64};

}  // namespace ws::sim
