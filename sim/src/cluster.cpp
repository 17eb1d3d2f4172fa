// The cluster model: one training step (or one big multiply) split over simulated GPUs, each
// GPU's time laid out on one clock. Formulas and sources: docs/CLUSTER.md.
#include "warpscope/sim/cluster.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <utility>

#include "ascii.hpp"

namespace ws::sim {
namespace {

void require(bool ok, const std::string& why) {
  if (!ok) throw std::invalid_argument(why);
}

struct Topology {
  int gpus = 1, nodes = 1, per_node = 1;
  bool same_node(int a, int b) const { return a / per_node == b / per_node; }
};

// Compute time of one multiply: the roofline, or the single-GPU model's achieved rate.
struct ComputeModel {
  const GpuPreset& gpu;
  double achieved_gflops = 0;
  double gemm(double m, double n, double k) const {
    if (achieved_gflops > 0) return 2 * m * n * k / (achieved_gflops * 1e9);
    return roofline_seconds(gpu, m, n, k);
  }
  // Layer with `rows` rows of input, `in` x `out` weights (or their shard).
  double forward(double rows, double in, double out) const { return gemm(rows, out, in); }
  // Weight gradient (in x out, summed over the rows) and input gradient (rows x in).
  double backward(double rows, double in, double out) const { return gemm(in, out, rows) + gemm(rows, in, out); }
};

// The timeline under construction: each GPU's lane runs compute and collectives in program order;
// point-to-point copies run on the links beside it.
class Timeline {
 public:
  Timeline(const Topology& topo, const LinkSpec& intra, const LinkSpec& network, bool ideal)
      : topo_(topo), intra_(intra), network_(network), ideal_(ideal), ready_(static_cast<std::size_t>(topo.gpus), 0.0) {}

  double ready(int gpu) const { return ready_[static_cast<std::size_t>(gpu)]; }

  double compute(int gpu, double seconds, const std::string& label, double earliest = 0) {
    const double start = std::max(ready(gpu), earliest);
    wait_until(gpu, start, "waiting for " + label);
    push(gpu, start, start + seconds, ActivityKind::compute, label, 0);
    ready_[static_cast<std::size_t>(gpu)] = start + seconds;
    return start + seconds;
  }

  // A collective over `group` (in ring order): every member starts when the last is ready.
  void collective(const std::vector<int>& group, Collective c, CollectiveAlgorithm a, double bytes,
                  const std::string& label) {
    const int n = static_cast<int>(group.size());
    if (n <= 1) return;
    if (c == Collective::all_reduce && a == CollectiveAlgorithm::ring && whole_nodes(group))
      return hierarchical_all_reduce(group, bytes, label);
    // The hops the algorithm sends on, each carried one way per direction it is used.
    std::vector<std::pair<int, int>> hops;
    std::vector<double> sent(group.size(), 0.0);
    double alpha = 0, beta = std::numeric_limits<double>::infinity();
    CollectiveCost cost;
    if (a == CollectiveAlgorithm::ring) {
      for (int i = 0; i < n; ++i) hops.emplace_back(group[static_cast<std::size_t>(i)],
                                                    group[static_cast<std::size_t>((i + 1) % n)]);
    } else {
      const auto parent = binary_tree_parents(n);
      for (int i = 1; i < n; ++i) {
        const int p = parent[static_cast<std::size_t>(i)];
        hops.emplace_back(group[static_cast<std::size_t>(i)], group[static_cast<std::size_t>(p)]);
        hops.emplace_back(group[static_cast<std::size_t>(p)], group[static_cast<std::size_t>(i)]);
      }
    }
    for (const auto& [from, to] : hops) {
      const LinkSpec& l = link_between(from, to);
      alpha = std::max(alpha, alpha_s(l));
      beta = std::min(beta, beta_bytes(l));
    }
    cost = collective_cost(c, a, n, bytes, alpha, beta);
    // Ring: every hop carries what each GPU sends. Tree: every edge carries the buffer up and down.
    const double per_hop = a == CollectiveAlgorithm::ring ? cost.bytes_sent_per_gpu : bytes;
    std::map<int, double> sent_by;
    for (const auto& [from, to] : hops) {
      add_link_bytes(from, to, per_hop);
      sent_by[from] += per_hop;
    }
    double start = 0;
    for (int g : group) start = std::max(start, ready(g));
    for (int g : group) {
      wait_until(g, start, "waiting for " + label);
      push(g, start, start + cost.seconds, ActivityKind::collective, label, sent_by[g]);
      ready_[static_cast<std::size_t>(g)] = start + cost.seconds;
    }
  }

