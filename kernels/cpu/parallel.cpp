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
  LoopOrder order = LoopOrder::shared_b;  // never automatic: plan_for decides
};

// Up to the widest row broadcasts take (64 columns with AVX-512, 24 with AVX2, 8 portable): at
// every shape measured there, one of the row orders beat the packed micro-kernel
// (docs/PERFORMANCE.md, "A matrix times a vector" and the two sections after it).
bool narrow_b_pays(const Plan& plan, const Gemm& g) { return g.n <= plan.kernel->broadcast_columns; }
bool is_row_order(LoopOrder order) { return order == LoopOrder::row_dots || order == LoopOrder::row_broadcasts; }

// Row broadcasts do one vector FMA per element of A whatever n is; row dots n / W of one, plus a
// sum across the lanes for each cell of C (the spec's cell_sum_cost, in FMAs: 12 for a 16-lane
// AVX-512 register, 4 for an 8-lane AVX2 one). So the dots win where
// k * (1 - n / W) > cell_sum_cost * n; with n = W, never.
bool dots_pay(const Plan& plan, const Gemm& g) {
  const long w = plan.kernel->width;
  return static_cast<long>(g.k) * (w - g.n) > static_cast<long>(plan.kernel->cell_sum_cost) * g.n * w;
}

bool short_a_pays(const Plan& plan, const Gemm& g);
long l3_bytes() { return this_cpu_caches().l3 > 0 ? this_cpu_caches().l3 : 16L * 1024 * 1024; }  // unknown: a desktop's
long l2_bytes() { return std::max(this_cpu_caches().l2, 256L * 1024); }  // at least a small core's
std::size_t b_bytes(const Gemm& g) { return static_cast<std::size_t>(g.k) * g.n * sizeof(float); }

// Row broadcasts over column blocks of a wide B, where the kernel's broadcast blocks pay for it
// (MicroKernelSpec::wide_broadcasts): A and B read where they lie, each block of rows against a
// depth slice of a column block of B that stays in L2 (row_slice_depth), nothing packed and no
// barrier.
//   in_cache (AVX-512): on a Zen 4 they beat the packed micro-kernel wherever B fits in a quarter
//     of L3: 1.04-1.21 times at 128^3-1024^3, up to 4 times with few rows, 0.95-0.96 at the worst
//     (tall and deep A on one thread). Beyond a quarter of L3, B's rows come from memory at a
//     stride the prefetchers follow badly (200 x 2048 x 2048: 0.68, 4096^3: 0.62-0.73), except
//     where A is one block of rows, so that every order reads each element of B once
//     (1-6 x 2048 x 2048: 1.0-1.24). docs/PERFORMANCE.md, "Row broadcasts for any A".
//   small_products (AVX2, measured forced on the Zen 4): 1.04-1.16 times up to 64^3 (0.83 at 80^3
//     on one thread), and 1.5-2.3 times with at most 8 rows of A against a B within L2 (8 x 200 x
//     200, 1-8 x 512 x 512); 0.95 with 12 rows, 0.72-0.91 with B of 4 MiB.
//     docs/PERFORMANCE.md, "AVX2's row broadcasts for small products".
constexpr double kSmallProductWork = 64.0 * 64 * 64;
constexpr int kFewRowsForSmallBroadcasts = 8;

bool wide_broadcasts_pay(const Plan& plan, const Gemm& g) {
  switch (plan.kernel->wide_broadcasts) {
    case WideBroadcasts::never: return false;
    case WideBroadcasts::small_products:
      return static_cast<double>(g.m) * g.n * g.k <= kSmallProductWork ||
             (g.m <= kFewRowsForSmallBroadcasts && b_bytes(g) <= static_cast<std::size_t>(l2_bytes()));
    case WideBroadcasts::in_cache:
      return g.m <= plan.kernel->broadcast_rows || b_bytes(g) <= static_cast<std::size_t>(l3_bytes() / 4);
  }
  return false;
}

// This CPU's blocking for each micro-kernel, derived once: a product of a few microseconds
// spent a few percent of its time deriving it again (32^3).
const Blocking& blocking_for(const MicroKernelSpec& kernel) {
  static_assert(static_cast<int>(MicroKernelId::avx512) == 0 && static_cast<int>(MicroKernelId::portable) == 2);
  auto derive = [](MicroKernelId id) {
    const MicroKernelSpec& spec = microkernel_spec(id);
    return derive_blocking(this_cpu_caches(), spec.mr, spec.nr);
  };
  static const Blocking all[] = {derive(MicroKernelId::avx512), derive(MicroKernelId::avx2), derive(MicroKernelId::portable)};
  return all[static_cast<int>(kernel.id)];
}

