// Preset files (TOML, one part per file) and lookup by id or name.
#include "warpscope/sim/presets.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include <toml++/toml.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ascii.hpp"

#ifndef WARPSCOPE_ASSETS_DIR
#define WARPSCOPE_ASSETS_DIR "assets"
#endif

namespace ws::sim {
namespace {

namespace fs = std::filesystem;

// Bounds that keep the model's per-unit arrays and its cycle loop finite; real parts are far
// below them (132 SMs, 128 lanes, 600-cycle DRAM).
constexpr int kMaxUnits = 4096;
constexpr int kMaxLatency = 1000000;
// A tensor core's dense rate per clock: 128 FLOP (Volta FP16) to 2048 (Blackwell BF16); the bound
// only keeps the arithmetic finite. Generations: Volta is the 1st, Blackwell the 5th.
constexpr int kMaxTensorFlopsPerClock = 1 << 20;
constexpr int kMaxTensorGeneration = 64;

bool in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }
bool positive(double v) { return v > 0 && std::isfinite(v); }
bool non_negative(double v) { return v >= 0 && std::isfinite(v); }

struct Reader {
  const toml::table& t;
  const std::string& path;
  std::string_view prefix = "";  // "tensor.": names a nested table's field in errors

  template <class T>
  T need(std::string_view key) const {
    if (auto v = t[key].value<T>()) return *v;
    throw std::runtime_error(path + ": missing or mistyped field '" + std::string(prefix) + std::string(key) + "'");
  }
  template <class T>
  T get(std::string_view key, T fallback) const {
    return t[key].value<T>().value_or(fallback);
  }
  std::vector<std::string> list(std::string_view key) const {
    std::vector<std::string> out;
    if (const auto* arr = t[key].as_array())
      for (const auto& e : *arr)
        if (auto s = e.value<std::string>()) out.push_back(*s);
    return out;
  }
};

void parse_cc(const std::string& text, const std::string& path, int& major, int& minor) {
  const auto dot = text.find('.');
  try {
    if (dot == std::string::npos) throw std::invalid_argument("no dot");
    major = std::stoi(text.substr(0, dot));
    minor = std::stoi(text.substr(dot + 1));
  } catch (const std::exception&) {
    throw std::runtime_error(path + ": compute_capability must look like \"9.0\", got \"" + text + "\"");
  }
}

template <class P>
std::vector<P> load_dir(const std::string& sub, P (*load)(const std::string&)) {
  const fs::path dir = fs::path(presets_dir()) / sub;
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  if (files.empty()) throw std::runtime_error("no preset files in " + dir.string() + " (set WARPSCOPE_ASSETS)");
  std::sort(files.begin(), files.end());
  std::vector<P> out;
  for (const auto& f : files) out.push_back(load(f));
  std::stable_sort(out.begin(), out.end(), [](const P& a, const P& b) { return a.year < b.year; });
  return out;
}

std::string valid_list(const std::vector<std::string>& ids) {
  std::string s;
  for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id;
  return s;
}

}  // namespace

std::string presets_dir() {
  if (const char* env = std::getenv("WARPSCOPE_ASSETS"); env != nullptr && *env != '\0')
    return (fs::path(env) / "presets").string();
  return (fs::path(WARPSCOPE_ASSETS_DIR) / "presets").string();
}

namespace {

// The same guard as the app's read_text_file (app/lesson/text_file.cpp), which sim may not
// include: a preset path can name a FIFO, a device or a huge file, and each is refused unread.
static_assert(kMaxPresetBytes % (1024 * 1024) == 0, "the message words the limit in MiB");
const std::string kPresetLimitText = "the limit is " + std::to_string(kMaxPresetBytes / (1024 * 1024)) + " MiB";

std::string read_preset_text(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw std::runtime_error(path + ": cannot open the preset file (" + std::strerror(errno) + ")");
  if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + ": is not a regular file, not a preset file");
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxPresetBytes)
    throw std::runtime_error(path + ": is too large for a preset file (" + std::to_string(st.st_size) + " bytes; " +
                             kPresetLimitText + ")");
  // O_NONBLOCK: the path may have become a FIFO since the stat; fstat checks again.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw std::runtime_error(path + ": cannot open the preset file (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw std::runtime_error(path + ": is not a regular file, not a preset file");
  // st_size is a hint (a file in /proc says 0): the limit is enforced on what is read.
  std::string text(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), kMaxPresetBytes) + 1, '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (got > kMaxPresetBytes) break;
      text.resize(kMaxPresetBytes + 1);
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(path + ": cannot read the preset file (" + std::strerror(errno) + ")");
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > kMaxPresetBytes)
    throw std::runtime_error(path + ": is too large for a preset file (more than " + std::to_string(kMaxPresetBytes) +
                             " bytes; " + kPresetLimitText + ")");
  text.resize(got);
  return text;
}