  // An all-reduce drawn as its two halves where the ring does it that way (reduce-scatter, then
  // all-gather: the same bytes and steps as the ring all-reduce).
  void all_reduce_in_halves(const std::vector<int>& group, CollectiveAlgorithm a, double bytes, const std::string& what) {
    if (a == CollectiveAlgorithm::tree) return collective(group, Collective::all_reduce, a, bytes, "all-reduce " + what);
    collective(group, Collective::reduce_scatter, a, bytes, "reduce-scatter " + what);
    collective(group, Collective::all_gather, a, bytes, "all-gather " + what);
  }

  // A copy from one GPU to another once `ready_at` has passed and the link is free; returns its arrival.
  double send(int from, int to, double bytes, double ready_at, const std::string& label) {
    const LinkSpec& l = link_between(from, to);
    double& free_at = link_free_[{from, to}];
    const double start = std::max(ready_at, free_at);
    const double end = start + alpha_s(l) + bytes / beta_bytes(l);
    free_at = end;
    push(from, start, end, ActivityKind::send, label, bytes);
    push(to, start, end, ActivityKind::receive, label, bytes);
    add_link_bytes(from, to, bytes);
    return end;
  }

  void finish(ClusterResult& r) {
    double total = 0;
    for (double t : ready_) total = std::max(total, t);
    for (int g = 0; g < topo_.gpus; ++g) wait_until(g, total, "done, waiting for the others");
    r.total_s = total;
    r.per_gpu.assign(static_cast<std::size_t>(topo_.gpus), {});
    for (const Activity& a : acts_) {
      GpuTotals& t = r.per_gpu[static_cast<std::size_t>(a.gpu)];
      const double d = a.end_s - a.start_s;
      switch (a.kind) {
        case ActivityKind::compute: t.compute_s += d; break;
        case ActivityKind::collective: t.collective_s += d; t.bytes_sent += a.bytes; t.bytes_received += a.bytes; break;
        case ActivityKind::idle: t.idle_s += d; break;
        case ActivityKind::send: t.send_s += d; t.bytes_sent += a.bytes; break;
        case ActivityKind::receive: t.receive_s += d; t.bytes_received += a.bytes; break;
      }
    }
    for (auto& t : r.per_gpu) {
      t.busy_fraction = total > 0 ? t.compute_s / total : 0;
      r.collective_fraction += total > 0 ? t.collective_s / total / topo_.gpus : 0;
      r.idle_fraction += total > 0 ? t.idle_s / total / topo_.gpus : 0;
    }
    std::stable_sort(acts_.begin(), acts_.end(), [](const Activity& a, const Activity& b) {
      return a.gpu != b.gpu ? a.gpu < b.gpu : a.start_s < b.start_s;
    });
    r.activities = std::move(acts_);
    for (auto& [key, use] : links_) {
      r.bytes_moved += use.bytes;
      r.links.push_back(use);
    }
  }

 private:
  const LinkSpec& link_between(int a, int b) const { return topo_.same_node(a, b) ? intra_ : network_; }

  // More than one node, every GPU of each: a flat ring would squeeze all of it through one NIC a
  // node while the other NICs idle.
  bool whole_nodes(const std::vector<int>& group) const {
    if (topo_.per_node == 1) return false;
    std::map<int, int> members;
    for (int g : group) ++members[g / topo_.per_node];
    if (members.size() < 2) return false;
    for (const auto& [node, count] : members)
      if (count != topo_.per_node) return false;
    return true;
  }

