// ptxas's resource report for sm_90, captured when warpscope was built (cmake/cuda_resources.cmake
// embeds `nvcc --resource-usage` output as text), so a machine without a GPU can still show what
// each kernel asks of an SM. The text is parsed here, at run time, by one tested function.
#pragma once

#include <string>
#include <vector>

namespace ws::kernels::cuda {

struct BuildResource {
  std::string kernel;      // registry name: "cuda-regblock"
  int vector_loads = -1;   // -1: the kernel has one variant; 0 or 1: its scalar or vector-load variant
  int registers = 0;
  int shared_bytes = 0;
};

inline constexpr const char* kBuildResourceArch = "sm_90";

// The embedded report: empty in a build without the CUDA toolkit.
const char* ptxas_report();

// Pairs each "Compiling entry function '<mangled>' for 'sm_90'" with the "Used N registers, ...
// M bytes smem" line after it; functions that are not one of our kernels are left out.
std::vector<BuildResource> parse_ptxas_report(const std::string& text);

// parse_ptxas_report(ptxas_report()), parsed once.
const std::vector<BuildResource>& build_resources();

}  // namespace ws::kernels::cuda
