// Packing for cpu-parallel: copying blocks of A and B into the contiguous, zero-padded
// micro-panels the micro-kernels stream (the layout microkernel.hpp describes). Separate from
// parallel.cpp so that tests can check it for every tile shape, including the AVX-512 one on CPUs
// that cannot run that kernel.
#pragma once

namespace ws::kernels::cpu {

// A block (mc x kc, row stride lda) -> ceil(mc/mr) micro-panels, each kc steps of mr values;
// rows past mc are zero. mr is kMR or kMR512.
void pack_a(int mr, const float* a, long lda, int mc, int kc, float* out);

// Rows [row_begin, row_end) of a column panel of B (nc columns starting at b, row stride ldb,
// depth k) into the packed panel: the KC block starting at depth pc (kc = min(kc_max, k - pc))
// holds ceil(nc/nr) micro-panels of kc x nr values from offset pc * ceil(nc/nr) * nr, columns past
// nc zero. nr is kNR or kNR512. Disjoint row ranges may be packed by different threads.
void pack_b_rows(int nr, const float* b, long ldb, int row_begin, int row_end, int k, int kc_max, int nc,
                 float* bpack);

}  // namespace ws::kernels::cpu
