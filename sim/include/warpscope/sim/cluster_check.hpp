// The numbers add up: a cluster strategy's split computed for real on the CPU, GPU by GPU, its
// collectives summed in the order the ring (or tree) sums them, against the same step on one device.
#pragma once

#include <string>
#include <vector>

#include "warpscope/sim/cluster.hpp"

namespace ws::sim {

// One result compared: the MLP's output Y, each weight gradient and the input gradient, or C.
struct CheckedQuantity {
  std::string name;         // "Y", "dW L1", "dX", "C"
  bool exact_expected = false;  // no sum in it crosses GPUs, so it must match bit for bit
  bool bit_exact = false;
  double max_abs_diff = 0;
  double max_abs_value = 0;     // of the single-device result: the scale of the tolerance
  bool ok = false;
};

struct ClusterCheck {
  bool ok = false;
  // Results whose sums cross GPUs are added in another order: they must agree normwise,
  // max |split - single| <= tolerance x max |single|; the others bit for bit.
  double tolerance = 0;
  std::vector<CheckedQuantity> quantities;
  ClusterConfig checked;    // the configuration checked (checkable() of the one asked about)
  bool reduced = false;     // checked at smaller sizes than asked, same GPUs and split
};

inline constexpr double kCheckTolerance = 1e-4;
inline constexpr double kMaxCheckFlops = 2e9;  // a second or two of one CPU core

// The configuration itself when its step costs at most kMaxCheckFlops, else the same GPUs,
// nodes, strategy, schedule, micro-batches, layers and algorithm at the smallest sizes that split.
ClusterConfig checkable(const ClusterConfig& config);

// Runs the split of checkable(config). `drop_gpu` >= 0 leaves that GPU's share out: the check of
// the check, which must then fail. Throws std::invalid_argument as simulate_cluster does.
ClusterCheck check_cluster(const ClusterConfig& config, int drop_gpu = -1);

}  // namespace ws::sim
