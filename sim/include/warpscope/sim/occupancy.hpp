// The occupancy calculator: how many blocks of a launch fit on one SM and what stops more.
// Same rules as NVIDIA's cuda_occupancy.h (CUDA 13) for cc 3.x-12.x, with dynamic shared memory
// opted in up to the per-block maximum; cc 1.3 and 2.x follow the older published rules.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ws::sim {

// Per-compute-capability limits (CUDA Programming Guide "Technical Specifications" table and
// the architectural constants of cuda_occupancy.h).
struct CcLimits {
  int major = 0, minor = 0;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int reg_alloc_granularity = 256;   // registers per warp are rounded up to this
  int sub_partitions = 4;            // registers are split across these
  int smem_per_sm = 0;               // bytes, the most the carveout can give shared memory
  int smem_per_block = 48 * 1024;    // default static limit
  int smem_per_block_optin = 0;      // opt-in dynamic limit
  int reserved_smem_per_block = 0;   // driver reserve per block (Ampere+)
  int smem_granularity = 256;
  std::vector<int> carveout_steps_kb;  // Volta+: the L1/shared splits the hardware offers
  int max_warps_per_sm() const { return max_threads_per_sm / 32; }
};

// The compute capabilities cc_limits answers for, in ascending order.
const std::vector<std::pair<int, int>>& supported_ccs();
// "1.3, 2.0, 2.1, 3.0, ...": supported_ccs() as error messages list it.
std::string supported_ccs_text();

// Throws std::invalid_argument, naming the supported list, for any capability not in
// supported_ccs(): limits are never guessed from a neighbouring one.
CcLimits cc_limits(int major, int minor);

struct OccupancyInput {
  int block_size = 256;          // threads per block
  int regs_per_thread = 32;
  int smem_per_block = 0;        // bytes (static + dynamic)
};

struct OccupancyResult {
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double occupancy = 0;                 // active / max warps
  std::vector<std::string> limiters;    // subset of "warps", "registers", "shared_memory", "blocks"
  int limit_warps = 0, limit_registers = 0, limit_shared_memory = 0, limit_blocks = 0;
  int allocated_regs_per_block = 0;
  int allocated_smem_per_block = 0;
  std::string reason;                   // why 0 blocks fit ("" when some do)
};

// Throws std::invalid_argument for nonsensical input (block size < 1, negative regs or smem).
OccupancyResult compute_occupancy(const CcLimits& limits, const OccupancyInput& in);

}  // namespace ws::sim
