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
  // The table's text against the UI's: below 1 where it was drawn smaller to keep every row in
  // sight, above where it had room to be drawn larger in large_font.
  float font_scale = 1;
  // Where the peaks' bars went: a column of their own, below each row's figures (where the panel
  // is too narrow for the column), or nowhere (the note then says nothing of bars).
  enum class Bars { column, under, none };
  Bars bars = Bars::column;
  float chart_px = 0;  // the longest bar's length: the chart's width, 0 without bars
  // A font rasterised larger than the UI's (the projector caption's), or null: set before draw.
  ImFont* large_font = nullptr;

  void draw(ImVec2 size, const std::string& current_gpu_preset, lesson::Language lang);
  nlohmann::json state() const;
};

}  // namespace ws::app
