// The CUDA ladder's host side, on the CPU: launch plans (grid, block, tiles, edges, vector-load
// fallback), the bands a long run is cut into for cancelling, and a CPU emulation of every block
// and thread of cuda-regblock and cuda-warptiled built from the same index maths the device code
// uses (cuda/tile_layout.hpp), checked cell by cell against an fp64 reference.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "cuda/launch_plan.hpp"
#include "cuda/tile_layout.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/sim/regblock.hpp"

namespace ws::kernels::cuda {
namespace {

TEST(CudaPlan, RegblockUsesTheSimulatorsParameters) {
  // One definition (sim's kRegblock) for the model, gl-regblock and cuda-regblock.
  using L = RegblockLayout;
  EXPECT_EQ(L::kBM, sim::kRegblock.bm);
  EXPECT_EQ(L::kBN, sim::kRegblock.bn);
  EXPECT_EQ(L::kBK, sim::kRegblock.bk);
  EXPECT_EQ(L::kTM, sim::kRegblock.tm);
  EXPECT_EQ(L::kTN, sim::kRegblock.tn);
  EXPECT_EQ(L::kThreadsX, sim::kRegblock.threads_x);
  EXPECT_EQ(L::kThreadsY, sim::kRegblock.threads_y);
  EXPECT_EQ(L::kRegs, sim::kRegblock.regs);
}

TEST(CudaPlan, GridsCoverEveryCellWithEdgeTilesMarked) {
  for (const Kernel k : {Kernel::naive, Kernel::tiled, Kernel::regblock, Kernel::warptiled, Kernel::tensor}) {
    for (const auto& [m, n, kk] : {std::tuple{1, 1, 1}, {64, 64, 64}, {1000, 777, 333}, {4096, 4096, 4096}, {129, 4097, 8}}) {
      const LaunchPlan p = plan_launch(k, m, n, kk);
      SCOPED_TRACE(std::string(to_string(k)) + " " + std::to_string(m) + "x" + std::to_string(n));
      EXPECT_GE(static_cast<long>(p.grid.x) * p.tile_n, n);
      EXPECT_LT(static_cast<long>(p.grid.x - 1) * p.tile_n, n);  // no block wholly outside C
      EXPECT_GE(static_cast<long>(p.grid.y) * p.tile_m, m);
      EXPECT_LT(static_cast<long>(p.grid.y - 1) * p.tile_m, m);
      EXPECT_EQ(p.edge_tiles, m % p.tile_m != 0 || n % p.tile_n != 0);
      EXPECT_LE(p.block.x * p.block.y * p.block.z, 1024u);
    }
  }
  const LaunchPlan tiled = plan_launch(Kernel::tiled, 100, 100, 100);
  EXPECT_EQ(tiled.block, (Dim3{32, 32, 1}));
  EXPECT_EQ(tiled.grid, (Dim3{4, 4, 1}));
  const LaunchPlan warp = plan_launch(Kernel::warptiled, 256, 768, 64);
  EXPECT_EQ(warp.grid, (Dim3{3, 2, 1}));
  EXPECT_EQ(warp.block, (Dim3{256, 1, 1}));
  EXPECT_FALSE(warp.edge_tiles);
}

TEST(CudaPlan, VectorLoadsOnlyWhereRowsStartOnAVector) {
  EXPECT_TRUE(plan_launch(Kernel::regblock, 100, 128, 64).vector_loads);
  const LaunchPlan odd_k = plan_launch(Kernel::regblock, 100, 128, 1025);
  EXPECT_FALSE(odd_k.vector_loads);
  EXPECT_NE(odd_k.note.find("k = 1025"), std::string::npos) << odd_k.note;
  const LaunchPlan odd_n = plan_launch(Kernel::warptiled, 100, 130, 64);
  EXPECT_FALSE(odd_n.vector_loads);
  EXPECT_NE(odd_n.note.find("n = 130"), std::string::npos) << odd_n.note;
  // bf16 vectors are 8 wide: k = 12 suits float4 but not 8 x bf16.
  EXPECT_TRUE(plan_launch(Kernel::regblock, 64, 64, 12).vector_loads);
  EXPECT_FALSE(plan_launch(Kernel::tensor, 64, 64, 12).vector_loads);
  EXPECT_TRUE(plan_launch(Kernel::tensor, 64, 64, 16).vector_loads);
  EXPECT_FALSE(plan_launch(Kernel::naive, 64, 64, 64).vector_loads);
}

TEST(CudaPlan, KernelsNameThemselvesAndTheirLimits) {
  for (const Kernel k : kAllKernels) {
    ASSERT_TRUE(parse_kernel(to_string(k)).has_value()) << to_string(k);
    EXPECT_EQ(*parse_kernel(to_string(k)), k);
    EXPECT_NE(find_kernel(to_string(k)), nullptr) << to_string(k) << " is not in the registry";
  }
  EXPECT_FALSE(parse_kernel("gl-regblock").has_value());
  EXPECT_FALSE(parse_kernel("cpu-naive").has_value());
  EXPECT_EQ(min_compute_capability(Kernel::tensor), 80);
  EXPECT_EQ(min_compute_capability(Kernel::cublas_bf16), 80);
  EXPECT_EQ(min_compute_capability(Kernel::cublas_tf32), 80);
  EXPECT_EQ(min_compute_capability(Kernel::regblock), 75);
  EXPECT_TRUE(reads_bf16(Kernel::tensor));
  EXPECT_FALSE(reads_bf16(Kernel::cublas_tf32));
}

TEST(CudaPlan, LongRunsAreCutIntoBandsForCancelling) {
  // 16384^3 at 3 TFLOP/s is ~3 s: bands of ~50 ms, a multiple of 128 rows.
  const int band = rows_per_band(16384, 16384, 16384, 3000.0);
  EXPECT_EQ(band % kBandRowMultiple, 0);
  EXPECT_LT(band, 16384);
  const double band_ms = 2.0 * band * 16384.0 * 16384.0 / 3000e6;
  EXPECT_LE(band_ms, 50.0);
  EXPECT_GE(band_ms, 50.0 - 2.0 * 128 * 16384.0 * 16384.0 / 3000e6);
  // Short runs stay one launch, and a band is never below the tile height.
  EXPECT_EQ(rows_per_band(1024, 1024, 1024, 3000.0), 1024);
  EXPECT_EQ(rows_per_band(100, 16384, 16384, 1.0), 100);
  EXPECT_EQ(rows_per_band(16384, 16384, 16384, 1.0), kBandRowMultiple);
  EXPECT_EQ(rows_per_band(4096, 4096, 4096, 0.0), 4096);
}

// --- CPU emulation of the blocked kernels' index maths ------------------------------------------

struct Problem {
  int m, n, k;
  std::vector<float> a, b;
  std::vector<double> ref;
};

Problem make_problem(int m, int n, int k) {
  Problem p{m, n, k, std::vector<float>(static_cast<std::size_t>(m) * k), std::vector<float>(static_cast<std::size_t>(k) * n),
            std::vector<double>(static_cast<std::size_t>(m) * n, 0.0)};
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  for (auto& x : p.a) x = dist(gen);
  for (auto& x : p.b) x = dist(gen);
  for (int i = 0; i < m; ++i)
    for (int q = 0; q < k; ++q)
      for (int j = 0; j < n; ++j) p.ref[static_cast<std::size_t>(i) * n + j] += double(p.a[i * k + q]) * p.b[q * n + j];
  return p;
}

// Loads one k step's tiles the way the kernel's threads do, checking each shared cell is written
// exactly once. as is [bk][bm] (transposed), bs is [bk][bn].
template <class L, class RowA, class ColA, class RowB, class ColB>
void load_tiles(const Problem& p, bool vec, int row0, int col0, int t, int loads_a, int loads_b, RowA a_row4, ColA a_col4,
                RowB b_row4, ColB b_col4, std::vector<float>& as, std::vector<float>& bs) {
  std::vector<int> wa(as.size(), 0), wb(bs.size(), 0);
  auto a_at = [&](int r, int q) { return (row0 + r < p.m && t + q < p.k) ? p.a[(row0 + r) * p.k + t + q] : 0.f; };
  auto b_at = [&](int r, int c) { return (t + r < p.k && col0 + c < p.n) ? p.b[(t + r) * p.n + col0 + c] : 0.f; };
  for (int tid = 0; tid < L::kThreads; ++tid) {
    if (vec) {
      for (int l = 0; l < loads_a; ++l) {
        const int r = a_row4(tid, l), q = a_col4(tid, l);
        for (int e = 0; e < 4; ++e) as[(q + e) * L::kBM + r] = a_at(r, q + e), ++wa[(q + e) * L::kBM + r];
      }
      for (int l = 0; l < loads_b; ++l) {
        const int r = b_row4(tid, l), c = b_col4(tid, l);
        for (int e = 0; e < 4; ++e) bs[r * L::kBN + c + e] = b_at(r, c + e), ++wb[r * L::kBN + c + e];
      }
    } else {
      for (int e = 0; e < L::kBM * L::kBK / L::kThreads; ++e) {
        const int idx = tid + e * L::kThreads, r = idx / L::kBK, q = idx % L::kBK;
        as[q * L::kBM + r] = a_at(r, q), ++wa[q * L::kBM + r];
      }
      for (int e = 0; e < L::kBK * L::kBN / L::kThreads; ++e) {
        const int idx = tid + e * L::kThreads, r = idx / L::kBN, c = idx % L::kBN;
        bs[r * L::kBN + c] = b_at(r, c), ++wb[r * L::kBN + c];
      }
    }
  }
  for (int w : wa) ASSERT_EQ(w, 1);
  for (int w : wb) ASSERT_EQ(w, 1);
}

void expect_matches_reference(const Problem& p, const std::vector<float>& c, const std::vector<int>& writes) {
  for (int i = 0; i < p.m; ++i)
    for (int j = 0; j < p.n; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * p.n + j;
      ASSERT_EQ(writes[at], 1) << "cell " << i << "," << j;
      ASSERT_NEAR(c[at], p.ref[at], 1e-4 * p.k) << "cell " << i << "," << j;
    }
}

void emulate_regblock(const Problem& p) {
  using L = RegblockLayout;
  const LaunchPlan plan = plan_launch(Kernel::regblock, p.m, p.n, p.k);
  std::vector<float> c(static_cast<std::size_t>(p.m) * p.n, NAN);
  std::vector<int> writes(c.size(), 0);
  std::vector<float> as(L::kBK * L::kBM), bs(L::kBK * L::kBN);
  for (unsigned by = 0; by < plan.grid.y; ++by)
    for (unsigned bx = 0; bx < plan.grid.x; ++bx) {
      std::vector<float> acc(L::kThreads * L::kTM * L::kTN, 0.f);
      for (int t = 0; t < p.k; t += L::kBK) {
        load_tiles<L>(p, plan.vector_loads, by * L::kBM, bx * L::kBN, t, 1, 1,
                      [](int tid, int) { return L::a_row4(tid); }, [](int tid, int) { return L::a_col4(tid); },
                      [](int tid, int) { return L::b_row4(tid); }, [](int tid, int) { return L::b_col4(tid); }, as, bs);
        for (int ty = 0; ty < L::kThreadsY; ++ty)
          for (int tx = 0; tx < L::kThreadsX; ++tx)
            for (int q = 0; q < L::kBK; ++q)
              for (int i = 0; i < L::kTM; ++i)
                for (int j = 0; j < L::kTN; ++j)
                  acc[((ty * L::kThreadsX + tx) * L::kTM + i) * L::kTN + j] +=
                      as[q * L::kBM + ty * L::kTM + i] * bs[q * L::kBN + tx * L::kTN + j];
      }
      for (int ty = 0; ty < L::kThreadsY; ++ty)
        for (int tx = 0; tx < L::kThreadsX; ++tx)
          for (int i = 0; i < L::kTM; ++i)
            for (int j = 0; j < L::kTN; ++j) {
              const int row = L::row(by, ty, i), col = L::col(bx, tx, j);
              if (row >= p.m || col >= p.n) continue;
              c[static_cast<std::size_t>(row) * p.n + col] = acc[((ty * L::kThreadsX + tx) * L::kTM + i) * L::kTN + j];
              ++writes[static_cast<std::size_t>(row) * p.n + col];
            }
    }
  expect_matches_reference(p, c, writes);
}

void emulate_warptiled(const Problem& p) {
  using W = WarptiledLayout;
  const LaunchPlan plan = plan_launch(Kernel::warptiled, p.m, p.n, p.k);
  constexpr int kRows = W::kIterM * W::kTM, kCols = W::kIterN * W::kTN;
  std::vector<float> c(static_cast<std::size_t>(p.m) * p.n, NAN);
  std::vector<int> writes(c.size(), 0);
  std::vector<float> as(W::kBK * W::kBM), bs(W::kBK * W::kBN);
  for (unsigned by = 0; by < plan.grid.y; ++by)
    for (unsigned bx = 0; bx < plan.grid.x; ++bx) {
      std::vector<float> acc(W::kThreads * kRows * kCols, 0.f);
      for (int t = 0; t < p.k; t += W::kBK) {
        load_tiles<W>(p, plan.vector_loads, by * W::kBM, bx * W::kBN, t, W::kLoadsA, W::kLoadsB, W::a_row4, W::a_col4,
                      W::b_row4, W::b_col4, as, bs);
        for (int tid = 0; tid < W::kThreads; ++tid)
          for (int q = 0; q < W::kBK; ++q)
            for (int im = 0; im < W::kIterM; ++im)
              for (int i = 0; i < W::kTM; ++i)
                for (int in = 0; in < W::kIterN; ++in)
                  for (int j = 0; j < W::kTN; ++j)
                    acc[(tid * kRows + im * W::kTM + i) * kCols + in * W::kTN + j] +=
                        as[q * W::kBM + W::tile_row(tid, im, i)] * bs[q * W::kBN + W::tile_col(tid, in, j)];
      }
      for (int tid = 0; tid < W::kThreads; ++tid)
        for (int im = 0; im < W::kIterM; ++im)
          for (int i = 0; i < W::kTM; ++i)
            for (int in = 0; in < W::kIterN; ++in)
              for (int j = 0; j < W::kTN; ++j) {
                const int row = by * W::kBM + W::tile_row(tid, im, i), col = bx * W::kBN + W::tile_col(tid, in, j);
                if (row >= p.m || col >= p.n) continue;
                c[static_cast<std::size_t>(row) * p.n + col] = acc[(tid * kRows + im * W::kTM + i) * kCols + in * W::kTN + j];
                ++writes[static_cast<std::size_t>(row) * p.n + col];
              }
    }
  expect_matches_reference(p, c, writes);
}

TEST(CudaEmulation, RegblockComputesEveryCellOnceAtAnyShape) {
  emulate_regblock(make_problem(64, 64, 16));    // one whole tile, vector loads
  emulate_regblock(make_problem(70, 136, 40));   // edge tiles, vector loads
  emulate_regblock(make_problem(65, 67, 33));    // edge tiles, scalar loads
  emulate_regblock(make_problem(1, 1, 1));
}

TEST(CudaEmulation, WarptiledComputesEveryCellOnceAtAnyShape) {
  emulate_warptiled(make_problem(128, 128, 16));
  emulate_warptiled(make_problem(130, 260, 36));
  emulate_warptiled(make_problem(129, 131, 17));
  emulate_warptiled(make_problem(3, 5, 7));
}

TEST(CudaEmulation, WarpLanesCoverTheirWarpTileExactly) {
  using W = WarptiledLayout;
  std::vector<int> owner(W::kBM * W::kBN, 0);
  for (int tid = 0; tid < W::kThreads; ++tid)
    for (int im = 0; im < W::kIterM; ++im)
      for (int i = 0; i < W::kTM; ++i)
        for (int in = 0; in < W::kIterN; ++in)
          for (int j = 0; j < W::kTN; ++j) {
            const int r = W::tile_row(tid, im, i), c = W::tile_col(tid, in, j);
            ASSERT_LT(r, W::kBM);
            ASSERT_LT(c, W::kBN);
            // A warp's cells stay inside its own warp tile.
            EXPECT_EQ(r / W::kWM, W::warp_y(tid));
            EXPECT_EQ(c / W::kWN, W::warp_x(tid));
            ++owner[r * W::kBN + c];
          }
  for (int o : owner) ASSERT_EQ(o, 1);
}

}  // namespace
}  // namespace ws::kernels::cuda
