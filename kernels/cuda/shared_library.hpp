// Loading an optional shared library at run time (dlopen), so that a dependency as large as cuBLAS
// (about 600 MB with cublasLt) is needed only by the kernels that use it, not to start warpscope.
#pragma once

#include <string>
#include <vector>

namespace ws::kernels::cuda {

struct LoadedLibrary {
  void* handle = nullptr;  // dlopen handle, kept for the life of the process; null when none loaded
  std::string name;        // the name that loaded
  std::string error;       // every name tried and dlerror's answer, when none loaded
};

// Tries each name in order (dlopen, RTLD_NOW | RTLD_LOCAL).
LoadedLibrary load_first_of(const std::vector<std::string>& names);

// The names cuBLAS is looked for under: the soname of the toolkit this build used
// (libcublas.so.13 for CUDA 13), then the unversioned development link.
std::vector<std::string> cublas_library_names(int toolkit_major);

}  // namespace ws::kernels::cuda
