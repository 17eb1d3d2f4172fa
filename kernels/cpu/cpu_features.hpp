// What this CPU can run and how big its caches are, read once from CPUID, XGETBV and sysfs. The
// micro-kernel dispatch, the cache blocking and the OpenBLAS core check all decide from these
// plain facts, so each decision is a pure function that tests can feed any CPU.
#pragma once

#include <string>

namespace ws::kernels::cpu {

struct CpuFeatures {
  std::string vendor;  // CPUID leaf 0: "GenuineIntel", "AuthenticAMD", ...
  int family = 0, model = 0;  // display family/model (extended fields folded in)
  bool fma = false, avx = false, avx2 = false;
  bool avx512f = false, avx512dq = false, avx512bw = false, avx512vl = false;
  // The OS saves the register state across context switches (XCR0 via XGETBV): without it the
  // instructions exist but fault, so a CPU flag alone is not enough.
  bool os_saves_ymm = false, os_saves_zmm = false;
};

// The CPU this process runs on (CPUID + XGETBV, read once). All false off x86-64.
const CpuFeatures& this_cpu_features();

// Each true only when both the instructions and the OS support for their registers are there.
bool can_run_avx2_fma(const CpuFeatures& f);
bool can_run_avx512(const CpuFeatures& f);  // F, DQ, BW and VL: what OpenBLAS's SkylakeX core needs too

// Vector width the fastest usable instruction set gives, and how many FMA units issue it per
// cycle (a family/model table: AVX-512 on client Intel cores and on Zen 4 runs through one
// 512-bit pipe, Zen 1 splits 256-bit FMAs in two).
int fp32_lanes(const CpuFeatures& f);
int fma_units(const CpuFeatures& f);
std::string simd_name(const CpuFeatures& f);  // "AVX-512 + FMA", "AVX2 + FMA", "AVX", "SSE2"

// Bytes of one instance of each data cache level; 0 where the system does not say.
struct CacheSizes {
  long l1d = 0, l2 = 0, l3 = 0;
};
// sysfs (/sys/devices/system/cpu/cpu0/cache) first: it gives the size of the cache this core
// shares, where sysconf may sum all of a chip's L3 slices (glibc on a 4-CCX EPYC says 256 MiB
// for what is 32 MiB per CCX). sysconf fills the levels sysfs lacks.
const CacheSizes& this_cpu_caches();

}  // namespace ws::kernels::cpu
