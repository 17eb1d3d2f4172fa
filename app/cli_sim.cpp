// `warpscope presets`, `warpscope occupancy` and `warpscope simulate`: the simulator without a window.
#include <algorithm>
#include <chrono>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_commands.hpp"
#include "core/counted.hpp"
#include "link_json.hpp"
#include "warpscope/sim/links.hpp"
#include "warpscope/sim/matrices.hpp"
#include "warpscope/sim/occupancy.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {
namespace {

using nlohmann::json;

void fail(int& exit_code, int code, const std::string& message) {
  std::fprintf(stderr, "warpscope: %s\n", message.c_str());
  exit_code = code;
}

// The tensor cores as parts, each format's peak computed from them beside its datasheet figure;
// null for a GPU without tensor cores, and a format the tensor cores do not run is left out.
json tensor_json(const sim::GpuPreset& g) {
  if (!g.has_tensor_cores()) return nullptr;
  const auto& t = g.tensor;
  json formats = json::object();
  auto add = [&](const char* name, const sim::TensorFormat& f) {
    if (!f.supported()) return;
    formats[name] = {{"flops_per_clock_per_core", f.flops_per_clock_per_core},
                     {"peak_gflops", g.tensor_peak_gflops(f)},
                     {"datasheet_gflops", f.datasheet_tflops * 1000},
                     {"source", f.source}};
  };
  add("fp16", t.fp16);
  add("bf16", t.bf16);
  add("tf32", t.tf32);
  const sim::TensorFormat* headline = g.tensor_headline();
  return {{"generation", t.generation},
          {"cores_per_sm", t.cores_per_sm},
          {"cores", static_cast<long long>(t.cores_per_sm) * g.sm_count},
          {"clock_mhz", t.clock_mhz},
          {"headline_format", g.tensor_headline_format()},
          {"headline_peak_gflops", headline != nullptr ? g.tensor_peak_gflops(*headline) : 0.0},
          {"formats", formats},
          {"source", t.source}};
}

// The preset's links (links.toml) with their figures; null for a preset without [interconnect].
json interconnect_json(const sim::GpuPreset& g) {
  if (g.interconnect.link.empty()) return nullptr;
  auto link = [](const std::string& id) { return link_json(sim::find_link(id)); };
  return {{"link", link(g.interconnect.link)},
          {"pcie", link(g.interconnect.pcie)},
          {"network", link(g.interconnect.network)},
          {"source", g.interconnect.source}};
}

json gpu_json(const sim::GpuPreset& g) {
  return {{"id", g.id},
          {"name", g.name},
          {"architecture", g.architecture},
          {"year", g.year},
          {"compute_capability", g.cc_string()},
          {"sm_count", g.sm_count},
          {"fp32_lanes_per_sm", g.fp32_lanes_per_sm},
          {"warp_schedulers_per_sm", g.schedulers_per_sm},
          {"clock_mhz", g.clock_mhz},
          {"peak_fp32_gflops", g.peak_gflops()},
          {"datasheet_fp32_gflops", g.datasheet_fp32_tflops * 1000},
          {"memory_bandwidth_gbs", g.memory_bandwidth_gbs},
          {"memory_gb", g.memory_gb},
          {"l2_kb", g.l2_kb},
          {"tensor_cores", tensor_json(g)},
          {"interconnect", interconnect_json(g)},
          {"source", g.source},
          {"uncertain", g.uncertain}};
}

json cpu_json(const sim::CpuPreset& c) {
  return {{"id", c.id},
          {"name", c.name},
          {"microarchitecture", c.microarchitecture},
          {"year", c.year},
          {"cores", c.cores},
          {"threads", c.threads},
          {"base_clock_ghz", c.base_clock_ghz},
          {"simd", c.simd_isa},
          {"fp32_lanes", c.fp32_lanes},
          {"fma_units", c.fma_units},
          {"peak_fp32_gflops", c.peak_gflops()},
          {"datasheet_fp32_gflops", c.datasheet_peak_gflops_base},
          {"memory_bandwidth_gbs", c.memory_bandwidth_gbs},
          {"source", c.source},
          {"uncertain", c.uncertain}};
}

void run_presets(bool as_json, int& exit_code) {
  try {
    const auto& gpus = sim::gpu_presets();
    const auto& cpus = sim::cpu_presets();
    const auto& host = sim::this_machine_cpu();
    if (as_json) {
      json j{{"gpus", json::array()}, {"cpus", json::array()}};
      for (const auto& g : gpus) j["gpus"].push_back(gpu_json(g));
      for (const auto& c : cpus) j["cpus"].push_back(cpu_json(c));
      j["cpus"].push_back(cpu_json(host));
      std::printf("%s\n", j.dump(2).c_str());
      return;
    }
    fmt::print("GPUs{:>30}{:>6}{:>6}{:>6}{:>9}{:>12}{:>10}{:>18}\n", "", "year", "cc", "SMs", "MHz", "FP32 GF/s", "GB/s",
               "tensor GF/s");
    for (const auto& g : gpus) {
      const sim::TensorFormat* t = g.tensor_headline();
      const std::string tensor =
          t != nullptr ? fmt::format("{:.0f} {}", g.tensor_peak_gflops(*t), g.tensor_headline_format()) : "-";
      fmt::print("  {:<11} {:<22.22}{:>6}{:>6}{:>6}{:>9.0f}{:>12.0f}{:>10.0f}{:>18}\n", g.id, g.name, g.year,
                 g.cc_string(), g.sm_count, g.clock_mhz, g.peak_gflops(), g.memory_bandwidth_gbs, tensor);
    }
    fmt::print("CPUs{:>30}{:>6}{:>6}{:>6}{:>9}{:>12}{:>10}\n", "", "year", "cores", "lanes", "GHz", "FP32 GF/s", "GB/s");
    auto cpu_row = [](const sim::CpuPreset& c) {
      fmt::print("  {:<12} {:<21.21}{:>6}{:>6}{:>6}{:>9.2f}{:>12.0f}{:>10.0f}\n", c.id, c.name, c.year, c.cores,
                 c.fp32_lanes, c.base_clock_ghz, c.peak_gflops(), c.memory_bandwidth_gbs);
    };
    for (const auto& c : cpus) cpu_row(c);
    cpu_row(host);
    fmt::print("Peaks are computed from the parts (SMs x lanes x 2 x clock; cores x lanes x FMA units x 2 x clock).\n");
    fmt::print("Tensor: dense, FP32 accumulate, SMs x tensor cores per SM x FLOP per clock x tensor clock; BF16, or\n"
               "FP16 where the tensor cores have no BF16 (V100); '-': no tensor cores.\n");
  } catch (const std::exception& e) {
    fail(exit_code, 1, e.what());
  }
}

// "8.6" and nothing else: from_chars, because sscanf's %d is undefined past INT_MAX and takes
// signs and leading spaces.
bool parse_cc(const std::string& text, int& major, int& minor) {
  const char* const end = text.data() + text.size();
  const auto dot = text.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == text.size()) return false;
  const auto all_digits = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
  };
  if (!all_digits(std::string_view(text).substr(0, dot)) || !all_digits(std::string_view(text).substr(dot + 1)))
    return false;
  const auto a = std::from_chars(text.data(), text.data() + dot, major);
  const auto b = std::from_chars(text.data() + dot + 1, end, minor);
  return a.ec == std::errc() && a.ptr == text.data() + dot && b.ec == std::errc() && b.ptr == end;
}

