// "This machine" presets: the live CPU from /proc/cpuinfo and CPUID, and a GPU from plain device
// facts (the app reads them through CUDA; sim stays free of CUDA headers).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "warpscope/sim/presets.hpp"

#include "ascii.hpp"

namespace ws::sim {
namespace {

// L1 misses the core keeps in flight on cpu-naive's B column walk (see build_cpu).
constexpr double kThisMachineMissOverlap = 8;

std::string field_value(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  auto v = line.substr(colon + 1);
  const auto b = v.find_first_not_of(" \t");
  return b == std::string::npos ? std::string{} : v.substr(b);
}

// "32K", "1024K", "32768K", "2M" (sysfs cache sizes) -> KiB; 0 when unreadable.
long size_kib(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return 0;
  const long v = std::atol(text.c_str());
  switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K': return v;
    case 'M': return v * 1024;
    case 'G': return v * 1024 * 1024;
    default: return v / 1024;  // plain bytes
  }
}

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// cpu0's data caches from sysfs: L1d, L2, L3 sizes in KiB (0 where the kernel does not say).
struct CacheSizes {
  long l1d = 0, l2 = 0, l3 = 0;
  int l1d_ways = 0;
};
CacheSizes sysfs_caches() {
  CacheSizes c;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_line(dir + "level"), type = read_line(dir + "type");
    if (level.empty()) continue;
    if (type == "Instruction") continue;
    const long kib = size_kib(read_line(dir + "size"));
    if (level == "1") {
      c.l1d = kib;
      c.l1d_ways = std::atoi(read_line(dir + "ways_of_associativity").c_str());
    }
    else if (level == "2") c.l2 = kib;
    else if (level == "3") c.l3 = kib;
  }
  return c;
}

// Latency in cycles of a dependent scalar FP add (ADDSS), the chain of cpu-naive as compiled for
// baseline x86-64 (mulss + addss, no FMA contraction), from the CPUID family and model that
// /proc/cpuinfo reports. Figures: Agner Fog's instruction tables and uops.info; Intel's
// optimization manual for Golden Cove's 2-cycle fast adders; Chips and Cheese for Zen 5.
int fadd_latency(const std::string& vendor, int family, int model, bool& known) {
  known = true;
  if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") {
    if (family >= 0x1A) return 2;  // Zen 5
    if (family >= 0x17) return 3;  // Zen 1-4 (Hygon Dhyana is Zen 1)
    if (family == 0x15) return 6;  // Bulldozer family: adds go through the FMA unit
    known = false;
    return 4;
  }
  if (vendor == "GenuineIntel" && family == 6) {
    switch (model) {
      // Golden Cove and later P-cores: Alder/Raptor Lake, Sapphire/Emerald/Granite Rapids,
      // Meteor/Arrow/Lunar Lake.
      case 0x97: case 0x9A: case 0xB7: case 0xBA: case 0xBF: case 0x8F: case 0xCF: case 0xAD:
      case 0xAE: case 0xAA: case 0xAC: case 0xC5: case 0xC6: case 0xBD:
        return 2;
      // Sandy Bridge to Broadwell.
      case 0x2A: case 0x2D: case 0x3A: case 0x3E: case 0x3C: case 0x3F: case 0x45: case 0x46:
      case 0x3D: case 0x47: case 0x4F: case 0x56:
        return 3;
      // Skylake to Tiger Lake / Ice Lake server: 4.
      default:
        known = model >= 0x4E;
        return 4;
    }
  }
  known = false;
  return 4;
}

