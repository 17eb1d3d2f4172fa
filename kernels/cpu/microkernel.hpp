// The register-blocked inner kernel of cpu-parallel and its packed-panel layout, shared by the
// portable version (parallel.cpp) and the AVX2+FMA one (microkernel_avx2.cpp).
#pragma once

namespace ws::kernels::cpu {

// A 6x16 tile of C lives in 12 AVX registers (6 rows x two 8-wide vectors); with two registers for
// the B row and one for the broadcast A value that is 15 of the 16 ymm registers.
inline constexpr int kMR = 6;
inline constexpr int kNR = 16;

// Computes the MR x NR product of a packed A micro-panel (kc steps of MR values) and a packed B
// micro-panel (kc steps of NR values), then writes its top-left mr x nr corner into C (row
// stride ldc): C = tile when !accumulate (C may hold NaN poison), C += tile otherwise.
using MicroKernel = void (*)(int kc, const float* a, const float* b, float* c, long ldc, int mr,
                             int nr, bool accumulate);

void microkernel_portable(int kc, const float* a, const float* b, float* c, long ldc, int mr,
                          int nr, bool accumulate);
// Only call when __builtin_cpu_supports("avx2") and ("fma") hold.
void microkernel_avx2(int kc, const float* a, const float* b, float* c, long ldc, int mr, int nr,
                      bool accumulate);

}  // namespace ws::kernels::cpu
