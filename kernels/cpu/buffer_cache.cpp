#include "cpu/buffer_cache.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace ws::kernels::cpu {

namespace {

// A run takes one buffer per thread and one for B: two threads at 1024^3 keep ~5 MiB.
constexpr std::size_t kMostKept = 16;

struct Kept {
  float* data;
  std::size_t floats;
};

struct Cache {
  std::mutex lock;
  std::vector<Kept> buffers;
  std::size_t bytes = 0;  // held by `buffers`
  Kept large{nullptr, 0};  // over kKeptBufferBytes, up to kKeptLargeBytes
};

Cache& cache() {
  static Cache* const c = new Cache;  // never destroyed: a run may still give a buffer back at exit
  return *c;
}

float* allocate(std::size_t floats) {
  // 64-byte alignment: packed panels start on cache lines and satisfy aligned AVX/AVX-512 loads.
  const std::size_t bytes = (std::max<std::size_t>(floats, 1) * sizeof(float) + 63) / 64 * 64;
  auto* p = static_cast<float*>(std::aligned_alloc(64, bytes));
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

}  // namespace

PackBuffer::PackBuffer(std::size_t floats) {
  if (floats == 0) return;  // an order that packs nothing: no lock, no buffer
  {
    Cache& c = cache();
    std::lock_guard guard(c.lock);
    if (floats * sizeof(float) > kKeptBufferBytes && c.large.floats >= floats) {
      data_ = std::exchange(c.large.data, nullptr);
      floats_ = std::exchange(c.large.floats, 0);
      return;
    }
    // The smallest kept buffer that is large enough, so a small run does not take a large one.
    auto best = c.buffers.end();
    for (auto it = c.buffers.begin(); it != c.buffers.end(); ++it)
      if (it->floats >= floats && (best == c.buffers.end() || it->floats < best->floats)) best = it;
    if (best != c.buffers.end()) {
      data_ = best->data;
      floats_ = best->floats;
      c.bytes -= floats_ * sizeof(float);
      c.buffers.erase(best);
      return;
    }
  }
  data_ = allocate(floats);
  floats_ = floats;
}

PackBuffer::~PackBuffer() {
  if (data_ == nullptr) return;
  const std::size_t bytes = floats_ * sizeof(float);
  if (bytes > kKeptBufferBytes && bytes <= kKeptLargeBytes) {
    Cache& c = cache();
    std::lock_guard guard(c.lock);
    // The latest is kept: the next run is most likely the same product again (a job's repeats).
    std::free(c.large.data);
    c.large = {data_, floats_};
    return;
  }
  if (bytes <= kKeptBufferBytes) {
    Cache& c = cache();
    std::lock_guard guard(c.lock);
    // Room is made by dropping smaller kept buffers, which the next runs are least likely to want.
    auto fits = [&] { return c.buffers.size() < kMostKept && c.bytes + bytes <= kKeptTotalBytes; };
    while (!fits()) {
      const auto smallest = std::min_element(c.buffers.begin(), c.buffers.end(),
                                             [](const Kept& a, const Kept& b) { return a.floats < b.floats; });
      if (smallest == c.buffers.end() || smallest->floats >= floats_) break;
      std::free(smallest->data);
      c.bytes -= smallest->floats * sizeof(float);
      c.buffers.erase(smallest);
    }
    if (fits()) {
      c.buffers.push_back({data_, floats_});
      c.bytes += bytes;
      return;
    }
  }
  std::free(data_);
}

std::size_t kept_pack_buffers() {
  Cache& c = cache();
  std::lock_guard guard(c.lock);
  return c.buffers.size();
}

std::size_t kept_pack_bytes() {
  Cache& c = cache();
  std::lock_guard guard(c.lock);
  return c.bytes;
}

std::size_t kept_large_pack_bytes() {
  Cache& c = cache();
  std::lock_guard guard(c.lock);
  return c.large.floats * sizeof(float);
}

}  // namespace ws::kernels::cpu
