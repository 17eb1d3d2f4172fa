// CUDA keeps the last error of each host thread until cudaGetLastError reads it, and a kernel
// launch reports its own failure only through that same slot. The job runner and the CLI reuse one
// thread for every job, so an unread failure of an earlier call (an out-of-memory, a failed
// query) would be blamed on the next healthy launch. Every launch therefore clears the slot first.
// A template over the API so tests/kernels/cuda_plan_test.cpp can drive it with a fake runtime.
#pragma once

namespace ws::kernels::cuda {

// Api: `discard_pending()` reads and drops the slot; `last_error()` reads (and clears) it.
template <class Api, class Launch>
auto launch_checked(Api& api, Launch&& launch) {
  api.discard_pending();
  launch();
  return api.last_error();
}

}  // namespace ws::kernels::cuda
