// Device probing, memory, timing and verification-ready results for the CUDA ladder (the kernels
// are one per file: naive.cu ... tensor.cu; cuBLAS through cublas_api). Every CUDA and cuBLAS call
// is checked and turned into Outcome::error: a benchmark on a student's machine must report a
// broken driver or a full GPU, never abort the program.

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "cuda/build_resources.hpp"
#include "cuda/cublas_api.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_status.hpp"
#include "cuda/device_kernels.cuh"
#include "cuda/error_latch.hpp"
#include "precision.hpp"

namespace ws::kernels::cuda {

namespace {

constexpr int kOldestBuiltCc = 75;  // CMAKE_CUDA_ARCHITECTURES' default starts at 75-real

std::string describe(cudaError_t e, const char* call) {
  return std::string("CUDA error in ") + call + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

std::string describe(cublasStatus_t s, const char* call) {
  const auto& api = cublas_api();
  return std::string("cuBLAS error in ") + call + ": " + (api.status_name ? api.status_name(s) : std::to_string(s));
}

// The runtime as error_latch.hpp's launch_checked expects it.
struct RuntimeErrors {
  void discard_pending() { (void)cudaGetLastError(); }
  cudaError_t last_error() { return cudaGetLastError(); }
};

// Outcome plus the error's kind, so run() can reset the device after a sticky one.
struct Attempt {
  Outcome out;
  ErrorKind kind = ErrorKind::transient;
};

#define WS_CUDA_CHECK(call)                                                 \
  do {                                                                      \
    const cudaError_t ws_err_ = (call);                                     \
    if (ws_err_ != cudaSuccess) {                                           \
      at.out.error = describe(ws_err_, #call);                              \
      at.kind = classify_error(cudaGetErrorName(ws_err_));                  \
      return at;                                                            \
    }                                                                       \
  } while (0)

#define WS_CUBLAS_CHECK(call)                                               \
  do {                                                                      \
    const cublasStatus_t ws_st_ = (call);                                   \
    if (ws_st_ != CUBLAS_STATUS_SUCCESS) {                                  \
      at.out.error = describe(ws_st_, #call);                               \
      const cudaError_t ws_err_ = cudaGetLastError();                       \
      if (ws_err_ != cudaSuccess) at.kind = classify_error(cudaGetErrorName(ws_err_)); \
      return at;                                                            \
    }                                                                       \
  } while (0)

// Owners so that every early return on an error still frees what was created.
struct DeviceBuffer {
  void* p = nullptr;
  ~DeviceBuffer() { if (p) cudaFree(p); }
};
struct Event {
  cudaEvent_t e = nullptr;
  ~Event() { if (e) cudaEventDestroy(e); }
};
struct Stream {
  cudaStream_t s = nullptr;
  ~Stream() { if (s) cudaStreamDestroy(s); }
};
struct Handle {
  cublasHandle_t h = nullptr;
  ~Handle() { if (h) cublas_api().destroy(h); }
};
// Page-locks a host buffer for the copies (DMA straight from it, no staging copy); released after.
struct PinnedRange {
  void* p = nullptr;
  ~PinnedRange() { if (p) cudaHostUnregister(p); }
  bool pin(const void* data, std::size_t bytes) {
    if (cudaHostRegister(const_cast<void*>(data), bytes, cudaHostRegisterDefault) != cudaSuccess) {
      (void)cudaGetLastError();  // a refusal only costs speed: copy from pageable memory instead
      return false;
    }
    p = const_cast<void*>(data);
    return true;
  }
};

// --- availability, cached and re-probed after a device reset ---------------------------------

// The driver API, loaded by hand: it answers the compute capability even when the driver is too
// old for this build's runtime.
void probe_driver(ProbeFacts& f) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) return;
  f.driver_library = true;
  using Init = int (*)(unsigned);
  using IntOut = int (*)(int*);
  using Get = int (*)(int*, int);
  using Attr = int (*)(int*, int, int);
  using Name = int (*)(char*, int, int);
  const auto init = reinterpret_cast<Init>(dlsym(lib, "cuInit"));
  const auto version = reinterpret_cast<IntOut>(dlsym(lib, "cuDriverGetVersion"));
  const auto count = reinterpret_cast<IntOut>(dlsym(lib, "cuDeviceGetCount"));
  const auto get = reinterpret_cast<Get>(dlsym(lib, "cuDeviceGet"));
  const auto attr = reinterpret_cast<Attr>(dlsym(lib, "cuDeviceGetAttribute"));
  const auto name = reinterpret_cast<Name>(dlsym(lib, "cuDeviceGetName"));
  if (version) version(&f.driver_cuda_version);
  if (!init || !count || !get || !attr) return;
  constexpr int kNoDevice = 100;  // CUDA_ERROR_NO_DEVICE
  const int rc = init(0);
  if (rc == kNoDevice) f.device_count = 0;
  if (rc != 0) return;
  int n = 0;
  if (count(&n) != 0) return;
  f.device_count = n;
  int dev = 0;
  if (n == 0 || get(&dev, 0) != 0) return;
  constexpr int kCcMajor = 75, kCcMinor = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR/MINOR
  attr(&f.cc_major, kCcMajor, dev);
  attr(&f.cc_minor, kCcMinor, dev);
  char text[256] = {};
  if (name && name(text, sizeof text - 1, dev) == 0) f.device_name = text;
  // The handle stays open: the runtime loads the same library anyway.
}

struct Cache {
  std::mutex mutex;
  bool probed = false;
  std::optional<std::string> reason;
  std::optional<DeviceFacts> facts;
};
Cache& cache() {
  static Cache c;
  return c;
}

void probe_locked(Cache& c) {
  ProbeFacts f;
  f.runtime_cuda_version = CUDART_VERSION;
  f.oldest_built_cc = kOldestBuiltCc;
  probe_driver(f);
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  if (e != cudaSuccess) f.runtime_error = cudaGetErrorName(e);
  else if (count == 0) f.runtime_error = "cudaErrorNoDevice";
  c.facts.reset();
  if (f.runtime_error.empty()) {
    cudaDeviceProp prop{};
    const cudaError_t pe = cudaGetDeviceProperties(&prop, 0);
    if (pe != cudaSuccess) {
      (void)cudaGetLastError();
      f.runtime_error = cudaGetErrorName(pe);
    } else {
      f.cc_major = prop.major, f.cc_minor = prop.minor, f.device_name = prop.name;
      DeviceFacts d;
      d.name = prop.name;
      d.cc_major = prop.major;
      d.cc_minor = prop.minor;
      d.sm_count = prop.multiProcessorCount;
      d.memory_bytes = prop.totalGlobalMem;
      int clock_khz = 0;  // cudaDeviceProp::clockRate is gone in CUDA 13; the attribute remains
      if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0) == cudaSuccess) d.clock_mhz = clock_khz / 1000.0;
      (void)cudaGetLastError();
      c.facts = d;
    }
  }
  c.reason = availability_reason(f);
  if (c.reason) c.facts.reset();
  c.probed = true;
}

void invalidate_probe() {
  std::lock_guard lock(cache().mutex);
  cache().probed = false;
}

// --- one run ------------------------------------------------------------------------------------

// Launches the kernel for C rows [row0, row0 + rows).
cudaError_t launch_band(const Run& r, cudaStream_t stream, const void* a, const void* b, float* c, int row0, int rows,
                        cublasHandle_t blas, cublasStatus_t& blas_status) {
  const long a_off = static_cast<long>(row0) * r.k, c_off = static_cast<long>(row0) * r.n;
  const LaunchPlan plan = plan_launch(r.kernel, rows, r.n, r.k);
  const auto* af = static_cast<const float*>(a) + a_off;
  const auto* bf = static_cast<const float*>(b);
  const auto* ah = static_cast<const __nv_bfloat16*>(a) + a_off;
  const auto* bh = static_cast<const __nv_bfloat16*>(b);
  float* cb = c + c_off;
  const float one = 1.0f, zero = 0.0f;
  RuntimeErrors errors;
  blas_status = CUBLAS_STATUS_SUCCESS;
  return launch_checked(errors, [&] {
    const auto& api = cublas_api();
    // cuBLAS is column-major. A row-major rows x n C is a column-major n x rows matrix C^T, and
    // C^T = B^T A^T, where row-major B and A read column-major are exactly B^T and A^T.
    switch (r.kernel) {
      case Kernel::naive: launch_naive(plan, stream, rows, r.n, r.k, af, bf, cb); break;
      case Kernel::tiled: launch_tiled(plan, stream, rows, r.n, r.k, af, bf, cb); break;
      case Kernel::regblock: launch_regblock(plan, stream, rows, r.n, r.k, af, bf, cb); break;
      case Kernel::warptiled: launch_warptiled(plan, stream, rows, r.n, r.k, af, bf, cb); break;
      case Kernel::tensor: launch_tensor(plan, stream, rows, r.n, r.k, ah, bh, cb); break;
      case Kernel::cublas:
        blas_status = api.sgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, r.n, rows, r.k, &one, bf, r.n, af, r.k, &zero, cb, r.n);
        break;
      case Kernel::cublas_tf32:
        blas_status = api.gemm_ex(blas, CUBLAS_OP_N, CUBLAS_OP_N, r.n, rows, r.k, &one, bf, CUDA_R_32F, r.n, af,
                                  CUDA_R_32F, r.k, &zero, cb, CUDA_R_32F, r.n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                  CUBLAS_GEMM_DEFAULT);
        break;
      case Kernel::cublas_bf16:
        blas_status = api.gemm_ex(blas, CUBLAS_OP_N, CUBLAS_OP_N, r.n, rows, r.k, &one, bh, CUDA_R_16BF, r.n, ah,
                                  CUDA_R_16BF, r.k, &zero, cb, CUDA_R_32F, r.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        break;
    }
  });
}

Attempt run_once(const Run& r) {
  Attempt at;
  Outcome& out = at.out;
  out.before_kernel = true;
  if (const auto why = unavailable_reason(r.kernel)) {
    out.error = *why;
    return at;
  }
  RuntimeErrors{}.discard_pending();  // an unread failure of an earlier job is not this job's

  // The inputs as the kernel reads them: fp32, fp32 rounded to tf32, or bf16 bits.
  const InputFormat format = input_format(to_string(r.kernel));
  const std::size_t a_count = static_cast<std::size_t>(r.m) * r.k, b_count = static_cast<std::size_t>(r.k) * r.n;
  const std::size_t c_bytes = static_cast<std::size_t>(r.m) * r.n * sizeof(float);
  std::vector<float> a_tf32, b_tf32;
  std::vector<std::uint16_t> a_bf16, b_bf16;
  const void* a_host = r.a;
  const void* b_host = r.b;
  std::size_t element = sizeof(float);
  if (format == InputFormat::tf32) {
    // Rounded here (nearest even), so the GPU's own fp32 -> tf32 step has nothing left to round
    // and the fp64 reference of the rounded inputs is exact whatever rounding the hardware uses.
    a_tf32.resize(a_count), b_tf32.resize(b_count);
    round_all(format, r.a, a_tf32.data(), a_count);
    round_all(format, r.b, b_tf32.data(), b_count);
    a_host = a_tf32.data(), b_host = b_tf32.data();
  } else if (format == InputFormat::bf16) {
    a_bf16.resize(a_count), b_bf16.resize(b_count);
    std::transform(r.a, r.a + a_count, a_bf16.begin(), bf16_bits);
    std::transform(r.b, r.b + b_count, b_bf16.begin(), bf16_bits);
    a_host = a_bf16.data(), b_host = b_bf16.data();
    element = sizeof(std::uint16_t);
  }
  const std::size_t a_bytes = a_count * element, b_bytes = b_count * element;

  WS_CUDA_CHECK(cudaSetDevice(0));
  Stream stream;
  WS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream.s, cudaStreamNonBlocking));
  DeviceBuffer a, b, c;
  WS_CUDA_CHECK(cudaMalloc(&a.p, a_bytes));
  WS_CUDA_CHECK(cudaMalloc(&b.p, b_bytes));
  WS_CUDA_CHECK(cudaMalloc(&c.p, c_bytes));
  // Blocking-sync events: waiting for a long kernel sleeps instead of spinning a CPU core that the
  // GUI and the CPU kernels need.
  Event start, stop, band_done[2];
  for (Event* e : {&start, &stop, &band_done[0], &band_done[1]})
    WS_CUDA_CHECK(cudaEventCreateWithFlags(&e->e, cudaEventBlockingSync));
  Handle blas;
  if (is_cublas(r.kernel)) {
    const auto& api = cublas_api();
    WS_CUBLAS_CHECK(api.create(&blas.h));
    WS_CUBLAS_CHECK(api.set_stream(blas.h, stream.s));
    // Default math: cublasSgemm stays plain fp32 FMA (no TF32 shortcut), like for like with the CPU
    // kernels; cublas-tf32 and cublas-bf16 ask for tensor cores through their compute types.
    WS_CUBLAS_CHECK(api.set_math_mode(blas.h, CUBLAS_DEFAULT_MATH));
    out.notes.push_back(api.library + " (loaded at run time)");
  }

  PinnedRange pin_a, pin_b, pin_c;
  const bool pinned = pin_a.pin(a_host, a_bytes) && pin_b.pin(b_host, b_bytes) && pin_c.pin(r.c, c_bytes);
  out.notes.push_back(pinned ? "copies from pinned host memory (cudaHostRegister)"
                             : "copies from pageable host memory (cudaHostRegister refused)");

  float h2d_ms = 0, d2h_ms = 0;
  WS_CUDA_CHECK(cudaEventRecord(start.e, stream.s));
  WS_CUDA_CHECK(cudaMemcpyAsync(a.p, a_host, a_bytes, cudaMemcpyHostToDevice, stream.s));
  WS_CUDA_CHECK(cudaMemcpyAsync(b.p, b_host, b_bytes, cudaMemcpyHostToDevice, stream.s));
  WS_CUDA_CHECK(cudaEventRecord(stop.e, stream.s));
  WS_CUDA_CHECK(cudaEventSynchronize(stop.e));
  WS_CUDA_CHECK(cudaEventElapsedTime(&h2d_ms, start.e, stop.e));

  const LaunchPlan whole = plan_launch(r.kernel, r.m, r.n, r.k);
  if (!whole.note.empty()) out.notes.push_back(whole.note);
  const int band = rows_per_band(r.m, r.n, r.k, r.expected_gflops);
  const int bands = (r.m + band - 1) / band;
  if (bands > 1)
    out.notes.push_back(std::to_string(bands) + " launches of " + std::to_string(band) +
                        " rows each, so that a cancel waits for at most two");

  out.before_kernel = false;
  const int total = r.warmups + r.repeats;
  for (int run = 0; run < total; ++run) {
    if (r.control.cancelled()) {
      out.cancelled = true;
      return at;
    }
    // All-ones bytes are a NaN in fp32: a kernel that misses a cell cannot pass as correct.
    WS_CUDA_CHECK(cudaMemsetAsync(c.p, 0xFF, c_bytes, stream.s));
    WS_CUDA_CHECK(cudaEventRecord(start.e, stream.s));
    // At most two bands in flight: the GPU never idles between them, and a cancel waits for two.
    int launched = 0, finished = 0;
    while (finished < bands) {
      while (launched < bands && launched - finished < 2) {
        const int row0 = launched * band, rows = std::min(band, r.m - row0);
        cublasStatus_t blas_status = CUBLAS_STATUS_SUCCESS;
        const cudaError_t e = launch_band(r, stream.s, a.p, b.p, static_cast<float*>(c.p), row0, rows, blas.h, blas_status);
        WS_CUBLAS_CHECK(blas_status);
        WS_CUDA_CHECK(e);
        WS_CUDA_CHECK(cudaEventRecord(band_done[launched % 2].e, stream.s));
        ++launched;
        // The clock stops when the GPU finishes the last band, not when this thread wakes up to
        // see it: waking from a blocking-sync wait took ~0.1 ms on an H200, which was half of
        // what a 1024^3 cuBLAS run measured.
        if (launched == bands) WS_CUDA_CHECK(cudaEventRecord(stop.e, stream.s));
      }
      WS_CUDA_CHECK(cudaEventSynchronize(band_done[finished % 2].e));
      ++finished;
      r.control.report((run + static_cast<double>(finished) / bands) / total);
      if (finished < bands && r.control.cancelled()) {
        WS_CUDA_CHECK(cudaStreamSynchronize(stream.s));
        out.cancelled = true;
        return at;
      }
    }
    WS_CUDA_CHECK(cudaEventSynchronize(stop.e));
    float ms = 0;
    WS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e, stop.e));
    if (run >= r.warmups) out.kernel_ms.push_back(ms);
  }

  WS_CUDA_CHECK(cudaEventRecord(start.e, stream.s));
  WS_CUDA_CHECK(cudaMemcpyAsync(r.c, c.p, c_bytes, cudaMemcpyDeviceToHost, stream.s));
  WS_CUDA_CHECK(cudaEventRecord(stop.e, stream.s));
  WS_CUDA_CHECK(cudaEventSynchronize(stop.e));
  WS_CUDA_CHECK(cudaEventElapsedTime(&d2h_ms, start.e, stop.e));
  out.transfer_ms = static_cast<double>(h2d_ms) + d2h_ms;
  return at;
}

}  // namespace

