// The GPU engine. One warp instruction at a time, per warp, with its 32 lanes' arithmetic done in a
// tight loop; idle stretches (every warp waiting) are skipped by jumping to the next event. Each SM
// runs alone through a stretch of cycles (its few tens of kB stay in the host's cache) and what
// the SMs share is settled afterwards in the lockstep order, so every result is what a loop over
// all SMs cycle by cycle gives (see run_to).
#include "gpu_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "gpu_engine.hpp"

namespace ws::sim::detail {
namespace {

std::uint64_t align256(std::uint64_t x) { return (x + 255) & ~std::uint64_t{255}; }

// Exact fp32 fused multiply-add, as FFMA does: one rounding. Where the CPU has FMA the loop uses
// it; elsewhere libm's fmaf gives the same result, slower. Chosen once, called through a pointer
// (an ifunc'd clone would go through the PLT on every call, which showed in profiles).
void fma_row_generic(float a, const float* b, float* acc, int n) {
  for (int i = 0; i < n; ++i) acc[i] = __builtin_fmaf(a, b[i], acc[i]);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) void fma_row_hw(float a, const float* b, float* acc, int n) {
  for (int i = 0; i < n; ++i) acc[i] = __builtin_fmaf(a, b[i], acc[i]);
}
FmaRow pick_fma_row() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") ? &fma_row_hw : &fma_row_generic;
}
#endif

// A run of a tiled warp's FFMAs, k = k0..k1-1 in order, for n lanes: acc[i] = fma(a[k], b[k*ld + i],
// acc[i]), the same operations in the same order as one fma_row per FFMA, with the sums kept
// off the shared-memory arrays so they can stay in registers.
// The sums are copied in and out at a width known to the compiler (a whole warp's row in the
// common cases) so that the copies are a few vector moves, not calls to memcpy.
template <int N>
inline void fma_run_fixed(const float* a, const float* b, int ld, int k0, int k1, float* acc) {
  float t[N];
  std::memcpy(t, acc, sizeof t);
  for (int k = k0; k < k1; ++k)
    for (int i = 0; i < N; ++i) t[i] = __builtin_fmaf(a[k], b[k * ld + i], t[i]);
  std::memcpy(acc, t, sizeof t);
}
inline void fma_run_any(const float* a, const float* b, int ld, int k0, int k1, float* acc, int n) {
  if (n == 32) return fma_run_fixed<32>(a, b, ld, k0, k1, acc);
  if (n == 16) return fma_run_fixed<16>(a, b, ld, k0, k1, acc);
  float t[32];
  std::memcpy(t, acc, sizeof(float) * n);
  for (int k = k0; k < k1; ++k)
    for (int i = 0; i < n; ++i) t[i] = __builtin_fmaf(a[k], b[k * ld + i], t[i]);
  std::memcpy(acc, t, sizeof(float) * n);
}
void fma_run_generic(const float* a, const float* b, int ld, int k0, int k1, float* acc, int n) {
  fma_run_any(a, b, ld, k0, k1, acc, n);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"), flatten)) void fma_run_hw(const float* a, const float* b, int ld, int k0, int k1,
                                                        float* acc, int n) {
  fma_run_any(a, b, ld, k0, k1, acc, n);
}
FmaRun pick_fma_run() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") ? &fma_run_hw : &fma_run_generic;
}
#endif