// L3 load-to-use latency in core cycles by CPUID family/model: not reported by the machine, so
// per microarchitecture (7-cpu.com, Chips and Cheese memory-latency articles). What matters for
// cpu-naive at 1024³, where B's column comes from L3: an Intel server mesh is twice as far as a
// Zen CCX's L3. 0 when unknown (the generic default stays).
int l3_latency_for(const std::string& vendor, int family, int model) {
  if (vendor == "AuthenticAMD" || vendor == "HygonGenuine") {
    if (family == 0x17) return 40;  // Zen 1/2
    if (family == 0x19) return 48;  // Zen 3 (46) / Zen 4 (50)
    if (family >= 0x1A) return 50;  // Zen 5
    return 0;
  }
  if (vendor == "GenuineIntel" && family == 6) {
    switch (model) {
      case 0x55: return 80;                        // Skylake-SP / Cascade Lake mesh
      case 0x6A: case 0x6C: return 90;             // Ice Lake-SP
      case 0x8F: case 0xCF: return 105;            // Sapphire / Emerald Rapids
      case 0xAD: case 0xAE: return 110;            // Granite Rapids
      case 0x97: case 0x9A: case 0xB7: case 0xBA: case 0xBF: return 65;  // Alder / Raptor Lake
      default: return 0;
    }
  }
  return 0;
}

// Latency in cycles of a dependent 64-bit IMUL r64, r64 (the clock probe's chain): 3 on every
// AMD core from Zen 1 to Zen 5 and every Intel Core / Xeon core from Sandy Bridge on (Agner Fog's
// instruction tables; uops.info). 0 where the table does not say (no clock probe then).
int imul_latency(const std::string& vendor, int family, int model) {
  if ((vendor == "AuthenticAMD" || vendor == "HygonGenuine") && family >= 0x17) return 3;
  if (vendor == "GenuineIntel" && family == 6 && model >= 0x2A) {
    // Atom-line cores (Silvermont to Gracemont) have other multipliers: no clock probe.
    switch (model) {
      case 0x37: case 0x4A: case 0x4C: case 0x4D: case 0x5A: case 0x5C: case 0x5F: case 0x7A:
      case 0x86: case 0x96: case 0x9C: case 0xBE:
        return 0;
      default:
        return 3;
    }
  }
  return 0;
}

// Each loop is timed a few times and the fastest kept: the probe measures the core, not the other
// processes sharing it.
template <class F>
double fastest_ns_per_op(int repeats, double ops, F&& body) {
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    body();
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / ops;
    if (r == 0 || ns < best) best = ns;
  }
  return best;
}

std::mutex& simd_mutex() {
  static std::mutex m;
  return m;
}

std::optional<SimdFacts>& provided_simd() {
  static std::optional<SimdFacts> facts;
  return facts;
}

// "Intel(R) Xeon(R) Processor" as a sentence names it: the marks add a line to the cores'
// panel at 2x text (three lines for the label on 1600x900), which cost the cards their cell line.
// The real-run panel keeps the model name verbatim (kernels/ reads it there).
std::string without_trademark_marks(std::string name) {
  for (const char* mark : {"(R)", "(r)", "(TM)", "(tm)"})
    for (auto at = name.find(mark); at != std::string::npos; at = name.find(mark, at)) name.erase(at, std::strlen(mark));
  for (auto at = name.find("  "); at != std::string::npos; at = name.find("  ", at)) name.erase(at, 1);
  return name;
}

}  // namespace

void provide_this_machine_simd(const SimdFacts& facts) {
  const std::lock_guard lock(simd_mutex());
  provided_simd() = facts;
}

