// The cluster model (issue 15): link figures in the presets, collective volumes, the pipeline
// bubble, scaling, and the split products against one device.
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "warpscope/sim/cluster.hpp"
#include "warpscope/sim/cluster_check.hpp"
#include "warpscope/sim/collectives.hpp"
#include "warpscope/sim/links.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::sim {
namespace {

TEST(ClusterLinks, EveryPresetNamesLinksThatExistWithSources) {
  for (const GpuPreset& g : gpu_presets()) {
    SCOPED_TRACE(g.id);
    ASSERT_FALSE(g.interconnect.link.empty());
    EXPECT_FALSE(g.interconnect.source.empty());
    const LinkSpec& link = find_link(g.interconnect.link);
    EXPECT_NE(link.kind, LinkKind::network);
    EXPECT_EQ(find_link(g.interconnect.pcie).kind, LinkKind::pcie);
    EXPECT_EQ(find_link(g.interconnect.network).kind, LinkKind::network);
  }
  for (const LinkSpec& l : link_specs()) {
    SCOPED_TRACE(l.id);
    EXPECT_GT(l.source.size(), 20u);
    EXPECT_GT(l.latency_us, 0);
  }
}

// The figures the issue names, as the datasheets print them, and what one direction carries.
TEST(ClusterLinks, DatasheetFiguresPerGeneration) {
  const std::map<std::string, double> nvlink_total = {
      {"v100", 300}, {"a100-80gb", 600}, {"h100", 900}, {"h200", 900}, {"b200", 1800}};
  for (const auto& [id, gbs] : nvlink_total) {
    const LinkSpec& l = find_link(find_gpu(id).interconnect.link);
    EXPECT_EQ(l.kind, LinkKind::nvlink) << id;
    EXPECT_DOUBLE_EQ(l.datasheet_gbs, gbs) << id;
    EXPECT_DOUBLE_EQ(l.per_direction_gbs(), gbs / 2) << id;
  }
  EXPECT_DOUBLE_EQ(find_link("pcie4").per_direction_gbs(), 32);
  EXPECT_DOUBLE_EQ(find_link("pcie5").per_direction_gbs(), 64);
  EXPECT_DOUBLE_EQ(find_link("ib-hdr").per_direction_gbs() * 8, 200);  // Gb/s
  EXPECT_DOUBLE_EQ(find_link("ib-ndr").per_direction_gbs() * 8, 400);
  EXPECT_EQ(find_gpu("rtx4090").interconnect.link, "pcie4");  // no NVLink on the 4090
  EXPECT_THROW(find_link("nvlink9"), UnknownPreset);
}

TEST(ClusterLinks, BadLinkFilesAreRefused) {
  EXPECT_THROW(parse_links("", "x.toml"), std::runtime_error);
  EXPECT_THROW(parse_links("[[link]]\nid='a'\nname='b'\nkind='wire'\ndatasheet_gbs=1\ndirections=1\nlatency_us=1\nsource='s'\n",
                           "x.toml"),
               std::runtime_error);
  EXPECT_THROW(parse_links("[[link]]\nid='a'\nname='b'\nkind='pcie'\ndatasheet_gbs=nan\ndirections=1\nlatency_us=1\nsource='s'\n",
                           "x.toml"),
               std::runtime_error);
  EXPECT_EQ(parse_links("[[link]]\nid='a'\nname='b'\nkind='pcie'\ndatasheet_gbs=8\ndirections=2\nlatency_us=1\nsource='s'\n",
                        "x.toml")[0].per_direction_gbs(), 4);
}

TEST(ClusterCollectives, RingMovesTwoNMinusOneOverNOfTheBytes) {
  const double bytes = 1 << 20, alpha = 2e-6, beta = 100e9;
  for (int n : {2, 3, 4, 8, 64}) {
    SCOPED_TRACE(n);
    const auto ar = collective_cost(Collective::all_reduce, CollectiveAlgorithm::ring, n, bytes, alpha, beta);
    EXPECT_DOUBLE_EQ(ar.bytes_sent_per_gpu, 2.0 * (n - 1) / n * bytes);
    EXPECT_EQ(ar.steps, 2 * (n - 1));
    EXPECT_DOUBLE_EQ(ar.seconds, 2 * (n - 1) * alpha + 2.0 * (n - 1) / n * bytes / beta);
    for (Collective half : {Collective::reduce_scatter, Collective::all_gather}) {
      const auto c = collective_cost(half, CollectiveAlgorithm::ring, n, bytes, alpha, beta);
      EXPECT_DOUBLE_EQ(c.bytes_sent_per_gpu, (n - 1.0) / n * bytes);
      EXPECT_DOUBLE_EQ(2 * c.seconds, ar.seconds);
    }
  }
  EXPECT_EQ(collective_cost(Collective::all_reduce, CollectiveAlgorithm::ring, 1, bytes, alpha, beta).seconds, 0);
}

TEST(ClusterCollectives, TreeHasLogSteps) {
  const double bytes = 4096, alpha = 5e-6, beta = 10e9;
  const std::map<int, int> depth = {{2, 1}, {3, 1}, {4, 2}, {7, 2}, {8, 3}, {64, 6}};
  for (const auto& [n, d] : depth) {
    const auto c = collective_cost(Collective::all_reduce, CollectiveAlgorithm::tree, n, bytes, alpha, beta);
    EXPECT_EQ(c.steps, 2 * d) << n;
    EXPECT_DOUBLE_EQ(c.seconds, 2 * d * (alpha + bytes / beta)) << n;
  }
  // Small messages: the tree's few steps win; large ones: the ring's small steps win.
  auto ring = [&](double b) { return collective_cost(Collective::all_reduce, CollectiveAlgorithm::ring, 64, b, alpha, beta).seconds; };
  auto tree = [&](double b) { return collective_cost(Collective::all_reduce, CollectiveAlgorithm::tree, 64, b, alpha, beta).seconds; };
  EXPECT_LT(tree(1024), ring(1024));
  EXPECT_GT(tree(1 << 28), ring(1 << 28));
  EXPECT_THROW(collective_cost(Collective::all_gather, CollectiveAlgorithm::tree, 4, bytes, alpha, beta), std::invalid_argument);
}

ClusterConfig mlp_config(Strategy s, int gpus, int size) {
  ClusterConfig c;
  c.gpus = gpus;
  c.strategy = s;
  c.mlp = {size, size, 4 * size, 2};
  return c;
}

// compute, collective and idle tile [0, total] on each GPU's lane, in order, without overlap.
void expect_lanes_tile(const ClusterResult& r) {
  std::vector<double> at(static_cast<std::size_t>(r.config.gpus), 0.0);
  for (const Activity& a : r.activities) {
    EXPECT_LE(a.start_s, a.end_s);
    if (a.kind == ActivityKind::send || a.kind == ActivityKind::receive) continue;
    EXPECT_NEAR(a.start_s, at[static_cast<std::size_t>(a.gpu)], 1e-15) << a.gpu << " " << a.label;
    at[static_cast<std::size_t>(a.gpu)] = a.end_s;
  }
  for (std::size_t g = 0; g < at.size(); ++g) {
    EXPECT_DOUBLE_EQ(at[g], r.total_s) << g;
    const GpuTotals& t = r.per_gpu[g];
    EXPECT_NEAR(t.compute_s + t.collective_s + t.idle_s, r.total_s, 1e-12 * r.total_s);
  }
}

TEST(ClusterModel, DataParallelAllReducesTheGradientsOverTheRing) {
  const GpuPreset& h100 = find_gpu("h100");
  const ClusterResult r = simulate_cluster(h100, mlp_config(Strategy::data, 8, 1024));
  expect_lanes_tile(r);
  EXPECT_EQ(r.config.nodes, 1);
  EXPECT_EQ(r.element_bytes, 2);
  const double grads = 2.0 * (1024.0 * 4096 * 2);  // two layers of 1024 x 4096 weights, BF16
  ASSERT_EQ(r.links.size(), 8u);                   // the ring's eight hops
  for (const LinkUse& l : r.links) {
    EXPECT_EQ(l.to, (l.from + 1) % 8);
    EXPECT_EQ(l.link, "nvlink4");
    EXPECT_DOUBLE_EQ(l.bytes, 2.0 * 7 / 8 * grads);
  }
  for (const GpuTotals& t : r.per_gpu) EXPECT_DOUBLE_EQ(t.bytes_sent, 2.0 * 7 / 8 * grads);
  // The all-reduce's time is the alpha-beta cost on NVLink 4 (450 GB/s each way, 3.4 us a step).
  EXPECT_NEAR(r.per_gpu[0].collective_s, 14 * 3.4e-6 + 2.0 * 7 / 8 * grads / 450e9, 1e-12);
  // Compute: a batch of 128 rows per GPU through the roofline, forward and backward.
  double compute = 0;
  for (int l = 0; l < 2; ++l) {
    const double in = l == 0 ? 1024 : 4096, out = l == 0 ? 4096 : 1024;
    compute += roofline_seconds(h100, 128, out, in) + roofline_seconds(h100, in, out, 128) + roofline_seconds(h100, 128, in, out);
  }
  EXPECT_NEAR(r.per_gpu[3].compute_s, compute, 1e-15);
  EXPECT_NEAR(r.total_s, compute + r.per_gpu[0].collective_s, 1e-12);
  EXPECT_NEAR(r.speedup, r.single_gpu_s / r.total_s, 1e-12);
  EXPECT_NEAR(r.efficiency, r.speedup / 8, 1e-12);
}

TEST(ClusterModel, TensorParallelSendsActivationsNotWeights) {
  const ClusterResult r = simulate_cluster(find_gpu("a100-80gb"), mlp_config(Strategy::tensor, 4, 512));
  expect_lanes_tile(r);
  // One all-reduce of the B x D output forward, one of the input gradient backward, each as a
  // reduce-scatter and an all-gather: 2 x 2(n-1)/n x B x D x 2 bytes per GPU.
  const double act = 512.0 * 512 * 2;
  for (const GpuTotals& t : r.per_gpu) EXPECT_DOUBLE_EQ(t.bytes_sent, 2 * 2.0 * 3 / 4 * act);
  std::set<std::string> labels;
  for (const Activity& a : r.activities)
    if (a.kind == ActivityKind::collective) labels.insert(a.label);
  EXPECT_TRUE(labels.count("reduce-scatter activations L2"));
  EXPECT_TRUE(labels.count("all-gather activations L2"));
  EXPECT_TRUE(labels.count("reduce-scatter input gradient L1"));
  EXPECT_EQ(r.intra.id, "nvlink3");
}

TEST(ClusterModel, HybridKeepsTensorInsideNodesAndDataAcross) {
  ClusterConfig c = mlp_config(Strategy::hybrid, 16, 1024);
  const ClusterResult r = simulate_cluster(find_gpu("h100"), c);
  expect_lanes_tile(r);
  EXPECT_EQ(r.config.nodes, 2);
  EXPECT_EQ(r.gpus_per_node, 8);
  double network_bytes = 0;
  for (const LinkUse& l : r.links) {
    const bool across = l.from / 8 != l.to / 8;
    EXPECT_EQ(l.kind, across ? LinkKind::network : LinkKind::nvlink) << l.from << "->" << l.to;
    if (across) network_bytes += l.bytes;
  }
  // Each of the 8 shard pairs all-reduces its 1/8 of the gradients between the 2 nodes: a ring
  // of two sends 2(2-1)/2 = 1 x the shard each way.
  const double shard = 2.0 * (1024.0 * 4096 * 2) / 8;
  EXPECT_DOUBLE_EQ(network_bytes, 8 * 2 * shard);
}

// Data parallelism over whole nodes: reduce-scatter on NVLink, each shard all-reduced across the
// nodes on its owner's NIC, all-gather on NVLink; no hop carries more than a ring's share.
TEST(ClusterModel, AllReduceOverNodesUsesEveryNic) {
  const ClusterResult r = simulate_cluster(find_gpu("h100"), mlp_config(Strategy::data, 32, 1024));
  expect_lanes_tile(r);
  EXPECT_EQ(r.config.nodes, 4);
  const double grads = 2.0 * (1024.0 * 4096 * 2);
  int nics = 0;
  for (const LinkUse& l : r.links) {
    if (l.kind != LinkKind::network) {
      EXPECT_DOUBLE_EQ(l.bytes, 2 * 7.0 / 8 * grads);  // reduce-scatter + all-gather in a node of 8
      continue;
    }
    ++nics;
    EXPECT_EQ(l.from % 8, l.to % 8);                       // rail to rail
    EXPECT_DOUBLE_EQ(l.bytes, 2 * 3.0 / 4 * grads / 8);   // ring of 4 nodes over a 1/8 shard
  }
  EXPECT_EQ(nics, 32);
  std::set<std::string> labels;
  for (const Activity& a : r.activities) labels.insert(a.label);
  EXPECT_TRUE(labels.count("all-reduce gradients (all-reduce across nodes)"));
  // Cheaper than a flat ring through one NIC a node boundary would be.
  const auto& ndr = find_link("ib-ndr");
  const double flat = collective_cost(Collective::all_reduce, CollectiveAlgorithm::ring, 32, grads, ndr.latency_us * 1e-6,
                                      ndr.per_direction_gbs() * 1e9).seconds;
  EXPECT_LT(r.per_gpu[0].collective_s, flat);
}

double stage_time(const GpuPreset& g, const MlpShape& s, double rows, int layer) {
  return roofline_seconds(g, rows, s.out(layer), s.in(layer)) + roofline_seconds(g, s.in(layer), s.out(layer), rows) +
         roofline_seconds(g, rows, s.in(layer), s.out(layer));
}

// With links that cost nothing and equal stages, the bubble is (S-1)/(M+S-1) of the time, and
// the step takes (M+S-1) x (forward + backward of one micro-batch on one stage).
TEST(ClusterModel, PipelineBubbleMatchesTheFormula) {
  const GpuPreset& h100 = find_gpu("h100");
  for (PipelineSchedule sched : {PipelineSchedule::gpipe, PipelineSchedule::one_f_one_b})
    for (const auto& [stages, micro] : std::vector<std::pair<int, int>>{{2, 1}, {4, 8}, {8, 4}, {8, 32}}) {
      SCOPED_TRACE(std::string(to_string(sched)) + " S=" + std::to_string(stages) + " M=" + std::to_string(micro));
      ClusterConfig c;
      c.gpus = stages;
      c.strategy = Strategy::pipeline;
      c.schedule = sched;
      c.micro_batches = micro;
      c.mlp = {1024, 1024, 4096, stages};
      c.ideal_links = true;
      const ClusterResult r = simulate_cluster(h100, c);
      expect_lanes_tile(r);
      const double formula = (stages - 1.0) / (micro + stages - 1.0);
      EXPECT_DOUBLE_EQ(r.bubble_formula, formula);
      EXPECT_NEAR(r.idle_fraction, formula, 1e-12);
      const double per_mb = stage_time(h100, c.mlp, 1024.0 / micro, 0);
      EXPECT_NEAR(r.total_s, (micro + stages - 1) * per_mb, 1e-12 * r.total_s);
      // Real links only add to the bubble.
      c.ideal_links = false;
      EXPECT_GT(simulate_cluster(h100, c).idle_fraction, formula);
    }
}

TEST(ClusterModel, PipelineSendsOneActivationAndOneGradientPerMicroBatchAndStageBoundary) {
  ClusterConfig c;
  c.gpus = 4;
  c.strategy = Strategy::pipeline;
  c.micro_batches = 8;
  c.mlp = {256, 512, 2048, 4};
  const ClusterResult r = simulate_cluster(find_gpu("v100"), c);
  expect_lanes_tile(r);
  EXPECT_EQ(r.element_bytes, 2);
  for (const LinkUse& l : r.links) {
    EXPECT_EQ(std::abs(l.to - l.from), 1);
    // Stage boundaries after layers 1 and 3 carry 2048-wide activations, after layer 2 512-wide.
    const int boundary = std::min(l.from, l.to);
    const double width = boundary == 1 ? 512 : 2048;
    EXPECT_DOUBLE_EQ(l.bytes, 8 * (256.0 / 8) * width * 2) << l.from << "->" << l.to;
  }
  EXPECT_EQ(r.links.size(), 6u);
  EXPECT_EQ(r.collective_fraction, 0);
}

TEST(ClusterModel, EfficiencyFallsWithGpusAndRisesWithSize) {
  const GpuPreset& h100 = find_gpu("h100");
  for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::hybrid}) {
    SCOPED_TRACE(to_string(s));
    double previous = 2;
    for (int gpus : {1, 2, 4, 8, 16, 32, 64}) {
      if (s == Strategy::tensor && gpus > 8) break;  // tensor parallelism stays inside one node here
      const ClusterResult r = simulate_cluster(h100, mlp_config(s, gpus, 2048));
      EXPECT_LT(r.efficiency, previous) << gpus;
      if (gpus == 1) {
        EXPECT_DOUBLE_EQ(r.efficiency, 1);
      }
      previous = r.efficiency;
    }
    previous = 0;
    for (int size : {256, 512, 1024, 2048, 4096, 8192}) {
      const ClusterResult r = simulate_cluster(h100, mlp_config(s, s == Strategy::hybrid ? 16 : 8, size));
      EXPECT_GT(r.efficiency, previous) << size;
      previous = r.efficiency;
    }
  }
}

