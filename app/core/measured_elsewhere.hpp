// Runs measured on another machine (a GPU server), read from the JSON `warpscope bench --json`
// writes there. They are shown beside this machine's figures, always labelled with where and when
// they were measured, and never mixed with them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lesson/i18n.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::app {

struct MeasuredElsewhere {
  std::string file;     // where it was read from
  std::string host;     // the machine that measured it
  std::string date;     // ISO 8601 UTC, as bench wrote it
  std::string warpscope_version;
  std::string cpu_name;
  std::string gpu_name;  // "" when that machine had no GPU
  std::vector<kernels::JobResult> results;  // skipped kernels are left out

  // "measured on NVIDIA H200 (gpu-server, 2026-11-30)": the device is the result's own (its GPU,
  // or the CPU for a CPU kernel).
  std::string label(const kernels::JobResult& r, lesson::Language lang) const;
  // The same for the whole file: its GPU, else its CPU ("measured on NVIDIA H200 (...)").
  std::string file_label(lesson::Language lang) const;
  std::string short_date() const;  // "2026-11-30"
};

struct MeasuredLoad {
  std::optional<MeasuredElsewhere> run;
  std::string error;  // one line naming the file and the problem, when `run` is empty
};

// A bench file is a few KB; one over this is refused unread (not a bench file, or a wrong path).
inline constexpr std::size_t kMaxMeasuredBytes = 16 * 1024 * 1024;

// Reads one bench JSON file. A directory, FIFO, device or a file over kMaxMeasuredBytes is
// refused before it is read. A broken file, a JSON that is not a bench file, or a bench file
// without `host` and `date` (an older warpscope) gives an error line and no run.
MeasuredLoad load_measured_file(const std::string& path);
// Parses the text of a bench JSON; `path` only names it in errors and labels.
MeasuredLoad parse_measured_json(const std::string& text, const std::string& path);
// Every *.json in `dir`, sorted by name; a missing folder gives nothing.
std::vector<MeasuredLoad> load_measured_dir(const std::string& dir);
// Every *.json one folder down in `dir` (assets/measured/h200/h200-1024.json), sorted: the runs
// warpscope ships, offered in the Measured runs menu rather than shown unasked (26 rows would fill
// the panel, the roofline and the history of a window that did not ask for them).
std::vector<std::string> shipped_measured_files(const std::string& dir);
// "NVIDIA H200, 1024³ (vm, 2026-12-04)": the device and the size of the run's first result.
std::string shipped_run_title(const MeasuredElsewhere& run);

// The GPU side of the speed comparison. A GPU that ran here on real hardware always wins; only
// when this machine has no hardware GPU does a verified GPU run measured elsewhere on the same
// shape as the CPU run stand in (the fastest such run with fp32 inputs, as the CPU's), and it says
// where it was measured.
struct ComparisonGpu {
  const kernels::JobResult* result = nullptr;
  bool elsewhere = false;
  std::string device;      // "NVIDIA H200", or this machine's GPU
  std::string host, date;  // a run elsewhere: "gpu-server", "2026-11-30"
};
// Its name in the UI's language: this machine's GPU as it is; a run elsewhere with where and when,
// "NVIDIA H200 (measured on gpu-server, 2026-11-30)", "NVIDIA H200 (gpu-server에서 측정, 2026-11-30)".
std::string comparison_gpu_name(const ComparisonGpu& gpu, lesson::Language lang);
std::optional<ComparisonGpu> comparison_gpu(const kernels::JobResult* here_gpu, const kernels::JobResult* cpu,
                                             bool hardware_gpu_here,
                                             const std::vector<MeasuredElsewhere>& elsewhere);

// "NVIDIA H200 (measured on gpu-server, 2026-11-30) is 180× faster than 2 CPU threads here at 4096³".
std::optional<std::string> elsewhere_speedup_sentence(const ComparisonGpu& gpu, const kernels::JobResult& cpu,
                                                      lesson::Language lang);
// The sentence the real-run panel shows for its comparison: the GPU here (speedup_sentence) or
// the run measured elsewhere (above). `--print-state` reports the same one.
std::optional<std::string> comparison_speedup_sentence(const ComparisonGpu& gpu, const kernels::JobResult& cpu,
                                                       lesson::Language lang);

}  // namespace ws::app
