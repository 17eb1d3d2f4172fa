// The GPU engine's exact behaviour, pinned: state digests at several cycles, the totals and the
// finished C, for launches on presets written here (not the asset files, whose figures change).
// The constants were recorded from commit 4c450c4's model, before the engine was restructured for
// speed; a change to any of them is a change of the simulated machine, not an optimization.
// Every run is also repeated in small advance_to() steps, on several threads, and resumed from
// a copied GpuState (a checkpoint), which must land on the same digests.
#include <algorithm>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu_model.hpp"
#include "kernels/kernel_program.hpp"
#include "warpscope/sim/matrices.hpp"
#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"

namespace {

using namespace ws::sim;
using ws::sim::detail::GpuModel;
using ws::sim::detail::GpuOutputs;
using ws::sim::detail::Hasher;

// Under ThreadSanitizer only the runs on several threads: one thread has no race to find, and the
// release and ASan builds run every check below.
#ifdef __SANITIZE_THREAD__
constexpr bool kThreadedOnly = true;
#else
constexpr bool kThreadedOnly = false;
#endif

GpuPreset hopper_like(int l2_kb = 51200) {
  GpuPreset g;
  g.id = g.name = "hopper-like";
  g.cc_major = 9;
  g.cc_minor = 0;
  g.sm_count = 132;
  g.fp32_lanes_per_sm = 128;
  g.schedulers_per_sm = 4;
  g.clock_mhz = 1980;
  g.memory_bandwidth_gbs = 3350;
  g.l2_kb = l2_kb;
  g.l2_bandwidth_gbs = 5500;
  g.l1_kb = 256;
  g.l1_shares_smem = true;
  g.latency = {4, 4, 29, 33, 260, 478, 20, 50};
  return g;
}

// Latencies at the edges: blocks that may issue in the cycle they are placed, or L2 hits that
// complete one cycle after they issue.
GpuPreset hopper_edge_latencies(int block_launch, int l2_hit) {
  GpuPreset g = hopper_like();
  g.id = g.name = "hopper-edge-latencies";
  g.latency.block_launch = block_launch;
  g.latency.l2_hit = l2_hit;
  return g;
}

// Kepler: 192 lanes on 4 schedulers, reachable only by dual issue; an L1 small enough to evict.
GpuPreset kepler_like(int l1_kb) {
  GpuPreset g;
  g.id = g.name = "kepler-like";
  g.cc_major = 3;
  g.cc_minor = 7;
  g.sm_count = 13;
  g.fp32_lanes_per_sm = 192;
  g.schedulers_per_sm = 4;
  g.clock_mhz = 875;
  g.memory_bandwidth_gbs = 240;
  g.l2_kb = 1536;
  g.l2_bandwidth_gbs = 720;
  g.l1_kb = l1_kb;
  g.latency = {9, 9, 47, 30, 200, 300, 20, 50};
  return g;
}

// Fermi with a cut-down L2 so that both caches run their set-associative path.
GpuPreset fermi_small_caches() {
  GpuPreset g;
  g.id = g.name = "fermi-small-caches";
  g.cc_major = 2;
  g.cc_minor = 0;
  g.sm_count = 16;
  g.fp32_lanes_per_sm = 32;
  g.schedulers_per_sm = 2;
  g.clock_mhz = 1544;
  g.memory_bandwidth_gbs = 192.4;
  g.l2_kb = 64;
  g.l2_bandwidth_gbs = 577;
  g.l1_kb = 16;
  g.latency = {18, 18, 50, 45, 310, 600, 20, 50};
  return g;
}

// GT200: no L1 and no L2 for global data; every load waits on DRAM.
GpuPreset tesla_no_caches() {
  GpuPreset g;
  g.id = g.name = "tesla-no-caches";
  g.cc_major = 1;
  g.cc_minor = 3;
  g.sm_count = 30;
  g.fp32_lanes_per_sm = 8;
  g.schedulers_per_sm = 1;
  g.clock_mhz = 1296;
  g.memory_bandwidth_gbs = 102.4;
  g.l2_kb = 0;
  g.l2_bandwidth_gbs = 0;
  g.l1_kb = 0;
  g.lsu_cycles_per_wavefront = 2;
  g.smem_cycles_per_wavefront = 2;
  g.latency = {24, 24, 38, 0, 0, 440, 20, 50};
  return g;
}

struct Expect {
  std::int64_t cycles;
  std::uint64_t instructions, dram_bytes, c_hash;
  std::uint64_t at[6];  // digests at cycle 0, 1, cycles*i/4 (i = 1..3) and the end
};

struct Case {
  const char* what;
  GpuPreset gpu;
  Kernel kernel;
  int m, n, k, block;
  Expect expect;
};

// Chunks of shared memory a packed checkpoint keeps raw, and those that are not all zero.
std::pair<long, long> raw_and_nonzero_chunks(const detail::PackedGpuState& p, const detail::GpuSetup& s) {
  const auto chunks_per_block = static_cast<std::size_t>((s.smem_floats + s.bdim - 1) / s.bdim);
  const std::vector<std::int32_t> codes = p.chunk_codes(chunks_per_block);
  const long raw = std::count(codes.begin(), codes.end(), detail::PackedGpuState::kRaw);
  const long zero = std::count(codes.begin(), codes.end(), detail::PackedGpuState::kZero);
  return {raw, static_cast<long>(codes.size()) - zero};
}

std::uint64_t digest(const GpuModel& g) {
  Hasher h;
  g.hash_into(h);
  return h.h;
}

std::uint64_t c_digest(const GpuOutputs& out) {
  Hasher h;
  for (float v : out.value) h.add(v);
  for (auto f : out.finish) h.add(f);
  for (auto o : out.owner) h.add(o);
  return h.h;
}

std::vector<std::int64_t> points(std::int64_t cycles) {
  return {0, 1, cycles / 4, cycles / 2, cycles * 3 / 4, cycles};
}

// Advances to each point in steps of at most `step` cycles; the digests at the points.
std::vector<std::uint64_t> walk(GpuModel& g, const std::vector<std::int64_t>& at, std::int64_t step) {
  std::vector<std::uint64_t> d;
  for (std::int64_t p : at) {
    while (g.state().now < p) g.advance_to(std::min(p, g.state().now + step));
    d.push_back(digest(g));
  }
  return d;
}

// The same with the sums left partial between the points, as the progressive producer runs
// (advance_to with whole false), made whole only where a digest is taken.
std::vector<std::uint64_t> walk_partial(GpuModel& g, const std::vector<std::int64_t>& at, std::int64_t step) {
  std::vector<std::uint64_t> d;
  for (std::int64_t p : at) {
    while (g.state().now < p) g.advance_to(std::min(p, g.state().now + step), false);
    g.make_whole();
    d.push_back(digest(g));
  }
  return d;
}

std::vector<Case> cases() {
  const Expect none{};
  std::vector<Case> v = {
      {"hopper tiled 96^3 b32", hopper_like(), Kernel::tiled, 96, 96, 96, 32, none},
      {"hopper naive 96^3 b16", hopper_like(), Kernel::naive, 96, 96, 96, 16, none},
      {"hopper tiled 130x70x50 b16", hopper_like(), Kernel::tiled, 130, 70, 50, 16, none},
      {"hopper naive 130x70x50 b32", hopper_like(), Kernel::naive, 130, 70, 50, 32, none},
      {"hopper tiled 130x70x50 b32", hopper_like(), Kernel::tiled, 130, 70, 50, 32, none},
      {"hopper naive 130x70x50 b16", hopper_like(), Kernel::naive, 130, 70, 50, 16, none},
      {"hopper 256 KB L2 tiled 200^3 b16", hopper_like(256), Kernel::tiled, 200, 200, 200, 16, none},
      {"kepler dual issue tiled 100x90x70 b16", kepler_like(16), Kernel::tiled, 100, 90, 70, 16, none},
      {"kepler dual issue naive 100x90x70 b32", kepler_like(0), Kernel::naive, 100, 90, 70, 32, none},
      {"fermi small caches tiled 160x150x140 b16", fermi_small_caches(), Kernel::tiled, 160, 150, 140, 16, none},
      {"fermi small caches naive 160x150x140 b32", fermi_small_caches(), Kernel::naive, 160, 150, 140, 32, none},
      {"tesla no caches tiled 64x48x40 b16", tesla_no_caches(), Kernel::tiled, 64, 48, 40, 16, none},
      {"tesla no caches naive 33x65x17 b16", tesla_no_caches(), Kernel::naive, 33, 65, 17, 16, none},
      {"hopper block_launch 0 tiled 70x90x60 b16", hopper_edge_latencies(0, 260), Kernel::tiled, 70, 90, 60, 16, none},
      {"hopper l2_hit 1 naive 70x90x60 b16", hopper_edge_latencies(50, 1), Kernel::naive, 70, 90, 60, 16, none},
  };
  // Recorded from commit 4c450c4's model (see the top of this file).
  const Expect pinned[] = {
      {5580, 69408ull, 110592ull, 10215453200153713677ull, {10360720475376600660ull, 8700272698477254007ull, 404013458394523022ull, 2851884918620016765ull, 4158449081196219702ull, 18261755636414032338ull}},  // hopper tiled 96^3 b32
      {5464, 97056ull, 110592ull, 17176920217583441869ull, {10530736389956245295ull, 17419620710865939100ull, 10948013503235314498ull, 15559127511374300481ull, 3555735861750440256ull, 16124491776123664691ull}},  // hopper naive 96^3 b16
      {2720, 63720ull, 91968ull, 11521499743964451399ull, {604097743002722204ull, 10532242187703885631ull, 4703293797272531450ull, 11232173780095871613ull, 7892954908865466251ull, 8879328710650128728ull}},  // hopper tiled 130x70x50 b16
      {4943, 69030ull, 85760ull, 5986140028930879539ull, {15612595092372147897ull, 2643335051950950362ull, 14941794660263924599ull, 9123755703469441981ull, 13532913327105563734ull, 11888681893227670840ull}},  // hopper naive 130x70x50 b32
      {3816, 77280ull, 85760ull, 5512771380565062023ull, {9218200217422182699ull, 17878353240509145376ull, 12286917866994132052ull, 5209419774741048638ull, 10024421585838074252ull, 14069959630245352781ull}},  // hopper tiled 130x70x50 b32
      {4536, 57525ull, 91968ull, 4645853031708065271ull, {1255970849144582987ull, 13692513795318916992ull, 460683733999006736ull, 4188219878737831101ull, 18248347233550644548ull, 6838712792123398901ull}},  // hopper naive 130x70x50 b16
      {9187, 774696ull, 480000ull, 15972755380501252084ull, {13333075676975652612ull, 9002268413123044503ull, 5577556730938626314ull, 2088206796056336808ull, 12112781152437441631ull, 5395325780556758437ull}},  // hopper 256 KB L2 tiled 200^3 b16
      {4695, 74256ull, 103616ull, 13324251995171963842ull, {1693453418175104408ull, 4089682751582728799ull, 18010064567641062944ull, 10736950260448056389ull, 7890755051670369240ull, 7974448000375928289ull}},  // kepler dual issue tiled 100x90x70 b16
      {6956, 74100ull, 96416ull, 15060322742286950798ull, {7548192012772151051ull, 385540293493955640ull, 6741666008518052892ull, 4795561106998828818ull, 15865786546861417808ull, 7589737278104319632ull}},  // kepler dual issue naive 100x90x70 b32
      {20054, 317600ull, 411104ull, 12557043312803457737ull, {2146740454403333331ull, 52422791055516880ull, 4454346278876026547ull, 15061016779420267968ull, 4926569090053586512ull, 12712765262713345391ull}},  // fermi small caches tiled 160x150x140 b16
      {30808, 392800ull, 399040ull, 2545812706665273653ull, {10020676803731180931ull, 12080964028303552448ull, 6736561567513307269ull, 2136929394314749806ull, 2823339457989944244ull, 11972533754323920225ull}},  // fermi small caches naive 160x150x140 b32
      {4803, 12768ull, 73728ull, 11217824971460726480ull, {16651533483493046207ull, 9508034646893538476ull, 13871932971008305000ull, 6985978101751239269ull, 8928099926889848171ull, 12078399079306487605ull}},  // tesla no caches tiled 64x48x40 b16
      {3500, 5270ull, 216544ull, 1681267332026998454ull, {1102296968740509147ull, 18057990250466478372ull, 8276595003663110347ull, 2273758492990439157ull, 7885610904087723404ull, 15977421063532032196ull}},  // tesla no caches naive 33x65x17 b16
      {2694, 42480ull, 73600ull, 16061607262418142747ull, {2873508373490986323ull, 3363644271019890772ull, 12359650685759333657ull, 8490955241828937885ull, 785719619678764117ull, 16961472952068818973ull}},  // hopper block_launch 0 tiled 70x90x60 b16
      {2965, 44310ull, 73600ull, 12013824803446769579ull, {4284047977481713176ull, 6618084958713974055ull, 17188243137359134713ull, 12732522626481398119ull, 9004589238728245424ull, 4209891228699782735ull}},  // hopper l2_hit 1 naive 70x90x60 b16
  };
  for (std::size_t i = 0; i < v.size() && i < std::size(pinned); ++i) v[i].expect = pinned[i];
  return v;
}

TEST(SimExactness, PinnedDigestsTotalsAndProduct) {
  const bool print = std::getenv("WS_EXACTNESS_PRINT") != nullptr;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.what);
    SimConfig cfg;
    cfg.kernel = c.kernel;
    cfg.shape = {c.m, c.n, c.k};
    cfg.block = c.block;
    const Inputs in = make_inputs(c.m, c.n, c.k, cfg.seed);
    const auto setup = detail::make_setup(c.gpu, cfg, in.a.data(), in.b.data());

