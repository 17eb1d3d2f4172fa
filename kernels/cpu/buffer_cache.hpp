// Packing buffers kept between cpu-parallel runs. Freed after each run, a few hundred KiB of
// panels went back to the system (glibc trims the heap's top) and came back as fresh pages on the
// next run: at 256^3 on two threads, faulting them in took about as long as the multiply
// (docs/PERFORMANCE.md, "cpu-parallel at small sizes"). Buffers up to kKeptBufferBytes are kept,
// kKeptTotalBytes in all, so the window's memory stays what its matrices explain; larger ones
// belong to runs whose work dwarfs their page faults.
#pragma once

#include <cstddef>

namespace ws::kernels::cpu {

constexpr std::size_t kKeptBufferBytes = std::size_t{8} << 20;
constexpr std::size_t kKeptTotalBytes = std::size_t{16} << 20;

// A 64-byte-aligned buffer of at least `floats` floats, from the kept ones when one is large
// enough; given back (kept or freed) when the handle goes.
class PackBuffer {
 public:
  explicit PackBuffer(std::size_t floats);
  ~PackBuffer();
  PackBuffer(PackBuffer&& o) noexcept : data_(o.data_), floats_(o.floats_) { o.data_ = nullptr; }
  PackBuffer(const PackBuffer&) = delete;
  PackBuffer& operator=(const PackBuffer&) = delete;
  PackBuffer& operator=(PackBuffer&&) = delete;

  float* get() const { return data_; }

 private:
  float* data_ = nullptr;
  std::size_t floats_ = 0;  // what data_ holds, which may be more than asked
};

// How many buffers are kept now, and their bytes (for tests).
std::size_t kept_pack_buffers();
std::size_t kept_pack_bytes();

}  // namespace ws::kernels::cpu
