// cpu-parallel's micro-kernels: the dispatch as a pure function of CPU features, the AVX-512 tile
// logic on plain arrays (this CPU may not run AVX-512), and every kernel this CPU can run forced on
// through the whole GEMM at shapes that leave edge tiles everywhere.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cpu/cpu_kernels.hpp"
#include "cpu/microkernel.hpp"
#include "cpu/microkernel_tile.hpp"
#include "verify.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::kernels {
namespace {

using cpu::CpuFeatures;
using cpu::MicroKernelId;

// WARPSCOPE_CPU_MICROKERNEL set as a user would, for one scope: cpu-parallel reads it when first
// asked, so the test has it read again after each change, and unset again however the test ends.
class ForcedMicroKernel {
 public:
  explicit ForcedMicroKernel(const char* key) { set(key); }
  ~ForcedMicroKernel() {
    unsetenv("WARPSCOPE_CPU_MICROKERNEL");
    cpu::reread_microkernel_variable();
  }
  ForcedMicroKernel(const ForcedMicroKernel&) = delete;
  ForcedMicroKernel& operator=(const ForcedMicroKernel&) = delete;
  void set(const char* key) {
    setenv("WARPSCOPE_CPU_MICROKERNEL", key, 1);
    cpu::reread_microkernel_variable();
  }
};

std::vector<float> random_matrix(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (auto& x : v) x = dist(rng);
  return v;
}

// A cpu-parallel job on two threads, timed once and verified, as the app runs one.
JobResult run_parallel_job(Shape shape) {
  JobRequest req;
  req.kernel = "cpu-parallel";
  req.shape = shape;
  req.threads = 2;
  req.repeats = 1;
  JobControl control;
  return run_job(req, control);
}

CpuFeatures avx2_cpu() {
  CpuFeatures f;
  f.vendor = "AuthenticAMD";
  f.family = 0x19;
  f.model = 0x01;
  f.fma = f.avx = f.avx2 = true;
  f.os_saves_ymm = true;
  return f;
}

CpuFeatures avx512_cpu() {
  CpuFeatures f = avx2_cpu();
  f.vendor = "GenuineIntel";
  f.family = 6;
  f.model = 0xcf;  // Emerald Rapids
  f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = true;
  f.os_saves_zmm = true;
  return f;
}

TEST(MicroKernelDispatch, NamedCpus) {
  EXPECT_EQ(cpu::choose_microkernel(avx512_cpu()), MicroKernelId::avx512);
  EXPECT_EQ(cpu::choose_microkernel(avx2_cpu()), MicroKernelId::avx2);
  EXPECT_EQ(cpu::choose_microkernel(CpuFeatures{}), MicroKernelId::portable);

  CpuFeatures no_zmm_state = avx512_cpu();  // AVX-512 silicon, but the OS does not save ZMM
  no_zmm_state.os_saves_zmm = false;
  EXPECT_EQ(cpu::choose_microkernel(no_zmm_state), MicroKernelId::avx2);
  CpuFeatures no_ymm_state = avx2_cpu();
  no_ymm_state.os_saves_ymm = false;
  EXPECT_EQ(cpu::choose_microkernel(no_ymm_state), MicroKernelId::portable);
  CpuFeatures knights_landing = avx512_cpu();  // AVX-512F without BW/DQ/VL
  knights_landing.avx512bw = knights_landing.avx512dq = knights_landing.avx512vl = false;
  EXPECT_EQ(cpu::choose_microkernel(knights_landing), MicroKernelId::avx2);
}

// All 2^10 combinations of the flags: the choice is always a kernel the CPU can run, AVX-512 only
// with every flag it needs, and never a slower kernel when a faster one could run.
TEST(MicroKernelDispatch, EveryFeatureCombination) {
  for (unsigned bits = 0; bits < (1u << 10); ++bits) {
    CpuFeatures f;
    bool* flags[] = {&f.fma, &f.avx, &f.avx2, &f.avx512f, &f.avx512dq, &f.avx512bw, &f.avx512vl,
                     &f.os_saves_ymm, &f.os_saves_zmm, nullptr};
    for (int i = 0; flags[i] != nullptr; ++i) *flags[i] = (bits >> i) & 1;
    const bool vendor_intel = (bits >> 9) & 1;
    f.vendor = vendor_intel ? "GenuineIntel" : "AuthenticAMD";
    const MicroKernelId chosen = cpu::choose_microkernel(f);
    SCOPED_TRACE(bits);
    EXPECT_TRUE(cpu::cpu_can_run(chosen, f));
    const bool all_avx2 = f.fma && f.avx && f.avx2 && f.os_saves_ymm;
    const bool all_avx512 = all_avx2 && f.avx512f && f.avx512dq && f.avx512bw && f.avx512vl && f.os_saves_zmm;
    EXPECT_EQ(chosen == MicroKernelId::avx512, all_avx512);
    EXPECT_EQ(chosen == MicroKernelId::avx2, all_avx2 && !all_avx512);
    EXPECT_TRUE(cpu::cpu_can_run(MicroKernelId::portable, f));
  }
}

TEST(MicroKernelDispatch, KeysNameEveryKernel) {
  for (const MicroKernelId id : {MicroKernelId::avx512, MicroKernelId::avx2, MicroKernelId::portable}) {
    const auto& spec = cpu::microkernel_spec(id);
    EXPECT_EQ(spec.id, id);
    EXPECT_EQ(cpu::microkernel_by_key(spec.key), id);
    EXPECT_EQ(spec.nr % 16, 0);  // whole 16-float rows: the B panels' 64-byte alignment holds
  }
  EXPECT_FALSE(cpu::microkernel_by_key("avx3"));
  EXPECT_EQ(cpu::microkernel_spec(MicroKernelId::avx512).mr, 14);
  EXPECT_EQ(cpu::microkernel_spec(MicroKernelId::avx512).nr, 32);
}

// The AVX-512 kernel's tile logic with 16-float plain arrays in place of __m512.
struct PlainVec16 {
  struct reg {
    float v[16];
  };
  static constexpr int width = 16;
  static reg zero() { return {}; }
  static reg load(const float* p) {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u) << "aligned load of a misaligned address";
    return loadu(p);
  }
  static reg loadu(const float* p) {
    reg r;
    for (int i = 0; i < 16; ++i) r.v[i] = p[i];
    return r;
  }
  static void store(float* p, reg r) { storeu(p, r); }
  static void storeu(float* p, reg r) {
    for (int i = 0; i < 16; ++i) p[i] = r.v[i];
  }
  static reg broadcast(const float* p) {
    reg r;
    for (float& x : r.v) x = *p;
    return r;
  }
  static reg fma(reg a, reg b, reg c) {
    for (int i = 0; i < 16; ++i) c.v[i] = std::fma(a.v[i], b.v[i], c.v[i]);
    return c;
  }
  static reg add(reg a, reg b) {
    for (int i = 0; i < 16; ++i) a.v[i] += b.v[i];
    return a;
  }
};

