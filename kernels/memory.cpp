// Memory arithmetic for the up-front checks in run_job and the CUDA backend.

#include "memory.hpp"

#include <cstdio>

namespace ws::kernels {

std::uint64_t matrix_bytes(const Shape& s) {
  const std::uint64_t m = s.m, n = s.n, k = s.k;
  return (m * k + k * n + m * n) * sizeof(float);
}

std::string format_gib(std::uint64_t bytes) {
  char text[64];
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  if (gib >= 0.1)
    std::snprintf(text, sizeof text, "%.1f GiB", gib);
  else
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

std::optional<std::string> check_memory_fits(std::uint64_t needed, std::uint64_t available,
                                             const char* what) {
  // Leave a tenth for everything else (the GUI, the OS, the CUDA context); filling memory to the
  // last byte gets a process killed, not skipped.
  if (static_cast<double>(needed) <= 0.9 * static_cast<double>(available)) return std::nullopt;
  return "needs " + format_gib(needed) + " of " + what + " memory, " + format_gib(available) +
         " available";
}

}  // namespace ws::kernels
