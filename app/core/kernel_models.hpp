// Which simulated kernel animates a real one: the same algorithm where the simulator has it
// (cuda-tiled and gl-tiled are the tiled model), else the nearest model, said on screen.
#pragma once

#include <string>
#include <string_view>

#include "warpscope/sim/simulation.hpp"

namespace ws::app {

struct ModelFor {
  sim::Kernel kernel = sim::Kernel::tiled;
  bool nearest = false;  // the model is not the real kernel's algorithm, only the closest one
};

// naive, tiled and regblock real kernels (any API) are their models; cuBLAS's fp32 GEMM is
// register-blocked, so regblock is its nearest model; a real kernel on the tensor cores (BF16,
// TF32, WMMA/MMA) is nearest to the tensor model. Unknown names and "" (no GPU kernel): tiled.
ModelFor model_for_real_kernel(std::string_view real_gpu_kernel);

// The real kernel of the same API ("cuda-", "gl-") whose model is `model`, if the registry has
// one; "" when it has none (the model is then animated without changing the real run).
std::string real_kernel_for_model(std::string_view real_gpu_kernel, sim::Kernel model);

// What the line under the animation must say about the animated model: nothing (it is the real
// kernel's own algorithm, or no GPU kernel runs), that it is only the nearest model of the real
// kernel, or that another model than the real kernel's was chosen. Where the real kernel cannot
// run on this machine (a lesson's CUDA kernel without CUDA), "the real run is cuda-tiled" would
// claim a run that never happens, and lessons often hide the real-run panel that says why:
// other_not_here says that it cannot run here instead.
enum class ModelNote { none, nearest, other, other_not_here };
ModelNote model_note(std::string_view real_gpu_kernel, sim::Kernel animated, bool real_runs_here = true);

}  // namespace ws::app
