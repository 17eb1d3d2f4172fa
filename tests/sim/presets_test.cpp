// Presets: every file loads, lookups work, and the peaks computed from the parts agree with the
// datasheet figures of the shared reference tables within 2 %.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "warpscope/sim/cpu_prediction.hpp"
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

// A caption puts a particle or "(2022)" right after a preset's name, so the name a sentence uses
// carries no bracketed detail, no year and no core count; the label keeps them for tables.
TEST(SimPresets, EveryPresetHasAShortNameForSentences) {
  const std::map<std::string, std::string> want{{"gtx580", "GTX 580"}, {"h100", "H100"}, {"a100-80gb", "A100"},
                                                {"b200", "B200"}, {"epyc-128", "AMD EPYC 9754"}};
  const auto check = [&](const std::string& id, const std::string& name, const std::string& short_name) {
    EXPECT_FALSE(short_name.empty()) << id << ": no short_name";
    EXPECT_EQ(short_name.find_first_of("()[],"), std::string::npos) << id << ": " << short_name;
    EXPECT_EQ(short_name.find(" cores"), std::string::npos) << id;
    EXPECT_NE(name.find(short_name.substr(short_name.find_last_of(' ') + 1)), std::string::npos)
        << id << ": the short name '" << short_name << "' does not name the same part as '" << name << "'";
    if (auto it = want.find(id); it != want.end()) {
      EXPECT_EQ(short_name, it->second) << id;
    }
  };
  for (const auto& g : gpu_presets()) check(g.id, g.name, g.short_name);
  for (const auto& c : cpu_presets()) check(c.id, c.name, c.short_name);
  EXPECT_EQ(find_gpu("gtx580").name, "GeForce GTX 580 (the AlexNet GPU)");
  EXPECT_EQ(find_gpu("gtx580").sentence_name(), "GTX 580");
}

// A label with English words in it ("(the AlexNet GPU)", "(128 cores)") has a Korean one, so a
// Korean table or legend does not switch language mid-row; one without ("H100 (SXM5, 80 GB)")
// reads the same in both and needs none.
TEST(SimPresets, EveryLabelWithEnglishWordsHasAKoreanOne) {
  const auto english_words = [](const std::string& name) {
    std::vector<std::string> found;
    std::string word;
    for (const char ch : name + " ") {
      if (std::isalpha(static_cast<unsigned char>(ch))) {
        word += ch;
        continue;
      }
      const bool lower = !word.empty() && std::all_of(word.begin(), word.end(), [](char x) {
        return std::islower(static_cast<unsigned char>(x)) != 0;
      });
      if (lower && word.size() >= 3) found.push_back(word);
      word.clear();
    }
    return found;
  };
  const auto check = [&](const std::string& id, const std::string& name, const std::string& name_ko) {
    const auto words = english_words(name);
    if (words.empty()) {
      EXPECT_TRUE(name_ko.empty()) << id << ": '" << name << "' reads the same in Korean";
      return;
    }
    ASSERT_FALSE(name_ko.empty()) << id << ": '" << name << "' has '" << words.front() << "' but no name_ko";
    EXPECT_TRUE(english_words(name_ko).empty()) << id << ": " << name_ko;
    // Hangul syllables (U+AC00..U+D7A3) start with the UTF-8 bytes 0xEA..0xED.
    EXPECT_TRUE(std::any_of(name_ko.begin(), name_ko.end(), [](char b) {
      return static_cast<unsigned char>(b) >= 0xEA && static_cast<unsigned char>(b) <= 0xED;
    })) << id << ": no Hangul in " << name_ko;
  };
  for (const auto& g : gpu_presets()) check(g.id, g.name, g.name_ko);
  for (const auto& c : cpu_presets()) check(c.id, c.name, c.name_ko);
  EXPECT_EQ(find_gpu("gtx580").name_ko, "GeForce GTX 580 (AlexNet의 GPU)");
  EXPECT_EQ(find_cpu("epyc-128").name_ko, "AMD EPYC 9754 (128코어)");
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
    // Tensor cores: count, generation and the dense FP16/BF16 figure ("n/a" before Volta). The
    // figure cell may carry words after the number: "125 (FP16 in/FP32 acc; no BF16)".
    const std::string dense = row.at("fp16_bf16_tensor_dense_tflops");
    if (row.at("tensor_core_gen") == "none") {
      EXPECT_FALSE(g.has_tensor_cores()) << g.id;
      EXPECT_EQ(dense.rfind("n/a", 0), 0u) << g.id << ": " << dense;
      continue;
    }
    ASSERT_TRUE(g.has_tensor_cores()) << g.id;
    EXPECT_EQ(g.tensor.cores_per_sm, std::stoi(row.at("tensor_cores_per_sm"))) << g.id;
    EXPECT_EQ(g.sm_count * g.tensor.cores_per_sm, std::stoi(row.at("total_tensor_cores"))) << g.id;
    const int gen = g.tensor.generation;
    const std::string ordinal = std::to_string(gen) + (gen == 1 ? "st" : gen == 2 ? "nd" : gen == 3 ? "rd" : "th");
    EXPECT_EQ(ordinal, row.at("tensor_core_gen")) << g.id;
    EXPECT_NEAR(g.tensor_peak_gflops(*g.tensor_headline()) / (std::stod(dense) * 1000), 1.0, 0.02) << g.id;
  }
  for (const auto& c : cpu_presets()) {
    ASSERT_TRUE(cpus.count(c.reference_name)) << c.id << ": no row '" << c.reference_name << "'";
    const auto& row = cpus.at(c.reference_name);
    EXPECT_NEAR(c.peak_gflops() / std::stod(row.at("fp32_peak_gflops_at_base")), 1.0, 0.02) << c.id;
    EXPECT_EQ(c.cores, std::stoi(row.at("cores"))) << c.id;
    EXPECT_DOUBLE_EQ(c.base_clock_ghz, std::stod(row.at("base_clock_ghz"))) << c.id;
  }
}

