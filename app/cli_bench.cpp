// `warpscope bench`: runs the real kernels headless and prints a table or one JSON object. Exit
// codes: 0 ok, 1 a kernel computed a wrong result or failed to run, 2 bad input.

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_commands.hpp"
#include "core/build_info.hpp"
#include "core/counted.hpp"
#include "core/run_estimate.hpp"
#include "warpscope/kernels/blas_core.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/kernels/system_info.hpp"
#include "warpscope/sim/cpu_prediction.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app {

namespace {

namespace k = ws::kernels;

// gl-regblock is the best GL kernel; on a machine whose only OpenGL is a software renderer it is
// the one a user can wait for. `all` adds cpu-naive, gl-naive and gl-tiled.
constexpr const char* kDefaultKernels = "cpu-parallel,cpu-blas,cuda-naive,cuda-tiled,cublas,gl-regblock";
constexpr int kMaxDimension = 16384;

struct BenchOptions {
  int size = 1024;
  int m = 0, n = 0, k = 0;
  std::string kernels = kDefaultKernels;
  int threads = 0;
  int repeats = 3;
  bool json = false;
  CLI::Option* m_opt = nullptr;
  CLI::Option* n_opt = nullptr;
  CLI::Option* k_opt = nullptr;
};

std::string valid_kernel_names() {
  std::string names;
  for (const auto& info : k::all_kernels()) names += info.name + ", ";
  return names + "all";
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Returns false (after saying why on stderr) when a name is unknown.
bool parse_kernel_list(const std::string& text, std::vector<std::string>& out) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    if (item == "all") {
      for (const auto& info : k::all_kernels()) out.push_back(info.name);
    } else if (k::find_kernel(item) != nullptr) {
      out.push_back(item);
    } else {
      fmt::print(stderr, "warpscope bench: unknown kernel '{}'; valid kernels: {}\n", item, valid_kernel_names());
      return false;
    }
  }
  if (out.empty()) {
    fmt::print(stderr, "warpscope bench: no kernel given; valid kernels: {}\n", valid_kernel_names());
    return false;
  }
  return true;
}

bool check_range(const char* name, int value, int lo, int hi) {
  if (value >= lo && value <= hi) return true;
  fmt::print(stderr, "warpscope bench: {} must be between {} and {}, got {}\n", name, lo, hi, value);
  return false;
}

nlohmann::json to_json(const k::JobResult& r) {
  nlohmann::json j;
  j["kernel"] = r.kernel;
  j["device"] = k::to_string(r.device);
  j["m"] = r.shape.m;
  j["n"] = r.shape.n;
  j["k"] = r.shape.k;
  j["threads"] = r.threads;
  j["repeats"] = r.repeats;
  j["ms_median"] = r.ms_median;
  j["ms_min"] = r.ms_min;
  j["gflops"] = r.gflops;
  j["transfer_ms"] = r.transfer_ms ? nlohmann::json(*r.transfer_ms) : nlohmann::json(nullptr);
  j["verified"] = r.verified;
  j["max_rel_error"] = r.max_rel_error;
  j["tolerance"] = r.tolerance;
  j["checked_elements"] = r.checked_elements;
  j["input_format"] = r.input_format;
  j["max_rel_error_vs_fp32"] = r.max_rel_error_vs_fp32 ? nlohmann::json(*r.max_rel_error_vs_fp32) : nlohmann::json(nullptr);
  j["skipped"] = r.skipped ? nlohmann::json(*r.skipped) : nlohmann::json(nullptr);
  j["failed"] = r.failed ? nlohmann::json(*r.failed) : nlohmann::json(nullptr);
  j["detail"] = r.detail;
  j["api"] = r.api.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.api);
  j["device_name"] = r.device_name.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.device_name);
  j["software_renderer"] = r.software_renderer;
  return j;
}

// Where and when the figures were measured, so a file carried to another machine can say so.
std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown host";
  return name;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

