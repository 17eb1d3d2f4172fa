// Values for lesson caption placeholders ({sim.cells}, {measured.ratio}, ...), taken from what
// the app computed: the simulation shown, the chosen presets and the last real run. A value the
// app does not have yields nullopt (the caption then shows an em dash), never a made-up number.
// docs/LESSONS.md says what each key holds.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cluster_setup.hpp"
#include "lesson/i18n.hpp"
#include "warpscope/kernels/job.hpp"
#include "warpscope/sim/presets.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {

struct CaptionContext {
  const sim::Simulation* sim = nullptr;          // the simulation shown (may be null while building)
  const sim::GpuPreset* gpu = nullptr;           // chosen presets (may be null: then sim's are used)
  const sim::CpuPreset* cpu = nullptr;
  std::optional<sim::Summary> naive_summary, tiled_summary;  // the same launch with each kernel, when computed
  const kernels::JobResult* cpu_result = nullptr;  // measured on this machine (may be null / skipped / unverified)
  const kernels::JobResult* gpu_result = nullptr;
  std::string cpu_name, gpu_name;                  // this machine's CPU and GPU names ("" when no GPU)
  // This machine has no hardware GPU and no run measured elsewhere gives a GPU figure: the GPU
  // measurements (measured.gpu_ms, gpu_gflops, gpu_kernel, ratio) say so in words
  // (label.no_gpu_here) instead of a dash that would wait for a run that can never come.
  bool no_gpu_here = false;

  // Fraction (0..1) of C the simulated CPU cores had done when the simulated GPU finished; see
  // cpu_progress_at_gpu_finish(). Without it, sim.cpu_* keys are only known while the
  // simulation stands exactly at its last cycle.
  std::optional<double> cpu_progress_at_finish;
  // The cluster view's split for this step (cluster.* keys), and its speed-up from 1 to 64 GPUs
  // (cluster.curve; filled only when a caption quotes it: it is seven simulations).
  const sim::ClusterResult* cluster = nullptr;
  std::vector<ScalingPoint> cluster_curve;
  // Language of the words some values are made of (measured.verified, "no GPU").
  lesson::Language language = lesson::Language::en;
};

std::optional<std::string> caption_value(std::string_view key, const CaptionContext& ctx);

// Where the simulated CPU cores were when the GPU finished. The simulation only answers for its
// current cycle, so this seeks to the end and back (at most two checkpoint intervals of replay):
// call it once per simulation, not per frame. The state at the original cycle is restored exactly.
double cpu_progress_at_gpu_finish(const sim::Simulation& sim);

// Number formatting shared by the caption values (and usable by panels that show the same figures).
std::string group_digits(long long value);      // 16896 -> "16,896"
std::string format_sig3(double value);          // 3 significant figures; >= 1000 grouped: "3,350"
std::string format_percent(double percent);     // 75.4 -> "75", 3.25 -> "3.3", 0.04 -> "0.04"
std::string format_bytes(double bytes);         // decimal units: "8.39 MB", "512 B"

}  // namespace ws::app
