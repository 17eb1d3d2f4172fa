// cpu-parallel: a BLIS-style GEMM. C is cut into cache-sized blocks (NC columns, KC depth, MC
// rows, derived from this CPU's cache sizes in blocking.cpp); the A and B blocks are copied
// ("packed", packing.cpp) into contiguous, zero-padded micro-panels so the micro-kernel streams
// them with unit stride. Threads share one packed B panel and take (row block, column chunk)
// units of C from a counter, so both the M and the N loop are split: a short, wide C or a tall,
// narrow one still feeds every thread.

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "cpu/blocking.hpp"
#include "cpu/buffer_cache.hpp"
#include "cpu/cpu_kernels.hpp"
#include "cpu/microkernel.hpp"
#include "cpu/packing.hpp"
#include "cpu/thread_team.hpp"

namespace ws::kernels::cpu {

namespace {

// Below this many multiply-adds, starting a thread costs more than it saves.
constexpr double kMinWorkPerExtraThread = 64.0 * 64.0 * 64.0;

// The kernel and its blocking for one run, fixed before any thread starts.
struct Plan {
  const MicroKernelSpec* kernel;
  Blocking blocks;
};

Plan plan_for(const MicroKernelSpec& kernel) {
  return {&kernel, derive_blocking(this_cpu_caches(), kernel.mr, kernel.nr)};
}

constexpr int kCacheLine = 64;

int round_up(int x, int to) { return (x + to - 1) / to * to; }

// Work of one column panel: B packed for the whole depth K (every KC block of it), then the list
// of (MC block, column chunk) units that threads take from a counter. Each unit runs the whole
// depth for its block of C, so the threads meet at a barrier once per column panel, not once per
// KC block: on a loaded machine every barrier waits for the slowest thread's time slice, and a
// thread slowed by another process simply takes fewer units (a static split would hold everyone).
struct Shared {
  const Gemm& g;
  const RunControl& control;
  Plan plan;
  int threads = 1;
  float* bpack = nullptr;
  std::atomic<int> next_unit{0};
  std::atomic<bool> stop{false};
  std::atomic<long long> done{0};  // multiply-adds finished, summed over threads
  double total = 0;
};

// Rows of B one thread packs at a time: enough to keep each thread's reads sequential, few enough
// that the threads share the packing evenly.
constexpr int kPackRowsPerItem = 16;

// About 8 units per thread balance the load when threads run at different speeds (other
// processes on the cores); each extra column chunk re-packs an A block, under 1 % of its work.
constexpr int kUnitsPerThread = 8;

// Column chunks per MC block: enough units for balance, but no chunk under 4 micro-panels, where
// re-packing the A block for every chunk would start to cost.
int column_chunks(int m_blocks, int nc, int nr, int threads) {
  if (threads == 1) return 1;  // nothing to balance
  const int wanted = (kUnitsPerThread * threads + m_blocks - 1) / m_blocks;
  const int most = std::max(1, nc / (4 * nr));
  return std::clamp(wanted, 1, most);
}

// Rows per A block: at most the cache-derived MC, and a block count that is a multiple of the
// thread count and, where C is narrow (4096x64 has one column chunk), enough for balance, so no
// thread is left with the last odd block while the others wait.
int row_block(int m, int nc, int mr, int nr, int mc_max, int threads) {
  if (threads == 1) return mc_max;
  const int chunks_most = std::max(1, nc / (4 * nr));
  int blocks = std::max((m + mc_max - 1) / mc_max, (kUnitsPerThread * threads + chunks_most - 1) / chunks_most);
  blocks = round_up(blocks, threads);
  const int rows = (m + blocks - 1) / blocks;
  return std::clamp(round_up(rows, mr), mr, mc_max);
}

// Columns per panel: the cache-derived NC, fewer when B packed for the whole depth would pass
// kMaxPackedB. A unit reads 4 bytes of B per 2 x MC flops (under 0.01 byte per flop at MC 252),
// so the panel need not fit in a cache.
constexpr long kMaxPackedB = 64L * 1024 * 1024 / sizeof(float);

int panel_columns(const Plan& plan, const Gemm& g) {
  const int nr = plan.kernel->nr;
  const long fit = kMaxPackedB / std::max(1, g.k) / nr * nr;
  return static_cast<int>(std::clamp<long>(fit, nr, plan.blocks.nc));
}

void run_thread(Shared& s, int id, SpinBarrier& sync, float* apack) {
  const Gemm& g = s.g;
  const long lda = g.k, ldb = g.n, ldc = g.n;
  const MicroKernelSpec& kernel = *s.plan.kernel;
  const int MR = kernel.mr, NR = kernel.nr;
  const int KC = s.plan.blocks.kc;
  const int NC = panel_columns(s.plan, g);

  for (int jc = 0; jc < g.n; jc += NC) {
    const int nc = std::min(NC, g.n - jc);
    const int panels = (nc + NR - 1) / NR;
    // The KC block starting at depth pc holds `panels` micro-panels of kc x NR from offset
    // pc * panels * NR. Every thread packs every threads-th group of kPackRowsPerItem rows; the
    // barrier publishes them (and the reset unit counter) to all threads.
    for (int group = id; group * kPackRowsPerItem < g.k; group += s.threads) {
      const int first = group * kPackRowsPerItem;
      pack_b_rows(NR, g.b + jc, ldb, first, std::min(g.k, first + kPackRowsPerItem), g.k, KC, nc, s.bpack);
    }
    sync.arrive_and_wait();

    const int MC = row_block(g.m, nc, MR, NR, s.plan.blocks.mc, s.threads);
    const int m_blocks = (g.m + MC - 1) / MC;
    const int chunks = column_chunks(m_blocks, nc, NR, s.threads);
    const int chunk_panels = (panels + chunks - 1) / chunks;
    const int units = m_blocks * chunks;
    for (int u = s.next_unit.fetch_add(1); u < units && !s.stop.load(std::memory_order_relaxed);
         u = s.next_unit.fetch_add(1)) {
      const int ic = (u / chunks) * MC;
      const int mc = std::min(MC, g.m - ic);
      const int p_begin = (u % chunks) * chunk_panels;
      const int p_end = std::min(panels, p_begin + chunk_panels);
      if (p_begin >= p_end) continue;
      const int columns = std::min(nc - p_begin * NR, (p_end - p_begin) * NR);
      for (int pc = 0; pc < g.k; pc += KC) {
        // One depth block of one unit is a few milliseconds at most: often enough to cancel promptly.
        if (s.control.cancelled()) {
          s.stop.store(true, std::memory_order_relaxed);
          break;
        }
        const int kc = std::min(KC, g.k - pc);
        const float* bblock = s.bpack + static_cast<long>(pc) * panels * NR;
        pack_a(MR, g.a + ic * lda + pc, lda, mc, kc, apack);
        // While the tiles of one micro-panel of B run, the next one is fetched a slice per tile:
        // it comes from L3 (the packed block is larger than L2), and fetched on demand it stalls
        // the first tile of every micro-panel.
        const int tiles = (mc + MR - 1) / MR;
        const int panel_lines = kc * NR * static_cast<int>(sizeof(float)) / kCacheLine;
        const int lines_per_tile = (panel_lines + tiles - 1) / tiles;
        for (int p = p_begin; p < p_end; ++p) {
          const int jr = p * NR;
          const int nr = std::min(NR, nc - jr);
          const float* bp = bblock + static_cast<long>(p) * kc * NR;
          const char* next_bp = reinterpret_cast<const char*>(bp + static_cast<long>(kc) * NR);
          for (int ir = 0; ir < mc; ir += MR) {
            const int mr = std::min(MR, mc - ir);
            if (p + 1 < p_end) {
              const int first = ir / MR * lines_per_tile;
              const int last = std::min(panel_lines, first + lines_per_tile);
              for (int line = first; line < last; ++line)
                __builtin_prefetch(next_bp + line * kCacheLine, 0, 3);
            }
            // The first depth block overwrites C (which holds NaN poison); later ones add to it.
            kernel.run(kc, apack + static_cast<long>(ir / MR) * kc * MR, bp,
                       g.c + (ic + ir) * ldc + jc + jr, ldc, mr, nr, pc > 0);
          }
        }
        const long long work = static_cast<long long>(mc) * columns * kc;
        const long long done = s.done.fetch_add(work, std::memory_order_relaxed) + work;
        if (id == 0) s.control.report(static_cast<double>(done) / s.total);
      }
    }
    // Nobody may repack B while another thread still reads it. The barrier also makes every
    // thread see the same `stop`, so all leave together and none waits forever.
    sync.arrive_and_wait();
    if (s.stop.load(std::memory_order_relaxed)) return;
    if (id == 0) s.next_unit.store(0, std::memory_order_relaxed);
    sync.arrive_and_wait();
  }
}

int threads_for(const Plan& plan, const Gemm& g, int threads) {
  const double work = static_cast<double>(g.m) * g.n * g.k;
  const int by_work = static_cast<int>(std::max(1.0, work / kMinWorkPerExtraThread));
  // Every tile of rows can be a unit of its own (row_block shrinks the blocks down to one tile).
  const int row_tiles = (g.m + plan.kernel->mr - 1) / plan.kernel->mr;
  const int by_units = row_tiles * std::max(1, std::min(g.n, panel_columns(plan, g)) / (4 * plan.kernel->nr));
  return std::max(1, std::min({threads, by_work, by_units}));
}

std::size_t b_panel_floats(const Plan& plan, const Gemm& g) {
  const int nr = plan.kernel->nr;
  return static_cast<std::size_t>(g.k) * std::min(panel_columns(plan, g), round_up(g.n, nr));
}

std::size_t a_block_floats(const Plan& plan) {
  return static_cast<std::size_t>(round_up(plan.blocks.mc, plan.kernel->mr)) * plan.blocks.kc;
}

bool run_plan(const Plan& plan, const Gemm& g, int threads, const RunControl& control) {
  Shared shared{g, control, plan};
  shared.threads = threads_for(plan, g, threads);
  shared.total = static_cast<double>(g.m) * g.n * g.k;
  PackBuffer bpack(b_panel_floats(plan, g));
  shared.bpack = bpack.get();
  // Allocated here, not in the workers, so running out of memory throws to the caller instead of
  // terminating the program from inside a thread.
  std::vector<PackBuffer> apacks;
  apacks.reserve(static_cast<std::size_t>(shared.threads));
  for (int t = 0; t < shared.threads; ++t) apacks.emplace_back(a_block_floats(plan));

  SpinBarrier sync(shared.threads);
  run_as_team(shared.threads, [&](int id) { run_thread(shared, id, sync, apacks[id].get()); });
  return !shared.stop.load();
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

std::string parallel_microkernel_name() {
  const Plan plan = plan_for(active_microkernel());
  return std::string(plan.kernel->name) + ", KC " + std::to_string(plan.blocks.kc) + " MC " +
         std::to_string(plan.blocks.mc) + " NC " + std::to_string(plan.blocks.nc) + " from the cache sizes";
}

int parallel_threads_for(const Gemm& g, int threads) {
  return threads_for(plan_for(active_microkernel()), g, threads);
}

std::size_t parallel_workspace_bytes(const Gemm& g, int threads) {
  const Plan plan = plan_for(active_microkernel());
  const std::size_t used = threads_for(plan, g, threads);
  return (used * a_block_floats(plan) + b_panel_floats(plan, g)) * sizeof(float);
}

bool parallel(const Gemm& g, int threads, const RunControl& control) {
  if (const auto why = microkernel_refusal()) throw std::runtime_error(*why);
  return run_plan(plan_for(active_microkernel()), g, threads, control);
}

bool parallel_with(MicroKernelId id, const Gemm& g, int threads, const RunControl& control) {
  const MicroKernelSpec& kernel = microkernel_spec(id);
  if (!cpu_can_run(id, this_cpu_features()))
    throw std::runtime_error(std::string(kernel.name) + " cannot run on this CPU (" +
                             simd_name(this_cpu_features()) + ")");
  return run_plan(plan_for(kernel), g, threads, control);
}

}  // namespace ws::kernels::cpu
