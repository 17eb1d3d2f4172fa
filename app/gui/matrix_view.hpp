// The output matrix C as the simulated GPU and the simulated CPU cores fill it in, each cell
// coloured by the SM or core that finished it, so the wave-by-wave order is visible.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim_session.hpp"
#include "gui/cell_grid_renderer.hpp"

namespace ws::app {

class MatrixView {
 public:
  void draw(const SimSession& session, ImVec2 size);
  struct Cell { int row = -1, col = -1; };
  Cell highlight_cell;  // outlined in both matrices (lessons point at one dot product)
  // Which workers' panels are on screen: the view shows the C of each one shown (both if neither).
  bool show_gpu_c = true, show_cpu_c = true;
  // What the last frame drew, for --print-state: how many matrices of C, and the widest one's side
  // in pixels.
  int shown_count = 0;
  float side_px = 0;
  // How big the last frame drew the highlighted row of A, column of B and cell of C, in pixels
  // (0: not drawn), for --print-state.
  struct HighlightReport {
    float row_px = 0, col_px = 0, cell_px = 0;
  };
  HighlightReport highlight_drawn;

 private:
  CellGridRenderer gpu_renderer_, cpu_renderer_;
  std::vector<std::uint8_t> gpu_cells_, cpu_cells_;
  struct Encoded {
    std::uint64_t generation = 0;
    std::int64_t cycle = -1;
    bool operator==(const Encoded&) const = default;
  };
  Encoded gpu_encoded_, cpu_encoded_;
};

}  // namespace ws::app
