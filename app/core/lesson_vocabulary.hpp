// The names a lesson file may use, taken from the simulator's presets and the kernel registry,
// so the lesson library needs neither. One place for the window and `warpscope lesson`.
#pragma once

#include "lesson/lesson.hpp"

namespace ws::app {

// Throws std::runtime_error when a preset file is broken: no lesson can be judged fairly against
// a half-loaded registry.
lesson::Vocabulary registry_vocabulary();

// CUDA sees a GPU, or OpenGL runs on real hardware (not llvmpipe): GPU measurements can be made
// here. Probes the drivers, so call it once.
bool machine_has_hardware_gpu();

}  // namespace ws::app
