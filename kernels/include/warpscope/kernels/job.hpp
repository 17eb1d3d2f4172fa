// The one job interface every real matrix multiply goes through: the CLI, the GUI and the tests
// all run, time and verify kernels the same way, so their figures can be compared.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ws::kernels {

enum class Device { cpu, gpu };
const char* to_string(Device d);

struct Shape {
  int m = 1024, n = 1024, k = 1024;
  double flops() const { return 2.0 * m * n * k; }
  bool operator==(const Shape&) const = default;
};

// What the caller asks for. threads applies to CPU kernels only (0 = every core).
struct JobRequest {
  std::string kernel;
  Shape shape;
  int threads = 0;
  int repeats = 3;
  std::uint64_t seed = 42;
};

// Cooperative cancellation and progress shared between the worker and whoever watches it.
// Kernels poll `cancelled()` at least every few milliseconds and report `progress` in [0, 1].
struct JobControl {
  std::atomic<bool> cancel{false};
  std::atomic<double> progress{0.0};
  bool cancelled() const { return cancel.load(std::memory_order_relaxed); }
};

struct JobResult {
  std::string kernel;
  Device device = Device::cpu;
  Shape shape;
  int threads = 0;       // threads actually used (CPU); 0 for GPU kernels
  int repeats = 0;       // timed repeats actually run
  double ms_median = 0;  // kernel time only
  double ms_min = 0;
  double gflops = 0;     // 2*m*n*k / ms_median
  std::optional<double> transfer_ms;  // host<->device copies, GPU only, timed apart from the kernel
  bool verified = false;
  double max_rel_error = 0;  // against the fp64 product of the inputs as the kernel read them
  double tolerance = 0;      // what max_rel_error was allowed (verification_tolerance / format_tolerance)
  std::size_t checked_elements = 0;
  // "fp32", or "tf32"/"bf16" for the tensor-core kernels: A and B were rounded to it (nearest even)
  // before the kernel read them, and verification uses the rounded values.
  std::string input_format = "fp32";
  // Reduced-precision kernels: the same error against the product of the unrounded fp32 inputs,
  // i.e. what the format costs. nullopt for fp32 kernels.
  std::optional<double> max_rel_error_vs_fp32;
  std::optional<std::string> skipped;  // why the kernel could not run here (no GPU, too big, ...)
  // The kernel started but failed (a CUDA error during or after the launch): the error itself.
  // Nothing was verified; this is not a wrong result.
  std::optional<std::string> failed;
  bool cancelled = false;
  std::string detail;  // e.g. the OpenBLAS core name, the CUDA device name
  std::string api;          // GPU kernels: "cuda" or "opengl"; empty for CPU kernels
  std::string device_name;  // what ran it: the CUDA device or the GL renderer; empty for CPU kernels
  // A GL kernel on a software renderer (llvmpipe, ...) ran on this machine's CPU, not on a GPU:
  // it is labelled so and never stands for "the GPU" in a speed comparison.
  bool software_renderer = false;
};

struct KernelInfo {
  std::string name;         // "cpu-naive", "cuda-tiled", "gl-regblock", ...
  Device device;
  std::string description;  // one line for pickers and --help
  bool uses_threads;        // whether the CPU thread count changes it
};

// Every kernel this build knows, CPU first, in teaching order.
const std::vector<KernelInfo>& all_kernels();
const KernelInfo* find_kernel(const std::string& name);
// gl-naive, gl-tiled, gl-regblock: OpenGL compute, on any GPU (or a software renderer).
bool is_gl_kernel(const std::string& name);

// Why a kernel cannot run on this machine (no CUDA driver, built without CUDA, no device), or nullopt.
std::optional<std::string> unavailable_reason(const std::string& kernel);

// Why run_job would refuse this job before running anything (unknown kernel, invalid shape, not
// available here, not enough host or GPU memory), or nullopt. run_job makes these same checks, so
// an estimate never announces a long run that would be refused at once.
std::optional<std::string> job_refusal(const JobRequest& request);

// Threads a job really uses: 1 for cpu-naive, fewer than asked for a cpu-parallel shape too small
// to split, every core when the request says 0; 0 for GPU kernels. What JobResult::threads reports.
int threads_for_job(const JobRequest& request);

// A rough speed of each kernel (GFLOP/s) for when nothing was measured: cpu-naive 0.4, cpu-parallel
// and cpu-blas 30 per thread, the CUDA kernels at what an H100-class GPU reaches (cuda-naive 3000 ...
// cublas-bf16 600000: a fast GPU is the case where underestimating costs a cold first launch in the
// timing), GL kernels by renderer (docs/KERNELS.md). `threads` as threads_for_job says. The one table for warm-up decisions and for
// the wall-time estimates shown before a long run.
double expected_gflops(const std::string& kernel, int threads);

// Untimed warm-up runs run_job makes before the timed repeats: one, unless a single run is
// expected (at expected_gflops) to take more than a second.
int warmup_runs(const JobRequest& request);

// Runs one job: checks memory first, fills A and B with seeded values in [-1, 1], poisons C,
// warms up, times `repeats` runs, verifies against an fp64 reference. Never throws for a kernel
// that cannot run: the result says `skipped`. Blocks the calling thread.
JobResult run_job(const JobRequest& request, JobControl& control);

}  // namespace ws::kernels
