// The generations table: one row per GPU preset, oldest first, figures from the presets' parts.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/caption_values.hpp"
#include "core/generation_table.hpp"

using ws::app::generation_table;
using ws::app::GenerationRow;

TEST(GenerationTable, EveryGpuPresetOldestFirst) {
  const auto& presets = ws::sim::gpu_presets();
  const auto rows = generation_table(presets);
  ASSERT_EQ(rows.size(), presets.size());
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_LE(rows[i - 1].year, rows[i].year) << rows[i].id;
    if (rows[i - 1].year == rows[i].year) {
      EXPECT_LE(rows[i - 1].fp32_tflops, rows[i].fp32_tflops) << rows[i].id;
    }
  }
  EXPECT_EQ(rows.front().id, "c1060");
}

TEST(GenerationTable, FiguresComeFromThePresetsParts) {
  const auto rows = generation_table(ws::sim::gpu_presets());
  const auto h100 = std::find_if(rows.begin(), rows.end(), [](const GenerationRow& r) { return r.id == "h100"; });
  ASSERT_NE(h100, rows.end());
  const auto& p = ws::sim::find_gpu("h100");
  EXPECT_EQ(h100->sm_count, 132);
  EXPECT_EQ(h100->tensor_cores, 528);  // 132 SMs x 4
  EXPECT_EQ(h100->fp32_cores, 132LL * p.fp32_lanes_per_sm);
  EXPECT_DOUBLE_EQ(h100->fp32_tflops, p.peak_gflops() / 1000);
  EXPECT_EQ(h100->tensor_format, "BF16");
  // Within 2 % of NVIDIA's dense BF16 figure for the H100 SXM (989.4 TFLOP/s).
  EXPECT_NEAR(h100->tensor_tflops, 989.4, 989.4 * 0.02);
  // Before Volta there are no tensor cores, and the row says none rather than a guess.
  const auto gtx580 = std::find_if(rows.begin(), rows.end(), [](const GenerationRow& r) { return r.id == "gtx580"; });
  ASSERT_NE(gtx580, rows.end());
  EXPECT_EQ(gtx580->tensor_cores, 0);
  EXPECT_EQ(gtx580->tensor_tflops, 0);
  EXPECT_TRUE(gtx580->tensor_format.empty());
  // Its label in either language: a Korean table names it without English words.
  EXPECT_EQ(gtx580->name, "GeForce GTX 580 (the AlexNet GPU)");
  EXPECT_EQ(gtx580->name_ko, "GeForce GTX 580 (AlexNet의 GPU)");
  EXPECT_TRUE(h100->name_ko.empty());
}
