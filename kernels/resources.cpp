#include "warpscope/kernels/resources.hpp"

#include "cuda/cuda_backend.hpp"

namespace ws::kernels {

std::optional<KernelResourceUsage> kernel_resource_usage(const std::string& kernel, const Shape& s) {
  const auto k = cuda::parse_kernel(kernel);
  if (!k) return std::nullopt;
  const auto r = cuda::kernel_resources(*k, s.m, s.n, s.k);
  if (!r) return std::nullopt;
  return KernelResourceUsage{r->registers,  r->shared_bytes, r->max_threads_per_block, r->block_threads,
                             r->from_build, r->arch,         r->cc_major,              r->cc_minor};
}

}  // namespace ws::kernels
