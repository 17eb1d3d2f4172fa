// AVX2+FMA 6x16 micro-kernel. Compiled for AVX2 through a target attribute rather than a global
// -march flag, so the rest of the program still runs on any x86-64; microkernel_dispatch.cpp
// picks this only after checking the CPU at run time.

#include <immintrin.h>

#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {

__attribute__((target("avx2,fma"))) void microkernel_avx2(int kc, const float* a, const float* b,
                                                          float* c, long ldc, int mr, int nr,
                                                          bool accumulate) {
  // C comes from far away (it is revisited once per KC block); start fetching its rows now so the
  // loads and stores after the loop do not stall. 16 floats may straddle two cache lines.
  for (int i = 0; i < mr; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + kNR - 1), _MM_HINT_T0);
  }
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
  __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
  __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
  __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();

  // Unrolled so the loop overhead and address arithmetic hide behind the 12 independent FMAs.
#pragma GCC unroll 4
  for (int p = 0; p < kc; ++p) {
    const __m256 b0 = _mm256_load_ps(b);
    const __m256 b1 = _mm256_load_ps(b + 8);
    __m256 av;
    av = _mm256_broadcast_ss(a + 0); c00 = _mm256_fmadd_ps(av, b0, c00); c01 = _mm256_fmadd_ps(av, b1, c01);
    av = _mm256_broadcast_ss(a + 1); c10 = _mm256_fmadd_ps(av, b0, c10); c11 = _mm256_fmadd_ps(av, b1, c11);
    av = _mm256_broadcast_ss(a + 2); c20 = _mm256_fmadd_ps(av, b0, c20); c21 = _mm256_fmadd_ps(av, b1, c21);
    av = _mm256_broadcast_ss(a + 3); c30 = _mm256_fmadd_ps(av, b0, c30); c31 = _mm256_fmadd_ps(av, b1, c31);
    av = _mm256_broadcast_ss(a + 4); c40 = _mm256_fmadd_ps(av, b0, c40); c41 = _mm256_fmadd_ps(av, b1, c41);
    av = _mm256_broadcast_ss(a + 5); c50 = _mm256_fmadd_ps(av, b0, c50); c51 = _mm256_fmadd_ps(av, b1, c51);
    a += kMR;
    b += kNR;
  }

  const __m256 rows[kMR][2] = {{c00, c01}, {c10, c11}, {c20, c21},
                               {c30, c31}, {c40, c41}, {c50, c51}};
  if (mr == kMR && nr == kNR) {
    for (int i = 0; i < kMR; ++i) {
      float* ci = c + i * ldc;
      __m256 lo = rows[i][0], hi = rows[i][1];
      if (accumulate) {
        lo = _mm256_add_ps(lo, _mm256_loadu_ps(ci));
        hi = _mm256_add_ps(hi, _mm256_loadu_ps(ci + 8));
      }
      _mm256_storeu_ps(ci, lo);
      _mm256_storeu_ps(ci + 8, hi);
    }
    return;
  }
  // Edge tile: the packed panels are zero-padded, so the full tile is valid; only its in-bounds
  // corner may touch C.
  alignas(32) float tile[kMR][kNR];
  for (int i = 0; i < kMR; ++i) {
    _mm256_store_ps(&tile[i][0], rows[i][0]);
    _mm256_store_ps(&tile[i][8], rows[i][1]);
  }
  for (int i = 0; i < mr; ++i) {
    float* ci = c + i * ldc;
    for (int j = 0; j < nr; ++j) ci[j] = accumulate ? ci[j] + tile[i][j] : tile[i][j];
  }
}

}  // namespace ws::kernels::cpu
