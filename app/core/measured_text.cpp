#include "core/measured_text.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ws::app {

std::string format_shape(const kernels::Shape& s) {
  if (s.m == s.n && s.n == s.k) return fmt::format("{}³", s.m);
  return fmt::format("{}×{}×{}", s.m, s.n, s.k);
}

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio) || ratio <= 0) return "?";
  if (ratio >= 100) return fmt::format("{:.0f}", ratio);
  if (ratio >= 10) return fmt::format("{:.1f}", ratio);
  if (ratio >= 1) return fmt::format("{:.2f}", ratio);
  return fmt::format("{:.3g}", ratio);
}

std::string format_plain_sig3(double v) {
  if (!(v > 0)) return "0";
  const int decimals = std::max(0, 2 - static_cast<int>(std::floor(std::log10(v))));
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string describe_cpu_side(const kernels::JobResult& cpu, lesson::Language lang) {
  return cpu.threads == 1 ? std::string(lesson::tr("measured.one_cpu_thread", lang))
                          : lesson::trf("measured.cpu_threads", lang, cpu.threads);
}

static bool comparable(const kernels::JobResult& a, const kernels::JobResult& b) {
  auto usable = [](const kernels::JobResult& r) {
    return !r.skipped && !r.cancelled && r.verified && r.ms_median > 0;
  };
  return usable(a) && usable(b) && a.shape.m == b.shape.m && a.shape.n == b.shape.n &&
         a.shape.k == b.shape.k;
}

std::optional<std::string> speedup_sentence(const kernels::JobResult& gpu, const kernels::JobResult& cpu,
                                            lesson::Language lang) {
  // A software renderer ran on this CPU: calling it "the GPU" would be a lie.
  if (gpu.software_renderer || !comparable(gpu, cpu)) return std::nullopt;
  const double ratio = cpu.ms_median / gpu.ms_median;
  const auto shape = format_shape(gpu.shape);
  if (ratio >= 1) return lesson::trf("measured.gpu_faster", lang, format_ratio(ratio), describe_cpu_side(cpu, lang), shape);
  return lesson::trf(cpu.threads == 1 ? "measured.cpu_faster_one" : "measured.cpu_faster_many", lang,
                     describe_cpu_side(cpu, lang), format_ratio(1 / ratio), shape);
}

std::string openblas_core_words(const kernels::BlasCoreState& s, lesson::Language lang) {
  if (!s.detected.empty())
    return s.coretype_ignored ? lesson::trf("label.openblas_core_ignored", lang, s.core, s.coretype)
                              : lesson::trf("label.openblas_core_corrected", lang, s.core, s.detected);
  if (s.coretype_by_user)
    return s.core_isa.empty() ? lesson::trf("label.openblas_core_user", lang, s.core, s.coretype)
                              : lesson::trf("label.openblas_core_user_older", lang, s.core, s.coretype, s.core_isa, s.cpu_isa);
  return lesson::trf("label.openblas_core", lang, s.core);
}

std::string detail_words(std::string detail, const kernels::BlasCoreState& s, lesson::Language lang) {
  static const std::string prefix = "OpenBLAS core ";
  for (auto at = detail.find(prefix); at != std::string::npos; at = detail.find(prefix, at)) {
    const auto end = std::min(detail.find(';', at), detail.size());
    const std::string words = openblas_core_words(s, lang);
    detail.replace(at, end - at, words);
    at += words.size();
  }
  return detail;
}

std::string kernel_description(const kernels::KernelInfo& kernel, lesson::Language lang) {
  if (lang == lesson::Language::en) return kernel.description;
  const std::string key = "kernel_desc." + kernel.name;
  const std::string words = lesson::tr(key, lang);
  return words == key ? kernel.description : words;  // tr() answers an unknown key with the key
}

}  // namespace ws::app
