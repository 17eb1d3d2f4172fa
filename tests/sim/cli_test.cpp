// `warpscope presets | occupancy | simulate`: output shape and exit codes.
#include <map>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"

namespace {

TEST(SimCli, Presets) {
  auto r = run_cli("presets");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "h100"));
  EXPECT_TRUE(has(r.out, "i7-3960x"));
  EXPECT_TRUE(has(r.out, "tensor GF/s")) << r.out;
  EXPECT_TRUE(has(r.out, "125338 FP16")) << r.out;  // V100: 80 x 8 x 128 FLOP x 1.53 GHz
  r = run_cli("presets --json");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(has(r.out, "\"peak_fp32_gflops\""));
  EXPECT_TRUE(has(r.out, "\"source\""));
}

// The tensor cores in `presets --json`: the parts, each format's computed peak beside its datasheet
// figure and source; null before Volta.
TEST(SimCli, PresetsJsonHasTheTensorCores) {
  const auto r = run_cli("presets --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> gpus;
  for (const auto& g : j.at("gpus")) gpus[g.at("id").get<std::string>()] = g;
  for (const char* id : {"c1060", "gtx580", "c2050", "k80", "p100"}) {
    ASSERT_TRUE(gpus.count(id)) << id;
    ASSERT_TRUE(gpus[id].contains("tensor_cores")) << id;
    EXPECT_TRUE(gpus[id].at("tensor_cores").is_null()) << id;
  }
  const auto& h100 = gpus.at("h100").at("tensor_cores");
  EXPECT_EQ(h100.at("generation"), 4);
  EXPECT_EQ(h100.at("cores_per_sm"), 4);
  EXPECT_EQ(h100.at("cores"), 528);
  EXPECT_EQ(h100.at("clock_mhz"), 1830.0);
  EXPECT_EQ(h100.at("headline_format"), "BF16");
  EXPECT_NEAR(h100.at("headline_peak_gflops").get<double>(), 989429.76, 0.01);  // 528 x 1024 x 1.83 GHz
  EXPECT_EQ(h100.at("formats").at("bf16").at("flops_per_clock_per_core"), 1024);
  EXPECT_NEAR(h100.at("formats").at("tf32").at("peak_gflops").get<double>(), 494714.88, 0.01);
  EXPECT_EQ(h100.at("formats").at("tf32").at("datasheet_gflops"), 494700.0);
  EXPECT_FALSE(h100.at("formats").at("bf16").at("source").get<std::string>().empty());
  EXPECT_FALSE(h100.at("source").get<std::string>().empty());
  const auto& v100 = gpus.at("v100").at("tensor_cores");
  EXPECT_EQ(v100.at("generation"), 1);
  EXPECT_EQ(v100.at("headline_format"), "FP16");
  EXPECT_TRUE(v100.at("formats").contains("fp16"));
  EXPECT_FALSE(v100.at("formats").contains("bf16")) << "Volta has no BF16";
  EXPECT_FALSE(v100.at("formats").contains("tf32")) << "Volta has no TF32";
  for (const char* id : {"v100", "a100-80gb", "h100", "h200", "b200", "rtx4090"})
    for (const auto& [name, f] : gpus.at(id).at("tensor_cores").at("formats").items())
      EXPECT_NEAR(f.at("peak_gflops").get<double>() / f.at("datasheet_gflops").get<double>(), 1.0, 0.02)
          << id << " " << name;
}

TEST(SimCli, Occupancy) {
  auto r = run_cli("occupancy --cc 8.6 --block-size 256 --regs 64 --smem 0 --json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "\"active_blocks_per_sm\": 4")) << r.out;
  EXPECT_TRUE(has(r.out, "\"active_warps_per_sm\": 32")) << r.out;
  EXPECT_TRUE(has(r.out, "\"max_warps_per_sm\": 48")) << r.out;
  EXPECT_TRUE(has(r.out, "\"registers\"")) << r.out;
  r = run_cli("occupancy --preset h100 --block-size 1024 --regs 128 --smem 0 --json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "\"active_blocks_per_sm\": 0")) << r.out;
  EXPECT_TRUE(has(r.out, "\"reason\"")) << r.out;
  EXPECT_EQ(run_cli("occupancy --cc banana --block-size 1 --regs 1 --smem 0").code, 2);
  EXPECT_EQ(run_cli("occupancy --cc 4.0 --block-size 1 --regs 1 --smem 0").code, 2);
  EXPECT_EQ(run_cli("occupancy --preset nope --block-size 1 --regs 1 --smem 0").code, 2);
  EXPECT_EQ(run_cli("occupancy --block-size 1 --regs 1 --smem 0").code, 2);
  EXPECT_EQ(run_cli("occupancy --cc 8.0 --regs 1 --smem 0").code, 2);
}

