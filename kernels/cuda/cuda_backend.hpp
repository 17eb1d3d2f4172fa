// The plain C++ face of the CUDA kernels. Implemented in cuda_backend.cu when the toolkit is found
// and by cuda_stub.cpp when it is not, so nothing else in warpscope includes a CUDA header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda/launch_plan.hpp"
#include "run_control.hpp"

namespace ws::kernels::cuda {

struct DeviceFacts {
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::uint64_t memory_bytes = 0;
  double clock_mhz = 0;
};

// nullopt when device 0 can run our kernels; else the exact reason. Cached; probed afresh after
// an error that forced a device reset (a sticky error), so the next job sees the device as it is.
std::optional<std::string> unavailable_reason();
// The device-wide reason, or what stops this kernel: a compute capability below its minimum, or
// cuBLAS that could not be loaded (dlopen) for the cublas kernels.
std::optional<std::string> unavailable_reason(Kernel k);
// Cached with the availability (the GUI asks every frame).
std::optional<DeviceFacts> device_facts();
// Free memory on device 0 (cudaMemGetInfo), or nullopt when it cannot be queried.
std::optional<std::uint64_t> free_memory_bytes();

// What a kernel asks of an SM, for the occupancy calculator. From cudaFuncGetAttributes on this
// GPU, or, without one, from ptxas's report for sm_90 captured when warpscope was built.
struct KernelResources {
  int registers = 0;           // per thread
  int shared_bytes = 0;        // shared memory per block: static plus the launch's dynamic
  int max_threads_per_block = 0;  // what the function can be launched with; 0 when not known (build figures)
  int block_threads = 0;       // what our launch plan uses
  bool from_build = false;     // true: ptxas's figures for `arch`, not this GPU's
  std::string arch;            // "sm_90" (build) or "sm_89" (this GPU)
  int cc_major = 0, cc_minor = 0;  // the architecture the figures are for
};
// nullopt for cuBLAS (its kernels are NVIDIA's) and when neither source has figures.
std::optional<KernelResources> kernel_resources(Kernel k, int m, int n, int k_dim);

struct Run {
  Kernel kernel = Kernel::naive;
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;  // host, row-major, fp32; rounded here for tf32 and bf16 kernels
  const float* b = nullptr;
  float* c = nullptr;        // host; receives the result of the last run
  int warmups = 1;
  int repeats = 1;
  double expected_gflops = 0;  // sizes the bands a long run is cut into for prompt cancelling
  RunControl control;          // base/span ignored: the backend spreads progress over all runs
};

struct Outcome {
  std::vector<double> kernel_ms;   // one per timed repeat
  double transfer_ms = 0;          // H2D of A and B plus D2H of C
  bool cancelled = false;
  // Set when something failed. `before_kernel` tells a refusal (memory, setup: the kernel never
  // ran) from a failure while or after running it.
  std::string error;
  bool before_kernel = false;
  std::vector<std::string> notes;  // how it ran: pinned or pageable copies, vector loads, bands
};

Outcome run(const Run& r);

}  // namespace ws::kernels::cuda
