// Packing buffers kept between cpu-parallel runs. Freed after each run, a few hundred KiB of
// panels went back to the system (glibc trims the heap's top) and came back as fresh pages on the
// next run: at 256^3 on two threads, faulting them in took about as long as the multiply
// (docs/PERFORMANCE.md, "cpu-parallel at small sizes"). Buffers up to kKeptBufferBytes are kept,
// kKeptTotalBytes in all. Besides them one larger buffer, up to kKeptLargeBytes, is kept: the
// packed B panel of a large product. Freed, its 16 MiB at 2048^3 came back from fresh pages on
// every run and cost 5 % on one thread and 7 % on two ("Keeping the packed B panel"). So after a
// large run the window holds at most 80 MiB it did not before, next to the matrices that explain
// it (48 MiB at 2048^3, 192 MiB at 4096^3), until a later large run replaces it.
#pragma once

#include <cstddef>

namespace ws::kernels::cpu {

constexpr std::size_t kKeptBufferBytes = std::size_t{8} << 20;
constexpr std::size_t kKeptTotalBytes = std::size_t{16} << 20;
constexpr std::size_t kKeptLargeBytes = std::size_t{64} << 20;  // parallel.cpp's kMaxPackedB

// A 64-byte-aligned buffer of at least `floats` floats, from the kept ones when one is large
// enough (the kept large one only for a request over kKeptBufferBytes); given back (kept or
// freed) when the handle goes. None for 0 floats (get() is null).
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

// How many buffers up to kKeptBufferBytes are kept now, and their bytes; the kept large one's
// bytes, 0 for none (for tests).
std::size_t kept_pack_buffers();
std::size_t kept_pack_bytes();
std::size_t kept_large_pack_bytes();

}  // namespace ws::kernels::cpu