struct OccupancyArgs {
  std::string cc, preset;
  int block_size = 0, regs = 0, smem = 0;
  bool json = false;
};

void run_occupancy(const OccupancyArgs& a, int& exit_code) {
  int major = 0, minor = 0;
  std::string device;
  try {
    if (!a.preset.empty()) {
      const auto& g = sim::find_gpu(a.preset);
      major = g.cc_major;
      minor = g.cc_minor;
      device = g.name;
    } else if (!parse_cc(a.cc, major, minor)) {
      return fail(exit_code, 2,
                  "--cc wants a compute capability like 8.6, got '" + a.cc + "'; supported: " + sim::supported_ccs_text());
    }
    const sim::CcLimits lim = sim::cc_limits(major, minor);
    const sim::OccupancyResult r = sim::compute_occupancy(lim, {a.block_size, a.regs, a.smem});
    if (a.json) {
      json j{{"active_blocks_per_sm", r.active_blocks_per_sm},
             {"active_warps_per_sm", r.active_warps_per_sm},
             {"max_warps_per_sm", r.max_warps_per_sm},
             {"occupancy", r.occupancy},
             {"limiters", r.limiters},
             {"compute_capability", fmt::format("{}.{}", major, minor)}};
      if (!r.reason.empty()) j["reason"] = r.reason;
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      fmt::print("cc {}.{}{}: {} threads/block, {} regs/thread, {} B shared/block\n", major, minor,
                 device.empty() ? "" : " (" + device + ")", a.block_size, a.regs, a.smem);
      fmt::print("  {}/SM, {} of {} warps/SM, occupancy {:.1f} %\n", counted(r.active_blocks_per_sm, "block", "blocks"),
                 r.active_warps_per_sm, r.max_warps_per_sm, 100 * r.occupancy);
      std::string lims;
      for (const auto& l : r.limiters) lims += (lims.empty() ? "" : ", ") + l;
      fmt::print("  limited by: {}\n", lims);
      if (!r.reason.empty()) fmt::print("  cannot launch: {}\n", r.reason);
    }
  } catch (const sim::UnknownPreset& e) {
    fail(exit_code, 2, e.what());
  } catch (const std::invalid_argument& e) {
    fail(exit_code, 2, e.what());
  } catch (const std::exception& e) {
    fail(exit_code, 1, e.what());
  }
}

