#include "core/kernel_resources_text.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

#include "core/sim_refusal_text.hpp"
#include "warpscope/sim/occupancy.hpp"

namespace ws::app {

namespace {

using lesson::tr;
using lesson::trf;

std::string shared_text(int bytes, lesson::Language lang) {
  if (bytes == 0) return tr("resources.no_shared", lang);
  if (bytes % 1024 == 0) return trf("resources.shared_kib", lang, bytes / 1024);
  return trf("resources.shared_kib", lang, fmt::format("{:.1f}", bytes / 1024.0));
}

std::string limiter_text(const std::string& name, lesson::Language lang) {
  if (name == "shared_memory") return tr("resources.limit_shared", lang);
  if (name == "warps") return tr("resources.limit_threads", lang);
  if (name == "blocks") return tr("resources.limit_blocks", lang);
  if (name == "registers") return tr("resources.limit_registers", lang);
  return name;
}

}  // namespace

std::string resource_sentence(const kernels::KernelResourceUsage& u, lesson::Language lang) {
  const std::string source = trf(u.from_build ? "resources.from_build" : "resources.this_gpu", lang, u.arch);
  std::string head = trf("resources.head", lang, u.registers, shared_text(u.shared_bytes, lang), u.block_threads);
  if (u.max_threads_per_block > 0 && u.max_threads_per_block < u.block_threads)
    return trf("resources.cannot_launch", lang, head, u.max_threads_per_block, source);
  try {
    const sim::CcLimits limits = sim::cc_limits(u.cc_major, u.cc_minor);
    const sim::OccupancyResult occ =
        sim::compute_occupancy(limits, sim::OccupancyInput{u.block_threads, u.registers, u.shared_bytes});
    if (occ.active_blocks_per_sm == 0)
      return fmt::format("{}: {} ({})", head, occupancy_reason_words(occ.reason, lang), source);
    std::string limited;
    for (std::size_t i = 0; i < occ.limiters.size(); ++i)
      limited += (i == 0 ? "" : i + 1 == occ.limiters.size() ? tr("resources.and", lang) : ", ") +
                 limiter_text(occ.limiters[i], lang);
    const std::string percent = fmt::format("{:.0f}", std::round(occ.occupancy * 100.0));
    return trf("resources.occupancy", lang, head, occ.active_blocks_per_sm, percent,
               limited.empty() ? std::string() : trf("resources.limited_by", lang, limited), source);
  } catch (const std::invalid_argument&) {
    // A compute capability the calculator does not know: the figures alone, never a guessed limit.
    return fmt::format("{} ({})", head, source);
  }
}

std::optional<std::string> resource_line(const std::string& kernel, const kernels::Shape& shape, lesson::Language lang) {
  const auto usage = kernels::kernel_resource_usage(kernel, shape);
  if (!usage) return std::nullopt;
  return resource_sentence(*usage, lang);
}

}  // namespace ws::app