nlohmann::json machine_json() {
  nlohmann::json j;
  const auto& cpu = k::cpu_info();
  j["cpu"] = {{"name", cpu.name}, {"cores", cpu.cores}, {"simd", cpu.simd}};
  // The GPU the results name: CUDA's device when CUDA works, else the OpenGL renderer (each GPU
  // result also carries its own api and device_name).
  if (const auto gpu = k::gpu_info()) {
    j["gpu"] = {{"api", "cuda"},
                {"name", gpu->name},
                {"cc", fmt::format("{}.{}", gpu->cc_major, gpu->cc_minor)},
                {"sm_count", gpu->sm_count},
                {"memory_bytes", gpu->memory_bytes}};
  } else if (const auto gl = k::gl_info()) {
    j["gpu"] = {{"api", "opengl"},     {"name", gl->renderer},   {"renderer", gl->renderer},
                {"vendor", gl->vendor}, {"version", gl->version}, {"software", gl->software}};
  } else {
    j["gpu"] = nullptr;
  }
  j["gpu_status"] = k::gpu_status();
  j["gl_status"] = k::gl_status();
  j["host"] = host_name();
  j["date"] = utc_now_iso8601();
  j["warpscope_version"] = version();
  j["git_commit"] = git_commit();
  j["blas_core"] = k::blas_core_name();
  j["blas_core_note"] = k::blas_core_note();
  // The core OpenBLAS picked by itself when warpscope replaced it through OPENBLAS_CORETYPE, else null.
  if (const std::string detected = k::blas_core_detected(); !detected.empty())
    j["blas_core_detected"] = detected;
  else
    j["blas_core_detected"] = nullptr;
  return j;
}

void print_row(const k::JobResult& r) {
  if (r.skipped) {
    fmt::print("{:<13} {:<4} {:>7} {:>10} {:>10} {:>9} {:>9} {:>8} {:>9}  skipped: {}\n", r.kernel,
               k::to_string(r.device), "-", "-", "-", "-", "-", "-", "-", *r.skipped);
    return;
  }
  if (r.failed) {
    fmt::print("{:<13} {:<4} {:>7} {:>10} {:>10} {:>9} {:>9} {:>8} {:>9}  FAILED: {}\n", r.kernel,
               k::to_string(r.device), "-", "-", "-", "-", "-", "-", "-", *r.failed);
    return;
  }
  const std::string transfer = r.transfer_ms ? fmt::format("{:.2f}", *r.transfer_ms) : "-";
  fmt::print("{:<13} {:<4} {:>7} {:>10.3f} {:>10.3f} {:>9.1f} {:>9} {:>8} {:>9.2e}  {}\n", r.kernel,
             k::to_string(r.device), r.device == k::Device::cpu ? std::to_string(r.threads) : "-",
             r.ms_median, r.ms_min, r.gflops, transfer, r.verified ? "yes" : "NO", r.max_rel_error,
             r.detail);
  std::fflush(stdout);
}

