#include "multi_gpu.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "cuda/cublas_api.hpp"

namespace ws::kernels::cuda {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

std::string describe(cudaError_t e, const char* call, int device) {
  return std::string("CUDA error on GPU ") + std::to_string(device) + " in " + call + ": " + cudaGetErrorName(e) +
         " (" + cudaGetErrorString(e) + ")";
}

// What one GPU holds; released on every path out of run_multi.
struct Shard {
  int device = 0;
  ColumnShare cols;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;

  Shard() = default;
  Shard(const Shard&) = delete;
  Shard& operator=(const Shard&) = delete;
  ~Shard() {
    if (cudaSetDevice(device) != cudaSuccess) return;
    if (blas) cublas_api().destroy(blas);
    for (cudaEvent_t e : {start, stop})
      if (e) cudaEventDestroy(e);
    if (stream) cudaStreamDestroy(stream);
    for (float* p : {a, b, c})
      if (p) cudaFree(p);
  }
};

}  // namespace

int device_count() {
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();  // no driver or no device: none to split over
      return 0;
    }
    return n;
  }();
  return count;
}

std::optional<std::string> multi_unavailable_reason() {
  const int n = device_count();
  if (n < 2) return "needs 2 CUDA GPUs; this machine has " + std::to_string(n);
  if (!cublas_api().error.empty()) return cublas_api().error;
  return std::nullopt;
}

