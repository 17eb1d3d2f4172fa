// The register tile of the vector micro-kernels, written once over a vector type V so that the
// same logic runs as AVX-512 in microkernel_avx512.cpp and on plain float arrays in the tests,
// which is how it is checked on CPUs that cannot execute AVX-512.
//
// V provides: `using reg`, `static constexpr int width`, and static zero(), load(p) (aligned),
// loadu(p), store(p, r) (aligned), storeu(p, r), broadcast(p), fma(a, b, c) = a*b + c, add(a, b).
//
// Deliberately free of std:: calls: this header is compiled with -mavx512f in one file, and an
// out-of-line copy of any inline library function from there could be picked by the linker for
// the whole program and fault on CPUs without AVX-512.
#pragma once

namespace ws::kernels::cpu {

// ROWS: how many of the panel's MR rows are computed (mr <= ROWS); the A micro-panel keeps its
// stride of MR values per depth step. Each row's sums are the same whatever ROWS is.
template <class V, int MR, int NR, int ROWS = MR>
inline void tile_microkernel(int kc, const float* a, const float* b, float* c, long ldc, int mr, int nr,
                             bool accumulate) {
  static_assert(NR % V::width == 0, "the tile is a whole number of vectors wide");
  static_assert(ROWS >= 1 && ROWS <= MR, "computes some of the panel's rows");
  constexpr int kVecs = NR / V::width;
  using reg = typename V::reg;

  reg acc[ROWS][kVecs];
#pragma GCC unroll 32
  for (int i = 0; i < ROWS; ++i) {
#pragma GCC unroll 8
    for (int v = 0; v < kVecs; ++v) acc[i][v] = V::zero();
  }

  // One depth step: kVecs loads of B, then per row one broadcast of A feeding kVecs independent
  // FMAs; all MR * kVecs accumulators stay in registers across the loop.
#pragma GCC unroll 2
  for (int p = 0; p < kc; ++p) {
    reg bv[kVecs];
#pragma GCC unroll 8
    for (int v = 0; v < kVecs; ++v) bv[v] = V::load(b + v * V::width);
#pragma GCC unroll 32
    for (int i = 0; i < ROWS; ++i) {
      const reg av = V::broadcast(a + i);
#pragma GCC unroll 8
      for (int v = 0; v < kVecs; ++v) acc[i][v] = V::fma(av, bv[v], acc[i][v]);
    }
    a += MR;
    b += NR;
  }

  if (mr == ROWS && nr == NR) {
#pragma GCC unroll 32
    for (int i = 0; i < ROWS; ++i) {
      float* ci = c + i * ldc;
#pragma GCC unroll 8
      for (int v = 0; v < kVecs; ++v) {
        reg r = acc[i][v];
        if (accumulate) r = V::add(r, V::loadu(ci + v * V::width));
        V::storeu(ci + v * V::width, r);
      }
    }
    return;
  }
  // Edge tile: the packed panels are zero-padded, so the whole tile is valid; only its in-bounds
  // corner may touch C.
  alignas(64) float tile[ROWS][NR];
  for (int i = 0; i < ROWS; ++i) {
    for (int v = 0; v < kVecs; ++v) V::store(&tile[i][v * V::width], acc[i][v]);
  }
  for (int i = 0; i < mr; ++i) {
    float* ci = c + i * ldc;
    for (int j = 0; j < nr; ++j) ci[j] = accumulate ? ci[j] + tile[i][j] : tile[i][j];
  }
}

// The tile for mr rows of C: a last tile of rows shorter than MR computes only the rows it needs,
// rounded up to an even count (at 128 rows, the 14-row tile's last tile has 2: computing all 14
// was 9 % of the multiply-adds for nothing).
template <class V, int MR, int NR, int ROWS = 2>
inline void tile_microkernel_rows(int kc, const float* a, const float* b, float* c, long ldc, int mr, int nr,
                                  bool accumulate) {
  if constexpr (ROWS >= MR) {
    tile_microkernel<V, MR, NR, MR>(kc, a, b, c, ldc, mr, nr, accumulate);
  } else {
    if (mr <= ROWS) return tile_microkernel<V, MR, NR, ROWS>(kc, a, b, c, ldc, mr, nr, accumulate);
    tile_microkernel_rows<V, MR, NR, ROWS + 2>(kc, a, b, c, ldc, mr, nr, accumulate);
  }
}

}  // namespace ws::kernels::cpu