    GpuOutputs out;
    // The points sit at fractions of the pinned total, so one run reaches them all; only when
    // re-pinning (print) must a first run find the total. A wrong total still fails below.
    std::int64_t cycles = c.expect.cycles;
    if (print || cycles == 0) {
      GpuModel g(setup, &out);
      while (!g.state().finished) g.advance_to(g.state().now + 100000);
      cycles = g.state().finish_cycle;
    }
    const auto at = points(cycles);

    GpuModel fresh(setup, &out);  // rewrites the same C
    if (kThreadedOnly) fresh.set_threads(2);  // C written from both threads
    const auto d = walk(fresh, at, cycles);
    while (!fresh.state().finished) fresh.advance_to(fresh.state().now + 100000);
    const Expect got{fresh.state().finish_cycle, fresh.state().instructions, fresh.state().dram_bytes, c_digest(out),
                     {d[0], d[1], d[2], d[3], d[4], d[5]}};
    if (print) {
      std::printf("      {%lld, %lluull, %lluull, %lluull, {", static_cast<long long>(got.cycles),
                  static_cast<unsigned long long>(got.instructions), static_cast<unsigned long long>(got.dram_bytes),
                  static_cast<unsigned long long>(got.c_hash));
      for (int i = 0; i < 6; ++i) std::printf("%lluull%s", static_cast<unsigned long long>(got.at[i]), i < 5 ? ", " : "");
      std::printf("}},  // %s\n", c.what);
    }
    EXPECT_EQ(got.cycles, c.expect.cycles);
    EXPECT_EQ(got.instructions, c.expect.instructions);
    EXPECT_EQ(got.dram_bytes, c.expect.dram_bytes);
    EXPECT_EQ(got.c_hash, c.expect.c_hash);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(got.at[i], c.expect.at[i]) << "digest at cycle " << at[i];

