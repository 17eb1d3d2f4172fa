// Facts about the machine the real kernels run on, for labels ("measured on ...") and bench output.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ws::kernels {

struct CpuInfo {
  std::string name;   // brand string from CPUID / /proc/cpuinfo
  int cores = 1;      // hardware threads usable by this process
  std::string simd;   // "avx512", "avx2+fma", "sse2", ...: what the OS lets this process run (XGETBV)
  std::string simd_name;  // "AVX-512 + FMA", "AVX2 + FMA", "AVX", "SSE2"
  int fp32_lanes = 4;     // of the widest usable vectors
  int fma_units = 1;      // vector FMAs per cycle, from a CPU family/model table
};

struct GpuInfo {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  double clock_mhz = 0;
};

// The OpenGL device the gl-* kernels run on.
struct GlInfo {
  std::string renderer, vendor, version;
  bool software = false;  // a software renderer (llvmpipe, ...): it computes on this CPU
  std::string context;    // how the context was had: "EGL surfaceless (Mesa)", "a context shared with the window", ...
};

const CpuInfo& cpu_info();
// nullopt when there is no usable CUDA device; `gpu_status()` then says exactly why.
std::optional<GpuInfo> gpu_info();
std::string gpu_status();  // "NVIDIA H200 (cc 9.0, 132 SMs)" or "no CUDA driver: cudaErrorInsufficientDriver" ...
// nullopt when the GL kernels cannot run; `gl_status()` then says exactly why.
std::optional<GlInfo> gl_info();
std::string gl_status();  // "AMD Radeon 780M (OpenGL 4.6 ...)" or "llvmpipe (...): a software renderer, runs on this CPU"
std::string blas_core_name();  // openblas_get_corename(), or "none"
std::uint64_t available_host_memory_bytes();

}  // namespace ws::kernels
