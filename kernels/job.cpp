// run_job: the one place that prepares inputs, times a kernel and verifies its output, so the CLI,
// the GUI and the tests all measure the same way.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>

#include "cpu/cpu_kernels.hpp"
#include "cuda/cuda_backend.hpp"
#include "gl/gl_backend.hpp"
#include "multi_gpu.hpp"
#include "gpu_outcome.hpp"
#include "memory.hpp"
#include "precision.hpp"
#include "verify.hpp"
#include "warpscope/kernels/blas_core.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"

namespace ws::kernels {

namespace {

constexpr int kMaxDimension = 16384;

// Seeded values in (-1, 1), never exactly zero: an all-zero or zero-heavy input would let a
// kernel that skips work pass verification. (2u + 1 - 2^24) / 2^24 is an odd integer over 2^24,
// so it is exact in fp32 and cannot be 0.
void fill_random(float* data, std::size_t count, std::uint64_t seed) {
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  for (std::size_t i = 0; i < count; ++i) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const auto u = static_cast<std::int64_t>(state >> 40);  // 24 random bits
    data[i] = static_cast<float>(2 * u + 1 - (std::int64_t{1} << 24)) * 0x1p-24f;
  }
}

void poison(float* data, std::size_t count) {
  std::fill(data, data + count, std::numeric_limits<float>::quiet_NaN());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

void append_detail(JobResult& r, const std::string& text) {
  if (!r.detail.empty()) r.detail += "; ";
  r.detail += text;
}

using Clock = std::chrono::steady_clock;

// OpenBLAS's thread pool (started when the library loads, woken by every cpu-blas call) spins for
// about 2^28 cycles (OPENBLAS_THREAD_TIMEOUT) before it sleeps: 0.1 s or so, during which a
// spinning thread holds a core. Timed then, a 2-thread cpu-parallel on a 2-core machine ran with
// one core for its first runs (measured: 60-70 GFLOP/s instead of 125-140 at 1024^3). So when
// warm-ups are asked for, every CPU kernel (cpu-blas too, so the rule favours none) keeps warming
// up until this much time has passed; a kernel whose first warm-up is already longer, such as the
// naive loop at 512^3 and above, runs no extra one.
constexpr auto kMinWarmup = std::chrono::milliseconds(250);

bool run_cpu_kernel(const JobRequest& req, const cpu::Gemm& g, int threads, const RunControl& rc) {
  if (req.kernel == "cpu-naive") return cpu::naive(g, rc);
  if (req.kernel == "cpu-parallel") return cpu::parallel(g, threads, rc);
  return cpu::blas(g, threads, rc);
}

// Runs warm-ups and timed repeats of a CPU kernel; returns false when cancelled.
bool time_cpu(const JobRequest& req, const cpu::Gemm& g, int threads, int warmups,
              JobControl& control, std::vector<double>& ms) {
  const int total = warmups + req.repeats;
  const std::size_t c_count = static_cast<std::size_t>(g.m) * g.n;
  const auto warmup_start = Clock::now();
  for (int run = 0; run < total; ++run) {
    RunControl rc{&control.cancel, &control.progress, static_cast<double>(run) / total, 1.0 / total};
    poison(g.c, c_count);
    const auto t0 = Clock::now();
    const bool ok = run_cpu_kernel(req, g, threads, rc);
    const auto t1 = Clock::now();
    if (!ok) return false;
    if (run >= warmups) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    if (run + 1 == warmups) {
      // Progress stays where the last warm-up left it: these runs are not in `total`.
      const RunControl unreported{&control.cancel, &control.progress, static_cast<double>(run + 1) / total, 0.0};
      while (Clock::now() - warmup_start < kMinWarmup) {
        poison(g.c, c_count);
        if (!run_cpu_kernel(req, g, threads, unreported)) return false;
      }
    }
  }
  return true;
}


template <typename Outcome>
GpuOutcome to_gpu_outcome(Outcome&& o) {
  return GpuOutcome{std::move(o.kernel_ms), o.transfer_ms, o.cancelled, std::move(o.error), o.before_kernel};
}

// Sizes the device cannot hold are refused before anything is allocated, with the reason.
std::optional<std::string> gpu_memory_refusal(const std::string& kernel, const Shape& s) {
  if (is_gl_kernel(kernel)) {
    const auto facts = gl::device_facts();
    if (!facts) return std::nullopt;  // unavailable: run_job reports that reason instead
    const std::uint64_t largest = 4ull * std::max({static_cast<std::uint64_t>(s.m) * s.k,
                                                   static_cast<std::uint64_t>(s.k) * s.n,
                                                   static_cast<std::uint64_t>(s.m) * s.n});
    if (facts->max_storage_block_bytes > 0 && largest > facts->max_storage_block_bytes)
      return "a matrix of " + format_gib(largest) + " exceeds this driver's largest storage buffer (" +
             format_gib(facts->max_storage_block_bytes) + ", GL_MAX_SHADER_STORAGE_BLOCK_SIZE)";
    if (facts->free_memory_bytes)
      return check_memory_fits(matrix_bytes(s), *facts->free_memory_bytes, "GPU");
    return std::nullopt;
  }
  // cuBLAS allocates its own workspace on top of the three matrices.
  const std::uint64_t workspace = kernel.rfind("cublas", 0) == 0 || kernel == "cuda-multi" ? (64ull << 20) : 0;
  if (const auto free_bytes = cuda::free_memory_bytes())
    return check_memory_fits(matrix_bytes(s) + workspace, *free_bytes, "GPU");
  return std::nullopt;
}

// The fields both back ends' Run structs share: the problem, its buffers and the job's control.
template <typename Run>
Run gpu_run(const cpu::Gemm& g, int warmups, int repeats, JobControl& control) {
  Run run;
  run.m = g.m, run.n = g.n, run.k = g.k;
  run.a = g.a, run.b = g.b, run.c = g.c;
  run.warmups = warmups;
  run.repeats = repeats;
  run.control = RunControl{&control.cancel, &control.progress};
  return run;
}

GpuOutcome run_cuda(const JobRequest& req, const cpu::Gemm& g, int warmups, int repeats, JobControl& control,
                    JobResult& r) {
  auto run = gpu_run<cuda::Run>(g, warmups, repeats, control);
  r.api = "cuda";
  if (req.kernel == "cuda-multi") {
    r.device_name = std::to_string(cuda::device_count()) + " CUDA GPUs";
    cuda::Outcome out = cuda::run_multi(run);
    for (const auto& note : out.notes) append_detail(r, note);
    return to_gpu_outcome(std::move(out));
  }
  run.kernel = *cuda::parse_kernel(req.kernel);  // job_refusal let only registry names through
  run.expected_gflops = expected_gflops(req.kernel, 0);
  if (const auto facts = cuda::device_facts()) {
    r.device_name = facts->name;
    append_detail(r, facts->name);
  }
  cuda::Outcome out = cuda::run(run);
  for (const auto& note : out.notes) append_detail(r, note);
  return to_gpu_outcome(std::move(out));
}

GpuOutcome run_gl(const JobRequest& req, const cpu::Gemm& g, int warmups, int repeats, JobControl& control,
                  JobResult& r) {
  auto run = gpu_run<gl::Run>(g, warmups, repeats, control);
  run.kernel = req.kernel == "gl-naive"   ? gl::Kernel::naive
               : req.kernel == "gl-tiled" ? gl::Kernel::tiled
                                          : gl::Kernel::regblock;
  r.api = "opengl";
  if (const auto facts = gl::device_facts()) {
    r.device_name = facts->renderer;
    r.software_renderer = facts->software;
    append_detail(r, facts->software ? facts->renderer + ", a software renderer: runs on this CPU"
                                     : facts->renderer);
  }
  gl::Outcome out = gl::run(run);
  if (!out.timing.empty()) append_detail(r, "timed by " + out.timing);
  return to_gpu_outcome(std::move(out));
}
}  // namespace

double expected_gflops(const std::string& kernel, int threads) {
  threads = std::max(1, threads);
  if (kernel == "cpu-naive") return 0.4;
  if (kernel == "cpu-parallel" || kernel == "cpu-blas") return 30.0 * threads;
  // CUDA: what an H200 measured at 4096^3 and 8192^3 (docs/PERFORMANCE.md, 2026-12-04), so a big
  // run on a fast GPU still gets its warm-up; on a slower GPU a warm-up only costs one more run.
  if (kernel == "cuda-naive") return 5000.0;
  if (kernel == "cuda-tiled") return 8500.0;
  if (kernel == "cuda-regblock") return 29000.0;
  if (kernel == "cuda-warptiled") return 46000.0;
  if (kernel == "cuda-tensor") return 310000.0;
  if (kernel == "cublas") return 50000.0;
  if (kernel == "cublas-tf32") return 400000.0;
  if (kernel == "cublas-bf16") return 700000.0;
  if (kernel == "cuda-multi") return 50000.0 * std::max(1, cuda::device_count());
  // GL kernels: a software renderer on a few cores is a thousand times slower than a GPU.
  const auto gl = gl::device_facts();
  const bool software = !gl || gl->software;
  if (kernel == "gl-naive") return software ? 1.0 : 200.0;
  if (kernel == "gl-tiled") return software ? 0.5 : 500.0;
  return software ? 5.0 : 2000.0;
}

int threads_for_job(const JobRequest& req) {
  const int requested = req.threads > 0 ? req.threads : cpu_info().cores;
  if (req.kernel == "cpu-naive") return 1;
  if (req.kernel == "cpu-parallel") {
    const cpu::Gemm g{req.shape.m, req.shape.n, req.shape.k, nullptr, nullptr, nullptr};
    return cpu::parallel_threads_for(g, requested);
  }
  if (req.kernel == "cpu-blas") return requested;
  return 0;
}

int warmup_runs(const JobRequest& req) {
  // A warm-up of a run that takes many seconds would only double the wait; such runs are
  // dominated by arithmetic, not by first-touch and cache effects a warm-up is there to remove.
  const double one_run_s = req.shape.flops() / (expected_gflops(req.kernel, threads_for_job(req)) * 1e9);
  return one_run_s > 1.0 ? 0 : 1;
}

std::optional<std::string> job_refusal(const JobRequest& req) {
  const KernelInfo* info = find_kernel(req.kernel);
  if (info == nullptr) return "unknown kernel \"" + req.kernel + "\"";
  const Shape& s = req.shape;
  if (std::min({s.m, s.n, s.k}) < 1 || std::max({s.m, s.n, s.k}) > kMaxDimension)
    return "invalid shape " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
           " (each dimension must be 1.." + std::to_string(kMaxDimension) + ")";
  if (auto why = unavailable_reason(req.kernel)) return why;
  std::uint64_t host_needed = matrix_bytes(s);
  if (req.kernel == "cpu-parallel") {
    const cpu::Gemm g{s.m, s.n, s.k, nullptr, nullptr, nullptr};
    host_needed += cpu::parallel_workspace_bytes(g, req.threads > 0 ? req.threads : cpu_info().cores);
  }
  if (input_format(req.kernel) != InputFormat::fp32) {
    // The rounded copies of A and B: one the backend uploads, one for the reference.
    host_needed += 2 * sizeof(float) * (static_cast<std::uint64_t>(s.m) * s.k + static_cast<std::uint64_t>(s.k) * s.n);
  }
  if (auto refusal = check_memory_fits(host_needed, available_host_memory_bytes(), "host")) return refusal;
  if (info->device == Device::gpu) return gpu_memory_refusal(req.kernel, s);
  return std::nullopt;
}

JobResult run_job(const JobRequest& req, JobControl& control) {
  JobResult r;
  r.kernel = req.kernel;
  r.shape = req.shape;
  control.progress.store(0.0, std::memory_order_relaxed);

  if (auto refusal = job_refusal(req)) {
    if (const KernelInfo* known = find_kernel(req.kernel)) r.device = known->device;
    r.skipped = *refusal;
    return r;
  }
  const KernelInfo* info = find_kernel(req.kernel);
  r.device = info->device;
  const Shape& s = req.shape;
  const int repeats = std::max(1, req.repeats);
  const int threads = threads_for_job(req);
  r.threads = threads;
  cpu::Gemm g{s.m, s.n, s.k, nullptr, nullptr, nullptr};

  const std::size_t a_count = static_cast<std::size_t>(s.m) * s.k;
  const std::size_t b_count = static_cast<std::size_t>(s.k) * s.n;
  const std::size_t c_count = static_cast<std::size_t>(s.m) * s.n;
  std::unique_ptr<float[]> a, b, c;
  try {
    a.reset(new float[a_count]);
    b.reset(new float[b_count]);
    c.reset(new float[c_count]);
  } catch (const std::bad_alloc&) {
    r.skipped = "could not allocate " + format_gib(matrix_bytes(s)) + " of host memory";
    return r;
  }
  fill_random(a.get(), a_count, req.seed);
  fill_random(b.get(), b_count, req.seed + 1);
  poison(c.get(), c_count);
  g.a = a.get();
  g.b = b.get();
  g.c = c.get();
  if (control.cancelled()) {
    r.cancelled = true;
    return r;
  }

  const int warmups = warmup_runs(req);
  const double estimate_s = s.flops() / (expected_gflops(req.kernel, threads) * 1e9);
  if (warmups == 0) {
    char note[96];
    std::snprintf(note, sizeof note, "no warm-up run (one run estimated at %.0f s)", estimate_s);
    append_detail(r, note);
  }

  std::vector<double> ms;
  if (info->device == Device::cpu) {
    if (req.kernel == "cpu-parallel") append_detail(r, cpu::parallel_detail(g));
    if (req.kernel == "cpu-blas") append_detail(r, "OpenBLAS core " + blas_core_note());
    bool finished = false;
    try {
      finished = time_cpu(req, g, threads, warmups, control, ms);
    } catch (const std::bad_alloc&) {  // packing buffers
      r.skipped = "could not run: not enough memory";
      return r;
    } catch (const std::exception& e) {  // threads could not be had
      r.skipped = std::string("could not run: ") + e.what();
      return r;
    }
    if (!finished) {
      r.cancelled = true;
      return r;
    }
  } else {
    GpuOutcome out = is_gl_kernel(req.kernel) ? run_gl(req, g, warmups, repeats, control, r)
                                              : run_cuda(req, g, warmups, repeats, control, r);
    if (!take_gpu_outcome(std::move(out), r)) return r;
  }

  if (info->device == Device::cpu) {
    r.repeats = static_cast<int>(ms.size());
    r.ms_median = median(ms);
    r.ms_min = *std::min_element(ms.begin(), ms.end());
    r.gflops = r.ms_median > 0 ? s.flops() / (r.ms_median * 1e6) : 0.0;
  }

  // Reduced-precision kernels are verified against the reference of the inputs they really read
  // (rounded here by the same function that rounded their uploads), and the distance from the
  // fp32 inputs' product is reported beside it: what the format costs.
  const InputFormat format = input_format(req.kernel);
  r.input_format = to_string(format);
  std::unique_ptr<float[]> a_rounded, b_rounded;
  const float* a_ref = g.a;
  const float* b_ref = g.b;
  if (format != InputFormat::fp32) {
    a_rounded.reset(new float[a_count]);
    b_rounded.reset(new float[b_count]);
    round_all(format, g.a, a_rounded.get(), a_count);
    round_all(format, g.b, b_rounded.get(), b_count);
    a_ref = a_rounded.get();
    b_ref = b_rounded.get();
  }
  const Verification v = verify(a_ref, b_ref, g.c, s, req.seed, format_tolerance(s.k, format));
  r.verified = v.ok;
  r.max_rel_error = v.max_rel_error;
  r.tolerance = v.tolerance;
  r.checked_elements = v.checked;
  if (v.non_finite > 0) append_detail(r, std::to_string(v.non_finite) + " NaN/Inf values in C");
  if (format != InputFormat::fp32) {
    r.max_rel_error_vs_fp32 = verify(g.a, g.b, g.c, s, req.seed).max_rel_error;
    char note[128];  // in detail too, so the panel and the bench table show what the format costs
    std::snprintf(note, sizeof note, "%s inputs: max relative error %.2e against the fp32 inputs' product",
                  r.input_format.c_str(), *r.max_rel_error_vs_fp32);
    append_detail(r, note);
  }
  control.progress.store(1.0, std::memory_order_relaxed);
  return r;
}

}  // namespace ws::kernels
