// cpu-blas: OpenBLAS's sgemm, the yardstick for the hand-written kernels. Compiled to a stub that
// reports itself unavailable when the build found no OpenBLAS.

#include "cpu/cpu_kernels.hpp"

#ifdef WARPSCOPE_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace ws::kernels::cpu {

#ifdef WARPSCOPE_HAVE_OPENBLAS

bool blas_available() { return true; }

std::string blas_core_name() {
  const char* name = openblas_get_corename();
  return name != nullptr ? name : "unknown";
}

bool blas(const Gemm& g, int threads, const RunControl& control) {
  // sgemm cannot be interrupted, so cancellation is only seen before it starts.
  if (control.cancelled()) return false;
  openblas_set_num_threads(threads);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g.m, g.n, g.k, 1.0f, g.a, g.k, g.b, g.n,
              0.0f, g.c, g.n);
  control.report(1.0);
  return true;
}

#else

bool blas_available() { return false; }
std::string blas_core_name() { return "none"; }
bool blas(const Gemm&, int, const RunControl&) { return false; }

#endif

}  // namespace ws::kernels::cpu