// The tensor cores: parts on Volta and later, none before; generation, count and every figure
// with its source.
TEST(SimPresets, TensorCoresWhereTheyExistAndNowhereElse) {
  struct Want {
    const char* id;
    int generation, cores_per_sm;
    bool bf16_tf32;  // Volta multiplies FP16 only
    const char* headline;
  };
  const Want with[] = {{"v100", 1, 8, false, "FP16"}, {"a100-80gb", 3, 4, true, "BF16"}, {"h100", 4, 4, true, "BF16"},
                       {"h200", 4, 4, true, "BF16"},  {"b200", 5, 4, true, "BF16"},      {"rtx4090", 4, 4, true, "BF16"}};
  for (const Want& w : with) {
    SCOPED_TRACE(w.id);
    const GpuPreset& g = find_gpu(w.id);
    ASSERT_TRUE(g.has_tensor_cores());
    EXPECT_EQ(g.tensor.generation, w.generation);
    EXPECT_EQ(g.tensor.cores_per_sm, w.cores_per_sm);
    EXPECT_FALSE(g.tensor.source.empty());
    EXPECT_GT(g.tensor.clock_mhz, 0);
    // A tensor figure is never quoted above the boost clock the FP32 figure uses.
    EXPECT_LE(g.tensor.clock_mhz, g.clock_mhz);
    EXPECT_TRUE(g.tensor.fp16.supported());
    EXPECT_EQ(g.tensor.bf16.supported(), w.bf16_tf32);
    EXPECT_EQ(g.tensor.tf32.supported(), w.bf16_tf32);
    for (const TensorFormat* f : {&g.tensor.fp16, &g.tensor.bf16, &g.tensor.tf32}) {
      if (!f->supported()) {
        EXPECT_EQ(g.tensor_peak_gflops(*f), 0);
        continue;
      }
      EXPECT_FALSE(f->source.empty());
      EXPECT_GT(f->datasheet_tflops, 0);
    }
    EXPECT_EQ(g.tensor_headline_format(), w.headline);
    ASSERT_NE(g.tensor_headline(), nullptr);
  }
  for (const char* id : {"c1060", "gtx580", "c2050", "k80", "p100"}) {
    SCOPED_TRACE(id);
    const GpuPreset& g = find_gpu(id);
    EXPECT_FALSE(g.has_tensor_cores());
    EXPECT_EQ(g.tensor.generation, 0);
    EXPECT_TRUE(g.tensor.source.empty());
    EXPECT_EQ(g.tensor_headline(), nullptr);
    EXPECT_EQ(g.tensor_headline_format(), "");
    EXPECT_FALSE(g.tensor.fp16.supported() || g.tensor.bf16.supported() || g.tensor.tf32.supported());
    EXPECT_EQ(g.tensor_peak_gflops(g.tensor.bf16), 0);
  }
  // Every preset is one or the other.
  for (const auto& g : gpu_presets()) EXPECT_EQ(g.has_tensor_cores(), g.tensor_headline() != nullptr) << g.id;
}

