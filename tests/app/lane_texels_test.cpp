// From model state to texels: what the chip and matrix shaders receive must be exactly the
// model's state, byte for byte, and every byte the model can produce must have a legend colour.
#include "core/lane_texels.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include <gtest/gtest.h>

using namespace ws;

namespace {

std::unique_ptr<sim::Simulation> small_sim() {
  sim::SimConfig cfg;
  cfg.kernel = sim::Kernel::tiled;
  cfg.shape = {40, 72, 48};  // not a multiple of the block: edge lanes have no cell
  cfg.block = 16;
  return std::make_unique<sim::Simulation>(sim::find_gpu("v100"), sim::find_cpu("i7-3960x"), cfg);
}

}  // namespace

TEST(LaneTexels, EachLaneCarriesItsWarpsStateOrTheMaskedValue) {
  auto s = small_sim();
  s->seek(s->total_cycles() / 2);
  const int sms = s->sm_count(), slots = s->warp_slots_per_sm();
  std::vector<std::uint8_t> texels(static_cast<std::size_t>(sms) * slots * 32, 0xEE);
  app::encode_lane_texels(*s, texels);
  int masked = 0, resident = 0;
  for (int sm = 0; sm < sms; ++sm)
    for (int slot = 0; slot < slots; ++slot) {
      const auto warp = static_cast<std::uint8_t>(s->warp_state(sm, slot));
      for (int lane = 0; lane < 32; ++lane) {
        const auto texel = texels[(static_cast<std::size_t>(sm) * slots + slot) * 32 + lane];
        const auto info = s->lane_info(sm, slot, lane);
        const bool has_block = s->warp_info(sm, slot).block_x >= 0;
        if (has_block && !info.active && warp != static_cast<std::uint8_t>(sim::WarpState::done)) {
          EXPECT_EQ(texel, sim::kLaneMasked) << sm << "/" << slot << "/" << lane;
          ++masked;
        } else if (texel != sim::kLaneMasked) {
          EXPECT_EQ(texel, warp) << sm << "/" << slot << "/" << lane;
          resident += has_block;
        }
      }
    }
  EXPECT_GT(resident, 0);
  EXPECT_GT(masked, 0) << "a 40x72 product on 16x16 blocks must leave lanes past the edge";
}

TEST(LaneTexels, MatrixCellsFillInWithTheirOwnersColourSlot) {
  auto s = small_sim();
  const auto& shape = s->config().shape;
  std::vector<std::uint8_t> gpu(shape.m * shape.n), cpu(shape.m * shape.n);
  s->seek(0);
  app::encode_gpu_matrix(*s, gpu);
  for (auto v : gpu) ASSERT_EQ(v, 0) << "no cell is done at cycle 0";
  s->seek(s->total_cycles());
  app::encode_gpu_matrix(*s, gpu);
  app::encode_cpu_matrix(*s, cpu);
  const auto owners = s->c_done_by_sm();
  for (std::size_t i = 0; i < gpu.size(); ++i)
    ASSERT_EQ(gpu[i], 1 + owners[i] % app::kOwnerColours) << "cell " << i;
  for (int r = 0; r < shape.m; ++r)
    for (int c = 0; c < shape.n; ++c) {
      const auto v = cpu[r * shape.n + c];
      if (s->cpu_cell_done(r, c))
        EXPECT_EQ(v, 1 + s->cpu_cell_owner(r, c) % app::kOwnerColours);
      else
        EXPECT_EQ(v, 0);
    }
}

TEST(LaneTexels, ContrastRatioIsWcags) {
  EXPECT_NEAR(app::contrast_ratio({0, 0, 0, 1}, {1, 1, 1, 1}), 21.0, 1e-9);
  EXPECT_NEAR(app::contrast_ratio({1, 1, 1, 1}, {0, 0, 0, 1}), 21.0, 1e-9);
  EXPECT_NEAR(app::contrast_ratio({0.3f, 0.6f, 0.2f, 1}, {0.3f, 0.6f, 0.2f, 1}), 1.0, 1e-9);
  // #767676 on white is the lightest grey WCAG's examples give as passing 4.5:1.
  EXPECT_NEAR(app::contrast_ratio({118 / 255.0f, 118 / 255.0f, 118 / 255.0f, 1}, {1, 1, 1, 1}), 4.54, 0.01);
}

