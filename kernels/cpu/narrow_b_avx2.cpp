// The narrow-B kernels (narrow_b.hpp) on AVX2 with FMA. This one file is compiled with -mavx2 -mfma
// (kernels/CMakeLists.txt); the spec in microkernel_dispatch.cpp hands it out only where the CPU
// has both.

#include <immintrin.h>

#include "cpu/narrow_b.hpp"

namespace ws::kernels::cpu {

namespace {

struct Ymm {
  using reg = __m256;
  static constexpr int width = 8;
  static constexpr int registers = 16;
  static reg zero() { return _mm256_setzero_ps(); }
  static reg loadu(const float* p) { return _mm256_loadu_ps(p); }
  static void storeu(float* p, reg r) { _mm256_storeu_ps(p, r); }
  static reg fma(reg a, reg b, reg c) { return _mm256_fmadd_ps(a, b, c); }
  static reg broadcast(const float* p) { return _mm256_broadcast_ss(p); }
  using mask = __m256i;
  static mask first(int n) { return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)); }
  static reg load_first(const float* p, mask m) { return _mm256_maskload_ps(p, m); }
  static void store_first(float* p, reg r, mask m) { _mm256_maskstore_ps(p, m, r); }
  static float total(reg r) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
};

}  // namespace

void row_dots_avx2(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                   bool accumulate) {
  row_dots<Ymm>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
}

void row_broadcasts_avx2(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c,
                         long ldc, bool accumulate) {
  row_broadcasts<Ymm>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

}  // namespace ws::kernels::cpu