TEST(CpuMicroKernel, Avx512TileLogicOnPlainVectors) {
  constexpr int MR = cpu::kMR512, NR = cpu::kNR512;
  for (const int kc : {1, 7, 64}) {
    const auto a = random_matrix(static_cast<std::size_t>(kc) * MR, 11);
    std::vector<float, std::allocator<float>> b_values = random_matrix(static_cast<std::size_t>(kc) * NR, 12);
    alignas(64) static float b[64 * NR];
    std::copy(b_values.begin(), b_values.end(), b);
    // Every row count: a short last tile computes fewer rows (tile_microkernel_rows).
    for (const int mr : {MR, 1, 2, 5, 8, 13}) {
      for (const int nr : {NR, 1, 17, 31}) {
        for (const bool accumulate : {false, true}) {
          const long ldc = NR + 5;
          std::vector<float> c(MR * ldc, accumulate ? 0.25f : std::numeric_limits<float>::quiet_NaN());
          cpu::tile_microkernel_rows<PlainVec16, MR, NR>(kc, a.data(), b, c.data(), ldc, mr, nr, accumulate);
          for (int i = 0; i < MR; ++i) {
            for (int j = 0; j < ldc; ++j) {
              const float got = c[i * ldc + j];
              if (i < mr && j < nr) {
                double want = accumulate ? 0.25 : 0.0;
                for (int p = 0; p < kc; ++p) want += static_cast<double>(a[p * MR + i]) * b[p * NR + j];
                ASSERT_NEAR(got, want, 1e-4) << "kc " << kc << " tile " << mr << "x" << nr << " at " << i << "," << j;
              } else {
                ASSERT_TRUE(accumulate ? got == 0.25f : std::isnan(got)) << "wrote outside the tile at " << i << "," << j;
              }
            }
          }
        }
      }
    }
  }
}

