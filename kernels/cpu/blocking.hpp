// The cache blocking of cpu-parallel (KC depth, MC rows, NC columns), derived from the cache sizes
// the CPU reports and the micro-kernel's tile, instead of constants tuned for one machine.
#pragma once

#include "cpu/cpu_features.hpp"

namespace ws::kernels::cpu {

struct Blocking {
  int kc = 0;  // depth of one packed block: a B micro-panel (kc x nr floats) fills an eighth of L2
  int mc = 0;  // rows of the packed A block (mc x kc): a sixteenth of L3, a multiple of mr
  int nc = 0;  // columns of the packed B block (kc x nc): half of L3, a multiple of nr
};

// The rest of L2 holds the next B micro-panel (fetched while this one runs), the A micro-panels
// streaming past and the C tiles; the rest of L3 the packed B panel and the other threads' A
// blocks. L1 sets nothing: the micro-kernel's loads stream from L2 fast enough (128 bytes of B and
// 56 of A a depth step against 28 FMAs for the 14x32 tile). Levels reported as 0 take the sizes of
// a typical 2020s core (512 KiB L2, 8 MiB L3). Pure: tests feed any cache sizes.
Blocking derive_blocking(const CacheSizes& caches, int mr, int nr);

}  // namespace ws::kernels::cpu
