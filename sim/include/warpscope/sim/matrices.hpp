// The inputs every simulation multiplies and the fp64 reference it is checked against.
// The generator is the one the real kernels use (kernels/job.cpp), so a seed names the same A and B.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace ws::sim {

// Seeded values in (-1, 1), never zero: odd multiples of 2^-24, exact in fp32.
void fill_uniform(std::span<float> out, std::uint64_t seed);

struct Inputs {
  int m = 0, n = 0, k = 0;
  std::vector<float> a;  // m x k, row-major; filled with seed
  std::vector<float> b;  // k x n, row-major; filled with seed + 1
};
Inputs make_inputs(int m, int n, int k, std::uint64_t seed);

// x rounded to the nearest BF16 (8-bit significand, ties to even), as a float: what a kernel
// that stores its inputs in BF16 multiplies (the tensor model).
float round_to_bf16(float x);
// The same inputs with A and B rounded to BF16: the tensor model is checked against their fp64
// product, since the rounding is the format's, not the kernel's error.
Inputs rounded_to_bf16(Inputs in);

// C = A*B in fp64 (row-major m x n), and per cell sum_k |a_ik * b_kj| for error bounds.
struct Reference {
  std::vector<double> c;
  std::vector<double> abs_sum;
};
Reference reference_gemm(const Inputs& in);

struct Verification {
  bool ok = false;
  double max_abs_error = 0;
  double max_rel_error = 0;   // error / abs_sum, the scale-free figure
  long long bad_cells = 0;
};
// fp32 accumulation of k products is within k * 2^-24 * sum|a*b| of the exact value (a standard
// bound); anything beyond it is a wrong result, not rounding.
Verification verify(std::span<const float> c, const Reference& ref, int k);

}  // namespace ws::sim