// Each micro-kernel this CPU can run, through the whole GEMM: shapes smaller than one tile, one
// element past a tile or a KC block, and a thread count that splits unevenly.
TEST(CpuParallel, EveryMicroKernelForcedAtAwkwardShapes) {
  // 601 x 40 x 300 is tall and narrow: threads split it into row blocks smaller than MC.
  // The three after 7 x 70 x 3000 have B narrow enough for the row-dots order. 7 x 70 and
  // 29 x 65 leave a last column block under a vector in 64-column blocks, 8 x 200 two last rows
  // in 6-row blocks: AVX-512's row broadcasts take 8 x 48 blocks there. 7 x 70 x 3000 is deeper than a
  // row-broadcast slice on any L2 up to 2 MiB (parallel.cpp, row_slice_depth).
  const Shape shapes[] = {{1, 1, 1},       {13, 31, 7},    {15, 33, 300},  {7, 17, 257},
                          {203, 317, 301}, {29, 65, 513},  {601, 40, 300}, {9, 1000, 270},
                          {7, 70, 3000},   {1000, 3, 777}, {37, 16, 33},   {5, 9, 1},
                          {8, 200, 70}};
  int ran = 0;
  for (const MicroKernelId id : {MicroKernelId::avx512, MicroKernelId::avx2, MicroKernelId::portable}) {
    const auto& spec = cpu::microkernel_spec(id);
    if (!cpu::cpu_can_run(id, cpu::this_cpu_features())) {
      const cpu::Gemm g{1, 1, 1, nullptr, nullptr, nullptr};
      try {
        cpu::parallel_with(id, g, 1, RunControl{});
        ADD_FAILURE() << spec.name << " ran on a CPU that cannot run it";
      } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot run on this CPU"), std::string::npos) << e.what();
      }
      continue;
    }
    ++ran;
    for (const Shape& s : shapes) {
      const auto a = random_matrix(static_cast<std::size_t>(s.m) * s.k, 21);
      const auto b = random_matrix(static_cast<std::size_t>(s.k) * s.n, 22);
      // Every loop order on every shape: the automatic choice takes each only for some shapes
      // and some CPUs (short_a mostly where B is larger than L3, far too large for a test under
      // the sanitizers; row broadcasts of a wide B, by column blocks, only with AVX-512).
      for (const cpu::LoopOrder order : {cpu::LoopOrder::shared_b, cpu::LoopOrder::short_a, cpu::LoopOrder::row_dots,
                                         cpu::LoopOrder::row_broadcasts}) {
        for (const int threads : {1, 3}) {
          std::vector<float> c(static_cast<std::size_t>(s.m) * s.n, std::numeric_limits<float>::quiet_NaN());
          ASSERT_TRUE(
              cpu::parallel_with(id, {s.m, s.n, s.k, a.data(), b.data(), c.data()}, threads, RunControl{}, order));
          const Verification v = verify(a.data(), b.data(), c.data(), s, 5);
          EXPECT_TRUE(v.ok) << spec.name << " " << s.m << "x" << s.n << "x" << s.k << ", " << threads
                            << " threads, loop order " << static_cast<int>(order)
                            << ": max_rel_error " << v.max_rel_error << ", non-finite " << v.non_finite;
        }
      }
    }
  }
  EXPECT_GE(ran, 1);  // the portable kernel runs everywhere
}

