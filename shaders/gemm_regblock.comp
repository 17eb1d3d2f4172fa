#version 430 core
// gl-regblock: 2-D register blocking. A 16x16 workgroup computes a 64x64 tile of C; each
// invocation keeps a 4x4 block of C in registers (rows 4*ty.., columns 4*tx..). Per step p of the
// inner loop it reads one vec4 of the A tile and one vec4 of the B tile from shared memory and
// does 16 multiply-adds with them, against 2 shared reads per multiply-add in gl-tiled: shared
// memory bandwidth, not arithmetic, is what limits a one-element-per-invocation tiled kernel on a
// GPU (the technique of Nugteren's OpenCL SGEMM tutorial and CLBlast, and of siboehm's CUDA
// SGEMM kernels).
//
// The backend prepends, after the #version line:
//   WS_VEC4_A when k % 4 == 0: rows of A start on 16-byte boundaries, A is read as vec4[];
//   WS_VEC4_B when n % 4 == 0: rows of B and C do, B is read and C written as vec4[].
// Otherwise the same buffer is read element by element. A vec4 is then never split by an edge
// of the matrix, so its bounds test is the test of its first element.
// These numbers (and local_size) are ws::sim::kRegblock in sim/include/warpscope/sim/regblock.hpp,
// the simulator's model of this kernel; tests/sim/regblock_test.cpp checks that they agree.
#define BM 64u  // rows of C per workgroup
#define BN 64u  // columns of C per workgroup
#define BK 16u  // depth of the shared tiles per step
layout(local_size_x = 16, local_size_y = 16) in;

#ifdef WS_VEC4_A
layout(std430, binding = 0) readonly restrict buffer MatrixA { vec4 a4[]; };
#else
layout(std430, binding = 0) readonly restrict buffer MatrixA { float a[]; };
#endif
#ifdef WS_VEC4_B
layout(std430, binding = 1) readonly restrict buffer MatrixB { vec4 b4[]; };
layout(std430, binding = 2) writeonly restrict buffer MatrixC { vec4 c4[]; };
#else
layout(std430, binding = 1) readonly restrict buffer MatrixB { float b[]; };
layout(std430, binding = 2) writeonly restrict buffer MatrixC { float c[]; };
#endif

layout(location = 0) uniform uint m;
layout(location = 1) uniform uint n;
layout(location = 2) uniform uint k;
layout(location = 3) uniform uint row_offset;
layout(location = 4) uniform uint col_offset;

// The A tile is stored transposed (depth-major) with four rows of C per vec4, so an invocation
// gets its four A values for one p in one read. The extra vec4 per row of as_tile staggers the
// transposing stores across shared-memory banks (unpadded, lanes writing rows r and r+64 land
// on the same bank).
shared vec4 as_tile[BK][BM / 4u + 1u];
shared vec4 bs_tile[BK][BN / 4u];

void store_row(uint row, uint col, vec4 v) {
  if (row >= m) return;
#ifdef WS_VEC4_B
  if (col < n) c4[(row * n + col) >> 2] = v;
#else
  const uint base = row * n + col;
  if (col < n) c[base] = v.x;
  if (col + 1u < n) c[base + 1u] = v.y;
  if (col + 2u < n) c[base + 2u] = v.z;
  if (col + 3u < n) c[base + 3u] = v.w;
#endif
}

void main() {
  const uint tx = gl_LocalInvocationID.x;
  const uint ty = gl_LocalInvocationID.y;
  const uint lid = gl_LocalInvocationIndex;  // 0..255
  const uint row0 = row_offset + gl_WorkGroupID.y * BM;
  const uint col0 = col_offset + gl_WorkGroupID.x * BN;

  // Four accumulators rather than vec4[4], so no driver is tempted to put them in memory.
  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);

  for (uint t = 0u; t < k; t += BK) {
    // A tile: 64 rows x 16 deep = 1024 floats, 4 per invocation. Groups of consecutive
    // invocations read along a row of A, so each group's reads are one contiguous span.
#ifdef WS_VEC4_A
    {
      const uint r = lid >> 2;         // row in the tile
      const uint q = (lid & 3u) * 4u;  // first of four depths
      const uint gr = row0 + r;
      vec4 v = vec4(0.0);
      if (gr < m && t + q < k) v = a4[(gr * k + t + q) >> 2];
      as_tile[q][r >> 2][r & 3u] = v.x;
      as_tile[q + 1u][r >> 2][r & 3u] = v.y;
      as_tile[q + 2u][r >> 2][r & 3u] = v.z;
      as_tile[q + 3u][r >> 2][r & 3u] = v.w;
    }
#else
    for (uint i = 0u; i < 4u; ++i) {
      const uint idx = lid + i * 256u;
      const uint r = idx >> 4;
      const uint p = idx & 15u;
      const uint gr = row0 + r;
      float v = 0.0;
      if (gr < m && t + p < k) v = a[gr * k + t + p];
      as_tile[p][r >> 2][r & 3u] = v;
    }
#endif
    // B tile: 16 deep x 64 columns, stored as it lies in B; 16 invocations read one row.
#ifdef WS_VEC4_B
    {
      const uint p = lid >> 4;
      const uint q = lid & 15u;
      const uint gc = col0 + q * 4u;
      vec4 v = vec4(0.0);
      if (t + p < k && gc < n) v = b4[((t + p) * n + gc) >> 2];
      bs_tile[p][q] = v;
    }
#else
    for (uint i = 0u; i < 4u; ++i) {
      const uint idx = lid + i * 256u;
      const uint p = idx >> 6;
      const uint cc = idx & 63u;
      const uint gc = col0 + cc;
      float v = 0.0;
      if (t + p < k && gc < n) v = b[(t + p) * n + gc];
      bs_tile[p][cc >> 2][cc & 3u] = v;
    }
#endif
    memoryBarrierShared();
    barrier();
    for (uint p = 0u; p < BK; ++p) {
      const vec4 av = as_tile[p][ty];
      const vec4 bv = bs_tile[p][tx];
      acc0 += av.x * bv;
      acc1 += av.y * bv;
      acc2 += av.z * bv;
      acc3 += av.w * bv;
    }
    // The next step overwrites the tiles: wait until every invocation has read them.
    barrier();
  }

  const uint row = row0 + ty * 4u;
  const uint col = col0 + tx * 4u;
  store_row(row, col, acc0);
  store_row(row + 1u, col, acc1);
  store_row(row + 2u, col, acc2);
  store_row(row + 3u, col, acc3);
}
