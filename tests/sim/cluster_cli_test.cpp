// `warpscope cluster`: output, JSON figures against their definitions, and exit codes.
#include <array>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/run_binary.hpp"

namespace {

TEST(ClusterCli, DataParallelJson) {
  const auto r = run_cli("cluster --preset h100 --gpus 8 --strategy data --size 2048 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("gpus"), 8);
  EXPECT_EQ(j.at("nodes"), 1);
  EXPECT_TRUE(has(j.at("numbers").get<std::string>(), "simulated"));
  EXPECT_TRUE(has(j.at("compute_model").get<std::string>(), "roofline"));
  EXPECT_EQ(j.at("intra_node_link").at("id"), "nvlink4");
  EXPECT_DOUBLE_EQ(j.at("intra_node_link").at("per_direction_gbs").get<double>(), 450);
  const double speedup = j.at("speedup"), total = j.at("total_s"), single = j.at("single_gpu_s");
  EXPECT_NEAR(speedup, single / total, 1e-12 * speedup);
  EXPECT_NEAR(j.at("efficiency").get<double>(), speedup / 8, 1e-12);
  ASSERT_EQ(j.at("per_gpu").size(), 8u);
  ASSERT_EQ(j.at("links").size(), 8u);
  // Ring all-reduce of 2 layers of 2048 x 8192 BF16 gradients: 2(N-1)/N of them per GPU.
  const double grads = 2.0 * 2048 * 8192 * 2;
  for (const auto& l : j.at("links")) EXPECT_DOUBLE_EQ(l.at("bytes").get<double>(), 2.0 * 7 / 8 * grads);
  for (const auto& g : j.at("per_gpu")) {
    const double busy = g.at("busy_fraction");
    EXPECT_GT(busy, 0);
    EXPECT_LT(busy, 1);
  }
  EXPECT_TRUE(j.at("check").at("ok").get<bool>());
  EXPECT_TRUE(has(j.at("check").at("computed").get<std::string>(), "measured here"));
}

TEST(ClusterCli, EveryStrategyRunsAndChecks) {
  for (const char* s : {"data", "tensor", "pipeline", "hybrid"}) {
    const auto r = run_cli(std::string("cluster --gpus 16 --size 1024 --strategy ") + s);
    EXPECT_EQ(r.code, 0) << s << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "faster")) << r.out;
    EXPECT_TRUE(has(r.out, "efficiency")) << r.out;
    EXPECT_TRUE(has(r.out, "matches one device")) << r.out;
    EXPECT_TRUE(has(r.out, "simulated")) << r.out;
  }
  const auto g = run_cli("cluster --workload gemm --strategy tensor --gpus 4 --size 4096 --timeline");
  EXPECT_EQ(g.code, 0) << g.out;
  EXPECT_TRUE(has(g.out, "GPU  3 |")) << g.out;
}

// The text output words each count for its number: one GPU is "1 GPU", a pipeline of one stage
// "1 stage", one micro-batch "1 micro-batch".
TEST(ClusterCli, CountsAreWordedForTheirNumber) {
  const auto one = run_cli("cluster --strategy pipeline --gpus 1 --micro-batches 1 --no-check");
  ASSERT_EQ(one.code, 0) << one.out;
  EXPECT_TRUE(has(one.out, "pipeline: 1 stage, 1 micro-batch,")) << one.out;
  EXPECT_TRUE(has(one.out, "\n1 GPU: ")) << one.out;
  const auto four = run_cli("cluster --strategy pipeline --gpus 4 --micro-batches 8 --no-check");
  ASSERT_EQ(four.code, 0) << four.out;
  EXPECT_TRUE(has(four.out, "pipeline: 4 stages, 8 micro-batches,")) << four.out;
  EXPECT_TRUE(has(four.out, "\n4 GPUs: ")) << four.out;
}