// SMs x tensor cores per SM x FLOP per clock per core x tensor clock against the vendors' dense
// figures (written here as well as in the files, so an edit to a file cannot move both).
TEST(SimPresets, TensorPeakFromPartsMatchesDatasheets) {
  struct Figure {
    const char* id;
    const char* format;
    double tflops;
  };
  const Figure figures[] = {
      {"v100", "fp16", 125},                                                  // FP16 in, FP32 accumulate
      {"a100-80gb", "fp16", 312}, {"a100-80gb", "bf16", 312}, {"a100-80gb", "tf32", 156},
      {"h100", "fp16", 989.4},    {"h100", "bf16", 989.4},    {"h100", "tf32", 494.7},
      {"h200", "fp16", 989.4},    {"h200", "bf16", 989.4},    {"h200", "tf32", 494.7},
      {"b200", "fp16", 2250},     {"b200", "bf16", 2250},
      {"b200", "tf32", 1125},  // NVIDIA's table: 2.2 PF sparse, rounded; half of BF16 (see b200.toml)
      {"rtx4090", "fp16", 165.2}, {"rtx4090", "bf16", 165.2}, {"rtx4090", "tf32", 82.6},  // FP32 accumulate
  };
  for (const Figure& f : figures) {
    SCOPED_TRACE(std::string(f.id) + " " + f.format);
    const GpuPreset& g = find_gpu(f.id);
    const std::string fmt = f.format;
    const TensorFormat& tf = fmt == "fp16" ? g.tensor.fp16 : fmt == "bf16" ? g.tensor.bf16 : g.tensor.tf32;
    ASSERT_TRUE(tf.supported());
    EXPECT_NEAR(g.tensor_peak_gflops(tf) / (f.tflops * 1000), 1.0, 0.02) << g.tensor_peak_gflops(tf);
    EXPECT_DOUBLE_EQ(tf.datasheet_tflops, f.tflops);
  }
  // And every figure a file states, against the file's own parts.
  for (const auto& g : gpu_presets())
    for (const TensorFormat* tf : {&g.tensor.fp16, &g.tensor.bf16, &g.tensor.tf32})
      if (tf->supported()) {
        EXPECT_NEAR(g.tensor_peak_gflops(*tf) / (tf->datasheet_tflops * 1000), 1.0, 0.02) << g.id;
      }
  // The Hopper figures are quoted at 1830 MHz: at the 1980 MHz FP32 clock the same parts would be
  // 8 % over the datasheet, which is why the tensor clock is its own part.
  const GpuPreset& h100 = find_gpu("h100");
  EXPECT_DOUBLE_EQ(h100.tensor.clock_mhz, 1830);
  EXPECT_GT(h100.sm_count * 4 * 1024 * h100.clock_mhz * 1e-3 / (989.4 * 1000), 1.05);
}

