#include "cuda/cublas_api.hpp"

#include <dlfcn.h>

#include "cuda/shared_library.hpp"

namespace ws::kernels::cuda {

namespace {

template <typename Fn>
void bind(void* lib, const char* symbol, Fn& fn, std::string& error) {
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
  if (fn == nullptr && error.empty()) error = std::string("cuBLAS library lacks ") + symbol;
}

CublasApi load() {
  CublasApi api;
  const LoadedLibrary lib = load_first_of(cublas_library_names(WARPSCOPE_CUDA_TOOLKIT_MAJOR));
  if (lib.handle == nullptr) {
    api.error = "cuBLAS could not be loaded (" + lib.error +
                "): install the CUDA toolkit's cuBLAS or add its folder to LD_LIBRARY_PATH";
    return api;
  }
  api.library = lib.name;
  bind(lib.handle, "cublasCreate_v2", api.create, api.error);
  bind(lib.handle, "cublasDestroy_v2", api.destroy, api.error);
  bind(lib.handle, "cublasSetStream_v2", api.set_stream, api.error);
  bind(lib.handle, "cublasSetMathMode", api.set_math_mode, api.error);
  bind(lib.handle, "cublasSgemm_v2", api.sgemm, api.error);
  bind(lib.handle, "cublasGemmEx", api.gemm_ex, api.error);
  bind(lib.handle, "cublasGetStatusName", api.status_name, api.error);
  if (!api.error.empty()) api.error += " (" + lib.name + ")";
  return api;
}

}  // namespace

const CublasApi& cublas_api() {
  static const CublasApi api = load();
  return api;
}

}  // namespace ws::kernels::cuda
