// Why CUDA cannot run here, and what a CUDA error means for the jobs after it: pure functions of
// what the driver and the runtime said, so every branch is tested without a GPU.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ws::kernels::cuda {

// What probing found. The driver API (libcuda, loaded with dlopen) answers the device's compute
// capability even when the driver is too old for this build's runtime, so a GTX 1080 with an old
// driver is told its real limit (older than sm_75) instead of being sent to update the driver.
struct ProbeFacts {
  bool driver_library = false;      // libcuda.so.1 could be loaded
  int driver_cuda_version = 0;      // cuDriverGetVersion: 12020 = CUDA 12.2; 0 unknown
  int runtime_cuda_version = 0;     // the runtime this build carries (CUDART_VERSION)
  int device_count = -1;            // from the driver API; -1 unknown
  int cc_major = 0, cc_minor = 0;   // device 0 from the driver API; 0 unknown
  std::string device_name;
  std::string runtime_error;        // cudaGetErrorName of the runtime's probe; "" when it succeeded
  int oldest_built_cc = 75;         // the oldest architecture this build carries machine code for
};

// nullopt when device 0 can run our kernels; else the reason, always naming its cause: the CUDA
// error name (cudaError...) or the architecture limit (sm_75).
std::optional<std::string> availability_reason(const ProbeFacts& f);

// What an error leaves behind. `sticky`: the context is corrupt (illegal address, launch timeout,
// ...); every later call fails until cudaDeviceReset, so the backend resets the device and probes
// again. `transient`: only this call failed (out of memory, invalid launch configuration).
enum class ErrorKind { transient, sticky, device_lost };
ErrorKind classify_error(std::string_view cuda_error_name);

// "CUDA 12.2" for 12020.
std::string cuda_version_text(int version);

}  // namespace ws::kernels::cuda
