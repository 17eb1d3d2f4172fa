// cpu-parallel: a BLIS-style GEMM. C is cut into cache-sized blocks (NC columns, KC depth, MC
// rows); the A and B blocks are copied ("packed") into contiguous, zero-padded micro-panels so the
// micro-kernel streams them with unit stride. Threads share one packed B panel and take blocks of
// C from a counter.

#include <algorithm>
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "cpu/cpu_kernels.hpp"
#include "cpu/microkernel.hpp"

namespace ws::kernels::cpu {

namespace {

// KC x NR of B (16 KiB) stays in the 32 KiB L1 while the micro-kernel sweeps down the A block;
// MC x KC of A (96 KiB) sits in the 512 KiB L2; KC x NC of B (4 MiB) in L3. Zen 3 and recent Intel
// cores have similar L1/L2 sizes, so one set of sizes serves students' machines well enough.
constexpr int kKC = 256;
constexpr int kMC = 96;    // multiple of kMR; small enough to give threads many blocks
constexpr int kNC = 4096;  // multiple of kNR

// Below this many multiply-adds, starting a thread costs more than it saves.
constexpr double kMinWorkPerExtraThread = 64.0 * 64.0 * 64.0;

MicroKernel pick_microkernel() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return microkernel_avx2;
  return microkernel_portable;
}

MicroKernel selected_microkernel() {
  static const MicroKernel kernel = pick_microkernel();
  return kernel;
}

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<float, FreeDeleter>;

Buffer allocate(std::size_t floats) {
  // 64-byte alignment: packed panels start on cache lines and satisfy aligned AVX loads.
  const std::size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
  auto* p = static_cast<float*>(std::aligned_alloc(64, bytes));
  if (p == nullptr) throw std::bad_alloc();
  return Buffer(p);
}

int round_up(int x, int to) { return (x + to - 1) / to * to; }

// A block (mc x kc, row stride lda) -> ceil(mc/MR) micro-panels, each kc steps of MR values.
void pack_a(const float* a, long lda, int mc, int kc, float* out) {
  for (int i0 = 0; i0 < mc; i0 += kMR) {
    const int rows = std::min(kMR, mc - i0);
    for (int p = 0; p < kc; ++p) {
      int r = 0;
      for (; r < rows; ++r) out[p * kMR + r] = a[(i0 + r) * lda + p];
      for (; r < kMR; ++r) out[p * kMR + r] = 0.0f;
    }
    out += static_cast<long>(kc) * kMR;
  }
}

// B block (kc x nc, row stride ldb) -> ceil(nc/NR) micro-panels, each kc steps of NR values.
void pack_b(const float* b, long ldb, int kc, int nc, float* out) {
  for (int j0 = 0; j0 < nc; j0 += kNR) {
    const int cols = std::min(kNR, nc - j0);
    for (int p = 0; p < kc; ++p) {
      const float* src = b + p * ldb + j0;
      if (cols == kNR) {
        std::memcpy(out, src, kNR * sizeof(float));
      } else {
        std::memcpy(out, src, cols * sizeof(float));
        std::fill(out + cols, out + kNR, 0.0f);
      }
      out += kNR;
    }
  }
}

// Work of one KC x NC step: the shared packed B panel and the list of (MC block, column chunk)
// units that threads take from a counter, so a thread slowed by another process on its core
// simply takes fewer units instead of holding everyone up (a static split would).
struct Shared {
  const Gemm& g;
  const RunControl& control;
  MicroKernel kernel;
  int threads = 1;
  float* bpack = nullptr;
  std::atomic<int> next_unit{0};
  std::atomic<bool> stop{false};
  std::atomic<long long> done{0};  // multiply-adds finished, summed over threads
  double total = 0;
};

// Column chunks per MC block: enough units for balance (about 4 per thread), but no chunk under
// 64 columns, where re-packing the A block for every chunk would start to cost.
int column_chunks(int m_blocks, int nc, int threads) {
  const int wanted = (4 * threads + m_blocks - 1) / m_blocks;
  const int most = std::max(1, nc / (4 * kNR));
  return std::clamp(wanted, 1, most);
}

void run_thread(Shared& s, int id, std::barrier<>& sync, float* apack) {
  const Gemm& g = s.g;
  const long lda = g.k, ldb = g.n, ldc = g.n;

  for (int jc = 0; jc < g.n; jc += kNC) {
    const int nc = std::min(kNC, g.n - jc);
    const int panels = (nc + kNR - 1) / kNR;
    for (int pc = 0; pc < g.k; pc += kKC) {
      const int kc = std::min(kKC, g.k - pc);
      // Every thread packs every threads-th micro-panel of B; the barrier publishes the panel
      // (and the reset unit counter) to all of them.
      for (int p = id; p < panels; p += s.threads) {
        const int j0 = p * kNR;
        pack_b(g.b + pc * ldb + jc + j0, ldb, kc, std::min(kNR, nc - j0),
               s.bpack + static_cast<long>(p) * kc * kNR);
      }
      sync.arrive_and_wait();

      const int m_blocks = (g.m + kMC - 1) / kMC;
      const int chunks = column_chunks(m_blocks, nc, s.threads);
      const int chunk_panels = (panels + chunks - 1) / chunks;
      const int units = m_blocks * chunks;
      for (int u = s.next_unit.fetch_add(1); u < units && !s.stop.load(std::memory_order_relaxed);
           u = s.next_unit.fetch_add(1)) {
        // A unit is a few milliseconds of work at most: often enough to cancel promptly.
        if (s.control.cancelled()) {
          s.stop.store(true, std::memory_order_relaxed);
          break;
        }
        const int ic = (u / chunks) * kMC;
        const int mc = std::min(kMC, g.m - ic);
        const int p_begin = (u % chunks) * chunk_panels;
        const int p_end = std::min(panels, p_begin + chunk_panels);
        if (p_begin >= p_end) continue;
        pack_a(g.a + ic * lda + pc, lda, mc, kc, apack);
        for (int p = p_begin; p < p_end; ++p) {
          const int jr = p * kNR;
          const int nr = std::min(kNR, nc - jr);
          const float* bp = s.bpack + static_cast<long>(p) * kc * kNR;
          for (int ir = 0; ir < mc; ir += kMR) {
            const int mr = std::min(kMR, mc - ir);
            // The first depth block overwrites C (which holds NaN poison); later ones add to it.
            s.kernel(kc, apack + static_cast<long>(ir / kMR) * kc * kMR, bp,
                     g.c + (ic + ir) * ldc + jc + jr, ldc, mr, nr, pc > 0);
          }
        }
        const long long work = static_cast<long long>(mc) * std::min(nc - p_begin * kNR, (p_end - p_begin) * kNR) * kc;
        const long long done = s.done.fetch_add(work, std::memory_order_relaxed) + work;
        if (id == 0) s.control.report(static_cast<double>(done) / s.total);
      }
      // Nobody may repack B while another thread still reads it. The barrier also makes every
      // thread see the same `stop`, so all leave together and none waits forever.
      sync.arrive_and_wait();
      if (s.stop.load(std::memory_order_relaxed)) return;
      if (id == 0) s.next_unit.store(0, std::memory_order_relaxed);
      sync.arrive_and_wait();
    }
  }
}

}  // namespace

