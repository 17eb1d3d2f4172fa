// How long a real run will take, said before it starts: a cpu-naive 16384³ run takes hours, and
// nobody should find that out by waiting. No window here, so the numbers and the words are tested
// alone and the window and `warpscope bench` say the same thing.
#pragma once

#include <optional>
#include <string>

#include "lesson/i18n.hpp"
#include <vector>

#include "warpscope/kernels/job.hpp"

namespace ws::app {

// Above this, the window asks before starting a run and `bench` says how long it will be.
inline constexpr double kLongRunSeconds = 10.0;

// Speeds measured on this machine in this session. A kernel's speed depends on its thread count
// and on the size (cpu-naive is several times faster while B still fits in cache), so a lookup
// takes the measurement of the same kernel and threads whose work is nearest to the one asked.
class MeasuredSpeeds {
 public:
  static constexpr std::size_t kMaxEntries = 256;

  // Keeps verified, finished runs only: a kernel that computes the wrong C may skip work.
  void add(const kernels::JobResult& result);
  std::optional<double> gflops(const std::string& kernel, int threads, const kernels::Shape& shape) const;
  bool empty() const { return entries_.empty(); }

 private:
  struct Entry {
    std::string kernel;
    int threads = 0;
    double flops = 0;
    double gflops = 0;
  };
  std::vector<Entry> entries_;
};

struct JobEstimate {
  std::string kernel;
  kernels::Shape shape;
  int threads = 0;        // as run_job will use them (threads_for_job)
  int runs = 0;           // warm-ups + timed repeats, by run_job's own rule
  double gflops = 0;      // the speed assumed
  bool measured = false;  // from `speeds`; else the built-in rough speed (kernels::expected_gflops)
  double seconds = 0;
};

// Nothing for a job run_job would refuse at once (unavailable here, too big): it takes no time.
std::optional<JobEstimate> estimate_job(const kernels::JobRequest& request, const MeasuredSpeeds& speeds);

// A batch runs its jobs one after another: its time is their sum.
struct BatchEstimate {
  std::vector<JobEstimate> jobs;
  double seconds = 0;
  bool long_run() const { return seconds > kLongRunSeconds; }
};
BatchEstimate estimate_batch(const std::vector<kernels::JobRequest>& requests, const MeasuredSpeeds& speeds);

// Three significant figures at most, in s, min or h: "22 s", "5.73 min", "6.11 h".
std::string format_duration(double seconds);
// "cpu-naive at 16384³: about 6.11 h"; two jobs: "cpu-naive then gl-tiled at 4096³: about 6.2 min".
// Empty for a batch with no job to run.
std::string estimate_sentence(const BatchEstimate& batch, lesson::Language lang);
// How each job's time was reached, for a tooltip: "cpu-naive 6.11 h: 0.4 GFLOP/s × 1 run, a rough
// built-in speed (not measured here yet)".
std::string estimate_basis(const BatchEstimate& batch, lesson::Language lang);

}  // namespace ws::app