Plan plan_for(const MicroKernelSpec& kernel, const Gemm& g, LoopOrder order) {
  Plan plan{&kernel, blocking_for(kernel)};
  plan.order = order != LoopOrder::automatic ? order
               : narrow_b_pays(plan, g)       ? (dots_pay(plan, g) ? LoopOrder::row_dots : LoopOrder::row_broadcasts)
               : wide_broadcasts_pay(plan, g) ? LoopOrder::row_broadcasts
               : short_a_pays(plan, g)        ? LoopOrder::short_a
                                              : LoopOrder::shared_b;
  return plan;
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

// A short A (all its rows in one MC block, as in a layer's 128 x 9216 batch against 9216 x 4096
// weights) is reused by every column of B, and each column of B by only m rows. There the loop
// order above is the wrong one: it packs B for the whole depth into a panel far larger than any
// cache, so each element of B went to memory and back twice for only m multiply-adds, and every
// unit re-packed its rows of A (at 128 x 4096 x 9216 on a Zen 4: 0.48 of OpenBLAS). Here A is
// packed once for the whole depth, shared, and small enough to stay in L3; threads take column
// chunks of B from a counter and pack each KC block of their chunk into a buffer of their own that
// stays in L2, then run every row tile against it. One barrier in all (after A is packed).
constexpr long kShortAMaxBytes = 8L * 1024 * 1024;

int row_tiles(const Plan& plan, const Gemm& g) { return (g.m + plan.kernel->mr - 1) / plan.kernel->mr; }

std::size_t short_a_floats(const Plan& plan, const Gemm& g) {
  return static_cast<std::size_t>(row_tiles(plan, g)) * plan.kernel->mr * g.k;
}

std::size_t b_panel_floats(const Plan& plan, const Gemm& g);

// Up to this many rows of A (and B at least kShortAMinColumns wide) the short order is taken
// whatever B's size. With so few rows the shared panel's cost is B itself: packed by all threads
// into one buffer and read back by all, so lines of it cross between cores, for at most this many
// multiply-adds per element. On two threads of a Zen 4 the shared panel ran 16 x 1024 x 1024 at
// 28 GFLOP/s, under half of one thread's (docs/PERFORMANCE.md, "Few rows of A on two threads").
// Narrower B makes the short order's column chunks too small to pay: 5-10 % slower on one thread
// at 64 x 65-200 x 4096 and 8 x 200 x 200.
constexpr int kShortAAlwaysRows = 64;
constexpr int kShortAMinColumns = 256;

// More rows take it only where B's panel would fill over a quarter of L3. Below that the loop
// order above was 2-18 % faster at 256^3-500^3 on two threads (its B panel is in cache, and its
// units split rows as well as columns); above it, from 96 x 2048 x 2048 (16 MiB against a 32 MiB
// L3), the short order measured 0.96-1.31 times its speed, mostly over 1.1.
bool short_a_pays(const Plan& plan, const Gemm& g) {
  const long l3 = l3_bytes();
  return g.m <= plan.blocks.mc && short_a_floats(plan, g) * sizeof(float) <= kShortAMaxBytes &&
         ((g.m <= kShortAAlwaysRows && g.n >= kShortAMinColumns) ||
          b_panel_floats(plan, g) * sizeof(float) > static_cast<std::size_t>(l3 / 4));
}

// Columns of one chunk: about kUnitsPerThread chunks per thread for balance, whole micro-panels,
// and a KC block of the chunk in at most a quarter of L2 (A's KC slice takes another share).
int short_a_chunk_columns(const Plan& plan, const Gemm& g, int threads) {
  const int nr = plan.kernel->nr;
  const long l2 = l2_bytes();
  const int fit = std::max(nr, static_cast<int>(l2 / 4 / (plan.blocks.kc * static_cast<long>(sizeof(float)))) / nr * nr);
  const int balanced = round_up((g.n + kUnitsPerThread * threads - 1) / (kUnitsPerThread * threads), nr);
  return std::clamp(balanced, nr, fit);
}

void run_short_a_thread(Shared& s, int id, SpinBarrier& sync, float* apack, float* bchunk, int chunk_columns) {
  const Gemm& g = s.g;
  const long lda = g.k, ldb = g.n, ldc = g.n;
  const MicroKernelSpec& kernel = *s.plan.kernel;
  const int MR = kernel.mr, NR = kernel.nr;
  const int KC = s.plan.blocks.kc;
  const int tiles = row_tiles(s.plan, g);

  // The KC block at depth pc holds `tiles` micro-panels of kc x MR from offset pc * tiles * MR.
  for (int pc = id * KC; pc < g.k; pc += s.threads * KC)
    pack_a(MR, g.a + pc, lda, g.m, std::min(KC, g.k - pc), apack + static_cast<long>(pc) * tiles * MR);
  sync.arrive_and_wait();

  const int units = (g.n + chunk_columns - 1) / chunk_columns;
  for (int u = s.next_unit.fetch_add(1); u < units && !s.stop.load(std::memory_order_relaxed);
       u = s.next_unit.fetch_add(1)) {
    const int jc = u * chunk_columns;
    const int nc = std::min(chunk_columns, g.n - jc);
    const int panels = (nc + NR - 1) / NR;
    for (int pc = 0; pc < g.k; pc += KC) {
      if (s.control.cancelled()) {
        s.stop.store(true, std::memory_order_relaxed);
        break;
      }
      const int kc = std::min(KC, g.k - pc);
      pack_b_rows(NR, g.b + pc * ldb + jc, ldb, 0, kc, kc, KC, nc, bchunk);
      const float* ablock = apack + static_cast<long>(pc) * tiles * MR;
      // B comes from memory, row pieces of nc floats at a stride of ldb, which the hardware
      // prefetchers barely follow (packing took a quarter of the run): the next depth block's
      // pieces are fetched into L2 a slice per micro-kernel call while this block computes.
      const int next_rows = std::max(0, std::min(KC, g.k - pc - KC));
      const int row_lines = (nc * static_cast<int>(sizeof(float)) + kCacheLine - 1) / kCacheLine + 1;
      const int calls = panels * tiles;
      const int lines_per_call = (next_rows * row_lines + calls - 1) / calls;
      int next_line = 0, row = 0, line = 0;  // next_line = row * row_lines + line
      for (int p = 0; p < panels; ++p) {
        const int jr = p * NR;
        const int nr = std::min(NR, nc - jr);
        const float* bp = bchunk + static_cast<long>(p) * kc * NR;
        for (int t = 0; t < tiles; ++t) {
          const int ir = t * MR;
          for (const int last = std::min(next_rows * row_lines, next_line + lines_per_call); next_line < last; ++next_line) {
            const char* piece = reinterpret_cast<const char*>(g.b + static_cast<long>(pc + KC + row) * ldb + jc);
            __builtin_prefetch(piece + line * kCacheLine, 0, 2);
            if (++line == row_lines) {
              line = 0;
              ++row;
            }
          }
          // The first depth block overwrites C (which holds NaN poison); later ones add to it.
          kernel.run(kc, ablock + static_cast<long>(t) * kc * MR, bp, g.c + ir * ldc + jc + jr, ldc,
                     std::min(MR, g.m - ir), nr, pc > 0);
        }
      }
      const long long work = static_cast<long long>(g.m) * nc * kc;
      const long long done = s.done.fetch_add(work, std::memory_order_relaxed) + work;
      if (id == 0) s.control.report(static_cast<double>(done) / s.total);
    }
  }
}

// The row_dots and row_broadcasts orders (narrow_b.hpp). For row dots with n > 1, B's columns are
// copied once into rows of their own (for n = 1 B already is one); then threads take units of
// rows and, for row broadcasts of a wide B, of one column block, from a counter.
constexpr int kRowUnitRowsMin = 16;

// The row-broadcast block a wide B's column blocks are computed in: the widest (AVX-512: 6 rows x
// 4 vectors), or one vector narrower (8 rows x 3 vectors). Two things make the narrower win, in
// measurements on a Zen 4 (one thread; docs/PERFORMANCE.md, "A short A's last rows"):
//   - B's last column block: one under a vector wide (72 = 64 + 8) ran at a quarter to half the
//     speed of a full one; where 48 columns leave none (72 = 48 + 24), the narrower won by 2-11 %
//     at 12 to 256 rows, and where they alone leave one (100 = 48 + 48 + 4) lost by 3-10 %.
//   - A's last rows: a block of 1 or 2 rows does few FMAs for each row of B it loads. Where A is
//     short and 8-row blocks leave a fuller last block, the narrower won by 2-31 % (7 to 56 rows);
//     with many rows it lost 1-3 % (256^3, 512^3), so this applies below 64 rows.
constexpr int kFewRowsForNarrowerBlocks = 64;

BroadcastBlock wide_broadcast_block(const Plan& plan, const Gemm& g) {
  const MicroKernelSpec& k = *plan.kernel;
  const BroadcastBlock widest{k.broadcast_rows, k.broadcast_columns};
  const BroadcastBlock narrower{k.narrower_broadcast_rows, k.broadcast_columns - k.width};
  if (narrower.columns <= 0) return widest;
  auto leaves_sliver = [&](int columns) { return g.n % columns > 0 && g.n % columns < k.width; };
  const bool widest_sliver = leaves_sliver(widest.columns), narrower_sliver = leaves_sliver(narrower.columns);
  if (widest_sliver != narrower_sliver) return widest_sliver ? narrower : widest;
  if (g.m >= kFewRowsForNarrowerBlocks) return widest;
  auto last_rows = [&](int block) { return (g.m - 1) % block + 1; };
  const bool fuller_last_rows = last_rows(widest.rows) <= 2 && last_rows(narrower.rows) > last_rows(widest.rows);
  return fuller_last_rows ? narrower : widest;
}

// Rows of a unit: for a wide B whole blocks of its row broadcasts (wide_broadcast_block), which
// its column blocks use (a unit's last block is shorter); else a multiple of 8, the narrower
// blocks' most rows.
int row_unit_rows(const Plan& plan, const Gemm& g, int threads) {
  const int block = narrow_b_pays(plan, g) ? 8 : wide_broadcast_block(plan, g).rows;
  return round_up(std::max(kRowUnitRowsMin, (g.m + kUnitsPerThread * threads - 1) / (kUnitsPerThread * threads)), block);
}

// Columns of a unit: B whole where the kernel takes it (row dots, narrow B), else one column block
// of wide_broadcast_block.
int row_unit_columns(const Plan& plan, const Gemm& g) {
  if (plan.order == LoopOrder::row_dots || narrow_b_pays(plan, g)) return g.n;
  return wide_broadcast_block(plan, g).columns;
}

// Depth of one slice of a row-broadcast unit: its column block of B over the slice fills a quarter
// of L2, so that it stays there while every block of the unit's rows reads it (the sums of a
// later slice are added to C's). A whole column block of a deep B did not stay: 4096 x 256 x 8192
// ran at 0.9 of the packed micro-kernel without slices (docs/PERFORMANCE.md, "Row broadcasts for
// any A"). Row dots run the whole depth, as their sums across the lanes end each cell.
int row_slice_depth(const Gemm& g, int unit_columns) {
  const long l2 = l2_bytes();
  const long fit = l2 / 4 / (static_cast<long>(unit_columns) * static_cast<long>(sizeof(float)));
  return static_cast<int>(std::clamp<long>(fit / 16 * 16, 64, std::max(1, g.k)));
}

int column_block_count(const Gemm& g, int unit_columns) { return (g.n + unit_columns - 1) / unit_columns; }
int row_units(const Gemm& g, int rows_per_unit, int unit_columns) {
  return (g.m + rows_per_unit - 1) / rows_per_unit * column_block_count(g, unit_columns);
}

// A row order's units, derived once per run (a product of a few microseconds spent a tenth of its
// time deriving them again in each thread: 16^3).
struct RowUnits {
  int rows, columns, column_blocks, count;
  int slice;  // depth of one kernel call
};

RowUnits row_units_for(const Plan& plan, const Gemm& g, int threads) {
  RowUnits u{};
  u.rows = row_unit_rows(plan, g, threads);
  u.columns = row_unit_columns(plan, g);
  u.column_blocks = column_block_count(g, u.columns);
  u.count = row_units(g, u.rows, u.columns);
  u.slice = plan.order == LoopOrder::row_dots ? g.k : row_slice_depth(g, u.columns);
  return u;
}

void run_row_order_thread(Shared& s, int id, NarrowB kernel, const float* b, long ldb, const RowUnits& units) {
  const Gemm& g = s.g;
  const bool dots = s.plan.order == LoopOrder::row_dots;
  for (int u = s.next_unit.fetch_add(1); u < units.count; u = s.next_unit.fetch_add(1)) {
    if (s.control.cancelled()) {
      s.stop.store(true, std::memory_order_relaxed);
      return;
    }
    const int i = u / units.column_blocks * units.rows, j = u % units.column_blocks * units.columns;
    const int rows = std::min(units.rows, g.m - i), n = std::min(units.columns, g.n - j);
    const float* a_rows = g.a + static_cast<long>(i) * g.k;
    float* c_block = g.c + static_cast<long>(i) * g.n + j;
    if (dots) {
      kernel(rows, n, g.k, a_rows, g.k, b + j * ldb, ldb, c_block, g.n, false);
    } else {
      // k = 0 still writes C's zeros: one slice of no depth.
      for (int p = 0; p == 0 || p < g.k; p += units.slice)
        kernel(rows, n, std::min(units.slice, g.k - p), a_rows + p, g.k, b + p * ldb + j, ldb, c_block, g.n, p > 0);
    }
    const long long work = static_cast<long long>(rows) * n * g.k;
    const long long done = s.done.fetch_add(work, std::memory_order_relaxed) + work;
    if (id == 0) s.control.report(static_cast<double>(done) / s.total);
  }
}

int threads_for(const Plan& plan, const Gemm& g, int threads) {
  const double work = static_cast<double>(g.m) * g.n * g.k;
  const int by_work = static_cast<int>(std::max(1.0, work / kMinWorkPerExtraThread));
  // Short A: every micro-panel of B can be a chunk of its own. Else every tile of rows can be a
  // unit of its own (row_block shrinks the blocks down to one tile).
  const int by_units = plan.order == LoopOrder::short_a    ? (g.n + plan.kernel->nr - 1) / plan.kernel->nr
                       : is_row_order(plan.order)         ? row_units(g, kRowUnitRowsMin, row_unit_columns(plan, g))
                                                           : row_tiles(plan, g) * std::max(1, std::min(g.n, panel_columns(plan, g)) / (4 * plan.kernel->nr));
  return std::max(1, std::min({threads, by_work, by_units}));
}

std::size_t b_panel_floats(const Plan& plan, const Gemm& g) {
  const int nr = plan.kernel->nr;
  return static_cast<std::size_t>(g.k) * std::min(panel_columns(plan, g), round_up(g.n, nr));
}

// The depth of a packed block for this product: KC, or all of a shallower K.
int block_depth(const Plan& plan, const Gemm& g) { return std::max(1, std::min(plan.blocks.kc, g.k)); }

// One thread's packed A block: no more rows than A has, nor deeper than K. The blocking's own
// MC x KC is a sixteenth of L3 (2 MiB on a Zen 4), which a small product would fault in afresh.
std::size_t a_block_floats(const Plan& plan, const Gemm& g) {
  const int mr = plan.kernel->mr;
  return static_cast<std::size_t>(std::min(round_up(plan.blocks.mc, mr), round_up(std::max(1, g.m), mr))) *
         block_depth(plan, g);
}

// The buffers of one run: one the threads share (B's panel; for short_a, all of A packed; for
// row_dots, B's columns as rows) and one for each thread (its A block; for short_a, its chunk of
// B). run_plan allocates them and parallel_workspace_bytes reports them, from this one place.
struct WorkspaceFloats {
  std::size_t shared, per_thread;
};

WorkspaceFloats workspace_floats(const Plan& plan, const Gemm& g, int threads) {
  if (plan.order == LoopOrder::row_dots) return {g.n > 1 ? static_cast<std::size_t>(g.n) * g.k : 0, 0};
  if (plan.order == LoopOrder::row_broadcasts) return {0, 0};
  if (plan.order == LoopOrder::short_a)
    return {short_a_floats(plan, g),
            static_cast<std::size_t>(block_depth(plan, g)) * short_a_chunk_columns(plan, g, threads)};
  return {b_panel_floats(plan, g), a_block_floats(plan, g)};
}

bool run_plan(const Plan& plan, const Gemm& g, int threads, const RunControl& control) {
  Shared shared{g, control, plan};
  shared.threads = threads_for(plan, g, threads);
  shared.total = static_cast<double>(g.m) * g.n * g.k;
  // Allocated here, not in the workers, so running out of memory throws to the caller instead of
  // terminating the program from inside a thread.
  const WorkspaceFloats sizes = workspace_floats(plan, g, shared.threads);
  PackBuffer common(sizes.shared);
  std::vector<PackBuffer> own;
  if (sizes.per_thread > 0) {
    own.reserve(static_cast<std::size_t>(shared.threads));
    for (int t = 0; t < shared.threads; ++t) own.emplace_back(sizes.per_thread);
  }

  if (is_row_order(plan.order)) {
    const float* b = g.b;
    if (plan.order == LoopOrder::row_dots && g.n > 1) {
      float* columns = common.get();
      for (int p = 0; p < g.k; ++p)
        for (int j = 0; j < g.n; ++j) columns[static_cast<long>(j) * g.k + p] = g.b[static_cast<long>(p) * g.n + j];
      b = columns;
    }
    const bool dots = plan.order == LoopOrder::row_dots;
    const NarrowB kernel = dots ? plan.kernel->row_dots : plan.kernel->row_broadcasts;
    const long ldb = dots ? g.k : g.n;
    const RowUnits units = row_units_for(plan, g, shared.threads);
    run_as_team(shared.threads, [&](int id) { run_row_order_thread(shared, id, kernel, b, ldb, units); });
    return !shared.stop.load();
  }
  SpinBarrier sync(shared.threads);
  if (plan.order == LoopOrder::short_a) {
    const int chunk_columns = short_a_chunk_columns(plan, g, shared.threads);
    run_as_team(shared.threads, [&](int id) {
      run_short_a_thread(shared, id, sync, common.get(), own[id].get(), chunk_columns);
    });
  } else {
    shared.bpack = common.get();
    run_as_team(shared.threads, [&](int id) { run_thread(shared, id, sync, own[id].get()); });
  }
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

std::string parallel_detail(const Gemm& g) {
  const MicroKernelSpec& kernel = active_microkernel();
  const Plan plan = plan_for(kernel, g, LoopOrder::automatic);
  const LoopOrder order = plan.order;
  if (is_row_order(order))
    return std::string(kernel.isa) + (order == LoopOrder::row_dots ? " row dots: " : " row broadcasts: ") +
           (narrow_b_pays(plan, g) ? kNarrowBNote : kWideBroadcastNote);
  const Blocking& blocks = plan.blocks;
  std::string detail = std::string(kernel.name) + ", KC " + std::to_string(blocks.kc) + " MC " +
                       std::to_string(blocks.mc) + " NC " + std::to_string(blocks.nc) + " from the cache sizes";
  if (order == LoopOrder::short_a) detail += std::string("; ") + kShortANote;
  return detail;
}

LoopOrder parallel_loop_order(const Gemm& g) { return plan_for(active_microkernel(), g, LoopOrder::automatic).order; }

BroadcastBlock parallel_broadcast_block(const Gemm& g) {
  return wide_broadcast_block(plan_for(active_microkernel(), g, LoopOrder::automatic), g);
}

int parallel_threads_for(const Gemm& g, int threads) {
  return threads_for(plan_for(active_microkernel(), g, LoopOrder::automatic), g, threads);
}

std::size_t parallel_workspace_bytes(const Gemm& g, int threads) {
  const Plan plan = plan_for(active_microkernel(), g, LoopOrder::automatic);
  const int used = threads_for(plan, g, threads);
  const WorkspaceFloats sizes = workspace_floats(plan, g, used);
  return (sizes.shared + static_cast<std::size_t>(used) * sizes.per_thread) * sizeof(float);
}

bool parallel(const Gemm& g, int threads, const RunControl& control) {
  return run_plan(plan_for(runnable_microkernel(), g, LoopOrder::automatic), g, threads, control);
}

bool parallel_with(MicroKernelId id, const Gemm& g, int threads, const RunControl& control, LoopOrder order) {
  const MicroKernelSpec& kernel = microkernel_spec(id);
  if (!cpu_can_run(id, this_cpu_features()))
    throw std::runtime_error(std::string(kernel.name) + " cannot run on this CPU (" +
                             simd_name(this_cpu_features()) + ")");
  return run_plan(plan_for(kernel, g, order), g, threads, control);
}

}  // namespace ws::kernels::cpu
