// A preset's name as the panels' status lines show it, in the UI language.
#pragma once

#include <string>

#include "gui/presentation.hpp"
#include "warpscope/sim/presets.hpp"

namespace ws::app {

// The presets' full labels carry English detail ("(128 cores)", "(the AlexNet GPU)"), so a Korean
// screen names a part by its short name ("AMD EPYC 9754", "GTX 580"); its figures are on the
// line beside it. The detected CPU is "This machine: <model>" / "이 컴퓨터: <model>".
inline std::string cpu_display_name(const sim::CpuPreset& cpu) {
  if (cpu.id == "this-machine" && !cpu.short_name.empty()) return TF("label.this_machine_cpu", cpu.short_name);
  return ui_language() == lesson::Language::ko ? cpu.sentence_name() : cpu.name;
}

inline std::string gpu_display_name(const sim::GpuPreset& gpu) {
  return ui_language() == lesson::Language::ko ? gpu.sentence_name() : gpu.name;
}

// A full label (tables, the roofline's legend) in the UI language: the file's Korean label on a
// Korean screen where the English one has words in it ("(the AlexNet GPU)").
inline const std::string& label_in_ui_language(const std::string& name, const std::string& name_ko) {
  return ui_language() == lesson::Language::ko && !name_ko.empty() ? name_ko : name;
}
inline const std::string& gpu_label(const sim::GpuPreset& gpu) { return label_in_ui_language(gpu.name, gpu.name_ko); }

}  // namespace ws::app
