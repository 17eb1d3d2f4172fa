#include "cuda/shared_library.hpp"

#include <dlfcn.h>

namespace ws::kernels::cuda {

LoadedLibrary load_first_of(const std::vector<std::string>& names) {
  LoadedLibrary lib;
  for (const auto& name : names) {
    if (void* h = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      lib.handle = h;
      lib.name = name;
      lib.error.clear();
      return lib;
    }
    const char* why = dlerror();
    if (!lib.error.empty()) lib.error += "; ";
    lib.error += why != nullptr ? why : name + ": not found";
  }
  return lib;
}

std::vector<std::string> cublas_library_names(int toolkit_major) {
  return {"libcublas.so." + std::to_string(toolkit_major), "libcublas.so"};
}

}  // namespace ws::kernels::cuda
