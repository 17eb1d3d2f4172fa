// Textbook costs of the collectives the cluster model uses (alpha-beta model, docs/CLUSTER.md):
// time = steps x alpha + bytes each GPU sends on its slowest hop / beta.
#pragma once

#include <string>
#include <vector>

namespace ws::sim {

enum class Collective { all_reduce, reduce_scatter, all_gather };
const char* to_string(Collective c);

// Ring: bandwidth-optimal, 2(n-1) steps for an all-reduce. Tree: a binary tree, reduce to the
// root then broadcast, 2 ceil(log2 n) steps each carrying the whole buffer: fewer steps, more
// bytes per step. Reduce-scatter and all-gather are ring-only (a tree has no shard to keep).
enum class CollectiveAlgorithm { ring, tree };
const char* to_string(CollectiveAlgorithm a);

struct CollectiveCost {
  double seconds = 0;
  int steps = 0;                 // latency-bound rounds
  double bytes_per_step = 0;     // what one GPU sends in one round
  double bytes_sent_per_gpu = 0; // summed over the rounds; the tree's is the mean over GPUs
};

// `bytes`: the buffer one GPU holds in full (all-reduce: its input and output; reduce-scatter: its
// input; all-gather: its output). alpha in seconds, beta in bytes per second per direction.
// n == 1 costs nothing. Throws std::invalid_argument for a tree reduce-scatter or all-gather.
CollectiveCost collective_cost(Collective c, CollectiveAlgorithm a, int n, double bytes, double alpha_s,
                               double beta_bytes_per_s);

// Parent of every GPU in the binary tree over n GPUs (index 0 is the root, parent -1): the
// edges the tree collective sends on.
std::vector<int> binary_tree_parents(int n);

}  // namespace ws::sim