// A preset that is not valid TOML names itself in the error.
toml::table parse_preset_toml(std::string_view text, const std::string& name) {
  try {
    return toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw std::runtime_error(name + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) + ": " +
                             std::string(e.description()));
  }
}

// [tensor] and its [tensor.fp16] / [tensor.bf16] / [tensor.tf32] tables: present only on parts
// with tensor cores; a format's table is absent when the tensor cores do not run it.
void parse_tensor_format(const toml::table& tensor, std::string_view name, const std::string& path, TensorFormat& f) {
  const toml::node* node = tensor.get(name);
  if (node == nullptr) return;
  const std::string where = "tensor." + std::string(name);
  const auto* table = node->as_table();
  if (table == nullptr) throw std::runtime_error(path + ": '" + where + "' must be a table ([" + where + "])");
  const std::string prefix = where + ".";
  Reader r{*table, path, prefix};
  f.flops_per_clock_per_core = r.need<int>("flops_per_clock_per_core");
  f.datasheet_tflops = r.need<double>("datasheet_tflops");
  f.source = r.need<std::string>("source");
  if (!in_range(f.flops_per_clock_per_core, 1, kMaxTensorFlopsPerClock) || !positive(f.datasheet_tflops) ||
      f.source.empty())
    throw std::runtime_error(path + ": " + where + ": flops_per_clock_per_core (1.." +
                             std::to_string(kMaxTensorFlopsPerClock) +
                             ") and datasheet_tflops must be positive finite numbers, and source not empty");
}

void parse_tensor_cores(const toml::table& t, const std::string& path, GpuPreset& p) {
  const toml::node* node = t.get("tensor");
  if (node == nullptr) return;  // no tensor cores: C1060 to P100
  const auto* table = node->as_table();
  if (table == nullptr) throw std::runtime_error(path + ": 'tensor' must be a table ([tensor])");
  Reader r{*table, path, "tensor."};
  TensorCores& tc = p.tensor;
  tc.generation = r.need<int>("generation");
  tc.cores_per_sm = r.need<int>("cores_per_sm");
  tc.clock_mhz = r.need<double>("clock_mhz");
  tc.source = r.need<std::string>("source");
  for (auto& u : r.list("uncertain")) p.uncertain.push_back("tensor." + u);
  if (!in_range(tc.generation, 1, kMaxTensorGeneration) || !in_range(tc.cores_per_sm, 1, kMaxUnits) ||
      !positive(tc.clock_mhz) || tc.source.empty())
    throw std::runtime_error(path + ": tensor: generation (1.." + std::to_string(kMaxTensorGeneration) +
                             "), cores_per_sm (1.." + std::to_string(kMaxUnits) +
                             ") and clock_mhz must be positive finite numbers, and source not empty");
  parse_tensor_format(*table, "fp16", path, tc.fp16);
  parse_tensor_format(*table, "bf16", path, tc.bf16);
  parse_tensor_format(*table, "tf32", path, tc.tf32);
  if (!tc.fp16.supported() && !tc.bf16.supported())
    throw std::runtime_error(path + ": tensor: needs [tensor.fp16] or [tensor.bf16] (a tensor core that multiplies "
                                    "neither has no figure to show)");
}

// [interconnect]: optional (a preset without it cannot be put in a cluster); the ids are checked
// against links.toml by the cluster model, which owns that file.
void parse_interconnect(const toml::table& t, const std::string& path, GpuPreset& p) {
  const toml::node* node = t.get("interconnect");
  if (node == nullptr) return;
  const auto* table = node->as_table();
  if (table == nullptr) throw std::runtime_error(path + ": 'interconnect' must be a table ([interconnect])");
  Reader r{*table, path, "interconnect."};
  p.interconnect.link = r.need<std::string>("link");
  p.interconnect.pcie = r.need<std::string>("pcie");
  p.interconnect.network = r.need<std::string>("network");
  p.interconnect.source = r.need<std::string>("source");
  if (p.interconnect.link.empty() || p.interconnect.pcie.empty() || p.interconnect.network.empty() ||
      p.interconnect.source.empty())
    throw std::runtime_error(path + ": interconnect: link, pcie, network and source must not be empty");
}

}  // namespace

GpuPreset load_gpu_preset(const std::string& path) { return parse_gpu_preset(read_preset_text(path), path); }

CpuPreset load_cpu_preset(const std::string& path) { return parse_cpu_preset(read_preset_text(path), path); }

