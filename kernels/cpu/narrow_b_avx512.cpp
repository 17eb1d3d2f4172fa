// The narrow-B kernels (narrow_b.hpp) on AVX-512. This one file is compiled with -mavx512f -mfma
// (kernels/CMakeLists.txt); the spec in microkernel_dispatch.cpp hands it out only where CPUID
// and XGETBV say the CPU and the OS support it.

#include <immintrin.h>

#include "cpu/narrow_b.hpp"

namespace ws::kernels::cpu {

namespace {

struct Zmm {
  using reg = __m512;
  static constexpr int width = 16;
  static constexpr int registers = 32;
  static reg zero() { return _mm512_setzero_ps(); }
  static reg loadu(const float* p) { return _mm512_loadu_ps(p); }
  static void storeu(float* p, reg r) { _mm512_storeu_ps(p, r); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  static reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  using mask = __mmask16;
  static mask first(int n) { return static_cast<mask>((1u << n) - 1); }  // n <= 16
  static reg load_first(const float* p, mask m) { return _mm512_maskz_loadu_ps(m, p); }
  static void store_first(float* p, reg r, mask m) { _mm512_mask_storeu_ps(p, m, r); }
  struct half {
    using reg = __m256;
    using mask = __mmask8;
    static constexpr int width = 8;
    // The lower lanes by GCC's generic shuffle: GCC 12's _mm512_castps512_ps256 reads an undefined
    // vector (-Wmaybe-uninitialized), as its reductions do (total, below).
    static reg of(__m512 x) { return __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7); }
    static reg zero() { return _mm256_setzero_ps(); }
    static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
    static mask first(int n) { return static_cast<mask>((1u << n) - 1); }  // n <= 8
    static reg load_first(const float* p, mask m) { return _mm256_maskz_loadu_ps(m, p); }
    static void store_first(float* p, reg r, mask m) { _mm256_mask_storeu_ps(p, m, r); }
  };
  // Halves folded with GCC's generic shuffle rather than _mm512_reduce_add_ps or the shuffle
  // intrinsics, whose GCC 12 headers read an undefined vector (-Wuninitialized).
  static float total(reg r) {
    using lanes = int __attribute__((vector_size(64)));
    r += __builtin_shuffle(r, lanes{8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7});
    r += __builtin_shuffle(r, lanes{4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11});
    r += __builtin_shuffle(r, lanes{2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13});
    r += __builtin_shuffle(r, lanes{1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14});
    return r[0];
  }
};

}  // namespace

void row_dots_avx512(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                   bool accumulate) {
  row_dots<Zmm>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
}

void row_broadcasts_avx512(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c,
                         long ldc, bool accumulate) {
  row_broadcasts<Zmm>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

}  // namespace ws::kernels::cpu