struct SimulateArgs {
  std::string preset = "h100", cpu = "i7-3960x", kernel = "tiled";
  int size = 0, m = 0, n = 0, k = 0, block = 0, regs = 0;
  std::uint64_t seed = 42;
  bool json = false;
  int seeks = 0;  // > 0: run as the window does (progressive, checkpoints) and time this many seeks
  int threads = 0;  // 0: one per core
};

// What the window's timeline costs at this size: how soon the first cycle exists, how long the
// whole run takes behind it, the checkpoints' memory, and seeks to spread-out cycles.
json progressive_report(const sim::GpuPreset& gpu, const sim::CpuPreset& cpu, sim::SimConfig cfg, int seeks) {
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  cfg.checkpoints = true;
  cfg.progressive = true;
  cfg.cpu_cores = 0;
  const auto start = clock::now();
  sim::Simulation s(gpu, cpu, cfg);
  const double first_ms = ms_since(start);
  s.wait_until_complete();
  const double full_ms = ms_since(start);
  std::vector<double> times;
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < seeks; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const auto target = static_cast<std::int64_t>((x >> 11) % static_cast<std::uint64_t>(s.total_cycles() + 1));
    const auto t = clock::now();
    s.seek(target);
    times.push_back(ms_since(t));
  }
  std::sort(times.begin(), times.end());
  return {{"first_cycle_ms", first_ms},
          {"full_run_s", full_ms / 1000},
          {"checkpoints", s.checkpoint_count()},
          {"checkpoint_mib", static_cast<double>(s.checkpoint_bytes()) / (1 << 20)},
          {"seeks", seeks},
          {"seek_median_ms", times.empty() ? 0.0 : times[times.size() / 2]},
          {"seek_max_ms", times.empty() ? 0.0 : times.back()}};
}