GpuPreset parse_gpu_preset(std::string_view text, const std::string& path) {
  const toml::table t = parse_preset_toml(text, path);
  Reader r{t, path};
  GpuPreset p;
  p.id = r.need<std::string>("id");
  p.name = r.need<std::string>("name");
  p.name_ko = r.get<std::string>("name_ko", "");
  p.short_name = r.get<std::string>("short_name", "");
  p.reference_name = r.get<std::string>("reference_name", "");
  p.architecture = r.need<std::string>("architecture");
  p.year = r.need<int>("year");
  parse_cc(r.need<std::string>("compute_capability"), path, p.cc_major, p.cc_minor);
  p.sm_count = r.need<int>("sm_count");
  p.fp32_lanes_per_sm = r.need<int>("fp32_lanes_per_sm");
  p.schedulers_per_sm = r.need<int>("schedulers_per_sm");
  p.clock_mhz = r.need<double>("clock_mhz");
  p.memory_bandwidth_gbs = r.need<double>("memory_bandwidth_gbs");
  p.memory_gb = r.need<double>("memory_gb");
  p.l2_kb = r.need<int>("l2_kb");
  p.datasheet_fp32_tflops = r.need<double>("datasheet_fp32_tflops");
  p.source = r.need<std::string>("source");
  p.uncertain = r.list("uncertain");
  p.notes = r.get<std::string>("notes", "");

  const auto* model = t["model"].as_table();
  if (model == nullptr) throw std::runtime_error(path + ": missing [model] table");
  Reader m{*model, path};
  p.l1_kb = m.need<int>("l1_kb");
  p.l1_shares_smem = m.get<bool>("l1_shares_smem", false);
  p.l2_bandwidth_gbs = m.need<double>("l2_bandwidth_gbs");
  p.lsu_cycles_per_wavefront = m.get<int>("lsu_cycles_per_wavefront", 1);
  p.smem_cycles_per_wavefront = m.get<int>("smem_cycles_per_wavefront", 1);
  p.latency.fma = m.need<int>("fma_latency");
  p.latency.alu = m.get<int>("alu_latency", p.latency.fma);
  p.latency.shared = m.need<int>("shared_latency");
  p.latency.l1_hit = m.need<int>("l1_hit_latency");
  p.latency.l2_hit = m.need<int>("l2_hit_latency");
  p.latency.dram = m.need<int>("dram_latency");
  p.latency.barrier = m.need<int>("barrier_latency");
  p.latency.block_launch = m.need<int>("block_launch_latency");
  p.model_source = m.need<std::string>("source");
  for (auto& u : m.list("uncertain")) p.uncertain.push_back("model." + u);

  // `!(x > 0)`, not `x <= 0`: TOML allows nan and inf, and NaN passes every comparison.
  if (!in_range(p.sm_count, 1, kMaxUnits) || !in_range(p.fp32_lanes_per_sm, 1, kMaxUnits) ||
      !in_range(p.schedulers_per_sm, 1, kMaxUnits) || !positive(p.clock_mhz) || !positive(p.memory_bandwidth_gbs))
    throw std::runtime_error(path + ": counts (1.." + std::to_string(kMaxUnits) +
                             "), clock and bandwidth must be positive finite numbers");
  if (!non_negative(p.memory_gb) || !non_negative(p.l2_bandwidth_gbs) || !non_negative(p.datasheet_fp32_tflops) ||
      p.l2_kb < 0 || p.l1_kb < 0 || p.lsu_cycles_per_wavefront < 1 || p.smem_cycles_per_wavefront < 1)
    throw std::runtime_error(path + ": sizes and bandwidths must be finite and not negative, cycles per wavefront at least 1");
  for (const int latency : {p.latency.fma, p.latency.alu, p.latency.shared, p.latency.l1_hit, p.latency.l2_hit,
                            p.latency.dram, p.latency.barrier, p.latency.block_launch})
    if (!in_range(latency, 0, kMaxLatency))
      throw std::runtime_error(path + ": latencies must be 0.." + std::to_string(kMaxLatency) + " cycles");
  if (p.latency.fma < 1) throw std::runtime_error(path + ": fma_latency must be at least 1 cycle");
  parse_tensor_cores(t, path, p);
  parse_interconnect(t, path, p);
  return p;
}

