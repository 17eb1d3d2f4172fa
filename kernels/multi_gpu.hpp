// cuda-multi: one C = A*B split by columns of B over every CUDA GPU of this machine (tensor
// parallelism's column split, issue 15 item 5). Each GPU gets all of A and its own slice of B's
// columns, computes C[:, slice] with cuBLAS, and copies its slice straight back into C: no GPU
// needs another's data, so no peer copies and no NCCL. Implemented in cuda/multi_gpu.cpp with the
// CUDA toolkit, by cuda/cuda_stub.cpp without it. Kept outside cuda/ so that adding it did not
// re-run the ptxas report of the kernels there. docs/CLUSTER.md.
#pragma once

#include <optional>
#include <string>

#include "cuda/cuda_backend.hpp"

namespace ws::kernels::cuda {

// CUDA devices this process sees; 0 without a driver or a GPU. Probed once.
int device_count();

// nullopt when there are at least two GPUs and cuBLAS loads; else the reason, plainly:
// "needs 2 CUDA GPUs; this machine has 0".
std::optional<std::string> multi_unavailable_reason();

// The columns of an n-column C that GPU `device` of `devices` computes: [first, first + count).
// Even shares, the first n % devices GPUs one column more.
struct ColumnShare {
  int first = 0, count = 0;
};
inline ColumnShare column_share(int n, int devices, int device) {
  const int base = n / devices, extra = n % devices;
  return {device * base + (device < extra ? device : extra), base + (device < extra ? 1 : 0)};
}

// Runs r (its kernel field ignored) split over min(device_count(), n) GPUs. kernel_ms is, per
// timed repeat, the wall time from launching every GPU's multiply to the last one finishing;
// transfer_ms the copies of A, the B slices and the C slices. notes name each GPU and its columns.
Outcome run_multi(const Run& r);

}  // namespace ws::kernels::cuda
