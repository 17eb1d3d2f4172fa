// CPUID, XGETBV and the cache sizes behind cpu_features.hpp.

#include "cpu/cpu_features.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ws::kernels::cpu {

namespace {

#if defined(__x86_64__) || defined(__i386__)
// XGETBV through inline assembly: the intrinsic needs -mxsave for the whole file.
std::uint64_t read_xcr0() {
  std::uint32_t lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

CpuFeatures detect() {
  CpuFeatures f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) return f;
  const unsigned max_leaf = eax;
  char vendor[13] = {};
  std::memcpy(vendor, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  f.vendor = vendor;

  __get_cpuid(1, &eax, &ebx, &ecx, &edx);
  f.family = static_cast<int>((eax >> 8) & 0xf);
  f.model = static_cast<int>((eax >> 4) & 0xf);
  if (f.family == 0xf) f.family += static_cast<int>((eax >> 20) & 0xff);
  if (f.family == 0x6 || f.family >= 0xf) f.model += static_cast<int>(((eax >> 16) & 0xf) << 4);
  f.fma = (ecx >> 12) & 1;
  f.avx = (ecx >> 28) & 1;
  const bool osxsave = (ecx >> 27) & 1;
  if (osxsave) {
    const std::uint64_t xcr0 = read_xcr0();
    f.os_saves_ymm = (xcr0 & 0x6) == 0x6;      // SSE and AVX state
    f.os_saves_zmm = (xcr0 & 0xe6) == 0xe6;    // plus opmask, ZMM0-15 upper halves, ZMM16-31
  }
  if (max_leaf >= 7) {
    __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx);
    f.avx2 = (ebx >> 5) & 1;
    f.avx512f = (ebx >> 16) & 1;
    f.avx512dq = (ebx >> 17) & 1;
    f.avx512bw = (ebx >> 30) & 1;
    f.avx512vl = (ebx >> 31) & 1;
  }
  return f;
}
#else
CpuFeatures detect() { return {}; }
#endif

// "32K", "512K", "32768K", "1M" as sysfs writes them.
long parse_size(const std::string& text) {
  if (text.empty()) return 0;
  std::size_t used = 0;
  long value = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    return 0;
  }
  const char unit = used < text.size() ? text[used] : ' ';
  if (unit == 'K') return value * 1024;
  if (unit == 'M') return value * 1024 * 1024;
  return value;
}

std::string read_word(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  in >> word;
  return word;
}

CacheSizes detect_caches() {
  CacheSizes c;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = read_word(dir + "level");
    if (level.empty()) break;
    const std::string type = read_word(dir + "type");
    const long size = parse_size(read_word(dir + "size"));
    if (level == "1" && type == "Data") c.l1d = size;
    if (level == "2" && type != "Instruction") c.l2 = size;
    if (level == "3" && type != "Instruction") c.l3 = size;
  }
  if (c.l1d <= 0) c.l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE) > 0 ? sysconf(_SC_LEVEL1_DCACHE_SIZE) : 0;
  if (c.l2 <= 0) c.l2 = sysconf(_SC_LEVEL2_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL2_CACHE_SIZE) : 0;
  if (c.l3 <= 0) c.l3 = sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : 0;
  return c;
}

bool is_amd_like(const CpuFeatures& f) { return f.vendor == "AuthenticAMD" || f.vendor == "HygonGenuine"; }

}  // namespace

const CpuFeatures& this_cpu_features() {
  static const CpuFeatures features = detect();
  return features;
}

const CacheSizes& this_cpu_caches() {
  static const CacheSizes caches = detect_caches();
  return caches;
}

bool can_run_avx2_fma(const CpuFeatures& f) { return f.avx && f.avx2 && f.fma && f.os_saves_ymm; }

bool can_run_avx512(const CpuFeatures& f) {
  return can_run_avx2_fma(f) && f.avx512f && f.avx512dq && f.avx512bw && f.avx512vl && f.os_saves_zmm;
}

int fp32_lanes(const CpuFeatures& f) {
  if (can_run_avx512(f)) return 16;
  if (f.avx && f.os_saves_ymm) return 8;
  return 4;
}

int fma_units(const CpuFeatures& f) {
  if (!f.fma) return 1;
  if (can_run_avx512(f)) {
    if (is_amd_like(f)) return f.family >= 0x1a ? 2 : 1;  // Zen 4 double-pumps 256-bit units; Zen 5 has 512-bit ones
    if (f.family == 6) {
      switch (f.model) {
        case 0x66:               // Cannon Lake
        case 0x7d: case 0x7e:    // Ice Lake client
        case 0x8c: case 0x8d:    // Tiger Lake
        case 0xa7:               // Rocket Lake
          return 1;              // client cores fuse ports 0 and 1 into one 512-bit FMA
        default:
          return 2;              // Xeon Scalable (Skylake-SP Gold/Platinum on) and later servers
      }
    }
    return 2;
  }
  if (is_amd_like(f) && f.family == 0x17 && f.model < 0x30) return 1;  // Zen 1/Zen+: 128-bit halves
  return 2;
}

std::string simd_name(const CpuFeatures& f) {
  if (can_run_avx512(f)) return "AVX-512 + FMA";
  if (can_run_avx2_fma(f)) return "AVX2 + FMA";
  if (f.avx && f.os_saves_ymm) return "AVX";
#if defined(__x86_64__) || defined(__i386__)
  return "SSE2";
#else
  return "scalar";
#endif
}

}  // namespace ws::kernels::cpu
