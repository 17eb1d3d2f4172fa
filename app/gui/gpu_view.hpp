// The simulated chip: every SM of the preset in a grid, its resident warps as rows, their 32
// lanes as cells, coloured by the model's state. Wheel zooms around the cursor, drag pans,
// a click picks a lane for the inspector; labels appear when there is room for them.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim_session.hpp"
#include "gui/cell_grid_renderer.hpp"

namespace ws::app {

struct LaneSelection {
  int sm = -1, slot = -1, lane = -1;
  bool valid() const { return sm >= 0; }
};

class GpuView {
 public:
  // Draws the view into a child region of `size` pixels.
  void draw(SimSession& session, ImVec2 size, double dt);

  // Smooth zoom targets (lessons and keys ask for these).
  void zoom_to_chip();
  void zoom_to_sm(int sm);
  void zoom_to_warp(int sm, int slot);
  void zoom_to_lane(int sm, int slot, int lane);
  void zoom_by(float factor);  // around the view's centre
  void snap() { view_ = target_; }  // skip the animation (screenshots)

  LaneSelection selection;
  int highlight_sm = -1;
  LaneSelection highlight_warp;  // a whole warp outlined (lane unused)
  // The outlines the last frame drew around the highlighted SM, warp and selected lane, for
  // --print-state: how many, and how many of them reach over what they point at.
  struct OutlineReport {
    int drawn = 0;
    int covering = 0;
  };
  OutlineReport outlines;
  // The labels the last frame drew on the window's background (SM names, warp names in the gap
  // beside their row), and the lowest contrast of their colour against it, for --print-state.
  struct LabelReport {
    int on_background = 0;
    double weakest_contrast = 21;
    // Labels drawn over lanes (lane numbers, a warp's name over its first lanes), and the lowest
    // contrast of their colour against the lane under them.
    int over_lanes = 0;
    double weakest_lane_contrast = 21;
  };
  LabelReport labels;
  const GridLayout& layout() const { return layout_; }
  const GridView& view() const { return view_; }

 private:
  void fit_layout(const sim::Simulation& s, ImVec2 size);
  void focus_world_rect(float x0, float y0, float x1, float y1);
  // Moves the target so the view shows nothing outside [top, bottom] (rows) or [left, right]
  // (columns) where it can.
  void keep_rows_within(float top, float bottom);
  void keep_columns_within(float left, float right);
  void draw_labels(const sim::Simulation& s, ImVec2 origin, ImVec2 size);

  CellGridRenderer renderer_;
  std::vector<std::uint8_t> texels_;
  GridLayout layout_;
  GridView view_, target_;
  ImVec2 region_{0, 0};
  std::uint64_t laid_out_for_ = 0;  // SimSession::generation() of the laid-out simulation
  enum class Pending { none, chip, sm, warp, lane } pending_ = Pending::chip;
  int pending_sm_ = 0, pending_slot_ = 0, pending_lane_ = 0;
};

}  // namespace ws::app