// A layer's short batch against its large weights takes the short_a order, and so does a short A
// against a wide B that fits in cache, unless the kernel's row broadcasts take a wide B (AVX-512):
// then they take every B that fits in a quarter of L3. Elsewhere the shared panel
// (docs/PERFORMANCE.md: "Few rows of A on two threads", "Row broadcasts for any A").
TEST(CpuParallel, ShortAOrderForFewRowsOrWhereBOutgrowsTheCache) {
  const auto& spec = cpu::active_microkernel();
  const bool wide_in_cache = spec.wide_broadcasts == cpu::WideBroadcasts::in_cache;
  const cpu::LoopOrder in_cache = wide_in_cache ? cpu::LoopOrder::row_broadcasts : cpu::LoopOrder::shared_b;
  const cpu::Gemm layer{128, 4096, 9216, nullptr, nullptr, nullptr};  // B 151 MB: beyond any L3 here
  EXPECT_EQ(cpu::parallel_loop_order(layer), cpu::LoopOrder::short_a);
  const cpu::Gemm square{500, 500, 500, nullptr, nullptr, nullptr};  // B 1 MB, in any L3
  EXPECT_EQ(cpu::parallel_loop_order(square), in_cache);
  const cpu::Gemm few_rows_small_b{64, 256, 256, nullptr, nullptr, nullptr};  // B 256 KiB
  EXPECT_EQ(cpu::parallel_loop_order(few_rows_small_b),
            wide_in_cache ? cpu::LoopOrder::row_broadcasts : cpu::LoopOrder::short_a);
  const cpu::Gemm more_rows_small_b{65, 256, 256, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_loop_order(more_rows_small_b), in_cache);
  const cpu::Gemm few_rows_narrow_b{64, 255, 256, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_loop_order(few_rows_narrow_b), in_cache);
  const cpu::Gemm tall{4096, 96, 4096, nullptr, nullptr, nullptr};  // A far taller than one MC block
  EXPECT_EQ(cpu::parallel_loop_order(tall), in_cache);
  const cpu::Gemm tall_large_b{4096, 4096, 16384, nullptr, nullptr, nullptr};  // B 256 MiB
  EXPECT_EQ(cpu::parallel_loop_order(tall_large_b), cpu::LoopOrder::shared_b);
  // Threads split it by column chunks: 4096 columns are plenty for any count asked.
  EXPECT_EQ(cpu::parallel_threads_for(layer, 3), 3);
}

