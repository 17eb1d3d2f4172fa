// Checks a computed C against an fp64 reference. Internal to the kernels library; the tests use it
// directly to prove it rejects wrong results.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpscope/kernels/job.hpp"

namespace ws::kernels {

struct Verification {
  bool ok = false;
  double max_rel_error = 0;     // max over checked elements of |c - ref| / sum_k |a_ik * b_kj|
  double tolerance = 0;
  std::size_t checked = 0;      // elements compared with the reference
  std::size_t non_finite = 0;   // NaN/Inf anywhere in C (always scanned in full)
  bool full = false;            // every element compared, not a sample
};

// Tolerance on the normalized error above for an inner dimension k (see docs/KERNELS.md).
double verification_tolerance(int k);

// Whether every element is compared (else a random sample of kSampleSize elements).
bool verifies_every_element(const Shape& s);
inline constexpr std::size_t kSampleSize = 4096;

Verification verify(const float* a, const float* b, const float* c, const Shape& s,
                    std::uint64_t seed);
// The same with a given tolerance (format_tolerance for the reduced-precision kernels).
Verification verify(const float* a, const float* b, const float* c, const Shape& s, std::uint64_t seed,
                    double tolerance);

}  // namespace ws::kernels
