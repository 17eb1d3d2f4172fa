// The cache blocking of cpu-parallel as a function of the cache sizes a CPU reports.

#include <algorithm>

#include <gtest/gtest.h>

#include "cpu/blocking.hpp"
#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {
namespace {

constexpr long KiB = 1024, MiB = 1024 * 1024;

TEST(Blocking, Zen3CoreWithTheAvx2Tile) {
  // The machine the AVX2 figures in docs/PERFORMANCE.md come from: 32 KiB L1d, 512 KiB L2, 32 MiB L3 per CCX.
  const Blocking b = derive_blocking({32 * KiB, 512 * KiB, 32 * MiB}, kMR, kNR);
  EXPECT_EQ(b.kc, 256);    // 256 x 16 floats of B = 16 KiB, half of L1
  EXPECT_EQ(b.mc, 252);    // 252 x 256 floats of A = 252 KiB, under half of L2, a multiple of 6
  EXPECT_EQ(b.nc, 16384);  // half of L3 would take 16384 columns; that is also the cap
}

TEST(Blocking, SapphireRapidsCoreWithTheAvx512Tile) {
  // 48 KiB L1d, 2 MiB L2, 105 MiB L3 (Xeon 8480+).
  const Blocking b = derive_blocking({48 * KiB, 2 * MiB, 105 * MiB}, kMR512, kNR512);
  EXPECT_EQ(b.kc, 384);  // 384 x 16 floats = 24 KiB, half of L1; the 32-wide micro-panel takes all 48
  EXPECT_EQ(b.mc, 672);  // 1 MiB / (384 x 4 B) = 682 rows, down to a multiple of 14
  EXPECT_EQ(b.nc, 16384);
}

TEST(Blocking, Zen4CoreWithTheAvx512Tile) {
  // The machine of the AVX-512 depth measurement in docs/PERFORMANCE.md: 32 KiB L1d, 1 MiB L2, 32 MiB L3.
  const Blocking b = derive_blocking({32 * KiB, 1 * MiB, 32 * MiB}, kMR512, kNR512);
  EXPECT_EQ(b.kc, 256);  // not 128: at half the depth the 14x32 tile passed over C twice as often, ~10 % slower
  EXPECT_EQ(b.mc, 504);  // 512 KiB / (256 x 4 B) = 512 rows, down to a multiple of 14
  EXPECT_EQ(b.nc, 16384);
}

TEST(Blocking, SmallCachesAndUnknownLevels) {
  const Blocking tiny = derive_blocking({8 * KiB, 64 * KiB, 0}, kMR, kNR);
  EXPECT_EQ(tiny.kc, 64);       // 4 KiB / (16 floats x 4 B)
  EXPECT_EQ(tiny.mc, 126);      // 32 KiB / (64 x 4 B) = 128, down to a multiple of 6
  EXPECT_EQ(tiny.nc, 16384);    // L3 unknown: a typical 8 MiB, half is 4 MiB = 16384 columns of 64
  const Blocking none = derive_blocking({0, 0, 0}, kMR, kNR);
  const Blocking typical = derive_blocking({32 * KiB, 512 * KiB, 8 * MiB}, kMR, kNR);
  EXPECT_EQ(none.kc, typical.kc);
  EXPECT_EQ(none.mc, typical.mc);
  EXPECT_EQ(none.nc, typical.nc);
}

// Over a range of caches the blocks always keep the invariants the packing code relies on.
TEST(Blocking, InvariantsOverManyCaches) {
  for (long l1 : {4 * KiB, 32 * KiB, 48 * KiB, 64 * KiB, 1 * MiB}) {
    for (long l2 : {64 * KiB, 256 * KiB, 1 * MiB, 2 * MiB}) {
      for (long l3 : {0L, 4 * MiB, 32 * MiB, 512 * MiB}) {
        for (const auto& [mr, nr] : {std::pair{kMR, kNR}, std::pair{kMR512, kNR512}}) {
          const Blocking b = derive_blocking({l1, l2, l3}, mr, nr);
          SCOPED_TRACE(testing::Message() << l1 << " " << l2 << " " << l3 << " " << mr << "x" << nr);
          EXPECT_GE(b.kc, 64);
          EXPECT_LE(b.kc, 1024);
          EXPECT_EQ(b.kc % 8, 0);
          EXPECT_GE(b.mc, mr);
          EXPECT_EQ(b.mc % mr, 0);
          EXPECT_GE(b.nc, nr);
          EXPECT_EQ(b.nc % nr, 0);
          // A row of B as wide as the AVX2 tile over the depth stays within half of L1, so a
          // micro-panel within L1.
          if (l1 / 2 / (kNR * 4) >= 64) {
            EXPECT_LE(static_cast<long>(b.kc) * std::min(nr, kNR) * 4, l1 / 2);
            EXPECT_LE(static_cast<long>(b.kc) * nr * 4, l1);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace ws::kernels::cpu
