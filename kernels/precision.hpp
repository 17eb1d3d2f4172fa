// The input formats of the real kernels and what they cost in accuracy. Reduced-precision kernels
// (cuda-tensor and cublas-bf16 read BF16, cublas-tf32 reads TF32) are verified against an fp64
// reference of their *rounded* inputs, so the check stays as sharp as for fp32; how far the result
// is from the fp32 inputs' product is reported beside it (what the format costs a student).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ws::kernels {

enum class InputFormat { fp32, tf32, bf16 };

const char* to_string(InputFormat f);

// The format a kernel reads its A and B in: fp32 for every kernel but the tensor-core ones.
InputFormat input_format(std::string_view kernel);

// Explicit significand bits (fp32 23, tf32 10, bf16 7).
int significand_bits(InputFormat f);

// Round-to-nearest-even of an fp32 value to the format, returned as the fp32 value it represents
// (exactly representable in fp32). NaN stays NaN; values past the format's range follow IEEE
// rounding (to infinity), which never happens for the job's inputs in (-1, 1).
float round_to(InputFormat f, float x);

// The 16 bits of bf16 for an fp32 value (round to nearest even): what the GPU reads for bf16 inputs.
std::uint16_t bf16_bits(float x);

void round_all(InputFormat f, const float* in, float* out, std::size_t count);

// Tolerance on the normalised error (|c - ref| / sum_k |a_ik b_kj|, ref from the rounded inputs)
// for an inner dimension k. Products of rounded inputs are exact in fp32 (at most 11 x 11 bits),
// so only the fp32 accumulation is left. fp32 kernels: verification_tolerance(k). Tensor cores
// (tf32, bf16) accumulate without the round-to-nearest of an FMA (Fasi et al. 2021, "Numerical
// behavior of NVIDIA tensor cores": truncation, no guard bits), which at worst doubles each
// addition's error: twice the fp32 tolerance, cap included.
double format_tolerance(int k, InputFormat f);

}  // namespace ws::kernels
