#include "core/measured_text.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/english_forms.hpp"

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

namespace {

// The notes the kernels write into `detail` (kernels/job.cpp, the GL and CUDA backends), always
// in English since kernels/ knows no UI language: each form as a pattern, its words in the UI
// tables under `key` with the pattern's groups as {0}, {1}, ... A note of no known form is kept
// as it is.
const std::vector<EnglishForm>& note_forms() {
  static const std::vector<EnglishForm> forms = english_forms({
      {R"(no warm-up run \(one run estimated at (\d+) s\))", "detail.no_warmup"},
      {R"((.+) micro-kernel, KC (\d+) MC (\d+) NC (\d+) from the cache sizes)", "detail.microkernel"},
      {R"(A packed once, B packed by column chunks)", "detail.short_a"},
      {R"((.+) row dots: few columns of B, A read in place, no packing)", "detail.row_dots"},
      {R"((.+) row broadcasts: few columns of B, A read in place, no packing)", "detail.row_broadcasts"},
      {R"((.+) row broadcasts: A and B read in place, B by column blocks, no packing)", "detail.row_broadcasts_wide"},
      {R"((.+), a software renderer: runs on this CPU)", "detail.software_renderer"},
      {R"(timed by GL timer queries)", "detail.timed_gl_timer"},
      {R"(timed by glFinish \+ steady clock \(GL timer not meaningful on this renderer\))", "detail.timed_glfinish"},
      {R"((\d+) NaN/Inf values in C)", "detail.non_finite"},
      {R"((\S+) inputs: max relative error (\S+) against the fp32 inputs' product)", "detail.format_error"},
      {R"((.+) \(loaded at run time\))", "detail.loaded_at_run_time"},
      {R"(copies from pinned host memory \(cudaHostRegister\))", "detail.pinned"},
      {R"(copies from pageable host memory \(cudaHostRegister refused\))", "detail.pageable"},
      {R"((\d+) launches of (\d+) rows each, so that a cancel waits for at most two)", "detail.bands"},
      {R"(column split over (\d+) GPUs, no peer copies)", "detail.column_split"},
      {R"(GPU (\d+)(.*): columns (\d+)\.\.(\d+), last multiply (\S+) ms \(CUDA events\))", "detail.gpu_shard"},
      {R"(scalar loads: ([kn]) = (\d+) is not a multiple of (\d+) \(float4\))", "detail.scalar_loads_float4"},
      {R"(scalar loads: ([kn]) = (\d+) is not a multiple of (\d+) \(8 bf16 per 16-byte load\))",
       "detail.scalar_loads_bf16"},
      {R"(vector loads \(float4\))", "detail.vector_loads_float4"},
      {R"(vector loads \(8 bf16 per 16-byte load\))", "detail.vector_loads_bf16"},
      // Why CUDA or OpenGL cannot run (kernels/cuda/cuda_status.cpp, cuda_stub.cpp, system_info.cpp).
      {R"(no CUDA driver: (\w+))", "status.no_cuda_driver"},
      {R"(no CUDA device: (\w+))", "status.no_cuda_device_error"},
      {R"(no CUDA device)", "status.no_cuda_device"},
      {R"(CUDA driver too old for this build: (\w+) \(the driver supports (CUDA [\d.]+), the build needs (CUDA [\d.]+)\))",
       "status.cuda_driver_too_old_versions"},
      {R"(CUDA driver too old for this build: (\w+))", "status.cuda_driver_too_old"},
      {R"(CUDA unavailable: (.+))", "status.cuda_unavailable"},
      {R"(CUDA device (.+) \(cc (\d+\.\d+)\) is older than the oldest architecture built \((sm_\d+)\))",
       "status.cuda_device_too_old"},
      {R"(built without the CUDA toolkit)", "status.no_cuda_toolkit"},
      {R"(no OpenGL device)", "status.no_gl_device"},
      {R"((.+) is OpenGL ES; the compute kernels need desktop OpenGL 4.3)", "status.gl_es"},
      // Why a kernel is not offered or a run was skipped (kernels/registry.cpp, memory.cpp, job.cpp).
      {R"(built without OpenBLAS)", "status.no_openblas"},
      {R"(needs 2 CUDA GPUs; this machine has (\d+))", "status.needs_two_gpus"},
      {R"(needs 2 CUDA GPUs; this machine has (\d+) \(built without the CUDA toolkit\))", "status.needs_two_gpus_no_toolkit"},
      {R"((\S+) needs tensor cores with (BF16|TF32) \(cc 8.0 or newer\); (.+) is cc (\d+\.\d+))", "status.needs_tensor_cores"},
      {R"(needs ([\d.]+ [MG]iB) of host memory, ([\d.]+ [MG]iB) available)", "status.needs_host_memory"},
      {R"(needs ([\d.]+ [MG]iB) of GPU memory, ([\d.]+ [MG]iB) available)", "status.needs_gpu_memory"},
      {R"(could not allocate ([\d.]+ [MG]iB) of host memory)", "status.could_not_allocate"},
      {R"(could not run: not enough memory)", "status.could_not_run_memory"},
  });
  return forms;
}

}  // namespace

std::string kernels_words(const std::string& note, lesson::Language lang) {
  return reword_or_keep(note, note_forms(), lang);
}

std::string detail_words(std::string detail, const kernels::BlasCoreState& s, lesson::Language lang) {
  static const std::string prefix = "OpenBLAS core ";
  std::string out;
  for (std::size_t at = 0; at <= detail.size();) {
    const std::size_t end = std::min(detail.find("; ", at), detail.size());
    const std::string note = detail.substr(at, end - at);
    if (!out.empty()) out += "; ";
    if (note.rfind(prefix, 0) == 0)
      out += openblas_core_words(s, lang);
    else
      out += kernels_words(note, lang);
    at = end + 2;
  }
  return out;
}

std::string kernel_description(const kernels::KernelInfo& kernel, lesson::Language lang) {
  if (lang == lesson::Language::en) return kernel.description;
  const std::string key = "kernel_desc." + kernel.name;
  const std::string words = lesson::tr(key, lang);
  return words == key ? kernel.description : words;  // tr() answers an unknown key with the key
}

}  // namespace ws::app
