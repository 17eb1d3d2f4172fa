// "This machine" presets: the live CPU from /proc/cpuinfo and CPUID, and a GPU from plain device
// facts (the app reads them through CUDA; sim stays free of CUDA headers).
#include <algorithm>
#include <cmath>
#include <cctype>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "warpscope/sim/presets.hpp"

namespace ws::sim {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string field_value(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  auto v = line.substr(colon + 1);
  const auto b = v.find_first_not_of(" \t");
  return b == std::string::npos ? std::string{} : v.substr(b);
}

CpuPreset build_cpu() {
  CpuPreset p;
  p.id = "this-machine";
  p.year = 0;
  p.from_machine = true;
  p.source = "/proc/cpuinfo (model name, cpu MHz, physical id/core id) and CPUID via __builtin_cpu_supports";
  p.model_source = "generic out-of-order core defaults (docs/SIMULATION.md)";
  p.uncertain = {"base_clock_ghz (current frequency from /proc/cpuinfo, not the rated base)",
                 "fma_units (2 assumed with AVX2+FMA, else 1)", "cache sizes (typical values)"};

  std::ifstream in("/proc/cpuinfo");
  std::string line;
  double mhz = 0;
  std::set<std::pair<std::string, std::string>> physical_cores;
  std::string phys;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 && p.name.empty()) p.name = field_value(line);
    else if (line.rfind("cpu MHz", 0) == 0 && mhz == 0) mhz = std::atof(field_value(line).c_str());
    else if (line.rfind("physical id", 0) == 0) phys = field_value(line);
    else if (line.rfind("core id", 0) == 0) physical_cores.insert({phys, field_value(line)});
  }
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p.threads = hw;
  p.cores = physical_cores.empty() ? hw : std::min<int>(hw, static_cast<int>(physical_cores.size()));
  if (p.name.empty()) p.name = "this machine";
  p.name = "This machine: " + p.name;
  p.microarchitecture = "unknown";
  p.base_clock_ghz = p.boost_clock_ghz = mhz > 0 ? mhz / 1000.0 : 2.5;

#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (__builtin_cpu_supports("avx512f")) {
    p.simd_isa = fma ? "AVX-512 + FMA" : "AVX-512";
    p.fp32_lanes = 16;
  } else if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx")) {
    p.simd_isa = fma ? "AVX2 + FMA" : "AVX";
    p.fp32_lanes = 8;
  } else {
    p.simd_isa = "SSE2";
    p.fp32_lanes = 4;
  }
  p.fma_units = fma ? 2 : 1;
#else
  p.simd_isa = "NEON";
  p.fp32_lanes = 4;
  p.fma_units = 2;
#endif
  p.memory_bandwidth_gbs = 50;
  p.l1d_kb = 32;
  p.l2_kb = 1024;
  p.l3_mb = 32;
  p.uncertain.push_back("memory_bandwidth_gbs (not measured)");
  p.datasheet_peak_gflops_base = p.peak_gflops();
  return p;
}

struct Generation {
  GpuLatencies lat;
  int l1_kb;
  bool l1_shares_smem;
  int lsu, smem;
  const char* arch;
};

// Per-architecture model defaults for a device with no preset file (same figures as the files).
Generation generation_for(int major, int minor) {
  if (major <= 1) return {{24, 24, 38, 0, 0, 440, 20, 50}, 0, false, 2, 2, "Tesla"};
  if (major == 2) return {{18, 18, 50, 45, 310, 600, 20, 50}, 16, false, 2, 2, "Fermi"};
  if (major == 3) return {{9, 9, 47, 0, 200, 300, 20, 50}, 0, false, 1, 1, "Kepler"};
  if (major == 5) return {{6, 6, 28, 82, 200, 370, 20, 50}, 24, false, 1, 1, "Maxwell"};
  if (major == 6) return {{6, 6, 24, 82, 234, 450, 20, 50}, 24, false, 1, 1, "Pascal"};
  if (major == 7) return {{4, 4, 19, 28, 193, 400, 20, 50}, minor == 5 ? 96 : 128, true, 1, 1,
                          minor == 5 ? "Turing" : "Volta"};
  if (major == 8) return {{4, 4, 23, 33, 200, 470, 20, 50}, minor == 0 ? 192 : 128, true, 1, 1,
                          minor == 9 ? "Ada Lovelace" : "Ampere"};
  if (major == 9) return {{4, 4, 29, 33, 260, 480, 20, 50}, 256, true, 1, 1, "Hopper"};
  return {{4, 4, 29, 33, 300, 520, 20, 50}, 256, true, 1, 1, "Blackwell"};
}

}  // namespace

