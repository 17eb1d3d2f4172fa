#version 430 core
// gl-naive: one invocation per element of C, both operands read straight from storage buffers.
// x runs along a row of C, so neighbouring invocations read neighbouring elements of B (one
// coalesced transaction per row of B on a GPU) and all read the same element of A (a broadcast),
// the same layout as cuda-naive. Every value is fetched from memory k times over: the baseline
// the other two kernels improve on.
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly restrict buffer MatrixA { float a[]; };
layout(std430, binding = 1) readonly restrict buffer MatrixB { float b[]; };
layout(std430, binding = 2) writeonly restrict buffer MatrixC { float c[]; };

// A chunk of C is dispatched at (row_offset, col_offset) so no single dispatch runs long.
layout(location = 0) uniform uint m;
layout(location = 1) uniform uint n;
layout(location = 2) uniform uint k;
layout(location = 3) uniform uint row_offset;
layout(location = 4) uniform uint col_offset;

void main() {
  const uint col = col_offset + gl_GlobalInvocationID.x;
  const uint row = row_offset + gl_GlobalInvocationID.y;
  if (row >= m || col >= n) return;
  float sum = 0.0;
  uint ai = row * k;
  uint bi = col;
  for (uint p = 0u; p < k; ++p) {
    sum += a[ai + p] * b[bi];
    bi += n;
  }
  c[row * n + col] = sum;
}
