#include "core/roofline.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/measured_text.hpp"

namespace ws::app::roofline {

double flops(int m, int n, int k) { return 2.0 * m * n * k; }

double min_traffic_bytes(int m, int n, int k) {
  const double mm = m, nn = n, kk = k;
  return kBytesPerElement * (mm * kk + kk * nn + mm * nn);
}

double min_traffic_intensity(int m, int n, int k) {
  const double bytes = min_traffic_bytes(m, n, k);
  return bytes > 0 ? flops(m, n, k) / bytes : 0;
}

double attainable_gflops(double peak_gflops, double bandwidth_gbs, double intensity) {
  if (!(bandwidth_gbs > 0)) return peak_gflops;
  return std::min(peak_gflops, bandwidth_gbs * intensity);
}

double ridge_intensity(double peak_gflops, double bandwidth_gbs) {
  return bandwidth_gbs > 0 ? peak_gflops / bandwidth_gbs : 0;
}

const char* to_string(Source s) {
  switch (s) {
    case Source::here: return "measured here";
    case Source::elsewhere: return "measured elsewhere";
    case Source::simulated: return "simulated";
  }
  return "";
}

std::optional<Point> measured_point(const kernels::JobResult& r, Source source, const std::string& where) {
  if (r.skipped || r.cancelled || !(r.gflops > 0) || !std::isfinite(r.gflops)) return std::nullopt;
  if (r.shape.m <= 0 || r.shape.n <= 0 || r.shape.k <= 0) return std::nullopt;
  Point p;
  p.source = source;
  p.kernel = r.kernel;
  p.m = r.shape.m;
  p.n = r.shape.n;
  p.k = r.shape.k;
  p.intensity = min_traffic_intensity(p.m, p.n, p.k);
  p.gflops = r.gflops;
  p.intensity_basis = IntensityBasis::minimum_traffic;
  p.where = where;
  p.software_renderer = r.software_renderer;
  p.verified = r.verified;
  return p;
}

std::optional<Point> simulated_point(const std::string& where, const std::string& kernel, int m, int n, int k,
                                     double dram_bytes, double time_ms) {
  if (!(dram_bytes > 0) || !(time_ms > 0) || m <= 0 || n <= 0 || k <= 0) return std::nullopt;
  Point p;
  p.source = Source::simulated;
  p.kernel = kernel;
  p.m = m;
  p.n = n;
  p.k = k;
  p.intensity = flops(m, n, k) / dram_bytes;
  p.gflops = flops(m, n, k) / (time_ms * 1e6);
  p.intensity_basis = IntensityBasis::model_dram_bytes;
  p.where = where;
  p.verified = true;
  return p;
}

std::string short_name(const std::string& preset_name) {
  const auto paren = preset_name.find(" (");
  return paren == std::string::npos ? preset_name : preset_name.substr(0, paren);
}

std::string format_bandwidth(double gbs) {
  if (gbs >= 1000) return format_plain_sig3(gbs / 1000) + " TB/s";
  return format_plain_sig3(gbs) + " GB/s";
}

std::string format_gflops(double gflops) {
  if (gflops >= 1e6) return format_plain_sig3(gflops / 1e6) + " PFLOP/s";
  if (gflops >= 1e3) return format_plain_sig3(gflops / 1e3) + " TFLOP/s";
  return format_plain_sig3(gflops) + " GFLOP/s";
}

Roof gpu_roof(const sim::GpuPreset& gpu, lesson::Language lang) {
  Roof roof;
  roof.machine = "gpu";
  roof.name = short_name(gpu.name);
  roof.source = lesson::trf(gpu.from_device ? "roofline.source_device" : "roofline.source_datasheet", lang, roof.name);
  roof.bandwidth_gbs = gpu.memory_bandwidth_gbs;
  if (roof.has_memory_roof()) roof.bandwidth_label = roof.name + " DRAM " + format_bandwidth(gpu.memory_bandwidth_gbs);
  else roof.note = lesson::trf("roofline.note_gpu_no_bandwidth", lang, roof.name);
  const double fp32 = gpu.peak_gflops();
  roof.compute.push_back({roof.name + " FP32 " + format_gflops(fp32), fp32, false});
  if (const sim::TensorFormat* f = gpu.tensor_headline()) {
    const double t = gpu.tensor_peak_gflops(*f);
    if (t > fp32)
      // One word translated: a template " tensor " would read like the kernel named tensor in Korean lines.
      roof.compute.push_back({roof.name + " " + gpu.tensor_headline_format() + " " +
                                  lesson::tr("roofline.tensor_word", lang) + " " + format_gflops(t),
                              t, true});
  }
  return roof;
}

Roof cpu_roof(const sim::CpuPreset& cpu, lesson::Language lang) {
  Roof roof;
  roof.machine = "cpu";
  roof.name = cpu.from_machine ? lesson::tr("roofline.this_cpu", lang) : short_name(cpu.name);
  roof.source = cpu.from_machine ? lesson::tr("roofline.source_this_machine", lang)
                                 : lesson::trf("roofline.source_datasheet", lang, roof.name);
  const double fp32 = cpu.peak_gflops();
  roof.compute.push_back({roof.name + " FP32 " + format_gflops(fp32), fp32, false});
  roof.bandwidth_gbs = cpu.memory_bandwidth_gbs;
  for (const auto& u : cpu.uncertain)
    if (u.rfind("memory_bandwidth_gbs", 0) == 0) roof.bandwidth_assumed = true;
  if (roof.has_memory_roof()) {
    roof.bandwidth_label = roof.name + " DRAM " + format_bandwidth(cpu.memory_bandwidth_gbs) +
                           (roof.bandwidth_assumed ? lesson::tr("roofline.assumed_suffix", lang) : "");
    if (roof.bandwidth_assumed)
      roof.assumption =
          lesson::trf("roofline.assumption_bandwidth", lang, roof.name, format_bandwidth(cpu.memory_bandwidth_gbs));
  } else
    roof.note = lesson::trf("roofline.note_cpu_no_bandwidth", lang, roof.name);
  return roof;
}

Axes choose_axes(const std::vector<Roof>& roofs, const std::vector<Point>& points) {
  std::vector<double> xs, ys;
  for (const auto& roof : roofs)
    for (const auto& c : roof.compute) {
      if (!(c.gflops > 0)) continue;
      ys.push_back(c.gflops);
      if (roof.has_memory_roof()) xs.push_back(ridge_intensity(c.gflops, roof.bandwidth_gbs));
    }
  for (const auto& p : points) {
    if (p.intensity > 0 && std::isfinite(p.intensity)) xs.push_back(p.intensity);
    if (p.gflops > 0 && std::isfinite(p.gflops)) ys.push_back(p.gflops);
  }
  // Room around the extremes: a fifth of a decade at least, so no marker or roof sits on an edge.
  constexpr double kPad = 0.2;
  auto span = [](const std::vector<double>& v, int fallback_lo, int fallback_hi, int& lo, int& hi) {
    if (v.empty()) {
      lo = fallback_lo;
      hi = fallback_hi;
      return;
    }
    const auto [mn, mx] = std::minmax_element(v.begin(), v.end());
    lo = static_cast<int>(std::floor(std::log10(*mn) - kPad));
    hi = static_cast<int>(std::ceil(std::log10(*mx) + kPad));
    // At least two decades, grown on the low side first (the roofs' labels sit above their lines).
    while (hi - lo < 2) {
      if (hi - lo == 1) --lo;
      else ++hi;
    }
  };
  Axes a;
  span(xs, -1, 3, a.x_lo, a.x_hi);
  span(ys, 0, 6, a.y_lo, a.y_hi);
  return a;
}

std::string decade_label(int decade) {
  if (decade < 0) return fmt::format("{:.{}f}", std::pow(10.0, decade), -decade);
  static const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  const int group = std::min(decade / 3, 5);
  const int rest = decade - 3 * group;
  return fmt::format("{}{}", static_cast<long long>(std::llround(std::pow(10.0, rest))), suffix[group]);
}

Pixel to_pixel(const Rect& plot, const Axes& axes, double intensity, double gflops) {
  const double tx = (std::log10(intensity) - axes.x_lo) / (axes.x_hi - axes.x_lo);
  const double ty = (std::log10(gflops) - axes.y_lo) / (axes.y_hi - axes.y_lo);
  return {static_cast<float>(plot.x + tx * plot.w), static_cast<float>(plot.y + plot.h - ty * plot.h)};
}

std::optional<Segment> memory_segment(const Roof& roof, const Axes& axes) {
  if (!roof.has_memory_roof() || !(roof.top_gflops() > 0)) return std::nullopt;
  const double bw = roof.bandwidth_gbs;
  const double x_min = std::pow(10.0, axes.x_lo), x_max = std::pow(10.0, axes.x_hi);
  const double y_min = std::pow(10.0, axes.y_lo), y_max = std::pow(10.0, axes.y_hi);
  const double x0 = std::max(x_min, y_min / bw);
  const double x1 = std::min({ridge_intensity(roof.top_gflops(), bw), x_max, y_max / bw});
  if (!(x0 < x1)) return std::nullopt;
  return Segment{x0, bw * x0, x1, bw * x1};
}

std::optional<Segment> compute_segment(const Roof& roof, const Ceiling& c, const Axes& axes) {
  const double x_min = std::pow(10.0, axes.x_lo), x_max = std::pow(10.0, axes.x_hi);
  const double y_min = std::pow(10.0, axes.y_lo), y_max = std::pow(10.0, axes.y_hi);
  if (!(c.gflops >= y_min && c.gflops <= y_max)) return std::nullopt;
  const double x0 = roof.has_memory_roof() ? std::max(x_min, ridge_intensity(c.gflops, roof.bandwidth_gbs)) : x_min;
  if (!(x0 < x_max)) return std::nullopt;
  return Segment{x0, c.gflops, x_max, c.gflops};
}

}  // namespace ws::app::roofline
