// The GPU kernels (cuda-naive, cuda-tiled, cublas) and their timing. Every CUDA and cuBLAS call is
// checked and turned into Outcome::error: a benchmark on a student's machine must report a broken
// driver or a full GPU, never abort the program.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>

#include "cuda/cuda_backend.hpp"

namespace ws::kernels::cuda {

namespace {

constexpr int kTile = 32;
constexpr int kNaiveBlock = 16;

std::string describe(cudaError_t e, const char* call) {
  return std::string("CUDA error in ") + call + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
}

std::string describe(cublasStatus_t s, const char* call) {
  return std::string("cuBLAS error in ") + call + ": " + cublasGetStatusName(s) + " (" + cublasGetStatusString(s) + ")";
}

#define WS_CUDA_CHECK(call)                                                 \
  do {                                                                      \
    const cudaError_t ws_err_ = (call);                                     \
    if (ws_err_ != cudaSuccess) {                                           \
      out.error = describe(ws_err_, #call);                                 \
      return out;                                                           \
    }                                                                       \
  } while (0)

#define WS_CUBLAS_CHECK(call)                                               \
  do {                                                                      \
    const cublasStatus_t ws_st_ = (call);                                   \
    if (ws_st_ != CUBLAS_STATUS_SUCCESS) {                                  \
      out.error = describe(ws_st_, #call);                                  \
      return out;                                                           \
    }                                                                       \
  } while (0)

// Owners so that every early return on an error still frees what was created.
struct DeviceBuffer {
  float* p = nullptr;
  ~DeviceBuffer() { if (p) cudaFree(p); }
};
struct Event {
  cudaEvent_t e = nullptr;
  ~Event() { if (e) cudaEventDestroy(e); }
};
struct Handle {
  cublasHandle_t h = nullptr;
  ~Handle() { if (h) cublasDestroy(h); }
};

// One thread per element of C; threadIdx.x runs along a row of C so a warp reads consecutive
// elements of B (coalesced) and one broadcast element of A.
__global__ void naive_kernel(int m, int n, int k, const float* __restrict__ a,
                             const float* __restrict__ b, float* __restrict__ c) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += a[static_cast<long>(row) * k + p] * b[static_cast<long>(p) * n + col];
  c[static_cast<long>(row) * n + col] = sum;
}

// Each block stages a 32x32 tile of A and of B in shared memory, so every value loaded from
// global memory is used 32 times instead of once. Out-of-range cells are loaded as zeros so
// shapes that are not multiples of the tile need no special path in the inner loop.
__global__ void tiled_kernel(int m, int n, int k, const float* __restrict__ a,
                             const float* __restrict__ b, float* __restrict__ c) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int t = 0; t < k; t += kTile) {
    as[ty][tx] = (row < m && t + tx < k) ? a[static_cast<long>(row) * k + t + tx] : 0.0f;
    bs[ty][tx] = (t + ty < k && col < n) ? b[static_cast<long>(t + ty) * n + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kTile; ++p) sum += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<long>(row) * n + col] = sum;
}

bool driver_library_present() {
  void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) return false;
  dlclose(lib);
  return true;
}

std::optional<std::string> probe() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e == cudaErrorInsufficientDriver)
    return driver_library_present()
               ? "CUDA driver too old for this build: cudaErrorInsufficientDriver"
               : "no CUDA driver: cudaErrorInsufficientDriver";
  if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0))
    return std::string("no CUDA device: cudaErrorNoDevice");
  if (e != cudaSuccess) return std::string("CUDA unavailable: ") + cudaGetErrorName(e);
  cudaDeviceProp prop{};
  const cudaError_t pe = cudaGetDeviceProperties(&prop, 0);
  if (pe != cudaSuccess) return std::string("CUDA device 0 unusable: ") + cudaGetErrorName(pe);
  // The build carries machine code for sm_75..sm_90 and PTX for sm_90 only.
  if (prop.major * 10 + prop.minor < 75)
    return std::string("CUDA device ") + prop.name + " (cc " + std::to_string(prop.major) + "." +
           std::to_string(prop.minor) + ") is older than the oldest architecture built (sm_75)";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unavailable_reason() {
  static const std::optional<std::string> reason = probe();
  return reason;
}

std::optional<DeviceFacts> device_facts() {
  if (unavailable_reason()) return std::nullopt;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return std::nullopt;
  DeviceFacts f;
  f.name = prop.name;
  f.cc_major = prop.major;
  f.cc_minor = prop.minor;
  f.sm_count = prop.multiProcessorCount;
  f.memory_bytes = prop.totalGlobalMem;
  int clock_khz = 0;  // cudaDeviceProp::clockRate is gone in CUDA 13; the attribute remains
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0) == cudaSuccess) f.clock_mhz = clock_khz / 1000.0;
  return f;
}