TEST(SimCli, Simulate) {
  auto r = run_cli("simulate --preset h100 --kernel tiled --size 64 --json");
  EXPECT_EQ(r.code, 0) << r.out;
  for (const char* key : {"\"preset\": \"h100\"", "\"kernel\": \"tiled\"", "\"m\": 64", "\"cycles\"", "\"time_ms\"",
                          "\"gflops\"", "\"achieved_occupancy\"", "\"dram_bytes\"", "\"verified\": true"})
    EXPECT_TRUE(has(r.out, key)) << key << "\n" << r.out;
  r = run_cli("simulate --preset gtx580 --kernel naive --m 17 --n 33 --k 65 --json");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "\"verified\": true")) << r.out;
  r = run_cli("simulate --preset voodoo --kernel tiled --size 64");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "h100")) << r.out;
  r = run_cli("simulate --preset h100 --kernel magic --size 64");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "naive")) << r.out;
  r = run_cli("simulate --preset h100 --kernel naive --size 16384");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "warp instructions")) << r.out;
  EXPECT_TRUE(has(r.out, "min")) << "the refusal says how long it would take: " << r.out;
  EXPECT_EQ(run_cli("simulate --preset h100 --kernel naive").code, 2);
}

TEST(SimCli, TensorRunsOnBf16TensorCoresOnly) {
  auto r = run_cli("simulate --preset h100 --kernel tensor --size 96 --json");
  EXPECT_EQ(r.code, 0) << r.out;
  for (const char* key : {"\"kernel\": \"tensor\"", "\"verified\": true", "\"peak\": \"bf16_tensor\"", "\"mmas\"",
                          "\"fmas\": 0"})
    EXPECT_TRUE(has(r.out, key)) << key << "\n" << r.out;
  r = run_cli("simulate --preset h100 --kernel tensor --size 96");
  EXPECT_TRUE(has(r.out, "dense BF16 tensor-core peak")) << r.out;
  EXPECT_TRUE(has(r.out, "BF16-rounded inputs")) << r.out;
  for (const char* without : {"gtx580", "v100"}) {
    r = run_cli(std::string("simulate --preset ") + without + " --kernel tensor --size 64");
    EXPECT_EQ(r.code, 2) << r.out;
    for (const char* with : {"h100", "a100-80gb", "b200"}) EXPECT_TRUE(has(r.out, with)) << with << "\n" << r.out;
  }
}

TEST(SimCli, SeeksReportWhatTheTimelineCosts) {
  const auto r = run_cli("simulate --preset h100 --kernel tiled --size 96 --block 16 --seeks 10");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto brace = r.out.find('{');
  ASSERT_NE(brace, std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(r.out.substr(brace));
  EXPECT_EQ(j["seeks"], 10);
  EXPECT_GE(j["checkpoints"].get<int>(), 2);
  EXPECT_GT(j["checkpoint_mib"].get<double>(), 0.0);
  EXPECT_GE(j["seek_max_ms"].get<double>(), j["seek_median_ms"].get<double>());
  EXPECT_GT(j["full_run_s"].get<double>() * 1000, 0.0);
  EXPECT_LE(j["first_cycle_ms"].get<double>(), j["full_run_s"].get<double>() * 1000);
}

}  // namespace
