// The names a lesson file may use, taken from the simulator's presets and the kernel registry,
// so the lesson library needs neither. One place for the window and `warpscope lesson`.
#pragma once

#include "lesson/lesson.hpp"

namespace ws::app {

// Throws std::runtime_error when a preset file is broken: no lesson can be judged fairly against
// a half-loaded registry.
lesson::Vocabulary registry_vocabulary();

}  // namespace ws::app
