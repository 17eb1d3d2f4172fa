#include "cuda/cuda_status.hpp"

#include <array>

namespace ws::kernels::cuda {

std::string cuda_version_text(int version) {
  return "CUDA " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::optional<std::string> availability_reason(const ProbeFacts& f) {
  const int cc = f.cc_major * 10 + f.cc_minor;
  const std::string oldest = "sm_" + std::to_string(f.oldest_built_cc);
  // The architecture first: no driver update makes an older GPU run this build's code.
  if (f.cc_major > 0 && cc < f.oldest_built_cc)
    return "CUDA device " + f.device_name + " (cc " + std::to_string(f.cc_major) + "." + std::to_string(f.cc_minor) +
           ") is older than the oldest architecture built (" + oldest + ")";
  if (!f.driver_library) return std::string("no CUDA driver: cudaErrorInsufficientDriver");
  if (f.device_count == 0) return std::string("no CUDA device: cudaErrorNoDevice");
  if (f.runtime_error.empty()) return std::nullopt;
  if (f.runtime_error == "cudaErrorInsufficientDriver") {
    std::string reason = "CUDA driver too old for this build: cudaErrorInsufficientDriver";
    if (f.driver_cuda_version > 0 && f.runtime_cuda_version > 0)
      reason += " (the driver supports " + cuda_version_text(f.driver_cuda_version) + ", the build needs " +
                cuda_version_text(f.runtime_cuda_version) + ")";
    return reason;
  }
  if (f.runtime_error == "cudaErrorNoDevice") return std::string("no CUDA device: cudaErrorNoDevice");
  return "CUDA unavailable: " + f.runtime_error;
}

ErrorKind classify_error(std::string_view name) {
  // CUDA Runtime API, cudaError_t: "the process is left in an inconsistent state and any further
  // CUDA work will return the same error" for these.
  static constexpr std::array<std::string_view, 11> sticky = {
      "cudaErrorIllegalAddress", "cudaErrorLaunchTimeout",   "cudaErrorLaunchFailure",
      "cudaErrorHardwareStackError", "cudaErrorIllegalInstruction", "cudaErrorMisalignedAddress",
      "cudaErrorInvalidAddressSpace", "cudaErrorInvalidPc", "cudaErrorAssert",
      "cudaErrorExternalDevice", "cudaErrorTensorMemoryLeak"};
  static constexpr std::array<std::string_view, 4> lost = {"cudaErrorDevicesUnavailable", "cudaErrorECCUncorrectable",
                                                           "cudaErrorSystemNotReady", "cudaErrorDeviceUninitialized"};
  for (const auto s : sticky)
    if (name == s) return ErrorKind::sticky;
  for (const auto s : lost)
    if (name == s) return ErrorKind::device_lost;
  return ErrorKind::transient;
}

}  // namespace ws::kernels::cuda