TEST(SimPresets, TensorTableIsCheckedWhenLoaded) {
  std::ifstream in(presets_dir() + "/gpus/a100-80gb.toml");
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string good = buf.str();
  ASSERT_NE(good.find("[tensor]"), std::string::npos);
  const GpuPreset ok = parse_gpu_preset(good, "a100.toml");
  EXPECT_EQ(ok.tensor.cores_per_sm, 4);
  EXPECT_EQ(ok.tensor.bf16.flops_per_clock_per_core, 512);
  auto refused = [&](const std::string& from, const std::string& to, const std::string& says) {
    std::string text = good;
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    try {
      parse_gpu_preset(text, "a100.toml");
      ADD_FAILURE() << "accepted with '" << to << "'";
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind("a100.toml", 0), 0u) << msg;
      EXPECT_NE(msg.find(says), std::string::npos) << msg;
    }
  };
  refused("cores_per_sm = 4", "cores_per_sm = 0", "cores_per_sm");
  refused("cores_per_sm = 4", "", "'tensor.cores_per_sm'");
  refused("clock_mhz = 1410\nsource = \"NVIDIA A100 Tensor", "clock_mhz = nan\nsource = \"NVIDIA A100 Tensor",
          "clock_mhz");
  refused("flops_per_clock_per_core = 256", "flops_per_clock_per_core = -256", "tensor.tf32");
  refused("datasheet_tflops = 156\nsource", "datasheet_tflops = 156\nsourc", "'tensor.tf32.source'");
  // Tensor cores that multiply neither FP16 nor BF16 have no figure to show.
  std::string neither = good;
  for (const std::string header : {"[tensor.fp16]", "[tensor.bf16]"}) {
    const auto at = neither.find(header);
    ASSERT_NE(at, std::string::npos);
    neither.replace(at, header.size(), header == "[tensor.fp16]" ? "[tensor.int8]" : "[tensor.fp8]");
  }
  EXPECT_THROW(parse_gpu_preset(neither, "a100.toml"), std::runtime_error);
  // Without [tensor] a part has no tensor cores (the files before Volta).
  const GpuPreset none = parse_gpu_preset(good.substr(0, good.find("# Tensor cores")) +
                                              good.substr(good.find("# Simulator constants")),
                                          "a100.toml");
  EXPECT_FALSE(none.has_tensor_cores());
  EXPECT_EQ(none.tensor_headline(), nullptr);
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
  // The probes ran (or were left out): whatever this machine measured, the figures are sane.
  EXPECT_TRUE(p.l1_fills_per_set == 0 || (p.l1_fills_per_set >= kMinL1FillsPerSet && p.l1_fills_per_set <= 16));
  EXPECT_GE(p.stride_walk_latency, 0);
  EXPECT_GE(p.fma_latency, 1);
  EXPECT_LE(p.fma_latency, 8);
  // Named presets are the model without the two measured limits.
  for (const auto& named : cpu_presets()) {
    EXPECT_EQ(named.l1_fills_per_set, 0) << named.id;
    EXPECT_EQ(named.stride_walk_latency, 0) << named.id;
  }
}

// The facts of this project's AMD machine (a Zen 4 EPYC under KVM, 2 vCPUs), probes included.
MachineFacts epyc_facts() {
  MachineFacts f;
  f.cpuinfo =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
      "model name\t: AMD EPYC\ncpu MHz\t\t: 2596.142\nphysical id\t: 0\ncore id\t\t: 0\n\n"
      "processor\t: 1\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n"
      "model name\t: AMD EPYC\ncpu MHz\t\t: 2596.142\nphysical id\t: 0\ncore id\t\t: 1\n";
  f.l1d_kib = 32;
  f.l1d_ways = 8;
  f.l2_kib = 1024;
  f.l3_kib = 32768;
  f.hardware_threads = 2;
  f.simd_isa = "AVX-512 + FMA";
  f.fp32_lanes = 16;
  f.fma_units = 2;
  f.probe.imul_ns = 0.8125;        // 3 cycles -> 3.69 GHz, where "cpu MHz" says 2.596
  f.probe.stride_walk_ns = 3.68;   // 13.6 cycles a load
  f.probe.one_set_ns = 3.07;       // the same loads independent: 1.2 in flight in one L1 set
  f.probe.two_sets_ns = 2.19;      // lines 2 KB apart (two sets): 1.68 in flight, not 2.4
  return f;
}

