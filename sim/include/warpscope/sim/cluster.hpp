// Beyond one GPU: a training step (or one big C = A*B) split over 1-64 simulated GPUs of a preset,
// in nodes of up to 8 joined by a network, by data, tensor, pipeline or hybrid parallelism.
// Every GPU's compute, collective, send/receive and idle time lies on one clock. docs/CLUSTER.md
// gives the model, its formulas and their sources; cluster_check.hpp computes the real numbers.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/sim/collectives.hpp"
#include "warpscope/sim/links.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::sim {

enum class Strategy { data, tensor, pipeline, hybrid };
const char* to_string(Strategy s);
std::optional<Strategy> parse_strategy(std::string_view name);
std::vector<std::string> strategy_names();

enum class PipelineSchedule { gpipe, one_f_one_b };
const char* to_string(PipelineSchedule s);
std::optional<PipelineSchedule> parse_schedule(std::string_view name);
std::vector<std::string> schedule_names();

enum class Workload { mlp, gemm };
const char* to_string(Workload w);
std::optional<Workload> parse_workload(std::string_view name);
std::vector<std::string> workload_names();

// A transformer-style MLP: X (batch x width) through `layers` layers that alternate width -> hidden
// and hidden -> width, GELU between them, loss 0.5 |Y - T|^2. One training step is the forward
// pass and the backward pass (weight gradients and each layer's input gradient, the first layer's
// too, as for a block inside a larger model).
struct MlpShape {
  int batch = 8192, width = 4096, hidden = 16384, layers = 2;
  int in(int layer) const { return layer % 2 == 0 ? width : hidden; }
  int out(int layer) const { return layer % 2 == 0 ? hidden : width; }
  double weights() const;  // elements of all the layers' weights
};

struct GemmShape {
  int m = 8192, n = 8192, k = 8192;
};

struct ClusterConfig {
  int gpus = 8;                 // 1..64
  int nodes = 0;                // 0: as few as hold the GPUs, 8 a node
  Strategy strategy = Strategy::data;
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  int micro_batches = 8;        // pipeline only
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::ring;
  Workload workload = Workload::mlp;
  MlpShape mlp;
  GemmShape gemm;
  std::string intra_link;       // a links.toml id of kind nvlink or pcie; "": the preset's link
  std::string network;          // a links.toml id of kind network; "": the preset's
  bool ideal_links = false;     // links that cost nothing: the assumption of the bubble formula
  // The compute rate: 0 takes the roofline of each matrix multiply; above 0, the single-GPU model's
  // achieved GFLOP/s for every multiply (compute_source says where it comes from).
  double achieved_gflops = 0;
  std::string compute_source;
};

enum class ActivityKind { compute, collective, send, receive, idle };
const char* to_string(ActivityKind k);

// One interval of one GPU. compute, collective and idle tile [0, total] on the GPU's own lane;
// send and receive are point-to-point copies the copy engines run beside the compute.
struct Activity {
  int gpu = 0;
  double start_s = 0, end_s = 0;
  ActivityKind kind = ActivityKind::idle;
  std::string label;      // "forward L1 mb3", "all-reduce gradients"
  double bytes = 0;       // what this GPU sent (collective, send) or received (receive)
};

// One direction of one GPU pair that carried bytes.
struct LinkUse {
  int from = 0, to = 0;
  std::string link;       // the LinkSpec id
  LinkKind kind = LinkKind::nvlink;
  double bytes = 0;
};

struct GpuTotals {
  double compute_s = 0, collective_s = 0, idle_s = 0, send_s = 0, receive_s = 0;
  double bytes_sent = 0, bytes_received = 0;
  double busy_fraction = 0;  // compute_s / total
};

struct ClusterResult {
  ClusterConfig config;      // with nodes resolved
  std::string preset;        // the GPU preset's id
  int gpus_per_node = 0;
  LinkSpec intra, network;   // the links used (ideal_links: zeroed latency, infinite bandwidth)
  // How compute time is computed, in words: "roofline: ...", or the achieved rate and its source.
  std::string compute_model;
  double peak_gflops = 0;    // the roofline's ceiling (BF16 tensor, or FP32 without tensor cores)
  int element_bytes = 0;     // 2 (BF16) with tensor cores, 4 (FP32) without
  double flops = 0;          // of the whole step, the same on one GPU and on all of them
  double single_gpu_s = 0;   // the whole step on one GPU of the preset, same compute model
  double total_s = 0;        // on the cluster
  double speedup = 0;        // single_gpu_s / total_s
  double efficiency = 0;     // speedup / gpus
  double collective_fraction = 0;  // mean over GPUs of collective time / total
  double idle_fraction = 0;        // mean over GPUs of idle time / total (the pipeline's bubble)
  double bubble_formula = 0;       // pipeline: (S-1)/(M+S-1); else 0
  double bytes_moved = 0;          // over every link, both directions
  std::vector<Activity> activities;  // sorted by GPU, then start
  std::vector<GpuTotals> per_gpu;
  std::vector<LinkUse> links;        // sorted by (from, to)
};

// The configuration with nodes resolved; throws std::invalid_argument (saying why) for one the
// strategy cannot split: GPUs outside 1..64, nodes that do not divide them into nodes of at most 8,
// sizes that do not divide by the shards.
ClusterConfig validate_cluster(const ClusterConfig& config);

// Throws std::invalid_argument for a configuration the strategy cannot split (the message says
// why) and UnknownPreset for an unknown link id; the preset needs an [interconnect] table.
ClusterResult simulate_cluster(const GpuPreset& gpu, const ClusterConfig& config);

// The roofline time of one m x n x k multiply on the preset: max(2mnk / peak, bytes / DRAM bandwidth),
// the bytes being A, B and C once each at element_bytes.
double roofline_seconds(const GpuPreset& gpu, double m, double n, double k);
double roofline_peak_gflops(const GpuPreset& gpu);  // BF16/FP16 tensor headline, else FP32
int element_bytes(const GpuPreset& gpu);

}  // namespace ws::sim
