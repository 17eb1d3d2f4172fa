// cpu-parallel's kernels for a B of a few columns (up to four vectors' width; parallel.cpp
// decides when): A is read where it lies. The micro-kernel path copies all of A into packed
// panels, which pays only where each element is used many times, and a micro-kernel NR columns
// wide spends NR - n of its lanes on padding: at 4096x1x4096 it ran at 0.56 of OpenBLAS
// (docs/PERFORMANCE.md, "A matrix times a vector" and the two sections after it). Two ways to lay
// the work on the vector lanes:
//   row dots: lanes along the depth; each cell of C the dot product of a row of A with a column of
//     B, summed across the lanes at the end. Every lane busy whatever n is, but each cell pays for
//     that final sum, so it needs a long depth.
//   row broadcasts: lanes along C's row; each element of A broadcast and multiplied by a row of B
//     (one to four vectors, the last masked to what is left of n). No final sums, so any depth is
//     cheap, but under one vector only n of the lanes work. With AVX-512 they also take a wide B,
//     a column block and a depth slice at a time (ldb, accumulate): 6 rows x 4 vectors of sums
//     beat the packed micro-kernel wherever B stays in cache (parallel.cpp, wide_broadcasts_pay).
// Instantiated once per instruction set, each in a file compiled for it (narrow_b_avx512.cpp,
// narrow_b_avx2.cpp, narrow_b_portable.cpp); V gives the vector type. The templates use nothing
// from the standard library, so no inline library function gets compiled for AVX-512 in those
// files and chosen by the linker for the rest of the program.
#pragma once

namespace ws::kernels::cpu {

// rows x n cells of C: c[i * ldc + j] = the sum over p < k of a[i * lda + p] * B[p][j], added to
// what C holds where `accumulate` (a depth slice after the first), else overwriting it (C may hold
// NaN poison). Row dots take B's columns as rows (bt[j * ldb + p]; for n = 1, B itself), row
// broadcasts B as it is (b[p * ldb + j], so a block of columns of a wider B) and need n at most
// kMaxBroadcastVectors vectors' width.
using NarrowB = void (*)(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                         bool accumulate);

void row_dots_portable(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                   bool accumulate);
void row_broadcasts_portable(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                   bool accumulate);
// Only call when can_run_avx2_fma(this_cpu_features()).
void row_dots_avx2(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                   bool accumulate);
void row_broadcasts_avx2(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                   bool accumulate);
// Only call when can_run_avx512(this_cpu_features()).
void row_dots_avx512(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                   bool accumulate);
void row_broadcasts_avx512(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                   bool accumulate);

namespace narrow_b_detail {

// Columns of C one block of row dots computes, and its rows: as many as keep R x NB sums, NB
// columns of B and one row of A in the vector registers (V::registers of them) with two to spare,
// at most 8 (8 rows of A are 8 streams from memory, which the hardware prefetchers still follow).
inline constexpr int kMaxBlockColumns = 4;
constexpr int block_rows(int registers, int nb) {
  const int fit = (registers - 2 - nb - 1) / nb;
  return fit < 1 ? 1 : fit > 8 ? 8 : fit;
}

// R rows x NB columns of C, the depth in whole vectors and then a scalar tail.
template <class V, int R, int NB>
inline void dot_block(int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc, bool accumulate) {
  using reg = typename V::reg;
  reg sum[R][NB];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int j = 0; j < NB; ++j) sum[r][j] = V::zero();
  }
  const int whole = k / V::width * V::width;
  for (int p = 0; p < whole; p += V::width) {
    reg b[NB];
#pragma GCC unroll 4
    for (int j = 0; j < NB; ++j) b[j] = V::loadu(bt + j * ldb + p);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const reg x = V::loadu(a + r * lda + p);
#pragma GCC unroll 4
      for (int j = 0; j < NB; ++j) sum[r][j] = V::fma(x, b[j], sum[r][j]);
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < NB; ++j) {
      float s = V::total(sum[r][j]);
      for (int p = whole; p < k; ++p) s += a[r * lda + p] * bt[j * ldb + p];
      c[r * ldc + j] = accumulate ? c[r * ldc + j] + s : s;
    }
  }
}

// Every column of R rows, NB at a time.
template <class V, int R>
inline void dot_rows(int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                     bool accumulate) {
  int j = 0;
  for (; j + kMaxBlockColumns <= n; j += kMaxBlockColumns)
    dot_block<V, R, kMaxBlockColumns>(k, a, lda, bt + j * ldb, ldb, c + j, ldc, accumulate);
  const float* rest = bt + j * ldb;
  switch (n - j) {
    case 3: dot_block<V, R, 3>(k, a, lda, rest, ldb, c + j, ldc, accumulate); break;
    case 2: dot_block<V, R, 2>(k, a, lda, rest, ldb, c + j, ldc, accumulate); break;
    case 1: dot_block<V, R, 1>(k, a, lda, rest, ldb, c + j, ldc, accumulate); break;
    default: break;
  }
}

// R rows of C, each NV vectors of its n cells ((NV - 1) * W < n <= NV * W, the last vector masked):
// per depth step one row of B and R broadcasts of A. Eight rows give eight independent FMA chains
// per vector, enough to cover the FMA latency on two ports; wider rows take fewer (block_rows).
inline constexpr int kMaxBroadcastVectors = 4;

// The widest row broadcasts go: as many vectors (at most kMaxBroadcastVectors) as leave a block
// at least 3 rows, below which each row of B loaded serves too few FMAs (measured: AVX2's 2-row
// blocks of 32 columns lost to the packed micro-kernel; docs/PERFORMANCE.md, "Row broadcasts up to
// four vectors").
constexpr int broadcast_vectors(int registers) {
  int nv = 1;
  while (nv < kMaxBroadcastVectors && block_rows(registers, nv + 1) >= 3) ++nv;
  return nv;
}