  // The two-level all-reduce NCCL's rings amount to on rail-optimised nodes (one NIC per GPU):
  // reduce-scatter inside each node over NVLink, all-reduce each 1/g shard across the nodes over
  // the shard owners' own NICs side by side, all-gather inside each node.
  void hierarchical_all_reduce(const std::vector<int>& group, double bytes, const std::string& label) {
    std::map<int, std::vector<int>> by_node, by_rank;
    for (int g : group) {
      by_node[g / topo_.per_node].push_back(g);
      by_rank[g % topo_.per_node].push_back(g);
    }
    for (const auto& [node, members] : by_node)
      collective(members, Collective::reduce_scatter, CollectiveAlgorithm::ring, bytes, label + " (reduce-scatter in node)");
    for (const auto& [rank, members] : by_rank)
      collective(members, Collective::all_reduce, CollectiveAlgorithm::ring, bytes / topo_.per_node,
                 label + " (all-reduce across nodes)");
    for (const auto& [node, members] : by_node)
      collective(members, Collective::all_gather, CollectiveAlgorithm::ring, bytes, label + " (all-gather in node)");
  }
  double alpha_s(const LinkSpec& l) const { return ideal_ ? 0.0 : l.latency_us * 1e-6; }
  double beta_bytes(const LinkSpec& l) const {
    return ideal_ ? std::numeric_limits<double>::infinity() : l.per_direction_gbs() * 1e9;
  }

  void wait_until(int gpu, double t, const std::string& label) {
    const double from = ready(gpu);
    if (t > from) {
      push(gpu, from, t, ActivityKind::idle, label, 0);
      ready_[static_cast<std::size_t>(gpu)] = t;
    }
  }

  void push(int gpu, double start, double end, ActivityKind kind, const std::string& label, double bytes) {
    acts_.push_back({gpu, start, end, kind, label, bytes});
  }

  void add_link_bytes(int from, int to, double bytes) {
    LinkUse& u = links_[{from, to}];
    const LinkSpec& l = link_between(from, to);
    u.from = from;
    u.to = to;
    u.link = l.id;
    u.kind = l.kind;
    u.bytes += bytes;
  }

