#include "core/measured_elsewhere.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/measured_text.hpp"
#include "lesson/lesson.hpp"
#include "lesson/text_file.hpp"

namespace ws::app {

namespace {

using nlohmann::json;

constexpr int kMaxDimension = 16384;

// Every *.json file directly in `dir`, sorted by name; a missing folder gives nothing.
std::vector<std::string> json_files_in(const std::filesystem::path& dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.is_regular_file(ec) && entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string file_name(const std::string& path) {
  const auto name = std::filesystem::path(path).filename().string();
  return name.empty() ? path : name;
}

// nlohmann's messages start with "[json.exception.parse_error.101] ": the user needs the rest.
std::string without_exception_tag(const std::string& what) {
  if (what.rfind("[json.exception.", 0) == 0) {
    const auto end = what.find("] ");
    if (end != std::string::npos) return what.substr(end + 2);
  }
  return what;
}

std::string string_or(const json& j, const char* key, const std::string& fallback = "") {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// Reads results[index] into `out`; returns what is wrong with it, or "" when it is usable.
std::string read_result(const json& item, std::size_t index, kernels::JobResult& out) {
  const std::string where = fmt::format("results[{}]", index);
  if (!item.is_object()) return where + " is not an object";
  const auto kernel = item.find("kernel");
  if (kernel == item.end() || !kernel->is_string() || kernel->get<std::string>().empty())
    return where + ": \"kernel\" is missing or not a name";
  out.kernel = kernel->get<std::string>();
  const std::string device = string_or(item, "device");
  if (device != "cpu" && device != "gpu") return where + ": \"device\" must be \"cpu\" or \"gpu\"";
  out.device = device == "cpu" ? kernels::Device::cpu : kernels::Device::gpu;
  int* dims[] = {&out.shape.m, &out.shape.n, &out.shape.k};
  const char* names[] = {"m", "n", "k"};
  for (int d = 0; d < 3; ++d) {
    const auto v = item.find(names[d]);
    if (v == item.end() || !v->is_number_integer() || v->get<long long>() < 1 || v->get<long long>() > kMaxDimension)
      return fmt::format("{}: \"{}\" must be a whole number from 1 to {}", where, names[d], kMaxDimension);
    *dims[d] = v->get<int>();
  }
  const auto skipped = item.find("skipped");
  if (skipped != item.end() && skipped->is_string()) {
    out.skipped = skipped->get<std::string>();
    return "";
  }
  for (const char* key : {"ms_median", "gflops"}) {
    const auto v = item.find(key);
    if (v == item.end() || !v->is_number() || !(v->get<double>() >= 0))
      return fmt::format("{}: \"{}\" is missing or not a number", where, key);
  }
  out.ms_median = item["ms_median"].get<double>();
  out.gflops = item["gflops"].get<double>();
  const auto verified = item.find("verified");
  if (verified == item.end() || !verified->is_boolean()) return where + ": \"verified\" is missing or not true/false";
  out.verified = verified->get<bool>();
  auto number = [&](const char* key) -> std::optional<double> {
    const auto v = item.find(key);
    if (v == item.end() || !v->is_number()) return std::nullopt;
    return v->get<double>();
  };
  // Counts are cast to integers: a value like 1e300 would make the cast undefined.
  auto count = [&](const char* key) -> double {
    const double v = number(key).value_or(0);
    return std::isfinite(v) ? std::clamp(v, 0.0, 1e15) : 0.0;
  };
  out.ms_min = number("ms_min").value_or(out.ms_median);
  out.transfer_ms = number("transfer_ms");
  out.max_rel_error = number("max_rel_error").value_or(0);
  out.checked_elements = static_cast<std::size_t>(count("checked_elements"));
  out.threads = static_cast<int>(std::min(count("threads"), 1e6));
  out.repeats = static_cast<int>(std::min(count("repeats"), 1e6));
  out.detail = string_or(item, "detail");
  out.api = string_or(item, "api");
  out.device_name = string_or(item, "device_name");
  if (const std::string format = string_or(item, "input_format"); !format.empty()) out.input_format = format;
  const auto software = item.find("software_renderer");
  out.software_renderer = software != item.end() && software->is_boolean() && software->get<bool>();
  return "";
}

}  // namespace

std::string MeasuredElsewhere::short_date() const {
  // Bench writes 2026-11-30T12:34:56Z; a lecture needs the day.
  if (date.size() >= 10 && date[4] == '-' && date[7] == '-') return date.substr(0, 10);
  return date;
}

std::string MeasuredElsewhere::label(const kernels::JobResult& r, lesson::Language lang) const {
  const bool cpu = r.device == kernels::Device::cpu;
  std::string device = cpu ? cpu_name : (!r.device_name.empty() ? r.device_name : gpu_name);
  if (device.empty()) device = lesson::tr(cpu ? "measured.a_cpu" : "measured.a_gpu", lang);
  return lesson::trf("measured.on_where", lang, device, host, short_date());
}

std::string MeasuredElsewhere::file_label(lesson::Language lang) const {
  const std::string& device = gpu_name.empty() ? cpu_name : gpu_name;
  return lesson::trf("measured.on_where", lang, device.empty() ? lesson::tr("measured.a_cpu", lang) : device, host,
                     short_date());
}

MeasuredLoad parse_measured_json(const std::string& text, const std::string& path) {
  MeasuredLoad load;
  const std::string name = file_name(path);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    load.error = fmt::format("{}: not valid JSON: {}", name, without_exception_tag(e.what()));
    return load;
  }
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
    load.error = name + ": not a warpscope bench file (no \"results\" list; make one with `warpscope bench --json`)";
    return load;
  }
  MeasuredElsewhere run;
  run.file = path;
  run.host = string_or(j, "host");
  run.date = string_or(j, "date");
  if (run.host.empty() || run.date.empty()) {
    load.error = name + ": says neither where nor when it was measured (no \"host\" or \"date\"; "
                        "re-run `warpscope bench --json` with this version)";
    return load;
  }
  run.warpscope_version = string_or(j, "warpscope_version");
  if (j.contains("cpu") && j["cpu"].is_object()) run.cpu_name = string_or(j["cpu"], "name");
  if (j.contains("gpu") && j["gpu"].is_object()) run.gpu_name = string_or(j["gpu"], "name");
  const auto& results = j["results"];
  for (std::size_t i = 0; i < results.size(); ++i) {
    kernels::JobResult r;
    if (const auto problem = read_result(results[i], i, r); !problem.empty()) {
      load.error = name + ": " + problem;
      return load;
    }
    if (!r.skipped) run.results.push_back(std::move(r));
  }
  if (run.results.empty()) {
    load.error = name + ": no kernel ran in it (every result was skipped)";
    return load;
  }
  load.run = std::move(run);
  return load;
}

MeasuredLoad load_measured_file(const std::string& path) {
  const TextFile file = read_text_file(path, kMaxMeasuredBytes, "bench JSON file");
  if (!file.text) {
    MeasuredLoad load;
    if (file.problem == TextFile::Problem::cannot_open)
      load.error = file_name(path) + ": cannot be read (" + path + ")";
    else
      load.error = file_name(path) + ": " + file.error + " (" + path + ")";
    return load;
  }
  return parse_measured_json(*file.text, path);
}

std::vector<MeasuredLoad> load_measured_dir(const std::string& dir) {
  std::vector<MeasuredLoad> loads;
  for (const auto& p : json_files_in(dir)) loads.push_back(load_measured_file(p));
  return loads;
}

std::optional<ComparisonGpu> comparison_gpu(const kernels::JobResult* here_gpu, const kernels::JobResult* cpu,
                                            bool hardware_gpu_here,
                                            const std::vector<MeasuredElsewhere>& elsewhere) {
  // A software renderer ran on this CPU: it is never "the GPU".
  if (here_gpu != nullptr && !here_gpu->skipped && !here_gpu->cancelled && !here_gpu->software_renderer)
    return ComparisonGpu{here_gpu, false, here_gpu->device_name, "", ""};
  if (hardware_gpu_here || cpu == nullptr || cpu->skipped || cpu->cancelled) return std::nullopt;
  std::optional<ComparisonGpu> best;
  for (const auto& run : elsewhere) {
    for (const auto& r : run.results) {
      // Like for like with the CPU's fp32: a BF16 or TF32 tensor-core run is another contest.
      if (r.device != kernels::Device::gpu || r.software_renderer || !r.verified || !(r.ms_median > 0) ||
          !(r.shape == cpu->shape) || r.input_format != "fp32")
        continue;
      if (best && best->result->gflops >= r.gflops) continue;
      const std::string device = !r.device_name.empty() ? r.device_name : run.gpu_name;
      best = ComparisonGpu{&r, true, device, run.host, run.short_date()};
    }
  }
  return best;
}

std::string comparison_gpu_name(const ComparisonGpu& gpu, lesson::Language lang) {
  return gpu.elsewhere ? lesson::trf("measured.elsewhere_name", lang, gpu.device, gpu.host, gpu.date) : gpu.device;
}

std::optional<std::string> elsewhere_speedup_sentence(const ComparisonGpu& gpu, const kernels::JobResult& cpu,
                                                      lesson::Language lang) {
  const kernels::JobResult& g = *gpu.result;
  const bool usable = g.verified && g.ms_median > 0 && !cpu.skipped && !cpu.cancelled && cpu.verified &&
                      cpu.ms_median > 0 && g.shape == cpu.shape;
  if (!usable) return std::nullopt;
  const double ratio = cpu.ms_median / g.ms_median;
  const auto shape = format_shape(cpu.shape);
  // The Korean sentence's subject carries its particle, which agrees with the device's name, not
  // with the date in the brackets after it ("H200 (..., 2026-12-04)이", as in 오렌지(orange)를).
  if (ratio >= 1) {
    std::string subject = comparison_gpu_name(gpu, lang);
    if (lang == lesson::Language::ko) subject += lesson::particle_after(gpu.device, lesson::Particle::subject);
    return lesson::trf("measured.elsewhere_faster", lang, subject, format_ratio(ratio), describe_cpu_side(cpu, lang), shape);
  }
  return lesson::trf(cpu.threads == 1 ? "measured.here_faster_one" : "measured.here_faster_many", lang,
                     describe_cpu_side(cpu, lang), format_ratio(1 / ratio), comparison_gpu_name(gpu, lang), shape);
}

std::vector<std::string> shipped_measured_files(const std::string& dir) {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& folder : std::filesystem::directory_iterator(dir, ec))
    if (folder.is_directory(ec))
      for (auto& p : json_files_in(folder.path())) paths.push_back(std::move(p));
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string shipped_run_title(const MeasuredElsewhere& run) {
  const std::string device = run.gpu_name.empty() ? run.cpu_name : run.gpu_name;
  const std::string size = run.results.empty() ? std::string() : ", " + format_shape(run.results.front().shape);
  return fmt::format("{}{} ({}, {})", device, size, run.host, run.short_date());
}

std::optional<std::string> comparison_speedup_sentence(const ComparisonGpu& gpu, const kernels::JobResult& cpu,
                                                       lesson::Language lang) {
  return gpu.elsewhere ? elsewhere_speedup_sentence(gpu, cpu, lang) : speedup_sentence(*gpu.result, cpu, lang);
}

}  // namespace ws::app
