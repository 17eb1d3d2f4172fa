#include "core/kernel_resources_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "warpscope/sim/occupancy.hpp"

namespace ws::app {

namespace {

std::string shared_text(int bytes) {
  if (bytes == 0) return "no shared memory";
  if (bytes % 1024 == 0) return fmt::format("{} KiB shared", bytes / 1024);
  return fmt::format("{:.1f} KiB shared", bytes / 1024.0);
}

std::string limiter_text(const std::string& name) {
  if (name == "shared_memory") return "shared memory";
  if (name == "warps") return "threads per SM";
  if (name == "blocks") return "blocks per SM";
  return name;  // "registers"
}

}  // namespace

std::string resource_sentence(const kernels::KernelResourceUsage& u) {
  const std::string source = u.from_build ? fmt::format("from the build, {}", u.arch) : fmt::format("this GPU, {}", u.arch);
  std::string head = fmt::format("{} regs, {}, {} threads", u.registers, shared_text(u.shared_bytes), u.block_threads);
  if (u.max_threads_per_block > 0 && u.max_threads_per_block < u.block_threads)
    return fmt::format("{}: cannot launch, at most {} threads per block ({})", head, u.max_threads_per_block, source);
  try {
    const sim::CcLimits limits = sim::cc_limits(u.cc_major, u.cc_minor);
    const sim::OccupancyResult occ =
        sim::compute_occupancy(limits, sim::OccupancyInput{u.block_threads, u.registers, u.shared_bytes});
    if (occ.active_blocks_per_sm == 0) return fmt::format("{}: {} ({})", head, occ.reason, source);
    std::string limited;
    for (std::size_t i = 0; i < occ.limiters.size(); ++i)
      limited += (i == 0 ? "" : i + 1 == occ.limiters.size() ? " and " : ", ") + limiter_text(occ.limiters[i]);
    return fmt::format("{}: {} blocks/SM, {:.0f} % occupancy{} ({})", head, occ.active_blocks_per_sm,
                       std::round(occ.occupancy * 100.0), limited.empty() ? "" : ", limited by " + limited, source);
  } catch (const std::invalid_argument&) {
    // A compute capability the calculator does not know: the figures alone, never a guessed limit.
    return fmt::format("{} ({})", head, source);
  }
}

std::optional<std::string> resource_line(const std::string& kernel, const kernels::Shape& shape) {
  const auto usage = kernels::kernel_resource_usage(kernel, shape);
  if (!usage) return std::nullopt;
  return resource_sentence(*usage);
}

}  // namespace ws::app
