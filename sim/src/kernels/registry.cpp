// The kernel models: one program per file in this folder, one line each here (and the name in
// sim::Kernel). Order: as sim::Kernel lists them.
#include <iterator>
#include <stdexcept>

#include "kernel_program.hpp"

namespace ws::sim::detail {

extern const KernelOps naive_kernel;  // naive.cpp
extern const KernelOps tiled_kernel;  // tiled.cpp
extern const KernelOps regblock_kernel;  // regblock.cpp
extern const KernelOps tensor_kernel;    // tensor.cpp

namespace {
constexpr const KernelOps* kRegistry[] = {
    &naive_kernel,
    &tiled_kernel,
    &regblock_kernel,
    &tensor_kernel,
};
}  // namespace

int kernel_count() { return static_cast<int>(std::size(kRegistry)); }

const KernelOps& kernel_ops_at(int i) { return *kRegistry[i]; }

const KernelOps& kernel_ops(Kernel k) {
  for (const KernelOps* o : kRegistry)
    if (o->kernel == k) return *o;
  throw std::invalid_argument("no model for this kernel");
}

const KernelOps* find_kernel_ops(std::string_view name) {
  for (const KernelOps* o : kRegistry)
    if (name == o->name) return o;
  return nullptr;
}

}  // namespace ws::sim::detail
