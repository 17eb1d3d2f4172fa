// Packing for cpu-parallel (packing.hpp).

#include "cpu/packing.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {

namespace {

// The first depth steps of one full MR-row tile of A, 4 at a time, transposed in SSE registers
// (4 rows by a 4x4 transpose, a last pair of rows by interleaving); returns how many it packed.
// Four floats per load and store instead of one; at 1024^3 on one Zen 3 core A packing is a small
// share of the run either way (perf: about 2 % scalar, 1.7 % this way).
template <int MR>
int pack_a_full_tile_sse([[maybe_unused]] const float* a, [[maybe_unused]] long lda,
                         [[maybe_unused]] int kc, [[maybe_unused]] float* out) {
#if defined(__SSE2__)
  if constexpr (MR % 4 == 0 || MR % 4 == 2) {
    int p = 0;
    for (; p + 4 <= kc; p += 4) {
      float* o = out + p * MR;
      int r = 0;
      for (; r + 4 <= MR; r += 4) {
        __m128 x0 = _mm_loadu_ps(a + r * lda + p), x1 = _mm_loadu_ps(a + (r + 1) * lda + p);
        __m128 x2 = _mm_loadu_ps(a + (r + 2) * lda + p), x3 = _mm_loadu_ps(a + (r + 3) * lda + p);
        _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
        _mm_storeu_ps(o + r, x0);
        _mm_storeu_ps(o + MR + r, x1);
        _mm_storeu_ps(o + 2 * MR + r, x2);
        _mm_storeu_ps(o + 3 * MR + r, x3);
      }
      if constexpr (MR % 4 == 2) {
        const __m128 y0 = _mm_loadu_ps(a + r * lda + p), y1 = _mm_loadu_ps(a + (r + 1) * lda + p);
        const __m128 lo = _mm_unpacklo_ps(y0, y1), hi = _mm_unpackhi_ps(y0, y1);
        _mm_storel_pi(reinterpret_cast<__m64*>(o + r), lo);
        _mm_storeh_pi(reinterpret_cast<__m64*>(o + MR + r), lo);
        _mm_storel_pi(reinterpret_cast<__m64*>(o + 2 * MR + r), hi);
        _mm_storeh_pi(reinterpret_cast<__m64*>(o + 3 * MR + r), hi);
      }
    }
    return p;
  }
#endif
  return 0;
}

// A block (mc x kc, row stride lda) -> ceil(mc/MR) micro-panels, each kc steps of MR values.
// MR as a template parameter lets the compiler unroll the row loop for each tile height.
template <int MR>
void pack_a_tiles(const float* a, long lda, int mc, int kc, float* out) {
  for (int i0 = 0; i0 < mc; i0 += MR) {
    const int rows = std::min(MR, mc - i0);
    if (rows == MR) {
      int p = pack_a_full_tile_sse<MR>(a + static_cast<long>(i0) * lda, lda, kc, out);
      for (; p < kc; ++p)
        for (int r = 0; r < MR; ++r) out[p * MR + r] = a[(i0 + r) * lda + p];
    } else {
      for (int p = 0; p < kc; ++p) {
        int r = 0;
        for (; r < rows; ++r) out[p * MR + r] = a[(i0 + r) * lda + p];
        for (; r < MR; ++r) out[p * MR + r] = 0.0f;
      }
    }
    out += static_cast<long>(kc) * MR;
  }
}


// Rows [row_begin, row_end) of the B column panel (nc columns from b, row stride ldb) into their
// places in the packed panel (layout in packing.hpp). Row by row rather than micro-panel
// by micro-panel: the source is read in order, each row once, instead of a 64-byte piece from every
// row at a stride of ldb, which at N = 1024 maps every piece to the same few cache sets and, where
// the rows are not 64-byte aligned, touches two lines for each piece.
template <int NR>
void pack_b_rows_tiled(const float* b, long ldb, int row_begin, int row_end, int k, int kc_max, int nc,
                       float* bpack) {
  const int panels = (nc + NR - 1) / NR, full = nc / NR, tail = nc - full * NR;
  for (int p = row_begin; p < row_end; ++p) {
    const int pc = p / kc_max * kc_max, kc = std::min(kc_max, k - pc);
    const float* src = b + p * ldb;
    float* out = bpack + static_cast<long>(pc) * panels * NR + static_cast<long>(p - pc) * NR;
    const long panel_stride = static_cast<long>(kc) * NR;
    for (int q = 0; q < full; ++q) std::memcpy(out + q * panel_stride, src + q * NR, NR * sizeof(float));
    if (tail > 0) {
      float* last = out + full * panel_stride;
      std::memcpy(last, src + full * NR, tail * sizeof(float));
      std::fill(last + tail, last + NR, 0.0f);
    }
  }
}


}  // namespace

void pack_a(int mr, const float* a, long lda, int mc, int kc, float* out) {
  if (mr == kMR512) return pack_a_tiles<kMR512>(a, lda, mc, kc, out);
  if (mr == kMR) return pack_a_tiles<kMR>(a, lda, mc, kc, out);
  throw std::logic_error("no A packing for this micro-kernel height");
}

void pack_b_rows(int nr, const float* b, long ldb, int row_begin, int row_end, int k, int kc_max, int nc,
                 float* bpack) {
  if (nr == kNR512) return pack_b_rows_tiled<kNR512>(b, ldb, row_begin, row_end, k, kc_max, nc, bpack);
  if (nr == kNR) return pack_b_rows_tiled<kNR>(b, ldb, row_begin, row_end, k, kc_max, nc, bpack);
  throw std::logic_error("no B packing for this micro-kernel width");
}

}  // namespace ws::kernels::cpu