CpuPreset parse_cpu_preset(std::string_view text, const std::string& path) {
  const toml::table t = parse_preset_toml(text, path);
  Reader r{t, path};
  CpuPreset p;
  p.id = r.need<std::string>("id");
  p.name = r.need<std::string>("name");
  p.name_ko = r.get<std::string>("name_ko", "");
  p.short_name = r.get<std::string>("short_name", "");
  p.reference_name = r.get<std::string>("reference_name", "");
  p.microarchitecture = r.need<std::string>("microarchitecture");
  p.year = r.need<int>("year");
  p.cores = r.need<int>("cores");
  p.threads = r.need<int>("threads");
  p.base_clock_ghz = r.need<double>("base_clock_ghz");
  p.boost_clock_ghz = r.need<double>("boost_clock_ghz");
  p.simd_isa = r.need<std::string>("simd_isa");
  p.fp32_lanes = r.need<int>("fp32_lanes");
  p.fma_units = r.need<int>("fma_units");
  p.memory_bandwidth_gbs = r.need<double>("memory_bandwidth_gbs");
  p.l1d_kb = r.need<int>("l1d_kb");
  p.l2_kb = r.need<int>("l2_kb");
  p.l3_mb = r.need<double>("l3_mb");
  p.datasheet_peak_gflops_base = r.need<double>("datasheet_peak_gflops_base");
  p.source = r.need<std::string>("source");
  p.uncertain = r.list("uncertain");
  p.notes = r.get<std::string>("notes", "");

  const auto* model = t["model"].as_table();
  if (model == nullptr) throw std::runtime_error(path + ": missing [model] table");
  Reader m{*model, path};
  p.fma_latency = m.need<int>("fma_latency");
  p.l1_latency = m.need<int>("l1_latency");
  p.l2_latency = m.need<int>("l2_latency");
  p.l3_latency = m.need<int>("l3_latency");
  p.dram_latency = m.need<int>("dram_latency");
  p.miss_overlap = m.need<double>("miss_overlap");
  p.model_source = m.need<std::string>("source");
  for (auto& u : m.list("uncertain")) p.uncertain.push_back("model." + u);
  if (!in_range(p.cores, 1, kMaxUnits) || !in_range(p.fp32_lanes, 1, kMaxUnits) || !in_range(p.fma_units, 1, kMaxUnits) ||
      !positive(p.base_clock_ghz))
    throw std::runtime_error(path + ": cores, lanes, FMA units (1.." + std::to_string(kMaxUnits) +
                             ") and clock must be positive finite numbers");
  if (!non_negative(p.boost_clock_ghz) || !non_negative(p.memory_bandwidth_gbs) || !non_negative(p.l3_mb) ||
      !non_negative(p.datasheet_peak_gflops_base) || !positive(p.miss_overlap) || p.l1d_kb < 0 || p.l2_kb < 0 ||
      p.threads < 0)
    throw std::runtime_error(path + ": sizes, clocks and bandwidths must be finite and not negative, miss_overlap positive");
  for (const int latency : {p.fma_latency, p.l1_latency, p.l2_latency, p.l3_latency, p.dram_latency})
    if (!in_range(latency, 0, kMaxLatency))
      throw std::runtime_error(path + ": latencies must be 0.." + std::to_string(kMaxLatency) + " cycles");
  if (p.fma_latency < 1) throw std::runtime_error(path + ": fma_latency must be at least 1 cycle");
  return p;
}

const std::vector<GpuPreset>& gpu_presets() {
  static const std::vector<GpuPreset> all = load_dir<GpuPreset>("gpus", &load_gpu_preset);
  return all;
}

const std::vector<CpuPreset>& cpu_presets() {
  static const std::vector<CpuPreset> all = load_dir<CpuPreset>("cpus", &load_cpu_preset);
  return all;
}

std::vector<std::string> gpu_ids() {
  std::vector<std::string> ids;
  for (const auto& p : gpu_presets()) ids.push_back(p.id);
  return ids;
}

std::vector<std::string> cpu_ids() {
  std::vector<std::string> ids;
  for (const auto& p : cpu_presets()) ids.push_back(p.id);
  ids.push_back("this-machine");
  return ids;
}

const GpuPreset& find_gpu(const std::string& name) {
  const std::string key = detail::ascii_lower(name);
  for (const auto& p : gpu_presets())
    if (detail::ascii_lower(p.id) == key || detail::ascii_lower(p.name) == key) return p;
  throw UnknownPreset("unknown GPU preset '" + name + "'; valid: " + valid_list(gpu_ids()));
}

CpuPreset find_cpu(const std::string& name) {
  const std::string key = detail::ascii_lower(name);
  if (key == "this-machine" || key == "host" || key == "this machine") return this_machine_cpu();
  for (const auto& p : cpu_presets())
    if (detail::ascii_lower(p.id) == key || detail::ascii_lower(p.name) == key) return p;
  throw UnknownPreset("unknown CPU preset '" + name + "'; valid: " + valid_list(cpu_ids()));
}

}  // namespace ws::sim