TEST(ClusterModel, SlowerLinksCostMore) {
  const GpuPreset& h100 = find_gpu("h100");
  ClusterConfig c = mlp_config(Strategy::data, 8, 2048);
  const double nvlink = simulate_cluster(h100, c).total_s;
  c.intra_link = "pcie5";
  const double pcie = simulate_cluster(h100, c).total_s;
  EXPECT_GT(pcie, nvlink);
  c.intra_link = "";
  c.nodes = 8;  // one GPU a node: every hop on the network
  EXPECT_GT(simulate_cluster(h100, c).total_s, pcie);
  c.algorithm = CollectiveAlgorithm::tree;
  EXPECT_NO_THROW(simulate_cluster(h100, c));
}

TEST(ClusterModel, RefusesWhatCannotBeSplit) {
  const GpuPreset& h100 = find_gpu("h100");
  ClusterConfig c = mlp_config(Strategy::data, 0, 64);
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c.gpus = 65;
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c.gpus = 16;
  c.nodes = 1;  // 16 in one node
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c.nodes = 3;
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c = mlp_config(Strategy::data, 3, 64);  // batch 64 over 3
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c = mlp_config(Strategy::pipeline, 4, 64);  // 2 layers into 4 stages
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c.workload = Workload::gemm;
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c = mlp_config(Strategy::data, 8, 64);
  c.intra_link = "ib-ndr";
  EXPECT_THROW(simulate_cluster(h100, c), std::invalid_argument);
  c.intra_link = "token-ring";
  EXPECT_THROW(simulate_cluster(h100, c), UnknownPreset);
}