std::optional<std::string> unavailable_reason() {
  auto& c = cache();
  std::lock_guard lock(c.mutex);
  if (!c.probed) probe_locked(c);
  return c.reason;
}

std::optional<DeviceFacts> device_facts() {
  auto& c = cache();
  std::lock_guard lock(c.mutex);
  if (!c.probed) probe_locked(c);
  return c.facts;
}

std::optional<std::string> unavailable_reason(Kernel k) {
  if (auto why = unavailable_reason()) return why;
  const auto facts = device_facts();
  const int cc = facts ? facts->cc_major * 10 + facts->cc_minor : 0;
  if (facts && cc < min_compute_capability(k))
    return std::string(to_string(k)) + " needs tensor cores with " + (reads_bf16(k) ? "BF16" : "TF32") +
           " (cc 8.0 or newer); " + facts->name + " is cc " + std::to_string(facts->cc_major) + "." +
           std::to_string(facts->cc_minor);
  if (is_cublas(k) && !cublas_api().error.empty()) return cublas_api().error;
  return std::nullopt;
}

std::optional<std::uint64_t> free_memory_bytes() {
  if (unavailable_reason()) return std::nullopt;
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaSetDevice(0) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    (void)cudaGetLastError();  // read here, or the next launch on this thread would report it
    return std::nullopt;
  }
  return free_bytes;
}

