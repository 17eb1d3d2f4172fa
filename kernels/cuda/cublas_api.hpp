// cuBLAS, loaded on first use with dlopen instead of linked: a CUDA build then starts (and runs its
// CPU, GL and own CUDA kernels) on machines without the ~600 MB library; only the cublas kernels
// need it, and they say so when it is missing.
#pragma once

#include <cublas_v2.h>

#include <string>

namespace ws::kernels::cuda {

// The C entry point; cublas_api.h overloads the name in C++ for the old cudaDataType compute type.
using GemmExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                    const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                                    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);

struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetMathMode) set_math_mode = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  GemmExFn gemm_ex = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;
  std::string library;  // the file that loaded: "libcublas.so.13"
  std::string error;    // why it is not usable; empty when every entry point was found
};

// Loaded once (thread-safe), kept for the life of the process.
const CublasApi& cublas_api();

}  // namespace ws::kernels::cuda
