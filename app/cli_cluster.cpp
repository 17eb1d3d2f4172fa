// `warpscope cluster`: a training step (or one multiply) split over simulated GPUs, with its time,
// each GPU's busy share, the bytes on every link, the speed-up against one GPU, and the split
// computed for real on this CPU against one device. Exit codes: 0 ok, 1 the split's numbers do not
// match, 2 bad input (unknown names list the valid ones).
#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_commands.hpp"
#include "core/counted.hpp"
#include "link_json.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/sim/cluster.hpp"
#include "warpscope/sim/cluster_check.hpp"
#include "warpscope/sim/links.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {
namespace {

using nlohmann::json;

struct ClusterArgs {
  std::string preset = "h100", strategy = "data", schedule = "1f1b", workload = "mlp", algorithm = "ring";
  std::string link, network, compute = "roofline";
  int gpus = 8, nodes = 0, micro_batches = 8;
  int size = 0, batch = 0, width = 0, hidden = 0, layers = 0, m = 0, n = 0, k = 0;
  bool ideal_links = false, json = false, timeline = false, no_check = false;
  bool real = false;     // also split one real multiply over this machine's CUDA GPUs (cuda-multi)
  int real_size = 8192;  // its M = N = K
};

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

template <class T>
T parsed(std::optional<T> value, const char* what, const std::string& given, const std::vector<std::string>& valid) {
  if (!value) throw BadInput(fmt::format("unknown {} '{}'; valid: {}", what, given, joined(valid)));
  return *value;
}

sim::ClusterConfig config_from(const ClusterArgs& a, const sim::GpuPreset& gpu) {
  sim::ClusterConfig c;
  c.gpus = a.gpus;
  c.nodes = a.nodes;
  c.strategy = parsed(sim::parse_strategy(a.strategy), "strategy", a.strategy, sim::strategy_names());
  c.schedule = parsed(sim::parse_schedule(a.schedule), "schedule", a.schedule, sim::schedule_names());
  c.workload = parsed(sim::parse_workload(a.workload), "workload", a.workload, sim::workload_names());
  c.algorithm = a.algorithm == "ring"   ? sim::CollectiveAlgorithm::ring
                : a.algorithm == "tree" ? sim::CollectiveAlgorithm::tree
                                        : throw BadInput("unknown algorithm '" + a.algorithm + "'; valid: ring, tree");
  c.micro_batches = a.micro_batches;
  c.intra_link = a.link;
  c.network = a.network;
  c.ideal_links = a.ideal_links;
  if (a.size > 0) {
    c.mlp.batch = c.mlp.width = a.size;
    c.mlp.hidden = 4 * a.size;
    c.gemm = {a.size, a.size, a.size};
  }
  if (a.batch > 0) c.mlp.batch = a.batch;
  if (a.width > 0) c.mlp.width = a.width;
  if (a.hidden > 0) c.mlp.hidden = a.hidden;
  // A pipeline needs a layer (at least) per stage: one stage a GPU unless --layers says more.
  c.mlp.layers = a.layers > 0 ? a.layers : (c.strategy == sim::Strategy::pipeline ? std::max(2, a.gpus) : 2);
  if (a.m > 0) c.gemm.m = a.m;
  if (a.n > 0) c.gemm.n = a.n;
  if (a.k > 0) c.gemm.k = a.k;
  if (a.compute == "simulated") {
    // The cycle simulator's achieved rate with the kernel training would use (the tensor-core
    // model where the preset has BF16 tensor cores, else the tiled FP32 kernel), on the largest
    // cube of 1024, 512 or 256 it estimates under 30 s of simulating: small launches leave SMs
    // idle, so the rate is a floor for the big shards of a cluster.
    sim::SimConfig s;
    s.kernel = gpu.tensor.bf16.supported() ? sim::Kernel::tensor : sim::Kernel::tiled;
    s.checkpoints = false;
    s.cpu_cores = 1;
    for (int side : {1024, 512, 256}) {
      s.shape = {side, side, side};
      if (sim::estimate(gpu, s).seconds < 30) break;
    }
    sim::Simulation run(gpu, sim::find_cpu("i7-3960x"), s);
    c.achieved_gflops = run.summary().gflops;
    c.compute_source = fmt::format("the cycle simulator's {} kernel on {}^3, simulated here; a floor for bigger shards",
                                   sim::to_string(s.kernel), s.shape.m);
  } else if (a.compute != "roofline") {
    throw BadInput("unknown compute model '" + a.compute + "'; valid: roofline, simulated");
  }
  return c;
}

std::string bytes_text(double b) {
  if (b >= 1e9) return fmt::format("{:.2f} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.1f} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.1f} kB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

std::string time_text(double s) {
  if (s >= 1) return fmt::format("{:.3f} s", s);
  if (s >= 1e-3) return fmt::format("{:.3f} ms", s * 1e3);
  if (s >= 1e-6) return fmt::format("{:.1f} us", s * 1e6);
  return fmt::format("{:.1f} ns", s * 1e9);
}

std::string workload_text(const sim::ClusterConfig& c, int element_bytes) {
  const char* fmt_name = element_bytes == 2 ? "BF16" : "FP32";
  if (c.workload == sim::Workload::gemm)
    return fmt::format("one multiply C = A*B, {}x{}x{}, {}", c.gemm.m, c.gemm.n, c.gemm.k, fmt_name);
  return fmt::format("MLP training step (forward + backward), batch {}, width {}, hidden {}, {}, {}", c.mlp.batch,
                     c.mlp.width, c.mlp.hidden, counted(c.mlp.layers, "layer", "layers"), fmt_name);
}

json check_json(const sim::ClusterCheck& k) {
  json q = json::array();
  for (const auto& x : k.quantities)
    q.push_back({{"name", x.name},
                 {"exact_expected", x.exact_expected},
                 {"bit_exact", x.bit_exact},
                 {"max_abs_diff", x.max_abs_diff},
                 {"max_abs_value", x.max_abs_value},
                 {"ok", x.ok}});
  const auto& c = k.checked;
  json sizes = c.workload == sim::Workload::gemm
                   ? json{{"m", c.gemm.m}, {"n", c.gemm.n}, {"k", c.gemm.k}}
                   : json{{"batch", c.mlp.batch}, {"width", c.mlp.width}, {"hidden", c.mlp.hidden}, {"layers", c.mlp.layers}};
  return {{"ok", k.ok},
          {"computed", "measured here: the split's real fp32 arithmetic on this CPU"},
          {"tolerance", k.tolerance},
          {"reduced_size", k.reduced},
          {"sizes", sizes},
          {"quantities", q}};
}

json result_json(const sim::ClusterResult& r, const sim::ClusterCheck* check, bool timeline) {
  const auto& c = r.config;
  json per_gpu = json::array();
  for (std::size_t g = 0; g < r.per_gpu.size(); ++g) {
    const auto& t = r.per_gpu[g];
    per_gpu.push_back({{"gpu", g},
                       {"busy_fraction", t.busy_fraction},
                       {"compute_s", t.compute_s},
                       {"collective_s", t.collective_s},
                       {"idle_s", t.idle_s},
                       {"send_s", t.send_s},
                       {"receive_s", t.receive_s},
                       {"bytes_sent", t.bytes_sent},
                       {"bytes_received", t.bytes_received}});
  }
  json links = json::array();
  for (const auto& l : r.links)
    links.push_back({{"from", l.from}, {"to", l.to}, {"link", l.link}, {"kind", sim::to_string(l.kind)}, {"bytes", l.bytes}});
  json sizes = c.workload == sim::Workload::gemm
                   ? json{{"m", c.gemm.m}, {"n", c.gemm.n}, {"k", c.gemm.k}}
                   : json{{"batch", c.mlp.batch}, {"width", c.mlp.width}, {"hidden", c.mlp.hidden}, {"layers", c.mlp.layers}};
  json j{{"numbers", "simulated: a model of the preset, not measured"},
         {"preset", r.preset},
         {"gpus", c.gpus},
         {"nodes", c.nodes},
         {"gpus_per_node", r.gpus_per_node},
         {"strategy", sim::to_string(c.strategy)},
         {"workload", sim::to_string(c.workload)},
         {"sizes", sizes},
         {"element_bytes", r.element_bytes},
         {"algorithm", sim::to_string(c.algorithm)},
         {"intra_node_link", link_json(r.intra)},
         {"network", link_json(r.network)},
         {"ideal_links", c.ideal_links},
         {"compute_model", r.compute_model},
         {"peak_gflops", r.peak_gflops},
         {"flops", r.flops},
         {"single_gpu_s", r.single_gpu_s},
         {"total_s", r.total_s},
         {"speedup", r.speedup},
         {"efficiency", r.efficiency},
         {"collective_fraction", r.collective_fraction},
         {"idle_fraction", r.idle_fraction},
         {"bytes_moved", r.bytes_moved},
         {"per_gpu", per_gpu},
         {"links", links}};
  if (c.strategy == sim::Strategy::pipeline) {
    j["schedule"] = sim::to_string(c.schedule);
    j["micro_batches"] = c.micro_batches;
    j["bubble_formula"] = r.bubble_formula;
  }
  if (check != nullptr) j["check"] = check_json(*check);
  if (timeline) {
    json acts = json::array();
    for (const auto& a : r.activities)
      acts.push_back({{"gpu", a.gpu}, {"start_s", a.start_s}, {"end_s", a.end_s}, {"kind", sim::to_string(a.kind)},
                      {"label", a.label}, {"bytes", a.bytes}});
    j["activities"] = acts;
  }
  return j;
}

// One text row per GPU: what its lane does in each of `width` slices of the step ('#' compute,
// '~' collective, '.' idle: the kind that fills most of the slice).
void print_gantt(const sim::ClusterResult& r, int width) {
  fmt::print("timeline ({} a column; # compute, ~ collective, . idle):\n", time_text(r.total_s / width));
  const int shown = std::min(r.config.gpus, 16);
  for (int g = 0; g < shown; ++g) {
    std::vector<std::array<double, 3>> fill(static_cast<std::size_t>(width), {0, 0, 0});
    for (const auto& a : r.activities) {
      if (a.gpu != g || a.kind == sim::ActivityKind::send || a.kind == sim::ActivityKind::receive) continue;
      const int kind = a.kind == sim::ActivityKind::compute ? 0 : a.kind == sim::ActivityKind::collective ? 1 : 2;
      for (int col = 0; col < width; ++col) {
        const double lo = r.total_s * col / width, hi = r.total_s * (col + 1) / width;
        const double overlap = std::min(hi, a.end_s) - std::max(lo, a.start_s);
        if (overlap > 0) fill[static_cast<std::size_t>(col)][static_cast<std::size_t>(kind)] += overlap;
      }
    }
    std::string row;
    for (const auto& f : fill) {
      const auto most = std::max_element(f.begin(), f.end()) - f.begin();
      row += "#~."[most];
    }
    fmt::print("  GPU {:>2} |{}|\n", g, row);
  }
  if (shown < r.config.gpus) fmt::print("  ({} more GPUs in --json --timeline)\n", r.config.gpus - shown);
}

void print_text(const sim::ClusterResult& r, const sim::ClusterCheck* check, const sim::GpuPreset& gpu, bool timeline) {
  const auto& c = r.config;
  fmt::print("{} parallelism on {} x {} (simulated), {} node{} of {}\n", sim::to_string(c.strategy), c.gpus, gpu.name,
             c.nodes, c.nodes == 1 ? "" : "s", r.gpus_per_node);
  fmt::print("  inside a node: {} ({:.0f} GB/s each way, {:.1f} us a step); between nodes: {} ({:.1f} GB/s, {:.1f} us){}\n",
             r.intra.name, r.intra.per_direction_gbs(), r.intra.latency_us, r.network.name, r.network.per_direction_gbs(),
             r.network.latency_us, c.ideal_links ? "; --ideal-links: they cost nothing" : "");
  fmt::print("  workload: {}\n", workload_text(c, r.element_bytes));
  if (c.strategy == sim::Strategy::pipeline)
    fmt::print("  pipeline: {}, {}, {} schedule\n", counted(c.gpus, "stage", "stages"),
               counted(c.micro_batches, "micro-batch", "micro-batches"), sim::to_string(c.schedule));
  fmt::print("  collectives: {}\n", sim::to_string(c.algorithm));
  fmt::print("  compute: {}\n", r.compute_model);
  fmt::print("one GPU:  {}\n", time_text(r.single_gpu_s));
  fmt::print("{}: {} -> {:.2f}x faster, {:.1f} % efficiency; {:.1f} % of the time in collectives, {:.1f} % idle\n",
             counted(c.gpus, "GPU", "GPUs"), time_text(r.total_s), r.speedup, 100 * r.efficiency,
             100 * r.collective_fraction, 100 * r.idle_fraction);
  if (c.strategy == sim::Strategy::pipeline)
    fmt::print("  bubble: {:.1f} % idle here; (S-1)/(M+S-1) = {:.1f} % with free links and equal stages\n",
               100 * r.idle_fraction, 100 * r.bubble_formula);
  fmt::print("  GPU   busy  collective   idle        sent    received\n");
  const int shown = std::min(c.gpus, 16);
  for (int g = 0; g < shown; ++g) {
    const auto& t = r.per_gpu[static_cast<std::size_t>(g)];
    fmt::print("  {:>3} {:>5.1f} % {:>9.1f} % {:>5.1f} % {:>11} {:>11}\n", g, 100 * t.busy_fraction,
               100 * t.collective_s / r.total_s, 100 * t.idle_s / r.total_s, bytes_text(t.bytes_sent),
               bytes_text(t.bytes_received));
  }
  if (shown < c.gpus) fmt::print("  ({} more GPUs in --json)\n", c.gpus - shown);
  fmt::print("links ({} moved in all):\n", bytes_text(r.bytes_moved));
  int printed = 0;
  for (const auto& l : r.links) {
    if (printed++ == 16) {
      fmt::print("  ({} more in --json)\n", r.links.size() - 16);
      break;
    }
    fmt::print("  {:>2} -> {:<2} {:<8} {:>11}\n", l.from, l.to, l.link, bytes_text(l.bytes));
  }
  if (timeline) print_gantt(r, 64);
  if (check != nullptr) {
    const auto& k = *check;
    // Each result by name; with many layers the weight gradients as one summary.
    std::string list;
    int grads = 0, grads_exact = 0;
    double worst = 0;
    for (const auto& q : k.quantities) {
      if (k.quantities.size() > 6 && q.name.rfind("dW", 0) == 0) {
        ++grads;
        grads_exact += q.bit_exact ? 1 : 0;
        if (q.max_abs_value > 0) worst = std::max(worst, q.max_abs_diff / q.max_abs_value);
        continue;
      }
      list += fmt::format("{}{} {}", list.empty() ? "" : ", ", q.name,
                          q.bit_exact ? "bit-exact" : fmt::format("off by {:.1e} of {:.2g}", q.max_abs_diff, q.max_abs_value));
    }
    if (grads > 0)
      list += fmt::format(", {} weight gradients: {} bit-exact, the others off by at most {:.1e} of their largest value",
                          grads, grads_exact, worst);
    fmt::print("check (measured here: the split computed for real on this CPU{}): {}\n  {}\n",
               k.reduced ? ", at smaller sizes with the same GPUs and split" : "",
               k.ok ? "matches one device" : "DOES NOT match one device", list);
    fmt::print("  sums that cross GPUs must agree to {:.0e} of the largest value, the rest bit for bit\n", k.tolerance);
  }
  fmt::print("Times are simulated (a model of the preset's datasheet figures), not measured.\n");
}

// The real column split (issue 15 item 5) beside the simulation: cuda-multi over every CUDA GPU
// here and cublas on one of them, the same problem, verified like every job. Measured here.
struct RealSplit {
  std::optional<std::string> unavailable;
  kernels::JobResult multi, single;
};

RealSplit run_real_split(int size) {
  RealSplit out;
  out.unavailable = kernels::unavailable_reason("cuda-multi");
  if (out.unavailable) return out;
  const kernels::Shape shape{size, size, size};
  kernels::JobControl control;
  out.multi = kernels::run_job({"cuda-multi", shape, 0, 3}, control);
  out.single = kernels::run_job({"cublas", shape, 0, 3}, control);
  return out;
}

bool real_ok(const kernels::JobResult& r) { return !r.skipped && !r.failed && !r.cancelled && r.verified; }

nlohmann::json real_json(const kernels::JobResult& r) {
  nlohmann::json j{{"kernel", r.kernel}, {"verified", r.verified}, {"ms_median", r.ms_median},
                   {"gflops", r.gflops}, {"max_rel_error", r.max_rel_error}, {"detail", r.detail}};
  if (r.transfer_ms) j["transfer_ms"] = *r.transfer_ms;
  if (r.skipped) j["skipped"] = *r.skipped;
  if (r.failed) j["failed"] = *r.failed;
  return j;
}

nlohmann::json real_split_json(const RealSplit& s, int size) {
  if (s.unavailable) return {{"available", false}, {"reason", *s.unavailable}};
  nlohmann::json j{{"available", true}, {"numbers", "measured here"}, {"size", size},
                   {"multi", real_json(s.multi)}, {"single", real_json(s.single)}};
  if (real_ok(s.multi) && real_ok(s.single)) j["speedup"] = s.single.ms_median / s.multi.ms_median;
  return j;
}

void print_real_split(const RealSplit& s, int size) {
  if (s.unavailable) {
    fmt::print("real split: {}\n", *s.unavailable);
    return;
  }
  fmt::print("real split (measured here, {0} x {0} x {0} fp32, B's columns split, median of 3):\n", size);
  for (const auto* r : {&s.multi, &s.single}) {
    if (r->skipped || r->failed) {
      fmt::print("  {:<11} {}\n", r->kernel, r->skipped ? *r->skipped : *r->failed);
      continue;
    }
    fmt::print("  {:<11} {:>9.3f} ms {:>9.0f} GFLOP/s  {}  ({})\n", r->kernel, r->ms_median, r->gflops,
               r->verified ? "verified" : "NOT VERIFIED", r->detail);
  }
  if (real_ok(s.multi) && real_ok(s.single))
    fmt::print("  {:.2f}x faster than one GPU (compute only; copies apart)\n", s.single.ms_median / s.multi.ms_median);
}

void run_cluster(const ClusterArgs& a, int& exit_code) {
  try {
    const sim::GpuPreset& gpu = sim::find_gpu(a.preset);
    const sim::ClusterConfig config = config_from(a, gpu);
    const sim::ClusterResult r = sim::simulate_cluster(gpu, config);
    std::optional<sim::ClusterCheck> check;
    if (!a.no_check) check = sim::check_cluster(r.config);
    std::optional<RealSplit> real;
    if (a.real) real = run_real_split(a.real_size);
    if (a.json) {
      auto j = result_json(r, check ? &*check : nullptr, a.timeline);
      if (real) j["real"] = real_split_json(*real, a.real_size);
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      print_text(r, check ? &*check : nullptr, gpu, a.timeline);
      if (real) print_real_split(*real, a.real_size);
    }
    if (check && !check->ok) exit_code = 1;
    // No GPUs to split over is said, not an error; a split that ran and failed or mismatched is.
    if (real && !real->unavailable && !(real_ok(real->multi) && real_ok(real->single))) exit_code = 1;
  } catch (const BadInput& e) {
    std::fprintf(stderr, "warpscope: %s\n", e.what());
    exit_code = 2;
  } catch (const sim::UnknownPreset& e) {
    std::fprintf(stderr, "warpscope: %s\n", e.what());
    exit_code = 2;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "warpscope: %s\n", e.what());
    exit_code = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warpscope: %s\n", e.what());
    exit_code = 1;
  }
}

}  // namespace

void add_cluster_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "cluster", "Split a training step (or one multiply) over simulated GPUs: data, tensor, pipeline or hybrid "
                 "parallelism, with the time, each GPU's busy share, the bytes on each link and the speed-up");
  auto a = std::make_shared<ClusterArgs>();
  cmd->add_option("--preset", a->preset, "GPU preset id (default h100; see `warpscope presets`)");
  cmd->add_option("--gpus", a->gpus, "GPUs, 1..64 (default 8)")->check(CLI::Range(1, 64));
  cmd->add_option("--nodes", a->nodes, "Nodes they are in, at most 8 GPUs each (default: as few as hold them)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--strategy", a->strategy, "data, tensor, pipeline or hybrid (tensor inside a node, data across)");
  cmd->add_option("--schedule", a->schedule, "Pipeline schedule: 1f1b (default) or gpipe");
  cmd->add_option("--micro-batches", a->micro_batches, "Pipeline micro-batches (default 8)")->check(CLI::Range(1, 1024));
  cmd->add_option("--workload", a->workload, "mlp (a training step, default) or gemm (one C = A*B)");
  cmd->add_option("--size", a->size, "mlp: batch = width = SIZE, hidden = 4 x SIZE; gemm: M = N = K = SIZE")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--batch", a->batch, "MLP batch rows (default 8192)")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--width", a->width, "MLP width, the model dimension (default 4096)")->check(CLI::Range(1, 65536));
  cmd->add_option("--hidden", a->hidden, "MLP hidden width (default 16384)")->check(CLI::Range(1, 262144));
  cmd->add_option("--layers", a->layers, "MLP layers (default 2; pipeline: one a GPU)")->check(CLI::Range(1, 256));
  cmd->add_option("--m", a->m, "gemm M")->check(CLI::Range(1, 65536));
  cmd->add_option("--n", a->n, "gemm N")->check(CLI::Range(1, 65536));
  cmd->add_option("--k", a->k, "gemm K")->check(CLI::Range(1, 65536));
  cmd->add_option("--link", a->link, "Link inside a node, a links.toml id (default: the preset's NVLink or PCIe)");
  cmd->add_option("--network", a->network, "Network between nodes, a links.toml id (default: the preset's NIC)");
  cmd->add_option("--algorithm", a->algorithm, "Collective algorithm: ring (default) or tree");
  cmd->add_option("--compute", a->compute,
                  "Compute time of each multiply: roofline (default) or simulated (the cycle simulator's achieved rate "
                  "on a 256^3 multiply)");
  cmd->add_flag("--ideal-links", a->ideal_links, "Links that cost nothing (the bubble formula's assumption)");
  cmd->add_flag("--timeline", a->timeline, "Print each GPU's timeline (with --json: every interval)");
  cmd->add_flag("--no-check", a->no_check, "Skip computing the split for real on this CPU");
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_flag("--real", a->real,
                "Also split one real fp32 multiply by columns over this machine's CUDA GPUs (cuda-multi, 2 or more) "
                "and time it beside cublas on one; says so when there are fewer");
  cmd->add_option("--real-size", a->real_size, "M = N = K of the real split (default 8192)")->check(CLI::Range(64, 32768));
  cmd->callback([a, &exit_code] { run_cluster(*a, exit_code); });
}

}  // namespace ws::app
