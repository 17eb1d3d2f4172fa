// Cache-derived blocking, BLIS-style (Low et al., "Analytical modeling is enough for high-performance
// BLIS", 2016, give the same halves).

#include "cpu/blocking.hpp"

#include <algorithm>

#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {

namespace {

constexpr long kTypicalL1 = 32L * 1024, kTypicalL2 = 512L * 1024, kTypicalL3 = 8L * 1024 * 1024;

// Beyond these the blocks gain nothing measurable, and a shallower KC or narrower NC means more
// passes over C; below them loop overhead dominates.
constexpr int kMinKC = 64, kMaxKC = 1024;
constexpr int kMaxNC = 16384;

int round_down(long x, int to) { return static_cast<int>(x / to * to); }

}  // namespace

Blocking derive_blocking(const CacheSizes& caches, int mr, int nr) {
  const long l1 = caches.l1d > 0 ? caches.l1d : kTypicalL1;
  const long l2 = caches.l2 > 0 ? caches.l2 : kTypicalL2;
  const long l3 = caches.l3 > 0 ? caches.l3 : kTypicalL3;
  constexpr long kFloat = sizeof(float);

  Blocking b;
  // The depth at which a row of B as wide as the AVX2 tile (kNR, 16 floats) fills half of L1,
  // whatever the tile's width: each micro-kernel call loads and stores its C tile once, so a
  // 32-wide tile at half that depth (its micro-panel in half of L1) passes over C twice as often
  // per multiply-add. On a Zen 4 that cost the AVX-512 tile ~10 % at 2048³; its micro-panel in all
  // of L1 streams from L2 fast enough (docs/PERFORMANCE.md, "The AVX-512 tile's depth"). Multiples
  // of 8 keep packed rows on 32-byte boundaries.
  b.kc = std::clamp(round_down(l1 / 2 / (std::min(nr, kNR) * kFloat), 8), kMinKC, kMaxKC);
  b.mc = std::max(mr, round_down(l2 / 2 / (b.kc * kFloat), mr));
  b.nc = std::clamp(round_down(l3 / 2 / (b.kc * kFloat), nr), nr, kMaxNC / nr * nr);
  return b;
}

}  // namespace ws::kernels::cpu
