// The narrow-B kernels (narrow_b.hpp) in plain C++ for any CPU: eight floats as an array whose
// element-wise loops the compiler turns into the target's vectors (SSE2, NEON). Eight separate
// sums are what lets it: a single float sum would have to be added in order.

#include "cpu/narrow_b.hpp"

namespace ws::kernels::cpu {

namespace {

struct Floats8 {
  struct reg {
    float v[8];
  };
  static constexpr int width = 8;
  static constexpr int registers = 8;  // an SSE2 or NEON register holds half of one
  static reg zero() { return reg{}; }
  static reg loadu(const float* p) {
    reg r;
    for (int i = 0; i < 8; ++i) r.v[i] = p[i];
    return r;
  }
  static void storeu(float* p, reg r) {
    for (int i = 0; i < 8; ++i) p[i] = r.v[i];
  }
  static reg fma(reg a, reg b, reg c) {
    for (int i = 0; i < 8; ++i) c.v[i] += a.v[i] * b.v[i];
    return c;
  }
  static reg broadcast(const float* p) {
    reg r;
    for (int i = 0; i < 8; ++i) r.v[i] = *p;
    return r;
  }
  using mask = int;  // how many of the first lanes
  static mask first(int n) { return n; }
  static reg load_first(const float* p, mask n) {
    reg r{};
    for (int i = 0; i < n; ++i) r.v[i] = p[i];
    return r;
  }
  static void store_first(float* p, reg r, mask n) {
    for (int i = 0; i < n; ++i) p[i] = r.v[i];
  }
  static float total(reg r) {
    return ((r.v[0] + r.v[1]) + (r.v[2] + r.v[3])) + ((r.v[4] + r.v[5]) + (r.v[6] + r.v[7]));
  }
};

}  // namespace

void row_dots_portable(int rows, int n, int k, const float* a, long lda, const float* bt, long ldb, float* c, long ldc,
                   bool accumulate) {
  row_dots<Floats8>(rows, n, k, a, lda, bt, ldb, c, ldc, accumulate);
}

void row_broadcasts_portable(int rows, int n, int k, const float* a, long lda, const float* b, long ldb, float* c,
                         long ldc, bool accumulate) {
  row_broadcasts<Floats8>(rows, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

}  // namespace ws::kernels::cpu