void run_simulate(const SimulateArgs& a, int& exit_code) {
  try {
    const auto kernel = sim::parse_kernel(a.kernel);
    if (!kernel) {
      std::string valid;
      for (const std::string& name : sim::kernel_names()) valid += (valid.empty() ? "" : ", ") + name;
      return fail(exit_code, 2, "unknown kernel '" + a.kernel + "'; valid: " + valid);
    }
    const sim::GpuPreset& gpu = sim::find_gpu(a.preset);
    const sim::CpuPreset cpu = sim::find_cpu(a.cpu);
    sim::SimConfig cfg;
    cfg.kernel = *kernel;
    const int base = a.size > 0 ? a.size : 0;
    cfg.shape.m = a.m > 0 ? a.m : base;
    cfg.shape.n = a.n > 0 ? a.n : base;
    cfg.shape.k = a.k > 0 ? a.k : base;
    if (cfg.shape.m <= 0 || cfg.shape.n <= 0 || cfg.shape.k <= 0)
      return fail(exit_code, 2, "give --size N, or --m, --n and --k");
    cfg.block = a.block;
    cfg.regs_per_thread = a.regs;
    cfg.seed = a.seed;
    cfg.threads = a.threads;
    cfg.seek_threads = a.threads;
    cfg.checkpoints = false;  // a headless run never seeks
    cfg.cpu_cores = 1;

    const sim::Estimate est = sim::estimate(gpu, cfg);
    if (!est.ok) return fail(exit_code, 2, "refused: " + est.reason);
    if (a.seeks > 0) {
      json j = progressive_report(gpu, cpu, cfg, a.seeks);
      j["preset"] = gpu.id;
      j["kernel"] = sim::to_string(cfg.kernel);
      j["size"] = {cfg.shape.m, cfg.shape.n, cfg.shape.k};
      std::printf("%s\n", j.dump(2).c_str());
      return;
    }

    sim::Simulation s(gpu, cpu, cfg);
    const sim::Summary sum = s.summary();
    sim::Inputs in = sim::make_inputs(cfg.shape.m, cfg.shape.n, cfg.shape.k, cfg.seed);
    if (sim::uses_tensor_cores(cfg.kernel)) in = sim::rounded_to_bf16(std::move(in));
    const double peak = sim::kernel_peak_gflops(gpu, cfg.kernel);
    const char* peak_name = sim::uses_tensor_cores(cfg.kernel) ? "dense BF16 tensor-core" : "FP32";
    const sim::Verification v = sim::verify(s.c_values(), sim::reference_gemm(in), cfg.shape.k);

    if (a.json) {
      json j{{"preset", gpu.id},
             {"kernel", sim::to_string(cfg.kernel)},
             {"m", cfg.shape.m},
             {"n", cfg.shape.n},
             {"k", cfg.shape.k},
             {"block", s.block_dim()},
             {"cycles", sum.cycles},
             {"time_ms", sum.time_ms},
             {"gflops", sum.gflops},
             {"peak_gflops", peak},
             {"peak", sim::uses_tensor_cores(cfg.kernel) ? "bf16_tensor" : "fp32"},
             {"achieved_occupancy", sum.achieved_occupancy},
             {"theoretical_occupancy", sum.occupancy.occupancy},
             {"issue_slot_use", sum.issue_slot_use},
             {"warp_instructions", sum.warp_instructions},
             {"global_loads", sum.global_loads},
             {"shared_loads", sum.shared_loads},
             {"shared_stores", sum.shared_stores},
             {"fmas", sum.fmas},
             {"mmas", sum.mmas},
             {"dram_bytes", sum.dram_bytes},
             {"l1_hit_rate", sum.l1_hit_rate},
             {"l2_hit_rate", sum.l2_hit_rate},
             {"verified", v.ok},
             {"max_rel_error", v.max_rel_error}};
      std::printf("%s\n", j.dump(2).c_str());
    } else {
      fmt::print("{} on simulated {}: {}x{}x{}, {}x{} blocks\n", sim::to_string(cfg.kernel), gpu.name, cfg.shape.m,
                 cfg.shape.n, cfg.shape.k, s.block_dim(), s.block_dim());
      fmt::print("  {} cycles = {:.4f} ms at {:.0f} MHz -> {:.1f} GFLOP/s ({:.1f} % of the {:.0f} GFLOP/s {} peak)\n",
                 sum.cycles, sum.time_ms, gpu.clock_mhz, sum.gflops, 100 * sum.gflops / peak, peak, peak_name);
      fmt::print("  occupancy {:.1f} % theoretical, {:.1f} % achieved; issue slots used {:.1f} %\n",
                 100 * sum.occupancy.occupancy, 100 * sum.achieved_occupancy, 100 * sum.issue_slot_use);
      fmt::print("  {} warp instructions, {:.1f} MB from DRAM, L1 hits {:.1f} %, L2 hits {:.1f} %\n",
                 sum.warp_instructions, sum.dram_bytes / 1e6, 100 * sum.l1_hit_rate, 100 * sum.l2_hit_rate);
      fmt::print("  simulated C {} the fp64 reference{} (max relative error {:.2g})\n",
                 v.ok ? "matches" : "DOES NOT match",
                 sim::uses_tensor_cores(cfg.kernel) ? " of the BF16-rounded inputs" : "", v.max_rel_error);
    }
    if (!v.ok) exit_code = 1;
  } catch (const sim::UnknownPreset& e) {
    fail(exit_code, 2, e.what());
  } catch (const sim::SimRefused& e) {
    fail(exit_code, 2, e.what());
  } catch (const std::invalid_argument& e) {
    fail(exit_code, 2, e.what());
  } catch (const std::exception& e) {
    fail(exit_code, 1, e.what());
  }
}

}  // namespace

