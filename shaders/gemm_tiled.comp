#version 430 core
// gl-tiled: the workgroup stages a 32x32 tile of A and one of B in shared memory, so every value
// fetched from a storage buffer serves 32 multiply-adds instead of one (cuda-tiled's design and
// tile side). Cells outside the matrices are loaded as zeros, so shapes that are not multiples
// of 32 need no special case in the inner loop.
layout(local_size_x = 32, local_size_y = 32) in;

layout(std430, binding = 0) readonly restrict buffer MatrixA { float a[]; };
layout(std430, binding = 1) readonly restrict buffer MatrixB { float b[]; };
layout(std430, binding = 2) writeonly restrict buffer MatrixC { float c[]; };

layout(location = 0) uniform uint m;
layout(location = 1) uniform uint n;
layout(location = 2) uniform uint k;
layout(location = 3) uniform uint row_offset;
layout(location = 4) uniform uint col_offset;

// as_tile[ty][p] is the same address for a whole row of invocations (a broadcast) and
// bs_tile[p][tx] is consecutive across it, so neither read has shared-memory bank conflicts.
shared float as_tile[32][32];
shared float bs_tile[32][32];

void main() {
  const uint tx = gl_LocalInvocationID.x;
  const uint ty = gl_LocalInvocationID.y;
  const uint row = row_offset + gl_WorkGroupID.y * 32u + ty;
  const uint col = col_offset + gl_WorkGroupID.x * 32u + tx;
  float sum = 0.0;
  for (uint t = 0u; t < k; t += 32u) {
    // No early return anywhere above: every invocation must reach both barriers.
    float av = 0.0;
    if (row < m && t + tx < k) av = a[row * k + t + tx];
    float bv = 0.0;
    if (t + ty < k && col < n) bv = b[(t + ty) * n + col];
    as_tile[ty][tx] = av;
    bs_tile[ty][tx] = bv;
    memoryBarrierShared();
    barrier();
    for (uint p = 0u; p < 32u; ++p) sum += as_tile[ty][p] * bs_tile[p][tx];
    // The next iteration overwrites the tiles: wait until everyone has read them.
    barrier();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}