TEST(LaneTexels, EveryWorkingStateStandsOutFromTheBackground) {
  // The windows' backgrounds: ImGui's dark style and the light theme's white (gui/theme.cpp).
  const std::pair<app::LaneBackground, app::Rgba> themes[] = {{app::LaneBackground::dark, {0.06f, 0.06f, 0.06f, 1}},
                                                               {app::LaneBackground::light, {1, 1, 1, 1}}};
  for (const auto& [background, bg] : themes) {
    const auto palette = app::lane_palette(background);
    for (auto state : {sim::WarpState::issuing, sim::WarpState::eligible, sim::WarpState::waiting_dependency,
                       sim::WarpState::waiting_memory, sim::WarpState::waiting_barrier, sim::WarpState::on_tensor_core,
                       sim::WarpState::done})
      EXPECT_GE(app::contrast_ratio(palette[static_cast<int>(state)], bg), 3.0)
          << "state " << static_cast<int>(state) << (background == app::LaneBackground::light ? " on white" : " on dark");
  }
}

TEST(LaneTexels, EveryStateTheModelCanProduceHasADistinctLegendColour) {
  for (const auto background : {app::LaneBackground::dark, app::LaneBackground::light}) {
    const auto palette = app::lane_palette(background);
    std::set<std::tuple<float, float, float>> colours;
    for (const auto& entry : app::lane_legend()) {
      const auto& c = palette[entry.value];
      EXPECT_FALSE(c.r == 1 && c.g == 0 && c.b == 1) << entry.label << " has the unknown-state colour";
      colours.insert({c.r, c.g, c.b});
    }
    EXPECT_EQ(colours.size(), app::lane_legend().size());
    // "Nothing computes here" is the least prominent: nearer the background than any working state.
    const float bg = background == app::LaneBackground::light ? 1.0f : 0.06f;
    const auto distance = [&](const app::Rgba& c) { return std::abs(c.r - bg) + std::abs(c.g - bg) + std::abs(c.b - bg); };
    for (int quiet : {static_cast<int>(sim::WarpState::not_resident), static_cast<int>(sim::kLaneMasked)})
      for (auto busy : {sim::WarpState::issuing, sim::WarpState::eligible, sim::WarpState::waiting_memory,
                       sim::WarpState::waiting_barrier, sim::WarpState::done})
        EXPECT_LT(distance(palette[quiet]), distance(palette[static_cast<int>(busy)])) << quiet << " vs " << static_cast<int>(busy);
  }
  // not_resident .. done and the masked byte: all of them are in the legend.
  std::set<int> values;
  for (const auto& entry : app::lane_legend()) values.insert(entry.value);
  for (int v = 0; v <= sim::kLaneMasked; ++v) EXPECT_TRUE(values.count(v)) << v;
}

TEST(LaneTexels, CellsNotDoneYetLookEmptyOnEitherTheme) {
  // A cell of C not done yet is nearer the window's background than any owner's colour: on the
  // light theme it was dark navy, which read as a block of cells already finished.
  const std::pair<app::LaneBackground, app::Rgba> themes[] = {{app::LaneBackground::dark, {0.06f, 0.06f, 0.06f, 1}},
                                                               {app::LaneBackground::light, {1, 1, 1, 1}}};
  for (const auto& [background, bg] : themes) {
    const auto palette = app::owner_palette(background);
    const auto distance = [](const app::Rgba& a, const app::Rgba& b) {
      return std::abs(a.r - b.r) + std::abs(a.g - b.g) + std::abs(a.b - b.b);
    };
    const app::Rgba pending = palette[0];
    for (int owner = 1; owner <= app::kOwnerColours; ++owner) {
      EXPECT_LT(distance(pending, bg), distance(palette[owner], bg)) << "owner colour " << owner;
      // Told apart from every owner by more than a shade, the grey owner included.
      EXPECT_GT(distance(pending, palette[owner]), 0.45f) << "owner colour " << owner;
    }
  }
}
