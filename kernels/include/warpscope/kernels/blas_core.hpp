// OpenBLAS on its right kernel (kernels/cpu/blas_core.hpp has the decision): main() calls
// use_right_openblas_core() first thing, and the window and `bench` print blas_core_note().
#pragma once

#include <string>

namespace ws::kernels {

// When OpenBLAS reported a core older than this CPU's instruction set and the user did not set
// OPENBLAS_CORETYPE, sets it (and a marker recording the detected core) and re-executes this
// program once from /proc/self/exe with the same arguments: OpenBLAS picks its kernel when the
// library loads, before main() runs, so the variable must be there at process start. Returns
// when nothing needs correcting, when this is the re-executed process, or when exec failed.
void use_right_openblas_core(char** argv);

// Which core OpenBLAS runs and why, for a line in either language (the app words it).
struct BlasCoreState {
  std::string core;              // openblas_get_corename(), "none" without OpenBLAS
  std::string version;           // "OpenBLAS 0.3.21"
  std::string detected;          // what OpenBLAS detected by itself when warpscope corrected it, else ""
  std::string coretype;          // OPENBLAS_CORETYPE as this process sees it, else ""
  bool coretype_by_user = false; // set by the user, not by warpscope's correction
  bool coretype_ignored = false; // warpscope set it, and OpenBLAS runs another core all the same
  // Where the running core uses an older instruction set than this CPU has (a user's
  // OPENBLAS_CORETYPE=Haswell on an AVX-512 CPU halves cpu-blas): both names, else both empty.
  std::string core_isa;          // "AVX2+FMA"
  std::string cpu_isa;           // "AVX-512"
};
BlasCoreState blas_core_state();

// "SkylakeX (OpenBLAS 0.3.21 detected Prescott)", "Zen", "Haswell (OPENBLAS_CORETYPE=Haswell set
// by the user)", or "none" without OpenBLAS: blas_core_state() in English.
std::string blas_core_note();
// The core OpenBLAS detected by itself when warpscope corrected it, else empty.
std::string blas_core_detected();

}  // namespace ws::kernels
