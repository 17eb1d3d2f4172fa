// AVX-512 14x32 micro-kernel. This one file is compiled with -mavx512f -mfma (kernels/CMakeLists.txt)
// so the rest of the program still runs on any x86-64; active_microkernel() picks it only after
// CPUID and XGETBV say the CPU and the OS support it. The tile logic is microkernel_tile.hpp's,
// tested on plain arrays where AVX-512 cannot run.

#include <immintrin.h>

#include "cpu/microkernel.hpp"
#include "cpu/microkernel_tile.hpp"

namespace ws::kernels::cpu {

namespace {

struct Zmm {
  using reg = __m512;
  static constexpr int width = 16;
  static reg zero() { return _mm512_setzero_ps(); }
  static reg load(const float* p) { return _mm512_load_ps(p); }
  static reg loadu(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, reg r) { _mm512_store_ps(p, r); }
  static void storeu(float* p, reg r) { _mm512_storeu_ps(p, r); }
  static reg broadcast(const float* p) { return _mm512_set1_ps(*p); }
  static reg fma(reg a, reg b, reg c) { return _mm512_fmadd_ps(a, b, c); }
  static reg add(reg a, reg b) { return _mm512_add_ps(a, b); }
};

}  // namespace

void microkernel_avx512(int kc, const float* a, const float* b, float* c, long ldc, int mr, int nr,
                        bool accumulate) {
  // C is revisited once per KC block, so it comes from far away: start fetching its rows (two
  // lines each, 32 floats) before the depth loop so the stores after it do not stall.
  for (int i = 0; i < mr; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + kNR512 - 1), _MM_HINT_T0);
  }
  if (mr == kMR512)  // nearly every call: straight to the whole tile
    tile_microkernel<Zmm, kMR512, kNR512>(kc, a, b, c, ldc, mr, nr, accumulate);
  else
    tile_microkernel_rows<Zmm, kMR512, kNR512>(kc, a, b, c, ldc, mr, nr, accumulate);
}

}  // namespace ws::kernels::cpu
