// Up-front memory checks, so a size that cannot fit is reported as skipped instead of ending in
// an out-of-memory kill halfway through a benchmark.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "warpscope/kernels/job.hpp"

namespace ws::kernels {

// Bytes of A, B and C in fp32.
std::uint64_t matrix_bytes(const Shape& s);

// nullopt when `needed` fits in `available` with headroom; else e.g.
// "needs 12.0 GiB of host memory, 3.1 GiB available". `what` is "host" or "GPU".
std::optional<std::string> check_memory_fits(std::uint64_t needed, std::uint64_t available,
                                             const char* what);

std::string format_gib(std::uint64_t bytes);

}  // namespace ws::kernels