CpuProbe probe_this_cpu() {
  CpuProbe probe;
#if defined(__x86_64__)
  // The clock: a chain of dependent 64-bit multiplies, 3 cycles each (imul_latency), so the
  // time per multiply gives the rate the core really runs at. In a VM /proc/cpuinfo's "cpu MHz"
  // is the host's nominal (TSC) rate and cpufreq is absent; the core boosts above it.
  {
    constexpr int kMuls = 1 << 17;
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    const std::uint64_t by = 0xD1B54A32D192ED03ull;
    probe.imul_ns = fastest_ns_per_op(5, kMuls * 8.0, [&] {
      for (int i = 0; i < kMuls; ++i)
        asm volatile("imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0\n\t"
                     "imul %1, %0\n\timul %1, %0\n\timul %1, %0\n\timul %1, %0"
                     : "+r"(x) : "r"(by));
    });
    // cpu-naive's chain: each k step's ADDSS waits for the last. Timed against the IMUL chain it
    // gives the FADD latency in cycles where the family/model table cannot be trusted: a VM may
    // report another model than the core it runs on (one of the project's Xeons says model 167,
    // Rocket Lake, ADDSS 4 cycles, and has AMX, which only Golden Cove cores and later have).
    float s = 1.0f;
    const float tiny = 1e-30f;
    probe.fadd_ns = fastest_ns_per_op(5, kMuls * 8.0, [&] {
      for (int i = 0; i < kMuls; ++i)
        asm volatile("addss %1, %0\n\taddss %1, %0\n\taddss %1, %0\n\taddss %1, %0\n\t"
                     "addss %1, %0\n\taddss %1, %0\n\taddss %1, %0\n\taddss %1, %0"
                     : "+x"(s) : "x"(tiny));
    });
  }
#endif
  // The latency B's column walk sees and how many of its misses overlap. 1024 lines 4 KB apart
  // (cpu-naive's B at N = 1024): a new page every load, and a single L1d set (L1d sets are
  // indexed by address bits 6-11 on every x86 core). Allocated like the kernel's matrices (plain
  // heap, the system's page size); only the lines walked are touched.
  constexpr int kLines = 1024;
  constexpr std::size_t kStride = 4096;
  constexpr int kPasses = 8;
  void* mem = std::aligned_alloc(kStride, kLines * kStride);
  if (mem == nullptr) return probe;
  char* base = static_cast<char*>(mem);
  for (int i = 0; i < kLines; ++i)
    *reinterpret_cast<char**>(base + i * kStride) = base + ((i + 1) % kLines) * kStride;
  // In order, each load's address comes from the previous load: the full load-to-use latency of
  // a constant-stride walk, with whatever the prefetchers, TLBs and caches do for it.
  char* p = base;
  for (int i = 0; i < kLines; ++i) p = *reinterpret_cast<char* volatile*>(p);
  for (int i = 0; i < kLines; ++i) *reinterpret_cast<float*>(base + i * kStride + sizeof(char*)) = 1.0f;
  // The same loads, independent of one another and, like cpu-naive's, scalar float loads (on Zen
  // an FP load has a longer load-to-use than an integer one): an out-of-order core overlaps them
  // as far as the one L1 set they all fall into lets it.
  float sum = 0;
  // Rounds of (chase, independent), each the fastest of 3; the median round of each is kept, so
  // one lucky or disturbed round moves neither figure.
  constexpr int kRounds = 7;
  double walk[kRounds], one_set[kRounds];
  for (int r = 0; r < kRounds; ++r) {
    walk[r] = fastest_ns_per_op(3, kLines * double(kPasses), [&] {
      for (int i = 0; i < kLines * kPasses; ++i) p = *reinterpret_cast<char* volatile*>(p);
    });
    one_set[r] = fastest_ns_per_op(3, kLines * double(kPasses), [&] {
      float s0 = 0, s1 = 0;
      for (int pass = 0; pass < kPasses; ++pass) {
        for (int i = 0; i < kLines; i += 2) {
          s0 += *reinterpret_cast<const volatile float*>(base + i * kStride + sizeof(char*));
          s1 += *reinterpret_cast<const volatile float*>(base + (i + 1) * kStride + sizeof(char*));
        }
      }
      sum += s0 + s1;
    });
  }
  std::nth_element(walk, walk + kRounds / 2, walk + kRounds);
  std::nth_element(one_set, one_set + kRounds / 2, one_set + kRounds);
  probe.stride_walk_ns = walk[kRounds / 2];
  probe.one_set_ns = one_set[kRounds / 2];
  // Rows 2 KB apart (cpu-naive's B at N = 512) fall into two L1 sets: the same independent loads
  // over lines 2 KB apart, in the first quarter of the buffer (every page already touched), and as
  // many as that column has (512: 1 MB). Walking 1024 such lines (2 MB) measured a column that
  // does not exist: on a Zen 5 with 1 MB of L2 it took 2.0 ns a load against 1.2 for 512 lines,
  // and the real loop at 512³ ran at 1.2.
  constexpr int kTwoSetLines = 512;
  double two_sets[kRounds];
  for (int r = 0; r < kRounds; ++r) {
    two_sets[r] = fastest_ns_per_op(3, kTwoSetLines * double(kPasses), [&] {
      float s0 = 0, s1 = 0;
      for (int pass = 0; pass < kPasses; ++pass) {
        for (int i = 0; i < kTwoSetLines; i += 2) {
          s0 += *reinterpret_cast<const volatile float*>(base + i * (kStride / 2) + sizeof(char*));
          s1 += *reinterpret_cast<const volatile float*>(base + (i + 1) * (kStride / 2) + sizeof(char*));
        }
      }
      sum += s0 + s1;
    });
  }
  std::nth_element(two_sets, two_sets + kRounds / 2, two_sets + kRounds);
  probe.two_sets_ns = two_sets[kRounds / 2];
  std::free(mem);
  (void)sum;
  return probe;
}

