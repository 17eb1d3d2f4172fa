#include "core/kernel_models.hpp"

#include <fmt/format.h>

#include "warpscope/kernels/job.hpp"

namespace ws::app {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

bool on_tensor_cores(std::string_view name) {
  return contains(name, "bf16") || contains(name, "tf32") || contains(name, "fp16") || contains(name, "tensor") ||
         contains(name, "wmma") || contains(name, "mma");
}

std::string_view api_prefix(std::string_view name) {
  const auto dash = name.find('-');
  return dash == std::string_view::npos ? std::string_view{} : name.substr(0, dash + 1);
}

}  // namespace

ModelFor model_for_real_kernel(std::string_view name) {
  if (on_tensor_cores(name)) return {sim::Kernel::tensor, !ends_with(name, "-tensor")};
  if (ends_with(name, "-naive")) return {sim::Kernel::naive, false};
  if (ends_with(name, "-tiled")) return {sim::Kernel::tiled, false};
  if (ends_with(name, "-regblock")) return {sim::Kernel::regblock, false};
  // Warp tiling is register blocking with the lanes arranged by warp: regblock is the nearest model.
  if (ends_with(name, "-warptiled")) return {sim::Kernel::regblock, true};
  if (name == "cublas" || name == "cuda-multi") return {sim::Kernel::regblock, true};
  return {sim::Kernel::tiled, !name.empty()};
}

std::string real_kernel_for_model(std::string_view real_gpu_kernel, sim::Kernel model) {
  const std::string_view api = api_prefix(real_gpu_kernel);
  if (api.empty()) return "";
  const std::string candidate = fmt::format("{}{}", api, sim::to_string(model));
  if (kernels::find_kernel(candidate) == nullptr) return "";
  const ModelFor m = model_for_real_kernel(candidate);
  return m.kernel == model && !m.nearest ? candidate : "";
}

ModelNote model_note(std::string_view real_gpu_kernel, sim::Kernel animated, bool real_runs_here) {
  if (real_gpu_kernel.empty()) return ModelNote::none;
  const ModelFor m = model_for_real_kernel(real_gpu_kernel);
  if (m.kernel != animated) return real_runs_here ? ModelNote::other : ModelNote::other_not_here;
  return m.nearest ? ModelNote::nearest : ModelNote::none;
}

}  // namespace ws::app