// The app passes the kernels' CPUID/XGETBV facts in; the preset then takes its lanes and FMA
// units from them and names where they came from (the peak follows).
TEST(SimPresets, ThisMachineSimdFromTheRealKernels) {
  MachineFacts guessed = epyc_facts();
  guessed.fp32_lanes = 8;  // what a guess without the OS's ZMM answer might say
  guessed.fma_units = 2;
  const CpuPreset before = cpu_preset_from(guessed);
  EXPECT_EQ(before.source.find("SIMD width and FMA units from"), std::string::npos);
  MachineFacts told = guessed;
  told.simd_isa = "AVX-512 + FMA";
  told.fp32_lanes = 16;
  told.fma_units = 1;  // Zen 4 runs 512-bit FMAs through one double-pumped unit
  told.simd_source = "CPUID and XGETBV as read by the real kernels";
  const CpuPreset after = cpu_preset_from(told);
  EXPECT_EQ(after.fp32_lanes, 16);
  EXPECT_EQ(after.fma_units, 1);
  EXPECT_EQ(after.simd_isa, "AVX-512 + FMA");
  EXPECT_NE(after.source.find("CPUID and XGETBV as read by the real kernels"), std::string::npos);
  EXPECT_DOUBLE_EQ(after.peak_gflops(), before.peak_gflops());  // 16 x 1 = 8 x 2 lanes per cycle
}

TEST(SimPresets, ThisMachineTakesClockAndWalkFromItsProbes) {
  const CpuPreset p = cpu_preset_from(epyc_facts());
  EXPECT_EQ(p.cores, 2);
  EXPECT_NEAR(p.base_clock_ghz, 3.0 / 0.8125, 1e-9);  // the IMUL chain, not cpu MHz
  EXPECT_NEAR(p.stride_walk_latency, 3.68 * 3.0 / 0.8125, 1e-9);
  EXPECT_NEAR(p.l1_fills_per_set, 3.68 / 3.07, 1e-9);
  EXPECT_EQ(p.fma_latency, 3);  // Zen 4 ADDSS
  EXPECT_EQ(p.l3_latency, 48);
  // cpu-naive at 1024³: the column is in one L1 set, so a step costs the walk's latency over the
  // fills in flight, 13.6 / 1.2 = 11.3 cycles; at 512³ two sets share the walk.
  const auto n1024 = predict_cpu_naive(p, 1024, 1024, 1024);
  EXPECT_NEAR(n1024.cycles_per_step, p.stride_walk_latency / p.l1_fills_per_set, 0.3);
  EXPECT_NEAR(n1024.gflops, 2 * p.base_clock_ghz / n1024.cycles_per_step, 1e-9);
  // At 512³ the column alternates between two sets, which keep what the two-set probe measured in
  // flight: 13.6 / 1.68 = 8.1 cycles, not half of 11.3.
  EXPECT_NEAR(p.l1_fills_two_sets, 3.68 / 2.19, 1e-9);
  const auto n512 = predict_cpu_naive(p, 512, 512, 512);
  EXPECT_NEAR(n512.cycles_per_step, p.stride_walk_latency / p.l1_fills_two_sets, 0.4);
  // Without the probes (a core whose IMUL latency is not tabled, or nothing measured), the clock
  // is cpu MHz again and the walk limits are off.
  MachineFacts unprobed = epyc_facts();
  unprobed.probe = {};
  const CpuPreset q = cpu_preset_from(unprobed);
  EXPECT_NEAR(q.base_clock_ghz, 2.596142, 1e-9);
  EXPECT_EQ(q.l1_fills_per_set, 0);
  EXPECT_EQ(q.stride_walk_latency, 0);
  MachineFacts other = epyc_facts();
  other.cpuinfo = "vendor_id\t: SomeVendor\ncpu family\t: 1\nmodel\t\t: 1\ncpu MHz\t\t: 2000\n";
  EXPECT_NEAR(cpu_preset_from(other).base_clock_ghz, 2.0, 1e-9);
  EXPECT_EQ(cpu_preset_from(other).l1_fills_per_set, 0);
}

