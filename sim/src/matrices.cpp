// Inputs and the fp64 reference.
#include "warpscope/sim/matrices.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <thread>
#include <vector>

namespace ws::sim {

void fill_uniform(std::span<float> out, std::uint64_t seed) {
  // xorshift64 seeded as in kernels/job.cpp, so the same seed gives the real kernels' inputs.
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  for (float& x : out) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    const auto u = static_cast<std::int64_t>(state >> 40);
    x = static_cast<float>(2 * u + 1 - (std::int64_t{1} << 24)) * 0x1p-24f;
  }
}

Inputs make_inputs(int m, int n, int k, std::uint64_t seed) {
  Inputs in;
  in.m = m;
  in.n = n;
  in.k = k;
  in.a.resize(static_cast<std::size_t>(m) * k);
  in.b.resize(static_cast<std::size_t>(k) * n);
  fill_uniform(in.a, seed);
  fill_uniform(in.b, seed + 1);
  return in;
}

float round_to_bf16(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  if ((u & 0x7F800000u) == 0x7F800000u) {
    u |= (u & 0x007FFFFFu) != 0 ? 0x00400000u : 0;  // NaN stays NaN (quiet), infinities stay
  } else {
    u += 0x7FFFu + ((u >> 16) & 1u);  // to nearest, ties to even; may carry into the exponent
  }
  u &= 0xFFFF0000u;
  float r;
  std::memcpy(&r, &u, 4);
  return r;
}

Inputs rounded_to_bf16(Inputs in) {
  for (float& x : in.a) x = round_to_bf16(x);
  for (float& x : in.b) x = round_to_bf16(x);
  return in;
}

namespace {

// Rows lo..hi of the reference: i-p-j order keeps the inner loop contiguous so it vectorizes. On a
// CPU with AVX2 a second copy takes four doubles a step instead of SSE2's two (a sixth of
// `simulate`'s time at 1024³ was this loop). Not FMA: a fused multiply-add would round once where
// this rounds twice, and the reference (and the max_rel_error `simulate --json` prints) must be
// the same on every machine. Chosen by a pointer rather than GCC's target_clones, whose ifunc
// resolver crashes a ThreadSanitizer build at load.
//
// Four steps of p at a time keep a cell's two sums in registers between them instead of storing
// and loading them at every step; each cell still adds its products one by one in p's order, so
// every sum is the same double.
[[gnu::always_inline]] inline void reference_rows_body(const Inputs& in, Reference& r, std::size_t lo, std::size_t hi) {
  const std::size_t n = in.n, k = in.k;
  for (std::size_t i = lo; i < hi; ++i) {
    double* c = &r.c[i * n];
    double* s = &r.abs_sum[i * n];
    const float* a_row = &in.a[i * k];
    std::size_t p = 0;
    for (; p + 4 <= k; p += 4) {
      const double a0 = a_row[p], a1 = a_row[p + 1], a2 = a_row[p + 2], a3 = a_row[p + 3];
      const float* b0 = &in.b[p * n];
      const float* b1 = b0 + n;
      const float* b2 = b1 + n;
      const float* b3 = b2 + n;
      for (std::size_t j = 0; j < n; ++j) {
        double cj = c[j], sj = s[j];
        const double t0 = a0 * b0[j], t1 = a1 * b1[j], t2 = a2 * b2[j], t3 = a3 * b3[j];
        cj += t0;
        sj += std::fabs(t0);
        cj += t1;
        sj += std::fabs(t1);
        cj += t2;
        sj += std::fabs(t2);
        cj += t3;
        sj += std::fabs(t3);
        c[j] = cj;
        s[j] = sj;
      }
    }
    for (; p < k; ++p) {
      const double a = a_row[p];
      const float* b = &in.b[p * n];
      for (std::size_t j = 0; j < n; ++j) {
        c[j] += a * b[j];
        s[j] += std::fabs(a * b[j]);
      }
    }
  }
}

void reference_rows_generic(const Inputs& in, Reference& r, std::size_t lo, std::size_t hi) {
  reference_rows_body(in, r, lo, hi);
}

__attribute__((target("avx2"))) void reference_rows_avx2(const Inputs& in, Reference& r, std::size_t lo,
                                                          std::size_t hi) {
  reference_rows_body(in, r, lo, hi);
}

using ReferenceRows = void (*)(const Inputs&, Reference&, std::size_t, std::size_t);
const ReferenceRows reference_rows = __builtin_cpu_supports("avx2") ? &reference_rows_avx2 : &reference_rows_generic;

}  // namespace

Reference reference_gemm(const Inputs& in) {
  const std::size_t m = in.m, n = in.n, k = in.k;
  Reference r;
  r.c.assign(m * n, 0.0);
  r.abs_sum.assign(m * n, 0.0);
  auto rows = [&](std::size_t lo, std::size_t hi) { reference_rows(in, r, lo, hi); };
  // Rows are independent, so the cores split them and each cell is the same sum in the same
  // order whatever the split. Small products are not worth a thread.
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t parts = std::min<std::size_t>({cores, m, std::max<std::size_t>(1, m * n * k >> 22)});
  std::vector<std::thread> helpers;
  for (std::size_t part = 1; part < parts; ++part) helpers.emplace_back(rows, m * part / parts, m * (part + 1) / parts);
  rows(0, m / parts);
  for (auto& t : helpers) t.join();
  return r;
}

Verification verify(std::span<const float> c, const Reference& ref, int k) {
  Verification v;
  const double gamma = static_cast<double>(k) * 0x1p-24;
  for (std::size_t idx = 0; idx < ref.c.size(); ++idx) {
    const double err = std::fabs(static_cast<double>(c[idx]) - ref.c[idx]);
    const double bound = gamma * ref.abs_sum[idx] + 1e-30;
    if (!(err <= bound)) ++v.bad_cells;  // NaN counts as bad
    if (err > v.max_abs_error) v.max_abs_error = err;
    const double rel = ref.abs_sum[idx] > 0 ? err / ref.abs_sum[idx] : err;
    if (rel > v.max_rel_error) v.max_rel_error = rel;
  }
  v.ok = v.bad_cells == 0 && c.size() == ref.c.size();
  return v;
}

}  // namespace ws::sim
