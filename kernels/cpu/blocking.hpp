// The cache blocking of cpu-parallel (KC depth, MC rows, NC columns), derived from the cache sizes
// the CPU reports and the micro-kernel's tile, instead of constants tuned for one machine.
#pragma once

#include "cpu/cpu_features.hpp"

namespace ws::kernels::cpu {

struct Blocking {
  int kc = 0;  // depth of one packed block: kc x 16 floats of B fill half of L1 (a 32-wide tile: all)
  int mc = 0;  // rows of the packed A block (mc x kc): half of L2, a multiple of mr
  int nc = 0;  // columns of the packed B block (kc x nc): half of L3, a multiple of nr
};

// The other halves leave room for the C tile, the A micro-panel streaming through L1 (the 32-wide
// tile's B micro-panel takes all of L1 and streams from L2 as well), and the B block's neighbours
// (other threads' A blocks in a shared L3). Levels reported as 0 take the
// sizes of a typical 2020s core (32 KiB, 512 KiB, 8 MiB). Pure: tests feed any cache sizes.
Blocking derive_blocking(const CacheSizes& caches, int mr, int nr);

}  // namespace ws::kernels::cpu
