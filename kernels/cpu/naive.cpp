// cpu-naive: the textbook i-j-k triple loop on one thread. It is deliberately left as written in
// a first course (sequential dot products, B walked down its columns) so that the gap to the
// blocked kernel and to the GPU is the honest gap a student's first attempt would see.

#include "cpu/cpu_kernels.hpp"

namespace ws::kernels::cpu {

bool naive(const Gemm& g, const RunControl& control) {
  const int m = g.m, n = g.n, k = g.k;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      // A 2048-wide row takes ~20 ms here; polling every 64 columns keeps cancellation well
      // under the 100 ms promise even on a loaded machine, for the price of one relaxed load.
      if ((j & 63) == 0 && control.cancelled()) return false;
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += g.a[static_cast<long>(i) * k + p] * g.b[static_cast<long>(p) * n + j];
      g.c[static_cast<long>(i) * n + j] = sum;
    }
    control.report(static_cast<double>(i + 1) / m);
  }
  return true;
}

}  // namespace ws::kernels::cpu