TEST(SimPresets, ThisMachineOnTheProjectsXeon) {
  // The project's Xeon VM: Intel family 6 model 207 (Emerald Rapids, Raptor Cove cores), 48 KB
  // 12-way L1d, 2 MB L2, 300 MB L3. Its probes as measured there (2026-12-05, three processes:
  // IMUL 1.08-1.13 ns, ADDSS 0.71-0.95 ns, the 4 MB chase 24.4-25.6 ns, the same loads
  // independent 4.5-4.6 ns, the 1 MB two-set column 1.22-1.24 ns). The chase runs past the L2 into
  // L3 (68 cycles) while the two-set column sits in L2: charged the L2's latency, its misses came
  // four times as often as the probe saw and the model said 2.4-2.5 GFLOP/s at 512³ against 1.6-1.8
  // measured by scripts/bench-cpu-model. The column walk's misses hold their slot for the walk's
  // latency, so their interval is the probe's: 2 / ns a step GFLOP/s.
  MachineFacts f = epyc_facts();
  f.cpuinfo = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 207\n"
              "model name\t: Intel(R) Xeon(R) Platinum 8581C CPU @ 2.10GHz\ncpu MHz\t\t: 2100.000\n";
  f.l1d_kib = 48;
  f.l1d_ways = 12;  // 64 sets, like every x86 L1d: a 4 KB stride is one set
  f.l2_kib = 2048;
  f.l3_kib = 300 * 1024;
  f.probe.imul_ns = 1.10;  // 2.73 GHz
  f.probe.fadd_ns = 0.714;
  f.probe.stride_walk_ns = 25.0;
  f.probe.one_set_ns = 4.5;
  f.probe.two_sets_ns = 1.22;
  const CpuPreset p = cpu_preset_from(f);
  // Named as a sentence would: without the trademark marks that cost the cores' panel a line.
  EXPECT_EQ(p.short_name, "Intel Xeon Platinum 8581C CPU @ 2.10GHz");
  EXPECT_EQ(p.name, "This machine: Intel Xeon Platinum 8581C CPU @ 2.10GHz");
  EXPECT_EQ(p.fma_latency, 2);
  EXPECT_EQ(p.l3_latency, 105);
  const double g512 = predict_cpu_naive(p, 512, 512, 512).gflops;
  const double g1024 = predict_cpu_naive(p, 1024, 1024, 1024).gflops;
  std::printf("Xeon model 207 (its probes): 512^3 %.3f GFLOP/s, 1024^3 %.3f GFLOP/s\n", g512, g1024);
  EXPECT_NEAR(g512, 2 / f.probe.two_sets_ns, 0.1);  // two sets: the two-set loads' interval (and A's misses)
  EXPECT_NEAR(g1024, 2 / f.probe.one_set_ns, 0.02);   // one set: the one-set loads' interval
  // And so within issue 10's ±30 % of cpu-naive measured there (medians of three passes).
  EXPECT_NEAR(g512 / 1.70, 1.0, 0.3);
  EXPECT_NEAR(g1024 / 0.43, 1.0, 0.3);
}

// A VM may report another CPU model than the cores it runs on: one of the project's Xeons says
// family 6 model 167 (Rocket Lake: ADDSS 4 cycles in the table) and has AMX, which only Golden
// Cove cores and later have (ADDSS 2). There the ADDSS chain the probe times decides, and the
// preset says that the table disagreed.
TEST(SimPresets, ThisMachineMeasuresItsAddLatency) {
  MachineFacts f = epyc_facts();
  f.cpuinfo = "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 167\n"
              "model name\t: Intel(R) Xeon(R) Processor\ncpu MHz\t\t: 2100.000\n";
  f.probe.imul_ns = 1.0;  // 3 cycles per ns: 3.0 GHz
  const auto has = [](const CpuPreset& p, const std::string& text) {
    return std::any_of(p.uncertain.begin(), p.uncertain.end(),
                       [&](const std::string& u) { return u.find(text) != std::string::npos; });
  };
  // Not probed: the table's 4, as before.
  EXPECT_EQ(cpu_preset_from(f).fma_latency, 4);
  // Probed at 2.1 and 2.34 cycles (a busy core's noise): 2, and the disagreement is on record.
  for (const double cycles : {2.1, 2.34, 1.8}) {
    f.probe.fadd_ns = cycles / 3.0;
    const CpuPreset p = cpu_preset_from(f);
    EXPECT_EQ(p.fma_latency, 2) << cycles;
    EXPECT_TRUE(has(p, "measured 2 cycles where the CPUID family/model table says 4")) << cycles;
    EXPECT_NE(p.source.find("ADDSS chain"), std::string::npos);
  }
  // Where the table and the probe agree, nothing is flagged; the figure is the probe's.
  MachineFacts zen = epyc_facts();
  zen.probe.fadd_ns = zen.probe.imul_ns * 3.1 / 3.0;
  EXPECT_EQ(cpu_preset_from(zen).fma_latency, 3);
  EXPECT_FALSE(has(cpu_preset_from(zen), "fma_latency"));
  // A chain timed absurdly (a preempted probe) stays within a core's range.
  f.probe.fadd_ns = 40.0;
  EXPECT_EQ(cpu_preset_from(f).fma_latency, 8);
  // The prediction follows: the two-cycle chain is cpu-naive's floor at 512³ on this Xeon.
  f.probe.fadd_ns = 2.0 / 3.0;
  f.probe.stride_walk_ns = 16.0 / 3.0;
  f.probe.one_set_ns = f.probe.stride_walk_ns / 1.2;
  f.probe.two_sets_ns = f.probe.stride_walk_ns / 8.0;  // fills overlap well: the chain is the limit
  EXPECT_NEAR(predict_cpu_naive(cpu_preset_from(f), 512, 512, 512).cycles_per_step, 2.0, 0.3);
}

