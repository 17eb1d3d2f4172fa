// Presets: every file loads, lookups work, and the peaks computed from the parts agree with the
// datasheet figures of the shared reference tables within 2 %.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "warpscope/sim/presets.hpp"

namespace {

using namespace ws::sim;

// RFC 4180-ish: quoted fields may hold commas and doubled quotes.
std::vector<std::vector<std::string>> read_csv(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted) {
        if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
          cell += '"';
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          cell += c;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        row.push_back(cell);
        cell.clear();
      } else {
        cell += c;
      }
    }
    row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

// name -> column -> value
std::map<std::string, std::map<std::string, std::string>> table(const std::string& file) {
  std::map<std::string, std::map<std::string, std::string>> t;
  const auto rows = read_csv(std::string(WS_SIM_REFERENCE_DIR) + "/" + file);
  if (rows.empty()) return t;
  for (std::size_t r = 1; r < rows.size(); ++r)
    for (std::size_t c = 0; c < rows[0].size() && c < rows[r].size(); ++c) t[rows[r][0]][rows[0][c]] = rows[r][c];
  return t;
}

bool have_reference() { return std::filesystem::exists(std::string(WS_SIM_REFERENCE_DIR) + "/gpus.csv"); }

TEST(SimPresets, AllRequiredPartsLoad) {
  const std::set<std::string> want_gpus{"c1060", "gtx580", "c2050", "k80", "p100", "v100",
                                        "a100-80gb", "h100", "h200", "b200", "rtx4090"};
  const std::set<std::string> want_cpus{"i7-3960x", "laptop-2025", "epyc-64", "epyc-96", "epyc-128"};
  std::set<std::string> gpus, cpus;
  for (const auto& g : gpu_presets()) gpus.insert(g.id);
  for (const auto& c : cpu_presets()) cpus.insert(c.id);
  for (const auto& id : want_gpus) EXPECT_TRUE(gpus.count(id)) << id;
  for (const auto& id : want_cpus) EXPECT_TRUE(cpus.count(id)) << id;
  for (const auto& g : gpu_presets()) {
    EXPECT_FALSE(g.source.empty()) << g.id;
    EXPECT_FALSE(g.model_source.empty()) << g.id;
    EXPECT_GT(g.latency.dram, g.latency.fma) << g.id;
  }
  for (const auto& c : cpu_presets()) EXPECT_FALSE(c.source.empty()) << c.id;
}

TEST(SimPresets, PeakFromPartsMatchesOwnDatasheetFigure) {
  for (const auto& g : gpu_presets())
    EXPECT_NEAR(g.peak_gflops() / (g.datasheet_fp32_tflops * 1000), 1.0, 0.02) << g.id;
  for (const auto& c : cpu_presets())
    EXPECT_NEAR(c.peak_gflops() / c.datasheet_peak_gflops_base, 1.0, 0.02) << c.id;
}

TEST(SimPresets, PeakFromPartsMatchesReferenceTables) {
  if (!have_reference()) GTEST_SKIP() << "no shared/reference tables here";
  const auto gpus = table("gpus.csv");
  const auto cpus = table("cpus.csv");
  for (const auto& g : gpu_presets()) {
    ASSERT_TRUE(gpus.count(g.reference_name)) << g.id << ": no row '" << g.reference_name << "'";
    const auto& row = gpus.at(g.reference_name);
    const double ref_tflops = std::stod(row.at("fp32_peak_tflops_non_tensor"));
    EXPECT_NEAR(g.peak_gflops() / (ref_tflops * 1000), 1.0, 0.02) << g.id;
    // The parts themselves come from the table too.
    EXPECT_EQ(g.sm_count, std::stoi(row.at("sm_count"))) << g.id;
    EXPECT_EQ(g.fp32_lanes_per_sm, std::stoi(row.at("fp32_cores_per_sm"))) << g.id;
    EXPECT_DOUBLE_EQ(g.clock_mhz, std::stod(row.at("boost_clock_mhz"))) << g.id;
    EXPECT_EQ(g.schedulers_per_sm, std::stoi(row.at("warp_schedulers_per_sm"))) << g.id;
    EXPECT_EQ(g.cc_string(), row.at("compute_capability")) << g.id;
  }
  for (const auto& c : cpu_presets()) {
    ASSERT_TRUE(cpus.count(c.reference_name)) << c.id << ": no row '" << c.reference_name << "'";
    const auto& row = cpus.at(c.reference_name);
    EXPECT_NEAR(c.peak_gflops() / std::stod(row.at("fp32_peak_gflops_at_base")), 1.0, 0.02) << c.id;
    EXPECT_EQ(c.cores, std::stoi(row.at("cores"))) << c.id;
    EXPECT_DOUBLE_EQ(c.base_clock_ghz, std::stod(row.at("base_clock_ghz"))) << c.id;
  }
}

TEST(SimPresets, LookupByIdAndNameAndUnknownListsValid) {
  EXPECT_EQ(find_gpu("h100").sm_count, 132);
  EXPECT_EQ(find_gpu("H100 (SXM5, 80 GB)").id, "h100");
  EXPECT_EQ(find_gpu("GTX580").id, "gtx580");
  EXPECT_EQ(find_cpu("i7-3960x").cores, 6);
  try {
    find_gpu("voodoo2");
    FAIL() << "no throw";
  } catch (const UnknownPreset& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("voodoo2"), std::string::npos);
    EXPECT_NE(msg.find("h100"), std::string::npos);
    EXPECT_NE(msg.find("c1060"), std::string::npos);
  }
  EXPECT_THROW(find_cpu("z80"), UnknownPreset);
}

TEST(SimPresets, ThisMachineCpu) {
  const CpuPreset& p = this_machine_cpu();
  EXPECT_GE(p.cores, 1);
  EXPECT_TRUE(p.fp32_lanes == 4 || p.fp32_lanes == 8 || p.fp32_lanes == 16);
  EXPECT_GT(p.base_clock_ghz, 0.1);
  EXPECT_GT(p.peak_gflops(), 0);
  EXPECT_EQ(find_cpu("this-machine").name, p.name);
}

TEST(SimPresets, DeviceMatchesNamedPresetOrIsBuilt) {
  DeviceFacts h200{"NVIDIA H200", 9, 0, 132, 1980, 4800, 141, 60 << 20};
  EXPECT_EQ(preset_from_device(h200).id, "h200");
  DeviceFacts h100{"NVIDIA H100 80GB HBM3", 9, 0, 132, 1980, 3350, 80, 50 << 20};
  EXPECT_EQ(preset_from_device(h100).id, "h100");
  // An H100 PCIe has 114 SMs: not the SXM preset.
  DeviceFacts pcie{"NVIDIA H100 PCIe", 9, 0, 114, 1755, 2000, 80, 50 << 20};
  const GpuPreset p = preset_from_device(pcie);
  EXPECT_TRUE(p.from_device);
  EXPECT_EQ(p.sm_count, 114);
  EXPECT_EQ(p.fp32_lanes_per_sm, 128);
  EXPECT_NEAR(p.peak_gflops(), 114 * 128 * 2 * 1.755, 1);
  DeviceFacts t4{"Tesla T4", 7, 5, 40, 1590, 320, 16, 4 << 20};
  EXPECT_EQ(preset_from_device(t4).fp32_lanes_per_sm, 64);
}

}  // namespace