std::optional<KernelResources> kernel_resources(Kernel k, int m, int n, int k_dim) {
  if (is_cublas(k)) return std::nullopt;
  const LaunchPlan plan = plan_launch(k, m, n, k_dim);
  KernelResources res;
  res.block_threads = static_cast<int>(plan.block.x * plan.block.y * plan.block.z);
  if (const auto facts = device_facts(); facts && !unavailable_reason(k)) {
    cudaFuncAttributes attr{};
    cudaError_t e = cudaErrorInvalidValue;
    switch (k) {
      case Kernel::naive: e = naive_attributes(&attr); break;
      case Kernel::tiled: e = tiled_attributes(&attr); break;
      case Kernel::regblock: e = regblock_attributes(plan.vector_loads, &attr); break;
      case Kernel::warptiled: e = warptiled_attributes(plan.vector_loads, &attr); break;
      case Kernel::tensor: e = tensor_attributes(plan.vector_loads, &attr); break;
      default: break;
    }
    if (e == cudaSuccess) {
      res.registers = attr.numRegs;
      res.shared_bytes = static_cast<int>(attr.sharedSizeBytes) + dynamic_shared_bytes(k);
      res.max_threads_per_block = attr.maxThreadsPerBlock;
      res.cc_major = facts->cc_major, res.cc_minor = facts->cc_minor;
      res.arch = "sm_" + std::to_string(facts->cc_major * 10 + facts->cc_minor);
      return res;
    }
    (void)cudaGetLastError();
  }
  for (const auto& b : build_resources()) {
    if (b.kernel != to_string(k)) continue;
    if (b.vector_loads >= 0 && (b.vector_loads == 1) != plan.vector_loads) continue;
    res.registers = b.registers;
    res.shared_bytes = b.shared_bytes + dynamic_shared_bytes(k);
    res.from_build = true;
    res.arch = kBuildResourceArch;
    res.cc_major = 9, res.cc_minor = 0;
    return res;
  }
  return std::nullopt;
}

Outcome run(const Run& r) {
  Attempt at = run_once(r);  // every device buffer and handle is released before any reset below
  if (!at.out.error.empty() && at.kind != ErrorKind::transient) {
    // The context is unusable until reset; without this every later job would fail with this
    // error. The next job probes the device afresh.
    cudaDeviceReset();
    (void)cudaGetLastError();
    invalidate_probe();
    at.out.error += "; the GPU was reset, so the next job starts on a fresh context";
  }
  return std::move(at.out);
}

}  // namespace ws::kernels::cuda
