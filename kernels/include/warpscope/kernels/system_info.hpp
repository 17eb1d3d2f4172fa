// Facts about the machine the real kernels run on, for labels ("measured on ...") and bench output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ws::kernels {

struct CpuInfo {
  std::string name;   // brand string from CPUID / /proc/cpuinfo
  int cores = 1;      // hardware threads usable by this process
  std::string simd;   // "avx512", "avx2+fma", "sse2", ...
};

struct GpuInfo {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  double clock_mhz = 0;
};

const CpuInfo& cpu_info();
// nullopt when there is no usable CUDA device; `gpu_status()` then says exactly why.
std::optional<GpuInfo> gpu_info();
std::string gpu_status();  // "NVIDIA H200 (cc 9.0, 132 SMs)" or "no CUDA driver: cudaErrorInsufficientDriver" ...
std::string blas_core_name();  // openblas_get_corename(), or "none"
std::uint64_t available_host_memory_bytes();

}  // namespace ws::kernels
