// The roofline: arithmetic intensity (FLOP per DRAM byte) against GFLOP/s, log-log, with the roofs
// of this machine's CPU and of the simulated GPU preset, the real runs of this session, the runs
// measured elsewhere and the simulated kernel. The maths is core/roofline; this file draws it with
// ImGui's draw list and remembers where, for --print-state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "core/roofline.hpp"

namespace ws::app {

struct RealRunView;
class SimSession;

struct RooflinePanel {
  // What was drawn last frame, in screen pixels, so a headless test can check it.
  struct DrawnPoint {
    roofline::Point point;
    roofline::Pixel at;
  };
  struct DrawnRoof {
    std::string machine, kind, label;  // kind: "compute" or "memory"
    double value = 0;                  // GFLOP/s or GB/s
    bool assumed = false;
    roofline::Segment data;
    roofline::Pixel from, to;
  };
  struct DrawnLabel {
    std::string text;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // its bounding box on screen (rotated labels included)
  };
  bool drawn = false;
  roofline::Rect region;  // the panel's own area: no label may leave it
  roofline::Rect plot;
  std::vector<DrawnLabel> labels;
  roofline::Axes axes;
  std::vector<DrawnPoint> points;
  std::vector<DrawnRoof> roofs;
  std::vector<std::string> notes;

  // Draws into the current ImGui window, `size` pixels. `gpu_preset` is the simulated preset's id,
  // used for the GPU's roofs while the simulation is not built yet.
  void draw(ImVec2 size, const RealRunView& real, const SimSession& sim, const std::string& gpu_preset);
  nlohmann::json state() const;

 private:
  // The simulated point is read from the finished model once per launch (preset, kernel, size, block).
  std::string summarised_key_;
  std::optional<roofline::Point> simulated_;
};

}  // namespace ws::app