void microkernel_portable(int kc, const float* a, const float* b, float* c, long ldc, int mr,
                          int nr, bool accumulate) {
  float tile[kMR][kNR] = {};
  for (int p = 0; p < kc; ++p) {
    for (int i = 0; i < kMR; ++i) {
      const float ai = a[i];
      for (int j = 0; j < kNR; ++j) tile[i][j] += ai * b[j];
    }
    a += kMR;
    b += kNR;
  }
  for (int i = 0; i < mr; ++i) {
    float* ci = c + i * ldc;
    for (int j = 0; j < nr; ++j) ci[j] = accumulate ? ci[j] + tile[i][j] : tile[i][j];
  }
}

const char* parallel_microkernel_name() {
  return selected_microkernel() == microkernel_avx2 ? "AVX2+FMA 6x16 micro-kernel"
                                                    : "portable 6x16 micro-kernel";
}

int parallel_threads_for(const Gemm& g, int threads) {
  const double work = static_cast<double>(g.m) * g.n * g.k;
  const int by_work = static_cast<int>(std::max(1.0, work / kMinWorkPerExtraThread));
  const int m_blocks = (g.m + kMC - 1) / kMC;
  const int by_units = m_blocks * std::max(1, std::min(g.n, kNC) / (4 * kNR));
  return std::max(1, std::min({threads, by_work, by_units}));
}

std::size_t parallel_workspace_bytes(const Gemm& g, int threads) {
  const std::size_t used = parallel_threads_for(g, threads);
  const std::size_t b_panel = static_cast<std::size_t>(kKC) * std::min(kNC, round_up(g.n, kNR));
  return (used * kMC * kKC + b_panel) * sizeof(float);
}

bool parallel(const Gemm& g, int threads, const RunControl& control) {
  Shared shared{g, control, selected_microkernel()};
  shared.threads = parallel_threads_for(g, threads);
  shared.total = static_cast<double>(g.m) * g.n * g.k;
  Buffer bpack = allocate(static_cast<std::size_t>(kKC) * std::min(kNC, round_up(g.n, kNR)));
  shared.bpack = bpack.get();
  // Allocated here, not in the workers, so running out of memory throws to the caller instead of
  // terminating the program from inside a thread.
  std::vector<Buffer> apacks;
  for (int t = 0; t < shared.threads; ++t) apacks.push_back(allocate(static_cast<std::size_t>(kMC) * kKC));

  std::barrier<> sync(shared.threads);
  std::vector<std::thread> workers;
  workers.reserve(shared.threads - 1);
  for (int t = 1; t < shared.threads; ++t) workers.emplace_back([&, t] { run_thread(shared, t, sync, apacks[t].get()); });
  run_thread(shared, 0, sync, apacks[0].get());
  for (auto& w : workers) w.join();
  return !shared.stop.load();
}

}  // namespace ws::kernels::cpu
