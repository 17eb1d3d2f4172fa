// Draws a huge grid of small cells (every lane of every warp of every SM, or every cell of C)
// from a state texture: one byte per cell uploaded once a frame, one quad, borders in the shader.
// Instanced geometry costs ~200 ms a frame for an H100 on a software renderer; this is one pass
// over the pixels, drawn straight into ImGui's frame through a draw callback (no extra copy).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include <imgui.h>

namespace ws::app {

struct GridLayout {
  int blocks = 1;          // SMs (or tiles)
  int block_columns = 1;   // blocks per row on screen
  int cells_x = 32;        // cells per block row (lanes)
  int cells_y = 1;         // rows per block (warps)
  float gap = 4;           // between blocks, in cells

  float world_width() const { return block_columns * (cells_x + gap); }
  float world_height() const {
    const int rows = (blocks + block_columns - 1) / block_columns;
    return rows * (cells_y + gap);
  }
};

// What part of the world is on screen: `origin` (in cells) at the top-left, `scale` pixels per cell.
struct GridView {
  float origin_x = 0, origin_y = 0;
  float scale = 1;
};

class CellGridRenderer {
 public:
  CellGridRenderer() = default;
  ~CellGridRenderer();
  CellGridRenderer(const CellGridRenderer&) = delete;
  CellGridRenderer& operator=(const CellGridRenderer&) = delete;

  // Compiles the shaders on first use; false (and error()) when the GL driver refuses them.
  bool ready();
  const std::string& error() const { return error_; }

  void set_palette(const std::array<ImVec4, 16>& palette, ImVec4 background, ImVec4 border, ImVec4 highlight);
  // Cells in block-major, row-major order: (block * cells_y + row) * cells_x + column.
  void upload(std::span<const std::uint8_t> states, const GridLayout& layout);
  // Queues the grid into the current window's draw list over `size` pixels at the cursor, and
  // advances the cursor like ImGui::Image. The renderer must outlive the frame's render.
  void draw(ImVec2 size, const GridView& view, int highlight_block = -1);

 private:
  bool compile();
  static void render_callback(const ImDrawList* list, const ImDrawCmd* cmd);

  bool tried_ = false;
  std::string error_;
  unsigned program_ = 0, vao_ = 0, state_tex_ = 0;
  int tex_w_ = 0, tex_h_ = 0;
  GridLayout layout_;
  std::array<ImVec4, 16> palette_{};
  ImVec4 background_{0, 0, 0, 1}, border_{0, 0, 0, 1}, highlight_{1, 1, 0, 1};
  // What the callback draws, captured when draw() is called.
  ImVec2 rect_pos_{}, rect_size_{};
  GridView view_;
  int highlight_block_ = -1;
};

}  // namespace ws::app
