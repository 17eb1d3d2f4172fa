// A small multi-line plot of measured GFLOP/s per kernel, one point per finished run, on a log
// axis because the kernels span five orders of magnitude (naive CPU loop to cuBLAS).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace ws::app {

class GflopsHistory {
 public:
  static constexpr std::size_t kMaxPoints = 64;

  void add(const std::string& kernel, double gflops);
  void clear() { series_.clear(); }
  bool empty() const { return series_.empty() && references_.empty(); }
  // Runs measured on another machine: drawn as dashed horizontal lines in their own colour, each
  // with its label, never joined to this machine's series. Only those of kernels run here and the
  // fastest of all are drawn: a bench file holds a dozen kernels, whose lines and labels left the
  // plot 40 px for seven decades (the table above the chart lists them all).
  struct Reference {
    std::string kernel;
    std::string label;  // "cublas 4096³, measured on NVIDIA H200 (gpu-server, 2026-11-30)"
    double gflops = 0;
  };
  void set_references(std::vector<Reference> references);  // those with no GFLOP/s are left out
  const std::vector<Reference>& references() const { return references_; }
  const std::map<std::string, std::vector<float>>& series() const { return series_; }
  // Draws into the current ImGui window, `height` pixels tall, full width.
  void draw(float height);
  // What the last draw() showed, for --print-state.
  struct Drawn {
    int references_shown = 0, references_left_out = 0;
    float plot_px = 0;
    float edge_margin_px = 0;  // the least distance of a point or dashed line from the plot's top or bottom
  };
  Drawn drawn;

 private:
  std::map<std::string, std::vector<float>> series_;
  std::vector<Reference> references_;
  std::vector<const Reference*> shown_references() const;  // what draw() shows, in the order given
};

}  // namespace ws::app
