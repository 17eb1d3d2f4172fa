// Cache-derived blocking. The levels follow BLIS (Low et al., "Analytical modeling is enough for
// high-performance BLIS", 2016), one level out: BLIS keeps a B micro-panel in L1 and the A block in
// L2; here the B micro-panel stays in L2 and the A block in L3. On a Zen 4 that makes the depth four
// times deeper (KC 1024, not 256) and the passes over C four times fewer.

#include "cpu/blocking.hpp"

#include <algorithm>

#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {

namespace {

constexpr long kTypicalL2 = 512L * 1024, kTypicalL3 = 8L * 1024 * 1024;

// Beyond these the blocks gain nothing measurable, and a shallower KC or narrower NC means more
// passes over C; below them loop overhead dominates.
constexpr int kMinKC = 64, kMaxKC = 1024;
constexpr int kMaxNC = 16384;

int round_down(long x, int to) { return static_cast<int>(x / to * to); }

}  // namespace

Blocking derive_blocking(const CacheSizes& caches, int mr, int nr) {
  const long l2 = caches.l2 > 0 ? caches.l2 : kTypicalL2;
  const long l3 = caches.l3 > 0 ? caches.l3 : kTypicalL3;
  constexpr long kFloat = sizeof(float);

  Blocking b;
  // The depth at which a micro-panel of B (KC x NR) fills an eighth of L2, where it stays while
  // every tile of the A block passes it; the A block (MC x KC) fills a sixteenth of L3 and streams
  // from there, sequentially, which the prefetchers follow. Deep, because each micro-kernel call
  // loads and stores its C tile once: on a Zen 4 (1 MiB L2, 32 MiB L3) KC 1024 with MC 504 ran the
  // 14x32 tile at 2048^3 6-9 % faster than KC 256 (the depth at which a 16-float row of B fills
  // half of L1, the rule before), and a short A against a large B 17 % faster; MC 252 lost 3 %
  // of that and MC 168 4 % (docs/PERFORMANCE.md, "A deep KC and a large MC"). Multiples of 8 keep
  // packed rows on 32-byte boundaries.
  b.kc = std::clamp(round_down(l2 / 8 / (nr * kFloat), 8), kMinKC, kMaxKC);
  b.mc = std::max(mr, round_down(l3 / 16 / (b.kc * kFloat), mr));
  b.nc = std::clamp(round_down(l3 / 2 / (b.kc * kFloat), nr), nr, kMaxNC / nr * nr);
  return b;
}

}  // namespace ws::kernels::cpu