// A third project machine, 2026-12-03: AMD family 26 model 2 (Zen 5) under a VM, 48 KB 12-way
// L1d and 1 MB L2 per core. Its probes, as measured there: a clock of 4.1 GHz; the chase 2.7 ns a
// load; the same loads issued independently into the one set *slower*, 4.0 ns; and 512 lines 2 KB
// apart (cpu-naive's B column at 512³) 1.2 ns. The real cpu-naive ran 1.6 GFLOP/s at 512³ (5.0
// cycles a step) and 0.51 at 1024³ (15.7): the model must follow the probes there, below one fill
// per set included, where clamping them at 1 predicted 0.66-0.73 at 1024³ (ratio 1.28-1.41).
TEST(SimPresets, ThisMachineOnAZen5KeepsFewerThanOneFillPerSet) {
  MachineFacts f = epyc_facts();
  f.cpuinfo = "vendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: AMD EPYC\n"
              "cpu MHz\t\t: 2596.124\nphysical id\t: 0\ncore id\t\t: 0\nphysical id\t: 0\ncore id\t\t: 1\n";
  f.l1d_kib = 48;
  f.l1d_ways = 12;
  f.l2_kib = 1024;
  f.probe.imul_ns = 0.725;  // 4.14 GHz
  f.probe.fadd_ns = 0.483;  // 2 cycles
  f.probe.stride_walk_ns = 2.70;
  f.probe.one_set_ns = 4.00;
  f.probe.two_sets_ns = 1.20;
  const CpuPreset p = cpu_preset_from(f);
  EXPECT_EQ(p.fma_latency, 2);
  EXPECT_EQ(p.l3_latency, 50);
  EXPECT_NEAR(p.l1_fills_per_set, 2.70 / 4.00, 1e-9);  // not clamped up to 1
  EXPECT_NEAR(p.l1_fills_two_sets, 2.70 / 1.20, 1e-9);
  const auto n1024 = predict_cpu_naive(p, 1024, 1024, 1024);
  const auto n512 = predict_cpu_naive(p, 512, 512, 512);
  // One set: the independent loads' own interval, 4.0 ns = 16.6 cycles, not the chase's 11.2.
  EXPECT_NEAR(n1024.cycles_per_step, p.stride_walk_latency / p.l1_fills_per_set, 0.5);
  EXPECT_NEAR(n1024.gflops, 0.51, 0.51 * 0.15);
  EXPECT_NEAR(n512.gflops, 1.6, 1.6 * 0.15);
  // A broken measurement still cannot make a miss cost more than four of its latencies.
  f.probe.one_set_ns = 100.0;
  EXPECT_DOUBLE_EQ(cpu_preset_from(f).l1_fills_per_set, kMinL1FillsPerSet);
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
