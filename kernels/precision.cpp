// Rounding by integer arithmetic on the fp32 bits, so the host's reference rounds exactly as the
// conversion uploaded to the GPU does (the same function produces both).

#include "precision.hpp"

#include <bit>
#include <cmath>

#include "verify.hpp"

namespace ws::kernels {

namespace {

// Rounds away the low `drop` bits of the fp32 pattern to nearest, ties to even.
std::uint32_t round_bits(std::uint32_t bits, int drop) {
  const std::uint32_t lsb = (bits >> drop) & 1u;
  const std::uint32_t bias = (1u << (drop - 1)) - 1u + lsb;
  return (bits + bias) & ~((1u << drop) - 1u);
}

}  // namespace

const char* to_string(InputFormat f) {
  switch (f) {
    case InputFormat::tf32: return "tf32";
    case InputFormat::bf16: return "bf16";
    case InputFormat::fp32: break;
  }
  return "fp32";
}

InputFormat input_format(std::string_view kernel) {
  if (kernel == "cuda-tensor" || kernel == "cublas-bf16") return InputFormat::bf16;
  if (kernel == "cublas-tf32") return InputFormat::tf32;
  return InputFormat::fp32;
}

int significand_bits(InputFormat f) {
  switch (f) {
    case InputFormat::tf32: return 10;
    case InputFormat::bf16: return 7;
    case InputFormat::fp32: break;
  }
  return 23;
}

float round_to(InputFormat f, float x) {
  if (f == InputFormat::fp32 || std::isnan(x)) return x;
  const int drop = 23 - significand_bits(f);
  return std::bit_cast<float>(round_bits(std::bit_cast<std::uint32_t>(x), drop));
}

std::uint16_t bf16_bits(float x) {
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(round_to(InputFormat::bf16, x)) >> 16);
}

void round_all(InputFormat f, const float* in, float* out, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) out[i] = round_to(f, in[i]);
}

double format_tolerance(int k, InputFormat f) {
  const double fp32 = verification_tolerance(k);
  return f == InputFormat::fp32 ? fp32 : 2.0 * fp32;
}

}  // namespace ws::kernels