  Topology topo_;
  LinkSpec intra_, network_;
  bool ideal_;
  std::vector<double> ready_;
  std::vector<Activity> acts_;
  std::map<std::pair<int, int>, LinkUse> links_;
  std::map<std::pair<int, int>, double> link_free_;
};

std::vector<int> range_group(int first, int count, int stride = 1) {
  std::vector<int> g;
  for (int i = 0; i < count; ++i) g.push_back(first + i * stride);
  return g;
}

std::string layer_name(int l) { return "L" + std::to_string(l + 1); }

// The Megatron split of an MLP over `group`: even layers by columns of their weights (each GPU
// holds hidden/t outputs, no communication), odd layers by rows (partial sums, all-reduced).
void tensor_mlp(Timeline& tl, const ComputeModel& cm, const std::vector<int>& group, const MlpShape& s, double rows,
                CollectiveAlgorithm a, int elem) {
  const double t = static_cast<double>(group.size());
  const double act_bytes = static_cast<double>(elem) * rows * s.width;
  for (int l = 0; l < s.layers; l += 2) {
    for (int g : group) {
      tl.compute(g, cm.forward(rows, s.in(l), s.out(l) / t), "forward " + layer_name(l) + " (column shard)");
      tl.compute(g, cm.forward(rows, s.in(l + 1) / t, s.out(l + 1)), "forward " + layer_name(l + 1) + " (row shard)");
    }
    tl.all_reduce_in_halves(group, a, act_bytes, "activations " + layer_name(l + 1));
  }
  for (int l = s.layers - 2; l >= 0; l -= 2) {
    for (int g : group) {
      tl.compute(g, cm.backward(rows, s.in(l + 1) / t, s.out(l + 1)), "backward " + layer_name(l + 1) + " (row shard)");
      tl.compute(g, cm.backward(rows, s.in(l), s.out(l) / t), "backward " + layer_name(l) + " (column shard)");
    }
    tl.all_reduce_in_halves(group, a, act_bytes, "input gradient " + layer_name(l));
  }
}

void data_mlp(Timeline& tl, const ComputeModel& cm, int gpus, const MlpShape& s, CollectiveAlgorithm a, int elem) {
  const double rows = static_cast<double>(s.batch) / gpus;
  for (int g = 0; g < gpus; ++g) {
    for (int l = 0; l < s.layers; ++l) tl.compute(g, cm.forward(rows, s.in(l), s.out(l)), "forward " + layer_name(l));
    for (int l = s.layers - 1; l >= 0; --l)
      tl.compute(g, cm.backward(rows, s.in(l), s.out(l)), "backward " + layer_name(l));
  }
  tl.collective(range_group(0, gpus), Collective::all_reduce, a, elem * s.weights(), "all-reduce gradients");
}

void pipeline_mlp(Timeline& tl, const ComputeModel& cm, int stages, int micro, PipelineSchedule schedule,
                  const MlpShape& s, int elem) {
  const double rows = static_cast<double>(s.batch) / micro;
  const int per_stage = s.layers / stages;
  std::vector<double> fwd(static_cast<std::size_t>(stages), 0.0), bwd(static_cast<std::size_t>(stages), 0.0);
  for (int st = 0; st < stages; ++st)
    for (int l = st * per_stage; l < (st + 1) * per_stage; ++l) {
      fwd[static_cast<std::size_t>(st)] += cm.forward(rows, s.in(l), s.out(l));
      bwd[static_cast<std::size_t>(st)] += cm.backward(rows, s.in(l), s.out(l));
    }
  // Each stage's program: (forward?, micro-batch) in the schedule's order.
  std::vector<std::vector<std::pair<bool, int>>> program(static_cast<std::size_t>(stages));
  for (int st = 0; st < stages; ++st) {
    auto& p = program[static_cast<std::size_t>(st)];
    if (schedule == PipelineSchedule::gpipe) {
      for (int m = 0; m < micro; ++m) p.emplace_back(true, m);
      for (int m = 0; m < micro; ++m) p.emplace_back(false, m);
    } else {
      // 1F1B (PipeDream-Flush): fill with stages-1-st forwards, then alternate, then drain.
      const int warmup = std::min(stages - 1 - st, micro);
      for (int m = 0; m < warmup; ++m) p.emplace_back(true, m);
      for (int i = 0; i < micro - warmup; ++i) {
        p.emplace_back(true, warmup + i);
        p.emplace_back(false, i);
      }
      for (int m = micro - warmup; m < micro; ++m) p.emplace_back(false, m);
    }
  }
  const double unknown = -1;
  std::vector<std::vector<double>> fwd_in(static_cast<std::size_t>(stages), std::vector<double>(static_cast<std::size_t>(micro), unknown));
  auto bwd_in = fwd_in;
  for (int m = 0; m < micro; ++m) fwd_in[0][static_cast<std::size_t>(m)] = 0;
  std::vector<std::size_t> next(static_cast<std::size_t>(stages), 0);
  for (bool progress = true; progress;) {
    progress = false;
    for (int st = 0; st < stages; ++st) {
      const auto si = static_cast<std::size_t>(st);
      while (next[si] < program[si].size()) {
        const auto [forward, m] = program[si][next[si]];
        const auto mi = static_cast<std::size_t>(m);
        const double arrival = forward ? fwd_in[si][mi] : bwd_in[si][mi];
        if (arrival < 0) break;
        const std::string mb = " mb" + std::to_string(m + 1);
        if (forward) {
          const double end = tl.compute(st, fwd[si], "forward stage " + std::to_string(st + 1) + mb, arrival);
          if (st + 1 < stages) {
            const int last = (st + 1) * per_stage - 1;
            fwd_in[si + 1][mi] = tl.send(st, st + 1, static_cast<double>(elem) * rows * s.out(last), end, "activations" + mb);
          } else {
            bwd_in[si][mi] = end;  // the loss gradient is at hand once the last stage's forward is done
          }
        } else {
          const double end = tl.compute(st, bwd[si], "backward stage " + std::to_string(st + 1) + mb, arrival);
          if (st > 0) {
            const int first = st * per_stage;
            bwd_in[si - 1][mi] = tl.send(st, st - 1, static_cast<double>(elem) * rows * s.in(first), end, "gradients" + mb);
          }
        }
        ++next[si];
        progress = true;
      }
    }
  }
  for (int st = 0; st < stages; ++st)
    if (next[static_cast<std::size_t>(st)] != program[static_cast<std::size_t>(st)].size())
      throw std::logic_error("pipeline schedule deadlocked at stage " + std::to_string(st + 1));
}

void hybrid_mlp(Timeline& tl, const ComputeModel& cm, const Topology& topo, const MlpShape& s, CollectiveAlgorithm a,
                int elem) {
  const double rows = static_cast<double>(s.batch) / topo.nodes;
  for (int node = 0; node < topo.nodes; ++node)
    tensor_mlp(tl, cm, range_group(node * topo.per_node, topo.per_node), s, rows, a, elem);
  // GPUs with the same place in their node hold the same weight shard: they average it over the network.
  for (int r = 0; r < topo.per_node; ++r)
    tl.collective(range_group(r, topo.nodes, topo.per_node), Collective::all_reduce, a,
                  elem * s.weights() / topo.per_node, "all-reduce gradients across nodes");
}

void gemm_strategy(Timeline& tl, const ComputeModel& cm, const Topology& topo, Strategy st, const GemmShape& s,
                   CollectiveAlgorithm a, int elem) {
  const double c_bytes = static_cast<double>(elem) * s.m * s.n;
  const auto all = range_group(0, topo.gpus);
  switch (st) {
    case Strategy::data:
      for (int g = 0; g < topo.gpus; ++g)
        tl.compute(g, cm.gemm(static_cast<double>(s.m) / topo.gpus, s.n, s.k), "C rows (A row shard)");
      tl.collective(all, Collective::all_gather, CollectiveAlgorithm::ring, c_bytes, "all-gather C");
      return;
    case Strategy::tensor:
      for (int g = 0; g < topo.gpus; ++g)
        tl.compute(g, cm.gemm(s.m, s.n, static_cast<double>(s.k) / topo.gpus), "partial C (K shard)");
      tl.all_reduce_in_halves(all, a, c_bytes, "C");
      return;
    case Strategy::hybrid:
      for (int g = 0; g < topo.gpus; ++g)
        tl.compute(g, cm.gemm(static_cast<double>(s.m) / topo.nodes, s.n, static_cast<double>(s.k) / topo.per_node),
                   "partial C rows (K shard)");
      for (int node = 0; node < topo.nodes; ++node)
        tl.collective(range_group(node * topo.per_node, topo.per_node), Collective::reduce_scatter,
                      CollectiveAlgorithm::ring, c_bytes / topo.nodes, "reduce-scatter C rows");
      tl.collective(all, Collective::all_gather, CollectiveAlgorithm::ring, c_bytes, "all-gather C");
      return;
    case Strategy::pipeline:
      break;
  }
  throw std::invalid_argument("pipeline needs layers to make stages of: use the mlp workload, not one multiply");
}

void check_config(const ClusterConfig& c, const Topology& topo) {
  const std::string n = std::to_string(c.gpus);
  if (c.workload == Workload::gemm) {
    require(c.gemm.m >= 1 && c.gemm.n >= 1 && c.gemm.k >= 1, "the multiply's m, n and k must be at least 1");
    if (c.strategy == Strategy::data) require(c.gemm.m % c.gpus == 0, "data split: m must divide by the " + n + " GPUs");
    if (c.strategy == Strategy::tensor) require(c.gemm.k % c.gpus == 0, "tensor split: k must divide by the " + n + " GPUs");
    if (c.strategy == Strategy::hybrid)
      require(c.gemm.m % topo.nodes == 0 && c.gemm.k % topo.per_node == 0,
              "hybrid split: m must divide by the nodes and k by the GPUs per node");
    return;
  }
  const MlpShape& s = c.mlp;
  require(s.batch >= 1 && s.width >= 1 && s.hidden >= 1, "batch, width and hidden must be at least 1");
  require(s.layers >= 1 && s.layers <= 256, "layers must be 1..256");
  switch (c.strategy) {
    case Strategy::data:
      require(s.batch % c.gpus == 0, "data split: the batch (" + std::to_string(s.batch) + ") must divide by the " + n + " GPUs");
      break;
    case Strategy::tensor:
      require(s.layers % 2 == 0, "tensor split pairs a column-split layer with a row-split one: layers must be even");
      require(s.hidden % c.gpus == 0, "tensor split: hidden (" + std::to_string(s.hidden) + ") must divide by the " + n + " GPUs");
      break;
    case Strategy::pipeline:
      require(s.layers % c.gpus == 0, "pipeline: the " + std::to_string(s.layers) + " layers must divide into " + n +
                                          " stages (one stage a GPU; give --layers a multiple of the GPUs)");
      require(c.micro_batches >= 1 && c.micro_batches <= 1024, "micro-batches must be 1..1024");
      require(s.batch % c.micro_batches == 0, "pipeline: the batch must divide into the " +
                                                  std::to_string(c.micro_batches) + " micro-batches");
      break;
    case Strategy::hybrid:
      require(s.layers % 2 == 0, "hybrid uses the tensor split inside a node: layers must be even");
      require(s.hidden % topo.per_node == 0, "hybrid: hidden must divide by the " + std::to_string(topo.per_node) + " GPUs per node");
      require(s.batch % topo.nodes == 0, "hybrid: the batch must divide by the " + std::to_string(topo.nodes) + " nodes");
      break;
  }
}

}  // namespace

double MlpShape::weights() const {
  double w = 0;
  for (int l = 0; l < layers; ++l) w += static_cast<double>(in(l)) * out(l);
  return w;
}

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::data: return "data";
    case Strategy::tensor: return "tensor";
    case Strategy::pipeline: return "pipeline";
    case Strategy::hybrid: return "hybrid";
  }
  return "?";
}
std::vector<std::string> strategy_names() { return {"data", "tensor", "pipeline", "hybrid"}; }
std::optional<Strategy> parse_strategy(std::string_view name) {
  const std::string n = detail::ascii_lower(name);
  for (Strategy s : {Strategy::data, Strategy::tensor, Strategy::pipeline, Strategy::hybrid})
    if (n == to_string(s)) return s;
  return std::nullopt;
}