// The register type of a block's last vector of columns: V's own, or with HalfLast the lower half
// that V::half describes (AVX-512: a 256-bit register for a last vector of at most 8 columns;
// Zen 4 runs a 512-bit FMA as two 256-bit halves, so the half costs half).
template <class V>
struct Whole : V {
  static typename V::reg of(typename V::reg x) { return x; }
};
template <class V, bool HalfLast>
struct LastVector {
  using type = Whole<V>;
};
template <class V>
struct LastVector<V, true> {
  using type = typename V::half;
};

template <class V, int R, int NV, bool HalfLast>
inline void broadcast_block(int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                            bool accumulate) {
  using reg = typename V::reg;
  using L = typename LastVector<V, HalfLast>::type;
  using lreg = typename L::reg;
  constexpr int W = V::width;
  const typename L::mask last = L::first(n - (NV - 1) * W);
  reg sum[R][NV];  // [r][v] for v < NV - 1; the last vector's in tail
  lreg tail[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v + 1 < NV; ++v) sum[r][v] = V::zero();
    tail[r] = L::zero();
  }
  for (int p = 0; p < k; ++p) {
    const float* row = b + p * ldb;
    reg bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v + 1 < NV; ++v) bv[v] = V::loadu(row + v * W);
    const lreg bl = L::load_first(row + (NV - 1) * W, last);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const reg x = V::broadcast(a + r * lda + p);
#pragma GCC unroll 4
      for (int v = 0; v + 1 < NV; ++v) sum[r][v] = V::fma(x, bv[v], sum[r][v]);
      tail[r] = L::fma(L::of(x), bl, tail[r]);
    }
  }
  if (accumulate) {
    const float one = 1.0f;
    const reg ones = V::broadcast(&one);  // C + sum as one FMA: exact, and no add in V
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
      for (int v = 0; v + 1 < NV; ++v) sum[r][v] = V::fma(ones, V::loadu(c + r * ldc + v * W), sum[r][v]);
      tail[r] = L::fma(L::of(ones), L::load_first(c + r * ldc + (NV - 1) * W, last), tail[r]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v + 1 < NV; ++v) V::storeu(c + r * ldc + v * W, sum[r][v]);
    L::store_first(c + r * ldc + (NV - 1) * W, tail[r], last);
  }
}

// The last block of in_row_blocks: exactly `rest` rows, 0 < rest <= Q.
template <int Q, class Block>
inline void rest_block(int rest, int i, Block& block) {
  if constexpr (Q > 0) {
    if (rest == Q) return block.template operator()<Q>(i);
    rest_block<Q - 1>(rest, i, block);
  }
}

// Rows [0, rows) in blocks of R, then what is left in one block of its own height: each block
// reads its rows of B again, and a block of one row has too few independent FMA chains to cover
// the FMA latency, so the last few rows go in one block, not in halves (at 4 x 1000 x 1000 the
// halves 3 + 1 read B twice). block.template operator()<B>(i) computes rows [i, i + B).
template <int R, class Block>
inline void in_row_blocks(int rows, Block&& block) {
  int i = 0;
  for (; i + R <= rows; i += R) block.template operator()<R>(i);
  if (i < rows) rest_block<R - 1>(rows - i, i, block);
}

template <class V, int NV, bool HalfLast>
inline void broadcast_rows(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                           bool accumulate) {
  in_row_blocks<block_rows(V::registers, NV)>(rows, [&]<int R>(int i) {
    broadcast_block<V, R, NV, HalfLast>(n, k, a + i * lda, lda, b, ldb, c + i * ldc, ldc, accumulate);
  });
}

// With the last vector's columns in a half register where V has one and they fit it.
template <class V, int NV>
inline void broadcast_rows(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                           bool accumulate) {
  if constexpr (requires { typename V::half; }) {
    if (n - (NV - 1) * V::width <= V::half::width)
      return broadcast_rows<V, NV, true>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
  }
  broadcast_rows<V, NV, false>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

// Every column of rows, in blocks of as many rows as the registers hold for NB columns of sums.
template <class V, int NB>
inline void dot_all_rows(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                         bool accumulate) {
  in_row_blocks<block_rows(V::registers, NB)>(rows, [&]<int R>(int i) {
    dot_rows<V, R>(n, k, a + i * lda, lda, bt, ldb, c + i * ldc, ldc, accumulate);
  });
}

}  // namespace narrow_b_detail

// The rows in blocks sized for the widest block of columns n needs (one NB for all of them).
template <class V>
inline void row_dots(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                     bool accumulate) {
  using namespace narrow_b_detail;
  switch (n < kMaxBlockColumns ? n : kMaxBlockColumns) {
    case 1: return dot_all_rows<V, 1>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
    case 2: return dot_all_rows<V, 2>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
    case 3: return dot_all_rows<V, 3>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
    default: return dot_all_rows<V, kMaxBlockColumns>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
  }
}

template <class V>
inline void row_broadcasts(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c, long ldc,
                           bool accumulate) {
  using namespace narrow_b_detail;
  switch ((n + V::width - 1) / V::width) {
    case 1: return broadcast_rows<V, 1>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
    case 2: return broadcast_rows<V, 2>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
    case 3: return broadcast_rows<V, 3>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
    default: return broadcast_rows<V, kMaxBroadcastVectors>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
  }
}

}  // namespace ws::kernels::cpu
