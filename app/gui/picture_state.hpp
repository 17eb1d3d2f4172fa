// What the last frame's picture shows, as counts a lesson step's `expect` lines are checked
// against: the lane states in the zoomed warp, SM or chip at the shown cycle, the size of the
// highlights as drawn, and which panels were drawn. `--print-state` reports both.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "lesson/lesson.hpp"

namespace ws::app {

struct SimulationPanel;
struct RealRunView;

// Panels drawn last frame that the simulation panel does not record itself.
struct DrawnPanels {
  bool timers = false, roofline = false, generations = false, cluster = false;
  // What the cluster view drew: GPUs shown, Gantt rows, points of the scaling curve.
  int cluster_gpus = 0, cluster_gantt_rows = 0, cluster_curve_points = 0;
};

// {name: count} for every lesson::expectation_names() entry. `zoom` picks the lanes counted.
nlohmann::json picture_counts(const SimulationPanel& sim, const RealRunView& real, const lesson::Zoom& zoom,
                              const DrawnPanels& drawn);

// [{expect, value, ok}] for each expectation, read from `counts`.
nlohmann::json check_expectations(const std::vector<lesson::Expectation>& expect, const nlohmann::json& counts);
// How many entries of a check_expectations() result failed.
int failed_expectations(const nlohmann::json& checked);

}  // namespace ws::app
