// What a real CUDA kernel asks of an SM (registers, shared memory, threads per block), for the
// occupancy calculator beside the kernel's figures. Measured on this GPU (cudaFuncGetAttributes)
// or, without one, ptxas's figures for sm_90 from the build, labelled as such.
#pragma once

#include <optional>
#include <string>

#include "warpscope/kernels/job.hpp"

namespace ws::kernels {

struct KernelResourceUsage {
  int registers = 0;              // per thread
  int shared_bytes = 0;           // static shared memory per block
  int max_threads_per_block = 0;  // from cudaFuncGetAttributes; 0 for build figures
  int block_threads = 0;          // the launch plan's block at this shape
  bool from_build = false;        // ptxas's figures for `arch`, not this GPU's
  std::string arch;               // "sm_90"
  int cc_major = 0, cc_minor = 0;
};

// nullopt for CPU, GL and cuBLAS kernels (cuBLAS picks NVIDIA's own kernels), and in a build
// without CUDA.
std::optional<KernelResourceUsage> kernel_resource_usage(const std::string& kernel, const Shape& shape);

}  // namespace ws::kernels
