// The line beside a real CUDA kernel that says what it asks of an SM and what that allows:
// "64 regs, 8 KiB shared, 256 threads: 4 blocks/SM, 50 % occupancy, limited by registers (this
// GPU, sm_90)". The occupancy is the simulator's calculator (sim/occupancy) fed with the kernel's
// real figures, measured on this GPU or taken from the build.
#pragma once

#include <optional>
#include <string>

#include "lesson/i18n.hpp"
#include "warpscope/kernels/resources.hpp"

namespace ws::app {

// In `lang`; the calculator's own reason when no block fits (sim/, English) is quoted as it is.
std::string resource_sentence(const kernels::KernelResourceUsage& usage, lesson::Language lang);

// The sentence for a kernel at a shape, or nullopt where there are no figures (CPU, GL, cuBLAS,
// a build without CUDA).
std::optional<std::string> resource_line(const std::string& kernel, const kernels::Shape& shape, lesson::Language lang);

}  // namespace ws::app