// AVX-512's row broadcasts of a wide B take blocks of 8 rows x 48 columns instead of 6 x 64 where
// those leave no last column block under a vector, or fuller last rows of a short A, and not where
// they would add such a column block (docs/PERFORMANCE.md, "A short A's last rows").
TEST(CpuParallel, RowBroadcastBlocksLeaveFullLastBlocks) {
  const auto& spec = cpu::active_microkernel();
  if (spec.wide_broadcasts != cpu::WideBroadcasts::in_cache)
    GTEST_SKIP() << spec.name << ": its row broadcasts take a wide B only in small products";
  auto block = [](int m, int n, int k) {
    const cpu::BroadcastBlock b = cpu::parallel_broadcast_block({m, n, k, nullptr, nullptr, nullptr});
    return std::pair{b.rows, b.columns};
  };
  const std::pair widest{6, 64}, narrower{8, 48};
  EXPECT_EQ(block(256, 256, 256), widest);
  EXPECT_EQ(block(100, 100, 100), widest);   // 64 + 36 columns; 48 would leave 4
  EXPECT_EQ(block(32, 100, 100), widest);    // fuller last rows, but a 4-column block
  EXPECT_EQ(block(12, 200, 200), widest);    // two whole 6-row blocks
  EXPECT_EQ(block(8, 200, 200), narrower);   // 6 + 2 rows against 8; both leave 8 columns
  EXPECT_EQ(block(20, 256, 256), narrower);  // 6 + 6 + 6 + 2 rows against 8 + 8 + 4
  EXPECT_EQ(block(100, 72, 100), narrower);  // 64 + 8 columns against 48 + 24, any rows
  EXPECT_EQ(block(512, 520, 512), narrower);
  EXPECT_EQ(block(200, 200, 200), widest);   // many rows: the remainder costs little
  for (const auto& [m, n, k] : {std::tuple{8, 200, 200}, std::tuple{100, 72, 100}}) {
    const JobResult r = run_parallel_job({m, n, k});
    ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
    EXPECT_TRUE(r.verified) << m << "x" << n << "x" << k << ": " << r.max_rel_error;
  }
}

// AVX2's row broadcasts take a wide B only where packing costs more than it saves: products up to
// 64^3, and A of at most 8 rows against a B within L2 (docs/PERFORMANCE.md, "AVX2's row broadcasts
// for small products"). The choice is read through WARPSCOPE_CPU_MICROKERNEL, as a user would force
// it on a CPU with AVX-512.
TEST(CpuParallel, Avx2RowBroadcastsTakeAWideBInSmallProducts) {
  if (!cpu::cpu_can_run(MicroKernelId::avx2, cpu::this_cpu_features())) GTEST_SKIP() << "no AVX2+FMA here";
  const ForcedMicroKernel forced("avx2");
  auto order = [](int m, int n, int k) { return cpu::parallel_loop_order({m, n, k, nullptr, nullptr, nullptr}); };
  const long l2 = std::max(cpu::this_cpu_caches().l2, 256L * 1024);
  const int fits_l2 = static_cast<int>(std::sqrt(static_cast<double>(l2) / sizeof(float)));  // B fits_l2 x fits_l2
  EXPECT_EQ(order(32, 32, 32), cpu::LoopOrder::row_broadcasts);
  EXPECT_EQ(order(64, 64, 64), cpu::LoopOrder::row_broadcasts);
  EXPECT_NE(order(80, 80, 80), cpu::LoopOrder::row_broadcasts);
  EXPECT_EQ(order(8, 200, 200), cpu::LoopOrder::row_broadcasts);
  EXPECT_EQ(order(8, fits_l2, fits_l2), cpu::LoopOrder::row_broadcasts);
  EXPECT_NE(order(9, fits_l2, fits_l2), cpu::LoopOrder::row_broadcasts);
  EXPECT_NE(order(8, 2 * fits_l2, 2 * fits_l2), cpu::LoopOrder::row_broadcasts);
  EXPECT_NE(order(1024, 1024, 1024), cpu::LoopOrder::row_broadcasts);
  for (const Shape s : {Shape{8, 200, 200}, Shape{4, 300, 70}, Shape{33, 45, 57}}) {
    const JobResult r = run_parallel_job(s);
    ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
    EXPECT_TRUE(r.verified) << s.m << "x" << s.n << "x" << s.k << ": " << r.max_rel_error;
    EXPECT_EQ(r.detail.rfind("AVX2+FMA row broadcasts: ", 0), 0u) << r.detail;
  }
}