TEST(ClusterCli, IdealLinksGiveTheBubbleFormula) {
  const auto r = run_cli("cluster --strategy pipeline --gpus 4 --micro-batches 16 --ideal-links --json --no-check");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_DOUBLE_EQ(j.at("bubble_formula").get<double>(), 3.0 / 19);
  EXPECT_NEAR(j.at("idle_fraction").get<double>(), 3.0 / 19, 1e-12);
  EXPECT_FALSE(j.contains("check"));
}

TEST(ClusterCli, TimelineJsonTilesEachGpu) {
  const auto r = run_cli("cluster --strategy hybrid --gpus 16 --size 512 --json --timeline --no-check");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  std::array<double, 16> covered{};
  for (const auto& a : j.at("activities"))
    if (a.at("kind") != "send" && a.at("kind") != "receive")
      covered[a.at("gpu").get<std::size_t>()] += a.at("end_s").get<double>() - a.at("start_s").get<double>();
  for (double c : covered) EXPECT_NEAR(c, j.at("total_s").get<double>(), 1e-12);
}

TEST(ClusterCli, UnknownNamesExit2WithTheValidOnes) {
  auto r = run_cli("cluster --strategy zero");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "data, tensor, pipeline, hybrid")) << r.out;
  r = run_cli("cluster --preset h900");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "h100")) << r.out;
  r = run_cli("cluster --link nvlink9");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "nvlink4")) << r.out;
  r = run_cli("cluster --strategy pipeline --schedule zigzag");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "1f1b, gpipe")) << r.out;
  r = run_cli("cluster --workload conv");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "mlp, gemm")) << r.out;
  r = run_cli("cluster --algorithm star");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "ring, tree")) << r.out;
  r = run_cli("cluster --compute guess");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "roofline, simulated")) << r.out;
}

TEST(ClusterCli, WhatCannotBeSplitExits2) {
  EXPECT_EQ(run_cli("cluster --gpus 65").code, 2);
  EXPECT_EQ(run_cli("cluster --gpus 16 --nodes 1").code, 2);
  EXPECT_EQ(run_cli("cluster --gpus 3 --batch 64").code, 2);
  EXPECT_EQ(run_cli("cluster --workload gemm --strategy pipeline").code, 2);
  EXPECT_EQ(run_cli("cluster --link ib-ndr").code, 2);
  const auto r = run_cli("cluster --strategy pipeline --gpus 4 --layers 6");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(has(r.out, "stages")) << r.out;
}

// --real (issue 15 item 5) on a machine with fewer than two CUDA GPUs: said plainly, in text and
// JSON, and not an error. Where there are two or more, the split must have run and been verified.
TEST(ClusterCli, RealSplitRunsOrSaysWhyNot) {
  const auto r = run_cli("cluster --gpus 2 --strategy tensor --workload gemm --size 512 --no-check --real --real-size 512 --json");
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  const auto& real = j.at("real");
  if (!real.at("available").get<bool>()) {
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_TRUE(has(real.at("reason").get<std::string>(), "needs 2 CUDA GPUs; this machine has ")) << real;
    const auto text = run_cli("cluster --gpus 2 --no-check --real");
    EXPECT_EQ(text.code, 0);
    EXPECT_TRUE(has(text.out, "real split: needs 2 CUDA GPUs; this machine has ")) << text.out;
    return;
  }
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(real.at("multi").at("verified").get<bool>()) << real;
  EXPECT_TRUE(real.at("single").at("verified").get<bool>()) << real;
  EXPECT_GT(real.at("speedup").get<double>(), 0);
}

TEST(ClusterCli, PresetsJsonCarriesTheLinks) {
  const auto r = run_cli("presets --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& g : j.at("gpus")) {
    const auto& ic = g.at("interconnect");
    ASSERT_FALSE(ic.is_null()) << g.at("id");
    EXPECT_FALSE(ic.at("link").at("source").get<std::string>().empty());
    if (g.at("id") == "b200") {
      EXPECT_DOUBLE_EQ(ic.at("link").at("datasheet_gbs").get<double>(), 1800);
    }
  }
}

}  // namespace