const char* to_string(PipelineSchedule s) { return s == PipelineSchedule::gpipe ? "gpipe" : "1f1b"; }
std::vector<std::string> schedule_names() { return {"1f1b", "gpipe"}; }
std::optional<PipelineSchedule> parse_schedule(std::string_view name) {
  const std::string n = detail::ascii_lower(name);
  if (n == "gpipe") return PipelineSchedule::gpipe;
  if (n == "1f1b") return PipelineSchedule::one_f_one_b;
  return std::nullopt;
}

const char* to_string(Workload w) { return w == Workload::mlp ? "mlp" : "gemm"; }
std::vector<std::string> workload_names() { return {"mlp", "gemm"}; }
std::optional<Workload> parse_workload(std::string_view name) {
  const std::string n = detail::ascii_lower(name);
  if (n == "mlp") return Workload::mlp;
  if (n == "gemm") return Workload::gemm;
  return std::nullopt;
}

const char* to_string(ActivityKind k) {
  switch (k) {
    case ActivityKind::compute: return "compute";
    case ActivityKind::collective: return "collective";
    case ActivityKind::send: return "send";
    case ActivityKind::receive: return "receive";
    case ActivityKind::idle: return "idle";
  }
  return "?";
}

double roofline_peak_gflops(const GpuPreset& gpu) {
  const TensorFormat* t = gpu.tensor_headline();
  return t != nullptr ? gpu.tensor_peak_gflops(*t) : gpu.peak_gflops();
}