// With AVX-512, one block of rows takes row broadcasts whatever B's size: each element of B is read
// once in any order, and no packing is the cheapest way to read it.
TEST(CpuParallel, RowBroadcastsTakeAWideBWhereTheKernelPays) {
  const auto& spec = cpu::active_microkernel();
  if (spec.wide_broadcasts != cpu::WideBroadcasts::in_cache)
    GTEST_SKIP() << spec.name << ": its row broadcasts take a wide B only in small products";
  EXPECT_EQ(spec.broadcast_rows, 6);
  const cpu::Gemm vector_times_large_b{1, 16384, 16384, nullptr, nullptr, nullptr};  // B 1 GiB
  EXPECT_EQ(cpu::parallel_loop_order(vector_times_large_b), cpu::LoopOrder::row_broadcasts);
  const cpu::Gemm one_block_large_b{6, 16384, 16384, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_loop_order(one_block_large_b), cpu::LoopOrder::row_broadcasts);
  const cpu::Gemm two_blocks_large_b{7, 16384, 16384, nullptr, nullptr, nullptr};
  EXPECT_EQ(cpu::parallel_loop_order(two_blocks_large_b), cpu::LoopOrder::short_a);
  // Units of rows and column blocks: plenty for any thread count even with one row.
  EXPECT_EQ(cpu::parallel_threads_for({1, 4096, 4096, nullptr, nullptr, nullptr}, 3), 3);

  // 16 column blocks, the last of 40 columns; rows in blocks of 6 and one of 1.
  const JobResult r = run_parallel_job({37, 1000, 300});
  ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
  EXPECT_TRUE(r.verified) << r.max_rel_error;
  EXPECT_NE(r.detail.find(std::string("row broadcasts: ") + cpu::kWideBroadcastNote), std::string::npos) << r.detail;
}

// The job's detail says when the short_a order ran, and the result is verified like any other.
TEST(CpuParallel, AJobInTheShortAOrderSaysSo) {
  // 16 rows of A against 64 MiB of B: the short order on any CPU.
  ASSERT_EQ(cpu::parallel_loop_order({16, 4096, 4096, nullptr, nullptr, nullptr}), cpu::LoopOrder::short_a);
  const JobResult r = run_parallel_job({16, 4096, 4096});
  ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
  EXPECT_TRUE(r.verified) << r.max_rel_error;
  EXPECT_NE(r.detail.find(cpu::kShortANote), std::string::npos) << r.detail;
}

