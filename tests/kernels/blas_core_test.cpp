// The OpenBLAS core decision table: CPU features x the core OpenBLAS reported x the user's
// OPENBLAS_CORETYPE. Pure, so every CPU is covered here; no test sets OPENBLAS_CORETYPE.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "cpu/blas_core.hpp"

namespace ws::kernels::cpu {
namespace {

CpuFeatures cpu_with(const std::string& vendor, bool avx, bool avx2_fma, bool avx512) {
  CpuFeatures f;
  f.vendor = vendor;
  f.avx = avx || avx2_fma || avx512;
  f.os_saves_ymm = f.avx;
  f.fma = f.avx2 = avx2_fma || avx512;
  f.avx512f = f.avx512dq = f.avx512bw = f.avx512vl = f.os_saves_zmm = avx512;
  return f;
}

const CpuFeatures kEmeraldRapids = cpu_with("GenuineIntel", true, true, true);
const CpuFeatures kZen3 = cpu_with("AuthenticAMD", true, true, false);
const CpuFeatures kHaswell = cpu_with("GenuineIntel", true, true, false);
const CpuFeatures kSandyBridge = cpu_with("GenuineIntel", true, false, false);
const CpuFeatures kOldSse = cpu_with("GenuineIntel", false, false, false);

TEST(OpenBlasCore, CoreForEachInstructionSet) {
  EXPECT_EQ(openblas_core_for(kEmeraldRapids), "SkylakeX");
  EXPECT_EQ(openblas_core_for(kZen3), "Zen");
  EXPECT_EQ(openblas_core_for(kHaswell), "Haswell");
  EXPECT_EQ(openblas_core_for(cpu_with("HygonGenuine", true, true, false)), "Zen");
  EXPECT_EQ(openblas_core_for(kSandyBridge), "SandyBridge");
  EXPECT_EQ(openblas_core_for(kOldSse), std::nullopt);
  CpuFeatures zmm_off = kEmeraldRapids;  // SkylakeX would fault where the OS does not save ZMM
  zmm_off.os_saves_zmm = false;
  EXPECT_EQ(openblas_core_for(zmm_off), "Haswell");
}

TEST(OpenBlasCore, LevelsOfReportedNames) {
  EXPECT_EQ(openblas_core_level("Prescott"), 1);
  EXPECT_EQ(openblas_core_level("NEHALEM"), 1);
  EXPECT_EQ(openblas_core_level("Sandybridge"), 2);
  EXPECT_EQ(openblas_core_level("Zen"), 3);
  EXPECT_EQ(openblas_core_level("Haswell"), 3);
  EXPECT_EQ(openblas_core_level("SkylakeX"), 4);
  EXPECT_EQ(openblas_core_level("Cooperlake"), 4);
  EXPECT_EQ(openblas_core_level("armv8"), std::nullopt);
  EXPECT_EQ(openblas_core_level(""), std::nullopt);
}

struct Row {
  const char* cpu_name;
  CpuFeatures cpu;
  const char* reported;
  std::optional<std::string> user;
  std::optional<std::string> expected;  // OPENBLAS_CORETYPE to set, nullopt: leave alone
};

TEST(OpenBlasCore, DecisionTable) {
  const std::optional<std::string> unset;
  const Row rows[] = {
      // The misdetection the issue is about: Debian's 0.3.21 on Sapphire/Emerald Rapids.
      {"Emerald Rapids", kEmeraldRapids, "Prescott", unset, "SkylakeX"},
      {"Emerald Rapids", kEmeraldRapids, "Haswell", unset, "SkylakeX"},
      {"Emerald Rapids", kEmeraldRapids, "SkylakeX", unset, std::nullopt},
      {"Emerald Rapids", kEmeraldRapids, "Cooperlake", unset, std::nullopt},
      // The user's value always wins, even a worse one.
      {"Emerald Rapids", kEmeraldRapids, "Prescott", std::string("Haswell"), std::nullopt},
      {"Emerald Rapids", kEmeraldRapids, "Prescott", std::string("Prescott"), std::nullopt},
      // An empty value counts as unset (shells export FOO= as empty).
      {"Emerald Rapids", kEmeraldRapids, "Prescott", std::string(""), "SkylakeX"},
      {"Zen 3", kZen3, "Zen", unset, std::nullopt},
      {"Zen 3", kZen3, "Prescott", unset, "Zen"},
      {"Zen 3", kZen3, "Barcelona", unset, "Zen"},
      {"Zen 3", kZen3, "Haswell", unset, std::nullopt},  // same AVX2 kernel family
      {"Haswell", kHaswell, "Core2", unset, "Haswell"},
      {"Haswell", kHaswell, "Sandybridge", unset, "Haswell"},
      {"Haswell", kHaswell, "Haswell", unset, std::nullopt},
      {"Sandy Bridge", kSandyBridge, "Nehalem", unset, "SandyBridge"},
      {"Sandy Bridge", kSandyBridge, "Sandybridge", unset, std::nullopt},
      {"SSE-only", kOldSse, "Prescott", unset, std::nullopt},
      // A name not in the table (a newer OpenBLAS, another architecture) is left alone.
      {"Emerald Rapids", kEmeraldRapids, "Graniterapids", unset, std::nullopt},
      {"Zen 3", kZen3, "unknown", unset, std::nullopt},
  };
  for (const Row& row : rows) {
    const BlasCoreDecision d = decide_openblas_core(row.cpu, row.reported, row.user);
    EXPECT_EQ(d.set_coretype, row.expected)
        << row.cpu_name << ", reported " << row.reported << ", user " << row.user.value_or("(unset)") << ": " << d.why;
    EXPECT_FALSE(d.why.empty());
  }
}

// Corrections only ever go up, and to a core the CPU can run.
TEST(OpenBlasCore, NeverDowngradesOrOverreaches) {
  const char* names[] = {"Prescott", "Core2", "Nehalem", "Sandybridge", "Bulldozer", "Haswell", "Zen", "SkylakeX"};
  for (const CpuFeatures& f : {kEmeraldRapids, kZen3, kHaswell, kSandyBridge, kOldSse}) {
    for (const char* reported : names) {
      const BlasCoreDecision d = decide_openblas_core(f, reported, std::nullopt);
      if (!d.set_coretype) continue;
      EXPECT_GT(*openblas_core_level(*d.set_coretype), *openblas_core_level(reported)) << d.why;
      EXPECT_EQ(d.set_coretype, openblas_core_for(f));
    }
  }
}

}  // namespace
}  // namespace ws::kernels::cpu
