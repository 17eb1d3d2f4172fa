// Alpha-beta costs of ring and tree collectives (Thakur, Rabenseifner and Gropp, "Optimization of
// Collective Communication Operations in MPICH", IJHPCA 2005; Patarasuk and Yuan, "Bandwidth
// optimal all-reduce algorithms for clusters of workstations", JPDC 2009).
#include "warpscope/sim/collectives.hpp"

#include <stdexcept>

namespace ws::sim {

const char* to_string(Collective c) {
  switch (c) {
    case Collective::all_reduce: return "all-reduce";
    case Collective::reduce_scatter: return "reduce-scatter";
    case Collective::all_gather: return "all-gather";
  }
  return "?";
}

const char* to_string(CollectiveAlgorithm a) { return a == CollectiveAlgorithm::ring ? "ring" : "tree"; }

std::vector<int> binary_tree_parents(int n) {
  std::vector<int> parent(static_cast<std::size_t>(n > 0 ? n : 0), -1);
  for (int i = 1; i < n; ++i) parent[static_cast<std::size_t>(i)] = (i - 1) / 2;
  return parent;
}

CollectiveCost collective_cost(Collective c, CollectiveAlgorithm a, int n, double bytes, double alpha_s,
                               double beta_bytes_per_s) {
  if (n < 1) throw std::invalid_argument("a collective needs at least one GPU");
  if (!(beta_bytes_per_s > 0)) throw std::invalid_argument("a collective needs a positive bandwidth");
  CollectiveCost cost;
  if (n == 1) return cost;
  if (a == CollectiveAlgorithm::ring) {
    // Each round every GPU passes one n-th of the buffer to its neighbour: n-1 rounds to reduce
    // the shards (reduce-scatter), n-1 more to hand them round (all-gather).
    cost.steps = c == Collective::all_reduce ? 2 * (n - 1) : n - 1;
    cost.bytes_per_step = bytes / n;
    cost.bytes_sent_per_gpu = cost.steps * cost.bytes_per_step;
    cost.seconds = cost.steps * (alpha_s + cost.bytes_per_step / beta_bytes_per_s);
    return cost;
  }
  if (c != Collective::all_reduce)
    throw std::invalid_argument(std::string("the tree algorithm does only all-reduce, not ") + to_string(c));
  // floor(log2 n): the height of binary_tree_parents(n). A parent's two children send at once on
  // their own links; that they share the parent's inbound bandwidth is left out, as textbooks do.
  int depth = 0;
  while ((2 << depth) <= n) ++depth;
  cost.steps = 2 * depth;
  cost.bytes_per_step = bytes;
  // Every edge carries the buffer once up and once down: 2(n-1) sends of `bytes` over n GPUs.
  cost.bytes_sent_per_gpu = 2.0 * (n - 1) * bytes / n;
  cost.seconds = cost.steps * (alpha_s + bytes / beta_bytes_per_s);
  return cost;
}

}  // namespace ws::sim
