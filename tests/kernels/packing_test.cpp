// cpu-parallel's packing checked element by element against its definition, for the 6-row and the
// 14-row (AVX-512) tile on any CPU: whole and partial tiles, depths that are not a multiple of the
// 4-step SIMD transpose, rows not aligned to anything, and B panels split into KC blocks and
// packed in pieces as threads do.

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "cpu/microkernel.hpp"
#include "cpu/packing.hpp"

namespace ws::kernels::cpu {
namespace {

// Distinct, exactly representable values: a misplaced element cannot match by accident.
std::vector<float> numbered(int rows, int cols, long ld) {
  std::vector<float> m(static_cast<std::size_t>(rows) * ld + 1, -1.0f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) m[r * ld + c + 1] = static_cast<float>(r * 4096 + c);
  return m;
}

class PackA : public ::testing::TestWithParam<int> {};

TEST_P(PackA, EveryTileHoldsItsRowsStepByStepAndZerosBelowTheBlock) {
  const int mr = GetParam();
  for (const int mc : {mr, 3 * mr, 3 * mr + 1, 2 * mr - 1}) {
    for (const int kc : {1, 3, 4, 7, 64, 257}) {
      const long lda = kc + 5;  // a row stride that is no multiple of 4 floats
      const std::vector<float> a = numbered(mc, kc, lda);
      const int tiles = (mc + mr - 1) / mr;
      std::vector<float> out(static_cast<std::size_t>(tiles) * mr * kc, 12345.0f);
      pack_a(mr, a.data() + 1, lda, mc, kc, out.data());  // +1: rows start off any alignment
      for (int t = 0; t < tiles; ++t)
        for (int p = 0; p < kc; ++p)
          for (int r = 0; r < mr; ++r) {
            const int row = t * mr + r;
            const float want = row < mc ? static_cast<float>(row * 4096 + p) : 0.0f;
            ASSERT_EQ(out[(static_cast<std::size_t>(t) * kc + p) * mr + r], want)
                << "mr " << mr << " mc " << mc << " kc " << kc << " tile " << t << " step " << p
                << " row " << r;
          }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CpuPacking, PackA, ::testing::Values(kMR, kMR512));

class PackB : public ::testing::TestWithParam<int> {};

TEST_P(PackB, RowsLandInTheirDepthBlockAndMicroPanelWithZeroPaddedColumns) {
  const int nr = GetParam();
  for (const int nc : {nr, 4 * nr, 4 * nr + 3, nr - 1}) {
    const int k = 300, kc_max = 128;  // depth blocks of 128, 128 and 44
    const long ldb = nc + 7;
    const std::vector<float> b = numbered(k, nc, ldb);
    const int panels = (nc + nr - 1) / nr;
    std::vector<float> out(static_cast<std::size_t>(k) * panels * nr, 12345.0f);
    // In uneven pieces, as threads take groups of rows.
    for (const auto& [first, last] :
         {std::pair{0, 5}, std::pair{5, 130}, std::pair{130, 299}, std::pair{299, 300}})
      pack_b_rows(nr, b.data() + 1, ldb, first, last, k, kc_max, nc, out.data());
    for (int p = 0; p < k; ++p) {
      const int pc = p / kc_max * kc_max, kc = std::min(kc_max, k - pc);
      for (int q = 0; q < panels; ++q)
        for (int j = 0; j < nr; ++j) {
          const int col = q * nr + j;
          const float want = col < nc ? static_cast<float>(p * 4096 + col) : 0.0f;
          const std::size_t block = static_cast<std::size_t>(pc) * panels * nr;
          const std::size_t at = block + static_cast<std::size_t>(q) * kc * nr + static_cast<std::size_t>(p - pc) * nr + j;
          ASSERT_EQ(out[at], want) << "nr " << nr << " nc " << nc << " row " << p << " column " << col;
        }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(CpuPacking, PackB, ::testing::Values(kNR, kNR512));

}  // namespace
}  // namespace ws::kernels::cpu
