// The output matrix C twice, as the simulated GPU and the simulated CPU cores fill it in, each
// cell coloured by the SM or core that finished it, so the wave-by-wave order is visible.
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
  // How big the last frame drew the highlighted row of A, column of B and cell of C, in pixels
  // (0: not drawn), for --print-state.
  struct HighlightReport {
    float row_px = 0, col_px = 0, cell_px = 0;
  };
  HighlightReport highlight_drawn;

 private:
  CellGridRenderer gpu_renderer_, cpu_renderer_;
  std::vector<std::uint8_t> gpu_cells_, cpu_cells_;
  std::uint64_t encoded_generation_ = 0;
  std::int64_t encoded_cycle_ = -1;
};

}  // namespace ws::app