// Every split computes the real product, shard by shard, and agrees with one device.
TEST(ClusterCheck, EverySplitAgreesWithOneDevice) {
  for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::pipeline, Strategy::hybrid})
    for (CollectiveAlgorithm a : {CollectiveAlgorithm::ring, CollectiveAlgorithm::tree})
      for (int gpus : {1, 2, 4, 8, 16}) {
        SCOPED_TRACE(std::string(to_string(s)) + " " + to_string(a) + " " + std::to_string(gpus));
        ClusterConfig c;
        c.gpus = gpus;
        c.strategy = s;
        c.algorithm = a;
        c.micro_batches = 4;
        c.mlp = {32, 16, 64, s == Strategy::pipeline ? gpus : 2};
        if (s == Strategy::pipeline && gpus == 1) c.mlp.layers = 2;
        const ClusterCheck r = check_cluster(c);
        EXPECT_TRUE(r.ok);
        EXPECT_FALSE(r.reduced);
        ASSERT_EQ(r.quantities.size(), static_cast<std::size_t>(c.mlp.layers) + 2);
        for (const CheckedQuantity& q : r.quantities) {
          EXPECT_TRUE(q.ok) << q.name << " diff " << q.max_abs_diff << " of " << q.max_abs_value;
          EXPECT_GT(q.max_abs_value, 0.01) << q.name;  // real values, not zeros
        }
        // Rows that one GPU computes alone match bit for bit.
        EXPECT_EQ(r.quantities.front().exact_expected, s == Strategy::data || s == Strategy::pipeline);
        if (gpus == 1 && s != Strategy::pipeline) {
          for (const CheckedQuantity& q : r.quantities) EXPECT_TRUE(q.bit_exact) << q.name;
        }
      }
}