    if (!kThreadedOnly) {
      // Small, uneven steps (every advance_to ends at an arbitrary cycle) land on the same states.
      GpuModel stepped(setup, nullptr);
      EXPECT_EQ(walk(stepped, at, 37), d);
      GpuModel single(setup, nullptr);
      const std::vector<std::int64_t> early(at.begin(), at.begin() + 3);
      EXPECT_EQ(walk(single, early, 1), std::vector<std::uint64_t>(d.begin(), d.begin() + 3));

      // Partial slices (batched FFMAs summed only at the points) land on the same states.
      GpuModel partial(setup, nullptr);
      EXPECT_EQ(walk_partial(partial, at, 29), d);
    }
    GpuModel partial_threads(setup, nullptr);
    partial_threads.set_threads(2);
    EXPECT_EQ(walk_partial(partial_threads, at, 256), d) << "2 threads";

    // SMs stepped side by side on several threads reach the same states whatever their number.
    for (int threads : {2, 3, 7}) {
      if (kThreadedOnly && threads == 2) continue;  // the reference run above
      GpuModel parallel(setup, nullptr);
      parallel.set_threads(threads);
      EXPECT_EQ(walk(parallel, at, threads == 3 ? 37 : cycles), d) << threads << " threads";
    }
    if (kThreadedOnly) continue;  // the checkpoints below are taken and restored on one thread

