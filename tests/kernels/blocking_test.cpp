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
  EXPECT_EQ(b.kc, 1024);  // 1024 x 16 floats of B = 64 KiB, an eighth of L2
  EXPECT_EQ(b.mc, 510);   // 2 MiB (a sixteenth of L3) / (1024 x 4 B) = 512 rows, down to a multiple of 6
  EXPECT_EQ(b.nc, 4096);  // 16 MiB / (1024 x 4 B)
}

TEST(Blocking, SapphireRapidsCoreWithTheAvx512Tile) {
  // 48 KiB L1d, 2 MiB L2, 105 MiB L3 (Xeon 8480+).
  const Blocking b = derive_blocking({48 * KiB, 2 * MiB, 105 * MiB}, kMR512, kNR512);
  EXPECT_EQ(b.kc, 1024);   // an eighth of L2 would be 2048 deep; 1024 is the cap
  EXPECT_EQ(b.mc, 1680);   // 6.56 MiB / (1024 x 4 B) = 1680 rows, a multiple of 14
  EXPECT_EQ(b.nc, 13440);  // 52.5 MiB / (1024 x 4 B) = 13440 columns, a multiple of 32
}

TEST(Blocking, Zen4CoreWithTheAvx512Tile) {
  // The machine of the AVX-512 depth measurement in docs/PERFORMANCE.md: 32 KiB L1d, 1 MiB L2, 32 MiB L3.
  const Blocking b = derive_blocking({32 * KiB, 1 * MiB, 32 * MiB}, kMR512, kNR512);
  // Not KC 256 (the old rule: a 16-float row of B in half of L1): at a quarter of the depth the
  // 14x32 tile passed over C four times as often, 6-9 % slower at 2048^3 and 17 % with a short A.
  EXPECT_EQ(b.kc, 1024);  // 1024 x 32 floats of B = 128 KiB, an eighth of L2
  EXPECT_EQ(b.mc, 504);   // 2 MiB / (1024 x 4 B) = 512 rows, down to a multiple of 14
  EXPECT_EQ(b.nc, 4096);
}

TEST(Blocking, SmallCachesAndUnknownLevels) {
  const Blocking tiny = derive_blocking({8 * KiB, 64 * KiB, 0}, kMR, kNR);
  EXPECT_EQ(tiny.kc, 128);   // 8 KiB / (16 floats x 4 B)
  EXPECT_EQ(tiny.mc, 1020);  // L3 unknown: a typical 8 MiB; 512 KiB / (128 x 4 B) = 1024, down to a multiple of 6
  EXPECT_EQ(tiny.nc, 8192);  // 4 MiB / (128 x 4 B)
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
          // A micro-panel of B stays within an eighth of L2 unless that is shallower than the
          // least depth, and L1 plays no part.
          if (l2 / 8 / (nr * 4) >= 64) {
            EXPECT_LE(static_cast<long>(b.kc) * nr * 4, l2 / 8);
          }
          EXPECT_EQ(b.kc, derive_blocking({4 * KiB, l2, l3}, mr, nr).kc);
        }
      }
    }
  }
}

}  // namespace
}  // namespace ws::kernels::cpu