MachineFacts this_machine_facts() {
  MachineFacts f;
  {
    std::ifstream in("/proc/cpuinfo");
    std::ostringstream text;
    text << in.rdbuf();
    f.cpuinfo = text.str();
  }
  f.cpufreq_max_khz = std::atof(read_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq").c_str());
  const CacheSizes caches = sysfs_caches();
  f.l1d_kib = caches.l1d;
  f.l2_kib = caches.l2;
  f.l3_kib = caches.l3;
  f.l1d_ways = caches.l1d_ways;
  f.hardware_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (__builtin_cpu_supports("avx512f")) {
    f.simd_isa = fma ? "AVX-512 + FMA" : "AVX-512";
    f.fp32_lanes = 16;
  } else if (__builtin_cpu_supports("avx2") || __builtin_cpu_supports("avx")) {
    f.simd_isa = fma ? "AVX2 + FMA" : "AVX";
    f.fp32_lanes = 8;
  } else {
    f.simd_isa = "SSE2";
    f.fp32_lanes = 4;
  }
  f.fma_units = fma ? 2 : 1;
#else
  f.simd_isa = "NEON";
  f.fp32_lanes = 4;
  f.fma_units = 2;
#endif
  {
    const std::lock_guard lock(simd_mutex());
    if (const auto& given = provided_simd(); given && given->fp32_lanes > 0 && given->fma_units > 0) {
      f.simd_isa = given->isa;
      f.fp32_lanes = given->fp32_lanes;
      f.fma_units = given->fma_units;
      f.simd_source = given->source;
    }
  }
  f.probe = probe_this_cpu();
  return f;
}

CpuPreset cpu_preset_from(const MachineFacts& f) {
  CpuPreset p;
  p.id = "this-machine";
  p.year = 0;
  p.from_machine = true;
  p.source = "/proc/cpuinfo (model name, family/model, physical id/core id), CPUID via __builtin_cpu_supports, "
             "sysfs cache sizes, and probes run on this core (clock, strided-walk latency, fills per L1 set)";
  if (f.simd_source.empty()) {
    p.uncertain = {"fma_units (2 assumed with AVX2+FMA, else 1)"};
  } else {
    p.source += "; SIMD width and FMA units from " + f.simd_source;
    p.uncertain = {"fma_units (from a CPU family/model table, not measured)"};
  }

  std::istringstream in(f.cpuinfo);
  std::string line;
  double mhz = 0;
  std::set<std::pair<std::string, std::string>> physical_cores;
  std::string phys, vendor;
  int family = -1, model = -1;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 && p.name.empty()) p.name = field_value(line);
    else if (line.rfind("vendor_id", 0) == 0 && vendor.empty()) vendor = field_value(line);
    else if (line.rfind("cpu family", 0) == 0 && family < 0) family = std::atoi(field_value(line).c_str());
    else if (line.rfind("model", 0) == 0 && line.rfind("model name", 0) != 0 && model < 0)
      model = std::atoi(field_value(line).c_str());
    else if (line.rfind("cpu MHz", 0) == 0 && mhz == 0) mhz = std::atof(field_value(line).c_str());
    else if (line.rfind("physical id", 0) == 0) phys = field_value(line);
    else if (line.rfind("core id", 0) == 0) physical_cores.insert({phys, field_value(line)});
  }
  const int hw = std::max(1, f.hardware_threads);
  p.threads = hw;
  p.cores = physical_cores.empty() ? hw : std::min<int>(hw, static_cast<int>(physical_cores.size()));
  if (p.name.empty()) p.name = "this machine";
  p.name = without_trademark_marks(p.name);
  p.short_name = p.name;  // a sentence says "AMD EPYC 7B13 64-Core Processor", not "This machine: ..."
  p.name = "This machine: " + p.name;
  p.microarchitecture = "unknown";
  // The clock one busy core runs at. Measured where the IMUL latency is tabled: the probe's
  // chain runs at the core's real rate, turbo and VM included. Else cpufreq's maximum where the
  // kernel exposes it (bare metal: a single busy thread runs at or near it), else "cpu MHz" (in
  // a VM the host's nominal TSC rate; on bare metal without cpufreq, the current rate).
  const int imul = imul_latency(vendor, family, model);
  if (imul > 0 && f.probe.imul_ns > 0) {
    p.base_clock_ghz = p.boost_clock_ghz = imul / f.probe.imul_ns;
  } else if (f.cpufreq_max_khz > 0) {
    p.base_clock_ghz = p.boost_clock_ghz = f.cpufreq_max_khz / 1e6;
    p.uncertain.push_back("base_clock_ghz (cpufreq maximum: what one busy core reaches, not all of them)");
  } else {
    p.base_clock_ghz = p.boost_clock_ghz = mhz > 0 ? mhz / 1000.0 : 2.5;
    p.uncertain.push_back("base_clock_ghz (\"cpu MHz\" of /proc/cpuinfo: nominal rate in a VM, current rate otherwise)");
  }
  if (const int l3 = l3_latency_for(vendor, family, model); l3 > 0) {
    p.l3_latency = l3;
    p.uncertain.push_back("l3_latency (typical for the microarchitecture, not measured here)");
  } else {
    p.uncertain.push_back("l3_latency (microarchitecture not in the table: generic default)");
  }
  bool latency_known = false;
  p.fma_latency = fadd_latency(vendor, family, model, latency_known);
  const bool fadd_measured = imul > 0 && f.probe.imul_ns > 0 && f.probe.fadd_ns > 0;
  if (fadd_measured) {
    // Measured: the ADDSS chain in IMUL latencies. A core's FADD latency is a whole number of
    // cycles; rounding absorbs the probe's few per cent of noise.
    const double cycles = f.probe.fadd_ns / f.probe.imul_ns * imul;
    const int measured = std::clamp(static_cast<int>(std::lround(cycles)), 1, 8);
    if (latency_known && measured != p.fma_latency)
      p.uncertain.push_back("fma_latency (measured " + std::to_string(measured) + " cycles where the CPUID family/model table says " +
                            std::to_string(p.fma_latency) + ": the machine may report another model than its cores, as VMs do)");
    p.fma_latency = measured;
    latency_known = true;
    p.source += "; FADD latency from a dependent ADDSS chain timed against the IMUL clock probe";
  }
  p.model_source = std::string(fadd_measured ? "FADD latency measured at start (an ADDSS chain), L3 latency"
                                             : "FADD and L3 latency") +
                   " by CPUID family/model, cache sizes from sysfs, clock and the B column walk's latency and fills "
                   "per L1 set measured at start, generic out-of-order core defaults for the rest "
                   "(docs/SIMULATION.md, 'The CPU model against this machine')";
  if (!latency_known) p.uncertain.push_back("fma_latency (FADD latency: CPU family not in the table, 4 assumed)");

  p.simd_isa = f.simd_isa;
  p.fp32_lanes = f.fp32_lanes;
  p.fma_units = f.fma_units;
  p.memory_bandwidth_gbs = 50;
  p.l1d_kb = f.l1d_kib > 0 ? static_cast<int>(f.l1d_kib) : 32;
  p.l2_kb = f.l2_kib > 0 ? static_cast<int>(f.l2_kib) : 1024;
  p.l3_mb = f.l3_kib > 0 ? f.l3_kib / 1024.0 : 32;
  if (f.l1d_ways > 0) p.l1d_ways = f.l1d_ways;
  if (f.l1d_kib <= 0 || f.l2_kib <= 0 || f.l3_kib <= 0)
    p.uncertain.push_back("cache sizes (sysfs incomplete: typical values where missing)");
  // Misses in flight for loads spread over many L1 sets: L1 miss buffers hold 12-24 (Intel fill
  // buffers, AMD miss address buffers); fewer overlap when every load is a new page.
  p.miss_overlap = kThisMachineMissOverlap;
  p.uncertain.push_back("miss_overlap (generic out-of-order core value, docs/SIMULATION.md)");
  // B's column walk, from the probe: its latency in this core's cycles, and how many misses one
  // L1 set keeps in flight (the walk's loads, chased one after another, against the same loads
  // issued independently). Without a measured clock the cycles are not known: left out.
  // Below 1 where independent loads into the one set are slower than the chase: on a Zen 5
  // (family 26) they took 3.7-4.4 ns a load against the chase's 2.7-2.9, and cpu-naive at 1024³
  // ran at their pace (15.7 cycles a step), not the chase's (11.4).
  if (p.base_clock_ghz > 0 && imul > 0 && f.probe.imul_ns > 0 && f.probe.stride_walk_ns > 0 && f.probe.one_set_ns > 0) {
    p.stride_walk_latency = f.probe.stride_walk_ns * p.base_clock_ghz;
    p.l1_fills_per_set = std::clamp(f.probe.stride_walk_ns / f.probe.one_set_ns, kMinL1FillsPerSet, 16.0);
    if (f.probe.two_sets_ns > 0)
      p.l1_fills_two_sets = std::clamp(f.probe.stride_walk_ns / f.probe.two_sets_ns, kMinL1FillsPerSet, 32.0);
    p.uncertain.push_back(
        "base_clock_ghz, stride_walk_latency, l1_fills_per_set (measured at start by a few-ms probe: they move by up "
        "to ~10 % between runs when other processes share the core)");
  } else {
    p.uncertain.push_back("stride_walk_latency and l1_fills_per_set (not measured: no clock probe on this core)");
  }
  p.uncertain.push_back("memory_bandwidth_gbs (not measured)");
  p.datasheet_peak_gflops_base = p.peak_gflops();
  return p;
}

namespace {

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
  static const CpuPreset p = cpu_preset_from(this_machine_facts());
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
  const std::string dev = detail::ascii_lower(f.name);
  for (const auto& p : gpu_presets()) {
    if (p.cc_major != f.cc_major || p.cc_minor != f.cc_minor || p.sm_count != f.sm_count) continue;
    // Same die, different memory (A100 40 GB vs 80 GB): the memory decides.
    if (f.memory_gb > 0 && std::abs(p.memory_gb - f.memory_gb) > 0.2 * p.memory_gb) continue;
    std::string key = detail::ascii_lower(p.id);
    key.erase(std::remove(key.begin(), key.end(), '-'), key.end());
    const auto dash = p.id.find('-');
    const std::string stem = detail::ascii_lower(dash == std::string::npos ? p.id : p.id.substr(0, dash));
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