std::optional<std::uint64_t> free_memory_bytes() {
  if (unavailable_reason()) return std::nullopt;
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaSetDevice(0) != cudaSuccess || cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
    return std::nullopt;
  return free_bytes;
}

Outcome run(const Run& r) {
  Outcome out;
  out.before_kernel = true;
  if (const auto why = unavailable_reason()) {
    out.error = *why;
    return out;
  }
  const std::size_t a_bytes = static_cast<std::size_t>(r.m) * r.k * sizeof(float);
  const std::size_t b_bytes = static_cast<std::size_t>(r.k) * r.n * sizeof(float);
  const std::size_t c_bytes = static_cast<std::size_t>(r.m) * r.n * sizeof(float);

  WS_CUDA_CHECK(cudaSetDevice(0));
  DeviceBuffer a, b, c;
  WS_CUDA_CHECK(cudaMalloc(&a.p, a_bytes));
  WS_CUDA_CHECK(cudaMalloc(&b.p, b_bytes));
  WS_CUDA_CHECK(cudaMalloc(&c.p, c_bytes));
  Event start, stop;
  WS_CUDA_CHECK(cudaEventCreate(&start.e));
  WS_CUDA_CHECK(cudaEventCreate(&stop.e));
  Handle blas;
  if (r.kernel == Kernel::cublas) {
    WS_CUBLAS_CHECK(cublasCreate(&blas.h));
    // Plain fp32 FMA, no TF32 shortcut: the comparison with the CPU kernels is like for like.
    WS_CUBLAS_CHECK(cublasSetMathMode(blas.h, CUBLAS_DEFAULT_MATH));
  }

  float h2d_ms = 0, d2h_ms = 0;
  WS_CUDA_CHECK(cudaEventRecord(start.e));
  WS_CUDA_CHECK(cudaMemcpy(a.p, r.a, a_bytes, cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaMemcpy(b.p, r.b, b_bytes, cudaMemcpyHostToDevice));
  WS_CUDA_CHECK(cudaEventRecord(stop.e));
  WS_CUDA_CHECK(cudaEventSynchronize(stop.e));
  WS_CUDA_CHECK(cudaEventElapsedTime(&h2d_ms, start.e, stop.e));

  out.before_kernel = false;
  const int total = r.warmups + r.repeats;
  const float one = 1.0f, zero = 0.0f;
  for (int run = 0; run < total; ++run) {
    if (r.control.cancelled()) {
      out.cancelled = true;
      return out;
    }
    // All-ones bytes are a NaN in fp32: a kernel that misses a cell cannot pass as correct.
    WS_CUDA_CHECK(cudaMemset(c.p, 0xFF, c_bytes));
    WS_CUDA_CHECK(cudaEventRecord(start.e));
    switch (r.kernel) {
      case Kernel::naive: {
        const dim3 block(kNaiveBlock, kNaiveBlock);
        const dim3 grid((r.n + kNaiveBlock - 1) / kNaiveBlock, (r.m + kNaiveBlock - 1) / kNaiveBlock);
        naive_kernel<<<grid, block>>>(r.m, r.n, r.k, a.p, b.p, c.p);
        WS_CUDA_CHECK(cudaGetLastError());
        break;
      }
      case Kernel::tiled: {
        const dim3 block(kTile, kTile);
        const dim3 grid((r.n + kTile - 1) / kTile, (r.m + kTile - 1) / kTile);
        tiled_kernel<<<grid, block>>>(r.m, r.n, r.k, a.p, b.p, c.p);
        WS_CUDA_CHECK(cudaGetLastError());
        break;
      }
      case Kernel::cublas:
        // cuBLAS is column-major. A row-major m x n C is a column-major n x m matrix C^T, and
        // C^T = B^T A^T, where row-major B and A read column-major are exactly B^T and A^T.
        WS_CUBLAS_CHECK(cublasSgemm(blas.h, CUBLAS_OP_N, CUBLAS_OP_N, r.n, r.m, r.k, &one, b.p,
                                    r.n, a.p, r.k, &zero, c.p, r.n));
        break;
    }
    WS_CUDA_CHECK(cudaEventRecord(stop.e));
    WS_CUDA_CHECK(cudaEventSynchronize(stop.e));
    float ms = 0;
    WS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e, stop.e));
    if (run >= r.warmups) out.kernel_ms.push_back(ms);
    r.control.report(static_cast<double>(run + 1) / total);
  }

  WS_CUDA_CHECK(cudaEventRecord(start.e));
  WS_CUDA_CHECK(cudaMemcpy(r.c, c.p, c_bytes, cudaMemcpyDeviceToHost));
  WS_CUDA_CHECK(cudaEventRecord(stop.e));
  WS_CUDA_CHECK(cudaEventSynchronize(stop.e));
  WS_CUDA_CHECK(cudaEventElapsedTime(&d2h_ms, start.e, stop.e));
  out.transfer_ms = static_cast<double>(h2d_ms) + d2h_ms;
  return out;
}

}  // namespace ws::kernels::cuda