    // A copied state resumes exactly where the original would go.
    GpuModel replay(setup, nullptr);
    replay.advance_to(at[2]);
    const detail::GpuState checkpoint = replay.state();
    replay.advance_to(at[4]);
    replay.state() = checkpoint;
    EXPECT_EQ(digest(replay), d[2]);
    replay.advance_to(at[3] + 11);
    replay.advance_to(at[4]);
    EXPECT_EQ(digest(replay), d[4]);

    // So does a packed checkpoint (the window's), unpacked into a model that stood elsewhere: the
    // caches' LRU order kept as ranks still picks the same victims on the way to the next point.
    GpuModel packer(setup, nullptr);
    packer.advance_to(at[2]);
    detail::PackedGpuState packed;
    packer.pack(packed);
    EXPECT_EQ(digest(packer), d[2]) << "packing leaves the model as it was";
    GpuModel restored(setup, nullptr);
    restored.advance_to(at[4]);
    restored.unpack(packed);
    EXPECT_EQ(digest(restored), d[2]);
    restored.advance_to(at[3]);
    EXPECT_EQ(digest(restored), d[3]);
    restored.advance_to(at[4]);
    EXPECT_EQ(digest(restored), d[4]);
    if (c.kernel == Kernel::tiled) {
      // Mid-run, nearly every chunk of the tiled kernel's shared memory is a tile it names.
      const auto [raw, nonzero] = raw_and_nonzero_chunks(packed, setup);
      EXPECT_GT(nonzero, 0);
      EXPECT_LT(raw * 4, nonzero) << "shared memory kept raw";
      // Warps as variable-length integers, sums rebuilt from A and B: a fraction of the state.
      EXPECT_TRUE(packed.acc_rebuilt);
      EXPECT_LT(packed.warps.size() * 2, packer.state().warps.size() * sizeof(detail::Warp)) << "warps barely packed";
      EXPECT_LT(packed.bytes() * 2, packer.state_bytes());
    }
  }
}