// fma_run for several rows over the same b, their chains interleaved so that the FMA unit's
// latency is hidden: rows a checkpoint rebuilds (thousands of k each) rather than the engine's
// short batches.
void fma_rows_generic(const float* const* a, int rows, const float* b, int ld, int k0, int k1, float* const* acc, int n) {
  for (int r = 0; r < rows; ++r) fma_run_any(a[r], b, ld, k0, k1, acc[r], n);
}
#if defined(__x86_64__) && defined(__GNUC__)
// Four rows of 16 lanes (or two of 32) are eight vectors of sums: as many chains as hide the
// FMA's latency at two a cycle. Written with intrinsics: the compiler kept a loop's sums in
// memory, one store and reload per FMA.
template <int V, int R>  // V vectors of 8 lanes per row, R rows
__attribute__((target("avx,fma"))) inline void fma_rows_avx(const float* const* a, const float* b, int ld, int k0,
                                                          int k1, float* const* acc) {
  __m256 t[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) t[r][v] = _mm256_loadu_ps(acc[r] + 8 * v);
  for (int k = k0; k < k1; ++k) {
    const float* bk = b + static_cast<std::size_t>(k) * ld;
    __m256 bv[V];
    for (int v = 0; v < V; ++v) bv[v] = _mm256_loadu_ps(bk + 8 * v);
    for (int r = 0; r < R; ++r) {
      const __m256 ak = _mm256_broadcast_ss(a[r] + k);
      for (int v = 0; v < V; ++v) t[r][v] = _mm256_fmadd_ps(ak, bv[v], t[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) _mm256_storeu_ps(acc[r] + 8 * v, t[r][v]);
}
__attribute__((target("avx,fma"), flatten)) void fma_rows_hw(const float* const* a, int rows, const float* b, int ld,
                                                             int k0, int k1, float* const* acc, int n) {
  int r = 0;
  if (n == 16)
    for (; r + 4 <= rows; r += 4) fma_rows_avx<2, 4>(a + r, b, ld, k0, k1, acc + r);
  if (n == 32)
    for (; r + 2 <= rows; r += 2) fma_rows_avx<4, 2>(a + r, b, ld, k0, k1, acc + r);
  for (; r < rows; ++r) fma_run_any(a[r], b, ld, k0, k1, acc[r], n);
}
// The same with 16 lanes a vector where the CPU has AVX-512: half the instructions. A twin, not
// one template over both vector types: GCC will not inline a target's intrinsics into a template
// compiled without that target, even into a caller that has it.
template <int V, int R>  // V vectors of 16 lanes per row, R rows
__attribute__((target("avx512f"))) inline void fma_rows_avx512(const float* const* a, const float* b, int ld, int k0,
                                                             int k1, float* const* acc) {
  __m512 t[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) t[r][v] = _mm512_loadu_ps(acc[r] + 16 * v);
  for (int k = k0; k < k1; ++k) {
    const float* bk = b + static_cast<std::size_t>(k) * ld;
    __m512 bv[V];
    for (int v = 0; v < V; ++v) bv[v] = _mm512_loadu_ps(bk + 16 * v);
    for (int r = 0; r < R; ++r) {
      const __m512 ak = _mm512_set1_ps(a[r][k]);
      for (int v = 0; v < V; ++v) t[r][v] = _mm512_fmadd_ps(ak, bv[v], t[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) _mm512_storeu_ps(acc[r] + 16 * v, t[r][v]);
}
__attribute__((target("avx512f,fma"), flatten)) void fma_rows_hw512(const float* const* a, int rows, const float* b,
                                                                    int ld, int k0, int k1, float* const* acc, int n) {
  int r = 0;
  if (n == 16)
    for (; r + 8 <= rows; r += 8) fma_rows_avx512<1, 8>(a + r, b, ld, k0, k1, acc + r);
  if (n == 32)
    for (; r + 4 <= rows; r += 4) fma_rows_avx512<2, 4>(a + r, b, ld, k0, k1, acc + r);
  fma_rows_hw(a + r, rows - r, b, ld, k0, k1, acc + r, n);
}
FmaRows pick_fma_rows() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &fma_rows_hw512;
  return __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma") ? &fma_rows_hw : &fma_rows_generic;
}
#else
FmaRow pick_fma_row() { return &fma_row_generic; }
FmaRun pick_fma_run() { return &fma_run_generic; }
FmaRows pick_fma_rows() { return &fma_rows_generic; }
#endif

// The scheduler's pick (ScanResult, gpu_engine.hpp). Folds warps [from, n) into a partial
// result; the generic scan is this over all warps, the AVX2 scan its tail.
inline ScanResult scan_range(const std::int64_t* ready, const std::int64_t* age, const std::uint8_t* pipe, int from,
                             int n, std::int64_t c, const std::int64_t* busy_at, ScanResult acc,
                             std::int64_t best_age) {
  for (int j = from; j < n; ++j) {
    const std::int64_t r = ready[j];
    const std::int64_t b = busy_at[pipe[j]];
    const bool is_ready = r <= c;
    acc.ready_n += is_ready;
    acc.soonest_ready = !is_ready && r < acc.soonest_ready ? r : acc.soonest_ready;
    const std::int64_t key = is_ready && b < 0 ? age[j] : kNever;
    const std::int64_t when = !is_ready ? r : (b < 0 ? kNever : b);
    acc.soonest = when < acc.soonest ? when : acc.soonest;
    acc.count += key < kNever;
    acc.best = key < best_age ? j : acc.best;
    best_age = key < best_age ? key : best_age;
  }
  return acc;
}

ScanResult scan_generic(const std::int64_t* ready, const std::int64_t* age, const std::uint8_t* pipe, int n,
                        std::int64_t c, const std::int64_t* busy_at, std::int64_t soonest) {
  return scan_range(ready, age, pipe, 0, n, c, busy_at, {-1, 0, soonest, 0, kNever}, kNever);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same, four warps per step: this scan is the engine's hottest loop.
__attribute__((target("avx2"))) ScanResult scan_avx2(const std::int64_t* ready, const std::int64_t* age,
                                                     const std::uint8_t* pipe, int n, std::int64_t c,
                                                     const std::int64_t* busy_at, std::int64_t soonest) {
  using V = long long __attribute__((vector_size(32)));
  const V cv = {c, c, c, c}, never = {kNever, kNever, kNever, kNever}, zero = {0, 0, 0, 0};
  V vsoon = {soonest, soonest, soonest, soonest}, vkey = never, vidx = {-1, -1, -1, -1};
  V vcount = zero, idx = {0, 1, 2, 3}, vready_n = zero, vsoon_ready = never;
  const V four = {4, 4, 4, 4};
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    V r, a;
    std::memcpy(&r, ready + j, sizeof r);
    std::memcpy(&a, age + j, sizeof a);
    const V b = {busy_at[pipe[j]], busy_at[pipe[j + 1]], busy_at[pipe[j + 2]], busy_at[pipe[j + 3]]};
    const V not_ready = r > cv;  // -1 where true
    const V free = b < zero;
    const V cand = ~not_ready & free;
    const V key = cand ? a : never;
    const V when = not_ready ? r : (free ? never : b);
    vsoon = when < vsoon ? when : vsoon;
    vcount -= cand;
    vready_n += not_ready;  // counts down from 4 a step: corrected below
    const V waiting_at = not_ready ? r : never;
    vsoon_ready = waiting_at < vsoon_ready ? waiting_at : vsoon_ready;
    const V better = key < vkey;
    vidx = better ? idx : vidx;
    vkey = better ? key : vkey;
    idx += four;
  }
  std::int64_t best_age = kNever, soonest_ready = kNever;
  int best = -1, count = 0, ready_n = j;
  for (int l = 0; l < 4; ++l) {
    soonest = vsoon[l] < soonest ? vsoon[l] : soonest;
    soonest_ready = vsoon_ready[l] < soonest_ready ? vsoon_ready[l] : soonest_ready;
    ready_n += static_cast<int>(vready_n[l]);
    count += static_cast<int>(vcount[l]);
    const bool better = vkey[l] < best_age;
    best = better ? static_cast<int>(vidx[l]) : best;
    best_age = better ? vkey[l] : best_age;
  }
  return scan_range(ready, age, pipe, j, n, c, busy_at, {best, count, soonest, ready_n, soonest_ready}, best_age);
}
// The same when every pipe is free, as it mostly is: each ready warp is a candidate.
__attribute__((target("avx2"))) ScanResult scan_free_avx2(const std::int64_t* ready, const std::int64_t* age,
                                                          const std::uint8_t* pipe, int n, std::int64_t c,
                                                          const std::int64_t* busy_at, std::int64_t soonest) {
  using V = long long __attribute__((vector_size(32)));
  const V cv = {c, c, c, c}, never = {kNever, kNever, kNever, kNever}, zero = {0, 0, 0, 0};
  V vsoon = never, vkey = never, vidx = {-1, -1, -1, -1};
  V vwaiting = zero, idx = {0, 1, 2, 3};
  const V four = {4, 4, 4, 4};
  int j = 0;
  for (; j + 4 <= n; j += 4) {
    V r, a;
    std::memcpy(&r, ready + j, sizeof r);
    std::memcpy(&a, age + j, sizeof a);
    const V not_ready = r > cv;  // -1 where true
    const V key = not_ready ? never : a;
    const V when = not_ready ? r : never;
    vsoon = when < vsoon ? when : vsoon;
    vwaiting -= not_ready;
    const V better = key < vkey;
    vidx = better ? idx : vidx;
    vkey = better ? key : vkey;
    idx += four;
  }
  std::int64_t best_age = kNever, soonest_ready = kNever;
  int best = -1, waiting = 0;
  for (int l = 0; l < 4; ++l) {
    soonest_ready = vsoon[l] < soonest_ready ? vsoon[l] : soonest_ready;
    waiting += static_cast<int>(vwaiting[l]);
    const bool better = vkey[l] < best_age;
    best = better ? static_cast<int>(vidx[l]) : best;
    best_age = better ? vkey[l] : best_age;
  }
  soonest = soonest_ready < soonest ? soonest_ready : soonest;
  const int ready_n = j - waiting;
  return scan_range(ready, age, pipe, j, n, c, busy_at, {best, ready_n, soonest, ready_n, soonest_ready}, best_age);
}

Scan pick_scan() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? &scan_avx2 : &scan_generic;
}
Scan pick_scan_free() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? &scan_free_avx2 : &scan_generic;
}
#else
Scan pick_scan() { return &scan_generic; }
Scan pick_scan_free() { return &scan_generic; }
#endif

}  // namespace

// Chosen once, called through a pointer (an ifunc'd clone would go through the PLT on every call,
// which showed in profiles).
const FmaRow fma_row = pick_fma_row();
const FmaRun fma_run = pick_fma_run();
const FmaRows fma_rows = pick_fma_rows();
const Scan scan = pick_scan();
const Scan scan_free = pick_scan_free();

void b_panels(const GpuSetup& s, int width, std::vector<float>& keep) {
  const std::size_t K = static_cast<std::size_t>(s.k), panel = K * static_cast<std::size_t>(width);
  const int panels = (s.n + width - 1) / width;
  keep.assign(panels * panel + K, 0.0f);
  // Row by row: B's rows are long, a panel's are short.
  for (std::size_t k = 0; k < K; ++k)
    for (int p = 0; p < panels; ++p) {
      const int cols = std::min(width, s.n - p * width);
      std::copy_n(s.b + k * s.n + static_cast<std::size_t>(p) * width, cols, &keep[p * panel + k * width]);
    }
}

void rebuild_rows(RebuildRow* rows, int count, const float* b, int ld, int n) {
  std::sort(rows, rows + count, [](const RebuildRow& x, const RebuildRow& y) { return x.k > y.k; });
  const float* a[64];
  float* out[64];
  for (int r = 0; r < count; ++r) a[r] = rows[r].a, out[r] = rows[r].out;
  for (int k0 = 0, active = count; active > 0;) {
    const int k1 = rows[active - 1].k;
    fma_rows(a, active, b, ld, k0, k1, out, n);
    k0 = k1;
    while (active > 0 && rows[active - 1].k == k1) --active;
  }
}

int wavefronts(const std::vector<int>& words) {
  std::vector<int> uniq = words;
  std::sort(uniq.begin(), uniq.end());
  uniq.erase(std::unique(uniq.begin(), uniq.end()), uniq.end());
  int per_bank[32] = {};
  int worst = 0;
  for (int w : uniq) worst = std::max(worst, ++per_bank[w % 32]);
  return std::max({1, worst, static_cast<int>((uniq.size() + 31) / 32)});
}

std::uint32_t one_cell_mask(const GpuSetup& s, const Warp& w) {
  std::uint32_t mask = 0;
  for (const Segment& g : s.segs[w.wib]) {
    if (w.by * s.bdim + g.ty >= s.m) continue;
    for (int tx = g.tx0; tx < g.tx1; ++tx)
      if (w.bx * s.bdim + tx < s.n) mask |= 1u << (g.lane0 + tx - g.tx0);
  }
  return mask;
}

void one_cell_sectors(const GpuSetup& s, const Warp& w, SectorList& out) {
  for (const Segment& g : s.segs[w.wib]) {
    const std::uint64_t row = static_cast<std::uint64_t>(w.by) * s.bdim + g.ty;
    const int c0 = w.bx * s.bdim + g.tx0, c1 = std::min(w.bx * s.bdim + g.tx1, s.n);
    if (row >= static_cast<std::uint64_t>(s.m) || c0 >= c1) continue;
    out.add(s.base_c + (row * s.n + c0) * 4, s.base_c + (row * s.n + c1) * 4);
  }
}

std::string tensor_refusal(const GpuPreset& gpu) {
  if (gpu.tensor.cores_per_sm > 0 && gpu.tensor.bf16.supported() && gpu.tensor.clock_mhz > 0) return "";
  std::string with;
  for (const GpuPreset& p : gpu_presets())
    if (p.tensor.cores_per_sm > 0 && p.tensor.bf16.supported()) with += with.empty() ? p.id : ", " + p.id;
  const std::string lacks = gpu.tensor.cores_per_sm > 0 ? " has tensor cores without BF16 (FP16 only)"
                                                        : " has no tensor cores";
  return "the tensor model multiplies BF16 on tensor cores, and " + gpu.name + lacks + "; presets that have them: " +
         with;
}

GpuSetup make_setup(const GpuPreset& g, const SimConfig& cfg, const float* a, const float* b) {
  GpuSetup s;
  s.gpu = &g;
  s.kernel = cfg.kernel;
  s.m = cfg.shape.m;
  s.n = cfg.shape.n;
  s.k = cfg.shape.k;
  s.bdim = cfg.block;
  s.threads = s.bdim * s.bdim;
  s.wpb = (s.threads + 31) / 32;
  const KernelOps& program = kernel_ops(cfg.kernel);
  s.cell_side = program.cell_side;
  s.tile = s.bdim * s.cell_side;
  s.acc_per_warp = 32 * s.cell_side * s.cell_side;
  s.grid_x = (s.n + s.tile - 1) / s.tile;
  s.grid_y = (s.m + s.tile - 1) / s.tile;
  s.total_blocks = static_cast<std::int64_t>(s.grid_x) * s.grid_y;

  const CcLimits lim = cc_limits(g.cc_major, g.cc_minor);
  s.smem_floats = program.smem_floats(s);
  const int smem = 4 * s.smem_floats;
  const int regs = cfg.regs_per_thread > 0 ? cfg.regs_per_thread : std::min(program.regs, lim.max_regs_per_thread);
  s.occupancy = compute_occupancy(lim, {s.threads, regs, smem});
  if (s.occupancy.active_blocks_per_sm == 0)
    throw SimRefused("the launch cannot run on " + g.name + ": " + s.occupancy.reason);
  s.blocks_per_sm = s.occupancy.active_blocks_per_sm;
  s.slots = s.blocks_per_sm * s.wpb;
  s.nsched = g.schedulers_per_sm;
  s.per_sched = (s.slots + s.nsched - 1) / s.nsched;

  // A scheduler feeds lanes_per_sm / schedulers FP32 lanes; a warp FFMA holds them 32/lanes cycles.
  // Kepler's 48 lanes per scheduler are only reachable by dual issue.
  const double lanes = static_cast<double>(g.fp32_lanes_per_sm) / s.nsched;
  s.fp_cost = 32.0 / lanes;
  s.issue_width = lanes > 32 ? 2 : 1;
  s.alu_on_fp_pipe = g.cc_major < 7;               // Volta split INT32 into its own pipe
  s.alu_cost = s.alu_on_fp_pipe ? s.fp_cost : 2.0;  // 16 INT32 lanes per partition
  s.lsu_cost = g.lsu_cycles_per_wavefront;
  s.smem_cost = g.smem_cycles_per_wavefront;
  s.l2_bytes_per_cycle = g.l2_kb > 0 ? g.l2_bandwidth_gbs * 1e3 / g.clock_mhz : 0;
  s.dram_bytes_per_cycle = g.dram_bytes_per_cycle();
  s.lat = g.latency;
  if (program.tensor) {
    if (const std::string why = tensor_refusal(g); !why.empty()) throw SimRefused(why);
    // One m16n8k16 MMA is 2*16*8*16 FLOP on the scheduler's share of the SM's tensor cores, at
    // the rate the datasheet quotes at its tensor clock: converted to SM cycles, so that the
    // model's peak is the datasheet's however the two clocks differ.
    const TensorCores& tc = g.tensor;
    const double flops_per_cycle = static_cast<double>(tc.bf16.flops_per_clock_per_core) * tc.cores_per_sm / s.nsched;
    s.mma_cost = 2.0 * 16 * 8 * kMmaK / flops_per_cycle * g.clock_mhz / tc.clock_mhz;
    s.mma_latency = kMmaLatency;
  }

  if (g.l1_kb > 0) {
    std::uint64_t l1 = static_cast<std::uint64_t>(g.l1_kb) * 1024;
    if (g.l1_shares_smem) {
      // Volta+: shared memory takes the smallest carveout that holds the resident blocks' tiles.
      const int used = s.blocks_per_sm * (smem > 0 ? s.occupancy.allocated_smem_per_block : 0);
      int carve = used;
      for (int kb : lim.carveout_steps_kb)
        if (used <= kb * 1024) {
          carve = kb * 1024;
          break;
        }
      l1 = l1 > static_cast<std::uint64_t>(carve) ? l1 - carve : 0;
    }
    s.l1_bytes = l1;
  }

  s.ntiles = (s.k + s.bdim - 1) / s.bdim;
  s.a = a;
  s.b = b;
  s.base_a = 0;
  s.base_b = align256(4ull * s.m * s.k);
  s.base_c = s.base_b + align256(4ull * s.k * s.n);
  s.footprint = s.base_c + 4ull * s.m * s.n;

  s.segs.resize(s.wpb);
  for (int w = 0; w < s.wpb; ++w) {
    for (int lane = 0; lane < 32; ++lane) {
      const int t = w * 32 + lane;
      if (t >= s.threads) break;
      const int ty = t / s.bdim, tx = t % s.bdim;
      auto& segs = s.segs[w];
      if (segs.empty() || segs.back().ty != ty)
        segs.push_back({static_cast<std::int16_t>(ty), static_cast<std::int16_t>(tx), static_cast<std::int16_t>(tx + 1),
                        static_cast<std::int16_t>(lane)});
      else
        segs.back().tx1 = static_cast<std::int16_t>(tx + 1);
    }
  }
  program.prepare(s);
  return s;
}

GpuModel::GpuModel(GpuSetup setup, GpuOutputs* out)
    : s_(std::move(setup)), out_(out), ops_(&kernel_ops(s_.kernel)) {
  // SMs meet only in the L2/DRAM queues and the block queue. A load that leaves the SM completes
  // no sooner than an L2 hit's (or, without L2, DRAM's) latency after it issues, and a placed
  // block's warps issue no sooner than block_launch after it was placed. So each SM can run alone
  // ahead of the slowest one by up to that load latency (and past its own finished block by up
  // to block_launch) while its requests are logged, then replayed in the lockstep order (see
  // run_to). The bounds need every queue stage to take time forward and block_launch >= 1;
  // otherwise requests are settled at once, one cycle at a time, SM after SM.
  step_sm_ = s_.nsched == 4 && s_.issue_width == 1 ? ops_->step_sm_4x1 : ops_->step_sm;
  const bool has_l2 = s_.gpu->l2_kb > 0;
  const bool forward = s_.lsu_cost >= 0 && s_.dram_bytes_per_cycle > 0 && (!has_l2 || s_.l2_bytes_per_cycle > 0);
  reach_ = std::max<std::int64_t>(1, has_l2 ? std::min(s_.lat.l2_hit, s_.lat.dram) : s_.lat.dram);
  immediate_ = !forward || s_.lat.block_launch < 1;
  const int sms = s_.gpu->sm_count;
  t_.assign(sms, 0);
  scratch_.resize(sms);
  logs_.resize(sms);
  pools_.resize(sms);
  first_done_.assign(sms, kNever);
  pend_n_.assign(static_cast<std::size_t>(sms) * s_.slots * kLoadSlots, 0);
  fma_from_.assign(static_cast<std::size_t>(sms) * s_.slots, 0);
  slot_j_.resize(s_.slots);
  for (int slot = 0; slot < s_.slots; ++slot) slot_j_[slot] = slot / s_.nsched;
  if (out_ != nullptr) {
    const std::size_t cells = static_cast<std::size_t>(s_.m) * s_.n;
    out_->finish.assign(cells, kNever);
    out_->owner.assign(cells, -1);
    out_->value.assign(cells, 0.0f);
  }
  reset();
}

void GpuModel::reset() {
  const int sms = s_.gpu->sm_count;
  st_ = GpuState{};
  st_.warps.assign(static_cast<std::size_t>(sms) * s_.slots, Warp{});
  st_.acc.assign(static_cast<std::size_t>(sms) * s_.slots * s_.acc_per_warp, 0.0f);
  st_.blocks.assign(static_cast<std::size_t>(sms) * s_.blocks_per_sm, BlockSlot{});
  if (s_.smem_floats > 0)
    st_.smem.assign(static_cast<std::size_t>(sms) * s_.blocks_per_sm * s_.smem_floats, 0.0f);
  st_.sched.assign(static_cast<std::size_t>(sms) * s_.nsched, Scheduler{});
  st_.ready.assign(static_cast<std::size_t>(sms) * s_.nsched * s_.per_sched, kNever);
  st_.ready_age.assign(st_.ready.size(), kNever);
  st_.ready_pipe.assign(st_.ready.size(), 0);
  st_.sms.assign(sms, SmState{});
  st_.l1.assign(sms, SectorCache(s_.l1_bytes, 128, 32, 4, s_.footprint));
  st_.l2 = SectorCache(static_cast<std::uint64_t>(s_.gpu->l2_kb) * 1024, 128, 32, 16, s_.footprint);
  st_.next_event = kNever;
  for (auto& l : logs_) l.clear();
  for (auto& p : pools_) p.clear();
  std::fill(first_done_.begin(), first_done_.end(), kNever);
  std::fill(pend_n_.begin(), pend_n_.end(), 0);
  for (auto& x : scratch_) x = SmScratch{};
  // Blocks go out breadth-first: one per SM before any SM gets a second.
  for (int r = 0; r < s_.blocks_per_sm; ++r)
    for (int sm = 0; sm < sms && st_.next_block < s_.total_blocks; ++sm) place_block(sm, r, st_.next_block++, 0);
  std::fill(fma_from_.begin(), fma_from_.end(), 0);
  partial_ = false;
  if (immediate_) {
    run_cycle(0);
  } else {
    std::fill(t_.begin(), t_.end(), -1);
    run_to(0);
  }
}

void GpuModel::account(int sm, std::int64_t c, int delta) {
  SmState& x = st_.sms[sm];
  const double dt = static_cast<double>(c - x.last_change);
  x.warp_cycles += x.resident_warps * dt;
  if (x.resident_warps > 0) x.busy_cycles += dt;
  x.last_change = c;
  x.resident_warps += delta;
}

void GpuModel::place_block(int sm, int bslot, std::int64_t block, std::int64_t c) {
  BlockSlot& bs = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
  bs.block = static_cast<std::int32_t>(block);
  bs.arrived = 0;
  bs.warps_left = static_cast<std::int16_t>(s_.wpb);
  const int bx = static_cast<int>(block % s_.grid_x), by = static_cast<int>(block / s_.grid_x);
  if (!st_.smem.empty())
    std::fill_n(st_.smem.begin() + (static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot) * s_.smem_floats,
                s_.smem_floats, 0.0f);
  account(sm, c, s_.wpb);
  for (int w = 0; w < s_.wpb; ++w) {
    const int slot = bslot * s_.wpb + w;
    const std::size_t idx = static_cast<std::size_t>(sm) * s_.slots + slot;
    Warp& x = st_.warps[idx];
    x = Warp{};
    x.block = bs.block;
    x.wib = static_cast<std::int16_t>(w);
    x.ever = true;
    x.age = block * s_.wpb + w;
    x.hot = (sm * s_.nsched + slot % s_.nsched) * s_.per_sched + slot / s_.nsched;
    x.bx = bx;
    x.by = by;
    x.bslot = static_cast<std::int16_t>(bslot);
    x.sched = sm * s_.nsched + slot % s_.nsched;
    st_.ready[x.hot] = kNever;
    st_.ready_age[x.hot] = x.age;
    std::fill_n(st_.acc.begin() + idx * s_.acc_per_warp, s_.acc_per_warp, 0.0f);
    // The program sets the counter and the lanes with a C cell; a warp with nothing to do is done.
    if (!ops_->start(s_, x)) {
      x.done = true;
      x.ready_at = kNever;
      --bs.warps_left;
      continue;
    }
    ops_->set_next(*this, sm, x, c + s_.lat.block_launch - 1);
    x.reason = WaitReason::launch;
    x.wait_since = c;
    wake(x);
  }
}

void GpuModel::next_event_from_schedulers() {
  // What the lockstep loop leaves in next_event: every scheduler's next visit, wakes included.
  std::int64_t next = kNever;
  for (const Scheduler& q : st_.sched) next = std::min(next, q.next_check);
  st_.next_event = next;
}

// The lockstep loop's cycle c, requests settled as they are made.
void GpuModel::run_cycle(std::int64_t c) {
  const int sms = s_.gpu->sm_count;
  for (int sm = 0; sm < sms; ++sm) {
    scratch_[sm].limit = c;
    step_sm_(*this, sm, c);
  }
  fold_counters();
  st_.now = c;
  next_event_from_schedulers();
}

void GpuModel::advance_to(std::int64_t target, bool whole) {
  if (st_.now >= target) {
    if (whole) make_whole();
    return;
  }
  // Between whole calls the state is whole (it may just have been restored from a copy): every
  // FFMA issued is in the sums, and every SM stands at now. After a partial call fma_from_
  // already counts what is in the sums.
  if (!partial_) ffmas_applied();
  if (immediate_) {
    while (st_.now < target) {
      const std::int64_t nx = std::max(st_.now + 1, st_.next_event);
      if (nx > target) {
        st_.now = target;
        break;
      }
      run_cycle(nx);
    }
  } else {
    std::fill(t_.begin(), t_.end(), st_.now);
    run_to(target);
  }
  partial_ = true;
  if (whole) make_whole();
}

void GpuModel::make_whole() {
  if (!partial_) return;
  apply_all_ffmas();
  partial_ = false;
}

void GpuModel::ffmas_applied() {
  if (ops_->fmas_batched == nullptr) return;
  for (std::size_t i = 0; i < st_.warps.size(); ++i)
    fma_from_[i] = static_cast<std::uint16_t>(ops_->fmas_batched(st_.warps[i]));
}

// fn(sm) for every SM on the pool's threads, in runs of neighbouring SMs: SMs' records share
// cache lines at their edges (schedulers, caches' clocks, logs' sizes), and two threads writing
// them one SM apart took every such line back and forth (on a 2-vCPU Xeon, two threads ran
// slower than one). Several runs per thread still let a thread the OS delays hold up the round
// by one run only.
template <class Fn>
void GpuModel::for_each_sm_run(Fn&& fn) {
  const int sms = s_.gpu->sm_count;
  const int runs = std::min(sms, 4 * pool_->threads());
  pool_->for_each(runs, [&](int r) {
    for (int sm = sms * r / runs; sm < sms * (r + 1) / runs; ++sm) fn(sm);
  });
}

void GpuModel::set_threads(int threads) {
  threads = std::clamp(threads, 1, std::max(1, s_.gpu->sm_count));
  if (pool_ ? pool_->threads() == threads : threads == 1) return;
  pool_ = threads > 1 ? std::make_unique<WorkerPool>(threads) : nullptr;
}

// Every warp's batched FFMAs issued so far into its sums.
void GpuModel::apply_all_ffmas() {
  if (ops_->fmas_batched == nullptr) return;
  const int sms = s_.gpu->sm_count;
  auto one = [&](int sm) {
    for (int slot = 0; slot < s_.slots; ++slot) {
      const Warp& w = st_.warps[static_cast<std::size_t>(sm) * s_.slots + slot];
      if (w.block >= 0 && !w.done) ops_->apply_ffmas(*this, sm, slot, w, ops_->fmas_batched(w));
    }
  };
  if (!pool_) {
    for (int sm = 0; sm < sms; ++sm) one(sm);
    return;
  }
  for_each_sm_run(one);
}

// Rounds: h is the cycle every SM has reached. Each SM runs on to h + reach_ (no load issued
// after h can complete before then), and never past block_launch - 1 cycles after a block of its
// own finished unsettled (the block that replaces it is not known yet). Then every request made
// up to the new h is final, and is settled in lockstep order. Everything an SM cannot see before
// it is settled (load results, the placed block) lies after where the SM stands, so the
// state at `target`, where all SMs end, is the lockstep state.
void GpuModel::run_to(std::int64_t target) {
  for (;;) {
    std::int64_t h = *std::min_element(t_.begin(), t_.end());
    if (h >= target) break;
    if (!any_logged() && !any_hidden()) {
      // Nothing in flight between SMs: skip the stretch in which no scheduler is due.
      std::int64_t next = kNever;
      for (const Scheduler& q : st_.sched) next = std::min(next, q.next_check);
      const std::int64_t idle_to = std::min(target, next - 1);
      if (idle_to > h) {
        for (auto& t : t_) t = std::max(t, idle_to);
        h = *std::min_element(t_.begin(), t_.end());
        if (h >= target) break;
      }
    }
    step_sms(h, target);
    settle_upto(*std::min_element(t_.begin(), t_.end()));
  }
  fold_counters();
  st_.now = target;
  next_event_from_schedulers();
}

// Every SM on to h + reach_ (and no further than block_launch - 1 cycles past a block of its
// own that finished unsettled), on the pool's threads: an SM stepping writes only its own
// records, its log and its scratch, and reads nothing another SM writes until the round is over.
void GpuModel::step_sms(std::int64_t h, std::int64_t target) {
  const int sms = s_.gpu->sm_count;
  auto one = [&](int sm) {
    std::int64_t limit = std::min(target, h + reach_);
    if (first_done_[sm] != kNever) limit = std::min(limit, first_done_[sm] + s_.lat.block_launch - 1);
    if (limit <= t_[sm]) return;
    scratch_[sm].limit = limit;
    step_sm_(*this, sm, t_[sm] + 1);
    t_[sm] = scratch_[sm].limit;
  };
  if (!pool_) {
    for (int sm = 0; sm < sms; ++sm) one(sm);
    return;
  }
  for_each_sm_run(one);
}


void GpuModel::fold_counters() {
  for (auto& x : scratch_) {
    st_.instructions += x.instructions;
    st_.l1_hits += x.l1_hits;
    st_.l1_misses += x.l1_misses;
    st_.c_done += x.c_done;
    for (int op = 0; op < kOpCount; ++op) st_.by_op[op] += x.by_op[op];
    x.by_op.fill(0);
    x.instructions = x.l1_hits = x.l1_misses = 0;
    x.c_done = 0;
  }
}

bool GpuModel::any_logged() const {
  return std::any_of(logs_.begin(), logs_.end(), [](const auto& l) { return !l.empty(); });
}

bool GpuModel::any_hidden() const {
  return std::any_of(scratch_.begin(), scratch_.end(), [](const SmScratch& x) { return !x.hidden.empty(); });
}

void GpuModel::defer(const Deferred& d) {
  if (immediate_) {
    settle(d);
    pools_[d.sm].clear();
    return;
  }
  if (d.kind == Deferred::load) {
    st_.warps[d.warp].pend |= static_cast<std::uint8_t>(1u << d.dep);
    ++pend_n_[static_cast<std::size_t>(d.warp) * kLoadSlots + d.dep];
  } else if (d.kind == Deferred::block_done) {
    first_done_[d.sm] = std::min(first_done_[d.sm], d.c);
    scratch_[d.sm].limit = std::min(scratch_[d.sm].limit, d.c + s_.lat.block_launch - 1);
  }
  logs_[d.sm].push_back(d);
}

// Every request made up to cycle h, in the lockstep order: cycle, then SM, then issue order
// within the SM (each SM's log is in issue order).
void GpuModel::settle_upto(std::int64_t h) {
  const int sms = s_.gpu->sm_count;
  order_.clear();
  std::int64_t lo = kNever;
  for (int sm = 0; sm < sms; ++sm) {
    const auto& l = logs_[sm];
    for (std::size_t i = 0; i < l.size() && l[i].c <= h; ++i) {
      order_.push_back({sm, static_cast<std::int32_t>(i)});
      lo = std::min(lo, l[i].c);
    }
  }
  if (!order_.empty()) {
    // order_ is SM-major; a stable sort by cycle gives (cycle, SM, issue order).
    const auto span = static_cast<std::size_t>(h - lo) + 2;
    if (span <= 1u << 16) {
      count_.assign(span, 0);
      for (const auto& r : order_) ++count_[static_cast<std::size_t>(logs_[r.sm][r.i].c - lo) + 1];
      for (std::size_t i = 1; i < span; ++i) count_[i] += count_[i - 1];
      sorted_.resize(order_.size());
      for (const auto& r : order_) sorted_[count_[static_cast<std::size_t>(logs_[r.sm][r.i].c - lo)]++] = r;
    } else {
      sorted_ = order_;
      std::stable_sort(sorted_.begin(), sorted_.end(),
                       [&](const Ref& x, const Ref& y) { return logs_[x.sm][x.i].c < logs_[y.sm][y.i].c; });
    }
    for (const auto& r : sorted_) {
      const Deferred& d = logs_[r.sm][r.i];
      settle(d);
      if (d.kind == Deferred::load || d.kind == Deferred::write) {
        if (--pend_n_[static_cast<std::size_t>(d.warp) * kLoadSlots + d.dep] == 0)
          st_.warps[d.warp].pend &= static_cast<std::uint8_t>(~(1u << d.dep));
      }
    }
    // Drop what was settled; the sectors of what is left move to the front of the pool.
    for (int sm = 0; sm < sms; ++sm) {
      auto& l = logs_[sm];
      std::size_t k = 0;
      while (k < l.size() && l[k].c <= h) ++k;
      if (k == 0) continue;
      auto& pool = pools_[sm];
      std::size_t drop = pool.size();
      for (std::size_t i = k; i < l.size(); ++i)
        if (l[i].kind == Deferred::load || l[i].kind == Deferred::store) {
          drop = l[i].sec0;
          break;
        }
      l.erase(l.begin(), l.begin() + static_cast<std::ptrdiff_t>(k));
      pool.erase(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(drop));
      first_done_[sm] = kNever;
      for (auto& d : l) {
        if (d.kind == Deferred::load || d.kind == Deferred::store) d.sec0 -= static_cast<std::uint32_t>(drop);
        if (d.kind == Deferred::block_done) first_done_[sm] = std::min(first_done_[sm], d.c);
      }
    }
  }
  // Warps whose loads are all known now get the wait they were hidden behind, as the lockstep
  // loop set it. Each such wait ends after where its SM stands, where min() puts it into
  // next_check just as the lockstep loop's visits would have.
  // The order does not matter: each retry touches only its warp and a min() into next_check.
  for (int sm = 0; sm < sms; ++sm) {
    auto& hidden = scratch_[sm].hidden;
    if (hidden.empty()) continue;
    retry_.swap(hidden);
    for (std::int32_t i : retry_) {
      Warp& w = st_.warps[static_cast<std::size_t>(i)];
      ops_->set_next(*this, sm, w, w.wait_since);  // hides it again while a load it reads is still logged
      if (w.ready_at != kNever) wake(w);
    }
    retry_.clear();
  }
}

void GpuModel::settle(const Deferred& d) {
  switch (d.kind) {
    case Deferred::load: {
      int l2_hits = 0, dram = 0;
      const bool has_l2 = st_.l2.enabled();
      for (std::uint32_t i = 0; i < d.nsec; ++i) {
        if (has_l2 && st_.l2.access(pools_[d.sm][d.sec0 + i] << 5)) ++l2_hits;
        else ++dram;
      }
      if (has_l2) {
        st_.l2_hits += l2_hits;
        st_.l2_misses += dram;
      }
      double done = d.done;
      double t2 = d.t1;
      const int to_l2 = has_l2 ? l2_hits + dram : 0;
      if (to_l2 > 0) {
        t2 = std::max(st_.l2_free, d.t1) + to_l2 * 32.0 / s_.l2_bytes_per_cycle;
        st_.l2_free = t2;
        if (l2_hits > 0) done = std::max(done, t2 + s_.lat.l2_hit);
      }
      if (dram > 0) {
        const double t3 = std::max(st_.dram_free, t2) + dram * 32.0 / s_.dram_bytes_per_cycle;
        st_.dram_free = t3;
        st_.dram_bytes += 32ull * dram;
        done = std::max(done, t3 + s_.lat.dram);
      }
      const std::int64_t t = std::max(d.c + 1, ceil_cycle(done));
      Warp& w = st_.warps[static_cast<std::size_t>(d.warp)];
      std::int64_t& x = w.dep[d.dep];
      x = d.is_max ? std::max(x, t) : t;
      break;
    }
    case Deferred::write: {
      Warp& w = st_.warps[static_cast<std::size_t>(d.warp)];
      std::int64_t& x = w.dep[d.dep];
      x = d.is_max ? std::max(x, d.value) : d.value;
      break;
    }
    case Deferred::store: {
      double t2 = d.t1;
      if (st_.l2.enabled()) {
        for (std::uint32_t i = 0; i < d.nsec; ++i) st_.l2.access(pools_[d.sm][d.sec0 + i] << 5);
        t2 = std::max(st_.l2_free, d.t1) + d.nsec * 32.0 / s_.l2_bytes_per_cycle;
        st_.l2_free = t2;
      }
      st_.dram_free = std::max(st_.dram_free, t2) + d.nsec * 32.0 / s_.dram_bytes_per_cycle;
      st_.dram_bytes += 32ull * d.nsec;
      break;
    }
    case Deferred::block_done: complete_block(d.sm, d.warp, d.c); break;
  }
}

// A global load of these sectors into scoreboard slot dep of the warp.
void GpuModel::global_load(int sm, Warp& w, std::int64_t c, int dep, bool is_max, SectorList& sl) {
  std::uint64_t* sectors = sl.s;
  int ns = sl.n;
  if (ns == 0) {  // every lane out of range: nothing leaves the SM
    write_dep(w, dep, c + 1, is_max, sm, c);
    return;
  }
  // Segments go up the block's rows, so the sectors usually come sorted already.
  if (!std::is_sorted(sectors, sectors + ns)) std::sort(sectors, sectors + ns);
  ns = static_cast<int>(std::unique(sectors, sectors + ns) - sectors);
  int lines = 1;
  for (int i = 1; i < ns; ++i) lines += (sectors[i] >> 2) != (sectors[i - 1] >> 2);

  // L1 is the SM's own; what misses it goes on to the shared L2 and DRAM queues (settle()).
  int l1_hits = 0;
  SectorCache& l1 = st_.l1[sm];
  const bool has_l1 = l1.enabled();
  auto& pool = pools_[sm];
  const auto sec0 = static_cast<std::uint32_t>(pool.size());
  for (int i = 0; i < ns; ++i) {
    if (has_l1 && l1.access(sectors[i] << 5)) ++l1_hits;
    else pool.push_back(sectors[i]);
  }
  if (has_l1) {
    scratch_[sm].l1_hits += l1_hits;
    scratch_[sm].l1_misses += ns - l1_hits;
  }

  // Each stage is a queue: the L1 tag stage per SM (one 128-byte line per wavefront), the L2
  // and the DRAM shared by all SMs at their bytes per cycle. A load completes when its slowest
  // sector has crossed every stage it needs plus that level's unloaded latency.
  SmState& x = st_.sms[sm];
  const double t1 = std::max(x.lsu_free, static_cast<double>(c)) + lines * s_.lsu_cost;
  x.lsu_free = t1;
  const double done = l1_hits > 0 ? t1 + s_.lat.l1_hit : 0;
  if (l1_hits == ns) {
    pool.resize(sec0);
    write_dep(w, dep, std::max(c + 1, ceil_cycle(done)), is_max, sm, c);
    return;
  }
  Deferred d;
  d.c = c;
  d.sm = sm;
  d.kind = Deferred::load;
  d.dep = static_cast<std::uint8_t>(dep);
  d.is_max = is_max;
  d.warp = static_cast<std::int32_t>(&w - st_.warps.data());
  d.sec0 = sec0;
  d.nsec = static_cast<std::uint32_t>(ns - l1_hits);
  d.t1 = t1;
  d.done = done;
  defer(d);
}

// A global store of these sectors.
void GpuModel::global_store(int sm, std::int64_t c, SectorList& sl) {
  std::uint64_t* sectors = sl.s;
  int ns = sl.n;
  if (ns == 0) return;
  // Segments go up the block's rows, so the sectors usually come sorted already.
  if (!std::is_sorted(sectors, sectors + ns)) std::sort(sectors, sectors + ns);
  ns = static_cast<int>(std::unique(sectors, sectors + ns) - sectors);
  int lines = 1;
  for (int i = 1; i < ns; ++i) lines += (sectors[i] >> 2) != (sectors[i - 1] >> 2);
  // Stores do not stall the warp; they take L1, L2 and DRAM bandwidth (written back once).
  SmState& x = st_.sms[sm];
  const double t1 = std::max(x.lsu_free, static_cast<double>(c)) + lines * s_.lsu_cost;
  x.lsu_free = t1;
  Deferred d;
  d.c = c;
  d.sm = sm;
  d.kind = Deferred::store;
  d.sec0 = static_cast<std::uint32_t>(pools_[sm].size());
  d.nsec = static_cast<std::uint32_t>(ns);
  d.t1 = t1;
  pools_[sm].insert(pools_[sm].end(), sectors, sectors + ns);
  defer(d);
}

void GpuModel::finish_warp(int sm, Warp& w, std::int64_t c) {
  w.done = true;
  w.ready_at = kNever;
  st_.ready[w.hot] = kNever;
  w.reason = WaitReason::none;
  w.op = Op::none;
  const int bslot = w.bslot;
  BlockSlot& bs = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
  if (--bs.warps_left > 0) return;
  Deferred d;
  d.c = c;
  d.sm = sm;
  d.kind = Deferred::block_done;
  d.warp = bslot;
  defer(d);
}

// The block queue is shared: what a finished block slot gets next depends on every SM's order.
void GpuModel::complete_block(int sm, int bslot, std::int64_t c) {
  BlockSlot& bs = st_.blocks[static_cast<std::size_t>(sm) * s_.blocks_per_sm + bslot];
  ++st_.blocks_done;
  for (int i = 0; i < s_.wpb; ++i) st_.warps[static_cast<std::size_t>(sm) * s_.slots + bslot * s_.wpb + i].block = -1;
  bs.block = -1;
  account(sm, c, -s_.wpb);
  if (st_.next_block < s_.total_blocks) {
    place_block(sm, bslot, st_.next_block++, c);
  } else if (st_.blocks_done == s_.total_blocks) {
    st_.finished = true;
    // The kernel ends when the last stores have drained to memory.
    st_.finish_cycle = std::max({c + 1, ceil_cycle(st_.dram_free), ceil_cycle(st_.l2_free)});
    for (int s = 0; s < s_.gpu->sm_count; ++s) account(s, c, 0);
  }
}

WarpState GpuModel::warp_state(int sm, int slot) const {
  const Warp& w = st_.warps[static_cast<std::size_t>(sm) * s_.slots + slot];
  if (w.block < 0) return w.ever && st_.next_block >= s_.total_blocks ? WarpState::done : WarpState::not_resident;
  if (w.done) return WarpState::done;
  if (w.last_issue == st_.now) return WarpState::issuing;
  if (w.ready_at <= st_.now) return WarpState::eligible;
  switch (w.reason) {
    case WaitReason::launch: return WarpState::not_resident;
    case WaitReason::global_memory:
    case WaitReason::shared_memory: return WarpState::waiting_memory;
    case WaitReason::barrier: return WarpState::waiting_barrier;
    case WaitReason::tensor_core: return WarpState::on_tensor_core;
    default: return WarpState::waiting_dependency;
  }
}

void GpuModel::lane_coords(const Warp& w, int lane, int& bx, int& by, int& tx, int& ty) const {
  const int t = w.wib * 32 + lane;
  bx = w.block % s_.grid_x;
  by = w.block / s_.grid_x;
  tx = t % s_.bdim;
  ty = t / s_.bdim;
}

void GpuModel::hash_into(Hasher& h) const {
  h.add(st_.now);
  h.add(st_.next_event);
  h.add(st_.next_block);
  h.add(st_.blocks_done);
  h.add(st_.finished);
  h.add(st_.l2_free);
  h.add(st_.dram_free);
  h.add(st_.dram_bytes);
  h.add(st_.instructions);
  h.add(st_.c_done);
  for (const Warp& w : st_.warps) {
    // The scoreboard in its historical order: accumulators, slots kUnroll and kUnroll + 1, 0..3.
    h.add(w.ready_at); h.add(w.last_issue); h.add(w.wait_since); h.add(w.dep[kAccSlot]);
    h.add(w.dep[kUnroll]); h.add(w.dep[kUnroll + 1]);
    for (int d = 0; d < kUnroll; ++d) h.add(w.dep[d]);
    h.add(w.issued); h.add(w.block); h.add(w.iter); h.add(w.k_done); h.add(w.mask);
    h.add(w.kk); h.add(w.phase); h.add(w.sub); h.add(w.op); h.add(w.reason); h.add(w.done);
  }
  for (float v : st_.acc) h.add(v);
  for (float v : st_.smem) h.add(v);
  for (const BlockSlot& b : st_.blocks) { h.add(b.block); h.add(b.warps_left); h.add(b.arrived); }
  for (auto r : st_.ready) h.add(r);
  for (auto p : st_.ready_pipe) h.add(p);
  for (const Scheduler& q : st_.sched) {
    h.add(q.next_check); h.add(q.greedy); h.add(q.fp_free); h.add(q.alu_free);
    if (s_.mma_cost > 0) h.add(q.tc_free);  // so the digests of launches without MMAs stay as they were
  }
  for (const SmState& x : st_.sms) { h.add(x.lsu_free); h.add(x.smem_free); h.add(x.resident_warps); h.add(x.warp_cycles); }
  for (const auto& l1 : st_.l1) l1.hash_into(h);
  st_.l2.hash_into(h);
}

}  // namespace ws::sim::detail
