#include "core/lane_texels.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ws::app {

namespace {
constexpr std::uint8_t kPending = 0;

using S = sim::WarpState;
// Labels are UI-string keys (app/lesson/i18n.cpp), so the legend follows the language.
constexpr LegendEntry kLegend[] = {
    {static_cast<std::uint8_t>(S::issuing), "legend.issuing"},
    {static_cast<std::uint8_t>(S::eligible), "legend.eligible"},
    {static_cast<std::uint8_t>(S::waiting_dependency), "legend.waiting_dependency"},
    {static_cast<std::uint8_t>(S::waiting_memory), "legend.waiting_memory"},
    {static_cast<std::uint8_t>(S::waiting_barrier), "legend.waiting_barrier"},
    {static_cast<std::uint8_t>(S::on_tensor_core), "legend.on_tensor_core"},
    {static_cast<std::uint8_t>(S::not_resident), "legend.not_resident"},
    {static_cast<std::uint8_t>(S::done), "legend.done"},
    {sim::kLaneMasked, "legend.masked"},
};
}  // namespace

std::span<const LegendEntry> lane_legend() { return kLegend; }

std::array<Rgba, kPaletteSize> lane_palette(LaneBackground background) {
  std::array<Rgba, kPaletteSize> p{};
  p.fill({1, 0, 1, 1});  // magenta: a state byte the legend does not know, never silently hidden
  p[static_cast<int>(S::not_resident)] = {0.16f, 0.16f, 0.19f, 1};
  p[static_cast<int>(S::issuing)] = {0.30f, 0.90f, 0.35f, 1};
  p[static_cast<int>(S::eligible)] = {0.20f, 0.55f, 0.45f, 1};
  p[static_cast<int>(S::waiting_dependency)] = {0.95f, 0.85f, 0.25f, 1};
  p[static_cast<int>(S::waiting_memory)] = {0.95f, 0.40f, 0.20f, 1};
  p[static_cast<int>(S::waiting_barrier)] = {0.65f, 0.45f, 0.95f, 1};
  p[static_cast<int>(S::done)] = {0.25f, 0.42f, 0.70f, 1};
  p[static_cast<int>(S::on_tensor_core)] = {0.35f, 0.85f, 1.00f, 1};  // light cyan: unlike any other state
  p[sim::kLaneMasked] = {0.05f, 0.05f, 0.06f, 1};
  if (background == LaneBackground::light) {
    p[static_cast<int>(S::not_resident)] = {0.80f, 0.80f, 0.84f, 1};
    p[sim::kLaneMasked] = {0.95f, 0.95f, 0.96f, 1};
    // The same hues, deep enough to stand out from white on a projector (at least 3:1): the
    // dark theme's bright green, yellow and cyan are barely darker than white (1.4-1.7:1).
    p[static_cast<int>(S::issuing)] = {0.10f, 0.62f, 0.18f, 1};
    p[static_cast<int>(S::waiting_dependency)] = {0.72f, 0.52f, 0.00f, 1};
    p[static_cast<int>(S::waiting_memory)] = {0.88f, 0.33f, 0.10f, 1};
    p[static_cast<int>(S::waiting_barrier)] = {0.55f, 0.33f, 0.88f, 1};
    p[static_cast<int>(S::on_tensor_core)] = {0.00f, 0.60f, 0.75f, 1};
  }
  return p;
}

double contrast_ratio(const Rgba& a, const Rgba& b) {
  const auto luminance = [](const Rgba& c) {
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

std::array<Rgba, kPaletteSize> owner_palette(LaneBackground background) {
  std::array<Rgba, kPaletteSize> p{};
  p.fill({1, 0, 1, 1});
  // Bluish, never confused with the grey owner or grey text; on the light theme pale, as empty
  // paper is: dark navy there read as a block of cells already done.
  p[kPending] = background == LaneBackground::light ? Rgba{0.86f, 0.87f, 0.92f, 1} : Rgba{0.12f, 0.12f, 0.20f, 1};
  static constexpr Rgba owners[kOwnerColours] = {
      {0.90f, 0.33f, 0.05f, 1}, {0.19f, 0.51f, 0.74f, 1}, {0.19f, 0.64f, 0.33f, 1}, {0.61f, 0.40f, 0.75f, 1},
      {0.84f, 0.15f, 0.16f, 1}, {0.09f, 0.75f, 0.81f, 1}, {0.74f, 0.74f, 0.13f, 1}, {0.55f, 0.34f, 0.29f, 1},
      {0.89f, 0.47f, 0.76f, 1}, {0.50f, 0.50f, 0.50f, 1}, {0.99f, 0.75f, 0.44f, 1}, {0.60f, 0.87f, 0.54f, 1}};
  for (int i = 0; i < kOwnerColours; ++i) p[1 + i] = owners[i];
  return p;
}

void encode_lane_texels(const sim::Simulation& s, std::span<std::uint8_t> out) { s.export_lane_states(out); }

namespace {

// Up to 4 M cells at 2048²: one buffer per thread, kept between frames instead of reallocated.
std::vector<std::int32_t>& owner_scratch(const sim::Simulation& s) {
  thread_local std::vector<std::int32_t> owners;
  owners.resize(static_cast<std::size_t>(s.config().shape.m) * s.config().shape.n);
  return owners;
}

void owners_to_texels(std::span<const std::int32_t> owners, std::span<std::uint8_t> out) {
  const std::size_t cells = std::min(out.size(), owners.size());
  for (std::size_t i = 0; i < cells; ++i)
    out[i] = owners[i] >= 0 ? static_cast<std::uint8_t>(1 + owners[i] % kOwnerColours) : kPending;
}

}  // namespace

void encode_gpu_matrix(const sim::Simulation& s, std::span<std::uint8_t> out) {
  auto& owners = owner_scratch(s);
  s.export_c_owners(owners);
  owners_to_texels(owners, out);
}

void encode_cpu_matrix(const sim::Simulation& s, std::span<std::uint8_t> out) {
  auto& owners = owner_scratch(s);
  s.export_cpu_owners(owners);
  owners_to_texels(owners, out);
}

}  // namespace ws::app
