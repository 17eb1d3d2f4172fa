// Machine facts for labels and bench output, gathered once.

#include "warpscope/kernels/system_info.hpp"

#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include "cpu/cpu_features.hpp"
#include "cpu/cpu_kernels.hpp"
#include "cuda/cuda_backend.hpp"
#include "gl/gl_backend.hpp"

namespace ws::kernels {

namespace {

std::string read_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    if (start != std::string::npos) return line.substr(start);
  }
  return "unknown CPU";
}

int usable_cores() {
  // The affinity mask, not the machine's core count: containers and taskset limit what we get.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

std::string simd_level() {
  // CPUID with the OS's XGETBV answer: AVX-512 silicon whose ZMM state the OS does not save
  // cannot run AVX-512 code, so it is not reported as such.
  const cpu::CpuFeatures& f = cpu::this_cpu_features();
  if (cpu::can_run_avx512(f)) return "avx512";
  if (cpu::can_run_avx2_fma(f)) return "avx2+fma";
  if (f.avx && f.os_saves_ymm) return "avx";
  __builtin_cpu_init();
  if (__builtin_cpu_supports("sse4.2")) return "sse4.2";
  return "sse2";
}

// Reads "Key:   123 kB" from /proc/meminfo; 0 when absent.
std::uint64_t meminfo_kib(const std::string& key) {
  std::ifstream in("/proc/meminfo");
  std::string name;
  std::uint64_t value = 0;
  std::string unit;
  while (in >> name >> value) {
    std::getline(in, unit);
    if (name == key + ":") return value;
  }
  return 0;
}

// A cgroup v2 memory limit caps us below what the machine has free (containers, CI runners).
std::uint64_t cgroup_headroom() {
  std::ifstream max_file("/sys/fs/cgroup/memory.max"), current_file("/sys/fs/cgroup/memory.current");
  std::string max_text;
  std::uint64_t current = 0;
  if (!(max_file >> max_text) || max_text == "max" || !(current_file >> current)) return UINT64_MAX;
  const std::uint64_t limit = std::stoull(max_text);
  return limit > current ? limit - current : 0;
}

}  // namespace

const CpuInfo& cpu_info() {
  static const CpuInfo info{read_cpu_name(), usable_cores(), simd_level(),
                            cpu::simd_name(cpu::this_cpu_features()), cpu::fp32_lanes(cpu::this_cpu_features()),
                            cpu::fma_units(cpu::this_cpu_features())};
  return info;
}

std::optional<GpuInfo> gpu_info() {
  const auto facts = cuda::device_facts();
  if (!facts) return std::nullopt;
  return GpuInfo{facts->name, facts->cc_major, facts->cc_minor, facts->sm_count,
                 facts->memory_bytes, facts->clock_mhz};
}

std::string gpu_status() {
  if (const auto why = cuda::unavailable_reason()) return *why;
  const auto facts = cuda::device_facts();
  if (!facts) return "no CUDA device";
  return facts->name + " (cc " + std::to_string(facts->cc_major) + "." +
         std::to_string(facts->cc_minor) + ", " + std::to_string(facts->sm_count) + " SMs)";
}

std::optional<GlInfo> gl_info() {
  const auto facts = gl::device_facts();
  if (!facts) return std::nullopt;
  return GlInfo{facts->renderer, facts->vendor, facts->version, facts->software, facts->context};
}

std::string gl_status() {
  if (const auto why = gl::unavailable_reason()) return *why;
  const auto facts = gl::device_facts();
  if (!facts) return "no OpenGL device";
  if (facts->software) return facts->renderer + ": a software renderer, runs on this CPU";
  return facts->renderer + " (OpenGL " + facts->version + ")";
}

std::string blas_core_name() { return cpu::blas_core_name(); }

std::uint64_t available_host_memory_bytes() {
  std::uint64_t bytes = meminfo_kib("MemAvailable") * 1024;
  if (bytes == 0) {
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page);
  }
  const std::uint64_t cgroup = cgroup_headroom();
  return cgroup < bytes ? cgroup : bytes;
}

}  // namespace ws::kernels