TEST(ClusterCheck, SumsAcrossGpusAreNotBitExactButClose) {
  ClusterConfig c;
  c.gpus = 8;
  c.strategy = Strategy::data;
  c.mlp = {64, 16, 64, 2};
  const ClusterCheck r = check_cluster(c);
  ASSERT_TRUE(r.ok);
  bool some_differ = false;
  for (const CheckedQuantity& q : r.quantities)
    if (!q.exact_expected && !q.bit_exact) some_differ = true;
  EXPECT_TRUE(some_differ) << "a ring sums in another order than one device";
}

TEST(ClusterCheck, OneBigMultiplySplitsToo) {
  for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::hybrid}) {
    ClusterConfig c;
    c.gpus = 16;
    c.strategy = s;
    c.workload = Workload::gemm;
    c.gemm = {64, 48, 128};
    const ClusterCheck r = check_cluster(c);
    EXPECT_TRUE(r.ok) << to_string(s);
    ASSERT_EQ(r.quantities.size(), 1u);
    EXPECT_EQ(r.quantities[0].bit_exact, s == Strategy::data) << to_string(s);
  }
}

// The check of the check: a split that loses one GPU's share fails, whichever GPU it is.
TEST(ClusterCheck, ALostShardFails) {
  for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::pipeline, Strategy::hybrid})
    for (int drop : {0, 3, 7}) {
      ClusterConfig c;
      c.gpus = 8;
      c.nodes = s == Strategy::hybrid ? 2 : 0;
      c.strategy = s;
      c.micro_batches = 8;
      c.mlp = {32, 16, 64, s == Strategy::pipeline ? 8 : 2};
      EXPECT_FALSE(check_cluster(c, drop).ok) << to_string(s) << " drop " << drop;
    }
  ClusterConfig g;
  g.gpus = 4;
  g.workload = Workload::gemm;
  g.gemm = {16, 16, 16};
  for (Strategy s : {Strategy::data, Strategy::tensor}) {
    g.strategy = s;
    EXPECT_FALSE(check_cluster(g, 2).ok) << to_string(s);
  }
}

TEST(ClusterCheck, LargeSizesAreCheckedSmaller) {
  ClusterConfig c = mlp_config(Strategy::tensor, 8, 4096);
  const ClusterCheck r = check_cluster(c);
  EXPECT_TRUE(r.reduced);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.checked.gpus, 8);
  EXPECT_EQ(r.checked.strategy, Strategy::tensor);
  EXPECT_LT(r.checked.mlp.batch, 4096);
}

}  // namespace
}  // namespace ws::sim
