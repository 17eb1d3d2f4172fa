// The GPU generations as a table (View > GPU generations, or a lesson step's `panels`): every GPU
// preset with its year, SMs, cores and the peaks computed from its parts, the simulated preset's
// row marked, FP32 and tensor-core peaks drawn as bars on one scale so the tensor cores' share of
// the arithmetic is seen, not read. The rows are core/generation_table; this file lays them out.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "lesson/i18n.hpp"

namespace ws::app {

struct GenerationsPanel {
  bool drawn = false;
  // What the last frame showed, for --print-state.
  std::vector<std::string> columns;
  std::vector<std::string> row_ids;
  std::string marked;  // the simulated preset's id
  int dropped_columns = 0;
  float font_scale = 1;  // below 1 where the table was drawn smaller to keep every row in sight

  void draw(ImVec2 size, const std::string& current_gpu_preset, lesson::Language lang);
  nlohmann::json state() const;
};

}  // namespace ws::app