const CpuPreset& this_machine_cpu() {
  static const CpuPreset p = build_cpu();
  return p;
}

int fp32_lanes_per_sm_for_cc(int major, int minor) {
  switch (major) {
    case 1: return 8;
    case 2: return minor == 0 ? 32 : 48;
    case 3: return 192;
    case 5: return 128;
    case 6: return minor == 0 ? 64 : 128;
    case 7: return 64;
    case 8: return minor == 0 ? 64 : 128;
    default: return 128;
  }
}

int schedulers_per_sm_for_cc(int major, int minor) {
  if (major == 1) return 1;
  if (major == 2) return 2;
  if (major == 6 && minor == 0) return 2;
  return 4;
}

GpuPreset preset_from_device(const DeviceFacts& f) {
  // A named preset fits when its id or a distinctive word of its name is in the device name and
  // the compute capability and SM count agree (an H100 PCIe has 114 SMs, not the SXM's 132).
  const std::string dev = lower(f.name);
  for (const auto& p : gpu_presets()) {
    if (p.cc_major != f.cc_major || p.cc_minor != f.cc_minor || p.sm_count != f.sm_count) continue;
    // Same die, different memory (A100 40 GB vs 80 GB): the memory decides.
    if (f.memory_gb > 0 && std::abs(p.memory_gb - f.memory_gb) > 0.2 * p.memory_gb) continue;
    std::string key = lower(p.id);
    key.erase(std::remove(key.begin(), key.end(), '-'), key.end());
    const auto dash = p.id.find('-');
    const std::string stem = lower(dash == std::string::npos ? p.id : p.id.substr(0, dash));
    std::string compact = dev;
    compact.erase(std::remove(compact.begin(), compact.end(), ' '), compact.end());
    if (compact.find(key) != std::string::npos || compact.find(stem) != std::string::npos) return p;
  }

  const Generation g = generation_for(f.cc_major, f.cc_minor);
  GpuPreset p;
  p.id = "this-gpu";
  p.name = f.name.empty() ? "this GPU" : f.name;
  p.architecture = g.arch;
  p.cc_major = f.cc_major;
  p.cc_minor = f.cc_minor;
  p.sm_count = std::max(1, f.sm_count);
  p.fp32_lanes_per_sm = fp32_lanes_per_sm_for_cc(f.cc_major, f.cc_minor);
  p.schedulers_per_sm = schedulers_per_sm_for_cc(f.cc_major, f.cc_minor);
  p.clock_mhz = f.clock_mhz > 0 ? f.clock_mhz : 1500;
  p.memory_bandwidth_gbs = f.memory_bandwidth_gbs > 0 ? f.memory_bandwidth_gbs : 500;
  p.memory_gb = f.memory_gb;
  p.l2_kb = f.l2_bytes / 1024;
  p.l2_bandwidth_gbs = 3 * p.memory_bandwidth_gbs;
  p.l1_kb = g.l1_kb;
  p.l1_shares_smem = g.l1_shares_smem;
  p.lsu_cycles_per_wavefront = g.lsu;
  p.smem_cycles_per_wavefront = g.smem;
  p.latency = g.lat;
  p.datasheet_fp32_tflops = p.peak_gflops() / 1000;
  p.from_device = true;
  p.source = "cudaGetDeviceProperties of this machine's device";
  p.model_source = "per-architecture defaults (docs/SIMULATION.md)";
  p.uncertain = {"fp32_lanes_per_sm and schedulers_per_sm (from the compute capability)",
                 "model latencies (architecture defaults)"};
  if (f.memory_bandwidth_gbs <= 0) p.uncertain.push_back("memory_bandwidth_gbs (not reported; 500 assumed)");
  return p;
}

}  // namespace ws::sim