Outcome run_multi(const Run& r) {
  Outcome out;
  if (const auto why = multi_unavailable_reason()) {
    out.error = *why;
    out.before_kernel = true;
    return out;
  }
  const auto& api = cublas_api();
  const int devices = std::min(device_count(), r.n);
  std::vector<Shard> shards(static_cast<std::size_t>(devices));
  const std::size_t fsize = sizeof(float);
  const auto fail = [&](cudaError_t e, const char* call, int device, bool before) {
    out.error = describe(e, call, device);
    out.before_kernel = before;
    (void)cudaGetLastError();
    return out;
  };
#define WS_MULTI_CHECK(call, device, before)                   \
  do {                                                         \
    const cudaError_t ws_err_ = (call);                        \
    if (ws_err_ != cudaSuccess) return fail(ws_err_, #call, device, before); \
  } while (0)

  // Setup and uploads: all of A to every GPU, each GPU its columns of B (a strided 2D copy).
  const auto upload_start = Clock::now();
  for (int d = 0; d < devices; ++d) {
    Shard& s = shards[static_cast<std::size_t>(d)];
    s.device = d;
    s.cols = column_share(r.n, devices, d);
    WS_MULTI_CHECK(cudaSetDevice(d), d, true);
    WS_MULTI_CHECK(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), d, true);
    WS_MULTI_CHECK(cudaEventCreate(&s.start), d, true);
    WS_MULTI_CHECK(cudaEventCreate(&s.stop), d, true);
    WS_MULTI_CHECK(cudaMalloc(&s.a, fsize * r.m * r.k), d, true);
    WS_MULTI_CHECK(cudaMalloc(&s.b, fsize * r.k * s.cols.count), d, true);
    WS_MULTI_CHECK(cudaMalloc(&s.c, fsize * r.m * s.cols.count), d, true);
    if (api.create(&s.blas) != CUBLAS_STATUS_SUCCESS || api.set_stream(s.blas, s.stream) != CUBLAS_STATUS_SUCCESS ||
        api.set_math_mode(s.blas, CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS) {
      out.error = "cuBLAS could not be set up on GPU " + std::to_string(d);
      out.before_kernel = true;
      return out;
    }
    WS_MULTI_CHECK(cudaMemcpyAsync(s.a, r.a, fsize * r.m * r.k, cudaMemcpyHostToDevice, s.stream), d, true);
    WS_MULTI_CHECK(cudaMemcpy2DAsync(s.b, fsize * s.cols.count, r.b + s.cols.first, fsize * r.n,
                                     fsize * s.cols.count, r.k, cudaMemcpyHostToDevice, s.stream),
                   d, true);
  }
  for (auto& s : shards) {
    WS_MULTI_CHECK(cudaSetDevice(s.device), s.device, true);
    WS_MULTI_CHECK(cudaStreamSynchronize(s.stream), s.device, true);
  }
  out.transfer_ms = ms_since(upload_start);
  out.notes.push_back(api.library + " (loaded at run time)");
  out.notes.push_back("column split over " + std::to_string(devices) + " GPUs, no peer copies");

  // Each GPU computes its slice: row-major C[:, slice] (m x cols) is column-major cols x m, and
  // C^T = B_slice^T A^T, as in the single-GPU cuBLAS kernel.
  const float one = 1.0f, zero = 0.0f;
  const int runs = std::max(0, r.warmups) + std::max(1, r.repeats);
  std::vector<float> last_gpu_ms(shards.size(), 0.0f);
  for (int run = 0; run < runs; ++run) {
    if (r.control.cancelled()) {
      out.cancelled = true;
      return out;
    }
    const auto start = Clock::now();
    for (auto& s : shards) {
      WS_MULTI_CHECK(cudaSetDevice(s.device), s.device, false);
      WS_MULTI_CHECK(cudaEventRecord(s.start, s.stream), s.device, false);
      if (api.sgemm(s.blas, CUBLAS_OP_N, CUBLAS_OP_N, s.cols.count, r.m, r.k, &one, s.b, s.cols.count, s.a, r.k,
                    &zero, s.c, s.cols.count) != CUBLAS_STATUS_SUCCESS) {
        out.error = "cublasSgemm failed on GPU " + std::to_string(s.device);
        return out;
      }
      WS_MULTI_CHECK(cudaEventRecord(s.stop, s.stream), s.device, false);
    }
    for (std::size_t i = 0; i < shards.size(); ++i) {
      Shard& s = shards[i];
      WS_MULTI_CHECK(cudaSetDevice(s.device), s.device, false);
      WS_MULTI_CHECK(cudaEventSynchronize(s.stop), s.device, false);
      WS_MULTI_CHECK(cudaEventElapsedTime(&last_gpu_ms[i], s.start, s.stop), s.device, false);
    }
    const double ms = ms_since(start);
    if (run >= std::max(0, r.warmups)) out.kernel_ms.push_back(ms);
    r.control.report(static_cast<double>(run + 1) / runs);
  }

  // Each slice straight into its columns of C.
  const auto download_start = Clock::now();
  for (auto& s : shards) {
    WS_MULTI_CHECK(cudaSetDevice(s.device), s.device, false);
    WS_MULTI_CHECK(cudaMemcpy2DAsync(r.c + s.cols.first, fsize * r.n, s.c, fsize * s.cols.count,
                                     fsize * s.cols.count, r.m, cudaMemcpyDeviceToHost, s.stream),
                   s.device, false);
  }
  for (auto& s : shards) {
    WS_MULTI_CHECK(cudaSetDevice(s.device), s.device, false);
    WS_MULTI_CHECK(cudaStreamSynchronize(s.stream), s.device, false);
  }
  out.transfer_ms += ms_since(download_start);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    cudaDeviceProp prop{};
    const bool named = cudaGetDeviceProperties(&prop, shards[i].device) == cudaSuccess;
    out.notes.push_back("GPU " + std::to_string(shards[i].device) + (named ? std::string(" ") + prop.name : "") +
                        ": columns " + std::to_string(shards[i].cols.first) + ".." +
                        std::to_string(shards[i].cols.first + shards[i].cols.count - 1) + ", last multiply " +
                        std::to_string(last_gpu_ms[i]) + " ms (CUDA events)");
  }
#undef WS_MULTI_CHECK
  return out;
}

}  // namespace ws::kernels::cuda
