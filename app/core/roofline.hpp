// The roofline model without a window: the ceilings of a machine (compute roofs in GFLOP/s, a
// memory roof of bandwidth x arithmetic intensity), the points of measured and simulated runs, and
// the log-log mapping from (FLOP per DRAM byte, GFLOP/s) to pixels. The panel (gui/roofline_panel)
// only draws what this computes, so every coordinate on screen can be checked here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lesson/i18n.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app::roofline {

// FP32 operands: what one element of A, B or C costs in DRAM traffic.
inline constexpr double kBytesPerElement = 4;

// 2·M·N·K.
double flops(int m, int n, int k);
// The bytes an M×N×K fp32 product must move at least once: read A and B, write C, each once,
// 4·(M·K + K·N + M·N). A real kernel moves at least this much (more when its caches miss).
double min_traffic_bytes(int m, int n, int k);
// flops / min_traffic_bytes: the highest arithmetic intensity the product can have.
double min_traffic_intensity(int m, int n, int k);
// What a machine allows at this intensity: min(peak, bandwidth × intensity).
double attainable_gflops(double peak_gflops, double bandwidth_gbs, double intensity);
// Where the memory roof meets the compute roof: peak / bandwidth, in FLOP per byte.
double ridge_intensity(double peak_gflops, double bandwidth_gbs);

enum class Source { here, elsewhere, simulated };
const char* to_string(Source s);  // "measured here", "measured elsewhere", "simulated"

// Where a point's FLOP per byte comes from: the least traffic any multiply of the shape needs (a
// real run, whose bytes are not counted) or the DRAM bytes the model moved (the simulated kernel).
enum class IntensityBasis { minimum_traffic, model_dram_bytes };

struct Point {
  Source source = Source::here;
  std::string kernel;      // "cpu-parallel", "cublas", "tiled"
  int m = 0, n = 0, k = 0;
  double intensity = 0;    // FLOP per DRAM byte
  double gflops = 0;
  IntensityBasis intensity_basis = IntensityBasis::minimum_traffic;
  std::string where;       // the caller's words: "measured on this machine's CPU, 2 threads", "simulated on H100 (SXM5, 80 GB)"
  bool software_renderer = false;  // a GL kernel on llvmpipe: ran on this CPU
  bool verified = true;    // false: the result was wrong; plotted, and marked so (never hidden)
};

// A real run (here or elsewhere): intensity from the minimum traffic. Nothing for a skipped or
// cancelled run, or one without a positive GFLOP/s; a wrong result is a point with verified false.
std::optional<Point> measured_point(const kernels::JobResult& r, Source source, const std::string& where);
// The simulated kernel: intensity = 2·M·N·K / the model's DRAM bytes, GFLOP/s = 2·M·N·K / the
// model's time. Nothing when the model moved no DRAM bytes or took no time.
std::optional<Point> simulated_point(const std::string& where, const std::string& kernel, int m, int n, int k,
                                     double dram_bytes, double time_ms);

struct Ceiling {
  std::string label;   // "H100 FP32 peak 66.9 TFLOP/s"
  double gflops = 0;   // the roof's height
  bool tensor = false; // a tensor-core roof (not FP32)
};

// One machine's roofs. `bandwidth_gbs` 0: no figure, so no memory roof (and `note` says so).
struct Roof {
  std::string machine;       // "gpu" or "cpu"
  std::string name;          // "H100", "this CPU"
  std::string source;        // "H100 preset (datasheet)", "this machine preset (not measured)"
  double bandwidth_gbs = 0;
  bool bandwidth_assumed = false;  // a generic default, not a datasheet figure or a measurement
  std::string bandwidth_label;     // "H100 DRAM 3.35 TB/s"
  std::vector<Ceiling> compute;    // lowest first; compute[0] is FP32
  std::string note;                // what is missing, to say on the panel
  std::string assumption;          // what is assumed rather than sourced, to say on the panel

  double fp32_gflops() const { return compute.empty() ? 0 : compute.front().gflops; }
  double top_gflops() const { return compute.empty() ? 0 : compute.back().gflops; }
  bool has_memory_roof() const { return bandwidth_gbs > 0; }
};

// "H100 (SXM5, 80 GB)" -> "H100": the name before its parenthesis.
std::string short_name(const std::string& preset_name);
// GPU preset: FP32 peak, the headline tensor format (BF16, else FP16) where it has tensor cores,
// and DRAM bandwidth (the preset does not say HBM or GDDR, so the label says DRAM). Labels, notes
// and assumptions are worded in `lang`, as the panel draws them.
Roof gpu_roof(const sim::GpuPreset& gpu, lesson::Language lang);
// The CPU preset ("this machine"): FP32 peak (cores × SIMD lanes × FMA units × 2 × clock) and DRAM
// bandwidth, marked assumed when the preset lists it as uncertain, absent when it is 0.
Roof cpu_roof(const sim::CpuPreset& cpu, lesson::Language lang);

// "1.79 TB/s", "50 GB/s"; "66.9 TFLOP/s", "192 GFLOP/s".
std::string format_bandwidth(double gbs);
std::string format_gflops(double gflops);

// Log-log axes in whole decades: x = log10(FLOP per byte), y = log10(GFLOP/s).
struct Axes {
  int x_lo = -1, x_hi = 3;
  int y_lo = 0, y_hi = 6;
};
// The decades that hold every ridge, every compute roof and every point with some room around
// them (a point less than a fifth of a decade from an edge gets one more decade), at least two
// decades a side.
Axes choose_axes(const std::vector<Roof>& roofs, const std::vector<Point>& points);
// "0.01", "0.1", "1", "10", "100", "1k", "10k", "100k", "1M", "10M".
std::string decade_label(int decade);

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;  // screen pixels; y grows downward
};
struct Pixel {
  float x = 0, y = 0;
};
// Where (intensity, GFLOP/s) lands in the plot rectangle: left edge = 10^x_lo, bottom = 10^y_lo.
Pixel to_pixel(const Rect& plot, const Axes& axes, double intensity, double gflops);

// A straight piece of a roof in data space (intensity, GFLOP/s), clipped to the axes.
struct Segment {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
// The slope bandwidth × intensity from the left edge (or the bottom) up to the top ridge of the
// roof (where it meets its highest compute roof), clipped to the axes.
std::optional<Segment> memory_segment(const Roof& roof, const Axes& axes);
// A compute roof: flat from its ridge (the left edge without a memory roof) to the right edge.
std::optional<Segment> compute_segment(const Roof& roof, const Ceiling& c, const Axes& axes);

}  // namespace ws::app::roofline
