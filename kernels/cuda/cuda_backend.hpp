// The plain C++ face of the CUDA kernels. Implemented in cuda_backend.cu when the toolkit is found
// and by cuda_stub.cpp when it is not, so nothing else in warpscope includes a CUDA header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run_control.hpp"

namespace ws::kernels::cuda {

enum class Kernel { naive, tiled, cublas };

struct DeviceFacts {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  double clock_mhz = 0;
};

// nullopt when device 0 can run our kernels; else the exact reason (cached after the first call).
std::optional<std::string> unavailable_reason();
std::optional<DeviceFacts> device_facts();
// Free memory on device 0 (cudaMemGetInfo), or nullopt when it cannot be queried.
std::optional<std::uint64_t> free_memory_bytes();

struct Run {
  Kernel kernel = Kernel::naive;
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;  // host, row-major
  const float* b = nullptr;
  float* c = nullptr;        // host; receives the result of the last run
  int warmups = 1;
  int repeats = 1;
  RunControl control;        // base/span ignored: the backend spreads progress over all runs
};

struct Outcome {
  std::vector<double> kernel_ms;   // one per timed repeat
  double transfer_ms = 0;          // H2D of A and B plus D2H of C
  bool cancelled = false;
  // Set when something failed. `before_kernel` tells a refusal (memory, setup: the kernel never
  // ran) from a failure while or after running it.
  std::string error;
  bool before_kernel = false;
};

Outcome run(const Run& r);

}  // namespace ws::kernels::cuda
