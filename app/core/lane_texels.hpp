// How model state becomes texels: the GPU grid gets one byte per lane (the model's own state
// byte, see sim::WarpState), the matrix views one byte per cell of C (0 = not done yet, else
// 1 + the colour slot of the SM or core that finished it). The palettes that give those bytes
// colours live here too, so the legend and the shader can never disagree.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "warpscope/sim/simulation.hpp"

namespace ws::app {

inline constexpr int kPaletteSize = 16;
// Colour slots for owners: SMs (or cores) are coloured by owner % kOwnerColours.
inline constexpr int kOwnerColours = 12;

struct Rgba {
  float r, g, b, a;
};

// The lane states the legend lists, in order, with their labels.
struct LegendEntry {
  std::uint8_t value;
  const char* label;  // a UI-string key: lesson::tr(label, language)
};
std::span<const LegendEntry> lane_legend();
// On a light background (the light theme) the two "nothing computes here" states are light, as they
// are dark on the dark theme: an SM slot with no warp is a grey slot, a lane past the matrix's
// edge nearly the background. Dark on white they read as the busiest colour on the chip.
enum class LaneBackground { dark, light };
std::array<Rgba, kPaletteSize> lane_palette(LaneBackground background = LaneBackground::dark);
// The colour of the SM or core that finished a cell of C; value 0 is a cell not done yet.
std::array<Rgba, kPaletteSize> owner_palette(LaneBackground background = LaneBackground::dark);
// WCAG 2's contrast ratio of two opaque colours, 1 (the same) to 21 (black on white): what a
// projector leaves of their difference. Graphics want 3 and text 4.5.
double contrast_ratio(const Rgba& a, const Rgba& b);

// Fills `out` (sm_count × warp_slots × 32 bytes) with the lanes' states at the model's cycle.
void encode_lane_texels(const sim::Simulation& s, std::span<std::uint8_t> out);
// C as the GPU fills it in: out has m × n bytes, row-major.
void encode_gpu_matrix(const sim::Simulation& s, std::span<std::uint8_t> out);
// C as the CPU cores fill it in (owner = core).
void encode_cpu_matrix(const sim::Simulation& s, std::span<std::uint8_t> out);

}  // namespace ws::app
