// The plain C++ face of the OpenGL compute kernels (gl-naive, gl-tiled, gl-regblock). The GL code
// runs on whatever context the provider makes current (the window's shared worker context in the
// app, a display-less EGL context otherwise), so nothing here knows GLFW or ImGui.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run_control.hpp"

namespace ws::kernels::gl {

enum class Kernel { naive, tiled, regblock };

struct DeviceFacts {
  std::string renderer;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string vendor;    // GL_VENDOR
  std::string version;   // GL_VERSION
  bool software = false; // llvmpipe, softpipe, SwiftShader, lavapipe or self-declared software
  std::string context;   // how the context was made: "EGL surfaceless (Mesa)", "EGL device", "window (shared)"
  std::uint64_t max_storage_block_bytes = 0;         // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
  std::optional<std::uint64_t> free_memory_bytes;    // GL_NVX_gpu_memory_info / GL_ATI_meminfo
};

// nullopt when GL compute kernels can run here; else the exact reason ("no EGL display: ...",
// "OpenGL 3.3 has no compute shaders (needs 4.3)"). Cached until the context provider changes.
std::optional<std::string> unavailable_reason();
std::optional<DeviceFacts> device_facts();

struct Run {
  Kernel kernel = Kernel::naive;
  int m = 0, n = 0, k = 0;
  const float* a = nullptr;  // host, row-major
  const float* b = nullptr;
  float* c = nullptr;        // host; receives the result of the last run
  int warmups = 1;
  int repeats = 1;
  RunControl control;        // base/span ignored: the backend spreads progress over all runs
  // Tests only: leaves the last rows of C undispatched, so a test can prove that cells a kernel
  // misses stay NaN and fail verification. Always 0 outside tests.
  int test_skip_rows = 0;
};

struct Outcome {
  std::vector<double> kernel_ms;  // one per timed repeat
  double transfer_ms = 0;         // upload of A and B plus read-back of C
  std::string timing;             // "GL timer queries" or "glFinish + steady clock (GL timer not meaningful on this renderer)"
  bool cancelled = false;
  std::string error;              // set when something failed
  bool before_kernel = false;     // a refusal (size, memory, setup) rather than a failure while running
};

Outcome run(const Run& r);

}  // namespace ws::kernels::gl