// The narrow-B kernels of each instruction set this CPU has, against sums in double: row dots at
// every block shape (1-4 columns at a time, the rows the registers hold and the last few one by
// one) and row broadcasts at one to four vectors a row, each whole and with a masked last vector
// (AVX-512 holds a last vector of at most 8 columns in a 256-bit register: w / 2 and past it);
// depths with and without a scalar tail, strides wider than the rows, and nothing written outside
// C's cells.
TEST(NarrowB, EveryInstructionSetAgainstDoubleSums) {
  int ran = 0;
  for (const MicroKernelId id : {MicroKernelId::avx512, MicroKernelId::avx2, MicroKernelId::portable}) {
    if (!cpu::cpu_can_run(id, cpu::this_cpu_features())) continue;
    ++ran;
    const auto& spec = cpu::microkernel_spec(id);
    for (const bool dots : {true, false}) {
      for (const int k : {1, 7, 16, 17, 64, 100}) {
        for (const int rows : {1, 2, 5, 9, 19}) {
          const int w = spec.width;
          for (const int n : dots ? std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}
                                  : std::vector<int>{1, 2, w / 2, w / 2 + 1, w - 1, w, w + 1, 2 * w, 2 * w + 3,
                                                     3 * w, 3 * w + w / 2, 4 * w - 1, 4 * w}) {
            const long lda = k + 3, ldc = n + 2;
            const auto a = random_matrix(static_cast<std::size_t>(rows) * lda, 31);
            const auto b = random_matrix(static_cast<std::size_t>(k) * n, 32);  // k x n, row-major
            // As the kernels get them, with rows wider than they read (a column block of a wider
            // B; the columns as rows with room between them), NaN past what they may read.
            const long ldb = dots ? k + 2 : n + 5;
            const float nan = std::numeric_limits<float>::quiet_NaN();
            std::vector<float> laid(static_cast<std::size_t>(dots ? n : k) * ldb, nan);
            for (int p = 0; p < k; ++p)
              for (int j = 0; j < n; ++j)
                laid[dots ? j * ldb + p : p * ldb + j] = b[static_cast<std::size_t>(p) * n + j];
            // Overwriting C's poison, and adding to what C holds (a later depth slice).
            for (const bool accumulate : {false, true}) {
              std::vector<float> c(static_cast<std::size_t>(rows) * ldc, nan);
              if (accumulate)
                for (int i = 0; i < rows; ++i) std::fill_n(c.begin() + i * ldc, n, 0.25f);
              (dots ? spec.row_dots : spec.row_broadcasts)(rows, n, k, a.data(), lda, laid.data(), ldb, c.data(), ldc,
                                                           accumulate);
              for (int i = 0; i < rows; ++i) {
                for (int j = 0; j < ldc; ++j) {
                  const float got = c[i * ldc + j];
                  if (j >= n) {
                    ASSERT_TRUE(std::isnan(got)) << spec.name << (dots ? " dots" : " broadcasts") << " wrote past row " << i;
                    continue;
                  }
                  double want = accumulate ? 0.25 : 0.0, scale = 0.0;
                  for (int p = 0; p < k; ++p) {
                    const double term = static_cast<double>(a[i * lda + p]) * b[static_cast<std::size_t>(p) * n + j];
                    want += term;
                    scale += std::abs(term);
                  }
                  ASSERT_NEAR(got, want, 1e-6 * (scale + 1.0)) << spec.name << (dots ? " dots" : " broadcasts") << " k " << k
                                                               << " rows " << rows << " n " << n << " at " << i << "," << j
                                                               << (accumulate ? ", added to C" : "");
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GE(ran, 1);
}

// Few columns of B take a row order, up to the widest row broadcasts go: the dots where the depth
// pays for each cell's sum across the lanes, else the broadcasts (docs/PERFORMANCE.md, "Few
// columns of B: dots or broadcasts" and "Row broadcasts up to four vectors"). A cancelled run stops in either; a job names the row order it ran, not
// the micro-kernel it did not use.
TEST(CpuParallel, RowOrdersForFewColumns) {
  const auto& spec = cpu::active_microkernel();
  const int w = spec.width, widest = spec.broadcast_columns;
  EXPECT_EQ(widest, spec.id == MicroKernelId::avx512 ? 64 : spec.id == MicroKernelId::avx2 ? 24 : 8);
  EXPECT_EQ(cpu::parallel_loop_order({4096, 1, 4096, nullptr, nullptr, nullptr}), cpu::LoopOrder::row_dots);
  EXPECT_EQ(cpu::parallel_loop_order({4096, 1, 1, nullptr, nullptr, nullptr}), cpu::LoopOrder::row_broadcasts);
  EXPECT_EQ(cpu::parallel_loop_order({4096, w, 4096, nullptr, nullptr, nullptr}), cpu::LoopOrder::row_broadcasts);
  EXPECT_EQ(cpu::parallel_loop_order({64, widest, 64, nullptr, nullptr, nullptr}), cpu::LoopOrder::row_broadcasts);
  EXPECT_EQ(cpu::parallel_loop_order({64, widest + 1, 64, nullptr, nullptr, nullptr}),
            spec.wide_broadcasts != cpu::WideBroadcasts::never ? cpu::LoopOrder::row_broadcasts
                                                                : cpu::LoopOrder::shared_b);
  EXPECT_EQ(cpu::parallel_threads_for({4096, 1, 4096, nullptr, nullptr, nullptr}, 3), 3);

  const auto a = random_matrix(256 * 300, 41), b = random_matrix(300 * 2, 42);
  std::vector<float> c(256 * 2, std::numeric_limits<float>::quiet_NaN());
  std::atomic<bool> cancel{true};
  RunControl stopped;
  stopped.cancel = &cancel;
  for (const cpu::LoopOrder order : {cpu::LoopOrder::row_dots, cpu::LoopOrder::row_broadcasts})
    EXPECT_FALSE(cpu::parallel_with(cpu::active_microkernel().id, {256, 2, 300, a.data(), b.data(), c.data()}, 2,
                                     stopped, order));

  for (const auto& [shape, words] : {std::pair{Shape{513, 1, 1000}, "row dots: "}, std::pair{Shape{513, 2, 3}, "row broadcasts: "}}) {
    const JobResult r = run_parallel_job(shape);
    ASSERT_FALSE(r.skipped.has_value()) << *r.skipped;
    EXPECT_TRUE(r.verified) << r.max_rel_error;
    EXPECT_NE(r.detail.find(std::string(words) + cpu::kNarrowBNote), std::string::npos) << r.detail;
    EXPECT_EQ(r.detail.find("micro-kernel"), std::string::npos) << "names a kernel it did not use: " << r.detail;
  }
}

// WARPSCOPE_CPU_MICROKERNEL picks the kernel for a whole job, and a kernel the CPU cannot run is
// refused with the reason instead of crashing on an illegal instruction.
TEST(CpuParallel, ForcedMicroKernelThroughTheEnvironment) {
  JobRequest req;
  req.kernel = "cpu-parallel";
  req.shape = {37, 97, 29};  // wider than the portable row orders take: its micro-kernel runs
  req.threads = 1;
  req.repeats = 1;

  JobControl control;
  JobResult r;
  {
    ForcedMicroKernel forced("portable");
    r = run_job(req, control);
    EXPECT_FALSE(r.skipped) << *r.skipped;
    EXPECT_TRUE(r.verified);
    EXPECT_NE(r.detail.find("portable 6x16 micro-kernel"), std::string::npos) << r.detail;

    forced.set("sse9");
    r = run_job(req, control);
    ASSERT_TRUE(r.skipped);
    EXPECT_NE(r.skipped->find("names no micro-kernel"), std::string::npos) << *r.skipped;

    if (!cpu::can_run_avx512(cpu::this_cpu_features())) {
      forced.set("avx512");
      r = run_job(req, control);
      ASSERT_TRUE(r.skipped);
      EXPECT_NE(r.skipped->find("cannot run on this CPU"), std::string::npos) << *r.skipped;
    }
  }
  r = run_job(req, control);
  EXPECT_TRUE(r.verified);
  // The instruction set the dispatch chose, in its micro-kernel's name or before its row order.
  EXPECT_EQ(r.detail.find(cpu::microkernel_spec(cpu::choose_microkernel(cpu::this_cpu_features())).isa), 0u)
      << r.detail;
}

// The packing buffers follow the product, not the blocking: the blocking's A block is a sixteenth
// of L3 (2 MiB on a Zen 4) and its depth up to 1024, which a small product would allocate and fault
// in for nothing. The portable kernel packs at every shape, so the bound is checked on any CPU.
TEST(CpuParallel, PackingBuffersNoLargerThanTheProductNeeds) {
  const ForcedMicroKernel forced("portable");
  const cpu::MicroKernelSpec& portable = cpu::microkernel_spec(cpu::MicroKernelId::portable);
  auto round_up = [](long x, long to) { return (x + to - 1) / to * to; };
  for (const auto& [m, n, k] : {std::tuple{64, 64, 64}, {100, 30, 700}, {7, 300, 50}, {200, 100, 100}, {30, 2000, 9}}) {
    for (int threads : {1, 2}) {
      const cpu::Gemm g{m, n, k};
      const int used = cpu::parallel_threads_for(g, threads);
      const long a_packed = round_up(m, portable.mr) * k, b_packed = static_cast<long>(k) * round_up(n, portable.nr);
      EXPECT_LE(cpu::parallel_workspace_bytes(g, threads), static_cast<std::size_t>((used * a_packed + b_packed) * 4))
          << m << "x" << n << "x" << k << " on " << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace ws::kernels
