// The wording of measured figures, kept apart from the panels so tests can check it and the
// GUI, the lessons and the CLI say the same thing the same way.
#pragma once

#include <optional>
#include <string>

#include "lesson/i18n.hpp"
#include "warpscope/kernels/blas_core.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::app {

// "2048³" for cubes, "1000×777×333" otherwise.
std::string format_shape(const kernels::Shape& s);
// Three significant figures, without a trailing ".0": 143, 18.5, 2.31, 0.0412.
std::string format_ratio(double ratio);
// Three significant figures, no exponent, no digit grouping, trailing zeros dropped: 66.9, 50,
// 1250, 0.0412; "0" for zero, negative or not a number.
std::string format_plain_sig3(double v);
// "1 CPU thread" / "2 CPU threads".
std::string describe_cpu_side(const kernels::JobResult& cpu, lesson::Language lang);

// "GPU is 143× faster than 2 CPU threads at 2048³" (or "CPU ... faster than the GPU" when that is
// the truth). Nothing when either side did not produce a verified, comparable measurement: a
// ratio built on a wrong or missing result would not be honest, and neither is a GL kernel on a
// software renderer (it ran on this CPU).
std::optional<std::string> speedup_sentence(const kernels::JobResult& gpu, const kernels::JobResult& cpu,
                                            lesson::Language lang);

// "OpenBLAS core: Haswell (OPENBLAS_CORETYPE=Haswell set by the user)": the core cpu-blas runs,
// and why, from kernels::blas_core_state().
std::string openblas_core_words(const kernels::BlasCoreState& s, lesson::Language lang);
// A result's detail with its "OpenBLAS core ..." part (kernels::blas_core_note(), always English)
// worded again from `s` in `lang`.
std::string detail_words(std::string detail, const kernels::BlasCoreState& s, lesson::Language lang);
// One text kernels/ wrote in English (a note of a result's detail, why CUDA or OpenGL cannot run),
// worded in `lang` where its form is known (detail.*, status.*), else as it is.
std::string kernels_words(const std::string& text, lesson::Language lang);
// The kernel picker's one line about a kernel: the registry's English, or its translation
// ("kernel_desc.<name>" in the UI tables); a kernel without one keeps the English.
std::string kernel_description(const kernels::KernelInfo& kernel, lesson::Language lang);

}  // namespace ws::app