int element_bytes(const GpuPreset& gpu) { return gpu.tensor_headline() != nullptr ? 2 : 4; }

double roofline_seconds(const GpuPreset& gpu, double m, double n, double k) {
  const double flops = 2 * m * n * k;
  const double bytes = element_bytes(gpu) * (m * k + k * n + m * n);
  return std::max(flops / (roofline_peak_gflops(gpu) * 1e9), bytes / (gpu.memory_bandwidth_gbs * 1e9));
}

ClusterConfig validate_cluster(const ClusterConfig& config) {
  ClusterConfig c = config;
  require(c.gpus >= 1 && c.gpus <= 64, "gpus must be 1..64, got " + std::to_string(c.gpus));
  if (c.nodes == 0) c.nodes = (c.gpus + 7) / 8;
  require(c.nodes >= 1 && c.gpus % c.nodes == 0 && c.gpus / c.nodes <= 8,
          "nodes must divide the " + std::to_string(c.gpus) + " GPUs into nodes of at most 8, got " + std::to_string(c.nodes));
  check_config(c, Topology{c.gpus, c.nodes, c.gpus / c.nodes});
  return c;
}

ClusterResult simulate_cluster(const GpuPreset& gpu, const ClusterConfig& config) {
  ClusterResult r;
  r.config = validate_cluster(config);
  ClusterConfig& c = r.config;
  require(!gpu.interconnect.link.empty(), "preset '" + gpu.id + "' has no [interconnect] table: no links to model");
  const Topology topo{c.gpus, c.nodes, c.gpus / c.nodes};

  r.preset = gpu.id;
  r.gpus_per_node = topo.per_node;
  r.intra = find_link(c.intra_link.empty() ? gpu.interconnect.link : c.intra_link);
  r.network = find_link(c.network.empty() ? gpu.interconnect.network : c.network);
  require(r.intra.kind != LinkKind::network, "the link inside a node must be NVLink or PCIe, not '" + r.intra.id + "'");
  require(r.network.kind == LinkKind::network, "the network between nodes must be a NIC, not '" + r.network.id + "'");
  c.intra_link = r.intra.id;
  c.network = r.network.id;
  r.element_bytes = element_bytes(gpu);
  r.peak_gflops = roofline_peak_gflops(gpu);
  const ComputeModel cm{gpu, c.achieved_gflops};
  char text[512];
  if (c.achieved_gflops > 0) {
    std::snprintf(text, sizeof text, "the single-GPU model's achieved rate, %.0f GFLOP/s for every multiply (%s)",
                  c.achieved_gflops, c.compute_source.empty() ? "source not given" : c.compute_source.c_str());
  } else {
    const std::string peak_name =
        gpu.tensor_headline() != nullptr ? "dense " + gpu.tensor_headline_format() + " tensor-core" : "FP32";
    std::snprintf(text, sizeof text,
                  "roofline: each multiply takes max(2mnk / %.0f GFLOP/s %s peak, A+B+C at %d bytes an element / "
                  "%.0f GB/s DRAM); no launch overhead, communication does not overlap compute",
                  r.peak_gflops, peak_name.c_str(), r.element_bytes, gpu.memory_bandwidth_gbs);
  }
  r.compute_model = text;

  // The same step on one GPU: the baseline of the speed-up.
  if (c.workload == Workload::gemm) {
    r.flops = 2.0 * c.gemm.m * c.gemm.n * c.gemm.k;
    r.single_gpu_s = cm.gemm(c.gemm.m, c.gemm.n, c.gemm.k);
  } else {
    for (int l = 0; l < c.mlp.layers; ++l) {
      r.flops += 6.0 * c.mlp.batch * c.mlp.in(l) * c.mlp.out(l);
      r.single_gpu_s += cm.forward(c.mlp.batch, c.mlp.in(l), c.mlp.out(l)) + cm.backward(c.mlp.batch, c.mlp.in(l), c.mlp.out(l));
    }
  }

  Timeline tl(topo, r.intra, r.network, c.ideal_links);
  if (c.workload == Workload::gemm) {
    gemm_strategy(tl, cm, topo, c.strategy, c.gemm, c.algorithm, r.element_bytes);
  } else {
    switch (c.strategy) {
      case Strategy::data: data_mlp(tl, cm, c.gpus, c.mlp, c.algorithm, r.element_bytes); break;
      case Strategy::tensor:
        tensor_mlp(tl, cm, range_group(0, c.gpus), c.mlp, c.mlp.batch, c.algorithm, r.element_bytes);
        break;
      case Strategy::pipeline:
        pipeline_mlp(tl, cm, c.gpus, c.micro_batches, c.schedule, c.mlp, r.element_bytes);
        r.bubble_formula = static_cast<double>(c.gpus - 1) / (c.micro_batches + c.gpus - 1);
        break;
      case Strategy::hybrid: hybrid_mlp(tl, cm, topo, c.mlp, c.algorithm, r.element_bytes); break;
    }
  }
  tl.finish(r);
  r.speedup = r.total_s > 0 ? r.single_gpu_s / r.total_s : 0;
  r.efficiency = r.speedup / c.gpus;
  return r;
}

}  // namespace ws::sim