int run_bench(const BenchOptions& o) {
  const int m = o.m_opt->count() ? o.m : o.size;
  const int n = o.n_opt->count() ? o.n : o.size;
  const int kk = o.k_opt->count() ? o.k : o.size;
  if (!check_range("--size", o.size, 1, kMaxDimension) || !check_range("--m", m, 1, kMaxDimension) ||
      !check_range("--n", n, 1, kMaxDimension) || !check_range("--k", kk, 1, kMaxDimension) ||
      !check_range("--threads", o.threads, 0, 1024) || !check_range("--repeats", o.repeats, 1, 1000))
    return 2;
  std::vector<std::string> names;
  if (!parse_kernel_list(o.kernels, names)) return 2;

  if (!o.json) {
    const auto& cpu = k::cpu_info();
    fmt::print("CPU: {} ({}, {}), OpenBLAS core: {}\nCUDA: {}\nOpenGL: {}\nC = A·B, M={} N={} K={}, {}\n\n", cpu.name,
               counted(cpu.cores, "core", "cores"), cpu.simd, k::blas_core_note(), k::gpu_status(), k::gl_status(), m, n,
               kk, counted(o.repeats, "repeat", "repeats"));
    fmt::print("{:<13} {:<4} {:>7} {:>10} {:>10} {:>9} {:>9} {:>8} {:>9}  {}\n", "kernel", "dev", "threads",
               "median ms", "min ms", "GFLOP/s", "xfer ms", "verified", "max err", "note");
  }

  nlohmann::json results = nlohmann::json::array();
  bool any_wrong = false, any_failed = false;
  for (const auto& name : names) {
    k::JobRequest request;
    request.kernel = name;
    request.shape = k::Shape{m, n, kk};
    request.threads = o.threads;
    request.repeats = o.repeats;
    // On stderr, so that --json keeps stdout one JSON object. Each kernel runs once here, so there
    // is no measured speed to go by: the built-in one, as the window uses before its first run.
    if (const auto e = estimate_job(request, MeasuredSpeeds{}); e && e->seconds > kLongRunSeconds)
      fmt::print(stderr, "warpscope bench: {}; running it anyway (Ctrl+C stops)\n",
                 estimate_sentence(BatchEstimate{{*e}, e->seconds}, lesson::Language::en));
    k::JobControl control;
    const k::JobResult r = k::run_job(request, control);
    if (r.failed) any_failed = true;
    else if (!r.skipped && !r.cancelled && !r.verified) any_wrong = true;
    // cpu-naive is the loop the CPU model models: its prediction for this machine goes beside it.
    std::optional<double> model;
    if (name == "cpu-naive" && !r.skipped && !r.cancelled)
      model = sim::predict_cpu_naive(sim::this_machine_cpu(), m, n, kk, std::max(1, r.threads)).gflops;
    if (o.json) {
      results.push_back(to_json(r));
      if (model) results.back()["cpu_model_gflops"] = *model;
    } else {
      print_row(r);
      if (model)
        fmt::print("{:<13} model of this CPU (this-machine preset): {:.2f} GFLOP/s, measured {:.2f}\n", "", *model,
                   r.gflops);
    }
  }

  if (o.json) {
    nlohmann::json out = machine_json();
    out["results"] = std::move(results);
    fmt::print("{}\n", out.dump(2));
  } else {
    if (any_wrong) fmt::print(stderr, "warpscope bench: at least one kernel failed verification\n");
    if (any_failed) fmt::print(stderr, "warpscope bench: at least one kernel failed to run (its error is in its row)\n");
  }
  return any_wrong || any_failed ? 1 : 0;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench", "Time and verify the real matrix multiply C = A·B on this machine (no window needed)");
  cmd->add_option("--size", opts->size, "Sets M = N = K (default 1024, at most 16384)");
  opts->m_opt = cmd->add_option("--m", opts->m, "Rows of A and C (default: --size)");
  opts->n_opt = cmd->add_option("--n", opts->n, "Columns of B and C (default: --size)");
  opts->k_opt = cmd->add_option("--k", opts->k, "Columns of A, rows of B (default: --size)");
  cmd->add_option("--kernels", opts->kernels,
                  std::string("Comma-separated kernels, or 'all' (every kernel: the default list plus cpu-naive, gl-naive, gl-tiled and the rest of the CUDA ladder). "
                              "Default: ") + kDefaultKernels + ". Valid: " + valid_kernel_names());
  cmd->add_option("--threads", opts->threads, "CPU threads for cpu-parallel and cpu-blas, 0 = every core (default 0)");
  cmd->add_option("--repeats", opts->repeats, "Timed runs per kernel after one warm-up; median and min are reported (default 3)");
  cmd->add_flag("--json", opts->json, "Print one JSON object instead of the table");
  cmd->callback([opts, &exit_code] { exit_code = run_bench(*opts); });
}

}  // namespace ws::app
