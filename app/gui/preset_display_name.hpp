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

}  // namespace ws::app