void add_sim_commands(CLI::App& app, int& exit_code) {
  auto* presets = app.add_subcommand("presets", "List the simulated GPUs and CPUs with their key figures");
  auto presets_json = std::make_shared<bool>(false);
  presets->add_flag("--json", *presets_json, "Print JSON");
  presets->callback([presets_json, &exit_code] { run_presets(*presets_json, exit_code); });

  auto* occ = app.add_subcommand("occupancy", "Blocks and warps per SM for a launch, and what limits them");
  auto oa = std::make_shared<OccupancyArgs>();
  auto* cc = occ->add_option("--cc", oa->cc, "Compute capability, e.g. 8.6");
  auto* preset = occ->add_option("--preset", oa->preset, "A GPU preset id (see `warpscope presets`)");
  cc->excludes(preset);
  occ->add_option("--block-size", oa->block_size, "Threads per block")->required()->check(CLI::Range(1, 1 << 20));
  occ->add_option("--regs", oa->regs, "Registers per thread")->required()->check(CLI::Range(0, 100000));
  occ->add_option("--smem", oa->smem, "Shared memory per block, bytes")->required()->check(CLI::Range(0, 1 << 30));
  occ->add_flag("--json", oa->json, "Print JSON");
  occ->callback([oa, &exit_code] {
    if (oa->cc.empty() && oa->preset.empty()) return fail(exit_code, 2, "occupancy needs --cc X.Y or --preset NAME");
    run_occupancy(*oa, exit_code);
  });

  auto* simc = app.add_subcommand("simulate", "Run the simulated GPU on a matrix multiply and check its result");
  auto sa = std::make_shared<SimulateArgs>();
  simc->add_option("--preset", sa->preset, "GPU preset id (default h100)");
  simc->add_option("--cpu", sa->cpu, "CPU preset id for the cores beside it (default i7-3960x)");
  simc->add_option("--kernel", sa->kernel, "naive, tiled, regblock or tensor")->required();
  auto* size = simc->add_option("--size", sa->size, "M = N = K")->check(CLI::Range(1, 65536));
  auto* m = simc->add_option("--m", sa->m, "M")->check(CLI::Range(1, 65536));
  auto* n = simc->add_option("--n", sa->n, "N")->check(CLI::Range(1, 65536));
  auto* k = simc->add_option("--k", sa->k, "K")->check(CLI::Range(1, 65536));
  size->excludes(m)->excludes(n)->excludes(k);
  simc->add_option("--block", sa->block, "Block side B (B x B threads); default 32, or 16 where 1024 threads can't launch")
      ->check(CLI::Range(1, 32));
  simc->add_option("--regs", sa->regs, "Registers per thread of the launch (default: the kernel's, 32 for naive and tiled, 64 for regblock and tensor)")->check(CLI::Range(1, 255));
  simc->add_option("--seed", sa->seed, "Seed of A and B (default 42, as the real kernels)");
  simc->add_flag("--json", sa->json, "Print JSON");
  simc->add_option("--threads", sa->threads,
                   "Threads stepping the GPU's SMs (default: one per core); results are the same for any number")
      ->check(CLI::Range(1, 1024));
  simc->add_option("--seeks", sa->seeks,
                   "Run as the window does (in the background, with checkpoints) and time this many seeks; prints JSON")
      ->check(CLI::Range(1, 100000));
  simc->callback([sa, &exit_code] { run_simulate(*sa, exit_code); });
}

}  // namespace ws::app