// Every kernel program's checkpoints, packed and unpacked mid-run on a chip whose L1 evicts,
// resume exactly; where the program names its tiles (smem_tile), little shared memory stays raw.
TEST(SimExactness, PackedCheckpointsOfEveryProgramResumeExactly) {
  if (kThreadedOnly) GTEST_SKIP() << "one thread throughout; the release and ASan builds run it";
  GpuPreset gpu = find_gpu("h100");  // with tensor cores, for the tensor program
  gpu.l2_kb = 256;
  gpu.l1_kb = 32;
  for (int i = 0; i < detail::kernel_count(); ++i) {
    const detail::KernelOps& ops = detail::kernel_ops_at(i);
    SCOPED_TRACE(ops.name);
    SimConfig cfg;
    cfg.kernel = ops.kernel;
    cfg.shape = {200, 136, 190};
    cfg.block = 16;
    const Inputs in = make_inputs(cfg.shape.m, cfg.shape.n, cfg.shape.k, cfg.seed);
    const auto setup = detail::make_setup(gpu, cfg, in.a.data(), in.b.data());
    GpuModel whole(setup, nullptr);
    while (!whole.state().finished) whole.advance_to(whole.state().now + 100000);
    const std::int64_t total = whole.state().finish_cycle;
    const std::int64_t mid = total / 2 + 3, late = total * 5 / 6;

    GpuModel reference(setup, nullptr);
    reference.advance_to(mid);
    const std::uint64_t at_mid = digest(reference);
    reference.advance_to(late);
    const std::uint64_t at_late = digest(reference);

    GpuModel packer(setup, nullptr);
    packer.advance_to(mid);
    detail::PackedGpuState packed;
    packer.pack(packed);
    GpuModel restored(setup, nullptr);
    restored.advance_to(late);
    restored.unpack(packed);
    EXPECT_EQ(digest(restored), at_mid);
    // Field for field, beyond what the digest covers (ages, slots in the short arrays).
    const detail::GpuState& was = packer.state();
    const detail::GpuState& now = restored.state();
    EXPECT_TRUE(now.warps == was.warps);
    EXPECT_TRUE(now.ready == was.ready && now.ready_age == was.ready_age && now.ready_pipe == was.ready_pipe);
    ASSERT_EQ(now.acc.size(), was.acc.size());
    EXPECT_EQ(std::memcmp(now.acc.data(), was.acc.data(), was.acc.size() * sizeof(float)), 0);
    EXPECT_TRUE(packed.ready_rebuilt);
    if (ops.rebuild_acc != nullptr) {
      // The sums came back from A and B (the memcmp above), mid-run, with work in them.
      EXPECT_TRUE(packed.acc_rebuilt);
      EXPECT_TRUE(packed.acc_raw.empty());
      EXPECT_GT(std::count_if(was.warps.begin(), was.warps.end(), [](const detail::Warp& w) { return w.k_done > 0; }), 0);
    }
    restored.advance_to(late);
    EXPECT_EQ(digest(restored), at_late);
    // At cycles spread over a stretch of the run, every sum comes back bit for bit, rebuilt
    // where the program can.
    GpuModel walker(setup, nullptr);
    walker.set_threads(1);
    for (std::int64_t at = mid; at < mid + 24 * 37; at += 37) {
      walker.advance_to(at);
      detail::PackedGpuState p;
      walker.pack(p);
      GpuModel back(setup, nullptr);
      back.unpack(p);
      ASSERT_EQ(std::memcmp(back.state().acc.data(), walker.state().acc.data(), walker.state().acc.size() * sizeof(float)), 0)
          << "cycle " << at;
      EXPECT_EQ(p.acc_rebuilt, ops.rebuild_acc != nullptr) << "cycle " << at;
    }
    if (ops.smem_tile != nullptr) {
      const auto [raw, nonzero] = raw_and_nonzero_chunks(packed, setup);
      EXPECT_GT(nonzero, 0);
      EXPECT_LT(raw * 4, nonzero);
    }
  }
}

}  // namespace
