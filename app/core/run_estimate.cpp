#include "core/run_estimate.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/measured_text.hpp"

namespace ws::app {

namespace {

double round_sig3(double v) {
  if (!(v > 0)) return 0;
  const double step = std::pow(10.0, std::floor(std::log10(v)) - 2);
  return std::round(v / step) * step;
}

}  // namespace

void MeasuredSpeeds::add(const kernels::JobResult& r) {
  if (r.skipped || r.cancelled || !r.verified || !(r.gflops > 0)) return;
  if (entries_.size() == kMaxEntries) entries_.erase(entries_.begin());
  entries_.push_back({r.kernel, r.threads, r.shape.flops(), r.gflops});
}

std::optional<double> MeasuredSpeeds::gflops(const std::string& kernel, int threads,
                                             const kernels::Shape& shape) const {
  std::optional<double> best;
  double best_distance = 0;
  const double flops = shape.flops();
  for (const auto& e : entries_) {
    if (e.kernel != kernel || e.threads != threads) continue;
    // Distance on a log scale: 1024³ is as far from 512³ as from 2048³. Later runs win ties.
    const double distance = std::abs(std::log(e.flops / flops));
    if (!best || distance <= best_distance) {
      best = e.gflops;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<JobEstimate> estimate_job(const kernels::JobRequest& request, const MeasuredSpeeds& speeds) {
  if (kernels::job_refusal(request)) return std::nullopt;
  JobEstimate e;
  e.kernel = request.kernel;
  e.shape = request.shape;
  e.threads = kernels::threads_for_job(request);
  e.runs = kernels::warmup_runs(request) + std::max(1, request.repeats);
  const auto measured = speeds.gflops(request.kernel, e.threads, request.shape);
  e.measured = measured.has_value();
  e.gflops = measured ? *measured : kernels::expected_gflops(request.kernel, e.threads);
  e.seconds = e.runs * request.shape.flops() / (e.gflops * 1e9);
  return e;
}

BatchEstimate estimate_batch(const std::vector<kernels::JobRequest>& requests, const MeasuredSpeeds& speeds) {
  BatchEstimate b;
  for (const auto& r : requests) {
    if (auto e = estimate_job(r, speeds)) {
      b.seconds += e->seconds;
      b.jobs.push_back(std::move(*e));
    }
  }
  return b;
}

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  // The unit is chosen after rounding, so 59.96 s (60 s to three figures) reads "1 min", not
  // "60 s"; and not "0.999 min" either, hence the floor of 1 in the larger unit.
  const double s = round_sig3(seconds);
  if (s >= 3600) return format_plain_sig3(std::max(1.0, round_sig3(seconds / 3600))) + " h";
  if (s >= 60) return format_plain_sig3(std::max(1.0, round_sig3(seconds / 60))) + " min";
  return format_plain_sig3(s) + " s";
}

std::string estimate_sentence(const BatchEstimate& batch, lesson::Language lang) {
  if (batch.jobs.empty()) return "";
  const bool one_shape = std::all_of(batch.jobs.begin(), batch.jobs.end(),
                                     [&](const JobEstimate& j) { return j.shape == batch.jobs.front().shape; });
  std::string what;
  for (const auto& j : batch.jobs) {
    if (!what.empty()) what += lesson::tr("estimate.then", lang);
    what += one_shape ? j.kernel : lesson::trf("estimate.at", lang, j.kernel, format_shape(j.shape));
  }
  if (one_shape) what = lesson::trf("estimate.at", lang, what, format_shape(batch.jobs.front().shape));
  return lesson::trf("estimate.about", lang, what, format_duration(batch.seconds));
}

std::string estimate_basis(const BatchEstimate& batch, lesson::Language lang) {
  std::string out;
  for (const auto& j : batch.jobs) {
    if (!out.empty()) out += "; ";
    out += lesson::trf(j.runs == 1 ? "estimate.basis_one" : "estimate.basis_many", lang, j.kernel,
                       format_duration(j.seconds), format_plain_sig3(round_sig3(j.gflops)), j.runs);
    out += lesson::tr(j.measured ? "estimate.basis_measured" : "estimate.basis_builtin", lang);
  }
  return out;
}

}  // namespace ws::app
