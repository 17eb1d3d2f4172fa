// Verification against an fp64 reference. The error of an element is normalised by
// sum_k |a_ik * b_kj| rather than by |c_ij|: C entries are sums of signed terms that can cancel to
// nearly zero, where a plain relative error would blame rounding the kernel could not avoid.

#include "verify.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ws::kernels {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double normalised_error(double c, double ref, double magnitude) {
  const double diff = std::fabs(c - ref);
  return magnitude > 0 ? diff / magnitude : diff;
}

}  // namespace

double verification_tolerance(int k) {
  // Rounding a k-term fp32 dot product is bounded by about k * u * sum|a*b| (u = 2^-24) whatever
  // the summation order; random inputs stay far below that. Capping at 1e-4 keeps the check sharp
  // for large k (a dropped or doubled term moves the normalised error by ~1/k, still > 1e-4 up to
  // k ~ 10^4), and 4u is the floor for k = 1, where one rounding is the whole error.
  constexpr double u = 0x1p-24;
  return std::min(1e-4, std::max(4.0, 2.0 * k) * u);
}

bool verifies_every_element(const Shape& s) {
  const double elements = static_cast<double>(s.m) * s.n;
  return elements <= 65536.0 && elements * s.k <= 268435456.0;  // 64K elements, 2^28 multiply-adds
}

Verification verify(const float* a, const float* b, const float* c, const Shape& s,
                    std::uint64_t seed) {
  return verify(a, b, c, s, seed, verification_tolerance(s.k));
}

Verification verify(const float* a, const float* b, const float* c, const Shape& s, std::uint64_t seed,
                    double tolerance) {
  Verification v;
  v.tolerance = tolerance;
  const long m = s.m, n = s.n, k = s.k;

  // A sampled check would miss cells the kernel never wrote, so scan all of C for the NaN poison.
  for (long i = 0; i < m * n; ++i)
    if (!std::isfinite(c[i])) ++v.non_finite;

  auto account = [&](long i, long j, double ref, double magnitude) {
    const double cij = c[i * n + j];
    ++v.checked;
    if (std::isfinite(cij)) v.max_rel_error = std::max(v.max_rel_error, normalised_error(cij, ref, magnitude));
  };

  if (verifies_every_element(s)) {
    v.full = true;
    std::vector<double> ref(n), magnitude(n);
    for (long i = 0; i < m; ++i) {
      std::fill(ref.begin(), ref.end(), 0.0);
      std::fill(magnitude.begin(), magnitude.end(), 0.0);
      for (long p = 0; p < k; ++p) {
        const double aip = a[i * k + p];
        const float* bp = b + p * n;
        for (long j = 0; j < n; ++j) {
          const double term = aip * bp[j];
          ref[j] += term;
          magnitude[j] += std::fabs(term);
        }
      }
      for (long j = 0; j < n; ++j) account(i, j, ref[j], magnitude[j]);
    }
  } else {
    std::uint64_t state = seed ^ 0x5EED5A3B1Eull;
    // The corners always, because edge tiles are where blocked kernels go wrong.
    const long fixed[4][2] = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}};
    for (std::size_t t = 0; t < kSampleSize; ++t) {
      long i, j;
      if (t < 4) {
        i = fixed[t][0];
        j = fixed[t][1];
      } else {
        i = static_cast<long>(splitmix64(state) % static_cast<std::uint64_t>(m));
        j = static_cast<long>(splitmix64(state) % static_cast<std::uint64_t>(n));
      }
      double ref = 0, magnitude = 0;
      for (long p = 0; p < k; ++p) {
        const double term = static_cast<double>(a[i * k + p]) * b[p * n + j];
        ref += term;
        magnitude += std::fabs(term);
      }
      account(i, j, ref, magnitude);
    }
  }
  v.ok = v.non_finite == 0 && v.max_rel_error <= v.tolerance;
  return v;
}

}  // namespace ws::kernels
